#!/usr/bin/env bash
# check_printf_refused.sh CLANG19 CLANG15 INCLUDE_DIR: a kernel calling printf does not build for
# AMD or SPIR-V, and the error says why and what to write (anygpu/detail/cuda_syntax.h); it builds
# for PTX, where the call becomes CUDA's vprintf.
set -euo pipefail
clang19=$1 clang15=$2 include=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '__global__ void hello(int v) { printf("%%d\\n", v); }\n' >"$scratch/k.cu"
flags=(-I"$include" -I"$include/anygpu/cuda_compat" -include anygpu/cuda.h)
expect_refused() {
  local what=$1
  shift
  if "$@" >"$scratch/out" 2>&1; then
    echo "FAIL: $what built a kernel that calls printf" >&2
    exit 1
  fi
  grep -q "printf in a kernel: anygpu builds it for the CPU device and NVIDIA GPUs only" \
    "$scratch/out" || {
    cat "$scratch/out" >&2
    echo "FAIL: $what refused printf without saying why" >&2
    exit 1
  }
}
expect_refused "amdgcn" "$clang19" -x hip --cuda-device-only -nogpuinc -nogpulib \
  --offload-arch=gfx90a "${flags[@]}" -emit-llvm -c "$scratch/k.cu" -o "$scratch/k.bc"
expect_refused "SPIR-V" "$clang15" -std=c++17 -x hip --offload=spirv64 --cuda-device-only \
  -nogpulib -nogpuinc "${flags[@]}" -emit-llvm -c "$scratch/k.cu" -o "$scratch/k.bc"
"$clang19" -x cuda --cuda-device-only -nocudainc -nocudalib -Wno-unknown-cuda-version \
  --cuda-gpu-arch=sm_90 "${flags[@]}" -S "$scratch/k.cu" -o "$scratch/k.ptx"
grep -q "call.uni.*vprintf\|vprintf" "$scratch/k.ptx" || {
  echo "FAIL: PTX printf is not CUDA's vprintf" >&2
  exit 1
}
echo "printf: refused for amdgcn and SPIR-V with the reason; vprintf on PTX"
