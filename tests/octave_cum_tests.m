## octave_cum_tests: Octave's own test blocks for cumsum, cumprod, cummax and cummin (the
## data.cc-tst and max.cc-tst that Octave installs), run with the four functions shadowed
## by wrappers that call gpuscan.  An %!error block needs an error, not Octave's wording
## (its <pattern> is dropped).  True when every block passes; prints the count.
##   ok = octave_cum_tests ()
function ok = octave_cum_tests ()
  dir = fullfile (OCTAVE_HOME (), "share", "octave", OCTAVE_VERSION (), "etc", "tests", ...
                  "libinterp", "corefcn");
  files = {fullfile(dir, "data.cc-tst"), fullfile(dir, "max.cc-tst")};
  if (! all (cellfun (@(f) exist (f, "file"), files)))
    printf ("octave_cum_tests: Octave's test files are not installed (%s): FAIL\n", dir);
    ok = false;
    return;
  endif
  tmp = tempname ();
  mkdir (tmp);
  ops = {"cumsum", "sum"; "cumprod", "prod"; "cummax", "max"; "cummin", "min"};
  for i = 1:rows (ops)
    fid = fopen (fullfile (tmp, [ops{i, 1} ".m"]), "w");
    fprintf (fid, "function varargout = %s (varargin)\n", ops{i, 1});
    fprintf (fid, "  varargout = cell (1, max (nargout, 1));\n");
    fprintf (fid, "  [varargout{:}] = gpuscan (varargin{:}, \"%s\");\n", ops{i, 2});
    fprintf (fid, "endfunction\n");
    fclose (fid);
  endfor
  blocks = {};
  for f = files
    blocks = [blocks, cum_blocks(fileread (f{1}))];
  endfor
  tests = fullfile (tmp, "cum_blocks.tst");
  fid = fopen (tests, "w");
  fprintf (fid, "%s\n", blocks{:});
  fclose (fid);
  state = warning ("off", "Octave:shadowed-function");
  addpath (tmp);
  unwind_protect
    [npass, ntest] = test (tests, "quiet", stdout);
  unwind_protect_cleanup
    rmpath (tmp);
    warning (state);
    confirm_recursive_rmdir (false, "local");
    rmdir (tmp, "s");
  end_unwind_protect
  ok = npass == ntest && ntest > 0;
  printf ("octave_cum_tests: Octave %s's cumsum, cumprod, cummax and cummin blocks through gpuscan: %d of %d passed\n",
          OCTAVE_VERSION (), npass, ntest);
endfunction

## the blocks of a test file that name one of the four (%!shared and %!function blocks
## too, which later blocks may need), an %!error block's <pattern> dropped
function b = cum_blocks (txt)
  starts = [1, regexp(txt, '\n%![a-z]') + 1];
  ends = [starts(2:end) - 1, numel(txt)];
  b = {};
  for i = 1:numel (starts)
    s = strtrim (txt(starts(i):ends(i)));
    if (! strncmp (s, "%!", 2))
      continue;
    endif
    kw = regexp (s, '^%!([a-z]+)', "tokens", "once"){1};
    if (any (strcmp (kw, {"shared", "function", "endfunction"})) ...
        || ! isempty (regexp (s, '\<cum(sum|prod|max|min)\>', "once")))
      if (strcmp (kw, "error"))
        s = regexprep (s, '^%!error\s*<[^>]*>', "%!error", "once");
      endif
      b{end+1} = s;
    endif
  endfor
endfunction
