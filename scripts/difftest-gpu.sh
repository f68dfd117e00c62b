#!/usr/bin/env bash
# The GPU leg of the differential tester, on the GPU machine, over a binary built on the
# development machine: generated kernels on the GPU (strict math) vs the interpreter, bit for
# bit, and every transcendental function within CUDA's ulp bounds. Logs go to $OUT.
#
#   OUT=/path/to/logs [SHARDS=4] scripts/difftest-gpu.sh [BIN_DIR] [--count N --seed S ...]
#
# SHARDS=K splits the campaign (--count, starting at --first) into K processes run side by side,
# each on its own part of the same program stream (translation and NVRTC are CPU work); the log
# is the shards' logs one after the other and the exit status the first failing shard's.
# DEADLINE=SECONDS stops every shard after that long (a device call has a time limit): a shard cut
# off counts the programs it compared so far (its last progress line), and is no failure by itself.
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
shards="${SHARDS:-1}"
if [ "$shards" -le 1 ]; then
  "$bin" "$@" > "$out/difftest-gpu.log" 2>&1
  status=$?
  tail -n 40 "$out/difftest-gpu.log"
  exit $status
fi
count=500 first=0 rest=()
for a in "$@"; do
  case "$a" in
    --count=*) count="${a#--count=}" ;;
    --first=*) first="${a#--first=}" ;;
    *) rest+=("$a") ;;
  esac
done
per=$(( (count + shards - 1) / shards ))
pids=()
for ((s = 0; s < shards; s++)); do
  start=$((first + s * per))
  n=$(( count - s * per < per ? count - s * per : per ))
  [ "$n" -gt 0 ] || break
  deadline=()
  [ -n "${DEADLINE:-}" ] && deadline=(timeout "$DEADLINE")
  CULIFT_CACHE_DIR="$out/cache-$s" "${deadline[@]}" "$bin" "${rest[@]}" --first="$start" --count="$n" > "$out/shard-$s.log" 2>&1 &
  pids+=($!)
done
status=0
cut=0
for ((s = 0; s < ${#pids[@]}; s++)); do
  wait "${pids[$s]}"; st=$?
  if [ "$st" -eq 124 ] && [ -n "${DEADLINE:-}" ]; then
    # Cut off at the deadline: its last progress line stands for its summary.
    cut=$((cut + 1))
    last="$(grep -E "^programs [0-9]+\.\.[0-9]+: [0-9]+ compared so far" "$out/shard-$s.log" | tail -n 1)"
    echo "culift-difftest-gpu seed (cut off at the deadline): ${last#*: }" >> "$out/shard-$s.log"
    grep -q "^MISMATCH\|^ERROR" "$out/shard-$s.log" && st=1 || st=0
  fi
  [ "$status" -ne 0 ] || status=$st
done
cat "$out"/shard-*.log > "$out/difftest-gpu.log"
rm -f "$out"/shard-*.log
grep -E "^culift-difftest-gpu seed|^FAIL|^no GPU" "$out/difftest-gpu.log"
[ "$cut" -eq 0 ] || echo "$cut shard(s) cut off at the deadline of ${DEADLINE}s"
awk -v shards="$shards" '/^culift-difftest-gpu seed \(cut off/ { done++; c += $8
    for (i = 9; i <= NF; i++) { if ($i ~ /^mismatches/) m += $(i-1); if ($i ~ /^errors/) e += $(i-1) }; next }
  /^culift-difftest-gpu seed/ {
    done++; c += $4
    for (i = 5; i <= NF; i++) { if ($i ~ /^mismatches/) m += $(i-1); if ($i ~ /^errors/) e += $(i-1) } }
  END { printf "all %d shards: %d programs compared, %d mismatches, %d errors\n", done, c, m, e }' "$out/difftest-gpu.log"
exit $status
