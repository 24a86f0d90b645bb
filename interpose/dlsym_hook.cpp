// The interposer's dlsym: a program that dlopens libcuda.so.1 or libamdhip64 and looks a function
// up (as the CUDA Runtime looks up cuGetProcAddress) gets the wrapper; every other lookup is
// glibc's own. A lookup with RTLD_NEXT is answered as if made from the interposer, which comes
// right after the program in the lookup order and exports only the wrapped names.
#include <dlfcn.h>

#include "interpose/real_functions.h"
#include "interpose/wrappers.h"

namespace anygpu::intercept {
namespace {

// A sanitizer runtime looks its real functions up with dlsym while it starts, before its shadow
// memory exists: the path of a name not wrapped must run no sanitizer check (nor strncmp, which
// the sanitizer intercepts).
ANYGPU_NOT_SANITIZED bool may_be_wrapped(const char* name) {
  return name && ((name[0] == 'c' && name[1] == 'u') ||
                  (name[0] == 'h' && name[1] == 'i' && name[2] == 'p'));
}

}  // namespace

extern "C" ANYGPU_INTERCEPT_EXPORT ANYGPU_NOT_SANITIZED void* dlsym(void* handle,
                                                                    const char* name) {
  DlsymFunction real = real_dlsym();
  if (!real) return nullptr;
  // A tail call, so RTLD_NEXT still searches after our caller (see interpose/CMakeLists.txt).
  if (!may_be_wrapped(name)) return real(handle, name);
  int id = find_function(name);
  if (id < 0) return real(handle, name);
  void* found = real(handle, name);
  if (!found) return nullptr;
  // RTLD_DEFAULT finds the wrapper itself: it stands for the real function, if there is one.
  if (found == wrapper_address(id)) return real_function(id) ? found : nullptr;
  if (handle != RTLD_DEFAULT && handle != RTLD_NEXT) remember_library(function_api(id), handle);
  return wrapper_for(id, found);
}

}  // namespace anygpu::intercept
