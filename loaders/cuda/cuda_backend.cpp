// The CUDA backend: NVIDIA GPUs through the CUDA Driver API, loaded at run time.
#include <memory>
#include <vector>

#include "cuda_device.h"
#include "cuda_loader.h"
#include "loaders/backend_devices.h"
#include "loaders/cuda/cuda_code_rules.h"
#include "loaders/cuda/nvrtc_compiler.h"
#include "shim/core/error.h"

namespace anygpu {
namespace cuda {
namespace {

class CudaBackend final : public BackendWithDevices<CudaDevice> {
 public:
  std::string library() const override { return driver_.path; }

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
        return drop_devices();
      }
      auto created = std::make_unique<CudaDevice>(driver_.fn, device, driver_.version);
      const ag_result queried = created->query_properties();
      if (!keep_device(std::move(created), queried, "device " + std::to_string(ordinal) + ": ",
                       &reason))
        return false;
    }
    return true;
  }

 private:
  CudaDriver driver_;
};

}  // namespace
}  // namespace cuda

extern const BackendDescriptor cuda_backend_descriptor = {
    AG_BACKEND_CUDA,
    "cuda",
    "CUDA",
    "",
    [] { return std::unique_ptr<Backend>(std::make_unique<cuda::CudaBackend>()); },
    cuda::make_code_rules,
    cuda::make_nvrtc_compiler};

}  // namespace anygpu
