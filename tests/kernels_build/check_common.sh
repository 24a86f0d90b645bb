# Shared by the kernels_build checks (sourced): failing, skipping, comparing kernel names.

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# ctest counts exit code 77 as skipped.
skip() {
  echo "SKIP: $*"
  exit 77
}

# require_tool NAME PATH: skips when the checking tool is absent.
require_tool() {
  [ -n "$2" ] && [ -x "$2" ] || skip "$1 not found, so this check cannot run"
}

# same_names WHAT FILE EXPECTED...: the names listed in FILE (one a line) are exactly EXPECTED.
same_names() {
  local what=$1 file=$2
  shift 2
  [ $# -gt 0 ] || fail "$what: no kernel names to expect"
  local expected found
  expected=$(printf '%s\n' "$@" | sort -u)
  found=$(sort -u "$file")
  if [ "$expected" != "$found" ]; then
    printf 'expected:\n%s\nfound:\n%s\n' "$expected" "$found" >&2
    fail "$what: the entry names are not the kernel names"
  fi
  echo "$what: $(echo "$found" | wc -l) entries:" $found
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
