// Modules, functions and their parameter layout.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "shim/api/api_common.h"
#include "shim/code_object/code_object_kernels.h"
#include "shim/code_object/kernel_name_match.h"
#include "shim/core/function_limits.h"
#include "shim/core/host_function_guard.h"
#include "shim/core/run_time_build.h"

using namespace anygpu;

ag_result anygpu::load_module(Device* dev, const void* image, size_t bytes, ag_module* module) {
  CodeObject code;
  std::vector<unsigned char> built;  // a code object built at load time, where the image had none
  if (ag_result r = code_object_for_device(*dev, image, bytes, &code, &built)) return r;
  // Read before the backend takes the code: a list it cannot read leaves names to the backend.
  std::vector<std::string> names;
  std::string unreadable;
  if (!code_object_kernels(code, &names, &unreadable)) names.clear();
  KernelNameTable kernel_names = make_kernel_name_table(names);
  void* native = nullptr;
  if (ag_result r = dev->impl->module_load(code, &native)) return r;
  auto* object = new Module;
  object->device = dev;
  object->native = native;
  object->kernel_names = std::move(kernel_names);
  void* handle = handles().modules.insert(object);
  if (!handle) {
    dev->impl->module_unload(native);
    delete object;
    return fail(AG_ERROR_OUT_OF_MEMORY, "too many modules");
  }
  *module = static_cast<ag_module>(handle);
  return AG_SUCCESS;
}

namespace {

// The largest file agModuleLoad reads (anygpu.h): far above any real code object, far below
// what would exhaust memory.
constexpr off_t kMaxModuleFileBytes = off_t{1} << 30;

// Reads the regular file `path` whole, with a bounded size; records the failure.
ag_result read_module_file(const char* path, std::vector<unsigned char>& bytes) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    if (error == EMFILE || error == ENFILE)
      return fail(AG_ERROR_OUT_OF_RESOURCES, "cannot open %s: %s (out of file descriptors)", path,
                  strerror(error));
    return fail(AG_ERROR_FILE_NOT_FOUND, "cannot open %s: %s", path, strerror(error));
  }
  struct stat status;
  ag_result result = AG_SUCCESS;
  if (fstat(fd, &status) != 0) {
    result = fail(AG_ERROR_FILE_NOT_FOUND, "cannot read %s: %s", path, strerror(errno));
  } else if (!S_ISREG(status.st_mode)) {
    result = fail(AG_ERROR_FILE_NOT_FOUND, "%s is %s, not a regular file", path,
                  S_ISDIR(status.st_mode) ? "a directory" : "a device, FIFO or socket");
  } else if (status.st_size > kMaxModuleFileBytes) {
    result = fail(
        AG_ERROR_INVALID_IMAGE, "%s has %lld bytes, more than the %lld a module file may have",
        path, static_cast<long long>(status.st_size), static_cast<long long>(kMaxModuleFileBytes));
  } else {
    bytes.resize(static_cast<size_t>(status.st_size));
    size_t done = 0;
    while (done < bytes.size()) {  // the size read by fstat bounds the read, whatever happens
      const ssize_t n = read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        result = fail(AG_ERROR_FILE_NOT_FOUND, "cannot read %s: %s", path, strerror(errno));
        break;
      }
      if (n == 0) break;  // the file shrank meanwhile
      done += static_cast<size_t>(n);
    }
    bytes.resize(done);
  }
  close(fd);
  return result;
}

std::vector<std::string> readable_kernel_names(const KernelNameTable& table) {
  std::vector<std::string> readable;
  readable.reserve(table.kernels.size());
  for (const KernelName& kernel : table.kernels) readable.push_back(kernel.readable);
  std::sort(readable.begin(), readable.end());  // the symbol table's order means nothing
  return readable;
}

// The code object's exact name for the kernel `requested` names (kernel_name_match.h), or the
// request itself where the module lists no kernels or none matched (the backend then decides).
// `listed` says whether the module's list has it.
ag_result resolve_kernel_name(const Module& module, const char* requested, std::string* resolved,
                              bool* listed) {
  *resolved = requested;
  *listed = false;
  if (module.kernel_names.kernels.empty()) return AG_SUCCESS;
  KernelNameMatch match = match_kernel_name(module.kernel_names, requested);
  if (match.kind == KernelNameMatch::Kind::resolved) {
    *resolved = std::move(match.resolved);
    *listed = true;
  }
  if (match.kind != KernelNameMatch::Kind::ambiguous) return AG_SUCCESS;
  return fail(AG_ERROR_INVALID_VALUE,
              "'%s' names %zu kernels of the module: %s; ask for one by its template arguments, "
              "signature or mangled name",
              requested, match.candidates.size(), describe_kernel_names(match.candidates).c_str());
}

// No kernel of the module's list matched `requested`, nor did the backend find one: its reason
// (the driver's error, which the detail keeps), then the kernels the module has.
ag_result fail_not_listed(const Module& module) {
  const std::string reason = last_error_reason();
  const KernelNameTable& table = module.kernel_names;
  return fail(AG_ERROR_NOT_FOUND, "%s; the module's %zu kernel%s: %s", reason.c_str(),
              table.kernels.size(), table.kernels.size() == 1 ? " is" : "s are",
              describe_kernel_names(readable_kernel_names(table)).c_str());
}

}  // namespace

extern "C" {

ag_result agModuleLoadData(ag_device device, const void* image, size_t bytes,
                           ag_module* module) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(image, "image")) return r;
  if (ag_result r = require_size(bytes)) return r;
  if (ag_result r = require_pointer(module, "module")) return r;
  return load_module(dev, image, bytes, module);
} catch (...) {
  return fail_from_exception();
}

ag_result agModuleLoad(ag_device device, const char* path, ag_module* module) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(path, "path")) return r;
  if (ag_result r = require_pointer(module, "module")) return r;
  std::vector<unsigned char> bytes;
  if (ag_result r = read_module_file(path, bytes)) return r;
  if (bytes.empty()) return fail(AG_ERROR_INVALID_IMAGE, "%s is empty", path);
  return load_module(dev, bytes.data(), bytes.size(), module);
} catch (...) {
  return fail_from_exception();
}

ag_result agModuleUnload(ag_module module) try {
  AG_DEVICE_ENTRY();
  {  // a GPU backend waits for the device's work first; the reference must go before the remove
    ModuleRef found;
    if (ag_result r = get_module(module, &found)) return r;
    if (ag_result r = refuse_wait_in_host_function(*found->device)) return r;
  }
  Module* m = handles().modules.remove(module);
  if (!m) {
    ModuleRef none;
    return get_module(module, &none);  // records the detail
  }
  // No call can reach the module any more, so its function list no longer changes. Removing a
  // function waits for launches of it in flight; no lock is held across that wait.
  std::map<std::string, ag_function> functions;
  {
    std::lock_guard<std::mutex> lock(m->functions_mutex);
    functions.swap(m->functions);
  }
  for (const auto& named : functions) delete handles().functions.remove(named.second);
  for (const auto& named : m->variables)
    m->device->allocations.remove(named.second.address, AllocationKind::module_variable);
  // The backend keeps the code alive for launches still queued (backend.h).
  const ag_result r = m->device->impl->module_unload(m->native);
  delete m;
  return r;
} catch (...) {
  return fail_from_exception();
}

ag_result agModuleGetFunction(ag_module module, const char* name, ag_function* function) try {
  AG_DEVICE_ENTRY();
  ModuleRef m;
  if (ag_result r = get_module(module, &m)) return r;
  if (ag_result r = require_pointer(name, "name")) return r;
  if (ag_result r = require_pointer(function, "function")) return r;
  if (name[0] == '\0') return fail(AG_ERROR_INVALID_VALUE, "name is empty");
  // Held across the backend's lookup so that two threads asking for one kernel get one handle.
  std::lock_guard<std::mutex> lock(m->functions_mutex);
  const auto exact = m->functions.find(name);  // an exact name asked for before: no matching
  if (exact != m->functions.end()) {
    *function = exact->second;
    return AG_SUCCESS;
  }
  std::string resolved;
  bool listed = false;
  if (ag_result r = resolve_kernel_name(*m, name, &resolved, &listed)) return r;
  const auto known = m->functions.find(resolved);
  if (known != m->functions.end()) {
    *function = known->second;
    return AG_SUCCESS;
  }
  auto* object = new Function;
  object->module = m.get();
  object->device = m->device;
  object->native = nullptr;
  if (ag_result r = m->device->impl->module_get_function(
          m->native, resolved.c_str(), &object->native, object->params, object->params_known)) {
    delete object;
    const bool unknown = r == AG_ERROR_NOT_FOUND && !listed && !m->kernel_names.kernels.empty();
    return unknown ? fail_not_listed(*m) : r;
  }
  if (ag_result r = m->device->impl->function_attributes(object->native, object->attributes)) {
    delete object;
    return r;
  }
  object->max_dynamic_shared = default_max_dynamic_shared(*object);
  void* handle = handles().functions.insert(object);
  if (!handle) {
    delete object;
    return fail(AG_ERROR_OUT_OF_MEMORY, "too many functions");
  }
  m->functions.emplace(std::move(resolved), static_cast<ag_function>(handle));
  *function = static_cast<ag_function>(handle);
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agModuleGetGlobal(ag_module module, const char* name, void** device_ptr,
                            size_t* bytes) try {
  AG_DEVICE_ENTRY();
  ModuleRef m;
  if (ag_result r = get_module(module, &m)) return r;
  if (ag_result r = require_pointer(name, "name")) return r;
  // No variable has an empty name; said as the backends say an unknown one.
  if (name[0] == '\0') return fail(AG_ERROR_NOT_FOUND, "the module has no global named ''");
  std::lock_guard<std::mutex> lock(m->functions_mutex);
  auto known = m->variables.find(name);
  if (known == m->variables.end()) {
    Module::Variable found{nullptr, 0};
    if (ag_result r =
            m->device->impl->module_get_global(m->native, name, &found.address, &found.bytes))
      return r;
    // Copies check their device addresses against the device's allocations: the variable is one
    // until the module is unloaded.
    known = m->variables.emplace(name, found).first;
    m->device->allocations.add(found.address, found.bytes, AllocationKind::module_variable);
  }
  // Written only on success, so a failed call changes nothing.
  if (device_ptr) *device_ptr = known->second.address;
  if (bytes) *bytes = known->second.bytes;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agFunctionGetParamCount(ag_function function, int* count) try {
  AG_DEVICE_ENTRY();
  FunctionRef f;
  if (ag_result r = get_function(function, &f)) return r;
  if (ag_result r = require_pointer(count, "count")) return r;
  if (!f->params_known)
    return fail(AG_ERROR_NOT_SUPPORTED,
                "the code object records no parameter layout for this kernel (PTX or a cubin not "
                "built by anygpu_add_kernels, on a driver that cannot tell)");
  *count = static_cast<int>(f->params.size());
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agFunctionGetParamInfo(ag_function function, int index, ag_param_info* info) try {
  AG_DEVICE_ENTRY();
  FunctionRef f;
  if (ag_result r = get_function(function, &f)) return r;
  if (ag_result r = require_pointer(info, "info")) return r;
  if (!f->params_known)
    return fail(AG_ERROR_NOT_SUPPORTED,
                "the code object records no parameter layout for this "
                "kernel");
  if (ag_result r = require_index(index, f->params.size(), "parameter index")) return r;
  return write_versioned(info, f->params[index], "info");
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
