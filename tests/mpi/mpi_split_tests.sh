#!/usr/bin/env bash
# Launches split over MPI ranks (culift launch under mpirun -np N) give every output and every
# written array exactly as one process does, for kernels of every index convention; a kernel
# whose writes cannot be split by outputs is refused on every rank with the reason.
#
#   mpi_split_tests.sh CULIFT INCLUDE_DIR [MPIRUN [MPI_GATHER_TEST]]
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,6p' "$0"; exit 2; }
culift="$1" include="$2" mpirun="${3:-mpirun}" gather="${4:-}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
header="$here/split_kernels.hpp"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Root in containers, more ranks than cores, shared memory only.
mpi=("$mpirun" --allow-run-as-root --oversubscribe --mca btl self,vader)
failures=0 passed=0

args() {  # NAME PYTHON-EXPRESSION: the arguments' JSON, written once
  python3 -c "import json; print(json.dumps($2))" > "$work/$1.json"
}
args rowsum '[[float((k * 7919) % 61) / 8.0 - 3.0 for k in range(1000 * 24)], 24]'
args gram '[[float((k * 104729) % 101) / 16.0 - 3.0 for k in range(90 * 12)], 12]'
args blur '[[float((k * 31) % 97) / 4.0 for k in range(13 * 17 * 19)], 13, 17, 19]'
args axpy '[[float(k % 113) / 7.0 for k in range(7001)], [float(k % 29) - 14.0 for k in range(7001)]]'
args scale '[[float(k % 41) / 3.0 for k in range(5003)], [0.0] * 5003, 1.5]'
args range '[[float((k * 53) % 89) - 44.0 for k in range(777 * 9)], 9]'
args hist '[[k % 4 for k in range(5000)], [0, 0, 0, 0]]'

# The launch report without its timing, its ranks, its parts and its formatting.
strip() {
  python3 -c 'import json,sys
d=json.load(sys.stdin)
for k in ("ms", "ranks", "devices", "split", "parts"): d.pop(k, None)
print(json.dumps(d, sort_keys=True))'
}

# Whether the report's parts are whole rows of ROW elements, in order, covering TOTAL outputs.
rows_parts() {  # ROW TOTAL
  python3 -c 'import json,sys
d=json.load(sys.stdin); row=int(sys.argv[1]); total=int(sys.argv[2]); at=0
for first, last in d["parts"]:
    assert first == at and first % row == 0 and last % row == 0, (first, last)
    at = last
assert at == total, at' "$@"
}

check_split() {  # FUNCTION EXTENT ARGS [ENGINES-PER-RANK]
  local fn="$1" extent="$2" a="$work/$3.json" per="${4:-}"
  local one many devices=() label=""
  [ -n "$per" ] && { devices=(--devices "cpu:$per"); label=" with $per CPU engines per rank"; }
  one=$("$culift" launch "$header" --function "$fn" --backend cpu --extent "$extent" --args "@$a" -- -I"$include" 2> "$work/err" | strip) ||
    { echo "FAIL $fn: one process: $(head -3 "$work/err")"; failures=$((failures + 1)); return; }
  local row total
  row=$(python3 -c 'import sys, math; e=[int(x) for x in sys.argv[1].split("x")]; print(math.prod(e[1:]))' "$extent")
  total=$(python3 -c 'import sys, math; print(math.prod(int(x) for x in sys.argv[1].split("x")))' "$extent")
  for n in 2 3; do
    many=$("${mpi[@]}" -np "$n" "$culift" launch "$header" --function "$fn" --extent "$extent" --args "@$a" \
             "${devices[@]}" -- -I"$include" 2> "$work/err")
    if ! grep -q "\"ranks\":$n" <<< "$many"; then
      echo "FAIL $fn$label: -np $n reported no \"ranks\":$n: $(head -c 300 <<< "$many") $(head -3 "$work/err")"
      failures=$((failures + 1))
      continue
    fi
    if ! grep -q "\"devices\":$((n * ${per:-1}))" <<< "$many" || ! rows_parts "$row" "$total" <<< "$many"; then
      echo "FAIL $fn$label: -np $n: not $((n * ${per:-1})) parts of whole rows: $(head -c 300 <<< "$many")"
      failures=$((failures + 1))
      continue
    fi
    if [ "$(strip <<< "$many")" != "$one" ]; then
      echo "FAIL $fn$label: -np $n differs from one process"
      failures=$((failures + 1))
      continue
    fi
    echo "ok $fn -np $n$label: the same outputs and arrays as one process, in parts of whole rows"
    passed=$((passed + 1))
  done
}

check_split RowSum 1000 rowsum
check_split Gram 90x90 gram
check_split Blur 13x17x19 blur
check_split Axpy 7001 axpy
check_split Scale 5003 scale
check_split RowRange 777 range
# Each rank a device group of CPU engines: the parts are every rank's engines, in rank order.
check_split RowSum 1000 rowsum 2
check_split Gram 90x90 gram 2
check_split Blur 13x17x19 blur 3
check_split Scale 5003 scale 2

# Histogram: every rank counts into the same four elements.
if "${mpi[@]}" -np 2 "$culift" launch "$header" --function Histogram --extent 5000 --args "@$work/hist.json" \
     -- -I"$include" > "$work/out" 2> "$work/err"; then
  echo "FAIL Histogram: a launch whose writes collide across ranks succeeded"
  failures=$((failures + 1))
elif ! grep -q "both wrote element 0 of 'counts'" "$work/err"; then
  echo "FAIL Histogram: no conflict named: $(grep -v warning "$work/err" | head -3)"
  failures=$((failures + 1))
elif [ "$(grep -c "both wrote element" "$work/err")" != 1 ]; then
  echo "FAIL Histogram: the conflict reported $(grep -c "both wrote element" "$work/err") times, not once (by rank 0)"
  failures=$((failures + 1))
else
  echo "ok Histogram -np 2: refused, naming the element and the ranks"
  passed=$((passed + 1))
fi

# A failure in one rank's part only: every rank stops, and rank 0 names the failing rank.
args stride '[[float(k) for k in range(1000)]]'
if "${mpi[@]}" -np 2 "$culift" launch "$header" --function Stride2 --extent 1000 --args "@$work/stride.json" \
     -- -I"$include" > "$work/out" 2> "$work/err"; then
  echo "FAIL Stride2: a launch that reads out of range in rank 1's part succeeded"
  failures=$((failures + 1))
elif ! grep -q "the launch failed on rank 1 of 2" "$work/err"; then
  echo "FAIL Stride2: the failing rank is not named: $(grep -v warning "$work/err" | head -3)"
  failures=$((failures + 1))
else
  echo "ok Stride2 -np 2: the failure in rank 1's part stops both ranks and is named"
  passed=$((passed + 1))
fi

# A rank stuck in its part: the others give up after $CULIFT_MPI_TIMEOUT seconds and the job ends.
args spin '[[0.0] * 500 + [1e18] * 500]'
start=$(date +%s)
if CULIFT_MPI_TIMEOUT=3 timeout 120 "${mpi[@]}" -x CULIFT_MPI_TIMEOUT -np 2 "$culift" launch "$header" --function Spin \
     --extent 1000 --args "@$work/spin.json" -- -I"$include" > "$work/out" 2> "$work/err"; then
  echo "FAIL Spin: a launch with a rank stuck in its part succeeded"
  failures=$((failures + 1))
elif ! grep -q "culift: rank 0 waited more than 3 s in MPI_Allreduce for the other ranks" "$work/err"; then
  echo "FAIL Spin: no watchdog report after $(($(date +%s) - start)) s: $(grep -v warning "$work/err" | head -3)"
  failures=$((failures + 1))
else
  echo "ok Spin -np 2: rank 0 gave up on the stuck rank after the timeout, the job ended in $(($(date +%s) - start)) s"
  passed=$((passed + 1))
fi

# The gather of `out` alone, over layouts a launch on CPU engines does not make (bands of a
# triangle, whose runs interleave the ranks').
if [ -n "$gather" ]; then
  for n in 2 3; do
    if "${mpi[@]}" -np "$n" "$gather" > "$work/out" 2>&1 && [ "$(grep -c ', 0 failed$' "$work/out")" = "$n" ]; then
      echo "ok gather -np $n: $(grep 'rank 0' "$work/out")"
      passed=$((passed + 1))
    else
      echo "FAIL gather -np $n: $(grep -v '^ok' "$work/out" | head -5)"
      failures=$((failures + 1))
    fi
  done
fi

echo "mpi split: $passed passed, $failures failed"
[ "$failures" -eq 0 ]
