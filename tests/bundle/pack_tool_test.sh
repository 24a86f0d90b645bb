#!/usr/bin/env bash
# anygpu-pack end to end: create from real code objects, list (a bundle, hipcc's bundle, a program
# embedding one, a fatbin), extract, and refuse bad input.
#   pack_tool_test.sh ANYGPU_PACK DATA_DIR HOST_CODE_OBJECT EMBEDDING_PROGRAM WORK_DIR PLAIN_SO
# (PLAIN_SO: a shared object that is not an anygpu host code object)
set -euo pipefail
pack=$1 data=$2 host=$3 program=$4 work=$5 plain=$6
mkdir -p "$work"
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_line() {  # expect_line OUTPUT_FILE PATTERN...: one line matches every pattern in order
  local file=$1 pattern
  shift
  pattern=$(printf '%s.*' "$@")
  grep -Eq -- "$pattern" "$file" || fail "no line in $file matches '$pattern'"
}

"$pack" create -o all.bundle --host "$host" --ptx sm_80="$data/kernels_sm80.ptx" \
  --cubin sm_90="$data/kernels_sm90.cubin" --cubin sm_80="$data/kernels_sm80.cubin" \
  --amdgpu gfx90a:xnack-="$data/gfx90a_xnack_off.co" --amdgpu gfx90a="$data/gfx90a.co" \
  --spirv "$data/kernels.spv" || fail "create"
"$pack" list all.bundle > list.txt || fail "list all.bundle"
cat list.txt
expect_line list.txt "all.bundle \(clang offload bundle\): 7 code objects"
expect_line list.txt "^  host-x86_64-unknown-linux-gnu" "host code object"
expect_line list.txt "hip-nvptx64-nvidia-cuda--compute_80" "PTX 8.5 for sm_80" "1161" "kernels: scale fill"
expect_line list.txt "hip-nvptx64-nvidia-cuda--sm_90" "cubin for sm_90" "kernels: (fill scale|scale fill)"
expect_line list.txt "hip-nvptx64-nvidia-cuda--sm_80" "cubin for sm_80"
expect_line list.txt "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-" "AMD code object for gfx90a:xnack-" "kernels: scale fill"
expect_line list.txt "hipv4-amdgcn-amd-amdhsa--gfx90a " "AMD code object for gfx90a "
expect_line list.txt "hip-spirv64-unknown-unknown" "SPIR-V module" "kernels: scale mixed"
# Entries in option order: host, PTX, cubins, AMD, SPIR-V.
[ "$(sed -n 2p list.txt | awk '{print $1}')" = host-x86_64-unknown-linux-gnu ] || fail "host first"

for pair in hip-nvptx64-nvidia-cuda--compute_80=kernels_sm80.ptx hip-nvptx64-nvidia-cuda--sm_90=kernels_sm90.cubin \
  hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-=gfx90a_xnack_off.co hip-spirv64-unknown-unknown=kernels.spv; do
  "$pack" extract all.bundle "${pair%%=*}" -o out.bin || fail "extract ${pair%%=*}"
  cmp -s out.bin "$data/${pair#*=}" || fail "extract ${pair%%=*} gives other bytes"
done
"$pack" extract all.bundle host-x86_64-unknown-linux-gnu -o out.bin && cmp -s out.bin "$host" ||
  fail "extract the host entry"

"$pack" list "$data/hipcc_gfx90a.bundle" > hipcc.txt || fail "list hipcc's bundle"
expect_line hipcc.txt "host-x86_64-unknown-linux " "empty" " 0 "
expect_line hipcc.txt "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-" "AMD code object for gfx90a:xnack-" "kernels: scale fill"

"$program" > /dev/null || fail "the embedding program runs"
"$pack" list "$program" > program.txt || fail "list a program that embeds a bundle"
cat program.txt
[ "$(grep -c 'bundle at offset' program.txt)" = 1 ] || fail "the program embeds exactly one bundle"
expect_line program.txt "bundle at offset [0-9]+: 3 code objects"
expect_line program.txt "hip-nvptx64-nvidia-cuda--compute_80" "PTX 8.5 for sm_80"
expect_line program.txt "hip-spirv64-unknown-unknown" "SPIR-V module"
"$pack" extract "$program" hipv4-amdgcn-amd-amdhsa--gfx90a:xnack- -o out.bin &&
  cmp -s out.bin "$data/gfx90a_xnack_off.co" || fail "extract from the program"

"$pack" list "$data/kernels_sm80_compute90.fatbin" > fatbin.txt || fail "list a fatbin"
expect_line fatbin.txt "fatbin entry 0" "cubin for sm_80" "kernels: (fill scale|scale fill)"
expect_line fatbin.txt "fatbin entry 1" "PTX 9.0 for sm_90"

# Refusals: wrong architecture or kind, unknown option, missing file, corrupt bundle, unknown id.
# (The work folder outlives a run: a bundle an earlier run wrote must not pass as written now.)
rm -f bad.bundle
expect_failure() {  # expect_failure STATUS PATTERN COMMAND...
  local status=$1 pattern=$2 actual=0
  shift 2
  "$@" > /dev/null 2> err.txt || actual=$?
  [ "$actual" = "$status" ] || fail "'$*' exits $actual, not $status"
  grep -Eq -- "$pattern" err.txt || fail "'$*' says '$(cat err.txt)', not '$pattern'"
}
expect_failure 1 "file is cubin for sm_80, not a cubin for sm_90" \
  "$pack" create -o bad.bundle --cubin sm_90="$data/kernels_sm80.cubin"
expect_failure 1 "not an AMD code object for gfx90a:xnack\+" \
  "$pack" create -o bad.bundle --amdgpu gfx90a:xnack+="$data/gfx90a_xnack_off.co"
expect_failure 1 "not PTX for sm_90" "$pack" create -o bad.bundle --ptx sm_90="$data/kernels_sm80.ptx"
expect_failure 1 "not SPIR-V" "$pack" create -o bad.bundle --spirv "$data/kernels_sm80.ptx"
expect_failure 1 "not a host code object" "$pack" create -o bad.bundle --host "$data/gfx90a.co"
# Issue 15, defects 1 and 10: a host entry is an anygpu host code object, checked as the CPU
# backend checks it before loading, not any x86-64 shared object.
expect_failure 1 "the file is host code object \(x86_64\), not an anygpu host code object: it exports no anygpu_host_abi\(\)" \
  "$pack" create -o bad.bundle --host "$plain"
head -c 20000 "$host" > truncated.host.so
expect_failure 1 "not an anygpu host code object: program header [0-9]+ \(PT_LOAD\) bytes [0-9]+\.\.[0-9]+ lie past the image's end \(20000 bytes\)" \
  "$pack" create -o bad.bundle --host truncated.host.so
expect_failure 1 "is not an anygpu host code object and carries no offload bundle: it exports no anygpu_host_abi" \
  "$pack" list "$plain"
"$pack" list "$host" > host.txt || fail "list a host code object"
expect_line host.txt "host code object \(x86_64\)" "kernels: .*vector_add"
expect_failure 1 "cannot open" "$pack" create -o bad.bundle --spirv "$data/missing.spv"
expect_failure 2 "usage" "$pack" create -o bad.bundle --metal "$data/kernels.spv"
expect_failure 2 "usage" "$pack" create --spirv "$data/kernels.spv"
[ ! -e bad.bundle ] || fail "a refused create writes nothing"
head -c 100 all.bundle > truncated.bundle
expect_failure 1 "malformed clang offload bundle: it declares 7 entries, more than its 100 bytes" \
  "$pack" list truncated.bundle
expect_failure 1 "no entry 'hip-nvptx64-nvidia-cuda--sm_70'" \
  "$pack" extract all.bundle hip-nvptx64-nvidia-cuda--sm_70 -o out.bin

# Issue 15, defect 7: a failed write removed its output path, device nodes included. An output
# that exists and is not a regular file is refused and left alone; a write that fails leaves the
# previous file as it was and no temporary file behind.
rm -f fifo && mkfifo fifo
expect_failure 1 "fifo exists and is not a regular file" \
  "$pack" create -o fifo --spirv "$data/kernels.spv"
[ -p fifo ] || fail "a refused output that is a FIFO is still there"
expect_failure 1 "/dev/null exists and is not a regular file" \
  "$pack" create -o /dev/null --spirv "$data/kernels.spv"
[ -c /dev/null ] || fail "/dev/null is still a character device"
expect_failure 1 "cannot create missing-dir/out.bundle" \
  "$pack" create -o missing-dir/out.bundle --spirv "$data/kernels.spv"
cp all.bundle kept.bundle
mkdir -p readonly && cp all.bundle readonly/kept.bundle && chmod 555 readonly
if [ "$(id -u)" != 0 ]; then  # root writes into a read-only folder anyway
  expect_failure 1 "cannot create readonly/kept.bundle" \
    "$pack" create -o readonly/kept.bundle --spirv "$data/kernels.spv"
  cmp -s all.bundle readonly/kept.bundle || fail "a failed write changed the file it replaces"
fi
chmod 755 readonly
"$pack" create -o kept.bundle --spirv "$data/kernels.spv" || fail "replace a regular file"
"$pack" list kept.bundle | grep -q "1 code object" || fail "the replaced file is the new bundle"
[ -z "$(ls -A . | grep '^\.anygpu-pack-')" ] || fail "a temporary file was left behind"

[ "$failures" = 0 ] && echo "anygpu-pack: all checks passed"
exit $((failures > 0))
