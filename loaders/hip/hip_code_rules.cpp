#include "loaders/hip/hip_code_rules.h"

#include "shim/code_object/amdgpu_target.h"
#include "shim/support/string_format.h"

namespace anygpu::hip {
namespace {

class HipCodeRules final : public CodeFitRules {
 public:
  explicit HipCodeRules(const DeviceTarget& target)
      : CodeFitRules(target), understood_(parse_amdgpu_target(target.architecture, &arch_)) {
    if (understood_ && target.max_ir_version >= kGenericCodeObjectVersion) {
      generic_ = arch_;  // the device's features, on the generic processor
      generic_.processor = amdgpu_generic_processor(arch_.processor);
    }
  }

  bool understood() const override { return understood_; }

  // A code object for the device's processor; below it, one for its generic target (a runtime
  // that loads code object v6 runs it on every processor of the family).
  Fit fit(const CodeTarget& code) const override {
    if (code.format != CodeObjectFormat::amdgpu_code_object || code.amdgpu.processor.empty())
      return Fit{};
    int features = amdgpu_target_fit(code.amdgpu, arch_);
    if (features >= 0) return Fit{Fit::kFits, 1, static_cast<unsigned>(features)};
    if (generic_.processor.empty() || code.amdgpu.processor != generic_.processor) return Fit{};
    features = amdgpu_target_fit(code.amdgpu, generic_);
    return features < 0 ? Fit{} : Fit{Fit::kFits, 0, static_cast<unsigned>(features)};
  }

  std::string needs() const override {
    std::string text = strprintf("an AMD code object for %s (or with xnack/sramecc unstated)",
                                 amdgpu_target_name(arch_).c_str());
    if (!generic_.processor.empty()) text += " or for " + generic_.processor;
    return text;
  }

 private:
  static constexpr unsigned kGenericCodeObjectVersion = 6;
  AmdgpuTarget arch_;
  AmdgpuTarget generic_;  // processor "" where the device runs no generic code object
  bool understood_;
};

}  // namespace

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target) {
  return std::make_unique<HipCodeRules>(target);
}

}  // namespace anygpu::hip
