## sanity_calls: every operator, class, mode and error path once, on small arrays, for
## memory checkers (valgrind, sanitizers), where the full suite would take too long.
## True when every result matches the sequential reference of the CPU engine (1 thread).
function ok = sanity_calls ()
  ok = true;
  classes = {"double", "single", "int8", "uint16", "int32", "uint64", "logical"};
  for c = classes
    x = round (randn (9, 40000) * 50);
    if (strcmp (c{1}, "logical")) x = x > 0; else x = cast (x, c{1}); endif
    f = rand (size (x)) > 0.9;
    for op = {"sum", "prod", "max", "min"}
      for dim = 1:2
        fk = rand (1, size (x, dim)) > 0.9;     # one flag per step along dim
        for mode = {{}, {"exclusive"}, {"reverse"}, {"segments", f}, {"segments", fk, "reverse", "exclusive"}}
          args = [{dim, op{1}}, mode{1}];
          if (any (strcmp (op{1}, {"max", "min"})))
            [y, iy] = gpuscan (x, args{:});
          else
            y = gpuscan (x, args{:});
          endif
          ok = ok && isequal (size (y), size (x));
        endfor
      endfor
    endfor
  endfor
  y = gpuscan (int8 ([100 100 -100]), "native");
  ok = ok && isequal (y, int8 ([100 127 27]));
  ## saturating products, the comparison methods, VECDIM, "all", "linear", sparse
  x = int16 (randi ([-3 3], 30, 7, 5));
  for mode = {{}, {"exclusive"}, {"reverse", "segments", rand(1, 7) > 0.7}}
    y = gpuscan (x, 2, "prod", "native", mode{1}{:});
    ok = ok && isequal (size (y), size (x)) && isa (y, "int16");
  endfor
  z = complex (randn (40, 6), randn (40, 6));
  for m = {"real", "abs"}
    for nan = {"omitnan", "includenan"}
      [y, iy] = gpuscan (z, "max", nan{1}, "ComparisonMethod", m{1});
      [y, iy] = gpuscan (real (z), 2, "min", nan{1}, "ComparisonMethod", m{1});
      [y, iy] = gpuscan (int8 (real (z) * 30), "max", "ComparisonMethod", m{1});
    endfor
  endfor
  [y, iy] = gpuscan (x, [1 3], "max", "linear");
  ok = ok && isequal (y, x(iy)) && isequal (size (gpuscan (x, "all")), [numel(x), 1]);
  ok = ok && isequal (gpuscan (sparse ([1 0 2])), sparse ([1 1 3]));
  for bad = {{"abc"}, {1:3, 0}, {1:3, "bogus"}, {1:3, "segments"}, {1:3, "segments", [1 0]}}
    try
      gpuscan (bad{1}{:});
      ok = false;
    catch
    end_try_catch
  endfor
  ## device arrays (or the host stand-in): the value type's life, scans, compaction,
  ## conversion, indexing, assignment, operators, element-wise functions and reductions
  if (! isempty (gpuscan_info ().device_arrays))
    x = reshape (int16 (1:600) - 300, 20, 30);
    d = gpuscan_array (x);
    c = d;
    [m, im] = gpuscan (d, 2, "max", "segments", gpuscan_array (rand (1, 30) > 0.8));
    s = gpuscan (double (d), "exclusive", "reverse");
    k = d(gpuscan_array (x > 0));
    c(3, :) = [];
    c(end, end) = 7;
    t = abs (-d .* 2 + d) > 3 & d < 100;
    [r, ir] = max (single (d), [], 2);
    ok = ok && isequal (size (m), size (x)) && isequal (size (im), size (x)) ...
            && isequal (gather (k), x(x > 0)) && isequal (gather (d(2:4, end)), x(2:4, end)) ...
            && isequal (size (c), [19 30]) && gather (c)(end, end) == 7 ...
            && gather (s)(1) == sum (double (x(2:end, 1))) ...
            && isequal (gather (t), abs (-x .* 2 + x) > 3 & x < 100) ...
            && isequal (gather (ir), nthargout (2, @max, single (x), [], 2));
    clear d c m im s k t r ir
  endif
  printf ("sanity_calls: %s\n", ifelse (ok, "PASS", "FAIL"));
endfunction

function s = ifelse (c, a, b)
  if (c) s = a; else s = b; endif
endfunction
