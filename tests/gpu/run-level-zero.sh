#!/usr/bin/env bash
# Checks anygpu on this machine's Intel GPU in a few minutes: a Release build, anygpu-info must
# list a Level Zero device, the saxpy example runs on it, the conformance suite runs on the Level
# Zero device(s) (the CPU device stays as the reference), and anygpu_level_zero_bench compares
# anygpu with direct Level Zero calls. Prints a summary; exits non-zero on any failure. The GPU
# runs the bundle's SPIR-V, built by clang-15 and llvm-spirv-15: the script fails when configure
# says the SPIR-V is skipped.
#   tests/gpu/run-level-zero.sh [BUILD_DIR]     (default: build/gpu-level-zero)
# Environment:
#   ANYGPU_LEVEL_ZERO_BENCH_ARGS  extra anygpu_level_zero_bench flags, e.g. "--copy_mib=64"
#   ANYGPU_LEVEL_ZERO_LIBRARY     another Level Zero loader, read by anygpu itself (default:
#                                 libze_loader.so.1)
#   ZE_ENABLE_ALT_DRIVERS         read by the loader: with the test driver (<build>/tests/drivers/
#                                 level_zero/libze_anygpu_test.so, and ANYGPU_L0_TEST_KERNELS=
#                                 <build>/kernels/test_kernels.host.so) the script runs without a
#                                 GPU, as a dry run
# Nothing is installed when the tools are present: only a missing one runs scripts/install-deps.
# The steps are tests/gpu/common.sh's, shared with run-cuda.sh and run-hip.sh.
set -u -o pipefail

# shellcheck source=tests/gpu/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
gpu_begin level_zero "Level Zero" "${1:-$repo/build/gpu-level-zero}"

# ---- tools: present, or installed once --------------------------------------------------------
check_tools clang-19
# SPIR-V needs clang-15 and the LLVM 15 tools beside llvm-spirv-15, and the GPU needs the loader.
spirv_missing=()
for tool in clang-15 llvm-link-15 llvm-as-15 llvm-spirv-15; do
  prebuilt || command -v "$tool" > /dev/null || spirv_missing+=("$tool")
done
[ -e /usr/lib/x86_64-linux-gnu/libze_loader.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/libze_loader.so.1 ] ||
  grep -q 'libze_loader\.so\.1 ' <<< "$(ldconfig -p 2> /dev/null)" || spirv_missing+=("libze1")
if [ ${#spirv_missing[@]} -gt 0 ]; then
  echo "missing: ${spirv_missing[*]}; running scripts/install-deps (apt-get, needs a network)"
  if ! timeout 600 "$repo/scripts/install-deps"; then
    echo "FAIL: cannot install ${spirv_missing[*]}: install them (Debian 12: scripts/install-deps) and rerun"
    exit 1
  fi
fi
command -v clinfo > /dev/null && timeout 30 clinfo -l 2> /dev/null

# ---- build ------------------------------------------------------------------------------------
configure_and_build
if ! grep -q 'anygpu kernels: building SPIR-V' "$logs/configure.log"; then
  failed spirv "configure builds no SPIR-V, which is all a Level Zero GPU runs (see $logs/configure.log)"
  summary_and_exit
fi

# ---- a Level Zero device, saxpy, conformance, benchmarks --------------------------------------
find_device
run_saxpy
run_conformance
run_bench "${ANYGPU_LEVEL_ZERO_BENCH_ARGS:-}"
summary_and_exit
