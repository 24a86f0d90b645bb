#!/bin/sh
# The math of the test image at the instruction level (issue: double functions computed in float,
# bare .approx instructions standing in for whole float functions):
#   check_math_instructions.sh ptx <file.ptx>
#   check_math_instructions.sh amdgpu <llvm-objdump> <file.co> <gfx target>
# For each single_<f>_f64 kernel of tests/cuda_sources/math_functions.cu: no conversion to float
# and no single-precision instruction of the hardware's approximations. In PTX, each float
# function whose bound ex2/lg2/sin/cos.approx cannot meet alone (all but exp2f and log2f, which
# libdevice computes with them) must show more than the bare approximation: the fused
# multiply-adds of libdevice's argument reduction. (On AMD, ocml's float functions are built on
# the hardware's v_exp/v_log, which are within 1 ulp; the accuracy suite measures them on a GPU.)
set -eu
kind=$1
shift
functions="exp exp2 log log2 log10 sin cos tan pow"
failures=0

# The body of one kernel: its lines from its label to the next function's.
body() {
  case $kind in
    ptx) awk -v entry="single_$1" '
           /^\.(visible )?\.(entry|func)/ { inside = index($0, entry) > 0 }
           inside' "$ptx" ;;
    amdgpu) awk -v entry="single_$1" '
           /^[0-9a-f]+ <.*>:$/ { inside = index($0, entry) > 0 }
           inside' "$disassembly" ;;
  esac
}

check() {  # name, precision, what, pattern, wanted (present|absent)
  count=$(body "$1_$2" | grep -c -E "$4" || true)
  if [ "$5" = absent ] && [ "$count" -ne 0 ]; then
    echo "FAIL: single_$1_$2 ($kind): $3 ($count)"
    body "$1_$2" | grep -E "$4" | head -3
    failures=$((failures + 1))
  elif [ "$5" = present ] && [ "$count" -eq 0 ]; then
    echo "FAIL: single_$1_$2 ($kind): $3 missing"
    failures=$((failures + 1))
  fi
}

case $kind in
  ptx)
    ptx=$1
    [ -s "$ptx" ] || { echo "FAIL: no PTX at $ptx"; exit 1; }
    for f in $functions; do
      body "${f}_f64" | grep -q . || { echo "FAIL: no single_${f}_f64 in $ptx"; exit 1; }
      check "$f" f64 "double computed in float" 'cvt\.rn\.f32\.f64|\.approx(\.ftz)?\.f32' absent
      case $f in exp2 | log2) ;;
        *) check "$f" f32 "argument reduction (fma.rn.f32)" 'fma\.rn(\.ftz)?\.f32' present ;;
      esac
    done ;;
  amdgpu)
    objdump=$1 object=$2 target=$3
    disassembly=$(mktemp)
    trap 'rm -f "$disassembly"' EXIT
    "$objdump" -d --mcpu="$target" "$object" > "$disassembly"
    for f in $functions; do
      body "${f}_f64" | grep -q . || { echo "FAIL: no single_${f}_f64 in $object"; exit 1; }
      check "$f" f64 "double computed in float" 'v_cvt_f32_f64|v_(exp|log|sin|cos|rcp)_f32' absent
    done ;;
  *) echo "usage: $0 ptx <file> | amdgpu <llvm-objdump> <file> <target>"; exit 2 ;;
esac
[ "$failures" -eq 0 ] || exit 1
echo "PASS: $kind: the double kernels of $functions compute in double"
