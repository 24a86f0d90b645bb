#include "interpose/proc_address.h"

#include <dlfcn.h>

#include "interpose/call_stats.h"
#include "interpose/real_functions.h"
#include "interpose/wrappers.h"

namespace anygpu::intercept {

bool hand_out_entry_point(Api api, const char* requested, void** pfn) {
  if (!requested || !pfn || !*pfn) return false;
  void* answer = *pfn;
  std::string_view family = base_name(requested);
  // A driver that takes the address of its own export gets the interposer's (the preloaded
  // definition comes first): the answer is a wrapper already.
  for (int id = 0; id < kFunctionCount; ++id) {
    if (answer == wrapper_address(id) && base_name(function_symbol(id)) == family) {
      record_entry_point(requested, true);
      return true;
    }
  }
  // The library the answer lies in, opened again only to look its exports up.
  Dl_info info;
  void* library = nullptr;
  if (dladdr(answer, &info) && info.dli_fname)
    library = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  bool wrapped = false;
  for (int id = 0; library && !wrapped && id < kFunctionCount; ++id) {
    if (function_api(id) != api || base_name(function_symbol(id)) != family) continue;
    if (real_dlsym()(library, function_symbol(id)) != answer) continue;
    void* handed = wrapper_for(id, answer);
    if (handed != answer) {
      *pfn = handed;
      wrapped = true;
    }
    break;
  }
  if (library) dlclose(library);  // drops the reference RTLD_NOLOAD took
  record_entry_point(requested, wrapped);
  return wrapped;
}

}  // namespace anygpu::intercept
