#!/usr/bin/env bash
# Checks anygpu on this machine's AMD GPU in a few minutes: a Release build, anygpu-info must
# list a HIP device, the saxpy example runs on it, the conformance suite runs on the HIP device(s)
# (the CPU device stays as the reference), and anygpu_hip_bench compares anygpu with direct HIP
# runtime calls. Prints a summary; exits non-zero on any failure. The bundle must hold a code
# object for the GPU: ANYGPU_AMDGPU_TARGETS (default gfx90a;gfx942;gfx1030;gfx1100;gfx1200) is
# passed on to cmake when set, e.g. ANYGPU_AMDGPU_TARGETS="gfx908;gfx90a".
#   tests/gpu/run-hip.sh [BUILD_DIR]           (default: build/gpu-hip)
# Environment:
#   ANYGPU_HIP_BENCH_ARGS   extra anygpu_hip_bench flags, e.g. "--copy_mib=64 --launches=1000"
#   ANYGPU_HIP_LIBRARY      another HIP runtime, read by anygpu itself (default: libamdhip64.so.6,
#                           .so.5, ...); with the test driver (<build>/tests/drivers/hip/
#                           libamdhip64.so.6, and ANYGPU_HIP_TEST_KERNELS=<build>/kernels/
#                           test_kernels.host.so) the script runs without a GPU, as a dry run
# Nothing is installed when the tools are present: only a missing one runs scripts/install-deps.
# The steps are tests/gpu/common.sh's, shared with run-cuda.sh.
set -u -o pipefail

# shellcheck source=tests/gpu/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
gpu_begin hip HIP "${1:-$repo/build/gpu-hip}"

# ---- tools: present, or installed once --------------------------------------------------------
check_tools clang-19
# AMD code objects need clang-19's ld.lld (lld-19); without it the bundle has none.
lld=$(clang-19 -print-prog-name=ld.lld 2> /dev/null)
if ! prebuilt && { [[ $lld != /* ]] || ! [ -x "$lld" ]; }; then
  echo "FAIL: ld.lld for clang-19 not found: install lld-19 (Debian 12: scripts/install-deps)"
  exit 1
fi
command -v rocm-smi > /dev/null && timeout 30 rocm-smi --showproductname
command -v rocminfo > /dev/null && timeout 30 rocminfo 2> /dev/null | grep -E '^ *Name: +gfx' | sort -u

# ---- build ------------------------------------------------------------------------------------
targets=()
[ -n "${ANYGPU_AMDGPU_TARGETS:-}" ] && targets=("-DANYGPU_AMDGPU_TARGETS=$ANYGPU_AMDGPU_TARGETS")
configure_and_build "${targets[@]}"

# ---- a HIP device -----------------------------------------------------------------------------
find_device
arch=$(printf '%s\n' "$info" | grep -A1 -E '^ *\[[0-9]+\] .*HIP backend' | sed -n 's/^ *architecture *//p' | head -1)
gpu_line="$gpu_line, $arch"
# The bundle holds code objects for the configured targets only.
built=$(sed -n 's/.*building AMD code objects (\(.*\)).*/ \1 /p' "$logs/configure.log")
if [ -n "$arch" ] && [[ $built != *" ${arch%%:*} "* ]]; then
  failed targets "the bundle has no code object for ${arch%%:*} (built:${built:- none}); rerun\
 with ANYGPU_AMDGPU_TARGETS=${arch%%:*} and a fresh BUILD_DIR"
fi

# ---- saxpy, conformance, benchmarks -----------------------------------------------------------
run_saxpy
run_conformance
run_bench "${ANYGPU_HIP_BENCH_ARGS:-}"
summary_and_exit
