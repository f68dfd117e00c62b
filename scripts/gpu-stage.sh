#!/usr/bin/env bash
# Copies the binaries a GPU session needs from a build tree into .gpu/ (ignored by git),
# stripped so that they travel small: culift, the runtime test executables, the Pearson
# tutorial, the differential tester (its GPU leg, and its CPU legs for campaigns over the GPU
# machine's cores: scripts/difftest-cpu-shards.sh) and the benchmarks.
#
#   scripts/gpu-stage.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
dest="$root/.gpu"
rm -rf "$dest"
mkdir -p "$dest"
copied=0
for rel in tools/culift examples/pearson/pearson tests/reliability/culift-difftest-gpu tests/reliability/culift-difftest \
           tests/reliability/reliability_runtime_tests tests/module_files/embedded_kernels_tests tests/codegen/codegen_nvcc_tests \
           bench/gpu/culift_gpu_bench bench/gpu/culift_group_bench bench/gpu/culift_startup_bench bench/gpu/culift_embedded_startup_bench tests/runtime/runtime_*_tests; do
  for f in "$build"/$rel; do
    [ -x "$f" ] || continue
    strip -o "$dest/$(basename "$f")" "$f"
    copied=$((copied + 1))
  done
done
du -sh "$dest" | sed "s|^|gpu-stage: $copied binaries, |"
# Packed for the trip: the device call carries .carry/ (unpack there with
# `tar xzf .carry/gpu.tar.gz`), a third of .gpu/'s size.
mkdir -p "$root/.carry"
tar czf "$root/.carry/gpu.tar.gz" -C "$root" .gpu
du -sh "$root/.carry/gpu.tar.gz" | sed "s|^|gpu-stage: packed |"
