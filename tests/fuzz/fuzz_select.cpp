// Fuzz target: what agModuleLoadData does with an image before a backend sees it: detect the
// format, list a container's entries, pick one for each kind of device; and the kernel listing.
#include "fuzz_support.h"
#include "loaders/cpu/host_code_rules.h"
#include "loaders/cuda/cuda_code_rules.h"
#include "loaders/hip/hip_code_rules.h"
#include "loaders/level_zero/level_zero_code_rules.h"
#include "shim/code_object/code_object_entries.h"
#include "shim/code_object/code_object_kernels.h"
#include "shim/code_object/code_object_selection.h"

using namespace anygpu;

namespace {

// One device of each backend, by the rules in its folder (no registry, no driver).
std::unique_ptr<CodeFitRules> kDevices[] = {
    cuda::make_code_rules({"sm_86", 0}), cuda::make_code_rules({"sm_70", 0}),
    hip::make_code_rules({"gfx90a:sramecc+:xnack-", 0}), level_zero::make_code_rules({"xe", 0}),
    cpu::make_code_rules({"x86_64-linux-gnu", 0})};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  for (const auto& target : kDevices) {
    CodeObject selected{};
    std::string detail;
    if (select_for_device(*target, "", data, size, &selected, &detail) == AG_SUCCESS)
      fuzz::check_inside(data, size, selected.data, selected.size);
    else
      fuzz::check(!detail.empty());
  }
  std::vector<CodeEntry> entries;
  std::string error;
  if (!list_code_entries(detect_code_object(data, size), &entries, &error)) return 0;
  for (const CodeEntry& entry : entries) {
    fuzz::check_inside(data, size, entry.code.data, entry.code.size);
    std::vector<std::string> kernels;
    code_object_kernels(entry.code, &kernels, &error);
  }
  return 0;
}
