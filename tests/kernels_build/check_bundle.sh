#!/usr/bin/env bash
# check_bundle.sh OFFLOAD_BUNDLER BUNDLE ENTRY_COUNT AMD_TARGET_ID...
# clang's own offload bundler lists the bundle anygpu_add_kernels embedded: one entry per code
# object built (host, each PTX, cubin and AMD code object, SPIR-V, the portable source), the host's
# among them, each AMD code object under the id ROCm gives it (...amdgcn-amd-amdhsa--<target id>),
# and the portable source where there are AMD code objects.
set -euo pipefail
. "$(dirname "$0")/check_common.sh"
bundler=$1 bundle=$2 count=$3
shift 3
require_tool "clang-offload-bundler" "$bundler"

"$bundler" -list -type=o -input="$bundle" >"$scratch/ids" || fail "$bundler cannot list $bundle"
echo "$bundle:" $(cat "$scratch/ids")
[ "$(wc -l <"$scratch/ids")" -eq "$count" ] || fail "$(wc -l <"$scratch/ids") entries, not $count"
grep -q '^host-' "$scratch/ids" || fail "no host code object"
for target_id in "$@"; do
  grep -q -- "-amdgcn-amd-amdhsa--$target_id\$" "$scratch/ids" || fail "no entry for $target_id"
done
if [ $# -gt 0 ]; then
  grep -q '^hip-amdgcn-amd-amdhsa-anygpusource$' "$scratch/ids" || fail "no portable source"
fi
