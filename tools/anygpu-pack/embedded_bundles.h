// Finds the offload bundles in a file: the file itself, each bundle a program or library embeds
// (anygpu_add_kernels puts them in .rodata, hipcc in .hip_fatbin), and the object-file form
// clang-offload-bundler -type=o writes when its host input is an ELF file (one section
// "__CLANG_OFFLOAD_BUNDLE__<id>" per entry, the file itself being the host entry). The file is
// scanned for the bundle magic; each hit is read bounds-checked to the end of the file, and hits
// that are no well-formed, non-empty bundle (the magic as a string constant, say) are skipped.
#pragma once

#include <string>
#include <vector>

#include "shim/code_object/offload_bundle.h"

namespace anygpu_pack {

struct FoundBundle {
  std::string where;  // "bundle at offset 8320", "object-file bundle"
  std::vector<anygpu::BundleEntry> entries;
};

std::vector<FoundBundle> find_bundles(anygpu::ByteReader file);

}  // namespace anygpu_pack
