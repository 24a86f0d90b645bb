// Helpers of the time-bounded concurrency tests: how long they run (the full time in a plain build,
// a tenth of it under a sanitizer, which slows every call many times over), and result names.
#pragma once

#include <anygpu/anygpu.h>

#include <chrono>
#include <string>

namespace anygpu_test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kUnderSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kUnderSanitizer = true;
#else
constexpr bool kUnderSanitizer = false;
#endif
#else
constexpr bool kUnderSanitizer = false;
#endif

// "AG_ERROR_..." for `result`.
inline std::string result_name(ag_result result) {
  const char* name = nullptr;
  agGetErrorName(result, &name);
  return name ? name : std::to_string(static_cast<int>(result));
}

inline std::chrono::milliseconds stress_duration(std::chrono::milliseconds full) {
  return kUnderSanitizer ? full / 10 : full;
}

}  // namespace anygpu_test
