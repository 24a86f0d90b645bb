// Resolving a vendor library's entry points into its table of function pointers, in volk's
// shape: the caller says how one function is looked up (dlsym, or the library's own versioned
// GetProcAddress) and resolve_functions fills the whole table, telling which required ones were
// not found. Header-only: the loaders, the test drivers' tests and the benchmarks all use it.
#pragma once

#include <dlfcn.h>

#include <functional>
#include <string>

namespace anygpu {

// The function exported as `symbol`, or the one a versioned GetProcAddress answers for `name`
// ("cuMemAlloc" for cuMemAlloc_v2); nullptr when there is none.
using SymbolLookup = std::function<void*(const char* symbol, const char* name)>;

// `found` as the type of `target`.
template <typename Function>
void set_function(Function& target, void* found) {
  target = reinterpret_cast<Function>(found);
}

// A library without a GetProcAddress of its own: its exported symbols.
inline SymbolLookup dlsym_lookup(void* library) {
  return [library](const char* symbol, const char*) { return dlsym(library, symbol); };
}

// A library whose GetProcAddress (cuGetProcAddress_v2, hipGetProcAddress: the same shape) answers
// for a name at an API version, given by `api_version(name)`, with `flags`. A function it does not
// answer with success for is not there.
template <typename Result, typename Flags, typename Status>
SymbolLookup proc_address_lookup(Result (*get_proc_address)(const char*, void**, int, Flags,
                                                            Status*),
                                 int (*api_version)(const char* name), unsigned long long flags) {
  return [=](const char*, const char* name) -> void* {
    void* function = nullptr;
    Status status{1};  // "symbol not found" in both APIs, until answered
    const Result result =
        get_proc_address(name, &function, api_version(name), static_cast<Flags>(flags), &status);
    return result == Result{0} && status == Status{0} ? function : nullptr;
  };
}

// Fills every entry point of `table` through `lookup`; the table's type has a visit_functions
// overload (cuda_api.h and the like) that names each entry and whether it is required. Returns
// the required symbols not found, ", "-separated: empty when all were.
template <typename Table>
std::string resolve_functions(Table& table, const SymbolLookup& lookup) {
  std::string missing;
  visit_functions(table, [&](auto& target, const char* symbol, const char* name, bool required) {
    set_function(target, lookup(symbol, name));
    if (!target && required) missing += (missing.empty() ? "" : ", ") + std::string(symbol);
  });
  return missing;
}

}  // namespace anygpu
