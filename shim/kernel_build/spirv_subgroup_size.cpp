#include "shim/kernel_build/spirv_subgroup_size.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "shim/kernel_build/ir_names.h"

namespace anygpu {
namespace {

constexpr const char* kRequiredSize = "!intel_reqd_sub_group_size";

struct Function {
  size_t define_line = 0;
  bool kernel = false;
  bool uses_subgroup = false;
  std::set<std::string> references;  // the globals and functions its body names
};

// A C++ name without its Itanium prefix (_Z22get_max_sub_group_sizev: get_max_sub_group_sizev).
std::string unmangled_start(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  size_t at = 2;
  while (at < name.size() && name[at] >= '0' && name[at] <= '9') ++at;
  return name.substr(at);
}

bool starts_with(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}

// The sub-group built-ins as C++ for OpenCL (get_sub_group_local_id, sub_group_reduce_add,
// intel_sub_group_shuffle, ...) and HIP mode (__spirv_BuiltInSubgroupMaxSize,
// __spirv_SubgroupShuffleINTEL) name them.
bool is_subgroup_builtin(const std::string& name) {
  const std::string base = unmangled_start(name);
  for (const char* prefix :
       {"sub_group_", "intel_sub_group_", "get_sub_group_", "get_max_sub_group_",
        "get_num_sub_groups", "get_enqueued_num_sub_groups", "__spirv_Subgroup",
        "__spirv_BuiltInSubgroup", "__spirv_BuiltInNumSubgroups",
        "__spirv_BuiltInNumEnqueuedSubgroups"})
    if (starts_with(base, prefix)) return true;
  return false;
}

// SPIR-V's scoped operations (group operations, barriers) act on a sub-group when their first
// operand is the Subgroup scope, 3: warp_gpu.h's ballot (__spirv_GroupIAdd) and __syncwarp
// (__spirv_ControlBarrier). `call` is the text after the callee's name: "(i32 noundef 3, ...".
bool is_subgroup_scoped_call(const std::string& name, const std::string& call) {
  const std::string base = unmangled_start(name);
  if (!starts_with(base, "__spirv_Group") && !starts_with(base, "__spirv_ControlBarrier") &&
      !starts_with(base, "__spirv_MemoryBarrier"))
    return false;
  std::istringstream words(call.substr(call.find('(') == 0 ? 1 : call.size()));
  std::string word;
  if (!(words >> word) || word != "i32") return false;
  while (words >> word &&
         (word == "noundef" || word == "signext" || word == "zeroext" || word == "immarg")) {
  }
  return word == "3," || word == "3)";
}

// Adds the globals and functions `line` names to `references`; true when it uses the sub-group.
bool scan_body_line(const std::string& line, std::set<std::string>* references) {
  bool subgroup = false;
  for (size_t at = line.find('@'); at != std::string::npos; at = line.find('@', at + 1)) {
    const std::string name = ir_name_at(line, at + 1);
    if (name.empty()) continue;
    const std::string rest = line.substr(at + 1 + name.size());
    subgroup = subgroup || is_subgroup_builtin(name) || is_subgroup_scoped_call(name, rest);
    references->insert(name);
  }
  return subgroup;
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
    // Return types and attributes hold no `@`: the first one starts the function's name.
    const size_t at = lines[i].find('@');
    const std::string name = at == std::string::npos ? "" : ir_name_at(lines[i], at + 1);
    if (name.empty()) {
      *error = "a definition has no name: " + lines[i];
      return false;
    }
    Function& f = functions[name];
    f.define_line = i;
    f.kernel = lines[i].find(" spir_kernel ") != std::string::npos;
    size_t end = i + 1;
    for (; end < lines.size() && lines[end] != "}"; ++end)
      f.uses_subgroup = scan_body_line(lines[end], &f.references) || f.uses_subgroup;
    if (end == lines.size()) {
      *error = "the definition of @" + name + " has no end";
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
        if (callee != functions.end() && callee->second.uses_subgroup) {
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
