#!/usr/bin/env bash
# Checks anygpu on this machine's NVIDIA GPU in a few minutes: a Release build, anygpu-info must
# list a CUDA device, the saxpy example runs on it, the conformance suite runs on the CUDA
# device(s) (the CPU device stays as the reference), and anygpu_cuda_bench compares anygpu with
# direct CUDA driver calls. Prints a summary; exits non-zero on any failure.
#   tests/gpu/run-cuda.sh [BUILD_DIR]          (default: build/gpu-cuda)
# Environment:
#   ANYGPU_CUDA_BENCH_ARGS  extra anygpu_cuda_bench flags, e.g. "--copy_mib=64 --launches=1000"
#   ANYGPU_CUDA_LIBRARY     another CUDA driver, read by anygpu itself (default: libcuda.so.1);
#                           with the test driver (and ANYGPU_CUDA_TEST_KERNELS=<build>/kernels/
#                           test_kernels.host.so) the script runs without a GPU, as a dry run
# Nothing is installed when the tools are present: only a missing one runs scripts/install-deps.
set -u -o pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build/gpu-cuda}
jobs=$(nproc)
logs=$build/run-cuda-logs
started=$SECONDS
failures=()
conformance_summary="not run"
ratios=""

step() { printf '\n== %s (at %d s)\n' "$*" $((SECONDS - started)); }
failed() {
  echo "FAIL: $2"
  failures+=("$1")
}
# The tail of a log after a failure; the whole log stays in $logs.
show_tail() {
  echo "-- last lines of $1:"
  tail -n "${2:-30}" "$1"
}
timed_out() { [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; }
summary_and_exit() {
  step "summary"
  echo "GPU:         ${gpu_line:-unknown}"
  echo "conformance: $conformance_summary"
  [ -n "$ratios" ] && printf '%s\n' "$ratios"
  echo "time:        $((SECONDS - started)) s"
  if [ ${#failures[@]} -gt 0 ]; then
    echo "RESULT: FAIL (${failures[*]})"
    exit 1
  fi
  echo "RESULT: PASS"
  exit 0
}

# ---- tools: present, or installed once --------------------------------------------------------
step "tools"
missing=()
for tool in cmake ninja pkg-config clang-19; do
  command -v "$tool" > /dev/null || missing+=("$tool")
done
command -v c++ > /dev/null || missing+=("g++")
pkg-config --exists libffi 2> /dev/null || missing+=("libffi-dev")
header() { [ -e "/usr/include/$1" ] || [ -e "/usr/local/include/$1" ]; }
header gtest/gtest.h || missing+=("libgtest-dev")
header benchmark/benchmark.h || missing+=("libbenchmark-dev")
if [ ${#missing[@]} -gt 0 ]; then
  echo "missing: ${missing[*]}; running scripts/install-deps (apt-get, needs a network)"
  if ! timeout 600 "$repo/scripts/install-deps"; then
    echo "FAIL: cannot install ${missing[*]}: install them (Debian 12: scripts/install-deps) and rerun"
    exit 1
  fi
else
  echo "ok: cmake, ninja, c++, clang-19 (PTX), libffi, GoogleTest and Google Benchmark present"
fi
command -v nvidia-smi > /dev/null && timeout 30 nvidia-smi -L

# ---- build ------------------------------------------------------------------------------------
mkdir -p "$logs"
step "configure $build (Release)"
timeout 120 cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  > "$logs/configure.log" 2>&1
status=$?
grep 'anygpu kernels:' "$logs/configure.log"
if [ $status -ne 0 ]; then
  show_tail "$logs/configure.log"
  failed configure "cmake configure failed (exit $status)"
  summary_and_exit
fi
step "build with -j$jobs"
timeout 300 cmake --build "$build" -j "$jobs" --target anygpu-info saxpy conformance_tests \
  anygpu_cuda_bench > "$logs/build.log" 2>&1
status=$?
if [ $status -ne 0 ]; then
  show_tail "$logs/build.log"
  if timed_out $status; then failed build "the build timed out"; else failed build "the build failed"; fi
  summary_and_exit
fi
echo "ok: built anygpu-info, saxpy, conformance_tests, anygpu_cuda_bench"

# ---- a CUDA device ----------------------------------------------------------------------------
step "anygpu-info"
info=$(ANYGPU_LOG=info timeout 30 "$build/tools/anygpu-info" 2>&1)
printf '%s\n' "$info"
if ! printf '%s\n' "$info" | grep -Eq '^ *CUDA +available'; then
  cuda_line=$(printf '%s\n' "$info" | grep -E '^ *CUDA ' | sed 's/^ *//')
  failed device "anygpu-info lists no CUDA device: ${cuda_line:-no CUDA line in its output}"
  summary_and_exit
fi
gpu_line=$(printf '%s\n' "$info" | grep -E '^ *\[[0-9]+\] .*CUDA backend' | head -1 | sed 's/^ *//')

step "saxpy example on device 0"
saxpy=$(timeout 60 "$build/examples/saxpy" 2>&1)
status=$?
printf '%s\n' "$saxpy"
[ $status -eq 0 ] && printf '%s\n' "$saxpy" | grep -qx OK ||
  failed saxpy "the saxpy example did not print OK (exit $status)"

# ---- conformance on the CUDA device(s) --------------------------------------------------------
step "conformance suite on the CUDA device(s)"
ANYGPU_BACKENDS=cuda,cpu ANYGPU_TEST_DEVICES=cuda timeout 180 "$build/tests/conformance_tests" \
  --gtest_filter='*/cuda*' > "$logs/conformance.log" 2>&1
status=$?
# GoogleTest's closing lines: "[  PASSED  ] 57 tests.", "[  FAILED  ] 2 tests, listed below:".
count() { sed -n "s/^\[  $1 *\] \([0-9]*\) tests\{0,1\}[.,].*/\1/p" "$logs/conformance.log" | head -1; }
passed=$(count PASSED)
failed_tests=$(count FAILED)
skipped=$(count SKIPPED)
conformance_summary="${passed:-0} passed, ${failed_tests:-0} failed, ${skipped:-0} skipped"
echo "$conformance_summary (log: $logs/conformance.log)"
if timed_out $status; then
  show_tail "$logs/conformance.log"
  failed conformance "the conformance suite timed out"
elif [ $status -ne 0 ]; then
  grep -E '^\[  FAILED  \] .*\([0-9]+ ms\)$' "$logs/conformance.log" | head -40
  failed conformance "conformance tests failed (exit $status)"
elif [ "${passed:-0}" -eq 0 ]; then
  show_tail "$logs/conformance.log"
  failed conformance "no conformance test ran on a CUDA device (filter '*/cuda*')"
fi

# ---- benchmarks -------------------------------------------------------------------------------
step "anygpu_cuda_bench ${ANYGPU_CUDA_BENCH_ARGS:-}"
# shellcheck disable=SC2086  # the extra flags are meant to split
timeout 180 "$build/bench/anygpu_cuda_bench" ${ANYGPU_CUDA_BENCH_ARGS:-} \
  > "$logs/bench.log" 2>&1
status=$?
cat "$logs/bench.log"
ratios=$(grep '^ratio ' "$logs/bench.log")
if timed_out $status; then
  failed bench "anygpu_cuda_bench timed out"
elif [ $status -ne 0 ]; then
  failed bench "anygpu_cuda_bench failed (exit $status)"
elif [ -z "$ratios" ] || printf '%s\n' "$ratios" | grep -q 'n/a'; then
  failed bench "anygpu_cuda_bench left a comparison without a result"
fi

summary_and_exit
