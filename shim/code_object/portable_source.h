// The portable form of an image (docs/bundle-format.md, "Portable source"): its kernel sources as
// anygpu_add_kernels compiled them, the application's own headers inlined and anygpu's and the
// system's left as #include lines, with the defines and fast-math flag of the build. A device
// whose target the image has no code object for gets one built from it at load time
// (shim/core/run_time_build.h). Its bytes say what it is; the bundle id only names it.
#pragma once

#include <string>
#include <vector>

#include "shim/code_object/byte_reader.h"

namespace anygpu {

struct PortableFile {
  std::string name;  // the source's file name; ".cu" says CUDA source
  std::string text;
};

struct PortableSource {
  std::string family;                 // the targets it is for: "amdgcn"
  std::vector<std::string> defines;   // "NAME" or "NAME=VALUE", as -D gave them
  bool fast_math = false;             // anygpu_add_kernels' FAST_MATH
  std::vector<PortableFile> sources;  // one translation unit each, linked into one code object
};

// The family of AMD GPU targets (gfx...): the only one portable sources are made for so far.
constexpr const char kPortableFamilyAmdgcn[] = "amdgcn";

// Whether the bytes start as a portable source does (its first line).
bool is_portable_source(ByteReader image);
// Reads a portable source; false with `error` saying what is wrong when it is malformed.
bool read_portable_source(ByteReader image, PortableSource* source, std::string* error);
// Its bytes, as read_portable_source reads them. False with `error` when a field cannot be
// written (a define holding a line break, a name holding one or a space, an unknown family, no
// source, a source above 64 MiB).
bool write_portable_source(const PortableSource& source, std::vector<unsigned char>* bytes,
                           std::string* error);

}  // namespace anygpu
