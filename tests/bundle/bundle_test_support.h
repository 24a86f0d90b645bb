// Helpers for the bundle tests: the committed inputs in data/, bundles made from them, described
// devices.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "shim/code_object/code_object_selection.h"
#include "shim/code_object/elf_reader.h"

namespace bundle_test {

using Bytes = std::vector<unsigned char>;

// tests/bundle/data/<name>; fails the test when it cannot be read.
Bytes data_file(const std::string& name);
Bytes text_bytes(const std::string& text);

// A bundle written by anygpu's writer; fails the test when it refuses.
Bytes make_bundle(const std::vector<std::pair<std::string, Bytes>>& entries);

// The test kernels' host code object: the embedded image itself, or its host entry where the
// build embeds a bundle.
Bytes host_code_object();

// An ELF file with e_flags (and, where not 0, EI_ABIVERSION) replaced.
Bytes with_elf_flags(Bytes elf, uint32_t flags, int abi_version = -1);

// A described device of `backend`, with that backend's rules for what it runs.
using TestDevice = std::shared_ptr<const anygpu::CodeFitRules>;
TestDevice device(ag_backend_kind backend, const std::string& architecture,
                  unsigned max_ptx_version = 0);

struct Selected {
  ag_result result = AG_ERROR_UNKNOWN;
  anygpu::CodeObject code{};
  std::string detail;
};
Selected select(const TestDevice& device, const Bytes& image);

// True when [code.data, code.data + code.size) holds exactly `bytes`.
bool holds(const anygpu::CodeObject& code, const Bytes& bytes);

// Expects `device` to get exactly `expected` from `image`.
void expect_selected(const TestDevice& device, const Bytes& image, const Bytes& expected);

// What `reader` (read_offload_bundle, read_ptx, ...) reads from `image`, which must succeed.
template <typename Result>
Result read_ok(bool (*reader)(anygpu::ByteReader, Result*, std::string*), const Bytes& image) {
  Result result{};
  std::string error;
  EXPECT_TRUE(reader(anygpu::ByteReader(image.data(), image.size()), &result, &error)) << error;
  return result;
}

inline anygpu::ElfHeader elf_header(const Bytes& file) {
  return read_ok(anygpu::read_elf_header, file);
}

}  // namespace bundle_test
