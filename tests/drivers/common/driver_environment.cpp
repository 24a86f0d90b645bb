#include "driver_environment.h"

#include <cstdio>
#include <cstdlib>

namespace anygpu::test_driver {

void warn(const char* driver, const char* variable, const std::string& value, const char* why) {
  fprintf(stderr, "%s: ignoring %s=%s: %s\n", driver, variable, value.c_str(), why);
}

bool parse_int(const std::string& text, long low, long high, long* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  const long parsed = strtol(text.c_str(), &end, 10);
  if (*end != '\0' || parsed < low || parsed > high) return false;
  *value = parsed;
  return true;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find(separator, start);
    const size_t stop = end == std::string::npos ? text.size() : end;
    parts.push_back(text.substr(start, stop - start));
    start = stop + 1;
  }
  return parts;
}

}  // namespace anygpu::test_driver
