// The ELF reader on real code objects: headers, symbols, and the kernels they name.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>

#include "bundle_test_support.h"
#include "shim/code_object/code_object_kernels.h"
#include "shim/code_object/elf_reader.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

std::vector<std::string> kernels_of(const Bytes& file) {
  std::vector<std::string> kernels;
  std::string error;
  EXPECT_TRUE(code_object_kernels(detect_code_object(file.data(), file.size()), &kernels, &error))
      << error;
  std::sort(kernels.begin(), kernels.end());
  return kernels;
}

const std::vector<std::string> kDataKernels = {"fill", "scale"};

TEST(ElfReader, CubinHeaderAndKernels) {
  const Bytes cubin = data_file("kernels_sm90.cubin");
  const ElfHeader header = elf_header(cubin);
  EXPECT_EQ(kElfMachineCuda, header.machine);
  EXPECT_EQ(kDataKernels, kernels_of(cubin));
}

TEST(ElfReader, AmdCodeObjectKernelsAreItsKernelDescriptors) {
  const Bytes code_object = data_file("gfx90a_xnack_off.co");
  EXPECT_EQ(kElfMachineAmdgpu, elf_header(code_object).machine);
  EXPECT_EQ(ET_DYN, elf_header(code_object).type);
  EXPECT_EQ(kDataKernels, kernels_of(code_object));
  std::vector<ElfSymbol> symbols;
  std::string error;
  ASSERT_TRUE(
      read_elf_symbols(ByteReader(code_object.data(), code_object.size()), &symbols, &error));
  bool descriptor = false;
  for (const ElfSymbol& symbol : symbols) descriptor |= symbol.name == "scale.kd";
  EXPECT_TRUE(descriptor);
}

TEST(ElfReader, Sections) {
  const Bytes code_object = data_file("gfx90a.co");
  const std::vector<ElfSection> sections = read_ok(read_elf_sections, code_object);
  std::vector<std::string> names;
  for (const ElfSection& section : sections) {
    names.emplace_back(section.name);
    if (section.type != SHT_NOBITS) {
      EXPECT_LE(section.offset + section.size, code_object.size()) << section.name;
    }
  }
  for (const char* name : {".note", ".dynsym", ".text", ".shstrtab"})
    EXPECT_NE(names.end(), std::find(names.begin(), names.end(), name)) << name;
  Bytes no_names = code_object;
  const uint16_t past_the_table = 500;
  memcpy(no_names.data() + offsetof(Elf64_Ehdr, e_shstrndx), &past_the_table, 2);
  std::vector<ElfSection> unused;
  std::string error;
  EXPECT_FALSE(read_elf_sections(ByteReader(no_names.data(), no_names.size()), &unused, &error));
  EXPECT_NE(std::string::npos, error.find("section 500")) << error;
}

TEST(ElfReader, HostCodeObjectKernelsAreItsExports) {
  const std::vector<std::string> kernels = kernels_of(host_code_object());
  for (const char* name : {"vector_add", "saxpy", "c_scale", "block_reduce"})
    EXPECT_NE(kernels.end(), std::find(kernels.begin(), kernels.end(), name)) << name;
}

TEST(ElfReader, RefusesWhatIsNotElf64LittleEndian) {
  ElfHeader header;
  std::string error;
  Bytes elf32 = data_file("gfx90a.co");
  elf32[EI_CLASS] = ELFCLASS32;
  Bytes big_endian = data_file("gfx90a.co");
  big_endian[EI_DATA] = ELFDATA2MSB;
  for (const Bytes& file : {text_bytes("\x7f"
                                       "ELF"),
                            elf32, big_endian, text_bytes("not elf")}) {
    error.clear();
    EXPECT_FALSE(read_elf_header(ByteReader(file.data(), file.size()), &header, &error));
    EXPECT_FALSE(error.empty());
  }
}

}  // namespace
