#include "spirv_block_order.h"

#include <map>
#include <regex>
#include <sstream>
#include <vector>

namespace anygpu_pack {

namespace {

struct Block {
  std::string name;
  std::vector<std::string> lines;
};

const std::regex& label_line() {
  static const std::regex pattern(R"(^([-a-zA-Z$._0-9]+|"[^"]*"):)");
  return pattern;
}

// The blocks a block's terminator branches to (only terminators take `label` operands).
std::vector<std::string> successors(const Block& block) {
  static const std::regex target(R"(label %([-a-zA-Z$._0-9]+|"[^"]*"))");
  std::vector<std::string> names;
  for (const std::string& line : block.lines)
    for (std::sregex_iterator it(line.begin(), line.end(), target), end; it != end; ++it)
      names.push_back((*it)[1]);
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

std::string renumbered(const std::string& line) {
  static const std::regex value(R"((^|[^-a-zA-Z$._0-9])%([0-9]+)\b)");
  static const std::regex label(R"(^([0-9]+):)");
  return std::regex_replace(std::regex_replace(line, label, "agk.$1:"), value, "$1%agk.$2");
}

// One function: its `define` line, its body lines (without the closing brace).
std::string ordered_function(const std::string& define, const std::vector<std::string>& body) {
  // The entry block, unlabelled, takes the number after the unnamed parameters.
  static const std::regex numbered(R"(%([0-9]+)\b)");
  long entry_number = 0;
  for (std::sregex_iterator it(define.begin(), define.end(), numbered), end; it != end; ++it)
    entry_number = std::max(entry_number, std::stol((*it)[1]) + 1);
  std::vector<Block> blocks(1);
  bool entry_labelled = false;
  for (const std::string& line : body) {
    std::smatch match;
    if (std::regex_search(line, match, label_line())) {
      if (blocks.size() == 1 && blocks[0].lines.empty()) {
        entry_labelled = true;
      } else {
        blocks.push_back({});
      }
      blocks.back().name = match[1];
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
  static const std::regex numbered_type(R"((^|\n)%[0-9]+ = type )");
  if (std::regex_search(ir, numbered_type)) {
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

}  // namespace anygpu_pack
