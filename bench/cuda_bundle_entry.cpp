#include "cuda_bundle_entry.h"

#include <cstdint>
#include <cstring>

namespace anygpu_cuda_bench {
namespace {

// docs/bundle-format.md: magic, entry count, then per entry offset, size, id length, id.
constexpr char kMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr size_t kMagicSize = sizeof kMagic - 1;
constexpr char kNvidiaPrefix[] = "hip-nvptx64-nvidia-cuda--";

bool read_u64(const unsigned char* bundle, size_t size, size_t* position, uint64_t* value) {
  if (size < sizeof *value || *position > size - sizeof *value) return false;
  std::memcpy(value, bundle + *position, sizeof *value);  // little-endian, as is the host
  *position += sizeof *value;
  return true;
}

// "sm_90" or "compute_90" after `prefix`: 90. 0 for anything else, suffixed ones included.
unsigned arch_number(const std::string& text, const char* prefix) {
  const size_t length = std::strlen(prefix);
  if (text.compare(0, length, prefix) != 0 || text.size() == length) return 0;
  unsigned value = 0;
  for (size_t i = length; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return 0;
    value = value * 10 + static_cast<unsigned>(text[i] - '0');
  }
  return value;
}

}  // namespace

bool pick_nvidia_entry(const unsigned char* bundle, size_t size, const std::string& device_arch,
                       NvidiaEntry* entry, std::string* error) {
  const unsigned device = arch_number(device_arch, "sm_");
  if (device == 0) {
    *error = "not an NVIDIA architecture: " + device_arch;
    return false;
  }
  if (size < kMagicSize || std::memcmp(bundle, kMagic, kMagicSize) != 0) {
    *error = "the embedded image is not an anygpu bundle";
    return false;
  }
  size_t position = kMagicSize;
  uint64_t count = 0;
  if (!read_u64(bundle, size, &position, &count)) {
    *error = "truncated bundle header";
    return false;
  }
  unsigned best_cubin = 0, best_ptx = 0;
  const unsigned char *cubin = nullptr, *ptx = nullptr;
  size_t cubin_size = 0, ptx_size = 0;
  std::string found;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t offset = 0, bytes = 0, id_length = 0;
    if (!read_u64(bundle, size, &position, &offset) || !read_u64(bundle, size, &position, &bytes) ||
        !read_u64(bundle, size, &position, &id_length) || id_length > size - position ||
        offset > size || bytes > size - offset) {
      *error = "malformed bundle entry " + std::to_string(i);
      return false;
    }
    const std::string id(reinterpret_cast<const char*>(bundle + position), id_length);
    position += id_length;
    found += (found.empty() ? "" : ", ") + id;
    if (id.compare(0, sizeof kNvidiaPrefix - 1, kNvidiaPrefix) != 0) continue;
    const std::string arch = id.substr(sizeof kNvidiaPrefix - 1);
    const unsigned sm = arch_number(arch, "sm_"), compute = arch_number(arch, "compute_");
    if (sm && sm / 10 == device / 10 && sm <= device && sm > best_cubin) {
      best_cubin = sm;
      cubin = bundle + offset;
      cubin_size = bytes;
    }
    if (compute && compute <= device && compute > best_ptx) {
      best_ptx = compute;
      ptx = bundle + offset;
      ptx_size = bytes;
    }
  }
  if (cubin) {
    entry->id = kNvidiaPrefix + ("sm_" + std::to_string(best_cubin));
    entry->data.assign(cubin, cubin + cubin_size);
  } else if (ptx) {
    entry->id = kNvidiaPrefix + ("compute_" + std::to_string(best_ptx));
    entry->data.assign(ptx, ptx + ptx_size);
    entry->data.push_back(0);
  } else {
    *error = "the bundle holds no cubin or PTX for " + device_arch + " (it holds: " + found + ")";
    return false;
  }
  return true;
}

}  // namespace anygpu_cuda_bench
