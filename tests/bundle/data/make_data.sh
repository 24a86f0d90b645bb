#!/usr/bin/env bash
# Regenerates the reader tests' inputs in this folder. Needs clang-19, clang-15, llvm-spirv-15,
# the CUDA toolkit's nvcc, and clang-offload-bundler-15 (for hipcc's bundle: clang-19 looks for
# "clang-offload-bundler", which Debian ships only versioned).
set -euo pipefail
cd "$(dirname "$0")"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
ln -s "$(command -v clang-offload-bundler-15)" "$tools/clang-offload-bundler"

# PTX from clang (the kernel dialect's path) and cubins and fatbins from nvcc.
clang-19 -x cuda --cuda-device-only --offload-arch=sm_80 -nocudainc -nocudalib -O2 \
  -Wno-unknown-cuda-version -S kernels.cu -o kernels_sm80.ptx
for sm in 80 90; do "$nvcc" -cubin -arch=sm_$sm kernels.cu -o kernels_sm$sm.cubin; done
"$nvcc" -fatbin -Xfatbin=-compress=false -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_90,code=compute_90 kernels.cu -o kernels_sm80_compute90.fatbin
"$nvcc" -fatbin -Xfatbin=-compress-all -gencode arch=compute_80,code=[sm_80,compute_80] \
  kernels.cu -o kernels_compressed.fatbin

# AMD code objects for gfx90a with xnack unstated, on and off.
amd=(-x hip -nogpulib -nogpuinc --cuda-device-only -O2)
link=(-Xoffload-linker -zmax-page-size=256 -Xoffload-linker --strip-all)
for target in gfx90a gfx90a:xnack+ gfx90a:xnack-; do
  name=$(echo "$target" | sed 's/:xnack+/_xnack_on/; s/:xnack-/_xnack_off/')
  clang-19 "${amd[@]}" --offload-arch="$target" --no-gpu-bundle-output "${link[@]}" -c kernels.cu \
    -o "$name.co"
done
# hipcc's own bundle: an empty host entry and the gfx90a:xnack- code object.
PATH="$tools:$PATH" clang-19 "${amd[@]}" --offload-arch=gfx90a:xnack- "${link[@]}" -c kernels.cu \
  -o hipcc_gfx90a.bundle

# SPIR-V from OpenCL C.
clang-15 -c -target spir64 -O2 -emit-llvm -x cl -cl-std=CL2.0 kernels.cl -o "$tools/kernels.bc"
llvm-spirv-15 "$tools/kernels.bc" -o kernels.spv
spirv-val kernels.spv
