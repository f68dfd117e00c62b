#!/usr/bin/env python3
"""PyTorch baselines for culift's GPU benchmark, timed with CUDA events (median of many runs) the
way the benchmark times its own kernels: input sets rotated so a batch moves more than the L2,
batches of back-to-back calls behind a short device-side sleep.

Prints one line per measurement: `torch <kernel> <size> <ms>` for eager PyTorch and
`torch <kernel>_compiled <size> <ms>` for torch.compile of the same function (mode "default",
compiled once per row, its warm-up outside the timing); the benchmark table joins them.
"""
import math
import sys

try:
    import torch
except ImportError:  # the table then shows "-" for PyTorch
    print("torch unavailable", file=sys.stderr)
    sys.exit(0)


L2_FLOOR = 256 * 1024 * 1024  # bytes of inputs a batch rotates through, as culift_gpu_bench does


def sets_for(bytes_per_set, cap=64):
    """Input sets to rotate through so one batch moves more than the L2 cache holds."""
    return max(1, min(cap, math.ceil(L2_FLOOR / max(bytes_per_set, 1))))


def median_ms(fn, inputs, warmup=3, reps=50, batch_ms=0.5):
    """Median milliseconds per call, timed as culift_gpu_bench times its kernels: batches of
    back-to-back calls rotating through `inputs` (tuples of arguments), each batch behind a short
    device-side sleep so that the host's launch cost stays out of the events."""
    k = len(inputs)
    for w in range(warmup):
        fn(*inputs[w % k])
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn(*inputs[0])
    end.record()
    end.synchronize()
    one = max(start.elapsed_time(end), 1e-3)
    batch = max(1, min(64, math.ceil(batch_ms / one)))
    times = []
    nxt = 0
    for _ in range(reps):
        if hasattr(torch.cuda, "_sleep"):
            torch.cuda._sleep(int((0.5 + 0.03 * batch) * 1.98e6))  # cycles at about 1.98 GHz
        start.record()
        for _ in range(batch):
            fn(*inputs[nxt])
            nxt = (nxt + 1) % k
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / batch)
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


def reduction_baselines(emit, dev, compile_too):
    """The rows of bench/gpu/reduction_workloads.cpp: few long rows (a row sum, a row sum with the
    row sum of squares, layer norm without
    affine parameters, matrix-vector), softmax over long rows and a running sum of many rows
    (torch.cumsum(x, 1)), eager and torch.compile'd
    (`<name>_compiled`). One input set where a set exceeds the L2 floor already."""
    import torch.nn.functional as F
    cases = []
    rows, cols = 16, 4194304
    x = torch.rand(rows, cols, device=dev) * 2 - 1
    cases.append(("rowsum_long", f"{rows}x{cols}", lambda a: a.sum(dim=1), [(x,)]))
    cases.append(("rowstats", f"{rows}x{cols}", lambda a: (a.sum(dim=1), (a * a).sum(dim=1)), [(x,)]))
    cases.append(("layernorm", f"{rows}x{cols}", lambda a: F.layer_norm(a, (a.shape[1],), eps=1e-5), [(x,)]))
    rows, cols = 2048, 1048576
    a = torch.rand(rows, cols, device=dev) * 2 - 1
    v = torch.rand(cols, device=dev) * 2 - 1
    cases.append(("matvec_long", f"{rows}x{cols}", lambda m, w: torch.mv(m, w), [(a, v)]))
    for name, size, fn, inputs in cases:
        emit(name, size, median_ms(fn, inputs, reps=20))
        if compile_too:
            try:
                emit(name + "_compiled", size, median_ms(torch.compile(fn), inputs, reps=20))
            except Exception as e:  # no Triton or no compiler: the eager figure stands alone
                print(f"torch.compile of {name} failed: {type(e).__name__}: {e}", file=sys.stderr)
    del cases, x, a, v
    torch.cuda.empty_cache()
    # One tensor at a time from here on (each is several GB).
    for name, rows, cols, fn in (("softmax", 4096, 393216, lambda b: torch.softmax(b, dim=1)),
                                 ("cumsum", 32768, 32768, lambda b: torch.cumsum(b, 1))):
        s = torch.rand(rows, cols, device=dev) * 2 - 1
        emit(name, f"{rows}x{cols}", median_ms(fn, [(s,)], reps=20))
        if compile_too:
            try:
                emit(name + "_compiled", f"{rows}x{cols}", median_ms(torch.compile(fn), [(s,)], reps=20))
            except Exception as e:
                print(f"torch.compile of {name} failed: {type(e).__name__}: {e}", file=sys.stderr)
        del s
        torch.cuda.empty_cache()


def column_baselines(both, sizes_sum=(128, 4096, 4095), sizes_rms=(112, 64, 512, 512), eps=1e-6):
    """The column rows (bench/gpu/column_workloads.cpp): x.sum(1) of a (d0, d1, d2) tensor and RMS
    norm over dim 1 of a (B, F, H, W) tensor, eager and torch.compile (`<name>_compiled`, through
    `both`). One input set each: a tensor of several GB is far past the L2."""
    dev = "cuda"
    rms_size = (sizes_rms[0], sizes_rms[1], sizes_rms[2] * sizes_rms[3])  # as the benchmark names it: (B, F, S)
    cases = [
        ("colsum", sizes_sum, sizes_sum, lambda x: x.sum(1)),
        ("rmsnorm", rms_size, sizes_rms, lambda x: x / torch.sqrt(torch.mean(x * x, dim=1, keepdim=True) + eps)),
    ]
    for name, size, shape, fn in cases:
        x = torch.rand(*shape, device=dev) * 2 - 1
        both(name, "x".join(map(str, size)), fn, [(x,)], reps=20)
        del x
        torch.cuda.empty_cache()


def matmul_baselines(both, large=(2048, 8192, 4096), partial=(4000, 4000, 4000)):
    """The matrix multiply rows (bench/gpu/blas_workloads.cpp, benchMatMul): torch.matmul of A m x k
    and B k x n, with B given n x k and transposed, and a shape of partial tiles. fp32, TF32 off, as
    set by the caller."""
    dev = "cuda"
    for name, (m, k, n) in (("matmul", large), ("matmul_bt", large), ("matmul", partial)):
        bt = name == "matmul_bt"
        ins = [(torch.rand(m, k, device=dev) * 2 - 1, torch.rand(*((n, k) if bt else (k, n)), device=dev) * 2 - 1)]
        fn = (lambda a, b: torch.matmul(a, b.T)) if bt else (lambda a, b: torch.matmul(a, b))
        both(name, f"{m}x{k}x{n}", fn, ins, reps=20)
        del ins
    torch.cuda.empty_cache()


def batched_baselines(both, bmm=(128, 512, 1024, 2048), doitgen=(256, 256, 256, 256)):
    """The batched contraction rows (bench/gpu/blas_workloads.cpp, benchBatched): torch.bmm of
    nb x (m x nk) x (nk x n), and doitgen (A nr x nq x ns times C4 ns x np, C4 shared by every r) as
    a matmul of A viewed (nr * nq) x ns. fp32, TF32 off, as set by the caller."""
    dev = "cuda"
    nb, m, nk, n = bmm
    size = "x".join(map(str, bmm))
    ins = [(torch.rand(nb, m, nk, device=dev) * 2 - 1, torch.rand(nb, nk, n, device=dev) * 2 - 1)]
    both("bmm", size, lambda a, b: torch.bmm(a, b), ins, reps=20)
    # The figure the opt-in tensor-core (TF32) batched contraction is measured against.
    torch.backends.cuda.matmul.allow_tf32 = True
    both("bmm_tf32", size, lambda a, b: torch.bmm(a, b), ins, reps=20)
    torch.backends.cuda.matmul.allow_tf32 = False
    del ins
    nr, nq, ns, np_ = doitgen
    size = "x".join(map(str, doitgen))
    ins = [(torch.rand(nr, nq, ns, device=dev) * 2 - 1, torch.rand(ns, np_, device=dev) * 2 - 1)]
    both("doitgen", size, lambda a, c4: torch.matmul(a, c4), ins, reps=20)
    del ins
    torch.cuda.empty_cache()


def conv_baselines(both, shape=(256, 3, 224, 224, 96, 11, 4, 2)):
    """The convolution row (bench/gpu/conv_workloads.cpp, benchConv): KernelBench's conv2d, x
    (n, c, h, w) with k filters r x r, stride and padding, through cuDNN in fp32 (TF32 off)."""
    dev = "cuda"
    n, c, h, w, k, r, stride, pad = shape
    size = f"{n}x{c}x{h}x{w}_{k}x{r}x{r}_s{stride}p{pad}"
    torch.backends.cudnn.allow_tf32 = False
    ins = [(torch.rand(n, c, h, w, device=dev) * 2 - 1, torch.rand(k, c, r, r, device=dev) * 2 - 1)]
    both("conv2d", size, lambda x, f: torch.nn.functional.conv2d(x, f, stride=stride, padding=pad), ins, reps=20)
    del ins
    torch.cuda.empty_cache()


def main():
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sat-pairs", type=int, default=1 << 24)
    parser.add_argument("--masked-size", type=int, default=4096)
    parser.add_argument("--clamp-n", type=int, default=1 << 24)
    parser.add_argument("--pearson-size", type=int, action="append", help="default: 1024 and 4096")
    parser.add_argument("--blas-size", type=int, default=4096)
    parser.add_argument("--no-compile", action="store_true", help="time eager PyTorch only (no torch.compile)")
    parser.add_argument("--no-reductions", action="store_true", help="skip the few-long-rows and softmax rows")
    parser.add_argument("--no-batched", action="store_true", help="skip the batched contraction rows")
    parser.add_argument("--no-columns", action="store_true", help="skip the column rows (tensors of 8 GB)")
    parser.add_argument("--no-conv", action="store_true", help="skip the convolution row")
    parser.add_argument("--only-conv", action="store_true",
                        help="the convolution row alone (with culift_gpu_bench --only conv)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("torch: no CUDA device", file=sys.stderr)
        return
    torch.manual_seed(42)
    dev = "cuda"

    def emit(kernel, size, ms):
        print(f"torch {kernel} {size} {ms:.4f}", flush=True)

    compile_ok = [not args.no_compile]

    def both(kernel, size, fn, inputs, **timing):
        """Times `fn` eager, then torch.compile(fn) (once compiling fails, eager figures only)."""
        emit(kernel, size, median_ms(fn, inputs, **timing))
        if not compile_ok[0]:
            return
        try:
            compiled = torch.compile(fn, dynamic=False)
            emit(f"{kernel}_compiled", size, median_ms(compiled, inputs, **timing))
        except Exception as e:  # no Triton or no compiler: the eager figures stand alone
            print(f"torch.compile failed: {type(e).__name__}: {e}", file=sys.stderr)
            compile_ok[0] = False

    def sets(make, bytes_per_set):
        return [make() for _ in range(sets_for(bytes_per_set))]

    if args.only_conv:
        conv_baselines(both)
        return

    for n in args.pearson_size or (1024, 4096):
        xs = sets(lambda: (torch.rand(n, n, device=dev) * 2 - 1,), 4 * n * n)
        both("corrcoef", n, lambda x: torch.corrcoef(x), xs)
        both("cdist", n, lambda x: torch.cdist(x, x), xs)
        both("gram", n, lambda x: x @ x.T, xs)
        both("rowsum", n, lambda x: x.sum(dim=1), xs)
        both("rowsumsq", n, lambda x: (x * x).sum(dim=1), xs)
        del xs
    n = args.blas_size
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 arithmetic, as the generated kernels do
    mats = sets(lambda: tuple(torch.rand(n, n, device=dev) * 2 - 1 for _ in range(3)) + (torch.rand(n, device=dev) * 2 - 1,),
                3 * 4 * n * n)
    both("gemm", n, lambda a, b, c, v: torch.addmm(c, a, b, beta=-0.5, alpha=1.5), mats)
    # The figure an opt-in tensor-core (TF32) contraction is measured against: eager, TF32 allowed.
    torch.backends.cuda.matmul.allow_tf32 = True
    both("gemm_tf32", n, lambda a, b, c, v: torch.addmm(c, a, b, beta=-0.5, alpha=1.5), mats)
    torch.backends.cuda.matmul.allow_tf32 = False
    both("syrk", n, lambda a, b, c, v: torch.addmm(c, a, a.T, beta=-0.5, alpha=1.5), mats)
    # syr2k as two products over the whole square (PyTorch has no triangular one).
    both("syr2k", n, lambda a, b, c, v: torch.addmm(torch.addmm(c, a, b.T, beta=-0.5, alpha=1.5), b, a.T, alpha=1.5),
         mats)
    vecs = sets(lambda: (torch.rand(n, n, device=dev) * 2 - 1, torch.rand(n, device=dev) * 2 - 1), 4 * n * n)
    both("matvec", n, lambda a, v: torch.mv(a, v), vecs)
    del mats, vecs
    gesummv = sets(lambda: tuple(torch.rand(n, n, device=dev, dtype=torch.float64) * 2 - 1 for _ in range(2)) +
                   (torch.rand(n, device=dev, dtype=torch.float64) * 2 - 1,), 2 * 8 * n * n)
    both("gesummv", n, lambda a, b, v: 1.5 * torch.mv(a, v) - 0.75 * torch.mv(b, v), gesummv)
    del gesummv
    if not args.no_batched:
        matmul_baselines(both)
        batched_baselines(both)
    if not args.no_conv:
        conv_baselines(both)
    m = args.masked_size
    mask = torch.rand(m, device=dev) < 0.5
    xs = sets(lambda: (torch.rand(m, m, device=dev),), 4 * m * m)
    both("masked_broadcast", f"{m}x{m}", lambda x: torch.where(mask.view(1, -1), x[0:1], x), xs)
    del xs
    n = args.clamp_n
    zero = torch.zeros((), device=dev)
    pairs = sets(lambda: (torch.rand(n, device=dev) * 4 - 2, torch.rand(n, device=dev)), 8 * n)
    both("pearson_clamp", n, lambda cov, den: torch.where(den > 1e-12, cov / den, zero).clamp(-1, 1), pairs)
    del pairs
    n = args.sat_pairs
    lo = torch.rand(n, 2, device=dev)
    hi = lo + torch.rand(n, 2, device=dev) * 0.25 + 0.05
    tri = lo.view(n, 1, 2) + torch.rand(n, 3, 2, device=dev) * 0.5 - 0.25
    sat_inputs = [(lo, hi, tri)]  # 16M pairs: 224 MB, more than the L2 by itself
    both("sat", n, sat_reference, sat_inputs, warmup=3, reps=10)
    if not args.no_reductions:
        reduction_baselines(emit, dev, compile_ok[0])
    if not args.no_columns:
        column_baselines(both)


if __name__ == "__main__":
    main()
