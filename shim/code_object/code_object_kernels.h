// The kernel names a code object holds, as `anygpu-pack list` shows them: PTX .entry names, SPIR-V
// kernel entry points, cubin symbols marked STO_CUDA_ENTRY, AMD code objects' NAME.kd kernel
// descriptors, host code objects' anygpu_kernel_NAME exports.
#pragma once

#include <string>
#include <vector>

#include "shim/code_object/code_object.h"

namespace anygpu {

// False with `error` when the code object cannot be read far enough to find them.
bool code_object_kernels(const CodeObject& code, std::vector<std::string>* kernels,
                         std::string* error);

}  // namespace anygpu
