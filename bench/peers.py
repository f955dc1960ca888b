#!/usr/bin/env python3
"""The peers of gpu_bench's rows on the same GPU, each with a device-to-device copy of
the same bytes measured in the same run (the ratio gpu_bench prints for gpuscan):
PyTorch's cumsum (and with deterministic algorithms), logcumsumexp and cummax, CuPy's
cupyx.scipy.signal.lfilter and torchaudio's lfilter (order 2 and 4, the filters of
gpu_bench's "filter" rows).  A peer that is not installed is left out.

    python3 bench/peers.py [LOG2]      (default 26)
"""
import sys
import time

LOG2 = int(sys.argv[1]) if len(sys.argv) > 1 else 26
N = 1 << LOG2
FILTERS = {2: ([0.2, 0.3, 0.1], [1, -1.4, 0.45]),
           4: ([0.1, 0.2, 0.3, 0.2, 0.1], [1, -1.4, 0.81, -0.504, 0.162])}


def median_ms(run, sync, budget_ms=300.0, most=50):
    """median time of run() in ms: enough repetitions for about budget_ms"""
    run()
    sync()
    t0 = time.perf_counter()
    run()
    sync()
    once = (time.perf_counter() - t0) * 1e3
    reps = max(3, min(most, int(budget_ms / max(once, 1e-3))))
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        run()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[len(times) // 2]


def row(peer, what, dtype, n, ms, copy_ms):
    print(f"{peer:<12} {what:<28} {dtype:<7} {n:>11} {ms * 1e3:>11.1f} {ms / copy_ms:>8.2f}")


def torch_rows():
    try:
        import torch
    except ImportError:
        print("torch: not installed")
        return
    sync = torch.cuda.synchronize
    for dtype in (torch.float32, torch.float64):
        name = str(dtype).replace("torch.", "")
        x = torch.rand(N, dtype=dtype, device="cuda")
        y = torch.empty_like(x)
        copy_ms = median_ms(lambda: y.copy_(x), sync)
        row("torch", "copy", name, N, copy_ms, copy_ms)
        row("torch", "cumsum", name, N, median_ms(lambda: torch.cumsum(x, 0, out=y), sync), copy_ms)
        torch.use_deterministic_algorithms(True)
        row("torch", "cumsum, deterministic", name, N,
            median_ms(lambda: torch.cumsum(x, 0, out=y), sync), copy_ms)
        torch.use_deterministic_algorithms(False)
        row("torch", "logcumsumexp", name, N, median_ms(lambda: torch.logcumsumexp(x, 0), sync), copy_ms)
        # (cummax is slow: a smaller size, against a copy of that size)
        m = min(N, 1 << 22)
        xs, ys = x[:m].clone(), y[:m].clone()
        small_copy = median_ms(lambda: ys.copy_(xs), sync)
        row("torch", "cummax, index", name, m, median_ms(lambda: torch.cummax(xs, 0), sync), small_copy)
        del x, y, xs, ys
        torch.cuda.empty_cache()
    try:
        import torchaudio.functional as taf
    except ImportError:
        print("torchaudio: not installed")
        return
    # (sequential in time: 2^20 samples, against a copy of that size)
    m = min(N, 1 << 20)
    for dtype in (torch.float32, torch.float64):
        name = str(dtype).replace("torch.", "")
        x = torch.rand(m, dtype=dtype, device="cuda")
        y = torch.empty_like(x)
        copy_ms = median_ms(lambda: y.copy_(x), sync)
        for order, (b, a) in FILTERS.items():
            bt = torch.tensor(b, dtype=dtype, device="cuda")
            at = torch.tensor(a, dtype=dtype, device="cuda")
            ms = median_ms(lambda: taf.lfilter(x, at, bt, clamp=False), sync, budget_ms=2000, most=5)
            row("torchaudio", f"lfilter, order {order}", name, m, ms, copy_ms)


def cupy_rows():
    try:
        import cupy as cp
        import cupyx.scipy.signal as cps
    except ImportError:
        print("cupy: not installed")
        return
    sync = cp.cuda.Device().synchronize
    for dtype in (cp.float32, cp.float64):
        name = cp.dtype(dtype).name
        x = cp.random.rand(N, dtype=dtype)
        y = cp.empty_like(x)
        copy_ms = median_ms(lambda: cp.copyto(y, x), sync)
        row("cupy", "copy", name, N, copy_ms, copy_ms)
        for order, (b, a) in FILTERS.items():
            bc, ac = cp.asarray(b, dtype=dtype), cp.asarray(a, dtype=dtype)
            ms = median_ms(lambda: cps.lfilter(bc, ac, x), sync, budget_ms=2000, most=10)
            row("cupy", f"lfilter, order {order}", name, N, ms, copy_ms)
        del x, y
        cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    print(f"peers on the GPU: time in us (median), ratio to a copy of the same bytes in the same run")
    print(f"{'peer':<12} {'what':<28} {'type':<7} {'n':>11} {'us':>11} {'x copy':>8}")
    torch_rows()
    cupy_rows()
