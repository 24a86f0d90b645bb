#!/usr/bin/env bash
# check_spirv_assert.sh SPIRV_DIS SPIRV_FILE
# A SPIR-V module whose kernels assert (tests/cuda_sources/cuda_syntax.cu) exports the variable
# the Level Zero backend points at the failure word (anygpu/detail/kernel_assert.h), records a
# failure with a compare-exchange, and keeps no call of the C library's __assert_fail.
set -euo pipefail
. "$(dirname "$0")/check_common.sh"
spirv_dis=$1 spirv=$2
require_tool "spirv-dis" "$spirv_dis"

"$spirv_dis" "$spirv" >"$scratch/text" || fail "spirv-dis cannot read $spirv"
grep -q 'OpDecorate %__anygpu_assert_report LinkageAttributes "__anygpu_assert_report" Export' \
  "$scratch/text" || fail "$spirv does not export __anygpu_assert_report"
grep -q 'OpAtomicCompareExchange' "$scratch/text" ||
  fail "$spirv has no compare-exchange, so a failed assert records nothing"
if grep -q '__assert_fail' "$scratch/text"; then
  fail "$spirv calls __assert_fail, which no SPIR-V device has"
fi
echo "SPIR-V exports __anygpu_assert_report and records failed assertions"
