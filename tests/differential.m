## differential: randomized differential test of gpuscan against a reference built only
## from Octave's own cumsum, cumprod, cummax and cummin.  Every class, real and complex,
## shapes with 0 and 1, tile and chunk sizes +-1, dims beyond ndims, every operator,
## "exclusive", "reverse", "native", "double", "omitnan", "includenan", "accurate",
## "reproducible" (a second call gives the same bits), "recurrence" (against a loop),
## gpuscan_filter (against filter: a tenth of the cases, device arrays too),
## segments (full or per step, logical or numeric, host or device, or as keys), NaN,
## +-Inf, -0 and complex Inf/NaN mixes; the same cases
## through device arrays where there are any.  Seeded: a failure prints the seed and the
## case, and differential (1, SEED, CASE) runs that case alone.
##   ok = differential (NCASES, SEED)    NCASES cases from SEED (default: the time)
## GPUSCAN_CHUNK_ELEMENTS, where set, adds its chunk size +-1 to the lengths tried.
function ok = differential (ncases = 300, seed = [], only = [])
  if (isempty (seed))
    seed = floor (mod (now () * 86400e3, 2^31));
  endif
  info = gpuscan_info ();
  arrays = ! isempty (info.device_arrays);
  mex = exist ("gpuscan_mex") == 3;   # (the MEX gateway, where it was built)
  lens = [1 2 3 31 32 33 255 256 257 1023 1024 1025 6143 6144 6145 32767 32768 32769 49153];
  chunk = str2double (getenv ("GPUSCAN_CHUNK_ELEMENTS"));
  if (isfinite (chunk) && chunk >= 3)
    lens = [lens, chunk + [-1 0 1]];
  endif
  failed = 0;
  counts = zeros (1, 3);   # host calls, device-array calls, MEX calls
  t0 = tic ();
  cases = 1:ncases;
  if (! isempty (only))
    cases = only;
  endif
  ## GPUSCAN_DIFFERENTIAL_SECONDS: no new case after this many seconds (the sanitizer
  ## builds, where a case's reference loop in the interpreter can take a minute)
  seconds = str2double (getenv ("GPUSCAN_DIFFERENTIAL_SECONDS"));
  for c = cases
    if (toc (t0) > seconds)
      printf ("differential: stopped after %d cases at GPUSCAN_DIFFERENTIAL_SECONDS=%g\n",
              counts(1), seconds);
      break;
    endif
    rand ("seed", seed + c);
    randn ("seed", seed + c);
    if (rand () < 0.1)
      ## gpuscan_filter against filter, of host and device arrays
      [msg, what, on_device] = filter_case (lens, arrays);
      counts(2) += on_device;
    else
      k = draw_case (lens);
      what = describe (k);
      msg = run_case (k, false);
      if (isempty (msg) && arrays && k.numel <= 2^16)
        msg = run_case (k, true);
        counts(2)++;
      endif
      if (isempty (msg) && mex && ! k.groups)   # (the MEX file takes no "groups")
        msg = run_case (k, false, true);
        counts(3)++;
      endif
    endif
    counts(1)++;
    if (! isempty (msg))
      failed++;
      if (failed <= 10)
        printf ("differential: FAIL seed %d case %d: %s\n  %s\n  rerun: differential (1, %d, %d)\n",
                seed, c, what, msg, seed, c);
      endif
    endif
  endfor
  printf ("differential: seed %d, %d host and %d device-array cases (%d through gpuscan_mex), %d failed (%.1f s)\n",
          seed, counts, failed, toc (t0));
  ok = failed == 0;
endfunction

## ---- a filter case: gpuscan_filter against filter ------------------------------------
## Every order to 10, FIR and IIR (poles within radius 0.97), double and single, real and
## complex, integer X, with and without ZI, along any dimension; filter's bits where the
## channels run in order, the help's bound where few long ones run in blocks (lengths
## 2^16 and beyond)
function [msg, what, on_device] = filter_case (lens, arrays)
  on_device = false;
  K = randi ([0 10]);
  n = [lens, 2^16, 2^16 + 1, 2^16 + 2049](randi (numel (lens) + 3));
  m = [1 2 3 17](randi (4));
  shapes = {[n 1], [1 n], [n m], [m n], [2 n 2], [0 m], [m 0]};
  sz = shapes{randi (numel (shapes))};
  if (rand () < 0.7 && K > 0)
    p = 0.97 * rand (1, floor (K / 2)) .* exp (1i * pi * rand (1, floor (K / 2)));
    a = (1 + rand ()) * real (poly ([p, conj(p), 0.97 * (2 * rand (1, mod (K, 2)) - 1)]));
    b = randn (1, randi (K + 1));
  else
    a = 1 + rand ();
    b = randn (1, K + 1);
  endif
  x = randn (sz);
  cls = {"double", "single", "int16"}{randi (3)};
  x = cast (100 * x, cls);
  if (rand () < 0.3)
    b = complex (b, randn (size (b)));
  endif
  dim = find ([sz != 1, true], 1);
  if (rand () < 0.5)
    dim = randi (numel (sz));
  endif
  Kf = max (numel (a), numel (b)) - 1;
  zsz = [Kf, sz(1:dim-1), sz(dim+1:end)];
  zi = [];
  if (rand () < 0.5)
    zi = randn ([zsz, 1]);
  endif
  what = sprintf ("gpuscan_filter, order %d, %s %s, %s, dim %d, %s", Kf,
                  mat2str (numel (b)), mat2str (numel (a)), mat2str (sz), dim, cls);
  try
    [r, rf] = filter (b, a, x, zi, dim);
  catch err
    msg = "";   # (what filter refuses is gpuscan_filter's error tests' business)
    return;
  end_try_catch
  try
    [y, zf] = gpuscan_filter (b, a, x, zi, dim);
  catch err
    msg = ["error: ", err.message];
    return;
  end_try_catch
  channels = prod (sz) / max (sz(dim), 1);
  ## in blocks on the CPU engine (few channels of 2^16 steps), and on the GPU's kernels
  ## (real data, fewer than 2^16 channels of 512 steps), which host arrays take where
  ## GPUSCAN_ENGINE=gpu or GPUSCAN_CROSSOVER says so
  cpu_blocked = Kf >= 1 && Kf <= 8 && channels < 16 && sz(dim) >= 2^16;
  gpu_blocked = Kf >= 1 && Kf <= 8 && channels < 2^16 && sz(dim) >= 512 && isreal (r);
  crossover = str2double (getenv ("GPUSCAN_CROSSOVER"));
  host_on_gpu = (gpuscan_info ().gpu_count > 0 && ! strcmp (getenv ("GPUSCAN_HOST_ARRAYS"), "1")
                 && (strcmp (getenv ("GPUSCAN_ENGINE"), "gpu")
                     || (crossover > 0 && numel (x) >= crossover)));
  msg = filter_check (y, zf, r, rf, cpu_blocked || (host_on_gpu && gpu_blocked), b, a, "");
  if (isempty (msg) && arrays && prod (sz) <= 2^17)
    on_device = true;
    zd = zi;
    if (rand () < 0.5)
      zd = gpuscan_array (zi);
    endif
    try
      [y, zf] = gpuscan_filter (b, a, gpuscan_array (x), zd, dim);
    catch err
      msg = ["device arrays: error: ", err.message];
      return;
    end_try_catch
    if (! (isa (y, "gpuscan_array") && isa (zf, "gpuscan_array")))
      msg = "device arrays: Y and ZF are not device arrays";
      return;
    endif
    [y, zf] = gather (y, zf);
    msg = filter_check (y, zf, r, rf, cpu_blocked || gpu_blocked, b, a, "device arrays: ");
  endif
endfunction

## y and zf against filter's r and rf: the same bits, or in blocks within the bound of
## gpuscan_filter's help
function msg = filter_check (y, zf, r, rf, blocked, b, a, prefix)
  msg = "";
  if (! strcmp (class (y), class (r)) || ! isequal (size (y), size (r)) || ! isequal (size (zf), size (rf)))
    msg = sprintf ("%sclass or size: %s %s, %s against filter's %s %s, %s", prefix, class (y),
                   mat2str (size (y)), mat2str (size (zf)), class (r), mat2str (size (r)),
                   mat2str (size (rf)));
  elseif (! blocked)
    if (! isequaln ({y, zf}, {r, rf}))
      msg = sprintf ("%snot filter's bits: largest difference %g", prefix,
                     max (abs ([y(:) - r(:); zf(:) - rf(:)])));
    endif
  else
    h = filter (b, a, [1; zeros(4095, 1)]);
    t = 1e4 * eps (class (r)) * max (abs (r(:))) * norm (h, 1);
    if (! (max (abs ([y(:) - r(:); zf(:) - rf(:)])) <= t))
      msg = sprintf ("%sblocks: largest difference %g, bound %g", prefix,
                     max (abs ([y(:) - r(:); zf(:) - rf(:)])), t);
    endif
  endif
endfunction

## ---- the random case -----------------------------------------------------------------
function k = draw_case (lens)
  classes = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", ...
             "uint32", "int64", "uint64", "logical"};
  k.cls = classes{randi (numel (classes))};
  k.complex = any (strcmp (k.cls, {"double", "single"})) && rand () < 0.3;
  n = lens(randi (numel (lens)));
  m = [1 2 3 5](randi (4));
  shapes = {[0 0], [0 3], [3 0], [1 0], [1 1], [1 n], [n 1], [m n], [n m], ...
            [m 2 ceil(n / 8)], [1 1 n], [2 0 3]};
  k.size = shapes{randi (numel (shapes))};
  ## lengths whose scan runs long enough for the CPU engine's blocks, with few lines
  k.numel = prod (k.size);
  k.special = rand () < 0.5;
  k.ops = {"sum", "prod", "max", "min"}(randi (4));
  k.op = k.ops{1};
  ## the operators Octave has no cumulative function of: logical, bitwise, log-space
  if (rand () < 0.25)
    k.op = {"and", "or", "xor", "bitand", "bitor", "bitxor", "logsumexp"}{randi (7)};
    k.complex = false;
    if (any (strcmp (k.op, {"bitand", "bitor", "bitxor"})))
      k.cls = {"uint8", "uint16", "uint32", "uint64"}{randi (4)};
    elseif (any (strcmp (k.op, {"and", "or", "xor"})))
      k.special = false;   # (a NaN has no logical value: an error)
    endif
  endif
  ## linear recurrences y(k) = a(k) y(k-1) + x(k): A one value or one an element, real
  ## (complex with complex X) within +-0.95, single at times; "initial" at times
  k.coef = [];
  k.initial = [];
  if (rand () < 0.08)
    k.op = "recurrence";
    k.special = false;   # (Inf * 0 in the composed maps: NaN where the loop has none)
    k.coef = 0.95 * (2 * rand (merge (rand () < 0.5, k.size, [1 1])) - 1);
    if (k.complex)
      k.coef = k.coef .* exp (1i * pi * rand (size (k.coef)));
    endif
    if (rand () < 0.2)
      k.coef = single (k.coef);
    endif
    if (rand () < 0.3)
      k.initial = randn ();
    endif
  endif
  classic = any (strcmp (k.op, {"sum", "prod", "max", "min"}));
  nd = numel (k.size);
  choice = randi (6);
  k.dim = [];                        # the default: first non-singleton
  if (choice <= 3)
    k.dim = min (choice, nd + 1);
  elseif (choice == 4)
    k.dim = nd + 1;                  # beyond ndims: lines of length 1
  elseif (choice == 5 && rand () < 0.2)
    k.dim = 2^40;
  endif
  k.exclusive = rand () < 0.3;
  k.reverse = rand () < 0.3;
  k.outclass = "";
  isint = ! any (strcmp (k.cls, {"double", "single"}));
  if (any (strcmp (k.op, {"sum", "prod"})) && isint && rand () < 0.5)
    k.outclass = "native";
  elseif (any (strcmp (k.op, {"sum", "prod"})) && rand () < 0.2)
    k.outclass = "double";
  endif
  k.index = any (strcmp (k.op, {"max", "min"})) && rand () < 0.7;
  ## MATLAB's NaN flags, each with either operator family (two of the four are no-ops)
  k.nanflag = "";
  if (classic && rand () < 0.3)
    k.nanflag = {"omitnan", "includenan"}{randi (2)};
  endif
  k.accurate = strcmp (k.op, "sum") && rand () < 0.15;
  k.reproducible = rand () < 0.2;
  k.x = draw_data (k);
  ## segments: none, one flag per element, or one per step along dim
  k.heads = [];
  k.heads_full = false;
  k.heads_numeric = false;
  k.heads_device = false;
  k.keys = false;
  k.groups = false;
  dim = effective_dim (k.size, k.dim);
  len = size (k.x, min (dim, 2^31 - 1));
  if (rand () < 0.3)
    ## (at most ~2000 segments a line: the reference scans them one by one, in the
    ## interpreter, which took 40 s for one case of 49153 steps under ASan)
    density = min ([0.01 0.2 0.7](randi (3)), 2048 / max (len, 1));
    ## one flag per element: the reference scans such lines one by one, so few of them
    k.heads_full = rand () < 0.5 && k.numel / max (len, 1) <= 64;
    if (k.heads_full)
      k.heads = rand (k.size) < density;
    else
      k.heads = rand (1, len) < density;
      if (rand () < 0.5)
        k.heads = k.heads.';
      endif
    endif
    if (rand () < 0.3)
      k.heads = double (k.heads) .* (1 + 3 * rand (size (k.heads)));   # any nonzero starts one
      k.heads_numeric = true;
    endif
    k.heads_device = rand () < 0.5;
    k.keys = rand () < 0.3;   # the same segments given as keys that change at the heads
    ## or as "groups": a label of its own a segment, in no order; whole numbers of a
    ## narrow range (counted), or halves and wide ones (sorted)
    k.groups = ! k.keys && ! k.heads_full && ! strcmp (k.op, "recurrence") && rand () < 0.3;
  endif
endfunction

function x = draw_data (k)
  sz = k.size;
  switch (k.cls)
    case "logical"
      x = rand (sz) < 0.5;
    case {"double", "single"}
      if (strcmp (k.op, "logsumexp"))
        x = 40 * rand (sz) - 20;   # (the reference sums exp (x) as it is)
      elseif (strcmp (k.op, "prod"))
        x = (1 + 0.01 * randn (sz)) .* sign (randn (sz));   # near 1: no overflow, no underflow
      else
        x = randn (sz) .* 10 .^ (3 * rand (sz));
      endif
      if (k.complex)
        if (strcmp (k.op, "prod"))
          x = complex (x, 0.01 * randn (sz));
        else
          x = complex (x, randn (sz) .* 10 .^ (3 * rand (sz)));
        endif
      endif
      if (k.special && numel (x) > 0)
        specials = [NaN, Inf, -Inf, 0, -0];
        pick = rand (sz) < 0.05;
        v = specials(randi (5, nnz (pick), 1));
        if (k.complex)
          ## complex Inf/NaN mixes: one part or both; on long lines only whole NaNs,
          ## whose order the blocked scans cannot change
          im = specials(randi (5, nnz (pick), 1));
          if (k.numel > 32768 && any (strcmp (k.op, {"max", "min"})))
            im = v;
          endif
          x(pick) = complex (v, im);
        else
          x(pick) = v;
        endif
      endif
      x = cast (x, k.cls);
    otherwise
      lo = double (intmin (k.cls));
      hi = double (intmax (k.cls));
      small = rand (sz) < 0.6;
      x = round (lo + (hi - lo) * rand (sz));
      x(small) = randi ([-5 5], nnz (small), 1);
      if (strcmp (k.op, "prod"))
        x = randi ([-3 3], sz);
      elseif (strcmp (k.op, "logsumexp"))
        x = randi ([-20 20], sz);
      endif
      x = cast (x, k.cls);   # saturates what lies outside (unsigned: the negatives)
  endswitch
endfunction

function d = effective_dim (sz, dim)
  if (isempty (dim))
    d = find (sz != 1, 1);
    if (isempty (d))
      d = 1;
    endif
  else
    d = dim;
  endif
endfunction

function s = describe (k)
  s = sprintf ("%s%s %s, %s", merge (k.complex, "complex ", ""), k.cls,
               mat2str (k.size), k.op);
  if (! isempty (k.dim))
    s = [s sprintf(", dim %g", k.dim)];
  endif
  flags = {"exclusive", "reverse"}([k.exclusive, k.reverse]);
  if (! isempty (k.outclass))
    flags{end+1} = k.outclass;
  endif
  if (k.index)
    flags{end+1} = "[Y, IY]";
  endif
  if (! isempty (k.heads))
    flags{end+1} = sprintf ("%s (%s%s%s)", merge (k.keys, "keys", merge (k.groups, "groups", "segments")),
                            merge (k.heads_full, "full", "per step"),
                            merge (k.heads_numeric, ", numeric", ""),
                            merge (k.heads_device, ", device", ""));
  endif
  if (! isempty (k.nanflag))
    flags{end+1} = k.nanflag;
  endif
  if (k.accurate)
    flags{end+1} = "accurate";
  endif
  if (k.reproducible)
    flags{end+1} = "reproducible";
  endif
  if (strcmp (k.op, "recurrence"))
    flags{end+1} = sprintf ("A %s%s%s", merge (numel (k.coef) > 1, "per element", "scalar"),
                            merge (isa (k.coef, "single"), " single", ""),
                            merge (isempty (k.initial), "", sprintf (", initial %g", k.initial)));
  endif
  if (k.special)
    flags{end+1} = "specials";
  endif
  s = [s ", " strjoin(flags, ", ")];
endfunction

## ---- one call and its check --------------------------------------------------------
## the case through gpuscan, on a device array (device), or through gpuscan_mex (mex)
function [msg, y] = run_case (k, device, mex = false)
  args = {};
  if (! isempty (k.dim))
    args{end+1} = k.dim;
  endif
  if (strcmp (k.op, "recurrence"))
    args(end+1:end+2) = {"recurrence", k.coef};
    if (! isempty (k.initial))
      args(end+1:end+2) = {"initial", k.initial};
    endif
  else
    args{end+1} = k.op;
  endif
  if (k.exclusive)
    args{end+1} = "exclusive";
  endif
  if (k.reverse)
    args{end+1} = "reverse";
  endif
  if (! isempty (k.outclass))
    args{end+1} = k.outclass;
  endif
  if (! isempty (k.nanflag))
    args{end+1} = k.nanflag;
  endif
  if (k.accurate)
    args{end+1} = "accurate";
  endif
  if (k.reproducible)
    args{end+1} = "reproducible";
  endif
  if (k.keys)
    ## keys that change exactly where the heads are (after the first element)
    if (k.heads_full)
      g = cumsum (k.heads != 0, min (effective_dim (size (k.x), k.dim), ndims (k.x) + 1));
    else
      g = reshape (cumsum (k.heads(:) != 0), size (k.heads));
    endif
    if (rand () < 0.5)
      g = int32 (g);
    endif
    args(end+1:end+2) = {"keys", g};
  elseif (k.groups)
    segment = cumsum (k.heads(:) != 0);   # (0 for the steps before the first head)
    label = randperm (max ([segment; 0]) + 1)(segment + 1);
    label = {label, label + 0.5, int16(label), label * 1e9}{randi (4)};
    args(end+1:end+2) = {"groups", reshape(label, size (k.heads))};
  elseif (! isempty (k.heads))
    h = k.heads;
    if (device && k.heads_device)
      h = gpuscan_array (h);
    endif
    args(end+1:end+2) = {"segments", h};
  endif
  y = [];
  iy = [];
  x = k.x;
  if (device)
    x = gpuscan_array (x);
  endif
  scan = @gpuscan;
  if (mex)
    scan = @gpuscan_mex;
  endif
  try
    if (k.index)
      [y, iy] = scan (x, args{:});
    else
      y = scan (x, args{:});
    endif
  catch err
    msg = sprintf ("error %s: %s", err.identifier, err.message);
    return;
  end_try_catch
  if (device)
    y = gather (y);
    if (k.index)
      iy = gather (iy);
    endif
  endif
  if (k.reproducible)
    y2 = scan (x, args{:});
    if (device)
      y2 = gather (y2);
    endif
    if (! isequaln (y2, y) || ! isequal (signbit (real (y2)), signbit (real (y))))
      msg = "reproducible, yet a second call gave other bits";
      return;
    endif
  endif
  [r, ir, scale] = reference (k);
  msg = compare (k, y, r, scale, "Y");
  if (isempty (msg) && k.index)
    msg = compare (k, iy, ir, [], "IY");
  endif
endfunction

## the scan of k from Octave's builtins: line by line along dim, segment by segment
function [r, ir, scale] = reference (k)
  x = k.x;
  sz = size (x);
  out = scan_class (k);
  if (isempty (x))
    r = cast (x, out);
    ir = zeros (sz);
    scale = zeros (sz);
    return;
  endif
  dim = effective_dim (sz, k.dim);
  nd = max (numel (sz), min (dim, numel (sz) + 1));
  sz(end+1:nd) = 1;
  if (dim > numel (sz))     # beyond ndims: every line has one element
    perm = 1:numel (sz);
    len = 1;
  else
    perm = [dim, 1:dim-1, dim+1:numel(sz)];
    len = sz(dim);
  endif
  xp = reshape (permute (x, perm), len, []);
  r = repmat (cast (0, out), size (xp));
  if (k.complex)
    r = complex (r);
  endif
  ir = zeros (size (xp));
  scale = zeros (size (xp));
  if (strcmp (k.op, "recurrence"))
    heads = false (len, 1);
    if (k.heads_full)
      heads = reshape (permute (k.heads != 0, perm), len, []);
    elseif (! isempty (k.heads))
      heads = k.heads(:) != 0;
    endif
    ap = k.coef;   # (one value, or one an element, laid out as xp)
    if (numel (ap) > 1)
      ap = reshape (permute (ap, perm), len, []);
    endif
    [r, scale] = recurrence_lines (k, xp, ap, heads);
  elseif (k.heads_full)
    heads = reshape (permute (k.heads != 0, perm), len, []);
    for c = 1:columns (xp)
      [r(:, c), ir(:, c), scale(:, c)] = scan_line (k, xp(:, c), heads(:, c));
    endfor
  else
    heads = false (len, 1);
    if (! isempty (k.heads))
      heads = k.heads(:) != 0;
    endif
    [r, ir, scale] = scan_line (k, xp, heads);   # the same segments for every line
  endif
  back(perm) = 1:numel (perm);
  shape = sz(perm);
  r = permute (reshape (r, shape), back);
  ir = permute (reshape (ir, shape), back);
  scale = permute (reshape (scale, shape), back);
endfunction

## lines (the columns of xp) cut into segments at the rows where heads is true
function [r, ir, scale] = scan_line (k, xp, heads)
  len = rows (xp);
  starts = [1; find(heads(2:end)) + 1];
  ends = [starts(2:end) - 1; len];
  r = repmat (cast (0, scan_class (k)), size (xp));
  if (k.complex)
    r = complex (r);
  endif
  ir = zeros (size (xp));
  scale = zeros (size (xp));
  for s = 1:numel (starts)
    at = starts(s):ends(s);
    seg = xp(at, :);
    if (k.reverse)
      seg = flipud (seg);
    endif
    [v, iv, sc] = scan_segment (k, seg);
    if (k.reverse)
      v = flipud (v);
      iv = flipud (iv);
      sc = flipud (sc);
      iv(iv > 0) = numel (at) + 1 - iv(iv > 0);
    endif
    iv(iv > 0) = iv(iv > 0) + starts(s) - 1;
    r(at, :) = v;
    ir(at, :) = iv;
    scale(at, :) = sc;
  endfor
endfunction

## a recurrence of the lines xp (columns, A in ap: one value or laid out as xp, segments
## starting at heads: one flag a step or one an element), the loop in double a step at a
## time for every line at once, restarting at each segment's first element in scan
## order; scale: the same recurrence of magnitudes (what bounds the rounding)
function [r, scale] = recurrence_lines (k, xp, ap, heads)
  [len, lines] = size (xp);
  starts = heads | (1:len)' == 1;   # in element order
  if (k.reverse)   # a reverse segment starts at its last element
    starts = [heads(2:end, :); true(1, columns (heads))];
    xp = flipud (xp);
    starts = flipud (starts);
    if (numel (ap) > 1)
      ap = flipud (ap);
    endif
  endif
  y0 = zeros (1, lines);
  if (! isempty (k.initial))
    y0(:) = k.initial;
  endif
  xp = double (xp);
  ap = double (ap) .* ones (len, lines);
  starts = starts & true (len, lines);
  r = zeros (len, lines);
  scale = r;
  y = y0;
  m = abs (y0);
  restart = [find(any (starts, 2)); 0];   # the rows where a line restarts
  next = 1;
  for t = 1:len
    if (restart(next) == t)
      next++;
      at = starts(t, :);
      y(at) = y0(at);
      m(at) = abs (y0(at));
    endif
    if (k.exclusive)
      r(t, :) = y;
      scale(t, :) = m;
    endif
    z = y == 0;   # a state of 0 is not multiplied (0 * Inf counts as 0), as filter's start
    y = ap(t, :) .* y + xp(t, :);
    y(z) = xp(t, z);
    m = abs (ap(t, :)) .* m + abs (xp(t, :));
    if (! k.exclusive)
      r(t, :) = y;
      scale(t, :) = m;
    endif
  endfor
  if (k.reverse)
    r = flipud (r);
    scale = flipud (scale);
  endif
  r = cast (r, scan_class (k));
endfunction

function out = scan_class (k)
  isint = ! any (strcmp (k.cls, {"double", "single"}));
  if (any (strcmp (k.op, {"and", "or", "xor"})))
    out = "logical";
  elseif (strcmp (k.op, "logsumexp"))
    out = merge (strcmp (k.cls, "single"), "single", "double");
  elseif (strcmp (k.op, "recurrence"))
    out = merge (strcmp (k.cls, "single") || isa (k.coef, "single"), "single", "double");
  elseif (any (strcmp (k.op, {"sum", "prod"})) && ! native_class (k))
    out = "double";
  else
    out = k.cls;
  endif
endfunction

## whether a sum or product keeps the class: "native", floating classes but for
## "double", and integers from Octave 11 on (as its cumsum and cumprod); else double
function tf = native_class (k)
  if (! isempty (k.outclass))
    tf = strcmp (k.outclass, "native");
  else
    tf = any (strcmp (k.cls, {"double", "single"})) ...
         || (! strcmp (k.cls, "logical") && compare_versions (OCTAVE_VERSION, "11", ">="));
  endif
endfunction

## a sum or product saturating at every step in the class of seg, along dim 1, as
## Octave 11's cumsum and cumprod of integers (earlier versions: "native" sums, and a
## loop of Octave's saturating integer products); logical: a running OR or AND
function v = native_scan (op, seg)
  if (islogical (seg))
    v = logical_scan (merge (strcmp (op, "sum"), "or", "and"), seg);
  elseif (compare_versions (OCTAVE_VERSION, "11", ">="))
    v = feval (merge (strcmp (op, "sum"), @cumsum, @cumprod), seg, 1);
  elseif (strcmp (op, "sum"))
    v = cumsum (seg, 1, "native");
  else
    v = seg;
    for r = 2:rows (v)
      v(r, :) = v(r - 1, :) .* seg(r, :);
    endfor
  endif
endfunction

## segments in scan order (the columns of seg): the builtins' inclusive scan along
## dim 1, shifted for "exclusive"
function [v, iv, sc] = scan_segment (k, seg)
  iv = zeros (size (seg));
  nan = isnan (seg);   # (complex: either part)
  if (strcmp (k.nanflag, "omitnan") && any (strcmp (k.op, {"sum", "prod"})) && any (nan(:)))
    seg(nan) = strcmp (k.op, "prod");   # a NaN counts as +0 or 1
  endif
  sc = cumsum (abs (double (seg)), 1);
  switch (k.op)
    case {"sum", "prod"}
      f = merge (strcmp (k.op, "sum"), @cumsum, @cumprod);
      if (! native_class (k))
        v = f (double (seg), 1);
      elseif (isfloat (seg))
        v = f (seg, 1);
      else
        v = native_scan (k.op, seg);
      endif
      if (strcmp (k.op, "prod"))
        sc = abs (double (v));
      endif
    case "max"
      [v, iv] = cummax (seg, 1);
    case "min"
      [v, iv] = cummin (seg, 1);
    case {"and", "or", "xor"}
      v = logical_scan (k.op, seg != 0);
    case {"bitand", "bitor", "bitxor"}
      ## bit by bit: the logical scan of each bit's column, all bits at once (a bit a
      ## call took a minute for 2000 segments of uint64)
      ## (bitand does not broadcast, and bsxfun's calls of it element by element on a row
      ## took 14 s)
      nb = 8 * sizeof (seg(1));
      masks = reshape (bitshift (ones (1, 1, class (seg)), 0:nb - 1), 1, 1, nb);
      bits = bitand (repmat (seg, [1 1 nb]), repmat (masks, size (seg))) != 0;
      b = logical_scan (k.op(4:end), bits);   # steps x lines x bits
      v = sum (masks .* cast (b, class (seg)), 3, "native");
    case "logsumexp"
      v = cast (log (cumsum (exp (double (seg)), 1)), scan_class (k));
      sc = abs (double (v)) + 1;
  endswitch
  if (strcmp (k.nanflag, "includenan") && any (strcmp (k.op, {"max", "min"})))
    ## the first NaN (part) wins from its position on, with its index
    for c = find (any (nan, 1))
      p = find (nan(:, c), 1);
      v(p:end, c) = seg(p, c);
      iv(p:end, c) = p;
    endfor
  endif
  if (k.exclusive && ! isempty (seg))
    first = repmat (empty_value (k, class (v)), 1, columns (seg));
    v = [first; v(1:end-1, :)];
    iv = [zeros(1, columns (seg)); iv(1:end-1, :)];
    sc = [zeros(1, columns (seg)); sc(1:end-1, :)];
    if (strcmp (k.op, "sum") && isfloat (v))
      ## Octave's sum of the elements before: from +0, so a -0 prefix becomes +0
      if (k.complex)
        v = complex (real (v) + 0, imag (v) + 0);
      else
        v = v + 0;
      endif
    endif
  endif
endfunction

## the cumulative and, or or xor of the logical columns of t, from how many are true
function v = logical_scan (op, t)
  n = cumsum (t, 1);
  switch (op)
    case "and"
      v = n == (1:rows (t))';
    case "or"
      v = n > 0;
    otherwise
      v = mod (n, 2) == 1;
  endswitch
endfunction

function e = empty_value (k, cls)
  switch (k.op)
    case "and"
      e = true;
    case "bitand"
      e = intmax (cls);
    case {"or", "xor"}
      e = false;
    case {"bitor", "bitxor"}
      e = zeros (1, 1, cls);
    case "logsumexp"
      e = -Inf (1, 1, cls);
    case "sum"
      e = zeros (1, 1, cls);
    case "prod"
      e = ones (1, 1, cls);
    case "max"
      if (strcmp (cls, "logical"))
        e = false;
      elseif (isinteger (zeros (1, cls)))
        e = intmin (cls);
      else
        e = -Inf (1, 1, cls);
      endif
    case "min"
      if (strcmp (cls, "logical"))
        e = true;
      elseif (isinteger (zeros (1, cls)))
        e = intmax (cls);
      else
        e = Inf (1, 1, cls);
      endif
  endswitch
endfunction

## y against the reference r: class, shape, and the values (exact where the operation
## is; floating sums and products within their rounding bounds, non-finite parts alike)
function msg = compare (k, y, r, scale, what)
  msg = "";
  if (! strcmp (class (y), class (r)))
    msg = sprintf ("%s is %s, the reference %s", what, class (y), class (r));
    return;
  endif
  if (! isequal (size (y), size (r)))
    msg = sprintf ("%s is %s, the reference %s", what, mat2str (size (y)), mat2str (size (r)));
    return;
  endif
  if (isempty (r))
    return;
  endif
  bad = [];
  if (! isfloat (r) || any (strcmp (k.op, {"max", "min"})) || isempty (scale))
    same = (y == r) | (isnan (y) & isnan (r));
    bad = find (! same, 1);
  elseif (k.complex && strcmp (k.op, "prod"))
    ## complex products with Inf: NaN parts depend on the order of the products; a
    ## segment's first element is the element itself
    fin = isfinite (r);
    bad = find (isfinite (y) != fin | (fin & abs (y - r) > tol (k, r, abs (r))), 1);
  else
    for part = {@real, @imag}
      yp = part{1} (y);
      rp = part{1} (r);
      fin = isfinite (rp);
      wrong = isnan (yp) != isnan (rp) | (isinf (rp) & yp != rp) ...
              | (fin & ! (abs (yp - rp) <= tol (k, r, scale)));
      bad = [bad; find(wrong, 1)];
    endfor
    bad = min (bad);
  endif
  if (! isempty (bad))
    msg = sprintf ("%s(%d) = %s, the reference %s", what, bad, num2str (y(bad), 17),
                   num2str (r(bad), 17));
    return;
  endif
  ## an exclusive sum is Octave's sum of the elements before: +0 where that is 0
  if (k.exclusive && strcmp (k.op, "sum") && isfloat (r))
    z = find (r == 0 & ! signbit (real (r)));
    if (any (signbit (real (y(z)))))
      msg = sprintf ("%s: an exclusive sum gives -0 where the sum of the elements before is +0", what);
    endif
  endif
endfunction

function t = tol (k, r, scale)
  dim = effective_dim (size (k.x), k.dim);
  len = 1;
  if (dim <= ndims (k.x))
    len = size (k.x, dim);
  endif
  t = 4 * len * eps (class (r)) * scale + realmin (class (r));
  t(isnan (t)) = Inf;   # a part that is finite beside a NaN in the other part
endfunction
