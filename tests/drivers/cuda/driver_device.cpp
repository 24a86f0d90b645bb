// cuInit, the driver version, and the devices and their attributes.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "driver_context.h"
#include "driver_state.h"

namespace anygpu::cuda_test_driver {
namespace {

std::atomic<bool> initialized{false};

constexpr CUdevice_attribute kAttributeCount = 148;

// CU_DEVICE_ATTRIBUTE_* values (cuda.h) this device answers; one CUDA 13.0 does not have is
// CUDA_ERROR_INVALID_VALUE, as a real driver answers an attribute it does not know.
bool attribute_value(CUdevice_attribute attribute, int* value) {
  const CudaArch& arch = config().arch;
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *value = kMaxThreadsPerBlock;
      return true;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
      *value = static_cast<int>(kMaxBlockDim[attribute - CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X]);
      return true;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
      *value = static_cast<int>(kMaxGridDim[attribute - CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X]);
      return true;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
      *value = kSharedMemoryPerBlock;
      return true;
    case 9:  // TOTAL_CONSTANT_MEMORY
      *value = 64 * 1024;
      return true;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
      *value = 32;
      return true;
    case 12:  // MAX_REGISTERS_PER_BLOCK
      *value = 65536;
      return true;
    case 13:  // CLOCK_RATE, kHz
      *value = 1980000;
      return true;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
      *value = 132;
      return true;
    case 31:  // CONCURRENT_KERNELS
    case 41:  // UNIFIED_ADDRESSING
      *value = 1;
      return true;
    case 39:  // MAX_THREADS_PER_MULTIPROCESSOR
      *value = 2048;
      return true;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
      *value = static_cast<int>(arch.sm / 10);
      return true;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
      *value = static_cast<int>(arch.sm % 10);
      return true;
    case 81:  // MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
      *value = 228 * 1024;
      return true;
    case 97:  // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
      *value = 227 * 1024;
      return true;
    case 33:  // PCI_BUS_ID
      *value = 0x1b;
      return true;
    case 37:  // GLOBAL_MEMORY_BUS_WIDTH, bits
      *value = 6144;
      return true;
    case 38:  // L2_CACHE_SIZE
      *value = 60 << 20;
      return true;
    case 83:   // MANAGED_MEMORY
    case 89:   // CONCURRENT_MANAGED_ACCESS
    case 115:  // MEMORY_POOLS_SUPPORTED
      *value = 1;
      return true;
  }
  // The other attributes CUDA 13.0 has (cuda.h's CU_DEVICE_ATTRIBUTE_MAX is 148) are features
  // this device lacks: the CUDA Runtime asks for all of them when it starts.
  if (attribute > 0 && attribute < kAttributeCount) {
    *value = 0;
    return true;
  }
  return false;
}

}  // namespace

CUresult require_initialized() {
  return initialized.load(std::memory_order_acquire) ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

void device_uuid(CUdevice device, CUuuid* uuid) {
  static const char kPrefix[] = "anygpu-test-";  // 12 bytes, then the ordinal
  memcpy(uuid->bytes, kPrefix, 12);
  const auto ordinal = static_cast<uint32_t>(device);
  memcpy(uuid->bytes + 12, &ordinal, 4);
}

int device_attribute(CUdevice_attribute attribute) {
  int value = 0;
  attribute_value(attribute, &value);
  return value;
}

CUresult require_device(CUdevice device) {
  return device >= 0 && device < config().device_count ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

ANYGPU_CUDA_TEST_API CUresult cuInit(unsigned flags) {
  DRIVER_ENTRY(cuInit);
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  initialized.store(true, std::memory_order_release);
  return CUDA_SUCCESS;
}

// Answers before cuInit, as a real driver does.
ANYGPU_CUDA_TEST_API CUresult cuDriverGetVersion(int* version) {
  DRIVER_ENTRY(cuDriverGetVersion);
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = config().driver_version;
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuDeviceGetCount(int* count) {
  DRIVER_ENTRY(cuDeviceGetCount);
  if (CUresult r = require_initialized()) return r;
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  *count = config().device_count;
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  DRIVER_ENTRY(cuDeviceGet);
  if (CUresult r = require_initialized()) return r;
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = require_device(ordinal)) return r;
  *device = ordinal;
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  DRIVER_ENTRY(cuDeviceGetName);
  if (CUresult r = require_initialized()) return r;
  if (!name || length <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = require_device(device)) return r;
  snprintf(name, static_cast<size_t>(length), "anygpu CUDA test device %d", device);
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice device) {
  DRIVER_ENTRY(cuDeviceTotalMem_v2);
  if (CUresult r = require_initialized()) return r;
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = require_device(device)) return r;
  *bytes = kDeviceMemoryBytes;
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute,
                                                   CUdevice device) {
  DRIVER_ENTRY(cuDeviceGetAttribute);
  if (CUresult r = require_initialized()) return r;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = require_device(device)) return r;
  return attribute_value(attribute, value) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// The devices all live in host memory: each reaches every other's. A device is not its own peer.
ANYGPU_CUDA_TEST_API CUresult cuDeviceCanAccessPeer(int* can_access, CUdevice device,
                                                    CUdevice peer) {
  DRIVER_ENTRY(cuDeviceCanAccessPeer);
  if (CUresult r = require_initialized()) return r;
  if (!can_access) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = require_device(device)) return r;
  if (CUresult r = require_device(peer)) return r;
  *can_access = device != peer;
  return CUDA_SUCCESS;
}

#ifndef ANYGPU_CUDA_TEST_OLD_DRIVER
// A made-up UUID per device (the CUDA Runtime asks for it at start-up).
ANYGPU_CUDA_TEST_API CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice device) {
  DRIVER_ENTRY(cuDeviceGetUuid);
  if (CUresult r = require_initialized()) return r;
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = require_device(device)) return r;
  device_uuid(device, uuid);
  return CUDA_SUCCESS;
}
#endif

}  // namespace anygpu::cuda
