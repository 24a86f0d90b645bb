#include "shim/kernel_build/spirv_block_order.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "shim/kernel_build/ir_names.h"

namespace anygpu {

namespace {

struct Block {
  std::string name;
  std::vector<std::string> lines;
};

// The label a line opens a block with ("12:", "for.body:", "\"a b\":"), or "".
std::string label_of(const std::string& line) {
  const std::string name = ir_name_at(line, 0);
  return !name.empty() && line.size() > name.size() && line[name.size()] == ':' ? name : "";
}

// The blocks a block's terminator branches to (only terminators take `label` operands).
std::vector<std::string> successors(const Block& block) {
  static const std::string marker = "label %";
  std::vector<std::string> names;
  for (const std::string& line : block.lines)
    for (size_t at = line.find(marker); at != std::string::npos; at = line.find(marker, at + 1)) {
      const std::string name = ir_name_at(line, at + marker.size());
      if (!name.empty()) names.push_back(name);
    }
  return names;
}

// Reverse post-order from the entry; blocks no path reaches keep their places after it.
std::vector<size_t> reverse_post_order(const std::vector<Block>& blocks) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < blocks.size(); ++i) index[blocks[i].name] = i;
  std::vector<std::vector<size_t>> next(blocks.size());
  for (size_t i = 0; i < blocks.size(); ++i)
    for (const std::string& name : successors(blocks[i]))
      if (index.count(name)) next[i].push_back(index[name]);
  std::vector<bool> seen(blocks.size(), false);
  std::vector<size_t> post;
  std::vector<std::pair<size_t, size_t>> stack{{0, 0}};  // block, next successor to visit
  seen[0] = true;
  while (!stack.empty()) {
    auto& [block, edge] = stack.back();
    if (edge < next[block].size()) {
      const size_t to = next[block][edge++];
      if (!seen[to]) {
        seen[to] = true;
        stack.push_back({to, 0});
      }
    } else {
      post.push_back(block);
      stack.pop_back();
    }
  }
  std::vector<size_t> order(post.rbegin(), post.rend());
  for (size_t i = 0; i < blocks.size(); ++i)
    if (!seen[i]) order.push_back(i);
  return order;
}

// Numbered values (%7) and labels (7:) renamed (%agk.7, agk.7:): textual IR numbers unnamed
// values in order of appearance, which moved blocks break; named ones may come in any order.
// Calls visit(number) for each numbered value of `line` and returns the renamed line.
template <typename Visit>
std::string renumbered(const std::string& line, Visit visit) {
  std::string out;
  size_t i = 0;
  if (!line.empty() && line[0] >= '0' && line[0] <= '9') {
    const std::string label = label_of(line);
    if (!label.empty() && label.find_first_not_of("0123456789") == std::string::npos) {
      out = "agk." + label + ":";
      i = label.size() + 1;
    }
  }
  while (i < line.size()) {
    const bool value = line[i] == '%' && (i == 0 || !is_ir_name_char(line[i - 1])) &&
                       i + 1 < line.size() && line[i + 1] >= '0' && line[i + 1] <= '9';
    if (value) {
      size_t end = i + 1;
      while (end < line.size() && line[end] >= '0' && line[end] <= '9') ++end;
      if (end == line.size() || !is_ir_name_char(line[end])) {
        visit(line.substr(i + 1, end - i - 1));
        out += "%agk." + line.substr(i + 1, end - i - 1);
        i = end;
        continue;
      }
    }
    out.push_back(line[i++]);
  }
  return out;
}

std::string renumbered(const std::string& line) {
  return renumbered(line, [](const std::string&) {});
}

// One function: its `define` line, its body lines (without the closing brace).
std::string ordered_function(const std::string& define, const std::vector<std::string>& body) {
  // The entry block, unlabelled, takes the number after the unnamed parameters.
  long entry_number = 0;
  renumbered(define, [&](const std::string& number) {
    entry_number = std::max(entry_number, std::stol(number) + 1);
  });
  std::vector<Block> blocks(1);
  bool entry_labelled = false;
  for (const std::string& line : body) {
    const std::string label = label_of(line);
    if (!label.empty()) {
      if (blocks.size() == 1 && blocks[0].lines.empty()) {
        entry_labelled = true;
      } else {
        blocks.push_back({});
      }
      blocks.back().name = label;
    }
    blocks.back().lines.push_back(line);
  }
  if (!entry_labelled) blocks[0].name = std::to_string(entry_number);
  const std::vector<size_t> order = reverse_post_order(blocks);
  bool moved = false;
  for (size_t i = 0; i < order.size(); ++i) moved = moved || order[i] != i;
  std::string text = define + "\n";
  if (!moved) {
    for (const std::string& line : body) text += line + "\n";
    return text + "}\n";
  }
  text = renumbered(define) + "\n";
  if (!entry_labelled) text += "agk." + blocks[0].name + ":\n";
  for (size_t i : order)
    for (const std::string& line : blocks[i].lines) text += renumbered(line) + "\n";
  return text + "}\n";
}

}  // namespace

bool order_blocks_by_dominance(const std::string& ir, std::string* ordered, std::string* error) {
  std::istringstream types(ir);
  bool numbered_type = false;
  for (std::string line; std::getline(types, line);)
    numbered_type =
        numbered_type || (line.size() > 1 && line[0] == '%' && line[1] >= '0' && line[1] <= '9' &&
                          line.find(" = type ") != std::string::npos &&
                          line.find_first_not_of("0123456789", 1) == line.find(' '));
  if (numbered_type) {
    *error = "the module has numbered types, which reordering blocks cannot tell from values";
    return false;
  }
  std::istringstream in(ir);
  std::string line, text, define;
  std::vector<std::string> body;
  bool in_function = false;
  while (std::getline(in, line)) {
    if (!in_function && line.rfind("define ", 0) == 0 && !line.empty() && line.back() == '{') {
      in_function = true;
      define = line;
      body.clear();
    } else if (in_function && line == "}") {
      in_function = false;
      text += ordered_function(define, body);
    } else if (in_function) {
      body.push_back(line);
    } else {
      text += line + "\n";
    }
  }
  if (in_function) {
    *error = "a function's body has no closing brace";
    return false;
  }
  *ordered = text;
  return true;
}

}  // namespace anygpu
