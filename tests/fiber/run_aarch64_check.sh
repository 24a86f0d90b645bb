#!/usr/bin/env bash
# Cross-compiles fiber_switch_check for aarch64 and runs it under qemu-user. Exits 77 (skipped, with
# the reason printed) when the cross compiler or qemu-aarch64 is missing.
# Usage: run_aarch64_check.sh SOURCE_DIR WORK_DIR
set -u
source_dir=$1
work_dir=$2
compiler=$(command -v aarch64-linux-gnu-g++ || true)
emulator=$(command -v qemu-aarch64 || command -v qemu-aarch64-static || true)
if [ -z "$compiler" ] || [ -z "$emulator" ]; then
  echo "SKIPPED: needs aarch64-linux-gnu-g++ and qemu-aarch64 (Debian: g++-aarch64-linux-gnu," \
       "qemu-user; scripts/install-deps --test installs them)"
  exit 77
fi
mkdir -p "$work_dir"
"$compiler" -std=c++17 -O2 -static -I "$source_dir" -o "$work_dir/fiber_switch_check_aarch64" \
  "$source_dir/tests/fiber/fiber_switch_check.cpp" "$source_dir/loaders/cpu/fiber.cpp" \
  "$source_dir/loaders/cpu/context_switch_aarch64.S" || exit 1
"$emulator" "$work_dir/fiber_switch_check_aarch64"
