// PTX text split into tokens, for the readers of PTX (ptx_reader, kernel_params). Every read is
// checked against the text's end.
#pragma once

#include <cstddef>
#include <string_view>

#include "shim/code_object/byte_reader.h"

namespace anygpu {

// PTX text ends at its end or at the first NUL, as drivers read it (fatbins and drivers keep PTX
// NUL-terminated).
std::string_view ptx_text(ByteReader bytes);

// A character of a name, directive or number: letters, digits, `_`, `.`, `$`, `%`.
bool ptx_token_char(char c);

// Tokens: names, directives and numbers; string literals whole (.file names: no directive inside
// one is one); any other character on its own. White space and comments are passed over.
class PtxTokens {
 public:
  explicit PtxTokens(std::string_view text) : text_(text) {}

  // The next token, or an empty view at the end. A copy of the tokenizer reads ahead.
  std::string_view next();

 private:
  void skip_space_and_comments();

  std::string_view text_;
  size_t at_ = 0;
};

}  // namespace anygpu
