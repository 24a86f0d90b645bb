// Which code object a device runs: the image itself, or the best-fitting entry of a container, by
// the rules in ARCHITECTURE.md ("Code objects and bundles"):
//   CUDA        a cubin of the same SM major and an equal or lower minor (the highest such), else
//               the PTX with the highest .target the device takes whose ISA version the driver
//               takes (the highest such)
//   HIP         an AMD code object for the same processor whose xnack and sramecc settings fit
//               (unstated fits either; '+' fits only '+', '-' only '-'); an exact match first
//   Level Zero  a SPIR-V module
//   CPU         a host code object for the device's machine (empty entries are skipped)
#pragma once

#include <string>

#include "code_object.h"
#include "objects.h"

namespace anygpu {

// A device as selection sees it; tests describe devices without hardware.
struct DeviceTarget {
  ag_backend_kind backend = AG_BACKEND_CPU;
  std::string architecture;  // "sm_86", "gfx90a:sramecc+:xnack-", "x86_64-linux-gnu"
  // CUDA: the highest PTX ISA version the driver compiles, as ptx_version_number(8, 5); 0 when
  // not known (any version is offered to the driver).
  unsigned max_ptx_version = 0;
  std::string label;  // how the error detail names it; "" for "the device (<architecture>)"
};

DeviceTarget device_target(const Device& device);

// Picks the code object `device` runs from `image`. On failure returns AG_ERROR_INVALID_IMAGE (no
// known format, a malformed container), AG_ERROR_NO_BINARY_FOR_DEVICE (nothing fits) or
// AG_ERROR_NOT_SUPPORTED (only a compressed entry fits), with `detail` saying what the image holds
// and what the device needs.
ag_result select_for_device(const DeviceTarget& device, const void* image, size_t bytes,
                            CodeObject* selected, std::string* detail);

// The same for a registered device; records the detail with fail().
ag_result select_code_object(const Device& device, const void* image, size_t bytes,
                             CodeObject* selected);

}  // namespace anygpu
