// The attributes CUDA and HIP both give one int per call (cuFuncGetAttribute, hipFuncGetAttribute),
// read in one fixed order into the backend interface's FunctionAttributes.
#pragma once

#include <anygpu/anygpu.h>

#include <cstdint>

#include "shim/core/backend.h"

namespace anygpu {

// The order a backend lists its driver's attribute numbers in.
enum FunctionAttributeSlot : int {
  kAttributeMaxThreads,
  kAttributeRegisters,
  kAttributeStaticShared,
  kAttributeConstBytes,
  kAttributeLocalBytes,
  kAttributeBinaryVersion,
  kAttributeSlotCount
};

// `read(slot, &value)` asks the driver for one attribute and returns its ag_result.
template <typename Read>
ag_result read_function_attributes(Read read, FunctionAttributes& attributes) {
  int value[kAttributeSlotCount] = {};
  for (int slot = 0; slot < kAttributeSlotCount; ++slot)
    if (ag_result r = read(slot, &value[slot])) return r;
  const auto bytes = [](int v) { return v > 0 ? static_cast<uint64_t>(v) : uint64_t{0}; };
  attributes.max_threads_per_block = value[kAttributeMaxThreads];
  attributes.registers_per_thread = value[kAttributeRegisters];
  attributes.static_shared_bytes = bytes(value[kAttributeStaticShared]);
  attributes.const_bytes = bytes(value[kAttributeConstBytes]);
  attributes.local_bytes_per_thread = bytes(value[kAttributeLocalBytes]);
  attributes.binary_version = value[kAttributeBinaryVersion];
  return AG_SUCCESS;
}

}  // namespace anygpu
