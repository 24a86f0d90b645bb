// Fuzz target: the check a host code object passes before the CPU backend hands it to the dynamic
// loader (shim/code_object/host_image_check.h), for both hosts, and what it says of foreign ELF
// files. An image it accepts must still be one it accepts (the check reads, never writes).
#include <elf.h>

#include <string>

#include "fuzz_support.h"
#include "shim/code_object/carried_device_code.h"
#include "shim/code_object/host_image_check.h"

using namespace anygpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ByteReader image(data, size);
  for (uint16_t machine : {uint16_t{EM_X86_64}, uint16_t{EM_AARCH64}}) {
    std::string error;
    const bool accepted = check_host_image(image, machine, &error);
    fuzz::check(accepted == error.empty());
    if (accepted) {
      std::string again;
      fuzz::check(check_host_image(image, machine, &again));
    }
  }
  (void)carried_device_code(image);
  return 0;
}
