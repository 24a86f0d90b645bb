#include "interpose/function_names.h"

#include <cctype>

namespace anygpu::intercept {
namespace {

#define ANYGPU_INTERCEPT_NAME(symbol, ...) #symbol,
const char* const kSymbols[] = {ANYGPU_CUDA_FUNCTIONS(ANYGPU_INTERCEPT_NAME)
                                    ANYGPU_HIP_FUNCTIONS(ANYGPU_INTERCEPT_NAME)};
#undef ANYGPU_INTERCEPT_NAME

#define ANYGPU_INTERCEPT_ONE(symbol, ...) +1
constexpr int kCudaCount = 0 ANYGPU_CUDA_FUNCTIONS(ANYGPU_INTERCEPT_ONE);
#undef ANYGPU_INTERCEPT_ONE

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Strips a trailing _v<digits>, if there is one.
std::string_view strip_version(std::string_view name) {
  size_t digits = 0;
  while (digits < name.size() &&
         isdigit(static_cast<unsigned char>(name[name.size() - 1 - digits])))
    ++digits;
  if (digits == 0 || name.size() < digits + 3) return name;
  std::string_view head = name.substr(0, name.size() - digits);
  return ends_with(head, "_v") ? head.substr(0, head.size() - 2) : name;
}

}  // namespace

const char* function_symbol(int id) {
  return kSymbols[id];
}

Api function_api(int id) {
  return id < kCudaCount ? Api::cuda : Api::hip;
}

int find_function(std::string_view symbol) {
  for (int id = 0; id < kFunctionCount; ++id)
    if (symbol == kSymbols[id]) return id;
  return -1;
}

std::string_view base_name(std::string_view symbol) {
  for (std::string_view suffix : {"_ptsz", "_ptds"})
    if (ends_with(symbol, suffix)) symbol.remove_suffix(suffix.size());
  return strip_version(symbol);
}

bool name_selects(std::string_view name, int id) {
  std::string_view symbol = kSymbols[id];
  return name == symbol || name == base_name(symbol);
}

}  // namespace anygpu::intercept
