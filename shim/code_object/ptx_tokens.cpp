#include "shim/code_object/ptx_tokens.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace anygpu {

std::string_view ptx_text(ByteReader bytes) {
  const auto* start = reinterpret_cast<const char*>(bytes.data());
  const void* nul = bytes.size() ? memchr(start, 0, bytes.size()) : nullptr;
  return std::string_view(start, nul ? static_cast<const char*>(nul) - start : bytes.size());
}

bool ptx_token_char(char c) {
  return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '%';
}

std::string_view PtxTokens::next() {
  skip_space_and_comments();
  if (at_ >= text_.size()) return {};
  const size_t start = at_++;
  if (ptx_token_char(text_[start])) {
    while (at_ < text_.size() && ptx_token_char(text_[at_])) ++at_;
  } else if (text_[start] == '"') {
    for (; at_ < text_.size() && text_[at_] != '"'; ++at_)
      if (text_[at_] == '\\') ++at_;  // may step past the end: the min below brings it back
    at_ = std::min(at_ + 1, text_.size());
  }
  return text_.substr(start, at_ - start);
}

void PtxTokens::skip_space_and_comments() {
  while (at_ < text_.size()) {
    if (isspace(static_cast<unsigned char>(text_[at_]))) {
      ++at_;
    } else if (text_.compare(at_, 2, "//") == 0 || text_.compare(at_, 2, "/*") == 0) {
      const std::string_view end = text_[at_ + 1] == '/' ? "\n" : "*/";
      const size_t found = text_.find(end, at_ + 2);
      at_ = found == std::string_view::npos ? text_.size() : found + end.size();
    } else {
      return;
    }
  }
}

}  // namespace anygpu
