#include "ptx_reader.h"

#include <cctype>
#include <string_view>

#include "string_format.h"

namespace anygpu {
namespace {

bool token_char(char c) {
  return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '%';
}

// Splits PTX into tokens, skipping white space, comments and string literals.
class PtxTokens {
 public:
  explicit PtxTokens(std::string_view text) : text_(text) {}

  // The next token, or an empty view at the end.
  std::string_view next() {
    skip_space_and_comments();
    if (at_ >= text_.size()) return {};
    const size_t start = at_;
    if (text_[at_] == '"')
      skip_string();
    else if (!token_char(text_[at_]))
      ++at_;
    else
      while (at_ < text_.size() && token_char(text_[at_])) ++at_;
    return text_.substr(start, at_ - start);
  }

 private:
  void skip_space_and_comments() {
    while (at_ < text_.size()) {
      if (isspace(static_cast<unsigned char>(text_[at_]))) {
        ++at_;
      } else if (text_.compare(at_, 2, "//") == 0) {
        skip_past("\n", at_ + 2);
      } else if (text_.compare(at_, 2, "/*") == 0) {
        skip_past("*/", at_ + 2);
      } else {
        return;
      }
    }
  }
  void skip_past(std::string_view end, size_t from) {
    const size_t found = text_.find(end, from);
    at_ = found == std::string_view::npos ? text_.size() : found + end.size();
  }
  void skip_string() {
    for (++at_; at_ < text_.size() && text_[at_] != '"'; ++at_)
      if (text_[at_] == '\\') ++at_;
    if (at_ < text_.size()) ++at_;
  }

  std::string_view text_;
  size_t at_ = 0;
};

bool parse_version(std::string_view token, unsigned* major, unsigned* minor) {
  const size_t dot = token.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot + 1 == token.size() || token.size() > 8)
    return false;
  unsigned parts[2] = {0, 0};
  for (size_t i = 0, part = 0; i < token.size(); ++i) {
    if (i == dot) {
      part = 1;
    } else if (isdigit(static_cast<unsigned char>(token[i]))) {
      parts[part] = parts[part] * 10 + static_cast<unsigned>(token[i] - '0');
    } else {
      return false;
    }
  }
  *major = parts[0];
  *minor = parts[1];
  return true;
}

std::string_view until_nul(ByteReader text) {
  const auto* start = reinterpret_cast<const char*>(text.data());
  const void* nul = text.size() ? memchr(start, 0, text.size()) : nullptr;
  return std::string_view(start, nul ? static_cast<const char*>(nul) - start : text.size());
}

}  // namespace

bool read_ptx(ByteReader text, PtxInfo* info, std::string* error) {
  *info = PtxInfo();
  PtxTokens tokens(until_nul(text));
  bool has_version = false, has_target = false;
  for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
    if (token == ".version" && !has_version) {
      const std::string_view value = tokens.next();
      if (!parse_version(value, &info->version_major, &info->version_minor)) {
        *error = "its .version directive is not of the form MAJOR.MINOR";
        return false;
      }
      has_version = true;
    } else if (token == ".target" && !has_target) {
      if (!parse_cuda_arch(tokens.next(), &info->target)) {
        *error = "its .target directive names no sm_XY architecture";
        return false;
      }
      has_target = true;
    } else if (token == ".entry") {
      const std::string_view name = tokens.next();
      if (name.empty() || !token_char(name[0])) {
        *error = "an .entry directive has no kernel name";
        return false;
      }
      info->entries.emplace_back(name);
    }
  }
  if (!has_version || !has_target) {
    *error = has_version ? "it has no .target directive" : "it has no .version directive";
    return false;
  }
  return true;
}

}  // namespace anygpu
