#!/usr/bin/env bash
# anygpu-info --cache and --clear-cache through the C ABI (agCompileCacheGetInfo,
# agCompileCacheClear): the location from the environment, enabled or why not, entries and bytes
# (counted by name: the files here are the right names, not whole entries), the limit, and a
# clear that removes anygpu's entries and nothing else.
#   check_info_cache.sh ANYGPU_INFO
set -euo pipefail
info=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/anygpu-info-cache.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset ANYGPU_CACHE ANYGPU_CACHE_DIR ANYGPU_CACHE_MAX_MB

# An empty cache where ANYGPU_CACHE_DIR says, made 0700, with the default limit.
out=$(ANYGPU_CACHE_DIR="$work/c" "$info" --cache)
echo "$out"
grep -qx "  location  $work/c" <<< "$out" || fail "not the location ANYGPU_CACHE_DIR gives"
grep -qx "  enabled   yes" <<< "$out" || fail "not enabled"
grep -qx "  entries   0" <<< "$out" || fail "entries of an empty cache"
grep -qx "  size      0.0 MiB (0 bytes)" <<< "$out" || fail "size of an empty cache"
grep -qx "  limit     1024.0 MiB (ANYGPU_CACHE_MAX_MB)" <<< "$out" || fail "the default limit"
[ "$(stat -c %a "$work/c/v1")" = 700 ] || fail "v1 is not made 0700"

# Two entries (by their names) and files that are not anygpu's.
key1=$(printf 'ab%062d' 1)
key2=$(printf 'cd%062d' 2)
mkdir -p "$work/c/v1/ab" "$work/c/v1/cd"
head -c 1000 /dev/zero > "$work/c/v1/ab/$key1.agc"
head -c 234 /dev/zero > "$work/c/v1/cd/$key2.agc"
echo mine > "$work/c/notes.txt"
echo mine > "$work/c/v1/ab/other.agc"
out=$(ANYGPU_CACHE_DIR="$work/c" ANYGPU_CACHE_MAX_MB=5 "$info" --cache)
echo "$out"
grep -qx "  entries   2" <<< "$out" || fail "two entries not counted"
grep -qx "  size      0.0 MiB (1234 bytes)" <<< "$out" || fail "their bytes not counted"
grep -qx "  limit     5.0 MiB (ANYGPU_CACHE_MAX_MB)" <<< "$out" || fail "ANYGPU_CACHE_MAX_MB=5"
json=$(ANYGPU_CACHE_DIR="$work/c" "$info" --cache --json)
echo "$json"
grep -q "\"directory\": \"$work/c\", \"enabled\": true, \"reason\": \"\", \"entries\": 2, \"bytes\": 1234, \"max_bytes\": 1073741824" <<< "$json" ||
  fail "--cache --json"

# --clear-cache removes the two entries and nothing else.
out=$(ANYGPU_CACHE_DIR="$work/c" "$info" --clear-cache)
echo "$out"
grep -qx "Removed 2 compile cache entries (0.0 MiB) from $work/c" <<< "$out" ||
  fail "--clear-cache's report"
[ ! -e "$work/c/v1/ab/$key1.agc" ] && [ ! -e "$work/c/v1/cd/$key2.agc" ] ||
  fail "entries left after --clear-cache"
[ -e "$work/c/notes.txt" ] && [ -e "$work/c/v1/ab/other.agc" ] ||
  fail "--clear-cache removed files that are not entries"
out=$(ANYGPU_CACHE_DIR="$work/c" "$info" --cache)
grep -qx "  entries   0" <<< "$out" || fail "entries after --clear-cache"

# The default location: $XDG_CACHE_HOME/anygpu, else $HOME/.cache/anygpu.
out=$(XDG_CACHE_HOME="$work/xdg" "$info" --cache)
grep -qx "  location  $work/xdg/anygpu" <<< "$out" || fail "XDG_CACHE_HOME"
out=$(env -u XDG_CACHE_HOME HOME="$work/home" "$info" --cache)
grep -qx "  location  $work/home/.cache/anygpu" <<< "$out" || fail "HOME"

# Disabled: ANYGPU_CACHE=0, and a directory that cannot be made; the tool still succeeds.
out=$(ANYGPU_CACHE=0 ANYGPU_CACHE_DIR="$work/off" "$info" --cache)
echo "$out"
grep -qx "  enabled   no: ANYGPU_CACHE=0" <<< "$out" || fail "ANYGPU_CACHE=0"
[ ! -e "$work/off" ] || fail "a disabled cache made its directory"
touch "$work/file"
out=$(ANYGPU_CACHE_DIR="$work/file/cache" "$info" --cache 2> "$work/stderr")
echo "$out"
grep -q "^  enabled   no: cannot make $work/file/cache: Not a directory" <<< "$out" ||
  fail "an unusable directory's reason"
ANYGPU_CACHE_DIR="$work/file/cache" "$info" --clear-cache > /dev/null ||
  fail "--clear-cache of an unusable directory failed"
echo "ok"
