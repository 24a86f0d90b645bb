#include "shim/code_object.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "anygpu_image_test_kernels.h"

using anygpu::CodeObjectFormat;
using anygpu::detect_code_object;

namespace {

std::vector<unsigned char> elf_header(uint16_t machine, uint16_t type) {
  Elf64_Ehdr header{};
  memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_machine = machine;
  header.e_type = type;
  std::vector<unsigned char> bytes(sizeof header);
  memcpy(bytes.data(), &header, sizeof header);
  return bytes;
}

CodeObjectFormat detect(const std::vector<unsigned char>& bytes) {
  return detect_code_object(bytes.data(), bytes.size()).format;
}

CodeObjectFormat detect(const std::string& text) {
  return detect_code_object(text.data(), text.size()).format;
}

TEST(CodeObject, TheEmbeddedTestImageIsABundle) {
  EXPECT_EQ(CodeObjectFormat::clang_offload_bundle,
            detect_code_object(anygpu_image_test_kernels, anygpu_image_test_kernels_size).format);
}

TEST(CodeObject, ElfByMachineAndType) {
#if defined(__x86_64__)
  const uint16_t host = EM_X86_64, other = EM_AARCH64;
#else
  const uint16_t host = EM_AARCH64, other = EM_X86_64;
#endif
  EXPECT_EQ(CodeObjectFormat::host_shared_object, detect(elf_header(host, ET_DYN)));
  EXPECT_EQ(CodeObjectFormat::foreign_elf, detect(elf_header(host, ET_EXEC)));
  EXPECT_EQ(CodeObjectFormat::foreign_elf, detect(elf_header(other, ET_DYN)));
  EXPECT_EQ(CodeObjectFormat::cuda_cubin, detect(elf_header(190, ET_EXEC)));
  EXPECT_EQ(CodeObjectFormat::amdgpu_code_object, detect(elf_header(224, ET_DYN)));
}

TEST(CodeObject, TruncatedElfIsNotAHostCodeObject) {
  std::vector<unsigned char> header = elf_header(EM_X86_64, ET_DYN);
  header.resize(20);
  EXPECT_EQ(CodeObjectFormat::foreign_elf, detect(header));
}

TEST(CodeObject, TextAndMagicNumbers) {
  EXPECT_EQ(CodeObjectFormat::ptx,
            detect(std::string("//\n// Generated\n.version 7.8\n.target sm_80\n")));
  EXPECT_EQ(CodeObjectFormat::clang_offload_bundle,
            detect(std::string("__CLANG_OFFLOAD_BUNDLE__\x02\0\0\0\0\0\0\0", 32)));
  EXPECT_EQ(CodeObjectFormat::spirv,
            detect(std::vector<unsigned char>{0x03, 0x02, 0x23, 0x07, 0, 1, 0, 0}));
  EXPECT_EQ(CodeObjectFormat::nvidia_fatbin,
            detect(std::vector<unsigned char>{0x50, 0xED, 0x55, 0xBA, 1, 0, 0x10, 0}));
  EXPECT_EQ(CodeObjectFormat::unknown, detect(std::string("hello, world")));
  EXPECT_EQ(CodeObjectFormat::unknown, detect(std::vector<unsigned char>{1, 2}));
  EXPECT_EQ(CodeObjectFormat::unknown, detect_code_object(nullptr, 100).format);
}

}  // namespace
