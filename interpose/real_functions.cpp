#include "interpose/real_functions.h"

#include <dlfcn.h>

#include <atomic>
#include <iterator>

#include "interpose/report.h"
#include "interpose/wrappers.h"

namespace anygpu::intercept {
namespace {

std::atomic<void*> g_real[kFunctionCount];
std::atomic<void*> g_library[2];  // by Api

// The names a vendor library is loaded under, newest first.
const char* const kCudaLibraries[] = {"libcuda.so.1", "libcuda.so"};
const char* const kHipLibraries[] = {"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5",
                                     "libamdhip64.so"};

void* find_in(void* handle, int id) {
  if (!handle) return nullptr;
  void* found = real_dlsym()(handle, function_symbol(id));
  return found == wrapper_address(id) ? nullptr : found;
}

// A copy of the vendor library already in the process (RTLD_NOLOAD: nothing is loaded here).
void* find_in_loaded_library(int id) {
  bool cuda = function_api(id) == Api::cuda;
  const char* const* names = cuda ? kCudaLibraries : kHipLibraries;
  size_t count = cuda ? std::size(kCudaLibraries) : std::size(kHipLibraries);
  for (size_t i = 0; i < count; ++i) {
    void* handle = dlopen(names[i], RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) continue;
    void* found = find_in(handle, id);
    dlclose(handle);  // only drops the reference RTLD_NOLOAD took
    if (found) return found;
  }
  return find_in(g_library[static_cast<int>(function_api(id))].load(), id);
}

DlsymFunction g_real_dlsym = nullptr;  // __atomic builtins: std::atomic's calls would be checked

ANYGPU_NOT_SANITIZED DlsymFunction find_real_dlsym() {
  // glibc 2.34 moved dlsym into libc under a new version; older ones have only the first one.
  if (void* found = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34"))
    return reinterpret_cast<DlsymFunction>(found);
#if defined(__x86_64__)
  if (void* found = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5"))
    return reinterpret_cast<DlsymFunction>(found);
#elif defined(__aarch64__)
  if (void* found = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.17"))
    return reinterpret_cast<DlsymFunction>(found);
#endif
  report("cannot find glibc's dlsym; functions looked up with dlsym are not intercepted");
  return nullptr;
}

}  // namespace

// Found on first use, without a function-local static (its guard would be checked by ASan).
ANYGPU_NOT_SANITIZED DlsymFunction real_dlsym() {
  DlsymFunction function = __atomic_load_n(&g_real_dlsym, __ATOMIC_ACQUIRE);
  if (!function) {
    function = find_real_dlsym();
    __atomic_store_n(&g_real_dlsym, function, __ATOMIC_RELEASE);
  }
  return function;
}

void* real_function(int id) {
  if (void* known = g_real[id].load(std::memory_order_acquire)) return known;
  if (!real_dlsym()) return nullptr;
  void* found = find_in(RTLD_NEXT, id);
  if (!found) found = find_in_loaded_library(id);
  if (!found) return nullptr;
  void* expected = nullptr;
  g_real[id].compare_exchange_strong(expected, found, std::memory_order_acq_rel);
  return g_real[id].load(std::memory_order_acquire);
}

void* wrapper_for(int id, void* real) {
  if (!real || real == wrapper_address(id)) return real;
  void* expected = nullptr;
  if (g_real[id].compare_exchange_strong(expected, real, std::memory_order_acq_rel) ||
      expected == real)
    return wrapper_address(id);
  return real;
}

void remember_library(Api api, void* handle) {
  void* expected = nullptr;
  g_library[static_cast<int>(api)].compare_exchange_strong(expected, handle);
}

}  // namespace anygpu::intercept
