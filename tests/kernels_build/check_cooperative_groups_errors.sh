#!/usr/bin/env bash
# check_cooperative_groups_errors.sh CLANG INCLUDE_DIR SOURCE
# A kernel that calls grid_group::sync() or asks for a tile wider than a warp does not build, and
# the compiler's message says what anygpu lacks and what to write instead.
set -euo pipefail
. "$(dirname "$0")/check_common.sh"
clang=$1 include=$2 source=$3
require_tool "clang++-19" "$clang"
if "$clang" -std=c++17 -fsyntax-only -x c++ -I"$include" -I"$include/anygpu/cuda_compat" \
  "$source" >"$scratch/log" 2>&1; then
  fail "$source built"
fi
grep -q "grid_group::sync() needs a cooperative launch" "$scratch/log" ||
  { cat "$scratch/log" >&2; fail "no message for grid_group::sync()"; }
grep -q "the size is a power of two up to the warp" "$scratch/log" ||
  { cat "$scratch/log" >&2; fail "no message for tiled_partition<128>"; }
echo "grid_group::sync and tiles wider than a warp are build errors that say why"
