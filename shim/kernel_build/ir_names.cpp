#include "shim/kernel_build/ir_names.h"

namespace anygpu {

bool is_ir_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '$' || c == '.' || c == '_';
}

std::string ir_name_at(const std::string& text, size_t at) {
  if (at < text.size() && text[at] == '"') {
    const size_t close = text.find('"', at + 1);
    return close == std::string::npos ? "" : text.substr(at, close - at + 1);
  }
  size_t end = at;
  while (end < text.size() && is_ir_name_char(text[end])) ++end;
  return text.substr(at, end - at);
}

}  // namespace anygpu
