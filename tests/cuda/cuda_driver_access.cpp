#include "cuda_driver_access.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

namespace anygpu_test {

using namespace anygpu::cuda;

CudaDriverAccess::CudaDriverAccess() {
  int count = 0;
  agDeviceGetCount(&count);  // initialises anygpu, which loads the driver
  handle_ = dlopen(ANYGPU_TEST_CUDA_DRIVER_PATH, RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(nullptr, handle_) << "anygpu did not load " << ANYGPU_TEST_CUDA_DRIVER_PATH;
}

void* CudaDriverAccess::symbol(const char* name) const {
  void* found = handle_ ? dlsym(handle_, name) : nullptr;
  EXPECT_NE(nullptr, found) << "the test driver lacks " << name;
  return found;
}

void CudaDriverAccess::fail(const char* function, int result, int nth) const {
  auto control = reinterpret_cast<int (*)(const char*, int, int)>(symbol("anygpu_cuda_test_fail"));
  ASSERT_NE(nullptr, control);
  ASSERT_EQ(0, control(function, result, nth)) << "the test driver has no " << function;
}

void CudaDriverAccess::clear_failures() const {
  auto control = reinterpret_cast<void (*)()>(symbol("anygpu_cuda_test_clear_failures"));
  if (control) control();
}

long CudaDriverAccess::live_objects() const {
  auto control = reinterpret_cast<long (*)()>(symbol("anygpu_cuda_test_live_objects"));
  return control ? control() : -1;
}

long CudaDriverAccess::calls(const char* function) const {
  auto control = reinterpret_cast<long (*)(const char*)>(symbol("anygpu_cuda_test_calls"));
  return control ? control(function) : -1;
}

ag_device CudaDriverAccess::cuda_device(int index) const {
  int count = 0;
  agDeviceGetCount(&count);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    ag_device device = nullptr;
    ag_device_properties p{};
    p.struct_size = sizeof p;
    if (agDeviceGet(ordinal, &device) == AG_SUCCESS &&
        agDeviceGetProperties(device, &p) == AG_SUCCESS && p.backend == AG_BACKEND_CUDA &&
        index-- == 0)
      return device;
  }
  return nullptr;
}

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
