#!/usr/bin/env bash
# Installs an anygpu build tree into a fresh prefix, checks the installed layout, then configures,
# builds and runs the consumer project next to this script against it three ways, each in a fresh
# build dir: find_package (anygpu::anygpu), pkg-config (PkgConfig::ANYGPU) and static
# (anygpu::anygpu_static). Each run must print OK on the CPU device; the shared ones must load the
# installed libanygpu.so.0, the static one must not need it at all.
# With ANYGPU_EXPECT_BARRIER_PASS=1 (the build tree has the barrier pass), the installation must
# carry the pass plugin and every consumer must build its host code object with it, as the build
# tree does; otherwise configure must say why it does without.
# Usage: run_consumer.sh ANYGPU_BUILD_DIR WORK_DIR [cmake arguments for the consumer...]
#   WORK_DIR is removed first; it holds the prefix (WORK_DIR/prefix) and the consumer builds.
#   The arguments (generator, compilers, flags: sanitizer flags when the library has them) go to
#   every consumer configure. CMAKE (default: cmake on PATH) and ANYGPU_CONSUMER_JOBS (default 2).
set -u

fail() {
  echo "FAIL: $*"
  exit 1
}
run() {
  echo "+ $*"
  "$@"
}

[ $# -ge 2 ] || { echo "usage: $0 ANYGPU_BUILD_DIR WORK_DIR [cmake arguments...]"; exit 2; }
build_dir=$1
work_dir=$2
shift 2
source_dir=$(cd "$(dirname "$0")" && pwd)
cmake=${CMAKE:-cmake}
jobs=${ANYGPU_CONSUMER_JOBS:-2}
start=$SECONDS

rm -rf "$work_dir"
mkdir -p "$work_dir" || fail "cannot create $work_dir"
work_dir=$(cd "$work_dir" && pwd -P)
prefix=$work_dir/prefix

# ---- install and check the layout --------------------------------------------------------------
run "$cmake" --install "$build_dir" --prefix "$prefix" > "$work_dir/install.log" 2>&1 ||
  { cat "$work_dir/install.log"; fail "cmake --install $build_dir failed"; }
# The library directory: lib, lib64 or a multiarch one (lib/x86_64-linux-gnu), whatever
# GNUInstallDirs chose; the pkg-config file lies in <libdir>/pkgconfig.
pc=$(find "$prefix" -path '*/pkgconfig/anygpu.pc' | head -n 1)
[ -n "$pc" ] || fail "no <libdir>/pkgconfig/anygpu.pc under $prefix"
libdir=$(dirname "$(dirname "$pc")")
echo "libdir: ${libdir#"$prefix"/}"
expect_file() {
  [ -f "$1" ] || fail "missing from the installation: ${1#"$prefix"/}"
}
for header in anygpu.h kernel.h kernel_host_abi.h detail/kernel_gpu.h detail/kernel_host.h; do
  expect_file "$prefix/include/anygpu/$header"
done
for file in libanygpu.a cmake/anygpu/anygpuConfig.cmake cmake/anygpu/anygpuConfigVersion.cmake \
    cmake/anygpu/anygpuTargets.cmake cmake/anygpu/AnygpuKernels.cmake \
    cmake/anygpu/anygpuInstallDirs.cmake; do
  expect_file "$libdir/$file"
done
[ -x "$prefix/bin/anygpu-pack" ] || fail "missing from the installation: bin/anygpu-pack"
[ -x "$prefix/bin/anygpu-info" ] || fail "missing from the installation: bin/anygpu-info"
[ -L "$libdir/libanygpu.so" ] || fail "libanygpu.so is not a symlink (to the SONAME)"
[ "$(readlink "$libdir/libanygpu.so")" = libanygpu.so.0 ] ||
  fail "libanygpu.so -> $(readlink "$libdir/libanygpu.so"), expected libanygpu.so.0"
soname=$(readelf -d "$libdir/libanygpu.so.0" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libanygpu.so.0 ] || fail "SONAME of the installed library: '$soname'"
real=$(readlink -f "$libdir/libanygpu.so.0")
[[ $(basename "$real") =~ ^libanygpu\.so\.0\.[0-9]+\.[0-9]+$ ]] ||
  fail "libanygpu.so.0 -> $(basename "$real"), expected libanygpu.so.0.<minor>.<patch>"
plugin=$libdir/anygpu/libanygpu_barrier_pass.so
expect_pass=${ANYGPU_EXPECT_BARRIER_PASS:-0}
if [ "$expect_pass" = 1 ]; then
  expect_file "$plugin"
  echo "ok: the barrier pass plugin ${plugin#"$prefix"/}"
fi
echo "ok: headers, libanygpu.so -> libanygpu.so.0 -> $(basename "$real") (SONAME $soname)," \
  "libanygpu.a, bin/anygpu-info, bin/anygpu-pack, cmake/anygpu, pkgconfig/anygpu.pc"
# The installed anygpu-info runs and finds the installed library (its RUNPATH).
info=$(env -u LD_LIBRARY_PATH ANYGPU_BACKENDS=cpu "$prefix/bin/anygpu-info" 2>&1) ||
  { echo "$info"; fail "the installed anygpu-info failed"; }
grep -q "CPU backend" <<< "$info" || { echo "$info"; fail "anygpu-info lists no CPU device"; }
echo "ok: the installed anygpu-info runs"

# ---- the consumer, three ways ------------------------------------------------------------------
export ANYGPU_BACKENDS=cpu
unset LD_LIBRARY_PATH
for mode in find_package pkg-config static; do
  consumer_build=$work_dir/build-$mode
  echo "---- $mode"
  mode_start=$SECONDS
  # Only the prefix: no package registry, and pkg-config looks in the prefix first.
  PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" run "$cmake" \
    -S "$source_dir" -B "$consumer_build" "$@" -DANYGPU_CONSUMER_MODE="$mode" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    > "$consumer_build.configure.log" 2>&1 ||
    { cat "$consumer_build.configure.log"; fail "$mode: configuring the consumer failed"; }
  grep -E "^-- anygpu " "$consumer_build.configure.log"
  run "$cmake" --build "$consumer_build" -j "$jobs" > "$consumer_build.build.log" 2>&1 ||
    { cat "$consumer_build.build.log"; fail "$mode: building the consumer failed"; }
  program=$consumer_build/consumer
  # The host code object is built as the build tree builds its own: with the installed pass.
  host_so=$consumer_build/kernels/consumer_kernels.host.so
  if [ "$expect_pass" = 1 ]; then
    used=$(sed -n 's/^-- anygpu kernels: consumer_kernels: host code object with the barrier pass (\(.*\))$/\1/p' \
      "$consumer_build.configure.log")
    [ -n "$used" ] && [ "$used" -ef "$plugin" ] ||
      fail "$mode: configure did not build the host code object with the installed barrier pass"
    nm -D --defined-only "$host_so" | grep -q ' agk_wi_block_scale' ||
      fail "$mode: $host_so has no work-item loops (agk_wi_block_scale): the pass did not run"
    echo "ok: host code object built with the installed barrier pass"
  else
    grep -E "consumer_kernels: host code object without the barrier pass" \
      "$consumer_build.configure.log" ||
      fail "$mode: configure did not say why the host code object is built without the pass"
  fi
  # The installed package and tools were used, not the build tree's.
  case $mode in
    find_package | static)
      found=$(sed -n 's/^anygpu_DIR:PATH=//p' "$consumer_build/CMakeCache.txt")
      [ "$found" -ef "$libdir/cmake/anygpu" ] ||
        fail "$mode: find_package found anygpu in '$found', not in the prefix"
      ;;
  esac
  grep -rqsF --include='*.ninja' --include='*.make' --include=Makefile \
    "$prefix/bin/anygpu-pack" "$consumer_build" ||
    fail "$mode: the kernels were not packed with the installed anygpu-pack"
  needed=$(readelf -d "$program" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  if [ $mode = static ]; then
    [[ " $needed" != *" libanygpu"* ]] || fail "static: the program needs $needed"
  else
    [[ " $needed" == *" libanygpu.so.0 "* ]] || fail "$mode: the program needs '$needed'," \
      "not libanygpu.so.0"
    loaded=$(ldd "$program" | sed -n 's/^\s*libanygpu\.so\.0 => \(\S*\).*/\1/p')
    [ "$loaded" -ef "$libdir/libanygpu.so.0" ] ||
      fail "$mode: the program loads libanygpu.so.0 from '$loaded', not from the prefix"
  fi
  echo "ok: NEEDED $needed"
  output=$("$program" 2>&1)
  status=$?
  echo "$output"
  [ $status -eq 0 ] || fail "$mode: the consumer exited with $status"
  grep -q ": OK$" <<< "$output" || fail "$mode: the consumer did not print OK"
  echo "ok: $mode ($((SECONDS - mode_start)) s)"
done
echo "OK: find_package, pkg-config and static consumers ($((SECONDS - start)) s)"
