#!/usr/bin/env bash
# With a real libamdhip64 installed (Debian's libamdhip64-5) and no AMD GPU, anygpu-info must list
# HIP as unavailable with the HIP runtime's own error names, print nothing from the runtime, and
# still offer the CPU device. Run both through the default search and through ANYGPU_HIP_LIBRARY.
set -euo pipefail
info=$1
library=""
for candidate in /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 /usr/lib/aarch64-linux-gnu/libamdhip64.so.5 \
                 /usr/lib/libamdhip64.so.5 /opt/rocm/lib/libamdhip64.so.5; do
  if [ -f "$candidate" ]; then library=$candidate; break; fi
done
if [ -z "$library" ]; then
  echo "SKIPPED: libamdhip64.so.5 is not installed (Debian: apt-get install libamdhip64-5)"
  exit 77
fi
if [ -e /dev/kfd ]; then
  echo "SKIPPED: /dev/kfd exists: this machine may have an AMD GPU; the test is for one without"
  exit 77
fi

check() {
  local label=$1
  shift
  local output errors
  errors=$(mktemp)
  output=$(env "$@" "$info" 2>"$errors")
  echo "--- $label"
  echo "$output"
  if [ -s "$errors" ]; then
    echo "FAIL ($label): something wrote to stderr:"
    cat "$errors"
    rm -f "$errors"
    exit 1
  fi
  rm -f "$errors"
  # Only printable text: the runtime's strings reach the reason unread otherwise.
  if printf '%s' "$output" | LC_ALL=C grep -q '[^[:print:][:space:]]'; then
    echo "FAIL ($label): non-printable bytes in the output"
    exit 1
  fi
  echo "$output" | grep -Eq "^  HIP +unavailable: hip(Init|GetDeviceCount) failed: hipError[A-Za-z]+ \([0-9]+\)" \
    || { echo "FAIL ($label): the HIP line does not name HIP's error"; exit 1; }
  echo "$output" | grep -q "^  HIP .*(HIP 5\.[0-9]*) found no AMD GPU" \
    || { echo "FAIL ($label): the HIP line does not say the runtime found no GPU"; exit 1; }
  echo "$output" | grep -q "^  CPU .*available, 1 device" \
    || { echo "FAIL ($label): no CPU device"; exit 1; }
  echo "$output" | grep -q "^  CUDA .*unavailable: CUDA driver library not found\|^  CUDA .*available" \
    || { echo "FAIL ($label): the CUDA line changed"; exit 1; }
}

# The default search finds it only where no libamdhip64.so.6 comes first.
if ! ldconfig -p 2>/dev/null | grep -q 'libamdhip64\.so\.6 '; then
  check "default search" ANYGPU_HIP_LIBRARY=
fi
check "ANYGPU_HIP_LIBRARY=$library" "ANYGPU_HIP_LIBRARY=$library"
echo "PASS: $library reported unavailable with HIP's own errors"
