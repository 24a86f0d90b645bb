#!/usr/bin/env bash
# Compiles spirv_hip_atomics.cpp as the HIP-mode SPIR-V build does (clang-15 -x hip
# --offload=spirv64, llvm-spirv-15) and checks that spirv-val accepts the module, that the atomics
# became SPIR-V atomic instructions (64-bit ones through Int64Atomics) and that no function is left
# to import (clang's __atomic builtins would leave library calls such as __atomic_load_4).
# Usage: check_spirv_hip_atomics.sh CLANG LLVM_SPIRV SPIRV_VAL SPIRV_DIS INCLUDE_DIR KERNELS_DIR SOURCE
set -u
clang=$1 llvm_spirv=$2 spirv_val=$3 spirv_dis=$4 include=$5 kernels=$6 source=$7
for tool in "$clang" "$llvm_spirv" "$spirv_val" "$spirv_dis"; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
"$clang" -x hip --offload=spirv64 --cuda-device-only -nogpulib -nogpuinc -std=c++17 -O2 -I"$include" \
  -I"$kernels" -emit-llvm -c "$source" -o "$work/a.bc" || { echo "FAIL: clang"; exit 1; }
"$llvm_spirv" --spirv-max-version=1.2 "$work/a.bc" -o "$work/a.spv" ||
  { echo "FAIL: llvm-spirv"; exit 1; }
"$spirv_val" "$work/a.spv" || { echo "FAIL: spirv-val rejects the module"; exit 1; }
"$spirv_dis" "$work/a.spv" -o "$work/a.spvasm" || { echo "FAIL: spirv-dis"; exit 1; }
status=0
grep -q "OpCapability Int64Atomics" "$work/a.spvasm" || { echo "FAIL: no Int64Atomics"; status=1; }
for instruction in OpAtomicIAdd OpAtomicISub OpAtomicExchange OpAtomicCompareExchange \
    OpAtomicSMin OpAtomicUMin OpAtomicSMax OpAtomicUMax OpAtomicAnd OpAtomicOr OpAtomicXor \
    OpAtomicLoad OpAtomicStore; do
  grep -q "= $instruction \|^ *$instruction " "$work/a.spvasm" ||
    { echo "FAIL: no $instruction"; status=1; }
done
if grep -E "LinkageAttributes .* Import" "$work/a.spvasm" | grep -v __spirv_BuiltIn; then
  echo "FAIL: functions left to import (above)"
  status=1
fi
[ $status -eq 0 ] && echo "ok: spirv-val accepts the HIP-mode SPIR-V atomics"
exit $status
