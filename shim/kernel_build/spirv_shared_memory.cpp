#include "shim/kernel_build/spirv_shared_memory.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <sstream>
#include <string_view>
#include <vector>

namespace anygpu {

namespace {

// Appends every part to `text`, in order.
void append_all(std::string* text, std::initializer_list<std::string_view> parts) {
  for (std::string_view part : parts) text->append(part);
}

struct Layout {
  unsigned long size = 0, alignment = 1;
};

class TypeSizes {
 public:
  explicit TypeSizes(const std::string& ir) {
    std::istringstream lines(ir);
    for (std::string line; std::getline(lines, line);) {
      const size_t equals = line.find(" = type ");
      if (line.empty() || line[0] != '%' || equals == std::string::npos) continue;
      bodies_[line.substr(0, equals)] = line.substr(equals + 8);
    }
  }

  // The size and alignment of the type spelled at text[at...], which `at` is moved past.
  bool layout(const std::string& text, size_t* at, Layout* out, int depth = 0) {
    if (depth > 32) return false;
    skip_spaces(text, at);
    if (*at >= text.size()) return false;
    const char first = text[*at];
    if (text.compare(*at, 2, "<{") == 0 || first == '{') return struct_layout(text, at, out, depth);
    Layout element;
    if (first == '[' || first == '<') {  // [N x T] or <N x T>
      ++*at;
      char* end = nullptr;
      const unsigned long count = strtoul(text.c_str() + *at, &end, 10);
      *at = text.find(" x ", *at);
      if (*at == std::string::npos) return false;
      *at += 3;
      if (!layout(text, at, &element, depth + 1)) return false;
      skip_spaces(text, at);
      ++*at;  // ] or >
      out->alignment =
          first == '<' ? round_up_power_of_two(element.size * count) : element.alignment;
      out->size = round_up(element.size * count, out->alignment);
      return pointer_suffix(text, at, out);
    }
    if (first == '%') {
      size_t end = *at + 1;
      while (end < text.size() &&
             (isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
              text[end] == '.' || text[end] == '-' || text[end] == '$'))
        ++end;
      const std::string name = text.substr(*at, end - *at);
      *at = end;
      const auto body = bodies_.find(name);
      if (body == bodies_.end()) return false;
      size_t inner = 0;
      if (!layout(body->second, &inner, out, depth + 1)) return false;
      return pointer_suffix(text, at, out);
    }
    static const std::map<std::string, Layout> scalars = {
        {"half", {2, 2}}, {"bfloat", {2, 2}}, {"float", {4, 4}}, {"double", {8, 8}},
        {"i1", {1, 1}},   {"i8", {1, 1}},     {"i16", {2, 2}},   {"i32", {4, 4}},
        {"i64", {8, 8}},  {"i128", {16, 16}}, {"ptr", {8, 8}}};
    for (const auto& [spelling, scalar] : scalars) {
      const size_t end = *at + spelling.size();
      if (text.compare(*at, spelling.size(), spelling) == 0 &&
          (end == text.size() || !isalnum(static_cast<unsigned char>(text[end])))) {
        *at = end;
        *out = scalar;
        return pointer_suffix(text, at, out);
      }
    }
    return false;
  }

 private:
  static void skip_spaces(const std::string& text, size_t* at) {
    while (*at < text.size() && text[*at] == ' ') ++*at;
  }
  static unsigned long round_up(unsigned long value, unsigned long alignment) {
    return (value + alignment - 1) / alignment * alignment;
  }
  static unsigned long round_up_power_of_two(unsigned long value) {
    unsigned long power = 1;
    while (power < value) power *= 2;
    return power;
  }
  // "T addrspace(N)*" or "T*": a pointer, 8 bytes on spirv64.
  static bool pointer_suffix(const std::string& text, size_t* at, Layout* out) {
    for (;;) {
      skip_spaces(text, at);
      if (text.compare(*at, 10, "addrspace(") == 0) {
        *at = text.find(')', *at);
        if (*at == std::string::npos) return false;
        ++*at;
        continue;
      }
      if (*at < text.size() && text[*at] == '*') {
        ++*at;
        *out = Layout{8, 8};
        continue;
      }
      return true;
    }
  }
  bool struct_layout(const std::string& text, size_t* at, Layout* out, int depth) {
    const bool packed = text[*at] == '<';
    *at += packed ? 2 : 1;
    Layout whole{0, 1};
    for (;;) {
      skip_spaces(text, at);
      if (*at >= text.size()) return false;
      if (text[*at] == '}') {
        *at += packed ? 2 : 1;
        break;
      }
      Layout field;
      if (!layout(text, at, &field, depth + 1)) return false;
      if (!packed) {
        whole.size = round_up(whole.size, field.alignment);
        whole.alignment = std::max(whole.alignment, field.alignment);
      }
      whole.size += field.size;
      skip_spaces(text, at);
      if (*at < text.size() && text[*at] == ',') ++*at;
    }
    whole.size = round_up(whole.size, whole.alignment);
    *out = whole;
    return pointer_suffix(text, at, out);
  }

  std::map<std::string, std::string> bodies_;
};

void replace_all(std::string* text, const std::string& from, const std::string& to) {
  for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size()))
    text->replace(at, from.size(), to);
}

}  // namespace

namespace {

// `line` as `@NAME = external [hidden |protected ][local_unnamed_addr |unnamed_addr ]addrspace(3)
// global [0 x TYPE], align N`: an extern __shared__ array. Fills its parts; false for any other
// line.
bool extern_shared_declaration(const std::string& line, std::string* name, std::string* visibility,
                               std::string* element, std::string* alignment) {
  const size_t equals = line.find(" = external ");
  if (line.empty() || line[0] != '@' || equals == std::string::npos) return false;
  *name = line.substr(0, equals);
  std::string rest = line.substr(equals + 12);
  visibility->clear();
  for (const char* word : {"hidden ", "protected "})
    if (rest.rfind(word, 0) == 0) {
      *visibility = word;
      rest.erase(0, strlen(word));
    }
  for (const char* word : {"local_unnamed_addr ", "unnamed_addr "})
    if (rest.rfind(word, 0) == 0) rest.erase(0, strlen(word));
  const std::string head = "addrspace(3) global [0 x ";
  const std::string tail = "], align ";
  const size_t close = rest.rfind(tail);
  if (rest.rfind(head, 0) != 0 || close == std::string::npos || close < head.size()) return false;
  *element = rest.substr(head.size(), close - head.size());
  *alignment = rest.substr(close + tail.size());
  return !alignment->empty() && alignment->find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

bool size_extern_shared_arrays(const std::string& ir, unsigned long bytes, std::string* sized,
                               std::string* error) {
  TypeSizes sizes(ir);
  std::string text = ir;
  std::map<std::string, unsigned long> counts;  // element type -> elements
  std::istringstream lines(ir);
  for (std::string line; std::getline(lines, line);) {
    std::string name, visibility, element, alignment;
    if (!extern_shared_declaration(line, &name, &visibility, &element, &alignment)) continue;
    size_t at = 0;
    Layout layout;
    if (!sizes.layout(element, &at, &layout) || layout.size == 0) {
      error->clear();
      append_all(error, {"the extern __shared__ array ", name, " has elements of type ", element,
                         ", whose size is not known here"});
      return false;
    }
    const unsigned long count = std::max(1ul, bytes / layout.size);
    counts[element] = count;
    std::string definition;
    append_all(&definition, {name, " = ", visibility, "addrspace(3) global [",
                             std::to_string(count), " x ", element, "] undef, align ", alignment});
    replace_all(&text, line, definition);
  }
  for (const auto& [element, count] : counts) {
    std::string unsized, sized_type;
    append_all(&unsized, {"[0 x ", element, "]"});
    append_all(&sized_type, {"[", std::to_string(count), " x ", element, "]"});
    replace_all(&text, unsized, sized_type);
  }
  *sized = text;
  return true;
}

}  // namespace anygpu
