// The NVIDIA code object of an anygpu bundle that a device runs, read without anygpu's internals,
// so that the direct-driver side of anygpu_cuda_bench loads the very bytes anygpu loads.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace anygpu_cuda_bench {

struct NvidiaEntry {
  std::string id;                   // "hip-nvptx64-nvidia-cuda--sm_90", "...--compute_90"
  std::vector<unsigned char> data;  // the entry's bytes; PTX ends with a NUL, as the driver needs
};

// The entry anygpu's selection picks for a device of `device_arch` ("sm_90"): a cubin of the same
// major architecture and an equal or lower minor one (the highest such), else the PTX of the
// highest level not above the device. Architecture-specific entries (sm_90a) are left out. False
// with `error` when the bundle is malformed or holds nothing the device runs.
bool pick_nvidia_entry(const unsigned char* bundle, size_t size, const std::string& device_arch,
                       NvidiaEntry* entry, std::string* error);

}  // namespace anygpu_cuda_bench
