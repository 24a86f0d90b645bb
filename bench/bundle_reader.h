// The entries of an anygpu bundle (docs/bundle-format.md), read by the code-object library
// (anygpu_code_object), from which cuda_bundle_entry.cpp and hip_bundle_entry.cpp pick the one a
// device runs the way a program calling the vendor API would.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace anygpu_bench {

struct BundleEntry {
  std::string id;  // "hip-nvptx64-nvidia-cuda--sm_90", "hipv4-amdgcn-amd-amdhsa--gfx90a", ...
  const unsigned char* data = nullptr;  // inside the bundle
  size_t size = 0;
};

// All the entries of `bundle`; false with `error` when it is not a bundle or is malformed.
bool read_bundle(const unsigned char* bundle, size_t size, std::vector<BundleEntry>* entries,
                 std::string* error);

// The entries' ids, ", "-separated, for a message.
std::string bundle_ids(const std::vector<BundleEntry>& entries);

}  // namespace anygpu_bench
