#!/usr/bin/env bash
# Builds each code-object reader's fuzz target with clang's libFuzzer (plus ASan and UBSan) and
# runs it for a bounded time over its seed corpus (tests/fuzz/corpus/<target>/ and the matching
# inputs of tests/bundle/data/). Fails on any crash, leak, sanitizer report or timeout; exits 77
# (skipped) where clang++ or libFuzzer is missing.
#   run_fuzzers.sh [WORK_DIR] [SECONDS_PER_TARGET] [TARGET...]
# Environment: CLANGXX (default clang++), FUZZ_SECONDS (default 30).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${1:-$root/build/fuzz}
seconds=${2:-${FUZZ_SECONDS:-30}}
shift $(($# > 2 ? 2 : $#))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(bundle elf fatbin ptx spirv select host_image)
clangxx=${CLANGXX:-$(command -v clang++ || command -v clang++-14 || true)}

if [ -z "$clangxx" ]; then
  echo "SKIPPED: no clang++ (libFuzzer needs clang; install clang)"
  exit 77
fi
mkdir -p "$work"
probe="$work/probe_$$"
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
  > "$probe.cpp"
if ! "$clangxx" -fsanitize=fuzzer "$probe.cpp" -o "$probe" 2> "$probe.log"; then
  echo "SKIPPED: $clangxx cannot link -fsanitize=fuzzer (no libFuzzer): $(head -1 "$probe.log")"
  rm -f "$probe"*
  exit 77
fi
rm -f "$probe"*

# The code-object library (shim/CMakeLists.txt: anygpu_code_object) and, for selection, each
# backend's rules for what its devices run.
readers=("$root"/shim/support/*.cpp "$root"/shim/code_object/*.cpp)
code_objects=("$root"/loaders/*/*_code_rules.cpp)
declare -A seeds=([bundle]="*.bundle" [elf]="*.co *.cubin" [fatbin]="*.fatbin" [ptx]="*.ptx"
  [spirv]="*.spv" [select]="*.bundle *.fatbin *.co *.ptx *.spv" [host_image]="*.co *.cubin")

failed=()
for target in "${targets[@]}"; do
  sources=("${readers[@]}")
  [ "$target" = select ] && sources+=("${code_objects[@]}")
  binary="$work/fuzz_$target"
  echo "=== fuzz_$target: build"
  (cd "$root" && "$clangxx" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -Iinclude -I. "tests/fuzz/fuzz_$target.cpp" "${sources[@]}" \
    -o "$binary")
  corpus="$work/corpus_$target"
  mkdir -p "$corpus"
  cp "$here/corpus/$target"/* "$corpus/"
  (cd "$root/tests/bundle/data" && cp ${seeds[$target]} "$corpus/")
  echo "=== fuzz_$target: ${seconds} s over $(ls "$corpus" | wc -l) inputs"
  if ! "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$work/crash_${target}_" "$corpus" > "$work/fuzz_$target.log" 2>&1; then
    failed+=("$target")
    tail -40 "$work/fuzz_$target.log"
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$work/fuzz_$target.log" | tr '\n' ' '
  echo
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]} (inputs under $work/crash_*)"
  exit 1
fi
echo "every fuzz target ran ${seconds} s without a finding"
