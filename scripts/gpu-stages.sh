#!/usr/bin/env bash
# Where a pipeline row of the benchmark spends its time, on the GPU machine: the benchmark's groups
# named in ONLY (default: reductions columns) with each pipeline's stages timed beside the whole,
# then, with NCU_KERNELS (a regular expression of entry names), Nsight Compute's speed-of-light,
# occupancy and warp-state sections for those kernels, and the SASS of every generated module.
#
#   OUT=/path/to/logs [ONLY="reductions columns"] [NCU_KERNELS='Normalize'] scripts/gpu-stages.sh [BIN_DIR]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$root/.gpu}"
out="${OUT:?set OUT to the directory for the logs}"
cd "$root"
export CULIFT_SOURCE_ROOT="$root" CULIFT_CACHE_DIR=/tmp/culift-stages-cache
only=()
for g in ${ONLY:-reductions columns}; do only+=(--only "$g"); done
art=/tmp/culift-stages-artifacts
rm -rf "$art" && mkdir -p "$art"
timeout "${BENCH_TIMEOUT:-300}" "$bin/culift_gpu_bench" --out "$art" "${only[@]}" > "$out/stages.log" 2>&1
echo "culift_gpu_bench exit $?"
grep -E "^  stage|check.*(FAIL|err)" "$out/stages.log" | cut -c1-220
if command -v cuobjdump > /dev/null; then
  for f in "$art"/*.cubin; do [ -e "$f" ] && cuobjdump -sass "$f" > "${f%.cubin}.sass" 2>&1; done
  tar czf "$out/sass.tar.gz" -C "$art" . 2> /dev/null
fi
if [ -n "${NCU_KERNELS:-}" ] && command -v ncu > /dev/null; then
  timeout "${NCU_TIMEOUT:-200}" ncu --kernel-name "regex:${NCU_KERNELS}" --launch-count "${NCU_COUNT:-8}" \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
    "$bin/culift_gpu_bench" --out /tmp/culift-ncu-art "${only[@]}" > "$out/ncu.txt" 2>&1
  echo "ncu exit $?"
  grep -E "^  [A-Za-z_0-9]+.*\(|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Block Size|Grid Size|Stall Long|Warp Cycles Per Issued" "$out/ncu.txt" | head -120
fi
