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

# A missing NVRTC, and HIP's hiprtc and clang both missing, are reported, naming what to install;
# the others are unchanged.
out=$(ANYGPU_NVRTC_LIBRARY=/nonexistent/libnvrtc.so ANYGPU_HIPRTC_LIBRARY=/nonexistent/lib.so \
  ANYGPU_HIP_CLANG=/nonexistent/clang-19 "$info" --compilers)
echo "$out"
grep -Eq '^  CUDA +none: .*/nonexistent/libnvrtc\.so' <<< "$out" || fail "missing NVRTC not said"
grep -Eq '^  HIP +none: .*/nonexistent/lib\.so.*; and .*/nonexistent/clang-19' <<< "$out" ||
  fail "missing hiprtc and clang not said"
grep -Eq '^  CPU +clang\+\+ ' <<< "$out" || fail "the CPU's compiler changed"

# HIP without hiprtc: clang-19 alone where it is installed with ld.lld and ocml.bc, else none.
out=$(ANYGPU_HIPRTC_LIBRARY=/nonexistent/lib.so "$info" --compilers)
echo "$out"
grep -Eq '^  HIP +(clang [0-9]+\..* \+ ld\.lld, ocml \(|none: .*/nonexistent/lib\.so.*; and )' \
  <<< "$out" || fail "HIP without hiprtc neither clang nor both reasons"

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
