// The driver's state: ANYGPU_L0_TEST_FAIL=<function>:<result>[:<nth>],... makes a chosen call fail
// (results in decimal or 0x hex), as anygpu_l0_test_fail does; every call is counted.
// ANYGPU_L0_TEST_DEVICE_COUNT=<0 to 64> is how many devices the one driver has (1 by default).
// ANYGPU_L0_TEST_SUBGROUP_SIZES=<n>,... the sub-group sizes its devices offer.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "driver_cpu.h"
#include "driver_environment.h"
#include "driver_host_kernels.h"
#include "driver_state.h"

namespace anygpu::level_zero_test_driver {

namespace {

constexpr const char* kDriver = "anygpu Level Zero test driver";

constexpr const char* kFunctionNames[] = {
#define ANYGPU_L0_NAME(name) #name,
    ANYGPU_L0_TEST_FUNCTIONS(ANYGPU_L0_NAME)
#undef ANYGPU_L0_NAME
};

// The environment is read when the library is loaded (a bad value warned of then), as the loader
// loads it once anygpu's test set it.
const bool environment_read = [] {
  device_count();
  subgroup_sizes();
  return true;
}();

}  // namespace

std::vector<uint32_t> subgroup_sizes() {
  static const std::vector<uint32_t> sizes = [] {
    const std::vector<uint32_t> fallback = {8, 16, kMaxSubgroupSize};
    const char* value = getenv("ANYGPU_L0_TEST_SUBGROUP_SIZES");
    if (!value || !*value) return fallback;
    std::vector<uint32_t> parsed;
    for (const std::string& item : test_driver::split(value, ',')) {
      long size = 0;
      if (parsed.size() == 8 || !test_driver::parse_int(item, 1, kMaxSubgroupSize, &size) ||
          (size & (size - 1)) != 0) {
        test_driver::warn(kDriver, "ANYGPU_L0_TEST_SUBGROUP_SIZES", value,
                          "not up to 8 powers of two from 1 to 32, separated by commas");
        return fallback;
      }
      parsed.push_back(static_cast<uint32_t>(size));
    }
    return parsed;
  }();
  return sizes;
}

uint32_t device_count() {
  static const uint32_t count = [] {
    const char* value = getenv("ANYGPU_L0_TEST_DEVICE_COUNT");
    long parsed = 1;
    if (value && *value && !test_driver::parse_int(value, 0, kMaxDevices, &parsed)) {
      test_driver::warn(kDriver, "ANYGPU_L0_TEST_DEVICE_COUNT", value, "not a number from 0 to 64");
      parsed = 1;
    }
    return static_cast<uint32_t>(parsed);
  }();
  return count;
}

int find_function(const char* name) {
  for (int i = 0; i < fn_count; ++i)
    if (strcmp(kFunctionNames[i], name) == 0) return i;
  return -1;
}

Calls::Calls() {
  const char* value = getenv("ANYGPU_L0_TEST_FAIL");
  if (!value) return;
  std::string text(value);
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string entry = text.substr(start, end - start);
    start = end + 1;
    if (entry.empty()) continue;
    unsigned long result = 0;
    int nth = 1;
    const size_t colon = entry.find(':');
    const int fn = colon == std::string::npos ? -1 : find_function(entry.substr(0, colon).c_str());
    char* rest = nullptr;
    if (fn >= 0) result = strtoul(entry.c_str() + colon + 1, &rest, 0);
    if (fn >= 0 && rest && *rest == ':') nth = atoi(rest + 1);
    if (fn < 0 || result == 0 || result > 0xffffffffu || nth < 1 ||
        (rest && *rest && *rest != ':')) {
      fprintf(stderr, "%s: ignoring ANYGPU_L0_TEST_FAIL entry '%s'\n", kDriver, entry.c_str());
      continue;
    }
    failures.push_back({fn, static_cast<uint32_t>(result), nth});
    armed.fetch_add(1);
  }
}

uint32_t Calls::enter(int fn) {
  counts[fn].fetch_add(1, std::memory_order_relaxed);
  if (armed.load(std::memory_order_acquire) == 0) return 0;
  std::lock_guard<std::mutex> lock(mutex);
  for (auto it = failures.begin(); it != failures.end(); ++it) {
    if (it->fn != fn) continue;
    if (--it->remaining > 0) continue;
    const uint32_t result = it->result;
    failures.erase(it);
    armed.fetch_sub(1);
    return result;
  }
  return 0;
}

Calls& calls() {
  // A static object, not a leaked one: the loader dlcloses a driver whose zeInit fails, and a
  // heap table would then be unreachable (LeakSanitizer reports it).
  static Calls table;
  return table;
}

ze_result_t from_ag(ag_result r) {
  switch (r) {
    case AG_SUCCESS:
      return ZE_RESULT_SUCCESS;
    case AG_ERROR_NOT_READY:
      return ZE_RESULT_NOT_READY;
    case AG_ERROR_OUT_OF_MEMORY:
      return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    case AG_ERROR_INVALID_VALUE:
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    default:
      return ZE_RESULT_ERROR_UNKNOWN;
  }
}

DeviceBackend& cpu() {
  return test_driver::cpu(kDriver);
}

void* host_module() {
  const char* path = getenv("ANYGPU_L0_TEST_KERNELS");
  return test_driver::host_kernels(kDriver, "ANYGPU_L0_TEST_KERNELS", path ? path : "");
}

}  // namespace anygpu::level_zero_test_driver
