#include "shim/kernel_build/portable_rewrite.h"

#include <sys/stat.h>

#include <set>
#include <sstream>
#include <string_view>

namespace anygpu {
namespace {

// What clang's InclusionRewriter writes around what it changed (clang 15 to 19).
constexpr std::string_view kExpandedOpen = "#if 0 /* expanded by -frewrite-includes */";
constexpr std::string_view kExpandedClose = "#endif /* expanded by -frewrite-includes */";
constexpr std::string_view kDisabledOpen = "#if 0 /* disabled by -frewrite-includes */";
constexpr std::string_view kDisabledClose = "#endif /* disabled by -frewrite-includes */";
constexpr std::string_view kEvaluated = " /* evaluated by -frewrite-includes */";
// An inlined header: "#if defined(__CLANG_REWRITTEN_INCLUDES) /* NAME expanded by ... */" (a
// system header's adds "|| defined(__CLANG_REWRITTEN_SYSTEM_INCLUDES)"), the directive,
// "#else /* NAME expanded by ... */", the header, "#endif /* NAME expanded by ... */".
constexpr std::string_view kInlinedOpen = "#if defined(__CLANG_REWRITTEN_INCLUDES)";
constexpr std::string_view kInlinedSuffix = " expanded by -frewrite-includes */";
constexpr std::string_view kBuiltinsEnd = "# 1 \"<built-in>\" 2";

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}
bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// "#endif /* NAME expanded by -frewrite-includes */" (not the unnamed kExpandedClose).
bool is_inlined_close(std::string_view line) {
  return starts_with(line, "#endif /* ") && ends_with(line, kInlinedSuffix) &&
         line != kExpandedClose;
}

// A line marker "# 12 \"dir/file.h\" 1 3": its line, path and flags.
struct LineMarker {
  std::string line, path;
  bool enters = false, system = false;
};

bool read_marker(std::string_view text, LineMarker* marker) {
  if (!starts_with(text, "# ") || text.size() < 3 || text[2] < '0' || text[2] > '9') return false;
  size_t at = 2;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  marker->line = std::string(text.substr(2, at - 2));
  if (text.substr(at, 2) != " \"") return false;
  marker->path.clear();
  for (at += 2; at < text.size() && text[at] != '"'; ++at) {
    if (text[at] == '\\' && at + 1 < text.size()) ++at;  // clang escapes '\\' and '"'
    marker->path += text[at];
  }
  if (at == text.size()) return false;
  std::istringstream flags(std::string(text.substr(at + 1)));
  marker->enters = marker->system = false;
  for (int flag = 0; flags >> flag;) {
    if (flag == 1) marker->enters = true;
    if (flag == 3) marker->system = true;
  }
  return true;
}

// The file name a #line directive can carry: no directory, no quote or backslash (which clang
// escapes in its markers and a #line would need escaped again).
std::string line_file_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  for (char& c : name)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < ' ') c = '_';
  return name;
}

// The header an include directive names ("x.h" for `#include <x.h>` or `#include "x.h"`), and
// whether it was written with angle brackets; false for another directive.
bool included_name(const std::string& directive, std::string* name, bool* angled) {
  if (directive.find("include") == std::string::npos &&
      directive.find("import") == std::string::npos)
    return false;
  const size_t open = directive.find_first_of("<\"");
  if (open == std::string::npos) return false;
  const char close = directive[open] == '<' ? '>' : '"';
  const size_t end = directive.find(close, open + 1);
  if (end == std::string::npos) return false;
  *name = directive.substr(open + 1, end - open - 1);
  *angled = close == '>';
  return true;
}

class Rewriter {
 public:
  Rewriter(const std::string& rewritten, const std::vector<std::string>& library_directories)
      : libraries_(library_directories) {
    std::istringstream stream(rewritten);
    for (std::string line; std::getline(stream, line);) lines_.push_back(line);
    for (std::string& directory : libraries_)
      if (!directory.empty() && directory.back() != '/') directory += '/';
  }

  bool run(std::string* text, std::string* error) {
    size_t at = 0;
    for (size_t i = 0; i < lines_.size(); ++i)
      if (lines_[i] == kBuiltinsEnd) {
        at = i + 1;
        break;
      }
    while (at < lines_.size())
      if (!step(&at)) {
        *error = problem_;
        return false;
      }
    if (open_headers_ != 0) {
      *error = "an inlined header has no end";
      return false;
    }
    *text = std::move(out_);
    return true;
  }

 private:
  bool fail(const std::string& problem, size_t line) {
    problem_ = problem + " (line " + std::to_string(line + 1) + " of clang's output)";
    return false;
  }

  void emit(std::string_view line) {
    out_.append(line);
    out_ += '\n';
  }

  // The lines strictly between lines_[open] and the first `close` after it; `*end` is the
  // close's index.
  bool block(size_t open, std::string_view close, std::vector<std::string>* inner, size_t* end) {
    for (size_t i = open + 1; i < lines_.size(); ++i) {
      if (lines_[i] == close) {
        *end = i;
        return true;
      }
      inner->push_back(lines_[i]);
    }
    return fail("a block clang opened has no end", open);
  }

  bool is_library_header(const LineMarker& marker) const {
    if (marker.system) return true;
    for (const std::string& directory : libraries_)
      if (starts_with(marker.path, directory)) return true;
    return false;
  }

  bool step(size_t* at) {
    const std::string& line = lines_[*at];
    if (line == kDisabledOpen) return restore_condition(at);
    if (line == kExpandedOpen) return restore_directive(at);
    if (starts_with(line, kInlinedOpen) && ends_with(line, kInlinedSuffix))
      return inlined_header(at);
    if (is_inlined_close(line)) {
      if (open_headers_ == 0) return fail("an inlined header ends that never began", *at);
      --open_headers_;
      ++*at;
      return true;
    }
    LineMarker marker;
    if (read_marker(line, &marker) && marker.path == "<built-in>") {
      // clang's own definitions: not part of the source
    } else if (read_marker(line, &marker)) {
      emit("#line " + marker.line + " \"" + line_file_name(marker.path) + "\"");
    } else {
      emit(line);
    }
    ++*at;
    return true;
  }

  // "#if 0 /* disabled */ <#if X | #if 0 #elif X> #endif #endif /* disabled */" and then
  // "#if 1 /* evaluated */" (or #elif): the original #if X (or #elif X) again.
  bool restore_condition(size_t* at) {
    std::vector<std::string> inner;
    size_t end = 0;
    if (!block(*at, kDisabledClose, &inner, &end)) return false;
    if (end + 1 >= lines_.size() || !ends_with(lines_[end + 1], kEvaluated) || inner.empty() ||
        inner.back() != "#endif")
      return fail("a condition clang evaluated is not followed by its value", *at);
    inner.pop_back();
    const bool elif = starts_with(lines_[end + 1], "#elif");
    if (elif) {
      if (inner.empty() || inner.front() != "#if 0")
        return fail("an #elif clang evaluated is not as clang writes one", *at);
      inner.erase(inner.begin());
    }
    for (const std::string& original : inner) emit(original);
    *at = end + 2;
    return true;
  }

  bool library_has(const std::string& name) const {
    struct stat status{};
    for (const std::string& directory : libraries_)
      if (stat((directory + name).c_str(), &status) == 0 && S_ISREG(status.st_mode)) return true;
    return false;
  }

  // Whether an #include clang did not carry out stays: an application header's cannot (the
  // run-time compiler has no such file); anygpu's and the system's do. An application header is
  // one inlined as such before, or a quoted name outside anygpu/ that no library directory has.
  bool keeps_include(const std::string& directive) const {
    std::string name;
    bool angled = false;
    if (!included_name(directive, &name, &angled)) return true;
    if (application_headers_.count(name)) return false;
    return angled || name.compare(0, 7, "anygpu/") == 0 || library_has(name);
  }

  // "#if 0 /* expanded */ DIRECTIVE #endif /* expanded */": a directive clang did not carry out
  // here (an #include of a header already inlined or in a branch not taken, #pragma once). An
  // #include that cannot stay is left as a comment.
  bool restore_directive(size_t* at) {
    std::vector<std::string> inner;
    size_t end = 0;
    if (!block(*at, kExpandedClose, &inner, &end)) return false;
    *at = end + 1;
    if (inner.size() == 1 && starts_with(inner[0], "#pragma once")) return true;
    const bool keep = inner.size() != 1 || keeps_include(inner[0]);
    for (const std::string& original : inner)
      emit(keep ? original : "// anygpu: inlined above or not taken here: " + original);
    return true;
  }

  // A header clang inlined: the application's stays inlined; anygpu's or the system's becomes
  // its #include line again.
  bool inlined_header(size_t* at) {
    const std::string& open = lines_[*at];
    const size_t comment = open.rfind("/* ") + 3;  // found: the line ends with kInlinedSuffix
    const std::string name = open.substr(comment, open.size() - comment - kInlinedSuffix.size());
    const std::string else_line = "#else /* " + name + std::string(kInlinedSuffix);
    std::vector<std::string> directive;
    size_t else_at = 0;
    if (!block(*at, else_line, &directive, &else_at)) return false;
    LineMarker marker;
    bool found = false;
    for (size_t i = else_at + 1; i < lines_.size() && i <= else_at + 3 && !found; ++i)
      found = read_marker(lines_[i], &marker) && marker.enters;
    if (!found) return fail("an inlined header does not say which file it is", else_at);
    if (!is_library_header(marker)) {
      std::string spelled;
      bool angled = false;
      if (!directive.empty() && included_name(directive[0], &spelled, &angled))
        application_headers_.insert(spelled);
      ++open_headers_;
      *at = else_at + 1;
      return true;
    }
    for (const std::string& original : directive) emit(original);
    int depth = 0;
    for (size_t i = else_at + 1; i < lines_.size(); ++i) {
      const std::string& line = lines_[i];
      if (starts_with(line, kInlinedOpen) && ends_with(line, kInlinedSuffix)) {
        ++depth;
      } else if (is_inlined_close(line)) {
        if (depth == 0) {
          *at = i + 1;
          return true;
        }
        --depth;
      }
    }
    return fail("an inlined header has no end", *at);
  }

  std::vector<std::string> lines_;
  std::vector<std::string> libraries_;
  std::set<std::string> application_headers_;  // as their #include names them
  std::string out_, problem_;
  int open_headers_ = 0;
};

}  // namespace

bool make_portable_text(const std::string& rewritten,
                        const std::vector<std::string>& library_directories, std::string* text,
                        std::string* error) {
  return Rewriter(rewritten, library_directories).run(text, error);
}

}  // namespace anygpu
