#!/usr/bin/env bash
# Proves that anygpu builds with no CUDA toolkit in sight and that libanygpu.so names no CUDA
# library or symbol: inside a private mount namespace (unshare -rm), empty tmpfs mounts hide the
# toolkit and /usr/local/bin (whose nvcc/ptxas wrappers call into it); a fresh build of anygpu,
# anygpu-info and the saxpy example follows, then its libraries and programs are checked and run.
# Exit 77 (skipped) where user namespaces or the mounts are not permitted.
# Usage: build_without_cuda.sh SOURCE_DIR BUILD_DIR [C_COMPILER CXX_COMPILER]
#   BUILD_DIR is removed first. ANYGPU_NO_CUDA_JOBS sets the build's parallelism (default 2).
set -u

skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*"
  exit 1
}

if [ "${1:-}" != --inside ]; then
  [ $# -ge 2 ] || { echo "usage: $0 SOURCE_DIR BUILD_DIR [C_COMPILER CXX_COMPILER]"; exit 2; }
  command -v unshare > /dev/null || skip "unshare (util-linux) is not installed"
  unshare -rm true 2> /dev/null ||
    skip "unshare -rm is not permitted here (no unprivileged user namespaces), so the CUDA toolkit cannot be hidden"
  exec unshare -rm "$0" --inside "$@"
fi
shift

source_dir=$1
build_dir=$2
c_compiler=${3:-cc}
cxx_compiler=${4:-c++}
jobs=${ANYGPU_NO_CUDA_JOBS:-2}

# ---- hide the toolkit ------------------------------------------------------------------------
hidden=()
for dir in /usr/local/cuda ${CUDA_PATH:-} ${CUDA_HOME:-} /usr/local/bin; do
  [ -e "$dir" ] || continue
  real=$(readlink -f "$dir")
  [ -d "$real" ] || continue
  case " ${hidden[*]:-} " in *" $real "*) continue ;; esac
  mount -t tmpfs -o size=1m none "$real" 2> /dev/null ||
    skip "cannot mount a tmpfs over $real inside the user namespace"
  hidden+=("$real")
done
unset CUDA_PATH CUDA_HOME CUDA_ROOT CUDAToolkit_ROOT
echo "hidden behind empty tmpfs mounts: ${hidden[*]:-nothing (no toolkit found)}"
for tool in nvcc ptxas fatbinary nvlink; do
  found=$(command -v "$tool") &&
    skip "a CUDA toolkit outside the hidden directories is still visible: $found"
done
for compiler in "$c_compiler" "$cxx_compiler"; do
  command -v "$compiler" > /dev/null ||
    skip "the compiler $compiler lives in a hidden directory; pass another one"
done
echo "ok: no nvcc, ptxas, fatbinary or nvlink on PATH"

# ---- configure and build from scratch --------------------------------------------------------
start=$SECONDS
rm -rf "$build_dir"
configure_log=$(cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$c_compiler" -DCMAKE_CXX_COMPILER="$cxx_compiler" \
  -DANYGPU_BUILD_TESTS=OFF -DANYGPU_BUILD_BENCHMARKS=OFF -DANYGPU_BUILD_EXAMPLES=ON 2>&1) || {
  printf '%s\n' "$configure_log"
  fail "configure failed without the CUDA toolkit"
}
printf '%s\n' "$configure_log" | grep 'anygpu kernels:'
printf '%s\n' "$configure_log" | grep -q 'anygpu kernels: no cubins' ||
  fail "configure did not say that cubins are skipped"
echo "ok: configure skips cubins"
cmake --build "$build_dir" -j "$jobs" --target anygpu anygpu-info saxpy > "$build_dir/build.log" 2>&1 || {
  tail -40 "$build_dir/build.log"
  fail "the build failed without the CUDA toolkit (log: $build_dir/build.log)"
}
echo "ok: built anygpu, anygpu-info and saxpy in $((SECONDS - start)) s (-j$jobs)"

# ---- what libanygpu.so depends on ------------------------------------------------------------
library=$build_dir/libanygpu.so
needed=$(readelf -d "$library" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
# Anchored at "lib", so that e.g. libicudata does not read as CUDA.
vendor=$(printf '%s\n' "$needed" | grep -Ei '^lib(cuda|nvidia|nvrtc|amdhip|hip|hsa|ze_loader)')
[ -z "$vendor" ] || fail "libanygpu.so links a vendor library: $vendor"
echo "ok: libanygpu.so needs only: $(echo $needed)"
cu_symbols=$(nm -D --undefined-only "$library" | awk '{print $NF}' | grep '^cu')
[ -z "$cu_symbols" ] || fail "libanygpu.so has undefined cu* symbols: $(echo $cu_symbols)"
echo "ok: no undefined cu* symbol in libanygpu.so"

# ---- it runs ---------------------------------------------------------------------------------
saxpy_output=$("$build_dir/examples/saxpy" 1000003 2>&1)
saxpy_status=$?
printf '%s\n' "$saxpy_output" | sed 's/^/  saxpy: /'
[ $saxpy_status -eq 0 ] && printf '%s\n' "$saxpy_output" | grep -qx OK ||
  fail "the saxpy example did not print OK (exit $saxpy_status)"
echo "ok: saxpy runs"
info_output=$("$build_dir/tools/anygpu-info" 2>&1) || {
  printf '%s\n' "$info_output"
  fail "anygpu-info failed"
}
printf '%s\n' "$info_output" | sed 's/^/  anygpu-info: /'
echo "PASS: built and ran without a CUDA toolkit in $((SECONDS - start)) s"
