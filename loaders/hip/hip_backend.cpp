// The HIP backend: AMD GPUs through the HIP runtime (libamdhip64), loaded at run time.
#include <memory>
#include <vector>

#include "hip_device.h"
#include "hip_loader.h"
#include "loaders/backend_devices.h"
#include "loaders/hip/hip_code_rules.h"
#include "loaders/hip/hip_compilers.h"
#include "shim/core/error.h"

namespace anygpu {
namespace hip {
namespace {

class HipBackend final : public BackendWithDevices<HipDevice> {
 public:
  std::string library() const override { return runtime_.path; }

  bool load(std::string& reason) override {
    if (!load_hip_runtime(&runtime_, &reason)) return false;
    int count = 0;
    if (hipError_t r = runtime_.fn.hipGetDeviceCount(&count)) {
      reason = "hipGetDeviceCount failed: " + describe_hip_result(r);
      if (r == hipErrorNoDevice) reason += " - " + no_device();
      return false;
    }
    if (count <= 0) {
      reason = no_device();
      return false;
    }
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      auto created = std::make_unique<HipDevice>(runtime_.fn, ordinal);
      const ag_result queried = created->query_properties();
      if (!keep_device(std::move(created), queried, "device " + std::to_string(ordinal) + ": ",
                       &reason))
        return false;
    }
    return true;
  }

 private:
  std::string no_device() const {
    return "the HIP runtime " + runtime_.path + " (HIP " +
           hip_version_text(runtime_.runtime_version) + ") reports no device";
  }

  HipRuntime runtime_;
};

}  // namespace
}  // namespace hip

extern const BackendDescriptor hip_backend_descriptor = {
    AG_BACKEND_HIP,
    "hip",
    "HIP",
    "",
    [] { return std::unique_ptr<Backend>(std::make_unique<hip::HipBackend>()); },
    hip::make_code_rules,
    hip::make_runtime_compiler};

}  // namespace anygpu
