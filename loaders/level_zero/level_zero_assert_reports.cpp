#include "level_zero_assert_reports.h"

#include "level_zero_result.h"
#include "shim/core/error.h"

namespace anygpu::level_zero {
namespace {

constexpr const char* kReportVariable = "__anygpu_assert_report";
constexpr size_t kWordAlignment = 64;

}  // namespace

ag_result AssertReports::attach(ZeModule* module, const CopyToDevice& copy) {
  void* variable = nullptr;
  size_t bytes = 0;
  if (ze_.zeModuleGetGlobalPointer(module->module, kReportVariable, &bytes, &variable) !=
          ZE_RESULT_SUCCESS ||
      bytes != sizeof(void*))
    return AG_SUCCESS;  // built without kernel_assert.h (or not by anygpu): nothing to report
  ze_host_mem_alloc_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  void* word = nullptr;
  if (ze_result_t r =
          ze_.zeMemAllocHost(context_, &desc, sizeof(unsigned int), kWordAlignment, &word))
    return ze_fail(r, "zeMemAllocHost", "the word a SPIR-V kernel's failed assert writes");
  *static_cast<unsigned int*>(word) = 0;
  if (ag_result r = copy(variable, &word, sizeof word)) {
    ze_.zeMemFree(context_, word);
    return r;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  words_[module] = static_cast<unsigned int*>(word);
  return AG_SUCCESS;
}

void AssertReports::detach(ZeModule* module) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = words_.find(module);
  if (found == words_.end()) return;
  ze_.zeMemFree(context_, found->second);
  words_.erase(found);
}

ag_result AssertReports::check() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [module, word] : words_) {
    const unsigned int line = __atomic_exchange_n(word, 0u, __ATOMIC_ACQ_REL);
    if (line != 0)
      return fail(AG_ERROR_LAUNCH_FAILED,
                  "a kernel failed an assertion (at line %u of its source); SPIR-V cannot stop a "
                  "kernel, so its work-items ran on past it and the launch's results are not to "
                  "be trusted",
                  line);
  }
  return AG_SUCCESS;
}

}  // namespace anygpu::level_zero
