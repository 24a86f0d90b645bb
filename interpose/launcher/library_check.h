// What anygpu-trace checks of --library before the program starts: the dynamic linker would only
// print an error for each process and run the program untraced.
#pragma once

#include <string>

namespace anygpu::intercept {

// Empty when `path` is an ELF shared object for this machine, else what it is instead.
std::string check_shared_object(const std::string& path);

}  // namespace anygpu::intercept
