#include "shim/code_object/kernel_name_match.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

namespace anygpu {
namespace {

constexpr std::string_view kAnonymousNamespace = "(anonymous namespace)";
constexpr std::string_view kAnonymousScope = "(anonymous namespace)::";
constexpr std::string_view kOperator = "operator";

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The end of an operator's symbol ("operator<", "operator()", "operator<<=") starting at `i`,
// just after the word "operator", so that its brackets are not taken for template arguments.
size_t skip_operator_symbol(std::string_view s, size_t i) {
  if (s.substr(i, 2) == "()" || s.substr(i, 2) == "[]") return i + 2;
  while (i < s.size() && s[i] != '\0' && std::strchr("<>=!+-*/%^&|~,", s[i])) ++i;
  if (i + 1 < s.size() && s[i] == ' ' && s[i + 1] == '<') ++i;  // "operator< <int>"
  return i;
}

bool word_at(std::string_view s, size_t i, std::string_view word) {
  return s.compare(i, word.size(), word) == 0 && (i == 0 || !is_identifier_char(s[i - 1])) &&
         (i + word.size() == s.size() || !is_identifier_char(s[i + word.size()]));
}

// Calls visit(i) for each position of `s` from `begin` outside every bracket, operator symbol and
// "(anonymous namespace)", opening brackets included, until visit returns false. Inside
// parentheses, '<' and '>' are brackets only as template arguments ("(A<int>)"), not as the
// comparisons the demangler writes there ("g<((2)>(1))>").
template <typename Visit>
void scan_top_level(std::string_view s, size_t begin, Visit visit) {
  std::string open;  // the brackets open at i, innermost last
  for (size_t i = begin; i < s.size();) {
    if (s.compare(i, kAnonymousNamespace.size(), kAnonymousNamespace) == 0) {
      i += kAnonymousNamespace.size();
      continue;
    }
    if (word_at(s, i, kOperator)) {
      i = skip_operator_symbol(s, i + kOperator.size());
      continue;
    }
    if (open.empty() && !visit(i)) return;
    const char c = s[i];
    const bool in_angles = open.empty() || open.back() == '<';
    if (c == '(' || c == '[' || c == '{') open.push_back(c);
    if (c == '<' && (in_angles || (i > 0 && is_identifier_char(s[i - 1])))) open.push_back(c);
    if (c == '>' && !open.empty() && open.back() == '<') open.pop_back();
    if (c == ')' || c == ']' || c == '}') {
      const char opener = c == ')' ? '(' : c == ']' ? '[' : '{';
      while (!open.empty() && open.back() != opener) open.pop_back();
      if (!open.empty()) open.pop_back();
    }
    ++i;
  }
}

// The end of the bracketed group that opens at `open`, or the end of `s` when it is unbalanced.
size_t group_end(std::string_view s, size_t open) {
  size_t end = s.size();
  scan_top_level(s, open, [&](size_t i) {
    if (i == open) return true;
    end = i;
    return false;
  });
  return end;
}

// "void ns::reduce<256>(float*, float*, unsigned int)": the qualified name (with its template
// arguments) and the parameter list; a function template's return type comes first.
struct DemangledParts {
  std::string_view qualified;
  std::string_view params;
};

DemangledParts split_demangled(std::string_view demangled) {
  size_t name_begin = 0, paren = std::string_view::npos;
  scan_top_level(demangled, 0, [&](size_t i) {
    if (demangled[i] == ' ') name_begin = i + 1;
    if (demangled[i] != '(') return true;
    paren = i;
    return false;
  });
  if (paren == std::string_view::npos) return {demangled.substr(name_begin), {}};
  return {demangled.substr(name_begin, paren - name_begin),
          demangled.substr(paren, group_end(demangled, paren) - paren)};
}

// "ns::scale<float>" -> "ns::scale"; a name without template arguments stays as it is.
std::string_view without_template_args(std::string_view name) {
  if (name.empty() || name.back() != '>') return name;
  size_t last_open = std::string_view::npos;
  scan_top_level(name, 0, [&](size_t i) {
    if (name[i] == '<') last_open = i;
    return true;
  });
  return last_open == std::string_view::npos ? name : name.substr(0, last_open);
}

// "ns::(anonymous namespace)::scale<float>" -> "scale<float>".
std::string_view last_component(std::string_view name) {
  size_t begin = 0;
  scan_top_level(name, 0, [&](size_t i) {
    if (name.compare(i, 2, "::") == 0) begin = i + 2;
    return true;
  });
  return name.substr(begin);
}

std::string without_anonymous_scopes(std::string_view name) {
  std::string result(name);
  for (size_t at; (at = result.find(kAnonymousScope)) != std::string::npos;)
    result.erase(at, kAnonymousScope.size());
  return result;
}

KernelName describe_kernel(const std::string& name) {
  KernelName kernel{name, demangle_kernel_name(name), {}};
  if (kernel.readable.empty()) {  // not mangled: its name alone names it
    kernel.readable = name;
    return kernel;
  }
  const DemangledParts parts = split_demangled(kernel.readable);
  std::vector<std::string> spellings{kernel.readable};
  for (const std::string& qualified :
       {std::string(parts.qualified), without_anonymous_scopes(parts.qualified)}) {
    const std::string_view plain = last_component(qualified);
    for (std::string_view scoped : {std::string_view(qualified), plain}) {
      spellings.emplace_back(scoped);
      const std::string_view untemplated = without_template_args(scoped);
      spellings.emplace_back(untemplated);
      if (parts.params.empty()) continue;
      spellings.emplace_back(std::string(scoped).append(parts.params));
      spellings.emplace_back(std::string(untemplated).append(parts.params));
    }
  }
  for (const std::string& spelling : spellings) {
    std::string normal = normalize_kernel_spelling(spelling);
    if (normal.empty() || normal == name) continue;
    if (std::find(kernel.aliases.begin(), kernel.aliases.end(), normal) == kernel.aliases.end())
      kernel.aliases.push_back(std::move(normal));
  }
  return kernel;
}

// "reduce<256u>" -> "reduce<256>": the demangler writes unsigned and long template arguments with
// their suffix (u, l, ul, ll, ull), which code that launches reduce<256> does not.
std::string without_integer_suffixes(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const bool number_starts =
        text[i] >= '0' && text[i] <= '9' && (i == 0 || !is_identifier_char(text[i - 1]));
    if (!number_starts) {
      out.push_back(text[i++]);
      continue;
    }
    size_t end = i;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    size_t suffix_end = end;
    while (suffix_end < text.size() && std::strchr("uUlL", text[suffix_end])) ++suffix_end;
    const bool whole_token = suffix_end == text.size() || !is_identifier_char(text[suffix_end]);
    out.append(text, i, end - i);
    if (!whole_token) out.append(text, end, suffix_end - end);
    i = suffix_end;
  }
  return out;
}

}  // namespace

std::string demangle_kernel_name(const std::string& name) {
  if (name.compare(0, 2, "_Z") != 0) return "";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !demangled) return "";
  return demangled.get();
}

std::string normalize_kernel_spelling(std::string_view spelling) {
  std::string normal;
  normal.reserve(spelling.size());
  bool pending_space = false;
  for (const char c : spelling) {
    if (is_space(c)) {
      pending_space = true;
      continue;
    }
    if (pending_space && !normal.empty() && is_identifier_char(normal.back()) &&
        is_identifier_char(c))
      normal.push_back(' ');
    pending_space = false;
    normal.push_back(c);
  }
  return without_integer_suffixes(normal);
}

KernelNameTable make_kernel_name_table(const std::vector<std::string>& names) {
  KernelNameTable table;
  table.kernels.reserve(names.size());
  for (const std::string& name : names) table.kernels.push_back(describe_kernel(name));
  return table;
}

KernelNameMatch match_kernel_name(const KernelNameTable& table, std::string_view requested) {
  KernelNameMatch match;
  for (const KernelName& kernel : table.kernels) {
    if (kernel.name != requested) continue;
    match.kind = KernelNameMatch::Kind::resolved;
    match.resolved = kernel.name;
    return match;
  }
  // Spaces count only inside a spelling: "saxpy " is no kernel's name, as before names resolved.
  if (requested.empty() || is_space(requested.front()) || is_space(requested.back())) return match;
  const std::string normal = normalize_kernel_spelling(requested);
  std::vector<const KernelName*> found;
  for (const KernelName& kernel : table.kernels)
    if (std::find(kernel.aliases.begin(), kernel.aliases.end(), normal) != kernel.aliases.end())
      found.push_back(&kernel);
  if (found.empty()) return match;
  if (found.size() == 1) {
    match.kind = KernelNameMatch::Kind::resolved;
    match.resolved = found.front()->name;
    return match;
  }
  // Two kernels with one signature (static kernels of two sources) differ by their names only.
  std::map<std::string, int> readable_count;
  for (const KernelName* kernel : found) ++readable_count[kernel->readable];
  match.kind = KernelNameMatch::Kind::ambiguous;
  for (const KernelName* kernel : found)
    match.candidates.push_back(readable_count[kernel->readable] > 1
                                   ? kernel->readable + " [" + kernel->name + "]"
                                   : kernel->readable);
  std::sort(match.candidates.begin(), match.candidates.end());
  return match;
}

std::string describe_kernel_names(const std::vector<std::string>& readable, size_t max_names,
                                  size_t max_chars) {
  std::string list;
  size_t shown = 0;
  for (const std::string& name : readable) {
    if (shown == max_names || (shown > 0 && list.size() + 2 + name.size() > max_chars)) break;
    if (shown > 0) list += ", ";
    list += name;
    ++shown;
  }
  if (shown < readable.size()) list += " and " + std::to_string(readable.size() - shown) + " more";
  return list;
}

}  // namespace anygpu
