#!/usr/bin/env bash
# check_targets.sh ANYGPU_PACK BUNDLE PTX_BUILT: an image built with TARGETS host ptx holds the
# host code object, PTX where PTX is built at all (PTX_BUILT: ON or OFF), and no AMD code object or
# SPIR-V.
set -euo pipefail
. "$(dirname "$0")/check_common.sh"
pack=$1 bundle=$2 ptx_built=$3
"$pack" list "$bundle" >"$scratch/list" || fail "anygpu-pack cannot list $bundle"
grep -q "host code object" "$scratch/list" || fail "no host code object in $bundle"
if grep -q "AMD code object\|SPIR-V" "$scratch/list"; then
  cat "$scratch/list" >&2
  fail "a target TARGETS left out is in $bundle"
fi
if [ "$ptx_built" = ON ] && ! grep -q "PTX" "$scratch/list"; then
  fail "no PTX in $bundle"
fi
echo "TARGETS host ptx: $(grep -c '^  ' "$scratch/list") code objects, no AMD or SPIR-V"
