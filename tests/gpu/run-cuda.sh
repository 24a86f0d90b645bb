#!/usr/bin/env bash
# Checks anygpu on this machine's NVIDIA GPU in a few minutes: a Release build, anygpu-info must
# list a CUDA device, the saxpy example runs on it, the conformance suite runs on the CUDA
# device(s) (the CPU device stays as the reference; its RuntimeCompileTest compiles CUDA source
# with NVRTC at run time and runs it on the GPU), and anygpu_cuda_bench compares anygpu with
# direct CUDA driver calls. Prints a summary; exits non-zero on any failure.
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

# ---- build, a CUDA device, saxpy, conformance, benchmarks -------------------------------------
configure_and_build
find_device
run_saxpy
step "run-time compilers (RuntimeCompileTest in the conformance suite uses them)"
"$build/tools/anygpu-info" --compilers
run_conformance
run_bench "${ANYGPU_CUDA_BENCH_ARGS:-}"
summary_and_exit
