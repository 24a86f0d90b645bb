// printf-style formatting into a std::string, for the readers' error messages.
#pragma once

#include <string>

namespace anygpu {

std::string strprintf(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace anygpu
