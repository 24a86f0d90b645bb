// Reads anygpu's environment variables (secure_getenv: ignored in set-uid programs).
#pragma once

#include <string>

namespace anygpu {

// The variable's value, or "" when unset.
std::string environment(const char* name);

}  // namespace anygpu
