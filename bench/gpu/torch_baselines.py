#!/usr/bin/env python3
"""PyTorch baselines for culift's GPU benchmark, timed with CUDA events (median of many runs).

Prints one line per measurement: `torch <kernel> <size> <ms>`; the benchmark table joins them.
"""
import sys

try:
    import torch
except ImportError:  # the table then shows "-" for PyTorch
    print("torch unavailable", file=sys.stderr)
    sys.exit(0)


def median_ms(fn, warmup=5, reps=50):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def sat_reference(rect_min, rect_max, tri, eps=1e-6):
    """The seed's eager PyTorch separating-axis test (rectangle vs triangle)."""
    corners = torch.stack((
        rect_min,
        torch.stack((rect_max[:, 0], rect_min[:, 1]), dim=-1),
        rect_max,
        torch.stack((rect_min[:, 0], rect_max[:, 1]), dim=-1),
    ), dim=1)  # (B, 4, 2)
    e = torch.roll(tri, -1, dims=1) - tri  # (B, 3, 2)
    n = torch.stack((-e[..., 1], e[..., 0]), dim=-1)
    n = n / (n.norm(dim=-1, keepdim=True) + 1e-8)
    world = torch.eye(2, device=tri.device).expand(tri.shape[0], 2, 2)
    axes = torch.cat((world, n), dim=1)  # (B, 5, 2)
    r = torch.einsum("bcd,bad->bac", corners, axes)
    t = torch.einsum("bvd,bad->bav", tri, axes)
    r0, r1 = r.min(-1).values, r.max(-1).values
    t0, t1 = t.min(-1).values, t.max(-1).values
    separated = ((r1 < t0 - eps) | (t1 < r0 - eps)).any(dim=1)
    return (~separated).float()


def main():
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sat-pairs", type=int, default=1 << 24)
    parser.add_argument("--masked-size", type=int, default=4096)
    parser.add_argument("--clamp-n", type=int, default=1 << 24)
    parser.add_argument("--pearson-size", type=int, action="append", help="default: 1024 and 4096")
    parser.add_argument("--blas-size", type=int, default=4096)
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile of the SAT test")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch: no CUDA device", file=sys.stderr)
        return
    torch.manual_seed(42)
    dev = "cuda"

    def emit(kernel, size, ms):
        print(f"torch {kernel} {size} {ms:.4f}", flush=True)

    for n in args.pearson_size or (1024, 4096):
        x = torch.rand(n, n, device=dev) * 2 - 1
        emit("corrcoef", n, median_ms(lambda: torch.corrcoef(x)))
        emit("cdist", n, median_ms(lambda: torch.cdist(x, x)))
        emit("gram", n, median_ms(lambda: x @ x.T))
        emit("rowsum", n, median_ms(lambda: x.sum(dim=1)))
        emit("rowsumsq", n, median_ms(lambda: (x * x).sum(dim=1)))
        del x
    n = args.blas_size
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 arithmetic, as the generated kernels do
    a = torch.rand(n, n, device=dev) * 2 - 1
    b = torch.rand(n, n, device=dev) * 2 - 1
    c = torch.rand(n, n, device=dev) * 2 - 1
    v = torch.rand(n, device=dev) * 2 - 1
    emit("gemm", n, median_ms(lambda: torch.addmm(c, a, b, beta=-0.5, alpha=1.5)))
    emit("syrk", n, median_ms(lambda: torch.addmm(c, a, a.T, beta=-0.5, alpha=1.5)))
    emit("matvec", n, median_ms(lambda: torch.mv(a, v)))
    del a, b, c, v
    m = args.masked_size
    x = torch.rand(m, m, device=dev)
    mask = torch.rand(m, device=dev) < 0.5
    emit("masked_broadcast", f"{m}x{m}", median_ms(lambda: torch.where(mask.view(1, -1), x[0:1], x)))
    del x
    n = args.clamp_n
    cov = torch.rand(n, device=dev) * 4 - 2
    den = torch.rand(n, device=dev)
    zero = torch.zeros((), device=dev)
    emit("pearson_clamp", n,
         median_ms(lambda: torch.where(den > 1e-12, cov / den, zero).clamp(-1, 1)))
    del cov, den
    n = args.sat_pairs
    lo = torch.rand(n, 2, device=dev)
    hi = lo + torch.rand(n, 2, device=dev) * 0.25 + 0.05
    tri = lo.view(n, 1, 2) + torch.rand(n, 3, 2, device=dev) * 0.5 - 0.25
    emit("sat", n, median_ms(lambda: sat_reference(lo, hi, tri), warmup=2, reps=10))
    if not args.no_compile:
        try:
            compiled = torch.compile(sat_reference)
            emit("sat_compiled", n, median_ms(lambda: compiled(lo, hi, tri), warmup=3, reps=20))
        except Exception as e:  # no Triton or no compiler: the eager figure stands alone
            print(f"torch.compile failed: {type(e).__name__}: {e}", file=sys.stderr)


if __name__ == "__main__":
    main()
