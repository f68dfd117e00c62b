#!/usr/bin/env bash
# The open GPU-leg findings, on the GPU machine, over binaries copied into .gpu/: each replayed
# three ways (scripts/gpu-triage.sh), p1799's variants compared on both backends with and without
# the device assembler's optimizer, and p2940 reduced with the GPU as the oracle. Logs go to $OUT.
#
#   OUT=/path/to/logs [REDUCE=400] scripts/gpu-findings.sh [BIN_DIR]      (default .gpu)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin="${1:-.gpu}"
out="${OUT:?set OUT to the directory for the logs}"
mkdir -p "$out"
export CULIFT_CACHE_DIR="$out/cache"

echo "== p1799 (seed 20261205) and p2940 (seed 20261206), three ways"
scripts/gpu-triage.sh "$bin" 20261205 1799 2>&1 | tee "$out/triage-p1799.txt"
scripts/gpu-triage.sh "$bin" 20261206 2940 2>&1 | tee "$out/triage-p2940.txt"
"$bin/culift-difftest-gpu" --seed 20261206 --dump 2940 > "$out/p2940.cpp" 2>&1

echo "== p1799 variants (8 x 8 outputs: every cko element written once)"
args=$(python3 - <<'EOF'
import json, random
random.seed(1799)
print(json.dumps([3, 12345, [0.0] * 64, [random.randint(-128, 127) for _ in range(64)], [0] * 64]))
EOF
)
variants=tests/reliability/gpu_findings/ptxas_p1799_variants.hpp
for opts in "" "--ptxas-options=-O0"; do
  echo "-- ${opts:-default}"
  CULIFT_NVRTC_OPTIONS="$opts" timeout 240 scripts/compare-backends.sh "$bin/culift" "$variants" 8x8 "$args" \
    V0 V1 V2 V3 V4 V5 V6 V7 -- -Iinclude -Itests/reliability/gpu_findings 2>&1 | cut -c1-200 |
    tee -a "$out/p1799-variants.txt"
done

if [ -n "${REDUCE:-}" ]; then
  echo "== p2940 reduced (at most $REDUCE candidates)"
  timeout "${REDUCE_TIMEOUT:-300}" "$bin/culift-difftest-gpu" --seed 20261206 --first 2940 --count 1 \
    --reduce "$REDUCE" > "$out/p2940-reduced.txt" 2>&1
  echo "reduce exit $?"
  tail -n 80 "$out/p2940-reduced.txt"
fi
