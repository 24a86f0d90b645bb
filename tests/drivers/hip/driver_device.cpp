// hipInit, the versions, the devices, their attributes and properties, and the calling thread's
// current device. Initialisation is implicit, as in HIP: every call works before hipInit.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "driver_objects.h"
#include "driver_properties.h"
#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

// Per device, the devices whose memory it may use (hipDeviceEnablePeerAccess), a bit each
// (kMaxDevices is 64).
std::atomic<uint64_t> peers[kMaxDevices];

// The calling thread's current device, and `peer` as its peer: another device present.
hipError_t current_and_peer(int peer, int* device) {
  if (hipError_t r = current_device(device)) return r;
  if (hipError_t r = require_device(peer)) return r;
  return peer == *device ? hipErrorInvalidDevice : hipSuccess;
}

// RDNA (gfx10, gfx11, gfx12) runs wave32 by default; GCN and CDNA (gfx9) wave64.
int warp_size() {
  const std::string& processor = config().target.processor;
  return processor.size() >= 7 && processor.compare(0, 4, "gfx1") == 0 ? 32 : 64;
}

// HIP's "compute capability" of an AMD device: gfx90a is 9.0, gfx942 9.4, gfx1100 11.0 (the
// digits before the stepping).
void compute_capability(int* major, int* minor) {
  const std::string digits = config().target.processor.substr(3);
  *major = digits.size() >= 3 ? std::stoi(digits.substr(0, digits.size() - 2)) : 0;
  *minor = digits.size() >= 3 ? digits[digits.size() - 2] - '0' : 0;
}

// hipDeviceAttribute_t values (hip_runtime_api.h, HIP 5.0 to 7.x) this device answers; anything
// else is hipErrorInvalidValue, as a runtime answers an attribute it does not know.
bool attribute_value(hipDeviceAttribute_t attribute, int* value) {
  switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock:
      *value = kMaxThreadsPerBlock;
      return true;
    case hipDeviceAttributeMaxBlockDimX:
    case hipDeviceAttributeMaxBlockDimY:
    case hipDeviceAttributeMaxBlockDimZ:
      *value = static_cast<int>(kMaxBlockDim[attribute - hipDeviceAttributeMaxBlockDimX]);
      return true;
    case hipDeviceAttributeMaxGridDimX:
    case hipDeviceAttributeMaxGridDimY:
    case hipDeviceAttributeMaxGridDimZ:
      *value = static_cast<int>(kMaxGridDim[attribute - hipDeviceAttributeMaxGridDimX]);
      return true;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
      *value = kSharedMemoryPerBlock;
      return true;
    case hipDeviceAttributeWarpSize:
      *value = warp_size();
      return true;
    case hipDeviceAttributeMultiprocessorCount:
      *value = kComputeUnits;
      return true;
    case hipDeviceAttributeComputeCapabilityMajor: {
      int minor = 0;
      compute_capability(value, &minor);
      return true;
    }
    case hipDeviceAttributeComputeCapabilityMinor: {
      int major = 0;
      compute_capability(&major, value);
      return true;
    }
    case 5:  // ClockRate, kHz
      *value = 1700000;
      return true;
    case 8:  // ConcurrentKernels
      *value = 1;
      return true;
    case 16:  // Integrated
      *value = 0;
      return true;
    case 19:  // L2CacheSize
      *value = 8 << 20;
      return true;
    case 9:   // ConcurrentManagedAccess
    case 24:  // ManagedMemory
      *value = 1;
      return true;
    case 59:  // MemoryBusWidth, bits
      *value = 4096;
      return true;
    case 67:  // PciBusId
      *value = 0x63;
      return true;
    case 68:  // PciDeviceId
    case 69:  // PciDomainID
      *value = 0;
      return true;
    case 71:  // MaxRegistersPerBlock
      *value = 65536;
      return true;
    case 75:  // SharedMemPerBlockOptin
      *value = kSharedMemoryPerBlock;
      return true;
  }
  return false;
}

// The fields both layouts share, in either.
template <typename Properties>
void fill(Properties* p, int device) {
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "anygpu HIP test device %d", device);
  snprintf(p->gcnArchName, sizeof p->gcnArchName, "%s", config().arch.c_str());
  p->totalGlobalMem = kDeviceMemoryBytes;
  p->sharedMemPerBlock = kSharedMemoryPerBlock;
  p->regsPerBlock = 65536;
  p->warpSize = warp_size();
  p->maxThreadsPerBlock = kMaxThreadsPerBlock;
  for (int i = 0; i < 3; ++i) {
    p->maxThreadsDim[i] = static_cast<int>(kMaxBlockDim[i]);
    p->maxGridSize[i] = static_cast<int>(kMaxGridDim[i]);
  }
  p->clockRate = 1700000;
  p->totalConstMem = kDeviceMemoryBytes;
  compute_capability(&p->major, &p->minor);
  p->multiProcessorCount = kComputeUnits;
  p->l2CacheSize = 8 << 20;
  p->maxThreadsPerMultiProcessor = 2048;
  p->clockInstructionRate = 1000000;
  p->concurrentKernels = 1;
  p->pciBusID = device + 1;
  p->maxSharedMemoryPerMultiProcessor = kSharedMemoryPerBlock;
  p->canMapHostMemory = 1;
  p->cooperativeLaunch = 1;
  p->isLargeBar = 1;
}

hipError_t properties(void* out, int device, bool r0600) {
  if (!out) return hipErrorInvalidValue;
  if (hipError_t r = require_device(device)) return r;
  if (r0600) {
    hipDeviceProp_tR0600 p;
    fill(&p, device);
    p.unifiedAddressing = 1;
    p.sharedMemPerMultiprocessor = kSharedMemoryPerBlock;
    p.sharedMemPerBlockOptin = kSharedMemoryPerBlock;
    p.maxBlocksPerMultiProcessor = 32;
    memcpy(out, &p, sizeof p);
  } else {
    hipDeviceProp_tR0000 p;
    fill(&p, device);
    memcpy(out, &p, sizeof p);
  }
  return hipSuccess;
}

}  // namespace

}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

ANYGPU_HIP_TEST_API hipError_t hipInit(unsigned flags) {
  DRIVER_ENTRY(hipInit);
  return flags == 0 ? hipSuccess : hipErrorInvalidValue;
}

// HIP answers both with the same number.
ANYGPU_HIP_TEST_API hipError_t hipDriverGetVersion(int* version) {
  DRIVER_ENTRY(hipDriverGetVersion);
  if (!version) return hipErrorInvalidValue;
  *version = config().runtime_version;
  return hipSuccess;
}

ANYGPU_HIP_TEST_API hipError_t hipRuntimeGetVersion(int* version) {
  DRIVER_ENTRY(hipRuntimeGetVersion);
  if (!version) return hipErrorInvalidValue;
  *version = config().runtime_version;
  return hipSuccess;
}

// No device: hipErrorNoDevice with a count of 0, as HIP answers on a machine without a GPU.
ANYGPU_HIP_TEST_API hipError_t hipGetDeviceCount(int* count) {
  DRIVER_ENTRY(hipGetDeviceCount);
  if (!count) return hipErrorInvalidValue;
  *count = config().device_count;
  return config().device_count ? hipSuccess : hipErrorNoDevice;
}

ANYGPU_HIP_TEST_API hipError_t hipGetDevice(int* device) {
  DRIVER_ENTRY(hipGetDevice);
  if (!device) return hipErrorInvalidValue;
  return current_device(device);
}

ANYGPU_HIP_TEST_API hipError_t hipSetDevice(int device) {
  DRIVER_ENTRY(hipSetDevice);
  if (config().device_count == 0) return hipErrorNoDevice;
  if (hipError_t r = require_device(device)) return r;
  set_current_device(device);
  return hipSuccess;
}

ANYGPU_HIP_TEST_API hipError_t hipDeviceGetName(char* name, int length, hipDevice_t device) {
  DRIVER_ENTRY(hipDeviceGetName);
  if (!name || length <= 0) return hipErrorInvalidValue;
  if (hipError_t r = require_device(device)) return r;
  snprintf(name, static_cast<size_t>(length), "anygpu HIP test device %d", device);
  return hipSuccess;
}

ANYGPU_HIP_TEST_API hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
  DRIVER_ENTRY(hipDeviceTotalMem);
  if (!bytes) return hipErrorInvalidValue;
  if (hipError_t r = require_device(device)) return r;
  *bytes = kDeviceMemoryBytes;
  return hipSuccess;
}

ANYGPU_HIP_TEST_API hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute,
                                                     int device) {
  DRIVER_ENTRY(hipDeviceGetAttribute);
  if (!value) return hipErrorInvalidValue;
  if (hipError_t r = require_device(device)) return r;
  return attribute_value(attribute, value) ? hipSuccess : hipErrorInvalidValue;
}

// HIP 5's layout, which the plain symbol keeps in HIP 6 and 7 too.
ANYGPU_HIP_TEST_API hipError_t hipGetDeviceProperties(void* properties_out, int device) {
  DRIVER_ENTRY(hipGetDeviceProperties);
  return properties(properties_out, device, false);
}

// Exported by the HIP 6 build only (its version script hides it in the HIP 5 ones).
ANYGPU_HIP_TEST_API hipError_t hipGetDevicePropertiesR0600(void* properties_out, int device) {
  DRIVER_ENTRY(hipGetDevicePropertiesR0600);
  return properties(properties_out, device, true);
}

// The devices all live in host memory: each reaches every other's. A device is not its own peer.
ANYGPU_HIP_TEST_API hipError_t hipDeviceCanAccessPeer(int* can_access, int device, int peer) {
  DRIVER_ENTRY(hipDeviceCanAccessPeer);
  if (!can_access) return hipErrorInvalidValue;
  if (hipError_t r = require_device(device)) return r;
  if (hipError_t r = require_device(peer)) return r;
  *can_access = device != peer;
  return hipSuccess;
}

// Access is one way, from the current device to the peer's memory, and changes nothing but these
// answers.
ANYGPU_HIP_TEST_API hipError_t hipDeviceEnablePeerAccess(int peer, unsigned flags) {
  DRIVER_ENTRY(hipDeviceEnablePeerAccess);
  if (flags != 0) return hipErrorInvalidValue;
  int device = 0;
  if (hipError_t r = current_and_peer(peer, &device)) return r;
  const uint64_t bit = uint64_t{1} << peer;
  return peers[device].fetch_or(bit, std::memory_order_acq_rel) & bit
             ? hipErrorPeerAccessAlreadyEnabled
             : hipSuccess;
}

ANYGPU_HIP_TEST_API hipError_t hipDeviceDisablePeerAccess(int peer) {
  DRIVER_ENTRY(hipDeviceDisablePeerAccess);
  int device = 0;
  if (hipError_t r = current_and_peer(peer, &device)) return r;
  const uint64_t bit = uint64_t{1} << peer;
  return peers[device].fetch_and(~bit, std::memory_order_acq_rel) & bit
             ? hipSuccess
             : hipErrorPeerAccessNotEnabled;
}

ANYGPU_HIP_TEST_API hipError_t hipDeviceSynchronize() {
  DRIVER_ENTRY(hipDeviceSynchronize);
  int device = 0;
  if (hipError_t r = current_device(&device)) return r;
  synchronize_device(device);
  return hipSuccess;
}

}  // namespace anygpu::hip
