// Mode dump: every module image handed to the driver is saved as
// <ANYGPU_INTERCEPT_DUMP_DIR>/<pid>-<n>-<function>.<ptx|cubin|fatbin|hsaco|bin>.
#pragma once

#include <string>

namespace anygpu::intercept {

// Saves the image; returns the file written, or an empty string (the reason is reported).
std::string dump_image(const char* function, const void* image);
// cuModuleLoad's file, copied.
std::string dump_file(const char* function, const char* path);

void reset_dump_count();  // a forked child numbers its own

}  // namespace anygpu::intercept
