// What hipModuleLoadData does before anything runs: find how far the image reaches (the call has
// no size), tell its format, and check that the device runs it, as HIP's loader does. Formats: an
// AMD code object (ELF, EM_AMDGPU) and a clang offload bundle holding AMD code objects, from which
// the one fitting the device is taken.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "driver_api.h"
#include "shim/code_object/amdgpu_target.h"

namespace anygpu::hip_test_driver {

// The bytes an image spans, read from its own headers (ELF, offload bundle); 0 when it is none
// of these or its headers promise more than 1 GiB. Only the bytes the format says are there are
// read.
size_t image_extent(const void* image);

struct ImageCheck {
  hipError_t result = hipSuccess;
  std::vector<std::string> kernels;  // on success
  std::vector<std::string> globals;  // its variables (code_object_globals.h), on success
  std::string target;                // the target id of the code object that runs
  size_t bytes = 0;                  // its size
  bool from_bundle = false;          // taken from an offload bundle
};

// Whether a device whose gcnArchName is `device` loads `image`: an AMD code object whose
// processor is the device's and whose xnack and sramecc settings fit it (a feature the code object
// leaves unstated fits either), or a bundle holding one (the best fit: an exact match first).
// hipErrorNoBinaryForGpu when none fits, hipErrorInvalidImage for anything else or a malformed
// image, hipErrorNotSupported for a compressed bundle.
ImageCheck check_image(const void* image, const AmdgpuTarget& device);

}  // namespace anygpu::hip_test_driver
