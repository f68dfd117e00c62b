#!/usr/bin/env bash
# The CPU legs of the differential tester (native -O0 with UBSan and -O2, the interpreter, NVRTC
# compiles, the compiled CPU backend) in SHARDS processes side by side over parts of one seed, for
# a machine with many cores (the GPU machine's 16), over a binary built on the development machine.
# Reduced findings are saved under $OUT/regressions; the summary counts every shard's batches.
#
#   OUT=/path/to/logs [SHARDS=15] [DEADLINE=SECONDS] [BATCH=100] scripts/difftest-cpu-shards.sh [BIN_DIR] --count=N --seed=S
#
# DEADLINE stops every shard after that long; a shard cut off counts the batches it finished.
# Away from the tree it was built in, set CULIFT_SOURCE_ROOT to the repository root (the native
# legs include culift's headers from there). Exit status: 1 when a finding was made.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_dir="${1:-$root/.gpu}"
[ $# -gt 0 ] && shift
out="${OUT:?set OUT to the directory for the logs}"
mkdir -p "$out/regressions"
bin=""
for d in "$bin_dir" "$bin_dir/tests/reliability"; do
  if [ -x "$d/culift-difftest" ]; then bin="$d/culift-difftest"; break; fi
done
[ -n "$bin" ] || { echo "difftest-cpu-shards: culift-difftest not found under $bin_dir"; exit 2; }
count=300 first=0 rest=()
for a in "$@"; do
  case "$a" in
    --count=*) count="${a#--count=}" ;;
    --first=*) first="${a#--first=}" ;;
    *) rest+=("$a") ;;
  esac
done
shards="${SHARDS:-15}"
per=$(( (count + shards - 1) / shards ))
deadline=()
[ -n "${DEADLINE:-}" ] && deadline=(timeout "$DEADLINE")
for ((s = 0; s < shards; s++)); do
  start=$((first + s * per))
  n=$(( count - s * per < per ? count - s * per : per ))
  [ "$n" -gt 0 ] || break
  CULIFT_CACHE_DIR="$out/cache-$s" "${deadline[@]}" "$bin" --ubsan --batch="${BATCH:-100}" --regressions="$out/regressions" \
    "${rest[@]}" --first="$start" --count="$n" > "$out/shard-$s.log" 2>&1 &
done
wait
rm -rf "$out"/cache-*
cat "$out"/shard-*.log > "$out/difftest-cpu.log"
rm -f "$out"/shard-*.log
grep -E "^saved |^culift-difftest seed" "$out/difftest-cpu.log" | cut -c1-300
# A program whose native legs did not run (no host compiler, culift's headers not found) is not
# counted as compared.
awk '/^batch [0-9]+\.\.[0-9]+: / { b++; p += $3; for (i = 4; i <= NF; i++) if ($i ~ /^finding/) f += $(i-1)
    if (match($0, /native -O0 [0-9]+/)) n += substr($0, RSTART + 11, RLENGTH - 11) }
  END { printf "all shards: %d batches, %d programs (native legs ran for %d), %d findings\n", b, p, n, f
        exit f > 0 || n < p }' "$out/difftest-cpu.log"
