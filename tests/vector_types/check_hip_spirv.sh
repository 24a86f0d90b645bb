#!/usr/bin/env bash
# check_hip_spirv.sh CLANG LLVM_SPIRV SPIRV_VAL SPIRV_DIS INCLUDE_DIR SOURCE
# SOURCE, which uses anygpu/vector_types.h, compiles with CLANG (clang-15) in HIP mode for SPIR-V
# (-fsyntax-only -Werror) and, where the other tools were found, translates to SPIR-V that
# spirv-val accepts, with CUDA's float4 as a struct of four floats. Exit 77 (skip) without CLANG.
set -euo pipefail
found() { [ -n "$1" ] && [ "${1%NOTFOUND}" = "$1" ]; }
clang=$1 llvm_spirv=$2 spirv_val=$3 spirv_dis=$4 include=$5 source=$6
if ! found "$clang"; then
  echo "SKIP: clang-15 was not found"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
hip=(-x hip --offload=spirv64 --cuda-device-only -nogpulib -nogpuinc -I"$include")
"$clang" "${hip[@]}" -fsyntax-only -Wall -Werror "$source"
echo "clang HIP-mode SPIR-V: the header compiles"
if ! found "$llvm_spirv" || ! found "$spirv_val" || ! found "$spirv_dis"; then
  echo "llvm-spirv-15, spirv-val or spirv-dis missing: syntax checked only"
  exit 0
fi
"$clang" "${hip[@]}" -O2 -emit-llvm -c "$source" -o "$scratch/k.bc"
"$llvm_spirv" "$scratch/k.bc" -o "$scratch/k.spv"
"$spirv_val" "$scratch/k.spv"
"$spirv_dis" "$scratch/k.spv" >"$scratch/k.spvasm"
if ! grep -q "OpTypeStruct %float %float %float %float" "$scratch/k.spvasm"; then
  echo "FAIL: no float4 struct in the SPIR-V"
  exit 1
fi
echo "spirv-val accepts it; float4 is a struct of four floats"
