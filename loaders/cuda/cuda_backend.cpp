// The CUDA backend: NVIDIA GPUs through the CUDA Driver API, loaded at run time.
#include <memory>
#include <vector>

#include "../../shim/error.h"
#include "../backends.h"
#include "cuda_device.h"
#include "cuda_loader.h"

namespace anygpu {
namespace cuda {
namespace {

class CudaBackend final : public Backend {
 public:
  ag_backend_kind kind() const override { return AG_BACKEND_CUDA; }
  const char* name() const override { return "cuda"; }
  std::string library() const override { return driver_.path; }
  int device_count() const override { return static_cast<int>(devices_.size()); }
  DeviceBackend& device(int index) override { return *devices_[index]; }

  bool load(std::string& reason) override {
    if (!load_cuda_driver(&driver_, &reason)) return false;
    int count = 0;
    if (CUresult r = driver_.fn.cuDeviceGetCount(&count)) {
      reason = "cuDeviceGetCount failed: " + describe_cuda_result(r);
      return false;
    }
    if (count <= 0) {
      reason = "the CUDA driver " + driver_.path + " (CUDA " + cuda_version_text(driver_.version) +
               ") reports no device";
      return false;
    }
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      CUdevice device = 0;
      if (CUresult r = driver_.fn.cuDeviceGet(&device, ordinal)) {
        reason = "cuDeviceGet(" + std::to_string(ordinal) + ") failed: " + describe_cuda_result(r);
        return fail_all();
      }
      auto created = std::make_unique<CudaDevice>(driver_.fn, device, driver_.version);
      if (created->query_properties() != AG_SUCCESS) {
        reason = "device " + std::to_string(ordinal) + ": " + last_error_detail();
        clear_last_error_detail();
        return fail_all();
      }
      devices_.push_back(std::move(created));
    }
    return true;
  }

 private:
  bool fail_all() {
    devices_.clear();
    return false;
  }

  CudaDriver driver_;
  std::vector<std::unique_ptr<CudaDevice>> devices_;
};

}  // namespace
}  // namespace cuda

std::unique_ptr<Backend> make_cuda_backend() {
  return std::make_unique<cuda::CudaBackend>();
}

}  // namespace anygpu
