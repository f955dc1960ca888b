## t = best_of (fs, reps): for the benchmarks in this folder, the best time of each
## function in the cell array fs over reps rounds (at least numel (fs)), one call of each
## a round, starting with another one each round, so that all meet the same moments of the
## machine
function t = best_of (fs, reps)
  n = numel (fs);
  t = Inf (1, n);
  for r = 1:max (reps, n)
    for k = 1 + mod ((0:n-1) + r, n)
      t0 = tic ();
      fs{k} ();
      t(k) = min (t(k), toc (t0));
    endfor
  endfor
endfunction
