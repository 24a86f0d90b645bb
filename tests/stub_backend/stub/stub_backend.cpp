// The stub backend: its driver library never exists, so it is listed with the reason and offers no
// device; it runs no code object.
#include <dlfcn.h>

#include <memory>

#include "shim/core/backend.h"

namespace anygpu {
namespace stub {
namespace {

constexpr char kDriver[] = "libanygpu_stub_driver.so.1";

class StubBackend final : public Backend {
 public:
  bool load(std::string& reason) override {
    if (void* handle = dlopen(kDriver, RTLD_NOW | RTLD_LOCAL)) {
      dlclose(handle);
      reason = std::string(kDriver) + " loaded, but the stub backend drives no device";
    } else {
      reason = std::string(kDriver) + " not found (the stub backend's driver is never installed)";
    }
    return false;
  }
  std::string library() const override { return kDriver; }
  int device_count() const override { return 0; }
  DeviceBackend& device(int) override { abort(); }  // never asked: no device
};

class StubCodeRules final : public CodeFitRules {
 public:
  using CodeFitRules::CodeFitRules;
  bool understood() const override { return true; }
  Fit fit(const CodeTarget&) const override { return Fit{}; }
  std::string needs() const override { return "nothing anygpu builds (a stub)"; }
};

}  // namespace
}  // namespace stub

extern const BackendDescriptor stub_backend_descriptor = {
    AG_BACKEND_STUB,
    "stub",
    "Stub",
    "",
    [] { return std::unique_ptr<Backend>(std::make_unique<stub::StubBackend>()); },
    [](const DeviceTarget& target) {
      return std::unique_ptr<CodeFitRules>(std::make_unique<stub::StubCodeRules>(target));
    },
    nullptr};

}  // namespace anygpu
