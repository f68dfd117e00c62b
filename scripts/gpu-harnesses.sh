#!/usr/bin/env bash
# The standalone harnesses of bench/gpu that compare an emitted entry with hand-written forms of
# it (the 2-D and 3-D convolutions, the exact-order GEMM, C = A Bᵀ and the batched matmul, the GEMM on tensor cores by mma.sync and by wgmma, RMS norm's column entries), on the GPU machine: the entries emitted there by the staged
# culift, each harness built with nvcc as its header says and run, and with NCU set, Nsight
# Compute's instruction and throughput figures for the kernels NCU matches.
#
#   OUT=/path/to/logs [HARNESSES="conv2d conv3d gemm bmm bt tf32 wgmma rms"] [NCU=regex NCU_SKIP=N NCU_COUNT=N] [CONV3D_FLAGS=...] scripts/gpu-harnesses.sh [BIN_DIR]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin="${1:-.gpu}"
out="${OUT:?set OUT to the directory for the logs}"
work="$(mktemp -d)"
mkdir -p "$out"
cp bench/gpu/cuda_check.cuh "$work/"
for h in ${HARNESSES:-conv2d conv3d gemm tf32}; do
  arch=""
  case "$h" in
    conv2d) header=bench/gpu/conv_kernels.hpp emitted=conv.cu flags="" ;;
    # CONV3D_FLAGS: the default math's contracted products with CONV3D_FLAGS="" (the runtime's strict math by default)
    conv3d) header=bench/gpu/stencil_kernels.hpp emitted=stencil.cu flags="${CONV3D_FLAGS--fmad=false}" ;;
    gemm | bmm | bt | tf32) header=bench/gpu/blas_cells.hpp emitted=blas.cu flags="" ;;
    rms) header=bench/gpu/column_cells.hpp emitted=cols.cu flags="" ;;
    # wgmma needs the sm_90a target (Hopper's own instructions)
    wgmma) header=bench/gpu/blas_cells.hpp emitted=blas.cu flags="" arch="-gencode=arch=compute_90a,code=sm_90a" ;;
    *) echo "gpu-harnesses: no harness $h"; continue ;;
  esac
  echo "== ${h}_variants"
  "$bin/culift" emit "$header" -o "$work/$emitted" -- -Iinclude > "$out/$h-emit.txt" 2>&1 || { tail -3 "$out/$h-emit.txt"; continue; }
  # shellcheck disable=SC2086
  nvcc -O3 $flags "${arch:--arch=sm_90}" -I"$work" -o "$work/$h" "bench/gpu/${h}_variants.cu" > "$out/$h-build.txt" 2>&1 ||
    { grep -m5 error "$out/$h-build.txt"; continue; }
  timeout 200 "$work/$h" | tee "$out/$h.txt"
  if [ "$h" = bmm ]; then
    # Again with the batched entry's whole form inlined into its kernel.
    mkdir -p "$work/inlined"
    cp bench/gpu/cuda_check.cuh "$work/inlined/"
    sed 's/__noinline__ void culift_BatchedGemmCell_batched128_whole/__forceinline__ void culift_BatchedGemmCell_batched128_whole/' \
      "$work/$emitted" > "$work/inlined/$emitted"
    nvcc -O3 -arch=sm_90 -DBMM_LABEL='"inlined"' -I"$work/inlined" -o "$work/bmm-inlined" bench/gpu/bmm_variants.cu \
      > "$out/bmm-inlined-build.txt" 2>&1 && timeout 200 "$work/bmm-inlined" | tee -a "$out/$h.txt"
  fi
  # The instruction mix of each kernel's SASS (static counts): fused multiply-adds against selects,
  # shared and global loads, barriers.
  if command -v cuobjdump > /dev/null; then
    cuobjdump -sass "$work/$h" > "$out/$h.sass" 2>&1
    awk '/Function : / { if (name) print name, c["FFMA"]+0, c["FMUL"]+0, c["FADD"]+0, c["FSEL"]+0, c["LDS"]+0, c["LDG"]+0, c["BAR"]+0, total
                         name = $3; delete c; total = 0; next }
         /^ +\/\*[0-9a-f]+\*\// { total++; for (k in ops) if ($0 ~ ops[k]) c[k]++ }
         BEGIN { ops["FFMA"] = " FFMA"; ops["FMUL"] = " FMUL"; ops["FADD"] = " FADD"; ops["FSEL"] = " FSEL";
                 ops["LDS"] = " LDS"; ops["LDG"] = " LDG"; ops["BAR"] = " BAR"
                 print "kernel FFMA FMUL FADD FSEL LDS LDG BAR instructions" }
         END { if (name) print name, c["FFMA"]+0, c["FMUL"]+0, c["FADD"]+0, c["FSEL"]+0, c["LDS"]+0, c["LDG"]+0, c["BAR"]+0, total }' \
      "$out/$h.sass" | cut -c1-200
  fi
  if [ -n "${NCU:-}" ] && command -v ncu > /dev/null; then
    # The clocks left as they are (--clock-control none); the warp states' raw figures name the stalls.
    timeout 200 ncu --clock-control none -k "regex:$NCU" --launch-skip "${NCU_SKIP:-0}" --launch-count "${NCU_COUNT:-4}" \
      --section SpeedOfLight --section InstructionStats --section Occupancy --section LaunchStats \
      --section WarpStateStats --section SchedulerStats -f -o "$work/$h-ncu" "$work/$h" > "$out/$h-ncu-run.txt" 2>&1
    ncu --import "$work/$h-ncu.ncu-rep" > "$out/$h-ncu.txt" 2>&1
    ncu --import "$work/$h-ncu.ncu-rep" --page raw > "$out/$h-ncu-raw.txt" 2>&1
    grep -E "^  [A-Za-z_].*\(|Duration|Executed Instructions  |Issue Slots Busy|Registers Per|Achieved Occupancy|DRAM Throughput|Compute \(SM\)|Warp Cycles Per Issued|One or More Eligible" \
      "$out/$h-ncu.txt" | head -60
    # Each kernel's stalls of 0.05 cycles or more per issued instruction.
    awk '/^  [A-Za-z_].*\(/ { print } /smsp__average_warps_issue_stalled_.*_per_issue_active.ratio/ && $NF + 0 >= 0.05 { print "   ", $1, $NF }' \
      "$out/$h-ncu-raw.txt" | head -120
  fi
done
rm -rf "$work"
