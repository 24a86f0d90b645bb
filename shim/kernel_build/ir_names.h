// Names in textual LLVM IR, for the build steps that rewrite a module as text
// (spirv_block_order.cpp, spirv_subgroup_size.cpp).
#pragma once

#include <string>

namespace anygpu {

// A character of an unquoted name.
bool is_ir_name_char(char c);

// The name at text[at] (after its `%` or `@`): a run of name characters, or a quoted name with its
// quotes; "" if none.
std::string ir_name_at(const std::string& text, size_t at);

}  // namespace anygpu
