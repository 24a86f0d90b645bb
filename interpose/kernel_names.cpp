#include "interpose/kernel_names.h"

#include <mutex>
#include <unordered_map>

namespace anygpu::intercept {
namespace {

std::mutex g_mutex;
// Never destroyed: a wrapper may run after static destructors (a driver's atexit teardown).
auto* const g_names = new std::unordered_map<const void*, std::string>;

}  // namespace

void remember_kernel(const void* handle, const char* name) {
  if (!handle || !name) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  (*g_names)[handle] = name;
}

void remember_kernel_alias(const void* handle, const void* known_handle) {
  if (!handle) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  auto known = g_names->find(known_handle);
  if (known != g_names->end()) (*g_names)[handle] = std::string(known->second);
}

std::string kernel_name(const void* handle) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto known = g_names->find(handle);
  return known == g_names->end() ? std::string() : known->second;
}

void lock_kernel_names() {
  g_mutex.lock();
}
void unlock_kernel_names() {
  g_mutex.unlock();
}

}  // namespace anygpu::intercept
