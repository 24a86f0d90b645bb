#include "shim/kernel_build/spirv_subgroup_size.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

namespace anygpu {
namespace {

constexpr const char* kRequiredSize = "!intel_reqd_sub_group_size";

struct Function {
  size_t define_line = 0;
  bool kernel = false;
  bool uses_subgroup = false;
  std::set<std::string> references;  // the globals and functions its body names
};

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '$' ||
         c == '.' || c == '_' || c == '-';
}

// Every `@name` in `line` (quoted names keep their quotes).
void global_names(const std::string& line, std::set<std::string>* names) {
  for (size_t at = line.find('@'); at != std::string::npos; at = line.find('@', at + 1)) {
    size_t end = at + 1;
    if (end < line.size() && line[end] == '"') {
      end = line.find('"', end + 1);
      if (end == std::string::npos) return;
      ++end;
    } else {
      while (end < line.size() && is_name_char(line[end])) ++end;
    }
    if (end > at + 1) names->insert(line.substr(at + 1, end - at - 1));
  }
}

// The sub-group built-ins as OpenCL C++ (get_sub_group_local_id, intel_sub_group_shuffle, ...,
// mangled) and HIP mode (__spirv_BuiltInSubgroupMaxSize, __spirv_SubgroupShuffleINTEL) name
// them, and the SPIR-V group operations (__spirv_GroupIAdd), which warp_gpu.h uses on sub-groups.
bool is_subgroup_builtin(const std::string& name) {
  return name.find("sub_group") != std::string::npos ||
         name.find("Subgroup") != std::string::npos ||
         name.find("__spirv_Group") != std::string::npos;
}

// The largest numbered metadata node `ir` defines ("!12 = ..."), or -1.
long last_metadata_number(const std::vector<std::string>& lines) {
  long last = -1;
  for (const std::string& line : lines) {
    if (line.size() < 2 || line[0] != '!' || line[1] < '0' || line[1] > '9') continue;
    last = std::max(last, strtol(line.c_str() + 1, nullptr, 10));
  }
  return last;
}

}  // namespace

bool pin_subgroup_size(const std::string& ir, unsigned lanes, std::string* out,
                       std::vector<std::string>* pinned, std::string* error) {
  std::vector<std::string> lines;
  std::istringstream in(ir);
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  std::map<std::string, Function> functions;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("define ", 0) != 0) continue;
    std::set<std::string> own;
    global_names(lines[i].substr(0, lines[i].find('(')), &own);
    if (own.empty()) continue;
    Function& f = functions[*own.begin()];
    f.define_line = i;
    f.kernel = lines[i].find(" spir_kernel ") != std::string::npos;
    size_t end = i + 1;
    while (end < lines.size() && lines[end] != "}") global_names(lines[end++], &f.references);
    if (end == lines.size()) {
      *error = "the definition of @" + *own.begin() + " has no end";
      return false;
    }
    i = end;
  }
  // A function uses the sub-group when it names a built-in or calls a function that does.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& [name, f] : functions) {
      if (f.uses_subgroup) continue;
      for (const std::string& reference : f.references) {
        const auto callee = functions.find(reference);
        if (is_subgroup_builtin(reference) ||
            (callee != functions.end() && callee->second.uses_subgroup)) {
          f.uses_subgroup = changed = true;
          break;
        }
      }
    }
  }

  const std::string node = "!" + std::to_string(last_metadata_number(lines) + 1);
  bool any = false;
  for (auto& [name, f] : functions) {
    std::string& define = lines[f.define_line];
    const size_t brace = define.rfind(" {");
    if (!f.kernel || !f.uses_subgroup || define.find(kRequiredSize) != std::string::npos ||
        brace == std::string::npos)
      continue;
    define.insert(brace, std::string(" ") + kRequiredSize + " " + node);
    if (pinned) pinned->push_back(name);
    any = true;
  }
  if (any) lines.push_back(node + " = !{i32 " + std::to_string(lanes) + "}");
  out->clear();
  for (const std::string& line : lines) *out += line + "\n";
  return true;
}

}  // namespace anygpu
