#include "shim/core/environment.h"

#include <cstdlib>

namespace anygpu {

std::string environment(const char* name) {
  const char* value = secure_getenv(name);
  return value ? value : "";
}

}  // namespace anygpu
