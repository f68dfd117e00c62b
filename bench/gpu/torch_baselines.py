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
    if not torch.cuda.is_available():
        print("torch: no CUDA device", file=sys.stderr)
        return
    torch.manual_seed(42)
    dev = "cuda"
    for n in (1024, 4096):
        x = torch.rand(n, n, device=dev) * 2 - 1
        print(f"torch corrcoef {n} {median_ms(lambda: torch.corrcoef(x)):.4f}")
        print(f"torch cdist {n} {median_ms(lambda: torch.cdist(x, x)):.4f}")
        print(f"torch gram {n} {median_ms(lambda: x @ x.T):.4f}")
        print(f"torch rowsum {n} {median_ms(lambda: x.sum(dim=1)):.4f}")
    x = torch.rand(4096, 4096, device=dev)
    mask = torch.rand(4096, device=dev) < 0.5
    print(f"torch masked_broadcast 4096x4096 {median_ms(lambda: torch.where(mask.view(1, -1), x[0:1], x)):.4f}")
    n = 1 << 24
    cov = torch.rand(n, device=dev) * 2 - 1
    den = torch.rand(n, device=dev)
    print(f"torch pearson_clamp {n} {median_ms(lambda: torch.where(den > 1e-12, cov / den, torch.zeros_like(cov)).clamp(-1, 1)):.4f}")
    lo = torch.rand(n, 2, device=dev)
    hi = lo + torch.rand(n, 2, device=dev)
    tri = torch.rand(n, 3, 2, device=dev) * 2
    print(f"torch sat {n} {median_ms(lambda: sat_reference(lo, hi, tri), warmup=2, reps=10):.4f}")


if __name__ == "__main__":
    main()
