#include "code_object_selection.h"

#include "error.h"

namespace anygpu {

ag_result select_code_object(const Device& device, const void* image, size_t bytes,
                             CodeObject* selected) {
  const CodeObject code = detect_code_object(image, bytes);
  if (code.format == CodeObjectFormat::unknown)
    return fail(AG_ERROR_INVALID_IMAGE,
                "the %zu-byte image is of no known code-object format (host code object, PTX, "
                "cubin, fatbin, AMD code object, SPIR-V, clang offload bundle)",
                bytes);
  const bool cpu = device.properties.backend == AG_BACKEND_CPU;
  if (cpu && code.format == CodeObjectFormat::host_shared_object) {
    *selected = code;
    return AG_SUCCESS;
  }
  const char* needed = cpu ? "a host code object (ELF shared object for this machine, built "
                             "with anygpu/kernel.h)"
                           : "a GPU code object (loading GPU formats is not implemented yet)";
  return fail(AG_ERROR_NO_BINARY_FOR_DEVICE, "the image holds a %s; device %d (%s, %s) needs %s",
              format_name(code.format), device.ordinal, device.properties.name,
              device.properties.architecture, needed);
}

}  // namespace anygpu
