#include "cuda_bundle_entry.h"

#include <cstring>

#include "bundle_reader.h"

namespace anygpu_cuda_bench {
namespace {

constexpr char kNvidiaPrefix[] = "hip-nvptx64-nvidia-cuda--";

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
  std::vector<anygpu_bench::BundleEntry> entries;
  if (!anygpu_bench::read_bundle(bundle, size, &entries, error)) return false;
  unsigned best_cubin = 0, best_ptx = 0;
  const unsigned char *cubin = nullptr, *ptx = nullptr;
  size_t cubin_size = 0, ptx_size = 0;
  for (const anygpu_bench::BundleEntry& e : entries) {
    const std::string& id = e.id;
    if (id.compare(0, sizeof kNvidiaPrefix - 1, kNvidiaPrefix) != 0) continue;
    const std::string arch = id.substr(sizeof kNvidiaPrefix - 1);
    const unsigned sm = arch_number(arch, "sm_"), compute = arch_number(arch, "compute_");
    if (sm && sm / 10 == device / 10 && sm <= device && sm > best_cubin) {
      best_cubin = sm;
      cubin = e.data;
      cubin_size = e.size;
    }
    if (compute && compute <= device && compute > best_ptx) {
      best_ptx = compute;
      ptx = e.data;
      ptx_size = e.size;
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
    *error = "the bundle holds no cubin or PTX for " + device_arch +
             " (it holds: " + anygpu_bench::bundle_ids(entries) + ")";
    return false;
  }
  return true;
}

}  // namespace anygpu_cuda_bench
