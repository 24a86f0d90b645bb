// The code objects an image holds: the image itself, or each entry of a container (a clang offload
// bundle in either form, an NVIDIA fatbin, or a fatbin inside a bundle), each with what it is
// built for.
#pragma once

#include <string>
#include <vector>

#include "shim/code_object/code_object_target.h"

namespace anygpu {

struct CodeEntry {
  std::string
      label;  // "'hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-'", "fatbin entry 2"; "" for the image
  CodeObject code;  // the entry's bytes, inside the image
  CodeTarget target;
};

// False with `error` when the image is a container that is malformed. A malformed entry inside a
// well-formed container is listed with its problem instead.
bool list_code_entries(const CodeObject& image, std::vector<CodeEntry>* entries,
                       std::string* error);

}  // namespace anygpu
