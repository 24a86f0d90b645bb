// A GPU kernel's parameter layout, read from its code object. AG_KERNEL emits, for each kernel, a
// device global `anygpu_params_<kernel>` (include/anygpu/detail/kernel_gpu.h,
// docs/kernel-dialect.md) holding a record of little-endian uint32 words:
//   magic 0x50475941 ('AYGP'), version 1, count, then per parameter: size, alignment, kind
//   (ag_param_kind).
// Offsets are not stored; they follow C rules (each parameter aligned to its alignment).
//
// Where it is read from:
//   PTX      the global's initializer (`.b8 anygpu_params_<kernel>[N] = {65, 89, ...};`, bytes
//            left out are zero). Without a record, the `.entry <kernel>(...)` `.param` list:
//            PTX cannot tell a pointer from a 64-bit integer (`.param .u64` for both), so a
//            pointer reads as an INTEGER unless it says `.ptr`; `.f16/.f32/.f64` are FLOAT,
//            `.param .align A .b8 name[N]` a STRUCT of N bytes aligned to A.
//   cubin, AMD code object (ELF)   the symbol's bytes in its section; no fallback.
//   NVIDIA fatbin                  its uncompressed PTX and cubin entries, as above.
// SPIR-V has none (the SPIR-V reader lays out its parameter types); host code objects have their
// own descriptors (kernel_host_abi.h).
#pragma once

#include <anygpu/anygpu.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shim/code_object/byte_reader.h"
#include "shim/code_object/code_object.h"

namespace anygpu {

constexpr uint32_t kParamRecordMagic = 0x50475941;  // 'AYGP'
constexpr uint32_t kParamRecordVersion = 1;
constexpr const char* kParamRecordPrefix = "anygpu_params_";

// The layout of `kernel`'s parameters, each with struct_size, kind, size, alignment and its
// offset by C rules. False with `error` (and `layout` untouched) when the code object has no
// layout for the kernel or its record is malformed. Every read is bounds-checked.
bool read_kernel_params(const CodeObject& code, const std::string& kernel,
                        std::vector<ag_param_info>* layout, std::string* error);

// Decodes the bytes of one record. False with `error` on a bad magic or version, a count the bytes
// cannot hold, a size of 0, an alignment that is not a power of two or an unknown kind.
bool decode_param_record(ByteReader record, std::vector<ag_param_info>* layout, std::string* error);

}  // namespace anygpu
