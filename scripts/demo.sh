#!/usr/bin/env bash
# The README's demo: the Pearson tutorial (GPU when one exists, else the CPU backend). Step 1
# shows one kernel's CUDA and writes the whole file to build/examples/pearson/pearson_kernels.cu
# (--show-cuda NAME or all, --cuda-out FILE, --brief: see --help).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CULIFT_BUILD_DIR:-build}
if [ -x "$build/examples/pearson/pearson" ]; then
  exec "$build/examples/pearson/pearson" "$@"
fi
# Until the tutorial binary exists: the translation of its six functions, to a file.
out="$build/pearson_kernels.cu"
"$build/tools/culift" emit examples/pearson/pearson_metrics.hpp -o "$out"
echo "translated examples/pearson/pearson_metrics.hpp: $(grep -c '__global__' "$out") kernel entries," \
  "$(wc -l < "$out") lines of CUDA in $out"
