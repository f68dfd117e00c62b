#!/usr/bin/env bash
# Every GPU check of one session on the GPU machine, over binaries copied into .gpu/:
# the runtime's GPU checks, the Pearson tutorial (default and strict math), the differential
# tester's GPU leg and, when built, the benchmark. Full logs go to $LOGS (default /tmp/culift-gpu);
# a tar of them to $OUT when set. Key lines are printed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
logs="${LOGS:-/tmp/culift-gpu}"
mkdir -p "$logs"
count="${DIFFTEST_COUNT:-300}"  # DIFFTEST_SEED (default 1) and SHARDS (parallel processes) too
# A GPU check that finds no GPU fails; the session's exit status is its first failure's.
export CULIFT_REQUIRE_GPU=1
# Stopped from outside (a caller's timeout), the session stops the jobs it started in the
# background too (the sanitizers side by side), so that none shares the GPU with what runs next.
trap 'kill $(jobs -p) 2>/dev/null; exit 143' TERM INT
first_failure=0
failed() { [ "$first_failure" -ne 0 ] || first_failure="$1"; }
# PARTS picks sections (a device call has a time limit): check pearson difftest bench startup, and
# the ones not run by default: harnesses (bench/gpu's variants of the convolutions, the exact GEMM and
# the TF32 GEMM) and campaign (the CPU
# legs over the machine's cores: CAMPAIGN_SEED, CAMPAIGN_COUNT, CAMPAIGN_DEADLINE seconds, and
# CAMPAIGN_OPTIONS for culift-difftest, e.g. --no-compiled: the compiled CPU leg's JIT takes
# about 70 % of a batch's time).
# plans (not run by default) runs the loop-plan GPU test cases PLAN_TESTS names (a Catch filter,
# e.g. "every stencil entry*") and, over their small shapes, compute-sanitizer memcheck, racecheck
# and synccheck side by side.
# DIFFTEST_DEADLINE stops the GPU leg's shards after that long, counting what they compared.
want() { [[ " ${PARTS:-check pearson difftest bench startup} " == *" $1 "* ]]; }

if want check; then
  echo "== gpu-check"
  OUT="$logs/check" timeout 540 scripts/gpu-check.sh .gpu > "$logs/check.txt" 2>&1
  status=$?; failed $status
  echo "gpu-check exit $status"; tail -n 120 "$logs/check.txt"  # the first failures come before the summary
fi

if [[ " ${PARTS:-} " == *" plans "* ]]; then
  echo "== loop-plan entries: ${PLAN_TESTS:?set PLAN_TESTS}"
  timeout 240 .gpu/runtime_gpu_plan_tests "$PLAN_TESTS" > "$logs/plans.txt" 2>&1
  status=$?; failed $status
  echo "plans exit $status"; grep -E "entries run|launches compared|passed|failed" "$logs/plans.txt" | head -n 12
  for tool in memcheck racecheck synccheck; do
    CULIFT_PLAN_TESTS_SMALL=1 timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      .gpu/runtime_gpu_plan_tests "$PLAN_TESTS" > "$logs/plans-$tool.txt" 2>&1 &
  done
  for job in $(jobs -p); do wait "$job"; failed $?; done
  for tool in memcheck racecheck synccheck; do
    echo "-- $tool"; grep -E "SUMMARY|All tests passed|test cases" "$logs/plans-$tool.txt" | head -n 3
  done
fi

if want pearson; then
echo "== pearson (default math)"
timeout 120 .gpu/pearson --header examples/pearson/pearson_metrics.hpp --brief > "$logs/pearson.txt" 2>&1
status=$?; failed $status
# The tutorial falls back to the CPU backend without a GPU: on the GPU machine that is a failure.
if grep -q "No GPU" "$logs/pearson.txt"; then echo "pearson: ran on the CPU backend"; failed 3; fi
echo "pearson exit $status"; grep -E "self-check|device|compiled|ms$|error|OK|FAIL|passed" "$logs/pearson.txt" | head -40
echo "== pearson 4096 strict"
timeout 120 .gpu/pearson --header examples/pearson/pearson_metrics.hpp --brief --strict --size 4096 > "$logs/pearson4096.txt" 2>&1
status=$?; failed $status
echo "pearson4096 exit $status"; grep -E "compiled|ms$|error|OK|FAIL|passed" "$logs/pearson4096.txt" | head -20
fi

if want difftest; then
  echo "== difftest gpu leg ($count programs)"
  OUT="$logs/difftest" DEADLINE="${DIFFTEST_DEADLINE:-}" timeout "${DIFFTEST_TIMEOUT:-240}" scripts/difftest-gpu.sh .gpu \
    --count="$count" --seed="${DIFFTEST_SEED:-1}" > "$logs/difftest.txt" 2>&1
  status=$?; failed $status
  echo "difftest exit $status"; tail -n 15 "$logs/difftest.txt"
  # The first findings, shortened: the whole log may be too large to bring back.
  grep -E -A3 "^(MISMATCH|ERROR|batch .*translation failed)" "$logs/difftest/difftest-gpu.log" 2>/dev/null | head -n 40 | cut -c1-300
fi

if want bench && [ -x .gpu/culift_gpu_bench ]; then
  echo "== benchmark"
  OUT="$logs/bench" timeout 300 scripts/gpu-bench.sh .gpu > "$logs/bench.txt" 2>&1
  status=$?; failed $status
  echo "bench exit $status"; tail -n 45 "$logs/bench.txt"
fi
if want startup && [ -x .gpu/culift_startup_bench ]; then
  echo "== start-up (fresh processes: cold with an empty cache directory, then warm from the disk cache)"
  for run in 1 2 3 4 5; do
    c="$logs/startup-cache-$run"; rm -rf "$c"
    .gpu/culift_startup_bench --cache-dir "$c" || exit 1
    .gpu/culift_startup_bench --cache-dir "$c" || exit 1
  done 2>&1 | tee "$logs/startup.txt"
  failed "${PIPESTATUS[0]}"
fi
if want startup && [ -x .gpu/culift_embedded_startup_bench ]; then
  echo "== start-up with kernels built with the app (embedded module and sm_90 cubin; fresh processes)"
  for run in 1 2 3 4 5; do .gpu/culift_embedded_startup_bench || exit 1; done 2>&1 | tee "$logs/startup-embedded.txt"
  failed "${PIPESTATUS[0]}"
fi
if [[ " ${PARTS:-} " == *" harnesses "* ]]; then
  echo "== harnesses"
  OUT="$logs/harnesses" timeout 540 scripts/gpu-harnesses.sh .gpu 2>&1 | tail -n 100
fi
if [[ " ${PARTS:-} " == *" campaign "* ]]; then
  echo "== CPU campaign over the machine's cores (seed ${CAMPAIGN_SEED:?set CAMPAIGN_SEED})"
  OUT="$logs/campaign" SHARDS="${CAMPAIGN_SHARDS:-15}" DEADLINE="${CAMPAIGN_DEADLINE:-480}" \
    scripts/difftest-cpu-shards.sh .gpu --count="${CAMPAIGN_COUNT:-60000}" --seed="$CAMPAIGN_SEED" ${CAMPAIGN_OPTIONS:-} 2>&1 |
    tail -n 20
  failed "${PIPESTATUS[0]}"
  [ -n "${OUT:-}" ] && cp -r "$logs/campaign/regressions" "$OUT/campaign-regressions" 2>/dev/null
fi
[ -n "${OUT:-}" ] && tar czf "$OUT/gpu-logs.tar.gz" -C "$logs" . 2>/dev/null
echo "gpu-session: exit $first_failure (the first failing part's status, 0 when all passed)"
exit "$first_failure"
