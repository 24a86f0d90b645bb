#include "loaders/hip/hip_code_rules.h"

#include "shim/code_object/amdgpu_target.h"
#include "shim/support/string_format.h"

namespace anygpu::hip {
namespace {

class HipCodeRules final : public CodeFitRules {
 public:
  explicit HipCodeRules(const DeviceTarget& target)
      : CodeFitRules(target), understood_(parse_amdgpu_target(target.architecture, &arch_)) {}

  bool understood() const override { return understood_; }

  Fit fit(const CodeTarget& code) const override {
    if (code.format != CodeObjectFormat::amdgpu_code_object || code.amdgpu.processor.empty())
      return Fit{};
    const int features = amdgpu_target_fit(code.amdgpu, arch_);
    return features < 0 ? Fit{} : Fit{Fit::kFits, static_cast<unsigned>(features), 0};
  }

  std::string needs() const override {
    return strprintf("an AMD code object for %s (or with xnack/sramecc unstated)",
                     amdgpu_target_name(arch_).c_str());
  }

 private:
  AmdgpuTarget arch_;
  bool understood_;
};

}  // namespace

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target) {
  return std::make_unique<HipCodeRules>(target);
}

}  // namespace anygpu::hip
