// The HIP backend: AMD GPUs through the HIP runtime (libamdhip64), loaded at run time.
#include <memory>
#include <vector>

#include "../../shim/error.h"
#include "../backends.h"
#include "hip_device.h"
#include "hip_loader.h"

namespace anygpu {
namespace hip {
namespace {

class HipBackend final : public Backend {
 public:
  ag_backend_kind kind() const override { return AG_BACKEND_HIP; }
  const char* name() const override { return "hip"; }
  std::string library() const override { return runtime_.path; }
  int device_count() const override { return static_cast<int>(devices_.size()); }
  DeviceBackend& device(int index) override { return *devices_[index]; }

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
      if (created->query_properties() != AG_SUCCESS) {
        reason = "device " + std::to_string(ordinal) + ": " + last_error_detail();
        clear_last_error_detail();
        devices_.clear();
        return false;
      }
      devices_.push_back(std::move(created));
    }
    return true;
  }

 private:
  std::string no_device() const {
    return "the HIP runtime " + runtime_.path + " (HIP " +
           hip_version_text(runtime_.runtime_version) + ") reports no device";
  }

  HipRuntime runtime_;
  std::vector<std::unique_ptr<HipDevice>> devices_;
};

}  // namespace
}  // namespace hip

std::unique_ptr<Backend> make_hip_backend() {
  return std::make_unique<hip::HipBackend>();
}

}  // namespace anygpu
