#!/usr/bin/env bash
# Installs every package culift needs on Debian 12 (run as root or with sudo available).
# The CUDA toolkit (NVRTC) is expected at /usr/local/cuda; it is loaded at run time only.
set -euo pipefail
packages=(
  build-essential cmake ninja-build git
  clang-16 libclang-16-dev llvm-16-dev   # translator front end, LLVM Support
  catch2                                 # unit tests
  clang-format-16                        # scripts/check-format.sh
  libopenmpi-dev openmpi-bin             # culift_mpi: launches split over the ranks of an MPI job
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
