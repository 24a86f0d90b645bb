#!/usr/bin/env bash
# A new backend is a folder, one line in loaders/backend_list.inc and one enum value: copies the
# source tree, adds tests/stub_backend/stub as loaders/stub with exactly those two edits, checks
# that nothing else differs, builds libanygpu and anygpu-info from the copy with -Werror (a switch
# on the backend kind anywhere would now warn) and checks that anygpu-info lists the stub backend,
# unavailable with its reason, next to the CPU device.
#   check_stub_backend.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir=$1
work=$2
copy=$work/src
rm -rf "$work"
mkdir -p "$copy"

# The tree as git sees it (tracked and new files, not the build folders).
(cd "$source_dir" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 cp --parents -t "$copy" 2>/dev/null || true)
[ -f "$copy/loaders/backend_list.inc" ] || { echo "copying $source_dir failed"; exit 1; }
pristine=$work/pristine
cp -a "$copy" "$pristine"

# The three steps of docs/architecture.md, "Adding a backend".
cp -r "$source_dir/tests/stub_backend/stub" "$copy/loaders/stub"
echo 'ANYGPU_BACKEND(stub)' >> "$copy/loaders/backend_list.inc"
sed -i 's/^  AG_BACKEND_CPU = 4,$/&\n  AG_BACKEND_STUB = 5,/' "$copy/include/anygpu/anygpu.h"
grep -q 'AG_BACKEND_STUB = 5' "$copy/include/anygpu/anygpu.h" ||
  { echo "could not add the enum value to anygpu.h"; exit 1; }

changed=$( (diff -rq "$pristine" "$copy" || true) | sed "s|$pristine/||; s|$copy/||" | sort)
echo "files the stub backend touches:"
echo "$changed" | sed 's/^/  /'
expected=$(printf '%s\n' "Files include/anygpu/anygpu.h and include/anygpu/anygpu.h differ" \
  "Files loaders/backend_list.inc and loaders/backend_list.inc differ" \
  "Only in loaders: stub" | sort)
if [ "$changed" != "$expected" ]; then
  echo "FAIL: expected exactly the new folder, the list line and the enum value"
  exit 1
fi

build=$work/build
cmake -S "$copy" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-O0 \
  -DANYGPU_BUILD_TESTS=OFF -DANYGPU_BUILD_BENCHMARKS=OFF -DANYGPU_BUILD_EXAMPLES=OFF \
  -DANYGPU_CPU_BARRIER_PASS=OFF -DANYGPU_WERROR=ON > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$build" --target anygpu-info > "$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log"; exit 1; }

info=$("$build/tools/anygpu-info")
echo "$info"
echo "$info" | grep -Eq '^  Stub +unavailable: libanygpu_stub_driver\.so\.1 not found' ||
  { echo "FAIL: anygpu-info does not list the stub backend, unavailable with its reason"; exit 1; }
echo "$info" | grep -Eq '^  CPU +available' || { echo "FAIL: the CPU backend is gone"; exit 1; }
json=$("$build/tools/anygpu-info" --json)
echo "$json" | grep -q '"name": "stub", "available": false' ||
  { echo "FAIL: anygpu-info --json does not list the stub backend"; exit 1; }
# Selected alone, the stub is refused cleanly: no device, a reason, exit 0.
only=$(ANYGPU_BACKENDS=stub "$build/tools/anygpu-info")
echo "$only" | grep -q 'Devices: none' || { echo "FAIL: ANYGPU_BACKENDS=stub: $only"; exit 1; }
echo "PASS: a backend is a folder, one list line and one enum value"
