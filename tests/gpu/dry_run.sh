#!/usr/bin/env bash
# A GPU check script as it runs on a GPU machine that cannot build, without a GPU: this build is
# packed (pack-build.sh), unpacked into a scratch folder, and run-NAME.sh runs that copy with
# ANYGPU_GPU_PREBUILT=1 against the backend's test driver. Passes when the script prints
# "RESULT: PASS", so that a broken script does not cost a GPU machine's few minutes.
#   tests/gpu/dry_run.sh cuda|hip|level_zero BUILD_DIR SCRATCH_DIR
set -u -o pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 cuda|hip|level_zero BUILD_DIR SCRATCH_DIR" >&2
  exit 2
fi
name=$1
build=$(cd "$2" && pwd)
scratch=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The copy's own libanygpu and kernels, not the build's (its RUNPATH names the build): what the
# pack lacks fails here as it would on the GPU machine. The test drivers stay the build's.
kernels=$scratch/build/kernels/test_kernels.host.so
quick="--launches=100 --copy_mib=4 --benchmark_min_time=0.01"
case $name in
  cuda)
    export ANYGPU_CUDA_LIBRARY=$build/tests/drivers/cuda/libcuda.so.1 ANYGPU_CUDA_TEST_KERNELS=$kernels
    export ANYGPU_CUDA_BENCH_ARGS="$quick --saxpy_mib=4"
    script=run-cuda.sh
    ;;
  hip)
    export ANYGPU_HIP_LIBRARY=$build/tests/drivers/hip/libamdhip64.so.6 ANYGPU_HIP_TEST_KERNELS=$kernels
    export ANYGPU_HIP_BENCH_ARGS=$quick
    script=run-hip.sh
    ;;
  level_zero)
    export ZE_ENABLE_ALT_DRIVERS=$build/tests/drivers/level_zero/libze_anygpu_test.so
    export ANYGPU_L0_TEST_KERNELS=$kernels ANYGPU_LEVEL_ZERO_BENCH_ARGS=$quick
    script=run-level-zero.sh
    ;;
  *)
    echo "usage: $0 cuda|hip|level_zero BUILD_DIR SCRATCH_DIR" >&2
    exit 2
    ;;
esac

rm -rf "$scratch"
mkdir -p "$scratch/build"
"$here/pack-build.sh" "$build" "$scratch/build.tar" || exit 1
tar -xf "$scratch/build.tar" -C "$scratch/build" || exit 1
for packed in tools/anygpu-info tests/conformance_tests prebuilt-configure.log; do
  [ -e "$scratch/build/$packed" ] || { echo "FAIL: the pack lacks $packed"; exit 1; }
done
export LD_LIBRARY_PATH=$scratch/build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# ldd's output taken whole first: under pipefail, `ldd | grep -q` fails whenever grep's early
# exit kills ldd with SIGPIPE before it has written everything (a failure seen under ctest -j2).
libraries=$(ldd "$scratch/build/tests/conformance_tests")
if ! grep -q "libanygpu.so.0 => $scratch/build/" <<< "$libraries"; then
  echo "FAIL: the copy's programs do not load the copy's libanygpu:"
  printf '%s\n' "$libraries"
  exit 1
fi
output=$(ANYGPU_GPU_PREBUILT=1 "$here/$script" "$scratch/build" 2>&1)
status=$?
printf '%s\n' "$output"
printf '%s\n' "$output" | grep -qx 'RESULT: PASS' || { echo "FAIL: $script exited $status"; exit 1; }
