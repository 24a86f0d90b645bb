#include "shim/code_object/code_object.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "anygpu_image_test_kernels.h"
#include "shim/code_object/code_object_entries.h"
#include "shim/code_object/offload_bundle.h"

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

// The object-file form of a clang offload bundle (clang-offload-bundler -type=o with an ELF host
// input), built by hand: an ELF file whose sections follow its header, then .shstrtab, then the
// section table. tests/bundle/object_bundle_test.cpp reads one clang-offload-bundler made.
struct Section {
  std::string name;
  std::vector<unsigned char> bytes;
  uint32_t type = SHT_PROGBITS;
};

std::vector<unsigned char> elf_with_sections(const std::vector<Section>& sections,
                                             uint16_t machine = EM_X86_64, uint16_t type = ET_REL) {
  std::vector<unsigned char> file = elf_header(machine, type);
  std::vector<Elf64_Shdr> table(1);  // section 0 is null
  std::string names(1, '\0');
  for (const Section& section : sections) {
    Elf64_Shdr header{};
    header.sh_name = static_cast<uint32_t>(names.size());
    header.sh_type = section.type;
    header.sh_offset = file.size();
    header.sh_size = section.bytes.size();
    names += section.name + '\0';
    if (section.type != SHT_NOBITS)
      file.insert(file.end(), section.bytes.begin(), section.bytes.end());
    table.push_back(header);
  }
  Elf64_Shdr strtab{};
  strtab.sh_name = static_cast<uint32_t>(names.size());
  names += std::string(".shstrtab") + '\0';
  strtab.sh_type = SHT_STRTAB;
  strtab.sh_offset = file.size();
  strtab.sh_size = names.size();
  file.insert(file.end(), names.begin(), names.end());
  table.push_back(strtab);
  file.resize((file.size() + 7) / 8 * 8);
  Elf64_Ehdr header;
  memcpy(&header, file.data(), sizeof header);
  header.e_shoff = file.size();
  header.e_shentsize = sizeof(Elf64_Shdr);
  header.e_shnum = static_cast<uint16_t>(table.size());
  header.e_shstrndx = static_cast<uint16_t>(table.size() - 1);
  memcpy(file.data(), &header, sizeof header);
  const auto* raw = reinterpret_cast<const unsigned char*>(table.data());
  file.insert(file.end(), raw, raw + table.size() * sizeof(Elf64_Shdr));
  return file;
}

std::vector<unsigned char> bytes_of(const std::string& text) {
  return std::vector<unsigned char>(text.begin(), text.end());
}

const std::string kPtx = ".version 7.8\n.target sm_90\n.address_size 64\n";

// What read_offload_bundle_sections says of `file`: "" when it reads it.
std::string sections_error(const std::vector<unsigned char>& file) {
  anygpu::OffloadBundle bundle;
  std::string error;
  if (anygpu::read_offload_bundle_sections(anygpu::ByteReader(file.data(), file.size()), &bundle,
                                           &error))
    return "";
  EXPECT_FALSE(error.empty());
  return error;
}

TEST(CodeObject, AnElfFileWithBundleSectionsIsTheObjectFileForm) {
  const std::vector<Section> bundle = {
      {".text", {0xc3}},
      {"__CLANG_OFFLOAD_BUNDLE__host-x86_64-unknown-linux-gnu", {0}},
      {"__CLANG_OFFLOAD_BUNDLE__hip-nvptx64-nvidia-cuda--compute_90", bytes_of(kPtx)}};
  // Any machine and type: what carries the sections decides, not the header.
  for (const int machine : {EM_X86_64, EM_AARCH64, 224, 190})
    for (const int type : {ET_REL, ET_DYN, ET_EXEC})
      EXPECT_EQ(CodeObjectFormat::clang_offload_bundle_object,
                detect(elf_with_sections(bundle, static_cast<uint16_t>(machine),
                                         static_cast<uint16_t>(type))))
          << machine << " " << type;
  EXPECT_TRUE(anygpu::is_container(CodeObjectFormat::clang_offload_bundle_object));
  EXPECT_STREQ("clang offload bundle in an object file",
               anygpu::format_name(CodeObjectFormat::clang_offload_bundle_object));
  // Without such a section, or with the bare prefix and no id, it is the ELF file it was.
  EXPECT_EQ(CodeObjectFormat::foreign_elf, detect(elf_with_sections({{".text", {0xc3}}})));
  EXPECT_EQ(CodeObjectFormat::foreign_elf,
            detect(elf_with_sections({{"__CLANG_OFFLOAD_BUNDLE__", {1, 2}}})));
  EXPECT_EQ(CodeObjectFormat::cuda_cubin,
            detect(elf_with_sections({{".nv.info", {1}}}, 190, ET_EXEC)));
  const std::vector<unsigned char> file = elf_with_sections(bundle);
  EXPECT_EQ(CodeObjectFormat::foreign_elf, anygpu::detect_elf_format(file.data(), file.size()));
}

TEST(CodeObject, ReadsTheObjectFileFormsEntries) {
  const std::vector<unsigned char> file = elf_with_sections(
      {{"__CLANG_OFFLOAD_BUNDLE__hip-nvptx64-nvidia-cuda--compute_90", bytes_of(kPtx)},
       {".text", {0xc3}},
       {"__CLANG_OFFLOAD_BUNDLE__host-x86_64-unknown-linux-gnu", {0}},
       {"__CLANG_OFFLOAD_BUNDLE__hip-spirv64-unknown-unknown", {}, SHT_NOBITS}});
  anygpu::OffloadBundle bundle;
  std::string error;
  ASSERT_TRUE(anygpu::read_offload_bundle_sections(anygpu::ByteReader(file.data(), file.size()),
                                                   &bundle, &error))
      << error;
  ASSERT_EQ(3u, bundle.entries.size());
  EXPECT_EQ("hip-nvptx64-nvidia-cuda--compute_90", bundle.entries[0].id);
  EXPECT_EQ(kPtx,
            std::string(bundle.entries[0].data, bundle.entries[0].data + bundle.entries[0].size));
  EXPECT_FALSE(bundle.entries[0].whole_file);
  // The one-zero-byte section is the host entry: the whole file, as clang unbundles it.
  EXPECT_EQ("host-x86_64-unknown-linux-gnu", bundle.entries[1].id);
  EXPECT_TRUE(bundle.entries[1].whole_file);
  EXPECT_EQ(file.data(), bundle.entries[1].data);
  EXPECT_EQ(file.size(), bundle.entries[1].size);
  EXPECT_EQ(0u, bundle.entries[2].size);  // SHT_NOBITS: empty
  EXPECT_EQ(file.size(), bundle.extent);

  // Listed as a container: the host entry is the relocatable object, described and not opened.
  std::vector<anygpu::CodeEntry> entries;
  ASSERT_TRUE(
      anygpu::list_code_entries(detect_code_object(file.data(), file.size()), &entries, &error))
      << error;
  ASSERT_EQ(3u, entries.size());
  EXPECT_EQ(CodeObjectFormat::ptx, entries[0].code.format);
  EXPECT_EQ("'host-x86_64-unknown-linux-gnu'", entries[1].label);
  EXPECT_EQ(CodeObjectFormat::foreign_elf, entries[1].code.format);
  EXPECT_EQ(ET_REL, entries[1].target.elf_type);
  EXPECT_NE(std::string::npos, entries[1].target.problem.find("carries the bundle"));
  EXPECT_TRUE(entries[2].target.empty);
}

TEST(CodeObject, AMalformedObjectFileFormIsAClearError) {
  const Section ptx{"__CLANG_OFFLOAD_BUNDLE__hip-nvptx64-nvidia-cuda--compute_90", bytes_of(kPtx)};
  EXPECT_EQ("", sections_error(elf_with_sections({ptx})));
  EXPECT_NE(std::string::npos, sections_error(elf_with_sections({ptx, ptx}))
                                   .find("two sections have the entry id "
                                         "'hip-nvptx64-nvidia-cuda--compute_90'"));
  EXPECT_NE(std::string::npos,
            sections_error(elf_with_sections({{"__CLANG_OFFLOAD_BUNDLE__a b", {1}}}))
                .find("not printable ASCII"));
  EXPECT_NE(std::string::npos, sections_error(elf_with_sections({{".text", {1}}}))
                                   .find("no section named __CLANG_OFFLOAD_BUNDLE__"));
  EXPECT_NE(std::string::npos, sections_error(bytes_of("not an ELF file")).find("not an ELF"));

  // The PTX section (1) at an offset or with a size past the end of the file: still detected (only
  // the table and the names are read for that), and refused naming the entry.
  const std::vector<unsigned char> good = elf_with_sections({ptx});
  Elf64_Ehdr header;
  memcpy(&header, good.data(), sizeof header);
  const size_t shdr = header.e_shoff + sizeof(Elf64_Shdr);
  for (const size_t field : {offsetof(Elf64_Shdr, sh_offset), offsetof(Elf64_Shdr, sh_size)}) {
    for (const uint64_t value : {uint64_t{good.size()}, uint64_t{UINT64_MAX}}) {
      std::vector<unsigned char> bad = good;
      memcpy(bad.data() + shdr + field, &value, sizeof value);
      EXPECT_EQ(CodeObjectFormat::clang_offload_bundle_object, detect(bad));
      const std::string error = sections_error(bad);
      EXPECT_NE(std::string::npos,
                error.find("entry 'hip-nvptx64-nvidia-cuda--compute_90' (section 1) at offset"))
          << error;
      EXPECT_NE(std::string::npos, error.find("runs past the end")) << error;
    }
  }
  // A section table past the end: not recognised as a bundle, and nothing read outside.
  std::vector<unsigned char> no_table = good;
  no_table.resize(header.e_shoff + 10);
  EXPECT_EQ(CodeObjectFormat::foreign_elf, detect(no_table));
}

}  // namespace
