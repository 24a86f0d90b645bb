#include "dynamic_library.h"

#include <dlfcn.h>

#include "shim/core/environment.h"

namespace anygpu {
namespace {

void* open_one(const std::string& name, std::string& error) {
  if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) return handle;
  if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  const char* message = dlerror();
  error = message ? message : (name + ": cannot be opened");
  return nullptr;
}

}  // namespace

OpenedLibrary open_library(const std::vector<std::string>& candidates, const char* override_env) {
  OpenedLibrary result;
  const std::string override_path = override_env ? environment(override_env) : "";
  if (override_env != nullptr && !override_path.empty()) {
    result.path = override_path;
    result.handle = open_one(override_path, result.error);
    if (!result.handle)
      result.error = std::string(override_env) + "=" + override_path + ": " + result.error;
    return result;
  }
  std::string tried, first_error;
  for (const std::string& name : candidates) {
    std::string error;
    result.path = name;
    result.handle = open_one(name, error);
    if (result.handle) return result;
    tried += (tried.empty() ? "" : ", ") + name;
    if (first_error.empty()) first_error = error;
  }
  result.error = "tried " + tried + " (" + first_error + ")";
  return result;
}

}  // namespace anygpu
