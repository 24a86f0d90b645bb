# shellcheck shell=bash
# The steps that tests/gpu/run-cuda.sh, run-hip.sh and run-level-zero.sh share, sourced by each:
# the tools, a Release build, anygpu-info listing the vendor's device, the saxpy example, the
# conformance suite on the vendor's device(s) and the vendor's side-by-side benchmark, then a
# summary. Each script calls
# gpu_begin first, and summary_and_exit last (also called here on a failure that ends the run).

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# gpu_begin NAME LABEL BUILD_DIR: NAME is the backend's lower-case name (cuda, hip, level_zero: the
# conformance filter, ANYGPU_BACKENDS, anygpu_NAME_bench, run-NAME-logs), LABEL its name in
# anygpu-info ("CUDA", "HIP", "Level Zero").
gpu_begin() {
  name=$1
  label=$2
  build=$3
  jobs=$(nproc)
  logs=$build/run-$name-logs
  bench=anygpu_${name}_bench
  started=$SECONDS
  failures=()
  conformance_summary="not run"
  ratios=""
  gpu_line=""
  extra_targets=()  # a script's own, built with the rest
}

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

# check_tools CLANG_NOTE: present, or installed once (CLANG_NOTE: what the "ok" line says of clang-19).
check_tools() {
  step "tools"
  if prebuilt; then
    echo "skipped: ANYGPU_GPU_PREBUILT=1 runs the binaries already in $build"
    return
  fi
  local missing=() tool
  for tool in cmake ninja pkg-config clang-19; do
    command -v "$tool" > /dev/null || missing+=("$tool")
  done
  command -v c++ > /dev/null || missing+=("g++")
  pkg-config --exists libffi 2> /dev/null || missing+=("libffi-dev")
  header gtest/gtest.h || missing+=("libgtest-dev")
  header benchmark/benchmark.h || missing+=("libbenchmark-dev")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "missing: ${missing[*]}; running scripts/install-deps (apt-get, needs a network)"
    if ! timeout 600 "$repo/scripts/install-deps"; then
      echo "FAIL: cannot install ${missing[*]}: install them (Debian 12: scripts/install-deps) and rerun"
      exit 1
    fi
  else
    echo "ok: cmake, ninja, c++, $1, libffi, GoogleTest and Google Benchmark present"
  fi
}
header() { [ -e "/usr/include/$1" ] || [ -e "/usr/local/include/$1" ]; }
# ANYGPU_GPU_PREBUILT=1: BUILD_DIR was built on another machine (tests/gpu/pack-build.sh carries
# it), for a GPU machine that lacks the compilers or libraries to build anygpu itself.
prebuilt() { [ "${ANYGPU_GPU_PREBUILT:-0}" = 1 ]; }

# configure_and_build [CMAKE_ARGS...]: a Release configure of $build, then the targets run here.
# shellcheck disable=SC2120  # the arguments are optional
configure_and_build() {
  local status
  mkdir -p "$logs"
  if prebuilt; then
    check_prebuilt
    return
  fi
  step "configure $build (Release)"
  timeout 120 cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" \
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
    "$bench" ${extra_targets[@]+"${extra_targets[@]}"} > "$logs/build.log" 2>&1
  status=$?
  if [ $status -ne 0 ]; then
    show_tail "$logs/build.log"
    if timed_out $status; then failed build "the build timed out"; else failed build "the build failed"; fi
    summary_and_exit
  fi
  echo "ok: built anygpu-info, saxpy, conformance_tests, $bench"
}

# check_prebuilt: the programs this script runs are in $build and find every library they need.
check_prebuilt() {
  local program missing
  step "prebuilt binaries in $build"
  [ -d "$build/prebuilt-libs" ] && export LD_LIBRARY_PATH=$build/prebuilt-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  # What configure built, as pack-build.sh recorded it: the scripts read it from configure.log.
  if [ -f "$build/prebuilt-configure.log" ]; then
    cp "$build/prebuilt-configure.log" "$logs/configure.log"
    grep 'anygpu kernels:' "$logs/configure.log"
  fi
  for program in tools/anygpu-info examples/saxpy tests/conformance_tests "bench/$bench"; do
    if ! [ -x "$build/$program" ]; then
      failed build "$build/$program is missing: build it (or pack it with tests/gpu/pack-build.sh)"
      summary_and_exit
    fi
    missing=$(ldd "$build/$program" 2>&1 | grep 'not found')
    if [ -n "$missing" ]; then
      printf '%s\n' "$missing"
      failed build "$program lacks shared libraries on this machine (listed above)"
      summary_and_exit
    fi
  done
  echo "ok: anygpu-info, saxpy, conformance_tests, $bench present, their libraries found"
}

# find_device: anygpu-info must list a $label device; sets $info (its output) and $gpu_line.
find_device() {
  local line
  step "anygpu-info"
  info=$(ANYGPU_LOG=info timeout 30 "$build/tools/anygpu-info" 2>&1)
  printf '%s\n' "$info"
  if ! printf '%s\n' "$info" | grep -Eq "^ *$label +available"; then
    line=$(printf '%s\n' "$info" | grep -E "^ *$label " | sed 's/^ *//')
    failed device "anygpu-info lists no $label device: ${line:-no $label line in its output}"
    summary_and_exit
  fi
  gpu_line=$(printf '%s\n' "$info" | grep -E "^ *\[[0-9]+\] .*$label backend" | head -1 |
    sed 's/^ *//')
}

run_saxpy() {
  local saxpy status
  step "saxpy example on device 0"
  saxpy=$(timeout 60 "$build/examples/saxpy" 2>&1)
  status=$?
  printf '%s\n' "$saxpy"
  if [ $status -ne 0 ] || ! printf '%s\n' "$saxpy" | grep -qx OK; then
    failed saxpy "the saxpy example did not print OK (exit $status)"
  fi
}

# GoogleTest's closing lines: "[  PASSED  ] 57 tests.", "[  FAILED  ] 2 tests, listed below:".
count() { sed -n "s/^\[  $1 *\] \([0-9]*\) tests\{0,1\}[.,].*/\1/p" "$logs/conformance.log" | head -1; }

run_conformance() {
  local status passed failed_tests skipped
  step "conformance suite on the $label device(s)"
  ANYGPU_BACKENDS=$name,cpu ANYGPU_TEST_DEVICES=$name timeout 180 "$build/tests/conformance_tests" \
    --gtest_filter="*/$name*" > "$logs/conformance.log" 2>&1
  status=$?
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
    failed conformance "no conformance test ran on a $label device (filter '*/$name*')"
  fi
}

# run_bench [EXTRA_FLAGS]: the benchmark program, whose "ratio ..." lines go into the summary.
run_bench() {
  local status
  step "$bench ${1:-}"
  # shellcheck disable=SC2086  # the extra flags are meant to split
  timeout 180 "$build/bench/$bench" ${1:-} > "$logs/bench.log" 2>&1
  status=$?
  cat "$logs/bench.log"
  ratios=$(grep '^ratio ' "$logs/bench.log")
  if timed_out $status; then
    failed bench "$bench timed out"
  elif [ $status -ne 0 ]; then
    failed bench "$bench failed (exit $status)"
  elif [ -z "$ratios" ] || printf '%s\n' "$ratios" | grep -q 'n/a'; then
    failed bench "$bench left a comparison without a result"
  fi
}
