#!/usr/bin/env bash
# Packs what tests/gpu/run-*.sh runs from a Release build into one tar file, for a GPU machine
# that lacks the compilers or libraries to build anygpu (no clang-19, GoogleTest or a network):
# the programs, libanygpu, the kernel files they load from the build, in prebuilt-libs/ the shared
# libraries they need beyond the C and C++ runtimes (libffi, libmpfr, Google Benchmark), and in
# prebuilt-configure.log the GPU targets configure built.
#   tests/gpu/pack-build.sh BUILD_DIR OUT.tar
# On the GPU machine, with the source tree and BUILD_DIR at the same paths as here (the programs'
# RUNPATH names BUILD_DIR, test data paths name both):
#   mkdir -p BUILD_DIR && tar -xf OUT.tar -C BUILD_DIR
#   ANYGPU_GPU_PREBUILT=1 tests/gpu/run-cuda.sh BUILD_DIR
set -eu -o pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR OUT.tar" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
out=$(realpath -m "$2")
programs=(tools/anygpu-info examples/saxpy tests/conformance_tests)
for bench in "$build"/bench/anygpu_{cuda,hip,level_zero}_bench; do
  [ -x "$bench" ] && programs+=("bench/${bench##*/}")
done
# run-cuda.sh's interposer check, where the build has it (nvcc built the program).
for optional in interpose/anygpu-trace interpose/libanygpu_intercept.so \
  tests/interpose/programs/runtime_program; do
  [ -x "$build/$optional" ] && programs+=("$optional")
done
for program in "${programs[@]}"; do
  if ! [ -x "$build/$program" ]; then
    echo "$build/$program is missing: build it first (see tests/gpu/common.sh's targets)" >&2
    exit 1
  fi
done

# The libraries every Linux machine has in its own version stay out: glibc's, libstdc++, libgcc.
# Nothing is written into the build: the extra files are staged in a temporary folder.
base='^(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|libstdc\+\+|libgcc_s|linux-vdso)\.so'
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
mkdir "$staging/prebuilt-libs"
for program in "${programs[@]}"; do
  ldd "$build/$program" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r name path; do
  [[ $name =~ $base ]] || [[ $path == "$build"/* ]] || cp -L "$path" "$staging/prebuilt-libs/$name"
done

# What configure said it builds for each GPU target, which the scripts check (run-hip.sh: the AMD
# targets, run-level-zero.sh: SPIR-V), from the build's cache.
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
{
  [ "$(cache _ANYGPU_HAVE_PTX)" = ON ] &&
    echo "-- anygpu kernels: building PTX ($(cache ANYGPU_PTX_ARCHS | tr ';' ' '))"
  [ "$(cache _ANYGPU_HAVE_AMDGPU)" = ON ] &&
    echo "-- anygpu kernels: building AMD code objects ($(cache ANYGPU_AMDGPU_TARGETS | tr ';' ' '))"
  [ "$(cache _ANYGPU_HAVE_SPIRV)" = ON ] && echo "-- anygpu kernels: building SPIR-V"
  true
} > "$staging/prebuilt-configure.log"

cd "$build"
shopt -s nullglob  # a build without the barrier pass has no lib/*.so
libraries=(libanygpu.so* kernels/*.so lib/*.so)
tar -cf "$out" "${programs[@]}" "${libraries[@]}" -C "$staging" prebuilt-libs prebuilt-configure.log
echo "packed $(tar -tf "$out" | wc -l) files of $build into $out ($(du -h "$out" | cut -f1))"
