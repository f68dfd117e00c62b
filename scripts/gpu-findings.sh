#!/usr/bin/env bash
# The open GPU-leg findings, on the GPU machine, over binaries copied into .gpu/: each replayed
# three ways (scripts/gpu-triage.sh, reduced with the GPU as the oracle when REDUCE is set), and
# p1799's variants compared on both backends with and without the device assembler's optimizer.
# Logs go to $OUT (the compile caches are removed at the end, so that few files come back).
#
#   OUT=/path/to/logs [REDUCE=300] [FINDINGS="20261220:4210 20261206:2940"] scripts/gpu-findings.sh [BIN_DIR]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin="${1:-.gpu}"
out="${OUT:?set OUT to the directory for the logs}"
mkdir -p "$out"
export CULIFT_CACHE_DIR="$out/cache"

for finding in ${FINDINGS-20261205:1799 20261206:2940}; do
  seed="${finding%%:*}" p="${finding##*:}"
  echo "== p$p (seed $seed)"
  "$bin/culift-difftest-gpu" --seed "$seed" --dump "$p" > "$out/p$p.cpp" 2>&1
  REDUCE_TIMEOUT="${REDUCE_TIMEOUT:-170}" scripts/gpu-triage.sh "$bin" "$seed" "$p" > "$out/triage-p$p.txt" 2>&1
  grep -E "^p$p \[" "$out/triage-p$p.txt"
done

if [ -n "${VARIANTS:-}" ]; then
  echo "== p1799 variants (8 x 8 outputs: every cko element written once)"
  args=$(python3 -c 'import json, random; random.seed(1799); print(json.dumps([3, 12345, [0.0] * 64, [random.randint(-128, 127) for _ in range(64)], [0] * 64]))')
  for opts in "" "--ptxas-options=-O0"; do
    echo "-- ${opts:-default}"
    CULIFT_NVRTC_OPTIONS="$opts" timeout 240 scripts/compare-backends.sh "$bin/culift" \
      tests/reliability/gpu_findings/ptxas_p1799_variants.hpp 8x8 "$args" V0 V1 V2 V3 V4 V5 V6 V7 -- -Iinclude \
      -Itests/reliability/gpu_findings 2>&1 | grep -E "^(same|DIFFERENT|FAILED)" | tee -a "$out/p1799-variants.txt"
  done
fi
rm -rf "$out/cache"

# Variants of the reduced findings (VARIANT_SETS=1 for all, or a list such as "2940 4210"): which
# change makes the GPU agree.
sets="${VARIANT_SETS:-}"
[ "$sets" = 1 ] && sets="136 4210 2281 2940"
wants() { [[ " $sets " == *" $1 "* ]]; }
if [ -n "$sets" ]; then
  inc=(-- -Iinclude -Itests/reliability/gpu_findings)
  a2940=$(python3 -c 'import json, random; random.seed(2940); print(json.dumps([[random.randint(-100, 100) for _ in range(192)]]))')
  for opts in "" "--ptxas-options=-O0" "-G"; do
    wants 136 && {
    echo "-- p136 variants, ${opts:-default}"
    CULIFT_NVRTC_OPTIONS="$opts" timeout 120 scripts/compare-backends.sh "$bin/culift" \
      tests/reliability/gpu_findings/ptxas_p136.hpp 2x2 '[5]' P136 P136Straight P136NoBreak P136Counted P136Wide \
      P136NoFinal "${inc[@]}" 2>&1 | grep -E "^(same|DIFFERENT|FAILED|  )" | cut -c1-160
    }
    wants 4210 && {
    echo "-- p4210 variants, ${opts:-default}"
    CULIFT_NVRTC_OPTIONS="$opts" timeout 120 scripts/compare-backends.sh "$bin/culift" \
      tests/reliability/gpu_findings/ptxas_p4210.hpp 2x2 '[-11, [0, 0, 0, 0]]' P4210 P4210Rem P4210Value \
      P4210RemFolded P4210RemLiteral P4210RemShifted P4210RemUnsigned P4210NoComma P4210NoPrefix P4210NoRem \
      P4210NoFinal P4210LoopFolds "${inc[@]}" 2>&1 | grep -E "^(same|DIFFERENT|FAILED|  )" | cut -c1-160
    }
    wants 2281 && {
    echo "-- p2281 variants, ${opts:-default}"
    CULIFT_NVRTC_OPTIONS="$opts" timeout 120 scripts/compare-backends.sh "$bin/culift" \
      tests/reliability/gpu_findings/ptxas_p2281.hpp 2 '[[0, 0]]' P2281 P2281Straight P2281NoBreak P2281Fields \
      P2281Counted P2281NoFinal "${inc[@]}" 2>&1 | grep -E "^(same|DIFFERENT|FAILED|  )" | cut -c1-160
    }
    wants 2940 || continue
    echo "-- p2940 variants, ${opts:-default}"
    CULIFT_NVRTC_OPTIONS="$opts" timeout 120 scripts/compare-backends.sh "$bin/culift" \
      tests/reliability/gpu_findings/nvvm_p2940.hpp 4x4x4 "$a2940" P2940 P2940NoSwitch P2940Fields P2940NoFallthrough \
      "${inc[@]}" 2>&1 | grep -E "^(same|DIFFERENT|FAILED|  )" | cut -c1-160
    echo "-- p2940, the whole program and the second reduction's variants with the leg's arguments, ${opts:-default}"
    leg2940="$(cat tests/reliability/gpu_findings/nvvm_p2940_program.args.json)"
    CULIFT_NVRTC_OPTIONS="$opts" timeout 60 scripts/compare-backends.sh "$bin/culift" \
      tests/reliability/gpu_findings/nvvm_p2940_program.hpp 4x4x4 "$leg2940" p2940_kernel "${inc[@]}" 2>&1 |
      grep -E "^(same|DIFFERENT|FAILED)" | cut -c1-160
    CULIFT_NVRTC_OPTIONS="$opts" timeout 120 scripts/compare-backends.sh "$bin/culift" \
      tests/reliability/gpu_findings/nvvm_p2940_again.hpp 4x4x4 "$leg2940" Q2940 Q2940Params Q2940NoNaNTest \
      Q2940IntCounter Q2940NoSwitch Q2940NoSv8 Q2940NoInnerLoop Q2940NoAdd "${inc[@]}" 2>&1 |
      grep -E "^(same|DIFFERENT|FAILED)" | cut -c1-160
  done
  rm -rf "$out/cache"
fi

# The hand-written harnesses (HARNESSES=1): variants of the emitted CUDA of a finding, each compared
# with the per-thread entry or the interpreter's outputs, built with nvcc three ways.
if [ -n "${HARNESSES:-}" ]; then
  for cu in tests/reliability/gpu_findings/*.cu; do
    name="$(basename "$cu" .cu)"
    for opts in "" "-Xptxas -O0" "-G"; do
      echo "-- $name, ${opts:-default}"
      # shellcheck disable=SC2086
      nvcc -arch=sm_90 -fmad=false $opts -w -o "$out/$name" "$cu" > "$out/$name-build.txt" 2>&1 || { echo "build failed"; tail -5 "$out/$name-build.txt"; continue; }
      timeout 60 "$out/$name" | cut -c1-200
      rm -f "$out/$name"
    done
  done
fi
