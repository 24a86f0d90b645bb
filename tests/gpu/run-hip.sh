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
set -u -o pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build/gpu-hip}
jobs=$(nproc)
logs=$build/run-hip-logs
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
  echo "ok: cmake, ninja, c++, clang-19, libffi, GoogleTest and Google Benchmark present"
fi
# AMD code objects need clang-19's ld.lld (lld-19); without it the bundle has none.
lld=$(clang-19 -print-prog-name=ld.lld 2> /dev/null)
if [[ $lld != /* ]] || ! [ -x "$lld" ]; then
  echo "FAIL: ld.lld for clang-19 not found: install lld-19 (Debian 12: scripts/install-deps)"
  exit 1
fi
command -v rocm-smi > /dev/null && timeout 30 rocm-smi --showproductname
command -v rocminfo > /dev/null && timeout 30 rocminfo 2> /dev/null | grep -E '^ *Name: +gfx' | sort -u

# ---- build ------------------------------------------------------------------------------------
mkdir -p "$logs"
step "configure $build (Release)"
targets=()
[ -n "${ANYGPU_AMDGPU_TARGETS:-}" ] && targets=("-DANYGPU_AMDGPU_TARGETS=$ANYGPU_AMDGPU_TARGETS")
timeout 120 cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${targets[@]}" \
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
  anygpu_hip_bench > "$logs/build.log" 2>&1
status=$?
if [ $status -ne 0 ]; then
  show_tail "$logs/build.log"
  if timed_out $status; then failed build "the build timed out"; else failed build "the build failed"; fi
  summary_and_exit
fi
echo "ok: built anygpu-info, saxpy, conformance_tests, anygpu_hip_bench"

# ---- a HIP device -----------------------------------------------------------------------------
step "anygpu-info"
info=$(ANYGPU_LOG=info timeout 30 "$build/tools/anygpu-info" 2>&1)
printf '%s\n' "$info"
if ! printf '%s\n' "$info" | grep -Eq '^ *HIP +available'; then
  hip_line=$(printf '%s\n' "$info" | grep -E '^ *HIP ' | sed 's/^ *//')
  failed device "anygpu-info lists no HIP device: ${hip_line:-no HIP line in its output}"
  summary_and_exit
fi
gpu_line=$(printf '%s\n' "$info" | grep -E '^ *\[[0-9]+\] .*HIP backend' | head -1 | sed 's/^ *//')
arch=$(printf '%s\n' "$info" | grep -A1 -E '^ *\[[0-9]+\] .*HIP backend' | sed -n 's/^ *architecture *//p' | head -1)
gpu_line="$gpu_line, $arch"
# The bundle holds code objects for the configured targets only.
built=$(sed -n 's/.*building AMD code objects (\(.*\)).*/ \1 /p' "$logs/configure.log")
if [ -n "$arch" ] && [[ $built != *" ${arch%%:*} "* ]]; then
  failed targets "the bundle has no code object for ${arch%%:*} (built:${built:- none}); rerun\
 with ANYGPU_AMDGPU_TARGETS=${arch%%:*} and a fresh BUILD_DIR"
fi

step "saxpy example on device 0"
saxpy=$(timeout 60 "$build/examples/saxpy" 2>&1)
status=$?
printf '%s\n' "$saxpy"
[ $status -eq 0 ] && printf '%s\n' "$saxpy" | grep -qx OK ||
  failed saxpy "the saxpy example did not print OK (exit $status)"

# ---- conformance on the HIP device(s) ---------------------------------------------------------
step "conformance suite on the HIP device(s)"
ANYGPU_BACKENDS=hip,cpu ANYGPU_TEST_DEVICES=hip timeout 180 "$build/tests/conformance_tests" \
  --gtest_filter='*/hip*' > "$logs/conformance.log" 2>&1
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
  failed conformance "no conformance test ran on a HIP device (filter '*/hip*')"
fi

# ---- benchmarks -------------------------------------------------------------------------------
step "anygpu_hip_bench ${ANYGPU_HIP_BENCH_ARGS:-}"
# shellcheck disable=SC2086  # the extra flags are meant to split
timeout 180 "$build/bench/anygpu_hip_bench" ${ANYGPU_HIP_BENCH_ARGS:-} \
  > "$logs/bench.log" 2>&1
status=$?
cat "$logs/bench.log"
ratios=$(grep '^ratio ' "$logs/bench.log")
if timed_out $status; then
  failed bench "anygpu_hip_bench timed out"
elif [ $status -ne 0 ]; then
  failed bench "anygpu_hip_bench failed (exit $status)"
elif [ -z "$ratios" ] || printf '%s\n' "$ratios" | grep -q 'n/a'; then
  failed bench "anygpu_hip_bench left a comparison without a result"
fi

summary_and_exit
