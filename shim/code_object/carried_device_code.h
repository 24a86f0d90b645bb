// What a program, library or object file built by nvcc or hipcc carries for a GPU: its device code
// sits in a section (.nv_fatbin, __nv_relfatbin, .hip_fatbin) that anygpu does not load from, so a
// refusal names that code and says how to give it to anygpu.
#pragma once

#include <string>

#include "shim/code_object/byte_reader.h"

namespace anygpu {

// "it carries device code in its .nv_fatbin section (cubin for sm_80, PTX 8.5 for sm_90); ...",
// or "" when `image` is no ELF file or has no such section.
std::string carried_device_code(ByteReader image);

}  // namespace anygpu
