#include "shim/code_object/ptx_reader.h"

#include <cctype>
#include <string_view>

#include "shim/code_object/ptx_tokens.h"

namespace anygpu {
namespace {

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

// The name declared after `.visible .global` or `.visible .const`: past the other directives
// (.align's value included), up to an array's bracket. "" when there is none.
std::string_view variable_name(PtxTokens& tokens) {
  for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
    if (token == ".align") {
      tokens.next();
    } else if (token[0] != '.') {
      return ptx_token_char(token[0]) ? token : std::string_view();
    }
  }
  return {};
}

}  // namespace

bool read_ptx(ByteReader text, PtxInfo* info, std::string* error) {
  *info = PtxInfo();
  PtxTokens tokens(ptx_text(text));
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
      if (name.empty() || !ptx_token_char(name[0])) {
        *error = "an .entry directive has no kernel name";
        return false;
      }
      info->entries.emplace_back(name);
    } else if (token == ".visible") {
      PtxTokens ahead = tokens;  // a copy reads ahead: `.visible .entry` is read above
      const std::string_view space = ahead.next();
      if (space != ".global" && space != ".const") continue;
      const std::string_view name = variable_name(ahead);
      if (!name.empty()) info->globals.emplace_back(name);
      tokens = ahead;
    }
  }
  if (!has_version || !has_target) {
    *error = has_version ? "it has no .target directive" : "it has no .version directive";
    return false;
  }
  return true;
}

}  // namespace anygpu
