## run_suite: run the built-in tests of every gpuscan function and the randomized
## differential test (GPUSCAN_DIFFERENTIAL_CASES cases, 200 unless set); true when all
## pass.  GPUSCAN_SUITE_FUNCTIONS, where set, names the functions whose tests run (e.g.
## a test matrix run again for what changed).  Used by `make check`, by run-tests.sh after `pkg install` and by each row of
## tools/test-matrix.sh.
function ok = run_suite ()
  ok = true;
  info = gpuscan_info ();
  printf ("gpuscan suite: engines %s; algorithms %s\n", strjoin (info.engines, ", "),
          strjoin (info.algorithms, ", "));
  names = {"gpuscan_info", "gpuscan", "gpuscan_mex", "gpuscan_array", "gpuscan_compact", "gpuscan_filter", "gather", ...
           "classUnderlying", "existsOnGPU", "gpuscan_bench", "gpuscan_trace"};
  only = strtrim (getenv ("GPUSCAN_SUITE_FUNCTIONS"));
  if (! isempty (only))
    names = names(ismember (names, strsplit (only)));
    printf ("gpuscan suite: the tests of %s only (GPUSCAN_SUITE_FUNCTIONS)\n", strjoin (names, ", "));
  endif
  for f = names
    t0 = tic ();
    [npass, ntest, nxfail, nbug, nskip, nrtskip] = test (f{1}, "quiet", stdout);
    printf ("  %-14s %3d of %3d passed, %d skipped (%.1f s) [%s]\n", f{1}, npass,
            ntest, nskip + nrtskip, toc (t0), which (f{1}));
    fflush (stdout);   # (a row killed at its time limit still shows what finished)
    ok = ok && npass + nxfail + nbug == ntest;
    ## `help` must find the texinfo (for a compiled function, its docstring)
    [~, format] = get_help_text (f{1});
    if (! strcmp (format, "texinfo"))
      printf ("  %-14s has no texinfo help (help finds: %s)\n", f{1}, format);
      ok = false;
    endif
  endfor
  ncases = str2double (getenv ("GPUSCAN_DIFFERENTIAL_CASES"));
  if (! (ncases >= 0))
    ncases = 200;
  endif
  ok = differential (ncases) && ok;
  if (ok)
    printf ("gpuscan suite: PASS\n");
  else
    printf ("gpuscan suite: FAIL\n");
  endif
endfunction
