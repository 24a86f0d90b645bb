#include "interpose/json_text.h"

#include <cstdio>

namespace anygpu::intercept {

void append_json_string(std::string* out, std::string_view text) {
  out->push_back('"');
  for (unsigned char ch : text) {
    switch (ch) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\t':
        *out += "\\t";
        break;
      default:
        // Control characters, and bytes that are not ASCII (a name need not be UTF-8), by number.
        if (ch < 0x20 || ch >= 0x7f) {
          char escaped[8];
          snprintf(escaped, sizeof escaped, "\\u%04x", ch);
          *out += escaped;
        } else {
          out->push_back(static_cast<char>(ch));
        }
    }
  }
  out->push_back('"');
}

}  // namespace anygpu::intercept
