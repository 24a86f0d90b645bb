#!/usr/bin/env bash
# check_amdgpu.sh READELF CODE_OBJECT TARGET_ID KERNEL_NAME...
# The code object is EM_AMDGPU; e_flags name the gfx of TARGET_ID (gfx90a, gfx90a:xnack-) and its
# xnack/sramecc settings; its metadata says the same target; its kernels (symbol and .kd
# descriptor) are exactly the kernel names.
set -euo pipefail
. "$(dirname "$0")/check_common.sh"
readelf=$1 code_object=$2 target_id=$3
shift 3
require_tool "llvm-readelf" "$readelf"

# EF_AMDGPU_MACH values (llvm/BinaryFormat/ELF.h).
gfx=${target_id%%:*}
case $gfx in
  gfx900) mach=0x2c ;; gfx906) mach=0x2f ;; gfx908) mach=0x30 ;; gfx90a) mach=0x3f ;;
  gfx940) mach=0x40 ;; gfx941) mach=0x4b ;; gfx942) mach=0x4c ;; gfx1030) mach=0x36 ;;
  gfx1100) mach=0x41 ;; gfx1101) mach=0x46 ;; gfx1102) mach=0x47 ;; gfx1200) mach=0x48 ;;
  gfx1201) mach=0x4e ;;
  *) fail "no EF_AMDGPU_MACH value known for $gfx" ;;
esac

"$readelf" --file-headers "$code_object" >"$scratch/header" || fail "cannot read $code_object"
grep -q "Machine: *EM_AMDGPU" "$scratch/header" || fail "$code_object is not EM_AMDGPU"
flags=$(sed -n 's/^ *Flags: *\(0x[0-9a-fA-F]*\).*/\1/p' "$scratch/header")
[ $((flags & 0xff)) -eq $((mach)) ] || fail "e_flags $flags do not name $gfx ($mach)"

# Code-object v4+ feature bits: xnack 0x300 and sramecc 0xc00 (on, off; any when not asked).
feature_bits() {
  case ":${target_id#$gfx}:" in
    *":$1+:"*) echo $(($2 * 3)) ;;
    *":$1-:"*) echo $(($2 * 2)) ;;
    *) echo "" ;;
  esac
}
for feature in xnack:0x100 sramecc:0x400; do
  expected=$(feature_bits "${feature%%:*}" "${feature#*:}")
  mask=$((${feature#*:} * 3))
  if [ -n "$expected" ] && [ $((flags & mask)) -ne "$expected" ]; then
    fail "e_flags $flags do not say ${feature%%:*} as $target_id asks"
  fi
done

"$readelf" --notes "$code_object" >"$scratch/notes"
grep -q "amdhsa.target: *amdgcn-amd-amdhsa--$target_id\$" "$scratch/notes" ||
  fail "the metadata's amdhsa.target is not amdgcn-amd-amdhsa--$target_id"

"$readelf" --dyn-syms -W "$code_object" >"$scratch/symbols"
awk '$4 == "FUNC" && $5 == "GLOBAL" {print $8}' "$scratch/symbols" >"$scratch/names"
awk '$4 == "OBJECT" && $8 ~ /\.kd$/ {sub(/\.kd$/, "", $8); print $8}' "$scratch/symbols" \
  >"$scratch/descriptors"
same_names "AMD $target_id (e_flags $flags)" "$scratch/names" "$@"
same_names "AMD $target_id kernel descriptors" "$scratch/descriptors" "$@" >/dev/null
