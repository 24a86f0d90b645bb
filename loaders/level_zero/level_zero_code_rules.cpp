#include "loaders/level_zero/level_zero_code_rules.h"

namespace anygpu::level_zero {
namespace {

class LevelZeroCodeRules final : public CodeFitRules {
 public:
  using CodeFitRules::CodeFitRules;

  bool understood() const override { return true; }
  Fit fit(const CodeTarget& code) const override {
    return code.format == CodeObjectFormat::spirv ? Fit{Fit::kFits, 0, 0} : Fit{};
  }
  std::string needs() const override { return "a SPIR-V module"; }
};

}  // namespace

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target) {
  return std::make_unique<LevelZeroCodeRules>(target);
}

}  // namespace anygpu::level_zero
