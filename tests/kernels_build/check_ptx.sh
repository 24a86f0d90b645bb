#!/usr/bin/env bash
# check_ptx.sh PTXAS PTX_FILE SM_ARCH KERNEL_NAME...
# The PTX targets SM_ARCH, its .entry names are exactly the kernel names, and the CUDA toolkit's
# ptxas assembles it for sm_90 (skipped, exit 77, where no toolkit is installed).
set -euo pipefail
. "$(dirname "$0")/check_common.sh"
ptxas=$1 ptx=$2 arch=$3
shift 3

[ -s "$ptx" ] || fail "$ptx is missing or empty"
grep -q "^\.target $arch\$" "$ptx" || fail "$ptx does not say .target $arch"
version=$(sed -n 's/^\.version //p' "$ptx")
sed -n 's/^\.visible \.entry \([A-Za-z_0-9]*\)(.*/\1/p' "$ptx" >"$scratch/names"
same_names "PTX $arch (ISA $version)" "$scratch/names" "$@"

[ -n "$ptxas" ] && [ -x "$ptxas" ] ||
  skip "no CUDA toolkit (ptxas not found): the PTX entries were checked, the PTX was not assembled"
"$ptxas" -arch=sm_90 "$ptx" -o "$scratch/out.cubin" || fail "ptxas -arch=sm_90 rejects $ptx"
echo "$("$ptxas" --version | tail -1): ptxas -arch=sm_90 accepts $ptx"
