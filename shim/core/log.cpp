#include "shim/core/log.h"

#include <cstdarg>
#include <cstdio>
#include <string>

#include "shim/core/environment.h"

namespace anygpu {
namespace {

LogLevel configured_level() {
  static const LogLevel level = [] {
    const std::string value = environment("ANYGPU_LOG");
    if (value == "error") return LogLevel::error;
    if (value == "info") return LogLevel::info;
    if (value == "debug") return LogLevel::debug;
    // Written here, not through log(), which asks for this level.
    if (!value.empty() && value != "warn")
      fprintf(stderr,
              "anygpu [warn] ANYGPU_LOG=%s is not one of error, warn, info, debug; using warn\n",
              value.c_str());
    return LogLevel::warn;
  }();
  return level;
}

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::error:
      return "error";
    case LogLevel::warn:
      return "warn";
    case LogLevel::info:
      return "info";
    case LogLevel::debug:
      return "debug";
  }
  return "?";
}

}  // namespace

bool log_enabled(LogLevel level) {
  return level <= configured_level();
}

void log(LogLevel level, const char* format, ...) {
  if (!log_enabled(level)) return;
  char message[2048];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  fprintf(stderr, "anygpu [%s] %s\n", level_name(level), message);
}

}  // namespace anygpu
