#include "cuda_driver_access.h"

#include <gtest/gtest.h>

namespace anygpu_test {

using namespace anygpu::cuda;

CUcontext CudaDriverAccess::current_context() const {
  auto get = reinterpret_cast<CUresult (*)(CUcontext*)>(symbol("cuCtxGetCurrent"));
  CUcontext context = nullptr;
  EXPECT_EQ(CUDA_SUCCESS, get ? get(&context) : -1);
  return context;
}

void CudaDriverAccess::set_current_context(CUcontext context) const {
  auto set = reinterpret_cast<CUresult (*)(CUcontext)>(symbol("cuCtxSetCurrent"));
  EXPECT_EQ(CUDA_SUCCESS, set ? set(context) : -1);
}

CUcontext CudaDriverAccess::retain_primary_context(int device) const {
  auto retain =
      reinterpret_cast<CUresult (*)(CUcontext*, CUdevice)>(symbol("cuDevicePrimaryCtxRetain"));
  CUcontext context = nullptr;
  EXPECT_EQ(CUDA_SUCCESS, retain ? retain(&context, device) : -1);
  return context;
}

void CudaDriverAccess::release_primary_context(int device) const {
  auto release = reinterpret_cast<CUresult (*)(CUdevice)>(symbol("cuDevicePrimaryCtxRelease_v2"));
  EXPECT_EQ(CUDA_SUCCESS, release ? release(device) : -1);
}

}  // namespace anygpu_test
