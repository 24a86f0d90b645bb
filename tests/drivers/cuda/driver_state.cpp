#include "driver_state.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "shim/environment.h"

namespace anygpu::cuda_test_driver {
namespace {

// clang-format off
constexpr FunctionInfo kFunctions[] = {
#define ANYGPU_CUDA_TEST_INFO(symbol, name, result, parameters) {#symbol, #name},
  ANYGPU_CUDA_REQUIRED_FUNCTIONS(ANYGPU_CUDA_TEST_INFO)
  ANYGPU_CUDA_OPTIONAL_FUNCTIONS(ANYGPU_CUDA_TEST_INFO)
#undef ANYGPU_CUDA_TEST_INFO
  {"cuGetProcAddress_v2", "cuGetProcAddress"},
};
// clang-format on
static_assert(sizeof kFunctions / sizeof kFunctions[0] == static_cast<size_t>(Fn::count));

void warn(const char* variable, const std::string& value, const char* why) {
  fprintf(stderr, "anygpu CUDA test driver: ignoring %s=%s: %s\n", variable, value.c_str(), why);
}

// A whole decimal number in [low, high]; false for anything else.
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

Config read_config() {
  Config c;
  if (std::string sm = environment("ANYGPU_CUDA_TEST_SM"); !sm.empty()) {
    CudaArch arch;
    if (parse_cuda_arch(sm, &arch) && arch.suffix == 0 && sm.rfind("sm_", 0) == 0)
      c.arch = arch;
    else
      warn("ANYGPU_CUDA_TEST_SM", sm, "not an sm_XY architecture");
  }
  long value = 0;
  if (std::string count = environment("ANYGPU_CUDA_TEST_DEVICE_COUNT"); !count.empty()) {
    if (parse_int(count, 0, 64, &value))
      c.device_count = static_cast<int>(value);
    else
      warn("ANYGPU_CUDA_TEST_DEVICE_COUNT", count, "not a number from 0 to 64");
  }
  if (std::string version = environment("ANYGPU_CUDA_TEST_DRIVER_VERSION"); !version.empty()) {
    if (parse_int(version, 1000, 99990, &value))
      c.driver_version = static_cast<int>(value);
    else
      warn("ANYGPU_CUDA_TEST_DRIVER_VERSION", version, "not a version such as 12040");
  }
  c.kernels_path = environment("ANYGPU_CUDA_TEST_KERNELS");
  for (const std::string& name : split(environment("ANYGPU_CUDA_TEST_MISSING"), ',')) {
    Fn fn;
    if (name.empty()) continue;
    if (find_function(name.c_str(), &fn))
      c.missing.insert(function_info(fn).name);
    else
      warn("ANYGPU_CUDA_TEST_MISSING", name, "not a function of this driver");
  }
  return c;
}

struct Failure {
  Fn fn;
  CUresult result;
  int remaining;  // calls until it fires, this one included
};

// Injected failures are rare: the common path reads one atomic and takes no lock.
std::mutex failures_mutex;
std::vector<Failure> failures;
std::atomic<int> failures_armed{0};
std::atomic<long> calls[static_cast<int>(Fn::count)];

// ANYGPU_CUDA_TEST_FAIL=name:code[:nth],...
void read_failures() {
  const std::string variable = environment("ANYGPU_CUDA_TEST_FAIL");
  for (const std::string& entry : split(variable, ',')) {
    if (entry.empty()) continue;
    const std::vector<std::string> fields = split(entry, ':');
    Fn fn;
    long code = 0, nth = 1;
    if (fields.size() < 2 || fields.size() > 3 || !find_function(fields[0].c_str(), &fn) ||
        !parse_int(fields[1], 1, 1 << 30, &code) ||
        (fields.size() == 3 && !parse_int(fields[2], 1, 1 << 30, &nth))) {
      warn("ANYGPU_CUDA_TEST_FAIL", entry, "expected name:code[:nth]");
      continue;
    }
    inject_failure(fn, static_cast<CUresult>(code), static_cast<int>(nth));
  }
}

// The environment is read when the library is loaded, as a test sets it before dlopen: by this
// object's initialisation, which comes after that of the tables above (same file, later).
const bool environment_read = (config(), read_failures(), true);

}  // namespace

const FunctionInfo& function_info(Fn fn) {
  return kFunctions[static_cast<int>(fn)];
}

bool is_exported(Fn fn) {
  if (fn == Fn::cuFuncGetParamInfo) return kHasParamInfo;
  if (fn == Fn::cuGetProcAddress_v2) return kHasProcAddress;
  return true;
}

bool find_function(const char* name, Fn* fn) {
  if (!name) return false;
  for (int i = 0; i < static_cast<int>(Fn::count); ++i) {
    if (!is_exported(static_cast<Fn>(i))) continue;
    if (strcmp(name, kFunctions[i].symbol) == 0 || strcmp(name, kFunctions[i].name) == 0) {
      *fn = static_cast<Fn>(i);
      return true;
    }
  }
  return false;
}

const Config& config() {
  static const Config instance = read_config();
  return instance;
}

CUresult enter(Fn fn) {
  calls[static_cast<int>(fn)].fetch_add(1, std::memory_order_relaxed);
  if (failures_armed.load(std::memory_order_acquire) == 0) return CUDA_SUCCESS;
  std::lock_guard<std::mutex> lock(failures_mutex);
  CUresult due = CUDA_SUCCESS;
  for (auto it = failures.begin(); it != failures.end();) {
    if (it->fn == fn && --it->remaining == 0) {
      if (due == CUDA_SUCCESS) due = it->result;
      it = failures.erase(it);
      failures_armed.fetch_sub(1, std::memory_order_release);
    } else {
      ++it;
    }
  }
  return due;
}

bool inject_failure(Fn fn, CUresult result, int nth) {
  if (nth < 1 || result == CUDA_SUCCESS) return false;
  std::lock_guard<std::mutex> lock(failures_mutex);
  failures.push_back({fn, result, nth});
  failures_armed.fetch_add(1, std::memory_order_release);
  return true;
}

void clear_failures() {
  std::lock_guard<std::mutex> lock(failures_mutex);
  failures_armed.fetch_sub(static_cast<int>(failures.size()), std::memory_order_release);
  failures.clear();
}

long call_count(Fn fn) {
  return calls[static_cast<int>(fn)].load(std::memory_order_relaxed);
}

}  // namespace anygpu::cuda_test_driver
