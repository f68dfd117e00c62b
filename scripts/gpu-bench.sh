#!/usr/bin/env bash
# culift's GPU benchmark on the GPU machine, over a binary built on the development machine:
# the PyTorch baselines first, then culift_gpu_bench (generated vs hand-written kernels, side by
# side, each checked against the native build), which joins them into one table.
#
#   OUT=/path/to/logs scripts/gpu-bench.sh [BIN_DIR] [--quick] [more culift_gpu_bench options]
#
# BIN_DIR (default: .gpu in the repository root) holds culift_gpu_bench, directly or in the build
# tree's layout (bench/gpu/). Logs go to $OUT; emitted sources, cubins, ptxas reports and SASS to
# $OUT/artifacts.tar.gz;
# the table is printed last. Exit status: the benchmark's (0 every check passed, 1 a check
# failed, 2 setup error, 3 no GPU, 124 time limit).
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_dir="$root/.gpu"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then bin_dir="$1"; shift; fi
out="${OUT:?set OUT to the directory for the logs}"
mkdir -p "$out/artifacts"
cd "$root"
export CULIFT_SOURCE_ROOT="$root"
export CULIFT_CACHE_DIR="$out/cache"
rm -rf "$CULIFT_CACHE_DIR"

bench=""
for d in "$bin_dir" "$bin_dir/bin" "$bin_dir/bench/gpu"; do
  if [ -x "$d/culift_gpu_bench" ]; then bench="$d/culift_gpu_bench"; break; fi
done
if [ -z "$bench" ]; then
  echo "gpu-bench: culift_gpu_bench not found under $bin_dir (build it: ninja culift_gpu_bench)" | tee "$out/gpu-bench.log"
  exit 2
fi

quick=0
for a in "$@"; do [ "$a" = "--quick" ] && quick=1; done

{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv; } \
  > "$out/nvidia-smi.txt" 2>&1 || true

# PyTorch baselines (sizes as the benchmark's defaults, or its --quick sizes).
torch_args=()
[ $quick -eq 1 ] && torch_args=(--sat-pairs 1048576 --masked-size 1024 --clamp-n 1048576 --pearson-size 256 --blas-size 256 --no-compile)
echo "gpu-bench: PyTorch baselines..."
timeout 300 python3 bench/gpu/torch_baselines.py "${torch_args[@]}" > "$out/torch.txt" 2> "$out/torch.err"
torch_status=$?
[ $torch_status -ne 0 ] && echo "gpu-bench: torch_baselines.py exited with $torch_status (see $out/torch.err)"

echo "gpu-bench: $bench"
timeout 570 "$bench" --out "$out/artifacts" --torch "$out/torch.txt" "$@" > "$out/gpu-bench.log" 2>&1
status=$?

# SASS of the generated and hand-written modules, for reading without a GPU.
if command -v cuobjdump > /dev/null; then
  for f in "$out"/artifacts/*.cubin; do
    [ -e "$f" ] && cuobjdump -sass "$f" > "${f%.cubin}.sass" 2>&1
  done
fi

# One archive instead of many files (a lent machine returns only so many), and no cache images.
tar czf "$out/artifacts.tar.gz" -C "$out" artifacts 2> /dev/null && rm -rf "$out/artifacts"
rm -rf "$CULIFT_CACHE_DIR"

# The log without its per-sample detail lines (kept in $OUT/gpu-bench.log); the table comes last.
grep -v -E '^  (time|check) ' "$out/gpu-bench.log"
echo "gpu-bench: exit status $status; logs in $out (gpu-bench.log, torch.txt, artifacts.tar.gz)"
exit $status
