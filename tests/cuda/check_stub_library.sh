#!/usr/bin/env bash
# With the CUDA toolkit's stub libcuda forced in, anygpu-info must list CUDA as unavailable with
# the stub's own error, and still offer the CPU device.
set -euo pipefail
info=$1
stub=""
for candidate in "${CUDA_PATH:-/usr/local/cuda}/lib64/stubs/libcuda.so" \
                 /usr/local/cuda/lib64/stubs/libcuda.so /usr/lib/x86_64-linux-gnu/stubs/libcuda.so; do
  if [ -f "$candidate" ]; then stub=$candidate; break; fi
done
if [ -z "$stub" ]; then
  echo "SKIPPED: no CUDA toolkit stub libcuda.so here (looked in \$CUDA_PATH and /usr/local/cuda)"
  exit 77
fi
output=$(ANYGPU_CUDA_LIBRARY="$stub" "$info")
echo "$output"
echo "$output" | grep -q "CUDA .*unavailable: cuInit failed: CUDA_ERROR_STUB_LIBRARY (34) - $stub is the CUDA toolkit's stub library" \
  || { echo "FAIL: the CUDA line does not name CUDA_ERROR_STUB_LIBRARY"; exit 1; }
echo "$output" | grep -q "CPU .*available, 1 device" || { echo "FAIL: no CPU device"; exit 1; }
echo "PASS: $stub reported as the stub library"
