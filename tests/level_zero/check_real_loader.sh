#!/usr/bin/env bash
# With Debian's real Level Zero loader (libze1) and no Intel GPU driver, anygpu-info must list Level
# Zero as unavailable with the loader's own reason (zeInit's result), and still offer the CPU device.
set -euo pipefail
info=$1
loader=""
for candidate in /usr/lib/x86_64-linux-gnu/libze_loader.so.1 /usr/lib/aarch64-linux-gnu/libze_loader.so.1 \
                 /usr/lib64/libze_loader.so.1 /usr/lib/libze_loader.so.1 /usr/local/lib/libze_loader.so.1; do
  if [ -f "$candidate" ]; then loader=$candidate; break; fi
done
if [ -z "$loader" ]; then
  echo "SKIPPED: no Level Zero loader (libze_loader.so.1, Debian package libze1) is installed"
  exit 77
fi
output=$(env -u ZE_ENABLE_ALT_DRIVERS -u ANYGPU_LEVEL_ZERO_LIBRARY "$info")
echo "$output"
if echo "$output" | grep -q "Level Zero .*available, [0-9]* device"; then
  echo "SKIPPED: a Level Zero driver with a GPU is installed here; this test needs a machine without one"
  exit 77
fi
echo "$output" | grep -q "Level Zero .*unavailable: zeInit failed: ZE_RESULT_ERROR_UNINITIALIZED (0x78000001) - the Level Zero loader libze_loader.so.1 found no driver" \
  || { echo "FAIL: the Level Zero line does not give zeInit's ZE_RESULT_ERROR_UNINITIALIZED"; exit 1; }
echo "$output" | grep -q "CPU .*available, 1 device" || { echo "FAIL: no CPU device"; exit 1; }
echo "PASS: $loader loaded, no driver: Level Zero unavailable with the loader's reason"
