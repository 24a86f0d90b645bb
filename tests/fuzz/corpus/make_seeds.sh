#!/usr/bin/env bash
# Regenerates the fuzz targets' handmade seeds from ptx/tiny.ptx, tiny.spvasm, tiny.c and
# tiny_host.c (the real code objects in tests/bundle/data are added to each corpus by
# run_fuzzers.sh). Needs spirv-as, cc, python3 and clang-offload-bundler-15.
set -euo pipefail
cd "$(dirname "$0")"
spirv-as tiny.spvasm -o spirv/tiny.spv
cc -c -Os tiny.c -o elf/tiny.o
cc -shared -fPIC -Os tiny_host.c -o host_image/tiny_host.so
# An anygpu portable source (shim/code_object/portable_source.h): two sources, one empty.
printf 'ANYGPU PORTABLE SOURCE 1\nfor amdgcn\ndefine N=4\nfast-math\nsource k.cu 52\n%s\nsource e.cpp 0\n' \
  '__global__ void k(float* d) { d[threadIdx.x] = N; }' > select/portable_source.txt
python3 - <<'PY'
import struct

def bundle(entries, align=8):
    """A clang offload bundle; entries as (id, bytes), packed with little alignment."""
    header = b"__CLANG_OFFLOAD_BUNDLE__" + struct.pack("<Q", len(entries))
    size = len(header) + sum(24 + len(i) for i, _ in entries)
    offsets, body = [], b""
    for _, data in entries:
        pad = (-(size + len(body))) % align
        body += b"\0" * pad
        offsets.append(size + len(body))
        body += data
    for (i, data), offset in zip(entries, offsets):
        header += struct.pack("<QQQ", offset, len(data), len(i)) + i.encode()
    return header + body

def fatbin(entries):
    """An NVIDIA fatbin; entries as (kind, sm, ptx_major, ptx_minor, flags, bytes)."""
    body = b""
    for kind, sm, major, minor, flags, data in entries:
        data += b"\0" * ((-len(data)) % 8)
        body += struct.pack("<HHIQIIHHIIIQQQ", kind, 0x101, 64, len(data), 0, 0, minor, major, sm,
                            0, 0, flags, 0, 0) + data
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body

ptx = open("ptx/tiny.ptx", "rb").read()
spirv = open("spirv/tiny.spv", "rb").read()
# A 64-byte ELF header: EM_CUDA, ELF ABI 8, sm_86 in e_flags bits 8-15.
cubin = struct.pack("<4sBBBBB7sHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0x41, 8, b"\0" * 7, 2, 190, 1,
                    0, 0, 0, 0x6005604, 64, 0, 0, 64, 0, 0)
amd = cubin[:18] + struct.pack("<H", 224) + cubin[20:48] + struct.pack("<I", 0x63F) + cubin[52:]
amd = amd[:7] + bytes([64, 3]) + amd[9:]
small_fatbin = fatbin([(2, 86, 1, 8, 0x11, cubin), (1, 80, 7, 8, 0x11, ptx + b"\0"),
                       (1, 90, 8, 0, 0x8011, b"(\xb5/\xfd compressed")])
open("fatbin/tiny.fatbin", "wb").write(small_fatbin)
open("bundle/tiny.bundle", "wb").write(bundle([
    ("host-x86_64-unknown-linux-gnu", b""), ("hip-nvptx64-nvidia-cuda--compute_90", ptx),
    ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", amd)]))
open("bundle/compressed.bundle", "wb").write(b"CCOB" + struct.pack("<HHIQ", 2, 1, 64, 100) + b"\0" * 16)
open("select/tiny.bundle", "wb").write(bundle([
    ("hip-nvptx64-nvidia-cuda--sm_86", small_fatbin), ("hip-spirv64-unknown-unknown", spirv),
    ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", amd), ("hip-nvptx64-nvidia-cuda--compute_90", ptx),
    ("host-x86_64-unknown-linux-gnu", b"")]))
PY
# The object-file form of a bundle: elf/tiny.o with one __CLANG_OFFLOAD_BUNDLE__<id> section per
# entry (its host entry is the file itself).
clang-offload-bundler-15 -type=o \
  -targets=host-x86_64-unknown-linux-gnu,hip-nvptx64-nvidia-cuda--compute_90,hip-spirv64-unknown-unknown \
  -input=elf/tiny.o -input=ptx/tiny.ptx -input=spirv/tiny.spv -output=select/object_bundle.o
cp select/object_bundle.o bundle/object_bundle.o
