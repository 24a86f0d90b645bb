// Devices, their primary contexts and each thread's current context, as the Driver API has them:
// calls that need a context use the calling thread's current one.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "driver_api.h"

namespace anygpu::cuda_test_driver {

constexpr int kMaxDevices = 64;
constexpr size_t kDeviceMemoryBytes = size_t{8} << 30;
constexpr int kSharedMemoryPerBlock = 48 * 1024;
constexpr int kMaxThreadsPerBlock = 1024;
constexpr unsigned kMaxBlockDim[3] = {1024, 1024, 64};
constexpr unsigned kMaxGridDim[3] = {2147483647u, 65535, 65535};

// A device's primary context: active while retained. The last release resets it, which destroys
// everything made in it.
struct Context {
  int device = 0;
  std::atomic<int> retains{0};
  // The devices whose primary contexts' memory this one may use (cuCtxEnablePeerAccess), a bit
  // each (kMaxDevices is 64). A reset clears it, and this device's bit in every other context.
  std::atomic<uint64_t> peers{0};
};

inline CUcontext to_handle(Context* context) {
  return reinterpret_cast<CUcontext>(context);
}

// CUDA_ERROR_NOT_INITIALIZED until cuInit has succeeded.
CUresult require_initialized();
// CUDA_ERROR_INVALID_DEVICE unless `device` is an ordinal of a device present.
CUresult require_device(CUdevice device);
// The UUID cuDeviceGetUuid gives, and an attribute's value (0 for one it does not know).
void device_uuid(CUdevice device, CUuuid* uuid);
int device_attribute(CUdevice_attribute attribute);
// The calling thread's current context, which must be active: else CUDA_ERROR_NOT_INITIALIZED or
// CUDA_ERROR_INVALID_CONTEXT.
CUresult require_context(Context** context);
// The active primary context `handle` names, a current one or not: else
// CUDA_ERROR_INVALID_CONTEXT.
CUresult find_context(CUcontext handle, Context** context);
// The primary context of a device present (not retained by this); the calling thread's current
// context, or nullptr.
Context* primary_context(CUdevice device);
Context* current_context();

}  // namespace anygpu::cuda_test_driver
