#!/usr/bin/env bash
# Checks anygpu on this machine's NVIDIA GPU in a few minutes: a Release build, anygpu-info must
# list a CUDA device, the saxpy example runs on it, the conformance suite runs on the CUDA
# device(s) (the CPU device stays as the reference; its RuntimeCompileTest compiles CUDA source
# with NVRTC at run time and runs it on the GPU), anygpu-trace runs an nvcc-built CUDA Runtime
# program on the GPU (where nvcc built one), and anygpu_cuda_bench compares anygpu with direct
# CUDA driver calls. Prints a summary; exits non-zero on any failure.
#   tests/gpu/run-cuda.sh [BUILD_DIR]          (default: build/gpu-cuda)
# Environment:
#   ANYGPU_CUDA_BENCH_ARGS  extra anygpu_cuda_bench flags, e.g. "--copy_mib=64 --launches=1000"
#   ANYGPU_CUDA_LIBRARY     another CUDA driver, read by anygpu itself (default: libcuda.so.1);
#                           with the test driver (and ANYGPU_CUDA_TEST_KERNELS=<build>/kernels/
#                           test_kernels.host.so) the script runs without a GPU, as a dry run
# Nothing is installed when the tools are present: only a missing one runs scripts/install-deps.
# The steps are tests/gpu/common.sh's, shared with run-hip.sh.
set -u -o pipefail

# shellcheck source=tests/gpu/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
gpu_begin cuda CUDA "${1:-$repo/build/gpu-cuda}"

# ---- tools: present, or installed once --------------------------------------------------------
check_tools "clang-19 (PTX)"
command -v nvidia-smi > /dev/null && timeout 30 nvidia-smi -L

# The interposer on the GPU: anygpu-trace on a CUDA Runtime program nvcc built (static cudart),
# tests/interpose/check_interpose.py's runtime_on_gpu; skipped where nvcc built no such program.
extra_targets=(anygpu-trace anygpu_intercept)
if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc > /dev/null; then
  extra_targets+=(anygpu_interpose_runtime_program)
fi
run_interposer() {
  local program=$build/tests/interpose/programs/runtime_program status
  step "the interposer on the GPU (anygpu-trace on an nvcc-built CUDA Runtime program)"
  if ! [ -x "$program" ]; then
    echo "skipped: $program not built (no nvcc where anygpu was built)"
    return
  fi
  timeout 120 python3 "$repo/tests/interpose/check_interpose.py" runtime_on_gpu \
    --trace-tool "$build/interpose/anygpu-trace" --library "$build/interpose/libanygpu_intercept.so" \
    --runtime-program "$program" --work-dir "$logs/interpose" > "$logs/interpose.log" 2>&1
  status=$?
  if [ $status -eq 77 ]; then  # said in lower case: the suite's skip list reads "SKIP:" lines
    echo "skipped: $(sed -n 's/^SKIP: //p' "$logs/interpose.log")"
    return
  fi
  tail -n 8 "$logs/interpose.log"
  [ $status -eq 0 ] || failed interpose "the interposer's check failed (exit $status; $logs/interpose.log)"
}

# ---- build, a CUDA device, saxpy, conformance, interposer, benchmarks -------------------------
configure_and_build
find_device
run_saxpy
step "run-time compilers (RuntimeCompileTest in the conformance suite uses them)"
"$build/tools/anygpu-info" --compilers
run_conformance
run_interposer
run_bench "${ANYGPU_CUDA_BENCH_ARGS:-}"
summary_and_exit
