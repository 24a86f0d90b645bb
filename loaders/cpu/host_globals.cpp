#include "host_globals.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include "shim/core/error.h"

namespace anygpu::cpu {
namespace {

// Said for every name the object does not export as a variable.
ag_result not_found(const char* name, const char* why) {
  return fail(AG_ERROR_NOT_FOUND,
              "the module has no global named '%s'%s (a __device__ or __constant__ variable at "
              "file scope of the host code object; one in a namespace goes by its mangled name)",
              name, why);
}

}  // namespace

ag_result find_host_global(void* handle, const char* name, void** pointer, size_t* bytes) {
  dlerror();  // clears an earlier message
  void* address = dlsym(handle, name);
  if (!address) return not_found(name, "");
  // dlsym also searches the object's dependencies (libc's "environ" would be found): the symbol
  // must be the module's own.
  link_map* module_map = nullptr;
  link_map* symbol_map = nullptr;
  Dl_info info;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &module_map) != 0 ||
      !dladdr1(address, &info, reinterpret_cast<void**>(&symbol_map), RTLD_DL_LINKMAP) ||
      symbol_map != module_map)
    return not_found(name, " (that name is another library's)");
  void* entry = nullptr;
  if (!dladdr1(address, &info, &entry, RTLD_DL_SYMENT) || !entry || info.dli_saddr != address)
    return not_found(name, "");
  const auto* symbol = static_cast<const ElfW(Sym)*>(entry);
  // Functions (kernels' descriptors among them) and thread-local variables are not globals.
  const unsigned type = ELF64_ST_TYPE(symbol->st_info);
  if (type != STT_OBJECT)
    return not_found(name, type == STT_FUNC ? " (that name is a function)"
                                            : " (that name is not a plain variable)");
  *pointer = address;
  *bytes = static_cast<size_t>(symbol->st_size);
  return AG_SUCCESS;
}

}  // namespace anygpu::cpu
