// Whether and how well one code object fits a device, and what a device needs, in words.
#pragma once

#include <string>

#include "code_object_selection.h"
#include "code_object_target.h"

namespace anygpu {

// The device's architecture string, read for its backend.
struct DeviceArch {
  bool valid = false;
  CudaArch cuda;
  AmdgpuTarget amdgpu;
  uint16_t machine = 0;  // CPU: the ELF machine
};

DeviceArch parse_device_arch(const DeviceTarget& device);

// A rank: a higher tier wins (a cubin over PTX), then the higher first, then second value.
struct Fit {
  int tier = 0;  // 0: does not fit
  unsigned first = 0, second = 0;

  bool fits() const { return tier > 0; }
  bool better_than(const Fit& other) const {
    if (tier != other.tier) return tier > other.tier;
    if (first != other.first) return first > other.first;
    return second > other.second;
  }
};

Fit code_fit(const DeviceTarget& device, const DeviceArch& arch, const CodeTarget& code);

// "a cubin for sm_80 to sm_86, or PTX for sm_86 or older", "a SPIR-V module", ...
std::string device_needs(const DeviceTarget& device, const DeviceArch& arch);

}  // namespace anygpu
