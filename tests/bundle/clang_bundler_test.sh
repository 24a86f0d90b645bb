#!/usr/bin/env bash
# LLVM's own tool reads anygpu's bundles: clang-offload-bundler -list shows every entry id and
# -unbundle gives back each entry's bytes; and anygpu-pack lists a bundle clang-offload-bundler
# wrote with the same ids. Skips (77) where clang-offload-bundler-15 is not installed
# (Debian package clang-tools-15).
#   clang_bundler_test.sh ANYGPU_PACK DATA_DIR HOST_SHARED_OBJECT WORK_DIR
set -euo pipefail
pack=$1 data=$2 host=$3 work=$4
bundler=$(command -v clang-offload-bundler-15 || true)
if [ -z "$bundler" ]; then
  echo "SKIPPED: clang-offload-bundler-15 is not installed (apt-get install clang-tools-15)"
  exit 77
fi
mkdir -p "$work"
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

declare -A files=(
  [host-x86_64-unknown-linux-gnu]="$host"
  [hip-nvptx64-nvidia-cuda--compute_80]="$data/kernels_sm80.ptx"
  [hip-nvptx64-nvidia-cuda--sm_80]="$data/kernels_sm80.cubin"
  [hip-nvptx64-nvidia-cuda--sm_90]="$data/kernels_sm90.cubin"
  [hipv4-amdgcn-amd-amdhsa--gfx90a]="$data/gfx90a.co"
  [hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+]="$data/gfx90a_xnack_on.co"
  [hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-]="$data/gfx90a_xnack_off.co"
  [hip-spirv64-unknown-unknown]="$data/kernels.spv"
)
"$pack" create -o anygpu.bundle --host "$host" --ptx sm_80="$data/kernels_sm80.ptx" \
  --cubin sm_80="$data/kernels_sm80.cubin" --cubin sm_90="$data/kernels_sm90.cubin" \
  --amdgpu gfx90a="$data/gfx90a.co" --amdgpu gfx90a:xnack+="$data/gfx90a_xnack_on.co" \
  --amdgpu gfx90a:xnack-="$data/gfx90a_xnack_off.co" --spirv "$data/kernels.spv"

"$bundler" -list -type=o -input=anygpu.bundle | sort > listed.txt
printf '%s\n' "${!files[@]}" | sort > expected.txt
diff expected.txt listed.txt || fail "clang-offload-bundler -list shows other ids"
for id in "${!files[@]}"; do
  rm -f unbundled.bin
  "$bundler" -unbundle -type=o -targets="$id" -input=anygpu.bundle -output=unbundled.bin ||
    fail "clang-offload-bundler -unbundle -targets=$id"
  cmp -s unbundled.bin "${files[$id]}" || fail "-unbundle -targets=$id gives other bytes"
done

# clang-offload-bundler writes the binary format for a host input that is not an object file
# (hipcc passes /dev/null), and an ELF file with one section per entry for one that is.
ids=$(printf '%s,' "${!files[@]}")
for host_input in /dev/null "$host"; do
  inputs=()
  for id in "${!files[@]}"; do
    [[ $id == host-* ]] && inputs+=("-input=$host_input") || inputs+=("-input=${files[$id]}")
  done
  "$bundler" -type=o -targets="${ids%,}" "${inputs[@]}" -output=clang.bundle
  "$pack" list clang.bundle > clang_list.txt || fail "anygpu-pack list on clang's bundle"
  cat clang_list.txt
  for id in "${!files[@]}"; do
    grep -q -- "^  $id " clang_list.txt || fail "anygpu-pack does not list $id ($host_input)"
  done
  [ "$(grep -c 'unknown format\|malformed\|unreadable' clang_list.txt)" = 0 ] ||
    fail "an entry of clang's bundle is unread ($host_input)"
  "$pack" extract clang.bundle hipv4-amdgcn-amd-amdhsa--gfx90a:xnack- -o out.bin &&
    cmp -s out.bin "$data/gfx90a_xnack_off.co" || fail "extract from clang's bundle ($host_input)"
done

[ "$failures" = 0 ] && echo "clang-offload-bundler-15 lists and unbundles every entry"
exit $((failures > 0))
