// Fuzz target: what agModuleLoadData does with an image before a backend sees it: detect the
// format, list a container's entries, pick one for each kind of device; and the kernel listing.
#include "fuzz_support.h"
#include "shim/code_object_entries.h"
#include "shim/code_object_kernels.h"
#include "shim/code_object_selection.h"

using namespace anygpu;

namespace {

DeviceTarget device(ag_backend_kind backend, const char* architecture) {
  DeviceTarget target;
  target.backend = backend;
  target.architecture = architecture;
  return target;
}

const DeviceTarget kDevices[] = {device(AG_BACKEND_CUDA, "sm_86"), device(AG_BACKEND_CUDA, "sm_70"),
                                 device(AG_BACKEND_HIP, "gfx90a:sramecc+:xnack-"),
                                 device(AG_BACKEND_LEVEL_ZERO, "xe"),
                                 device(AG_BACKEND_CPU, "x86_64-linux-gnu")};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  for (const DeviceTarget& target : kDevices) {
    CodeObject selected{};
    std::string detail;
    if (select_for_device(target, data, size, &selected, &detail) == AG_SUCCESS)
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
