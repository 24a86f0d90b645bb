#include "loaders/cpu/host_code_rules.h"

#include <elf.h>

#include "shim/support/string_format.h"

namespace anygpu::cpu {
namespace {

// "x86_64-linux-gnu" -> EM_X86_64; 0 for a machine anygpu does not run on.
uint16_t machine_of(const std::string& architecture) {
  const std::string cpu = architecture.substr(0, architecture.find('-'));
  if (cpu == "x86_64") return EM_X86_64;
  if (cpu == "aarch64") return EM_AARCH64;
  return 0;
}

class HostCodeRules final : public CodeFitRules {
 public:
  explicit HostCodeRules(const DeviceTarget& target)
      : CodeFitRules(target), machine_(machine_of(target.architecture)) {}

  bool understood() const override { return machine_ != 0; }

  Fit fit(const CodeTarget& code) const override {
    const bool elf = code.format == CodeObjectFormat::host_shared_object ||
                     code.format == CodeObjectFormat::foreign_elf;
    if (elf && code.elf_type == ET_DYN && code.elf_machine == machine_)
      return Fit{Fit::kFits, 0, 0};
    return Fit{};
  }

  std::string needs() const override {
    const std::string& architecture = target().architecture;
    return strprintf("a host code object for %s (an ELF shared object built with anygpu/kernel.h)",
                     architecture.substr(0, architecture.find('-')).c_str());
  }

 private:
  uint16_t machine_;
};

}  // namespace

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target) {
  return std::make_unique<HostCodeRules>(target);
}

}  // namespace anygpu::cpu
