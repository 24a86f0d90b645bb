#!/usr/bin/env bash
# check_no_sanitizer.sh BUILD_NINJA COMPILER...
# No command of BUILD_NINJA that runs one of the GPU kernel compilers passes a -fsanitize flag:
# sanitizer builds instrument the host only.
set -euo pipefail
. "$(dirname "$0")/check_common.sh"
build_file=$1
shift
[ -f "$build_file" ] || skip "no $build_file: this check reads Ninja's build file"

: >"$scratch/commands"
for compiler in "$@"; do
  grep -F -- "$compiler " "$build_file" >>"$scratch/commands" || true
done
commands=$(wc -l <"$scratch/commands")
[ "$commands" -gt 0 ] || skip "no GPU kernel compiler runs in this build"
if grep -n -- "-fsanitize" "$scratch/commands" >&2; then
  fail "GPU kernel commands get sanitizer flags"
fi
echo "$commands GPU kernel commands, none with -fsanitize"
