#include "shim/kernel_build/kernel_declaration.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace anygpu {

namespace {

void erase_all(std::string* text, const std::string& part) {
  for (size_t at = text->find(part); at != std::string::npos; at = text->find(part, at))
    text->erase(at, part.size());
}

}  // namespace

bool is_identifier(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

bool kernel_declaration(const std::string& mangled, KernelDeclaration* declaration,
                        std::string* error) {
  if (mangled.compare(0, 2, "_Z") != 0 && is_identifier(mangled)) {
    *declaration = KernelDeclaration{mangled, "", true};
    return true;
  }
  int status = 0;
  std::unique_ptr<char, decltype(&free)> demangled(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &free);
  if (status != 0 || !demangled) {
    *error = mangled + " is neither a mangled C++ function name nor an extern \"C\" one";
    return false;
  }
  std::string text = demangled.get();
  erase_all(&text, "(anonymous namespace)::");
  // Template instances carry their return type first ("void reduce<256u>(...)"): kernels return
  // void, and no C++ name starts with "void ".
  if (text.rfind("void ", 0) == 0) text.erase(0, 5);
  if (text.empty() || text.back() != ')') {
    *error = mangled + " demangles to \"" + text + "\", not a function";
    return false;
  }
  // The parameter list is the parenthesis that closes the text; types inside it may hold
  // parentheses of their own (function pointers).
  int depth = 0;
  size_t open = std::string::npos;
  for (size_t i = text.size(); i-- > 0;) {
    if (text[i] == ')') ++depth;
    if (text[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string::npos || open == 0) {
    *error = mangled + " demangles to \"" + text + "\", whose parameters cannot be read";
    return false;
  }
  declaration->c_linkage = false;
  declaration->name = text.substr(0, open);
  declaration->params = text.substr(open + 1, text.size() - open - 2);
  if (declaration->params == "void") declaration->params.clear();
  return true;
}

}  // namespace anygpu
