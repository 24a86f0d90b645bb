// Messages of the interposer to the user, on stderr, each prefixed "anygpu-intercept: ".
#pragma once

namespace anygpu::intercept {

void report(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace anygpu::intercept
