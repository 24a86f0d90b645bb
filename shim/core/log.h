// Diagnostics on stderr, filtered by ANYGPU_LOG (error, warn, info, debug; default warn).
#pragma once

namespace anygpu {

enum class LogLevel { error = 0, warn = 1, info = 2, debug = 3 };

bool log_enabled(LogLevel level);
void log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace anygpu
