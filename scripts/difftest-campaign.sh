#!/usr/bin/env bash
# A long differential campaign: generated programs on the native (-O0 with UBSan, whose first
# report stops the program and is a finding, -O2) and interpreter legs plus NVRTC compiles, and
# the compiled CPU leg (every kernel launched by checked and unchecked compiled code against the
# interpreter's launch; --no-compiled skips it, --only-compiled runs it alone);
# every finding is reduced and saved as a regression file under tests/reliability/regressions/
# (replayed by reliability_regression_tests). The summary prints what was generated and how many
# programs' results depend on their arguments. Shards: --first N --count M; --no-nvrtc for the
# CPU legs alone.
#
#   scripts/difftest-campaign.sh --count 5000 --seed 7 [--build-dir build] [more culift-difftest options]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CULIFT_BUILD_DIR:-$root/build}"
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
bin="$build/tests/reliability/culift-difftest"
if [ ! -x "$bin" ]; then
  echo "difftest-campaign: $bin not built (ninja -C $build culift-difftest)" >&2
  exit 2
fi
exec "$bin" --ubsan --regressions "$root/tests/reliability/regressions" "${args[@]}"
