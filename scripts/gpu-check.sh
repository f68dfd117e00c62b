#!/usr/bin/env bash
# Runs culift's GPU checks on the GPU machine, over binaries built on the development machine.
#
#   OUT=/path/to/logs scripts/gpu-check.sh [BIN_DIR]
#
# BIN_DIR (default: .gpu in the repository root) holds the built binaries: culift and the
# runtime test executables (runtime_gpu_tests, runtime_gpu_fault_tests, and any other
# runtime_*_tests), either directly or in the build tree's layout (tools/, tests/runtime/).
# Logs go to $OUT; a short summary is printed last. Exit status: 0 when every check passed.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_dir="${1:-$root/.gpu}"
out="${OUT:?set OUT to the directory for the logs}"
mkdir -p "$out"
cd "$root"
export CULIFT_SOURCE_ROOT="$root"
# A GPU check that finds no GPU (or no NVRTC) fails instead of skipping.
export CULIFT_REQUIRE_GPU=1 CULIFT_REQUIRE_NVRTC=1
# A fresh compile cache: the first launch compiles cold, the second must hit the cache.
export CULIFT_CACHE_DIR="$out/cache"
rm -rf "$CULIFT_CACHE_DIR"

# Checks run side by side (test suites and sanitizer runs in the background, on one GPU), so a
# result is a line appended to one file rather than a variable.
records="$out/records.txt"
: > "$records"
record() {  # record NAME STATUS(0=pass) DETAIL
  if [ "$2" -eq 0 ]; then echo "PASS  $1  $3" >> "$records"; else echo "FAIL  $1  $3" >> "$records"; fi
}

find_bin() {
  for d in "$bin_dir" "$bin_dir/bin" "$bin_dir/tools" "$bin_dir/tests/runtime" "$bin_dir/tests/reliability" \
           "$bin_dir/tests/module_files" "$bin_dir/tests/codegen"; do
    if [ -x "$d/$1" ]; then echo "$d/$1"; return 0; fi
  done
  return 1
}

# --- the machine ---------------------------------------------------------------------------
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv; } \
  > "$out/nvidia-smi.txt" 2>&1 || true

culift="$(find_bin culift)" || culift=""
if [ -z "$culift" ]; then
  record "culift binary" 1 "not found under $bin_dir"
else
  "$culift" probe > "$out/probe.txt" 2>&1
  record "culift probe" $? "$(grep -m1 '^GPU usable' "$out/probe.txt")"
  "$culift" probe --json > "$out/probe.json" 2>&1
  python3 -c "import json,sys; sys.exit(0 if json.load(open('$out/probe.json'))['gpuUsable'] else 1)" 2>/dev/null
  record "probe --json: gpuUsable" $? ""
fi

# --- test executables ------------------------------------------------------------------------
run_tests() {  # run_tests NAME [catch args...]
  local name="$1"; shift
  local exe
  exe="$(find_bin "$name")" || { record "$name" 1 "not found under $bin_dir"; return; }
  "$exe" "$@" > "$out/$name.log" 2>&1
  local status=$?
  local tail_line
  tail_line="$(grep -E 'All tests passed|test cases:' "$out/$name.log" | tail -1)"
  # On the GPU machine a GPU test that skips is a failure of the setup, not a pass.
  if grep -q "skipped: no GPU" "$out/$name.log"; then
    record "$name" 1 "$(grep -m1 -o "skipped: no GPU.*" "$out/$name.log" | cut -c1-160)"
  else
    record "$name" "$status" "$tail_line"
  fi
}
# Every suite that has GPU cases, each with all its cases: a [gpu] case that finds no GPU fails
# here (CULIFT_REQUIRE_GPU=1), and one that is missing from the staged binaries is a failure too.
gpu_suites="runtime_gpu_tests runtime_gpu_fault_tests runtime_gpu_golden_tests runtime_gpu_plan_tests
            runtime_gpu_assert_tests runtime_thread_tests runtime_raw_module_tests reliability_runtime_tests"
for suite in $gpu_suites; do run_tests "$suite" & done
# Its other cases run the build tree's culift and stay on the development machine.
run_tests embedded_kernels_tests "[gpu]" &
# A program built by nvcc alone that calls the emitted launchers (nvcc is on the GPU machine).
run_tests codegen_nvcc_tests "[gpu]" &
# The other runtime suites staged, under a real driver (the command-line one runs the build
# tree's culift and stays on the development machine).
for exe in "$bin_dir"/runtime_*_tests; do
  name="$(basename "$exe")"
  case " $(echo $gpu_suites) runtime_launch_cli_tests " in
    *" $name "*) ;;
    *) [ -x "$exe" ] && run_tests "$name" & ;;
  esac
done

# --- culift launch: GPU against the CPU backend ----------------------------------------------
compare_launch() {  # compare_launch LABEL FILE FUNCTION EXTENT ARGS
  local label="$1" file="$2" fn="$3" extent="$4" args="$5"
  [ -n "$culift" ] || return
  "$culift" launch "$file" --function "$fn" --extent "$extent" --args "$args" --backend gpu --strict \
    > "$out/launch-$label-gpu.json" 2> "$out/launch-$label-gpu.err"
  local g=$?
  "$culift" launch "$file" --function "$fn" --extent "$extent" --args "$args" --backend cpu \
    > "$out/launch-$label-cpu.json" 2> "$out/launch-$label-cpu.err"
  local c=$?
  if [ $g -ne 0 ] || [ $c -ne 0 ]; then
    record "launch $label" 1 "exit gpu=$g cpu=$c (see launch-$label-*.err)"
    return
  fi
  python3 - "$out/launch-$label-gpu.json" "$out/launch-$label-cpu.json" > "$out/launch-$label.cmp" 2>&1 <<'PY'
import json, sys
g, c = (json.load(open(p)) for p in sys.argv[1:3])
assert g["backend"] == "gpu", "GPU launch ran on " + g["backend"]
assert c["backend"] == "cpu"
assert g.get("out") == c.get("out"), "out differs"
assert g["arrays"] == c["arrays"], "arrays differ"
print("identical; gpu %.3f ms, cpu %.3f ms" % (g["ms"], c["ms"]))
PY
  record "launch $label (gpu == cpu)" $? "$(tail -1 "$out/launch-$label.cmp")"
}

pearson="$root/examples/pearson/pearson_metrics.hpp"
if [ -f "$pearson" ]; then
  x='[0.5, -1.25, 2, 3.5, 1, 0.25, -2, 4, 1.5, 2.5, -0.75, 0, 3, -1, 0.125, 2.25]'
  compare_launch rowsum "$pearson" RowSum 4 "[$x, 4]"
  compare_launch gramdot "$pearson" GramDot 4x4 "[$x, 4]"
  compare_launch clamp "$pearson" PearsonClamp 4 '[[0.5, -3, 2, "nan"], [1, 2, 0, 1]]'
  # The second GramDot launch finds the image in the disk cache.
  ls "$CULIFT_CACHE_DIR" > "$out/cache-listing.txt" 2>&1
  record "compile cache on disk" $([ "$(ls "$CULIFT_CACHE_DIR" 2>/dev/null | grep -c culift-image)" -ge 1 ]; echo $?) \
    "$(ls "$CULIFT_CACHE_DIR" 2>/dev/null | grep -c culift-image) image(s)"
else
  record "pearson launches" 1 "$pearson not found"
fi

# A kernel with 2-D and element-wise forms, written here so the check needs no example.
scratch="$(mktemp -d)"
cat > "$scratch/check.cpp" <<'CPP'
#define CULIFT_KERNEL [[clang::annotate("culift")]]
CULIFT_KERNEL double Outer(const double* a, const double* b, int i, int j) { return a[i] * b[j] / 3.0; }
CULIFT_KERNEL void Fill(float* y, float v, long long i) { y[i] = v * (float)i; }
struct Vec3 { float x, y, z; };
struct Particle { Vec3 pos; Vec3 vel; float mass; };
CULIFT_KERNEL void Step(const Particle* in, Particle* out, float dt, int i) {
  Particle p = in[i];
  p.pos.x += dt * p.vel.x;
  p.vel.y -= dt * p.mass;
  out[i] = p;
}
CPP
compare_launch outer "$scratch/check.cpp" Outer 3x4 '[[1, 2, 3], [0.5, -1, 7, 1e300]]'
compare_launch fill "$scratch/check.cpp" Fill 5 '[[0, 0, 0, 0, 0, 9], 0.1]'
# An array of structs: records in and out as objects keyed by field path.
compare_launch records "$scratch/check.cpp" Step 2 \
  '[[{"pos_x": 1, "pos_y": 2, "pos_z": 3, "vel_x": 4, "vel_y": 5, "vel_z": 6, "mass": 0.5},
     {"pos": {"x": -1, "y": 0.1, "z": 0}, "vel": {"x": 2.5, "y": 0, "z": 0}, "mass": 3}],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0.1]'

# 10^7 elements from a .npy file to .npy files, on the GPU: the file path with no JSON numbers.
npy_launch() {
  cat > "$scratch/scale.cpp" <<'CPP'
#define CULIFT_KERNEL [[clang::annotate("culift")]]
CULIFT_KERNEL float Scale(const float* x, float a, int i) { return a * x[i]; }
CPP
  python3 -c "import numpy as np; np.save('$scratch/x.npy', np.arange(10**7, dtype=np.float32) * 0.25)" || return 1
  echo '[{"npy": "'"$scratch"'/x.npy"}, 0.5]' > "$scratch/args.json"
  mkdir -p "$scratch/npy-out"
  local t0 t1
  t0=$(date +%s%N)
  "$culift" launch "$scratch/scale.cpp" --function Scale --extent 10000000 --args "@$scratch/args.json" \
    --out-npy "$scratch/npy-out" --backend gpu > "$out/launch-npy.json" 2> "$out/launch-npy.err" || return 1
  t1=$(date +%s%N)
  python3 - "$scratch" "$out/launch-npy.json" $(( (t1 - t0) / 1000000 )) <<'PY'
import json, sys
import numpy as np
scratch, report, wall = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
assert report["backend"] == "gpu", report
y = np.load(report["out"])
x = np.load(scratch + "/x.npy")
assert y.dtype == np.float32 and y.shape == (10**7,), (y.dtype, y.shape)
assert np.array_equal(y, np.float32(0.5) * x), "values differ"
print(f"10^7 floats in and out as .npy on the GPU: kernel {report['ms']} ms, the whole command {wall} ms")
PY
}
npy_launch > "$out/launch-npy.cmp" 2>&1
record "launch 10^7 from .npy (gpu)" $? "$(tail -1 "$out/launch-npy.cmp") $(tail -3 "$out/launch-npy.err" 2>/dev/null | tr '\n' ' ' | cut -c1-400)"

if command -v compute-sanitizer > /dev/null && [ -n "$culift" ] && [ -f "$pearson" ]; then
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 "$culift" launch "$pearson" --function GramDot \
    --extent 4x4 --args "[$x, 4]" --backend gpu > "$out/memcheck.log" 2>&1
  record "compute-sanitizer memcheck (GramDot)" $? "$(grep -m1 'ERROR SUMMARY' "$out/memcheck.log")"
fi
rm -rf "$scratch"

# The golden kernels (both entries, ragged plans) and the element-wise vector/unaligned cases
# under each compute-sanitizer tool: out-of-bounds and misaligned accesses, shared-memory
# races, reads of uninitialized device memory.
golden="$(find_bin runtime_gpu_golden_tests)" || golden=""
if command -v compute-sanitizer > /dev/null && [ -n "$golden" ]; then
  for tool in memcheck racecheck initcheck; do
    {
      timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 "$golden" "[sanitize]" \
        > "$out/sanitizer-$tool.log" 2>&1
      record "compute-sanitizer $tool (golden kernels)" $? \
        "$(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/sanitizer-$tool.log") $(grep -E 'All tests passed|test cases:' "$out/sanitizer-$tool.log" | tail -1)"
    } &
  done
fi

# Every loop-plan entry (tiled contractions, row reductions) at small extents under the tools
# that check copies into shared memory and barriers.
plans="$(find_bin runtime_gpu_plan_tests)" || plans=""
if command -v compute-sanitizer > /dev/null && [ -n "$plans" ]; then
  for tool in memcheck racecheck synccheck; do
    {
      CULIFT_PLAN_TESTS_SMALL=1 timeout 450 compute-sanitizer --tool "$tool" --error-exitcode 9 "$plans" "[sanitize]" \
        > "$out/sanitizer-plans-$tool.log" 2>&1
      record "compute-sanitizer $tool (loop-plan entries)" $? \
        "$(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$out/sanitizer-plans-$tool.log") $(grep -E 'All tests passed|test cases:' "$out/sanitizer-plans-$tool.log" | tail -1)"
    } &
  done
fi
wait

# --- summary (last) ----------------------------------------------------------------------------
# The first failed assertions of every failing test log, before the summary: a device call may
# bring back only the command's output, not the logs.
for log in "$out"/*.log; do
  [ -f "$log" ] && grep -q "FAILED:" "$log" || continue
  echo "== $(basename "$log"): the first failures"
  grep -A12 "FAILED:" "$log" | head -n 40 | cut -c1-200
done
{
  echo "culift gpu-check: $(grep -m1 -E '^\s*\[0\]' "$out/probe.txt" 2>/dev/null | sed 's/^ *//')"
  sort -k2 "$records"
  echo "$(grep -c '^PASS' "$records") passed, $(grep -c '^FAIL' "$records") failed; logs in $out"
} | tee "$out/summary.txt"
! grep -q '^FAIL' "$records"
