#!/usr/bin/env bash
# Launches split over MPI ranks (culift launch under mpirun -np N) give every output and every
# written array exactly as one process does, for kernels of every index convention; a kernel
# whose writes cannot be split by outputs is refused on every rank with the reason.
#
#   mpi_split_tests.sh CULIFT INCLUDE_DIR [MPIRUN]
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,6p' "$0"; exit 2; }
culift="$1" include="$2" mpirun="${3:-mpirun}"
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

# The launch report without its timing, its ranks and its formatting.
strip() { python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("ms",None); d.pop("ranks",None); print(json.dumps(d, sort_keys=True))'; }

check_split() {  # FUNCTION EXTENT ARGS
  local fn="$1" extent="$2" a="$work/$3.json"
  local one many
  one=$("$culift" launch "$header" --function "$fn" --backend cpu --extent "$extent" --args "@$a" -- -I"$include" 2> "$work/err" | strip) ||
    { echo "FAIL $fn: one process: $(head -3 "$work/err")"; failures=$((failures + 1)); return; }
  for n in 2 3; do
    many=$("${mpi[@]}" -np "$n" "$culift" launch "$header" --function "$fn" --extent "$extent" --args "@$a" -- -I"$include" 2> "$work/err")
    if ! grep -q "\"ranks\":$n" <<< "$many"; then
      echo "FAIL $fn: -np $n reported no \"ranks\":$n: $(head -c 300 <<< "$many") $(head -3 "$work/err")"
      failures=$((failures + 1))
      continue
    fi
    if [ "$(strip <<< "$many")" != "$one" ]; then
      echo "FAIL $fn: -np $n differs from one process"
      failures=$((failures + 1))
      continue
    fi
    echo "ok $fn -np $n: the same outputs and arrays as one process"
    passed=$((passed + 1))
  done
}

check_split RowSum 1000 rowsum
check_split Gram 90x90 gram
check_split Blur 13x17x19 blur
check_split Axpy 7001 axpy
check_split Scale 5003 scale
check_split RowRange 777 range

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

echo "mpi split: $passed passed, $failures failed"
[ "$failures" -eq 0 ]
