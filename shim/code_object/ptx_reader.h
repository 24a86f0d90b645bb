// PTX text: its ISA version (.version), its target (.target), its kernels (.entry) and the
// variables it makes visible (.visible .global, .visible .const). The text
// ends at its end or at the first NUL (fatbins and drivers keep PTX NUL-terminated).
#pragma once

#include <string>
#include <vector>

#include "shim/code_object/byte_reader.h"
#include "shim/code_object/cuda_arch.h"

namespace anygpu {

struct PtxInfo {
  unsigned version_major = 0, version_minor = 0;  // .version 7.8
  CudaArch target;                                // .target sm_80
  std::vector<std::string> entries;               // kernel names, in order
  std::vector<std::string> globals;  // module-scope .visible .global and .const variables
};

// False with `error` when the .version or .target directive is missing or malformed.
bool read_ptx(ByteReader text, PtxInfo* info, std::string* error);

// A PTX ISA version as one comparable number: 7.8 is 708.
inline unsigned ptx_version_number(unsigned major, unsigned minor) {
  return major * 100 + minor;
}

}  // namespace anygpu
