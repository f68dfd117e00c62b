#!/usr/bin/env bash
# Tells apart where a GPU-leg mismatch comes from, on the GPU machine: each program of SEED is
# replayed by the GPU leg three times — as culift compiles it, with the device assembler's
# optimizer off (--ptxas-options=-O0) and as device-debug code (-G: NVVM's optimizer off too).
# A program that matches with -O0 but not by default is miscompiled by the device assembler;
# one that matches only with -G, by NVVM; one that differs in all three, by culift (or the
# interpreter). With REDUCE=N each program is then reduced with the GPU as the oracle.
#
#   scripts/gpu-triage.sh BIN_DIR SEED PROGRAM...      (BIN_DIR holds culift-difftest-gpu)
set -uo pipefail
[ $# -ge 3 ] || { sed -n '2,9p' "$0"; exit 2; }
bin="$1/culift-difftest-gpu" seed="$2"
shift 2
for p in "$@"; do
  for opts in "" "--ptxas-options=-O0" "-G"; do
    line=$(CULIFT_NVRTC_OPTIONS="$opts" "$bin" --seed "$seed" --first "$p" --count 1 --tensor-core-programs=0 2>&1 |
           grep -E "^(MISMATCH|ERROR)|programs compared" | head -n 2 | cut -c1-240 | tr '\n' ' ')
    echo "p$p [${opts:-default}] $line"
  done
  if [ -n "${REDUCE:-}" ]; then
    echo "== p$p reduced (at most $REDUCE candidates)"
    timeout "${REDUCE_TIMEOUT:-400}" "$bin" --seed "$seed" --first "$p" --count 1 --tensor-core-programs=0 --reduce "$REDUCE" 2>&1 | tail -n 120
  fi
done
