#!/usr/bin/env bash
# anygpu-info --compilers through the C ABI (agBackendGetCompilerInfo): every backend listed, with
# its compiler or the reason there is none; a compiler pointed at a missing library is reported
# missing with what to install, and the CPU's is always named (the build found clang++-19).
#   check_info_compilers.sh ANYGPU_INFO
set -euo pipefail
info=$1
fail() { echo "FAIL: $*"; exit 1; }

out=$("$info" --compilers)
echo "$out"
[ "$(head -1 <<< "$out")" = "Run-time compilers:" ] || fail "no heading"
grep -Eq '^  CPU +clang\+\+ [0-9]+\.' <<< "$out" || fail "the CPU's compiler is not named"
for backend in CUDA HIP 'Level Zero'; do
  grep -Eq "^  $backend " <<< "$out" || fail "$backend is not listed"
done

# A missing NVRTC and hiprtc are reported, naming what to install; the others are unchanged.
out=$(ANYGPU_NVRTC_LIBRARY=/nonexistent/libnvrtc.so ANYGPU_HIPRTC_LIBRARY=/nonexistent/lib.so \
  "$info" --compilers)
echo "$out"
grep -Eq '^  CUDA +none: .*/nonexistent/libnvrtc\.so' <<< "$out" || fail "missing NVRTC not said"
grep -Eq '^  HIP +none: .*/nonexistent/lib\.so' <<< "$out" || fail "missing hiprtc not said"
grep -Eq '^  CPU +clang\+\+ ' <<< "$out" || fail "the CPU's compiler changed"

# JSON: one entry per backend, each with a compiler or a reason.
json=$("$info" --compilers --json)
python3 - "$json" <<'PY'
import json, sys
entries = json.loads(sys.argv[1])["compilers"]
names = [e["backend"] for e in entries]
assert "cpu" in names and "cuda" in names, names
for e in entries:
    assert e["available"] == bool(e["compiler"]), e
    assert e["available"] != bool(e["reason"]), e
PY
echo "PASS"
