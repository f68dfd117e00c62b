#!/usr/bin/env bash
# The README's demo: the Pearson tutorial (GPU when one exists, else the CPU backend).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CULIFT_BUILD_DIR:-build}
if [ -x "$build/examples/pearson/pearson" ]; then
  exec "$build/examples/pearson/pearson" "$@"
fi
# Until the tutorial binary exists: the translation of its six functions.
exec "$build/tools/culift" emit examples/pearson/pearson_metrics.hpp
