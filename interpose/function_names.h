// The wrapped functions by number: one enumerator per line of cuda_functions.h and
// hip_functions.h. Shared by the interposer and anygpu-trace (which checks fault specs' names).
#pragma once

#include <string_view>

#include "interpose/cuda_functions.h"
#include "interpose/hip_functions.h"

namespace anygpu::intercept {

enum class Api { cuda, hip };

#define ANYGPU_INTERCEPT_ENUMERATE(symbol, ...) k_##symbol,
enum FunctionId : int {
  ANYGPU_CUDA_FUNCTIONS(ANYGPU_INTERCEPT_ENUMERATE) ANYGPU_HIP_FUNCTIONS(ANYGPU_INTERCEPT_ENUMERATE)
      kFunctionCount
};
#undef ANYGPU_INTERCEPT_ENUMERATE

const char* function_symbol(int id);
Api function_api(int id);

// The wrapped function of that exact symbol, or -1.
int find_function(std::string_view symbol);

// The name without its version and per-thread-stream suffixes: cuMemcpyHtoDAsync_v2_ptsz ->
// cuMemcpyHtoDAsync. What cuGetProcAddress is asked for, and what a fault spec may name.
std::string_view base_name(std::string_view symbol);

// Whether a fault spec's function name selects the function: its exact symbol, or its base name
// (which selects every version).
bool name_selects(std::string_view name, int id);

}  // namespace anygpu::intercept
