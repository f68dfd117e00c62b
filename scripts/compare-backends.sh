#!/usr/bin/env bash
# Launches functions of one header on the CPU backend and on the GPU with the same arguments
# (strict math) and says, per function, whether every output is the same: the tool for
# narrowing down a GPU-leg finding (a header of variants of the program, one function each).
#
#   scripts/compare-backends.sh CULIFT HEADER EXTENT ARGS_JSON FUNCTION... [-- CLANG_ARGS...]
#
# Prints "same NAME" or "DIFFERENT NAME" with both outputs; exits 1 when any differs, 2 when a
# launch fails.
set -uo pipefail
[ $# -ge 5 ] || { sed -n '2,9p' "$0"; exit 2; }
culift="$1" header="$2" extent="$3" args="$4"
shift 4
functions=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do functions+=("$1"); shift; done
[ $# -gt 0 ] && shift
status=0
for fn in "${functions[@]}"; do
  outputs=()
  for backend in cpu gpu; do
    # The written arrays and out, without the timing and the entry name.
    if ! json=$("$culift" launch "$header" --function "$fn" --backend "$backend" --strict --extent "$extent" \
                  --args "$args" -- "$@" 2>/dev/null); then
      echo "FAILED $fn on the $backend backend"; status=2; continue 2
    fi
    outputs+=("$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps([d.get("out"), d["arrays"]], sort_keys=True))' <<< "$json")")
  done
  if [ "${outputs[0]}" == "${outputs[1]}" ]; then
    echo "same $fn"
  else
    echo "DIFFERENT $fn"
    echo "  cpu: ${outputs[0]:0:400}"
    echo "  gpu: ${outputs[1]:0:400}"
    [ "$status" -eq 0 ] && status=1
  fi
done
exit $status
