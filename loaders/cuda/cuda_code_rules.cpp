#include "loaders/cuda/cuda_code_rules.h"

#include "shim/code_object/cuda_arch.h"
#include "shim/code_object/ptx_reader.h"
#include "shim/support/string_format.h"

namespace anygpu::cuda {
namespace {

class CudaCodeRules final : public CodeFitRules {
 public:
  explicit CudaCodeRules(const DeviceTarget& target)
      : CodeFitRules(target), understood_(parse_cuda_arch(target.architecture, &arch_)) {}

  bool understood() const override { return understood_; }

  Fit fit(const CodeTarget& code) const override {
    if (code.format == CodeObjectFormat::cuda_cubin && cubin_runs_on(code.cuda, arch_))
      return Fit{Fit::kPreferred, code.cuda.sm, 0};
    const unsigned newest = target().max_ir_version;
    const bool driver_takes = newest == 0 || code.ptx_version <= newest;
    if (code.format == CodeObjectFormat::ptx && ptx_runs_on(code.cuda, arch_) && driver_takes)
      return Fit{Fit::kFits, code.cuda.sm, code.ptx_version};
    return Fit{};
  }

  std::string needs() const override {
    const unsigned family = arch_.sm / 10 * 10;
    std::string cubins = "sm_" + std::to_string(arch_.sm);
    if (family != arch_.sm) cubins = "sm_" + std::to_string(family) + " to " + cubins;
    std::string text =
        strprintf("a cubin for %s, or PTX for sm_%u or older", cubins.c_str(), arch_.sm);
    if (const unsigned newest = target().max_ir_version)
      text += strprintf(" of ISA version %u.%u or older", newest / 100, newest % 100);
    return text;
  }

 private:
  CudaArch arch_;
  bool understood_;
};

}  // namespace

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target) {
  return std::make_unique<CudaCodeRules>(target);
}

}  // namespace anygpu::cuda
