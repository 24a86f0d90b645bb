#include "shim/core/device_code.h"

#include "shim/code_object/code_object_selection.h"
#include "shim/core/error.h"
#include "shim/support/string_format.h"

namespace anygpu {

ag_result select_code_object(const Device& device, const void* image, size_t bytes,
                             CodeObject* selected) {
  const std::string label = strprintf("device %d (%s, %s)", device.ordinal, device.properties.name,
                                      device.properties.architecture);
  std::string detail;
  const ag_result result =
      select_for_device(*device.code_rules, label, image, bytes, selected, &detail);
  if (result != AG_SUCCESS) return fail(result, "%s", detail.c_str());
  return AG_SUCCESS;
}

}  // namespace anygpu
