// The error detail every backend records for a failed vendor call, whatever the vendor.
#pragma once

#include <anygpu/anygpu.h>

#include <string>

#include "shim/core/error.h"

namespace anygpu {

// Records "<call> failed: <described>[: <extra>]" as the detail and returns `code`.
inline ag_result vendor_failure(ag_result code, const char* call, const std::string& described,
                                const char* extra) {
  return fail(code, "%s failed: %s%s%s", call, described.c_str(), extra ? ": " : "",
              extra ? extra : "");
}

}  // namespace anygpu
