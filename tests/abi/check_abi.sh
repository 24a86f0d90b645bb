#!/usr/bin/env bash
# Compares the C ABI of libanygpu.so with the baseline recorded in tests/abi/baseline/, named after
# the SONAME it was recorded for (libanygpu.so.0.abi, libanygpu.so.0.layout). The rules (also in
# docs/installing.md, "ABI", and update_abi_baseline.sh):
#   - the baseline's SONAME must be the library's: a new SONAME takes a new baseline, and a new
#     baseline of an incompatible ABI takes a new SONAME (update_abi_baseline.sh enforces that);
#   - added functions, enumerators and types pass (they are reported; the next update records them);
#   - a removed function, a changed function type, a changed field (offset, type, size), a removed
#     or renumbered enumerator fail, as incompatible;
#   - a struct that starts with struct_size and grew by fields appended beyond its old size fails
#     too, as a change to review: it is compatible if the library reads struct_size before the new
#     fields (old callers pass the old size); record it with update_abi_baseline.sh
#     --accept-compatible. Any other struct that changes size, or a field added within the old size
#     (tail padding included: old callers count it in struct_size but never set it), is incompatible.
#
# check_abi.sh layout LIBRARY LAYOUT_DUMP BASELINE_DIR
#   Needs only the compiler. LAYOUT_DUMP (generated from anygpu.h by gen_layout_dump.sh) prints
#   every function's type, every struct's size, alignment and fields, every enumerator; compared
#   with <SONAME>.layout. Also: the symbols LIBRARY exports (nm -D --defined-only) are exactly the
#   functions anygpu.h declares.
# check_abi.sh abidiff LIBRARY DEBUG_LIBRARY SOURCE_DIR BASELINE_DIR WORK_DIR
#   abidw of DEBUG_LIBRARY (LIBRARY itself, or the same sources built with -g where LIBRARY has no
#   DWARF) against <SONAME>.abi with abidiff. Exit 77 (skipped) without abigail-tools.
# check_abi.sh abidw DEBUG_LIBRARY SOURCE_DIR OUTPUT
#   Writes the ABI representation the baseline holds (update_abi_baseline.sh uses it).
# check_abi.sh selftest
#   The layout comparison on a small made-up layout and edits of it (abi.check_selftest).
# Exit status: 0 compatible, 1 incompatible (or an error), 3 a change to review, 77 skipped.
# shellcheck disable=SC2016  # (the selftest's sed scripts are single-quoted on purpose)
set -u

fail() {
  echo "FAIL: $*"
  exit 1
}
skip() {
  echo "SKIP: $*"
  exit 77
}

soname_of() {
  readelf -d "$1" 2> /dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'
}

# The baseline file of the given extension; fails unless there is exactly one and it was recorded
# for the library's SONAME.
baseline_for() {  # SONAME BASELINE_DIR EXTENSION
  local soname=$1 dir=$2 extension=$3 files
  files=$(cd "$dir" && ls -- *."$extension" 2> /dev/null)
  [ -n "$files" ] || fail "no baseline *.$extension in $dir (tests/abi/update_abi_baseline.sh records one)"
  [ "$(printf '%s\n' "$files" | wc -l)" -eq 1 ] ||
    fail "more than one baseline *.$extension in $dir: ${files//$'\n'/ }; keep only the current SONAME's"
  if [ "$files" != "$soname.$extension" ]; then
    if [ "$(printf '%s\n%s\n' "${files%".$extension"}" "$soname" | sort -V | tail -1)" = "$soname" ]; then
      fail "the library's SONAME is $soname, but the baseline $files was recorded for" \
        "${files%".$extension"}: a new SONAME takes a new baseline (tests/abi/update_abi_baseline.sh)"
    else
      fail "the baseline $files was recorded for ${files%".$extension"}, but the library's SONAME is" \
        "still $soname: a baseline for a new SONAME needs the SONAME bumped (SOVERSION, the" \
        "project's major version)"
    fi
  fi
  echo "$dir/$files"
}

# Compares two layout dumps (see gen_layout_dump.sh); prints each difference, exits 0, 1 or 3.
compare_layouts() {  # BASELINE CURRENT
  awk '
    function key(line,   w) { split(line, w, " "); return w[1] " " w[2] }
    function value(line,   k) { k = key(line); return substr(line, length(k) + 2) }
    function growable(s) { return ("field " s ".struct_size") in base && base["field " s ".struct_size"] ~ / offset 0 / }
    function owner(k,   name) { name = k; sub(/^[a-z]+ /, "", name); sub(/\..*/, "", name); return name }
    NR == FNR { if ($0 != "") { base[key($0)] = value($0); order[++n] = key($0) } next }
    $0 != "" { now[key($0)] = value($0); now_order[++m] = key($0) }
    END {
      status = 0
      for (i = 1; i <= n; i++) {
        k = order[i]
        if (!(k in now)) { print "INCOMPATIBLE: removed: " k " " base[k]; status = 1; continue }
        if (now[k] == base[k]) continue
        if (k ~ /^struct /) {
          split(base[k], b, " "); split(now[k], c, " ")
          if (b[4] != c[4] || c[2] + 0 < b[2] + 0 || !growable(owner(k))) {
            print "INCOMPATIBLE: size or alignment changed: " k ": " base[k] " -> " now[k]; status = 1
          } else { print "REVIEW: grew: " k ": " base[k] " -> " now[k]; if (status == 0) status = 3 }
          continue
        }
        print "INCOMPATIBLE: changed: " k ": " base[k] " -> " now[k]; status = 1
      }
      for (i = 1; i <= m; i++) {
        k = now_order[i]
        if (k in base) continue
        if (k ~ /^field / && ("struct " owner(k)) in base) {
          # Appended after the old end of a struct that starts with struct_size: compatible if
          # deliberate. Anywhere else (the old tail padding included, which old callers count in
          # their struct_size but never set) it is not.
          split(base["struct " owner(k)], b, " "); nc = split(now[k], c, " ")
          if (growable(owner(k)) && c[nc - 2] + 0 >= b[2] + 0) {
            print "REVIEW: field appended to a struct_size struct: " k " " now[k]
            if (status == 0) status = 3
          } else {
            print "INCOMPATIBLE: field added within the old size, or to a struct without" \
                  " struct_size: " k " " now[k]
            status = 1
          }
        } else {
          print "added (compatible): " k " " now[k]
        }
      }
      exit status
    }' "$1" "$2"
}

mode=${1:-}
case "$mode" in
  layout)
    [ $# -eq 4 ] || fail "usage: $0 layout LIBRARY LAYOUT_DUMP BASELINE_DIR"
    library=$2 dump=$3 baseline_dir=$4
    soname=$(soname_of "$library")
    [ -n "$soname" ] || fail "$library has no SONAME"
    baseline=$(baseline_for "$soname" "$baseline_dir" layout) || { echo "$baseline"; exit 1; }
    echo "ok: SONAME $soname, baseline $(basename "$baseline")"
    current=$("$dump") || fail "$dump failed"
    declared=$(printf '%s\n' "$current" | awk '$1 == "function" { print $2 }' | sort)
    exported=$(nm -D --defined-only "$library" | awk '{ print $NF }' | sort)
    if [ "$declared" != "$exported" ]; then
      echo "FAIL: the symbols $(basename "$library") exports are not the functions anygpu.h declares:"
      diff <(printf '%s\n' "$declared") <(printf '%s\n' "$exported") |
        sed -n 's/^</  declared, not exported:/p; s/^>/  exported, not declared:/p'
      exit 1
    fi
    echo "ok: exports exactly the $(printf '%s\n' "$declared" | wc -l) functions anygpu.h declares"
    compare_layouts "$baseline" <(printf '%s\n' "$current")
    status=$?
    case $status in
      0) echo "ok: functions, structs and enums match $(basename "$baseline") (additions are compatible)" ;;
      3) echo "FAIL: the ABI changed in a way that is compatible only if deliberate (see REVIEW);" \
           "if so, record it: tests/abi/update_abi_baseline.sh <build dir> --accept-compatible" ;;
      *) echo "FAIL: incompatible ABI change against $(basename "$baseline"): revert it, or bump the" \
           "SONAME (SOVERSION) and record a new baseline with tests/abi/update_abi_baseline.sh" ;;
    esac
    exit $status
    ;;

  abidw)
    [ $# -eq 4 ] || fail "usage: $0 abidw DEBUG_LIBRARY SOURCE_DIR OUTPUT"
    debug_library=$2 source_dir=$3 output=$4
    readelf -S "$debug_library" | grep -q '\.debug_info' ||
      fail "$debug_library has no DWARF (.debug_info): abidw could see only symbol names"
    # Only what the exported functions reach, only types from the public headers, no locations,
    # no build paths, hashed type ids (an added type does not renumber the others).
    abidw --exported-interfaces-only --headers-dir "$source_dir/include/anygpu" \
      --drop-private-types --no-show-locs --no-corpus-path --no-comp-dir-path --no-elf-needed \
      --no-architecture --type-id-style hash --out-file "$output.tmp" "$debug_library" ||
      fail "abidw failed on $debug_library"
    # Translation units are named by absolute path; make them relative to the source tree.
    sed "s|path='$source_dir/|path='|" "$output.tmp" > "$output" && rm -f "$output.tmp"
    ;;

  abidiff)
    [ $# -eq 6 ] || fail "usage: $0 abidiff LIBRARY DEBUG_LIBRARY SOURCE_DIR BASELINE_DIR WORK_DIR"
    library=$2 debug_library=$3 source_dir=$4 baseline_dir=$5 work_dir=$6
    if ! command -v abidw > /dev/null || ! command -v abidiff > /dev/null; then
      skip "abidw/abidiff not installed (Debian: apt-get install abigail-tools; scripts/install-deps --test);" \
        "abi.layout still checks symbols and struct layouts"
    fi
    soname=$(soname_of "$library")
    [ -n "$soname" ] || fail "$library has no SONAME"
    [ "$(soname_of "$debug_library")" = "$soname" ] ||
      fail "$debug_library has SONAME $(soname_of "$debug_library"), $library has $soname"
    baseline=$(baseline_for "$soname" "$baseline_dir" abi) || { echo "$baseline"; exit 1; }
    grep -q "^<abi-corpus [^>]*soname='$soname'" "$baseline" ||
      fail "$baseline does not say soname='$soname'"
    # The copy built for its DWARF must export what the library does.
    [ "$(nm -D --defined-only "$library" | awk '{ print $NF }')" = \
      "$(nm -D --defined-only "$debug_library" | awk '{ print $NF }')" ] ||
      fail "$debug_library and $library export different symbols"
    echo "ok: SONAME $soname, baseline $(basename "$baseline"), DWARF from $debug_library"
    mkdir -p "$work_dir"
    current=$work_dir/$soname.current.abi
    "$0" abidw "$debug_library" "$source_dir" "$current" || exit 1
    report=$(abidiff "$baseline" "$current")
    status=$?
    [ -n "$report" ] && printf '%s\n' "$report"
    # abidiff's exit status is a bit mask: 1 error, 2 usage error, 4 ABI change, 8 incompatible
    # change (a removed function or variable). Added functions set 4 too: they alone pass.
    if [ $((status & 3)) -ne 0 ]; then
      fail "abidiff could not compare (exit $status)"
    elif [ $((status & 8)) -ne 0 ]; then
      fail "abidiff: incompatible ABI change against $(basename "$baseline") (exit $status): revert" \
        "it, or bump the SONAME (SOVERSION) and record a new baseline with" \
        "tests/abi/update_abi_baseline.sh"
    elif [ $((status & 4)) -ne 0 ]; then
      # Additions only: abidiff then reports nothing once added functions and variables are hidden.
      if abidiff --no-added-syms "$baseline" "$current" > /dev/null; then
        echo "ok: only additions against $(basename "$baseline") (compatible; the next" \
          "update_abi_baseline.sh records them)"
        exit 0
      fi
      echo "FAIL: abidiff: the ABI changed against $(basename "$baseline") (exit $status). A changed"
      echo "  function or struct layout is incompatible: revert it, or bump the SONAME (SOVERSION) and"
      echo "  record a new baseline with tests/abi/update_abi_baseline.sh. A field appended to a struct"
      echo "  that starts with struct_size is compatible: record it with --accept-compatible."
      exit 3
    fi
    echo "ok: no ABI change against $(basename "$baseline")"
    ;;

  selftest)
    # The comparison itself, on a small layout and edited copies of it: each edit must be judged so.
    base=$(mktemp)
    trap 'rm -f "$base"' EXIT
    cat > "$base" << 'LAYOUT'
enum ag_kind size 4
enumerator ag_kind.AG_A 1
enumerator ag_kind.AG_B 2
struct ag_info size 24 align 8
field ag_info.struct_size unsigned long offset 0 size 8
field ag_info.kind ag_kind offset 8 size 4
field ag_info.count int offset 12 size 4
field ag_info.name char const* offset 16 size 8
struct ag_pair size 8 align 4
field ag_pair.first int offset 0 size 4
field ag_pair.second int offset 4 size 4
function agGet ag_result (ag_device_s*, unsigned long, ag_info*)
LAYOUT
    failures=0
    expect() {  # STATUS DESCRIPTION SED_SCRIPT
      local edited output status
      edited=$(sed "$3" "$base")
      output=$(compare_layouts "$base" <(printf '%s\n' "$edited"))
      status=$?
      if [ -n "$3" ] && [ "$edited" = "$(cat "$base")" ]; then
        echo "FAIL: $2: the edit changed nothing"; failures=$((failures + 1))
      elif [ $status -eq "$1" ]; then echo "ok: $2: exit $status"; else
        echo "FAIL: $2: exit $status, expected $1"; failures=$((failures + 1)); fi
      [ -z "$output" ] || printf '%s\n' "$output" | sed 's/^/    /'
    }
    expect 0 "unchanged" ''
    expect 0 "function added" '$a function agNew ag_result (int*)'
    expect 0 "enumerator added" '$a enumerator ag_kind.AG_C 3'
    expect 0 "struct added" '$a struct ag_new size 4 align 4\nfield ag_new.x int offset 0 size 4'
    expect 1 "function removed" '/^function agGet /d'
    expect 1 "parameter type changed" 's/^function agGet ag_result (ag_device_s\*, unsigned long,/function agGet ag_result (ag_device_s*, unsigned int,/'
    expect 1 "field inserted in the middle" 's/^field ag_info.count int offset 12/field ag_info.extra int offset 12 size 4\nfield ag_info.count int offset 16/; s/^field ag_info.name char const\* offset 16/field ag_info.name char const* offset 24/; s/^struct ag_info size 24/struct ag_info size 32/'
    expect 1 "field type changed" 's/^field ag_info.count int /field ag_info.count unsigned int /'
    expect 1 "field removed" '/^field ag_info.count /d'
    expect 1 "enumerator renumbered" 's/^enumerator ag_kind.AG_B 2/enumerator ag_kind.AG_B 3/'
    expect 1 "enumerator removed" '/^enumerator ag_kind.AG_B /d'
    expect 1 "struct without struct_size grew" 's/^struct ag_pair size 8 /struct ag_pair size 12 /; $a field ag_pair.third int offset 8 size 4'
    expect 3 "field appended to a struct_size struct" 's/^struct ag_info size 24 /struct ag_info size 32 /; $a field ag_info.extra int offset 24 size 4'
    [ $failures -eq 0 ] || exit 1
    ;;

  *)
    fail "usage: $0 layout|abidiff|abidw|selftest ..."
    ;;
esac
