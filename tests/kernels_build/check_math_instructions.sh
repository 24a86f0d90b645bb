#!/bin/sh
# The math of the test image at the instruction level (issue: double functions computed in float,
# bare .approx instructions standing in for whole float functions):
#   check_math_instructions.sh ptx <file.ptx>
#   check_math_instructions.sh amdgpu <llvm-objdump> <file.co> <gfx target>
#   check_math_instructions.sh fast-ptx <file.ptx>   (an image built with FAST_MATH)
#   check_math_instructions.sh fast-amdgpu <llvm-objdump> <file.co> <target>   (the same image)
# For each single_<f>_f64 kernel of tests/cuda_sources/math_functions.cu: no conversion to float
# and no single-precision instruction of the hardware's approximations. In PTX, each float
# function whose bound ex2/lg2/sin/cos.approx cannot meet alone (all but exp2f and log2f, which
# libdevice computes with them) must show more than the bare approximation: the fused
# multiply-adds of libdevice's argument reduction. (On AMD, ocml's float functions are built on
# the hardware's v_exp/v_log, which are within 1 ulp; the accuracy suite measures them on a GPU.)
# In PTX also: the directed-rounding intrinsics of tests/cuda_sources/math_rounding.cu are the
# instructions with their rounding.
# fast-ptx, for tests/kernels_build/images/fast_math.cu: each fast_<f>_kernel computes its float
# function with the .approx instructions and without libdevice's argument reduction (FAST_MATH
# took effect), and its double function still without conversion to float; float division and
# sqrt are div.full.ftz and sqrt.approx.ftz, doubles' div.rn and sqrt.rn.
set -eu
kind=$1
shift
functions="exp exp2 log log2 log10 sin cos tan pow"
failures=0

# The body of one kernel: its lines from its label to the next function's.
body() {
  case $kind in
    ptx | fast-ptx) awk -v entry="$1" '
           /^\.(visible )?\.(entry|func)/ { inside = index($0, entry) > 0 }
           inside' "$ptx" ;;
    amdgpu | fast-amdgpu) awk -v entry="$1" '
           /^[0-9a-f]+ <.*>:$/ { inside = index($0, entry) > 0 }
           inside' "$disassembly" ;;
  esac
}

check() {  # kernel, what, pattern, wanted (present|absent)
  count=$(body "$1" | grep -c -E "$3" || true)
  if [ "$4" = absent ] && [ "$count" -ne 0 ]; then
    echo "FAIL: $1 ($kind): $2 ($count)"
    body "$1" | grep -E "$3" | head -3
    failures=$((failures + 1))
  elif [ "$4" = present ] && [ "$count" -eq 0 ]; then
    echo "FAIL: $1 ($kind): $2 missing"
    failures=$((failures + 1))
  fi
}

case $kind in
  ptx)
    ptx=$1
    [ -s "$ptx" ] || { echo "FAIL: no PTX at $ptx"; exit 1; }
    for f in $functions; do
      body "single_${f}_f64" | grep -q . || { echo "FAIL: no single_${f}_f64 in $ptx"; exit 1; }
      check "single_${f}_f64" "double computed in float" 'cvt\.rn\.f32\.f64|\.approx(\.ftz)?\.f32' \
        absent
      case $f in exp2 | log2) ;;
        *) check "single_${f}_f32" "argument reduction (fma.rn.f32)" 'fma\.rn(\.ftz)?\.f32' present ;;
      esac
    done
    # The directed roundings of tests/cuda_sources/math_rounding.cu are the instructions with the
    # rounding (rz, rp: up, rm: down), each conversion toward zero a cvt.rz or cvt.rzi of its own:
    # an optimizer that folds one into a round-to-nearest instruction changes results silently.
    for precision in f32:_Z19rounding_arithmeticIfE f64:_Z19rounding_arithmeticIdE; do
      kernel=${precision#*:} type=${precision%%:*}
      for op in add sub mul div rcp sqrt fma; do
        for r in rz rp rm; do
          check "$kernel" "$op.$r.$type" "$op\.$r(\.ftz)?\.$type" present
        done
      done
    done
    for conversion in rzi.s32.f32 rzi.u32.f32 rzi.s64.f32 rzi.u64.f32 rzi.s32.f64 rzi.u32.f64 \
      rzi.s64.f64 rzi.u64.f64 rz.f32.s32 rz.f32.u32 rz.f32.s64 rz.f32.u64 rz.f64.s64 rz.f64.u64 \
      rz.f32.f64; do
      check _Z20rounding_conversions "cvt.$conversion" "cvt\.$conversion[[:space:]]" present
    done ;;
  fast-ptx)
    ptx=$1
    [ -s "$ptx" ] || { echo "FAIL: no PTX at $ptx"; exit 1; }
    functions="exp exp10 log log2 log10 sin cos tan pow sincos exp_dialect"
    for f in $functions; do
      kernel="fast_${f}_kernel"
      body "$kernel" | grep -q . || { echo "FAIL: no $kernel in $ptx"; exit 1; }
      check "$kernel" "the intrinsic's approximation" '(ex2|lg2|sin|cos)\.approx(\.ftz)?\.f32' present
      check "$kernel" "argument reduction (fma.rn.f32)" 'fma\.rn(\.ftz)?\.f32' absent
      check "$kernel" "double computed in float" 'cvt\.rn\.f32\.f64' absent
    done
    # -use_fast_math's other parts: float division div.full, sqrtf sqrt.approx, denormals
    # flushed; the double forms IEEE.
    kernel=fast_divide_sqrt_kernel
    body "$kernel" | grep -q . || { echo "FAIL: no $kernel in $ptx"; exit 1; }
    check "$kernel" "div.full.ftz.f32" 'div\.full\.ftz\.f32' present
    check "$kernel" "sqrt.approx.ftz.f32" 'sqrt\.approx\.ftz\.f32' present
    check "$kernel" "add.ftz.f32" 'add(\.rn)?\.ftz\.f32' present
    check "$kernel" "IEEE float division or sqrt" '(div|sqrt)\.rn(\.ftz)?\.f32' absent
    check "$kernel" "div.rn.f64" 'div\.rn\.f64' present
    check "$kernel" "sqrt.rn.f64" 'sqrt\.rn\.f64' present
    # ... and the _rn intrinsics stay IEEE's, with .ftz as in CUDA.
    kernel=fast_rn_kernel
    body "$kernel" | grep -q . || { echo "FAIL: no $kernel in $ptx"; exit 1; }
    for op in div sqrt rcp; do
      check "$kernel" "__f${op}_rn as $op.rn.ftz.f32" "$op\\.rn\\.ftz\\.f32" present
    done
    functions="$functions divide_sqrt rn" ;;
  fast-amdgpu)
    objdump=$1 object=$2 target=$3
    disassembly=$(mktemp)
    trap 'rm -f "$disassembly"' EXIT
    "$objdump" -d --mcpu="$target" "$object" > "$disassembly"
    kernel=fast_divide_sqrt_kernel
    body "$kernel" | grep -q . || { echo "FAIL: no $kernel in $object"; exit 1; }
    check "$kernel" "float division as v_rcp_f32" 'v_rcp_f32' present
    check "$kernel" "IEEE float division (v_div_scale/fixup)" 'v_div_(scale|fixup)_f32' absent
    check "$kernel" "IEEE double division (v_div_fixup_f64)" 'v_div_fixup_f64' present
    # The _rn intrinsics, written in double and rounded once, which LLVM narrows back to IEEE float
    # division (v_div_fixup_f32; the kernel's double form has the f64 ones), not v_rcp_f32 alone.
    kernel=fast_rn_kernel
    body "$kernel" | grep -q . || { echo "FAIL: no $kernel in $object"; exit 1; }
    check "$kernel" "__fdiv_rn/__frcp_rn as IEEE float division" 'v_div_fixup_f32' present
    functions="divide_sqrt rn" ;;
  amdgpu)
    objdump=$1 object=$2 target=$3
    disassembly=$(mktemp)
    trap 'rm -f "$disassembly"' EXIT
    "$objdump" -d --mcpu="$target" "$object" > "$disassembly"
    for f in $functions; do
      body "single_${f}_f64" | grep -q . || { echo "FAIL: no single_${f}_f64 in $object"; exit 1; }
      check "single_${f}_f64" "double computed in float" 'v_cvt_f32_f64|v_(exp|log|sin|cos|rcp)_f32' \
        absent
    done ;;
  *) echo "usage: $0 ptx <file> | amdgpu <llvm-objdump> <file> <target> | fast-ptx <file>" \
    "| fast-amdgpu <llvm-objdump> <file> <target>"; exit 2 ;;
esac
[ "$failures" -eq 0 ] || exit 1
case $kind in
  fast-ptx) echo "PASS: FAST_MATH: the float kernels of $functions use the intrinsics" ;;
  fast-amdgpu) echo "PASS: FAST_MATH: float division is v_rcp_f32; double division and the _rn" \
    "intrinsics IEEE" ;;
  ptx) echo "PASS: ptx: the double kernels of $functions compute in double; the directed roundings" \
    "are the instructions with their rounding" ;;
  *) echo "PASS: $kind: the double kernels of $functions compute in double" ;;
esac
