#include "loaders/hip/hip_compilers.h"

#include <memory>
#include <string>
#include <utility>

#include "loaders/checked_compiler.h"
#include "loaders/hip/hip_clang_compiler.h"
#include "loaders/hip/hiprtc_compiler.h"
#include "shim/core/error.h"

namespace anygpu::hip {
namespace {

// `first`, and `second` for what `first` cannot compile (a target beyond it, a tool it cannot
// run); the other way round for a portable source, which the build compiled with `second`'s
// compiler (clang-19): hiprtc compiles it with other headers and options.
class FirstThatCompiles final : public CheckedCompiler {
 public:
  FirstThatCompiles(std::unique_ptr<RuntimeCompiler> first, std::unique_ptr<RuntimeCompiler> second)
      : first_(std::move(first)), second_(std::move(second)) {}

  // Both, in the order tried: the on-disk cache's key holds it, so it must not depend on which
  // of the two a compile took.
  std::string identity() const override {
    return first_->identity() + "; else " + second_->identity();
  }
  bool links_sources() const override {
    return first_->links_sources() || second_->links_sources();
  }

 private:
  ag_result compile_checked(const CompileRequest& request, CompileOutput& output) override {
    RuntimeCompiler* first = first_.get();
    RuntimeCompiler* second = second_.get();
    if (request.from_portable_source) std::swap(first, second);
    const ag_result result = first->compile(request, output);
    if (result != AG_ERROR_NOT_SUPPORTED) return result;
    const std::string why = last_error_reason();
    const ag_result other = second->compile(request, output);
    // Says in the log why the other compiled (its own log starts empty).
    output.log.insert(0, "anygpu: " + why + "; compiled with " + second->identity() + "\n");
    return other;
  }

  std::unique_ptr<RuntimeCompiler> first_, second_;
};

}  // namespace

std::unique_ptr<RuntimeCompiler> make_runtime_compiler(std::string& reason) {
  std::string hiprtc_reason, clang_reason;
  std::unique_ptr<RuntimeCompiler> hiprtc = make_hiprtc_compiler(hiprtc_reason);
  std::unique_ptr<RuntimeCompiler> clang = make_clang_compiler(clang_reason);
  if (hiprtc && clang)
    return std::make_unique<FirstThatCompiles>(std::move(hiprtc), std::move(clang));
  if (hiprtc) return hiprtc;
  if (clang) return clang;
  reason = hiprtc_reason + "; and " + clang_reason;
  return nullptr;
}

}  // namespace anygpu::hip
