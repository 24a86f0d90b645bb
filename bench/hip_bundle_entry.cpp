#include "hip_bundle_entry.h"

#include <cstdint>
#include <cstring>
#include <utility>

namespace anygpu_hip_bench {
namespace {

// docs/bundle-format.md: magic, entry count, then per entry offset, size, id length, id.
constexpr char kMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr size_t kMagicSize = sizeof kMagic - 1;
constexpr char kAmdPrefix[] = "hipv4-amdgcn-amd-amdhsa--";

bool read_u64(const unsigned char* bundle, size_t size, size_t* position, uint64_t* value) {
  if (size < sizeof *value || *position > size - sizeof *value) return false;
  std::memcpy(value, bundle + *position, sizeof *value);  // little-endian, as is the host
  *position += sizeof *value;
  return true;
}

// A target id: the processor, and per feature '+', '-' or 0 (unstated).
struct Target {
  std::string processor;
  char sramecc = 0, xnack = 0;
};

bool parse_target(const std::string& text, Target* target) {
  size_t start = 0, colon = text.find(':');
  target->processor = text.substr(0, colon);
  if (target->processor.rfind("gfx", 0) != 0) return false;
  while (colon != std::string::npos) {
    start = colon + 1;
    colon = text.find(':', start);
    const std::string feature =
        text.substr(start, colon == std::string::npos ? colon : colon - start);
    if (feature.size() < 2 || (feature.back() != '+' && feature.back() != '-')) return false;
    const std::string name = feature.substr(0, feature.size() - 1);
    if (name == "sramecc")
      target->sramecc = feature.back();
    else if (name == "xnack")
      target->xnack = feature.back();
    else
      return false;
  }
  return true;
}

// -1: does not fit; otherwise the number of features both state.
int fit(const Target& code, const Target& device) {
  if (code.processor != device.processor) return -1;
  int stated = 0;
  for (auto [c, d] :
       {std::pair{code.sramecc, device.sramecc}, std::pair{code.xnack, device.xnack}}) {
    if (c == 0) continue;
    if (c != d) return -1;
    ++stated;
  }
  return stated;
}

}  // namespace

bool pick_amd_entry(const unsigned char* bundle, size_t size, const std::string& device_arch,
                    AmdEntry* entry, std::string* error) {
  Target device;
  if (!parse_target(device_arch, &device)) {
    *error = "not an AMD target id: " + device_arch;
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
  int best = -1;
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
    Target target;
    if (id.rfind(kAmdPrefix, 0) != 0 || !parse_target(id.substr(sizeof kAmdPrefix - 1), &target))
      continue;
    const int score = fit(target, device);
    if (score > best) {
      best = score;
      entry->id = id;
      entry->data.assign(bundle + offset, bundle + offset + bytes);
    }
  }
  if (best < 0) {
    *error = "the bundle holds no code object for " + device_arch + " (it holds " + found + ")";
    return false;
  }
  return true;
}

}  // namespace anygpu_hip_bench
