#!/usr/bin/env bash
# check_errors_reported.sh BUILD_DIR TARGET_NAME...: building the image of images/does_not_build.cu
# fails, and its output shows the error for the host and then what each named GPU target says
# (PTX, AMD, SPIR-V: those whose tools were found), each naming the undeclared identifier.
set -euo pipefail
. "$(dirname "$0")/check_common.sh"
build_dir=$1
shift
if cmake --build "$build_dir" --target anygpu_kernels_does_not_build >"$scratch/log" 2>&1; then
  fail "the image of a source with an error built"
fi
grep -q "does_not_build.cu does not build for the host" "$scratch/log" ||
  { cat "$scratch/log" >&2; fail "no host error reported"; }
for target in "$@"; do
  sed -n "/anygpu kernels: for $target/,\$p" "$scratch/log" | grep -q "not_declared_anywhere" ||
    { cat "$scratch/log" >&2; fail "the error for $target is not reported"; }
done
echo "the error is reported for the host and for: $*"
