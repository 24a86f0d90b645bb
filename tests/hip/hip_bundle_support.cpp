#include "hip_bundle_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "anygpu_image_test_kernels.h"
#include "shim/code_object/amdgpu_target.h"
#include "shim/code_object/bundle_ids.h"
#include "shim/code_object/code_object.h"
#include "shim/code_object/code_object_entries.h"
#include "shim/code_object/elf_reader.h"
#include "shim/code_object/offload_bundle.h"

namespace anygpu_test {
namespace {

// EF_AMDGPU_FEATURE_XNACK_V4: the e_flags bits that state xnack in code objects v4 and later.
constexpr uint32_t kXnackMask = 0x300, kXnackAny = 0x100, kXnackOff = 0x200, kXnackOn = 0x300;
constexpr size_t kElfFlagsOffset = 48;  // e_flags in an ELF64 header

std::string target_of(const std::vector<unsigned char>& code) {
  anygpu::ElfHeader header;
  anygpu::AmdgpuTarget target;
  std::string error;
  if (!anygpu::read_elf_header(anygpu::ByteReader(code.data(), code.size()), &header, &error) ||
      !anygpu::amdgpu_target_from_elf(header, &target, &error)) {
    ADD_FAILURE() << "not an AMD code object: " << error;
    return "";
  }
  return anygpu::amdgpu_bundle_id(target);
}

}  // namespace

std::vector<unsigned char> test_kernels_code_object(const std::string& processor, char xnack) {
  anygpu::OffloadBundle bundle;
  std::string error;
  const anygpu::CodeObject image =
      anygpu::detect_code_object(anygpu_image_test_kernels, anygpu_image_test_kernels_size);
  if (image.format != anygpu::CodeObjectFormat::clang_offload_bundle ||
      !anygpu::read_offload_bundle(anygpu::ByteReader(image.data, image.size), &bundle, &error)) {
    ADD_FAILURE() << "the embedded test kernels are no offload bundle: " << error;
    return {};
  }
  anygpu::AmdgpuTarget target;
  target.processor = processor;
  const anygpu::BundleEntry* entry =
      anygpu::find_bundle_entry(bundle, anygpu::amdgpu_bundle_id(target));
  if (!entry || entry->size < 64) return {};
  std::vector<unsigned char> code(entry->data, entry->data + entry->size);
  if (xnack) {
    uint32_t flags;
    memcpy(&flags, code.data() + kElfFlagsOffset, sizeof flags);
    EXPECT_EQ(kXnackAny, flags & kXnackMask) << processor << " was built stating xnack";
    flags = (flags & ~kXnackMask) | (xnack == '+' ? kXnackOn : kXnackOff);
    memcpy(code.data() + kElfFlagsOffset, &flags, sizeof flags);
  }
  return code;
}

std::vector<unsigned char> amd_bundle(const std::vector<std::vector<unsigned char>>& code_objects) {
  std::vector<anygpu::BundleEntry> entries;
  entries.push_back({anygpu::host_bundle_id(anygpu::host_elf_machine()), nullptr, 0});
  for (const std::vector<unsigned char>& code : code_objects)
    entries.push_back({target_of(code), code.data(), code.size()});
  std::vector<unsigned char> bundle;
  std::string error;
  EXPECT_TRUE(anygpu::write_offload_bundle(entries, &bundle, &error)) << error;
  return bundle;
}

}  // namespace anygpu_test
