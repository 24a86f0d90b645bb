// The GPU backends whose translation layer is not written yet. Each looks for its vendor library
// through the same loading path the real backend will use and reports itself unavailable, saying
// whether the library was found; it never offers a device.
#include <string>
#include <utility>
#include <vector>

#include "../backends.h"
#include "../dynamic_library.h"

namespace anygpu {
namespace {

class PendingVendorBackend final : public Backend {
 public:
  PendingVendorBackend(ag_backend_kind kind, const char* name, const char* vendor_api,
                       std::vector<std::string> candidates, const char* override_env)
      : kind_(kind),
        name_(name),
        vendor_api_(vendor_api),
        candidates_(std::move(candidates)),
        override_env_(override_env) {}

  ag_backend_kind kind() const override { return kind_; }
  const char* name() const override { return name_; }
  std::string library() const override { return library_; }
  int device_count() const override { return 0; }
  DeviceBackend& device(int) override { __builtin_trap(); }

  bool load(std::string& reason) override {
    OpenedLibrary opened = open_library(candidates_, override_env_);
    library_ = opened.path;
    if (!opened.handle) {
      reason = std::string(vendor_api_) + " library not found: " + opened.error;
      return false;
    }
    reason = "found " + opened.path + ", but anygpu's " + vendor_api_ +
             " backend is not implemented yet";
    return false;
  }

 private:
  ag_backend_kind kind_;
  const char* name_;
  const char* vendor_api_;
  std::vector<std::string> candidates_;
  const char* override_env_;
  std::string library_;
};

}  // namespace

std::unique_ptr<Backend> make_hip_backend() {
  return std::make_unique<PendingVendorBackend>(
      AG_BACKEND_HIP, "hip", "HIP",
      std::vector<std::string>{"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so",
                               "/opt/rocm/lib/libamdhip64.so"},
      "ANYGPU_HIP_LIBRARY");
}

std::unique_ptr<Backend> make_level_zero_backend() {
  return std::make_unique<PendingVendorBackend>(AG_BACKEND_LEVEL_ZERO, "level_zero", "Level Zero",
                                                std::vector<std::string>{"libze_loader.so.1"},
                                                "ANYGPU_LEVEL_ZERO_LIBRARY");
}

}  // namespace anygpu
