#include "hip_bundle_entry.h"

#include <utility>

#include "bundle_reader.h"

namespace anygpu_hip_bench {
namespace {

constexpr char kAmdPrefix[] = "hipv4-amdgcn-amd-amdhsa--";

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
  std::vector<anygpu_bench::BundleEntry> entries;
  if (!anygpu_bench::read_bundle(bundle, size, &entries, error)) return false;
  int best = -1;
  for (const anygpu_bench::BundleEntry& e : entries) {
    const std::string& id = e.id;
    Target target;
    if (id.rfind(kAmdPrefix, 0) != 0 || !parse_target(id.substr(sizeof kAmdPrefix - 1), &target))
      continue;
    const int score = fit(target, device);
    if (score > best) {
      best = score;
      entry->id = id;
      entry->data.assign(e.data, e.data + e.size);
    }
  }
  if (best < 0) {
    *error = "the bundle holds no code object for " + device_arch + " (it holds " +
             anygpu_bench::bundle_ids(entries) + ")";
    return false;
  }
  return true;
}

}  // namespace anygpu_hip_bench
