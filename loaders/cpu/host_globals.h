// Module-scope variables of a host code object (agModuleGetGlobal on the CPU device): a variable
// exported from the shared object, whose address is its device address and whose size is its
// ELF symbol's.
#pragma once

#include <anygpu/anygpu.h>

#include <cstddef>

namespace anygpu::cpu {

// `handle`: the dlopen handle of the host code object. Only a data symbol defined by that object
// itself counts (not one of its dependencies, not a function or thread-local variable). Records
// the detail and returns AG_ERROR_NOT_FOUND otherwise.
ag_result find_host_global(void* handle, const char* name, void** pointer, size_t* bytes);

}  // namespace anygpu::cpu
