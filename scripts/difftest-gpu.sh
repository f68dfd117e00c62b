#!/usr/bin/env bash
# The GPU leg of the differential tester, on the GPU machine, over a binary built on the
# development machine: generated kernels on the GPU (strict math) vs the interpreter, bit for
# bit, and every transcendental function within CUDA's ulp bounds. Logs go to $OUT.
#
#   OUT=/path/to/logs scripts/difftest-gpu.sh [BIN_DIR] [--count N --seed S]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_dir="${1:-$root/.gpu}"
[ $# -gt 0 ] && shift
out="${OUT:?set OUT to the directory for the logs}"
mkdir -p "$out"
bin=""
for d in "$bin_dir" "$bin_dir/bin" "$bin_dir/tests/reliability"; do
  if [ -x "$d/culift-difftest-gpu" ]; then bin="$d/culift-difftest-gpu"; break; fi
done
if [ -z "$bin" ]; then
  echo "difftest-gpu: culift-difftest-gpu not found under $bin_dir" | tee "$out/difftest-gpu.log"
  exit 2
fi
export CULIFT_CACHE_DIR="$out/cache"
[ $# -eq 0 ] && set -- --count=500
"$bin" "$@" > "$out/difftest-gpu.log" 2>&1
status=$?
tail -n 40 "$out/difftest-gpu.log"
exit $status
