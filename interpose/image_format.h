// What a module image handed to the driver is and how many bytes it spans, from its own bytes:
// the load functions take no size. PTX ends at its NUL; an ELF (cubin, AMD code object) at the
// end of its furthest header, section or segment; an NVIDIA fatbin at its header's size; a clang
// offload bundle at its furthest entry. The fatbin wrapper a program hands cuModuleLoadFatBinary
// (the CUDA Runtime's __cudaRegisterFatBinary struct, magic 0x466243b1) is followed to its data.
#pragma once

#include <cstddef>

namespace anygpu::intercept {

struct ImageExtent {
  const void* data = nullptr;     // where the image starts (past a fatbin wrapper)
  size_t size = 0;                // 0: not recognised, so its size is unknown
  const char* extension = "bin";  // ptx, cubin, fatbin, hsaco or bin
};

ImageExtent image_extent(const void* image);

}  // namespace anygpu::intercept
