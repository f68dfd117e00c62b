#!/usr/bin/env bash
# The GPU leg's arguments as `culift launch --args` takes them (--show-args, LAUNCH-ARGS) replay
# each program of a seed: the dumped program launched on the CPU backend with them is accepted
# (every user parameter, in order, arrays of the program's lengths) and writes its result.
#
#   leg_args_replay.sh LEG CULIFT INCLUDE_DIR SEED COUNT
set -uo pipefail
[ $# -eq 5 ] || { sed -n '2,6p' "$0"; exit 2; }
leg="$1" culift="$2" include="$3" seed="$4" count="$5"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
replayed=0
for ((p = 0; p < count; ++p)); do
  "$leg" --seed "$seed" --dump "$p" > "$work/p$p.hpp" || { echo "FAIL p$p: no dump"; exit 1; }
  shown=$("$leg" --backend=cpu --seed "$seed" --first "$p" --count 1 --math-samples=1 --tensor-core-programs=0 --show-args 2>&1)
  args=$(sed -n "s/^LAUNCH-ARGS p$p: //p" <<< "$shown")
  extent=$(sed -n "s/^LAUNCH-EXTENT p$p: //p" <<< "$shown")
  [ -n "$args" ] && [ -n "$extent" ] || { echo "FAIL p$p: no LAUNCH-ARGS or LAUNCH-EXTENT in the leg's output"; exit 1; }
  if ! json=$("$culift" launch "$work/p$p.hpp" --function "p${p}_kernel" --backend cpu --strict --extent "$extent" \
                --args "$args" -- -I"$include" 2> "$work/err"); then
    echo "FAIL p$p: culift launch refused the leg's arguments:"; head -5 "$work/err"; exit 1
  fi
  grep -q '"backend":"cpu"' <<< "$json" || { echo "FAIL p$p: no launch report"; exit 1; }
  replayed=$((replayed + 1))
done
echo "leg arguments replayed: $replayed programs"
