// The AMD code object of an anygpu bundle that a HIP device runs, read without anygpu's internals,
// so that the direct-runtime side of anygpu_hip_bench loads the very bytes anygpu loads.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace anygpu_hip_bench {

struct AmdEntry {
  std::string id;                   // "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-"
  std::vector<unsigned char> data;  // the code object
};

// The entry anygpu's selection picks for a device whose gcnArchName is `device_arch`
// ("gfx90a:sramecc+:xnack-"): a code object for the same processor whose xnack and sramecc
// settings fit (unstated fits either, '+' only '+', '-' only '-'), the one stating most of them
// first. False with `error` when the bundle is malformed or holds nothing the device runs.
bool pick_amd_entry(const unsigned char* bundle, size_t size, const std::string& device_arch,
                    AmdEntry* entry, std::string* error);

}  // namespace anygpu_hip_bench
