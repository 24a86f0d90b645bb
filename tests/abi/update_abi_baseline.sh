#!/usr/bin/env bash
# Records the C ABI baseline that the abi.layout and abi.abidiff tests compare libanygpu.so with:
# tests/abi/baseline/<SONAME>.abi (abidw, abigail-tools) and <SONAME>.layout (gen_layout_dump.sh).
# Run it deliberately, never to make a failing test pass without reading why it failed.
#
# The rule: programs linked against libanygpu.so.N must keep working with every later library of
# that SONAME. So
#   - adding functions, enumerators or types is compatible: the tests pass; run this script to
#     record the additions (same SONAME);
#   - appending a field to a struct that starts with struct_size is compatible (the library reads
#     struct_size before the rest) but the tests cannot know that the struct is used only that way:
#     they fail with REVIEW; after checking, record it with --accept-compatible (same SONAME);
#   - anything else — removing or renaming a function, changing a parameter or return type,
#     inserting, removing or retyping a field, renumbering an enumerator — is incompatible and
#     needs a new SONAME: raise the major version in the top-level CMakeLists.txt (project(anygpu
#     VERSION ...), from which SOVERSION comes), rebuild, and run this script, which replaces
#     libanygpu.so.N.* with libanygpu.so.<N+1>.*.
# The script refuses an incompatible baseline under the same SONAME, and a SONAME going backwards.
#
# Usage: tests/abi/update_abi_baseline.sh BUILD_DIR [--accept-compatible]
#   BUILD_DIR: a configured build tree (any preset; needs abigail-tools). It builds what it needs.
# shellcheck disable=SC2154  # (abi_* come from the sourced abi_paths.sh)
set -euo pipefail

die() {
  echo "update_abi_baseline.sh: $*" >&2
  exit 1
}

[ $# -ge 1 ] || die "usage: $0 BUILD_DIR [--accept-compatible]"
build_dir=$1
accept_compatible=0
[ "${2:-}" = --accept-compatible ] && accept_compatible=1
paths=$build_dir/tests/abi/abi_paths.sh
[ -f "$paths" ] || die "$paths not found: configure $build_dir first (with ANYGPU_BUILD_TESTS=ON)"
# shellcheck source=/dev/null
. "$paths"
command -v abidw > /dev/null || die "abidw not found: apt-get install abigail-tools"

# shellcheck disable=SC2086
cmake --build "$build_dir" --target $abi_targets
check=$abi_source_dir/tests/abi/check_abi.sh
baseline_dir=$abi_source_dir/tests/abi/baseline
soname=$(readelf -d "$abi_library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ -n "$soname" ] || die "$abi_library has no SONAME"

old_soname=""
if ls "$baseline_dir"/*.layout > /dev/null 2>&1; then
  old=$(cd "$baseline_dir" && ls -- *.layout)
  [ "$(printf '%s\n' "$old" | wc -l)" -eq 1 ] || die "more than one baseline in $baseline_dir"
  old_soname=${old%.layout}
fi

if [ "$old_soname" = "$soname" ]; then
  echo "== same SONAME $soname: the change must be compatible"
  set +e
  "$check" layout "$abi_library" "$abi_layout_dump" "$baseline_dir"
  layout_status=$?
  "$check" abidiff "$abi_library" "$abi_debug_library" "$abi_source_dir" "$baseline_dir" \
    "$build_dir/tests/abi"
  abidiff_status=$?
  set -e
  if [ $layout_status -eq 1 ] || [ $abidiff_status -eq 1 ]; then
    die "incompatible with the baseline of $soname (above). Revert the change, or raise the major" \
      "version in CMakeLists.txt (SOVERSION), rebuild and run this again."
  fi
  if { [ $layout_status -eq 3 ] || [ $abidiff_status -eq 3 ]; } && [ $accept_compatible -eq 0 ]; then
    die "the ABI changed (REVIEW above). If every change is a field appended to a struct that" \
      "starts with struct_size, rerun with --accept-compatible; otherwise raise the SONAME."
  fi
elif [ -n "$old_soname" ]; then
  newest=$(printf '%s\n%s\n' "$old_soname" "$soname" | sort -V | tail -1)
  [ "$newest" = "$soname" ] || die "the SONAME went back from $old_soname to $soname"
  echo "== new SONAME $soname (was $old_soname): recording a new baseline"
fi

mkdir -p "$baseline_dir"
"$abi_layout_dump" > "$baseline_dir/$soname.layout.new"
"$check" abidw "$abi_debug_library" "$abi_source_dir" "$baseline_dir/$soname.abi.new" > /dev/null ||
  die "abidw failed"
if [ -n "$old_soname" ] && [ "$old_soname" != "$soname" ]; then
  rm -f "$baseline_dir/$old_soname.layout" "$baseline_dir/$old_soname.abi"
fi
mv "$baseline_dir/$soname.layout.new" "$baseline_dir/$soname.layout"
mv "$baseline_dir/$soname.abi.new" "$baseline_dir/$soname.abi"
echo "== recorded $baseline_dir/$soname.abi and $soname.layout; review and commit them"
