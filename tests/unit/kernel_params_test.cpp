// The parameter layouts read from GPU code objects (shim/kernel_params.h): the records AG_KERNEL
// emits, read from this build's PTX, cubin and AMD code object; PTX's .param list without a record;
// corrupt records and ELF files, each refused with an error.
#include "shim/code_object/kernel_params.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using anygpu::ByteReader;
using anygpu::CodeObject;
using anygpu::CodeObjectFormat;
using anygpu::decode_param_record;
using anygpu::detect_code_object;
using anygpu::read_kernel_params;

namespace {

struct Expected {
  ag_param_kind kind;
  size_t size, alignment, offset;
};

constexpr ag_param_kind I = AG_PARAM_INTEGER, F = AG_PARAM_FLOAT, P = AG_PARAM_POINTER,
                        S = AG_PARAM_STRUCT;

// kernels/mixed_params.cpp: (char, short, int, int64_t, float, double, double*, ag_pair16).
const std::vector<Expected> kMixedParams = {{I, 1, 1, 0},  {I, 2, 2, 2},  {I, 4, 4, 4},
                                            {I, 8, 8, 8},  {F, 4, 4, 16}, {F, 8, 8, 24},
                                            {P, 8, 8, 32}, {S, 16, 8, 40}};
// kernels/vector_params.cpp: (float4, int2, const float4*, float4*, double2*, int): CUDA's
// vector types are structs of their own alignment (float4 16, int2 8).
const std::vector<Expected> kVectorParams = {{S, 16, 16, 0}, {S, 8, 8, 16}, {P, 8, 8, 24},
                                             {P, 8, 8, 32},  {P, 8, 8, 40}, {I, 4, 4, 48}};
// kernels/saxpy.cpp: (int n, float a, const float* x, float* y).
const std::vector<Expected> kSaxpy = {{I, 4, 4, 0}, {F, 4, 4, 4}, {P, 8, 8, 8}, {P, 8, 8, 16}};

std::string read_text(const char* path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

CodeObject ptx(const std::string& text) {
  return CodeObject{CodeObjectFormat::ptx, reinterpret_cast<const unsigned char*>(text.data()),
                    text.size()};
}

CodeObject code(const std::vector<unsigned char>& bytes, CodeObjectFormat format) {
  return CodeObject{format, bytes.data(), bytes.size()};
}

::testing::AssertionResult has_layout(const CodeObject& code, const char* kernel,
                                      const std::vector<Expected>& expected) {
  std::vector<ag_param_info> layout;
  std::string error;
  if (!read_kernel_params(code, kernel, &layout, &error))
    return ::testing::AssertionFailure() << kernel << ": " << error;
  if (layout.size() != expected.size())
    return ::testing::AssertionFailure() << kernel << ": " << layout.size() << " parameters";
  for (size_t i = 0; i < expected.size(); ++i) {
    const ag_param_info& p = layout[i];
    const Expected& e = expected[i];
    if (p.struct_size != sizeof(ag_param_info) || p.kind != e.kind || p.size != e.size ||
        p.alignment != e.alignment || p.offset != e.offset)
      return ::testing::AssertionFailure()
             << kernel << " parameter " << i << ": kind " << p.kind << " size " << p.size
             << " alignment " << p.alignment << " offset " << p.offset << ", expected kind "
             << e.kind << " size " << e.size << " alignment " << e.alignment << " offset "
             << e.offset;
  }
  return ::testing::AssertionSuccess();
}

// False with a non-empty error, and the layout untouched.
::testing::AssertionResult refused(const CodeObject& code, const char* kernel) {
  std::vector<ag_param_info> layout(1);
  layout[0].size = 77;
  std::string error;
  if (read_kernel_params(code, kernel, &layout, &error))
    return ::testing::AssertionFailure() << "read a layout of " << layout.size() << " parameters";
  if (error.empty()) return ::testing::AssertionFailure() << "no error message";
  if (layout.size() != 1 || layout[0].size != 77)
    return ::testing::AssertionFailure() << "the layout changed";
  return ::testing::AssertionSuccess() << error;
}

void expect_test_kernels(const CodeObject& code) {
  EXPECT_TRUE(has_layout(code, "mixed_params", kMixedParams));
  EXPECT_TRUE(has_layout(code, "saxpy", kSaxpy));
  EXPECT_TRUE(has_layout(code, "vector_params", kVectorParams));
  EXPECT_TRUE(has_layout(code, "empty", {}));
  EXPECT_TRUE(refused(code, "not_a_kernel"));
}

// A code object of this build, or a skip that says why it is not there.
#define LOAD_BUILT(variable, path, why_missing) \
  const std::string variable = read_text(path); \
  if (variable.empty()) GTEST_SKIP() << path << " was not built: " << why_missing

TEST(KernelParams, RecordInThePtx) {
  LOAD_BUILT(text, ANYGPU_TEST_PTX_SM90, "clang-19 is missing (see the configure warning)");
  ASSERT_EQ(CodeObjectFormat::ptx, detect_code_object(text.data(), text.size()).format);
  ASSERT_NE(std::string::npos, text.find(".b8 anygpu_params_saxpy["));
  expect_test_kernels(ptx(text));
}

TEST(KernelParams, RecordInTheCubin) {
  LOAD_BUILT(bytes, ANYGPU_TEST_CUBIN_SM90, "cubins need a CUDA toolkit's ptxas");
  const CodeObject cubin = detect_code_object(bytes.data(), bytes.size());
  ASSERT_EQ(CodeObjectFormat::cuda_cubin, cubin.format);
  expect_test_kernels(cubin);
}

TEST(KernelParams, RecordInTheAmdCodeObject) {
  LOAD_BUILT(bytes, ANYGPU_TEST_AMDGPU_GFX90A, "clang-19 or lld-19 is missing");
  const CodeObject amd = detect_code_object(bytes.data(), bytes.size());
  ASSERT_EQ(CodeObjectFormat::amdgpu_code_object, amd.format);
  expect_test_kernels(amd);
}

// Without the records, PTX says .u64 for a pointer as for an int64_t: it reads as an integer.
TEST(KernelParams, PtxWithoutRecordsFallsBackToTheParamList) {
  LOAD_BUILT(text, ANYGPU_TEST_PTX_SM90, "clang-19 is missing (see the configure warning)");
  std::string stripped;
  for (size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    if (line.find("anygpu_params_") == std::string::npos) stripped += line + "\n";
  }
  std::vector<Expected> mixed = kMixedParams;
  mixed[6].kind = AG_PARAM_INTEGER;
  std::vector<Expected> saxpy = kSaxpy;
  saxpy[2].kind = saxpy[3].kind = AG_PARAM_INTEGER;
  EXPECT_TRUE(has_layout(ptx(stripped), "mixed_params", mixed));
  EXPECT_TRUE(has_layout(ptx(stripped), "saxpy", saxpy));
  EXPECT_TRUE(has_layout(ptx(stripped), "empty", {}));
}

const char* const kHandWrittenPtx = R"(
.version 7.8
.target sm_90
.address_size 64
.file 1 "a \".entry k(.param .f32 x)\" in a string"
// .entry commented(.param .u32 x)
.visible .entry k(
	.param .u8 k_param_0, .param .s16 k_param_1,  /* a comment */
	.param .b32 k_param_2,
	.param .s64 k_param_3,
	.param .f32 k_param_4,
	.param .f64 k_param_5,
	.param .u64 .ptr .global .align 1 k_param_6,
	.param .align 8 .b8 k_param_7[16],
	.param .align 4 .b8 k_param_8[12]
)
{
	ret;
}
.visible .entry none()
{
	ret;
}
)";

TEST(KernelParams, HandWrittenPtxParamList) {
  const std::string text = kHandWrittenPtx;
  EXPECT_TRUE(has_layout(ptx(text), "k",
                         {{I, 1, 1, 0},
                          {I, 2, 2, 2},
                          {I, 4, 4, 4},
                          {I, 8, 8, 8},
                          {F, 4, 4, 16},
                          {F, 8, 8, 24},
                          {P, 8, 8, 32},
                          {S, 16, 8, 40},
                          {S, 12, 4, 56}}));
  EXPECT_TRUE(has_layout(ptx(text), "none", {}));
  EXPECT_TRUE(refused(ptx(text), "commented"));
  EXPECT_TRUE(refused(ptx(text), "ke"));
}

TEST(KernelParams, MalformedPtxParamLists) {
  const std::string head = ".version 7.8\n.target sm_90\n.visible .entry k(";
  for (const char* params : {"", ".param .u32 a", ".param .u32 a,", ".param .texref t)",
                             ".param .u32 .align 3 a)", ".param .align 4 .b8 a[)",
                             ".param .align 4 .b8 a[0])", "u32 a)", ".param .b8 a[99999999])"})
    EXPECT_TRUE(refused(ptx(head + params), "k")) << params;
}

// A PTX record for kernel k from its bytes, as clang writes it.
std::string ptx_record(const std::vector<unsigned>& bytes, size_t array_size,
                       const char* type = ".b8") {
  std::string text = ".version 7.8\n.target sm_90\n.visible .const .align 4 " + std::string(type) +
                     " anygpu_params_k[" + std::to_string(array_size) + "] = {";
  for (size_t i = 0; i < bytes.size(); ++i) text += (i ? ", " : "") + std::to_string(bytes[i]);
  return text + "};\n.visible .entry k(.param .u32 k_param_0)\n{\n\tret;\n}\n";
}

// The words of a record, as bytes.
std::vector<unsigned> record_bytes(const std::vector<uint32_t>& words) {
  std::vector<unsigned> bytes;
  for (const uint32_t word : words)
    for (int shift = 0; shift < 32; shift += 8) bytes.push_back((word >> shift) & 0xff);
  return bytes;
}

constexpr uint32_t kMagic = 0x50475941;

TEST(KernelParams, PtxRecordWinsAndItsTrailingZerosMayBeLeftOut) {
  std::vector<unsigned> bytes = record_bytes({kMagic, 1, 2, 8, 8, 3, 4, 4, 2});
  const size_t size = bytes.size();
  EXPECT_TRUE(has_layout(ptx(ptx_record(bytes, size)), "k", {{P, 8, 8, 0}, {F, 4, 4, 8}}));
  bytes.resize(size - 3);  // the last kind's zero bytes, as clang leaves them out
  EXPECT_TRUE(has_layout(ptx(ptx_record(bytes, size)), "k", {{P, 8, 8, 0}, {F, 4, 4, 8}}));
  const std::string hex = ".b8 anygpu_params_k[12] = {0x41, 0x59, 0x47, 0x50, 1};";
  EXPECT_TRUE(has_layout(ptx(".version 7.8\n.target sm_90\n" + hex), "k", {}));
}

TEST(KernelParams, CorruptPtxRecordsAreRefused) {
  const std::vector<unsigned> good = record_bytes({kMagic, 1, 1, 4, 4, 1});
  const std::string text = ptx_record(good, good.size());
  // Cut inside the initializer, at every byte.
  const size_t start = text.find('{');
  for (size_t cut = text.find("anygpu_params_k"); cut < text.find('}'); ++cut)
    EXPECT_TRUE(refused(ptx(text.substr(0, cut)), "k")) << cut;
  EXPECT_TRUE(refused(ptx(text.substr(0, start + 10) + std::string(1, '\0') + text), "k"));

  std::vector<unsigned> bad = good;
  bad[0] = 66;  // magic
  EXPECT_TRUE(refused(ptx(ptx_record(bad, bad.size())), "k"));
  bad = good;
  bad[4] = 2;  // version
  EXPECT_TRUE(refused(ptx(ptx_record(bad, bad.size())), "k"));
  bad = good;
  bad[8] = bad[9] = bad[10] = bad[11] = 255;  // count 0xffffffff
  EXPECT_TRUE(refused(ptx(ptx_record(bad, bad.size())), "k"));
  bad = good;
  bad[0] = 256;  // not a byte
  EXPECT_TRUE(refused(ptx(ptx_record(bad, bad.size())), "k"));
  EXPECT_TRUE(refused(ptx(ptx_record(good, good.size() - 1)), "k"));  // more bytes than its size
  EXPECT_TRUE(refused(ptx(ptx_record({65, 89, 71, 80, 1, 0, 0, 0}, 8)), "k"));  // no count
  EXPECT_TRUE(refused(ptx(ptx_record(good, 1u << 21)), "k"));                   // above 1 MiB
  EXPECT_TRUE(refused(ptx(ptx_record(good, good.size(), ".u32")), "k"));
  EXPECT_TRUE(refused(ptx(".b8 anygpu_params_k[16];\n.visible .entry k()\n{\n}\n"), "k"));
  EXPECT_TRUE(refused(ptx(".b8 anygpu_params_k[16] = {65 89};"), "k"));
}

TEST(KernelParams, DecodeRefusesBadFields) {
  auto decode = [](const std::vector<uint32_t>& words) {
    std::vector<unsigned char> bytes(words.size() * 4);
    memcpy(bytes.data(), words.data(), bytes.size());
    std::vector<ag_param_info> layout;
    std::string error;
    const bool ok = decode_param_record(ByteReader(bytes.data(), bytes.size()), &layout, &error);
    EXPECT_EQ(ok, error.empty()) << error;
    return ok;
  };
  EXPECT_TRUE(decode({kMagic, 1, 0}));
  EXPECT_TRUE(decode({kMagic, 1, 1, 16, 16, 4}));
  EXPECT_FALSE(decode({kMagic, 1}));
  EXPECT_FALSE(decode({kMagic, 1, 2, 4, 4, 1}));           // count too big for the bytes
  EXPECT_FALSE(decode({kMagic, 1, 0x15555555, 4, 4, 1}));  // 12 * count overflows 32 bits
  EXPECT_FALSE(decode({kMagic, 1, 1, 0, 4, 1}));           // size 0
  EXPECT_FALSE(decode({kMagic, 1, 1, 4, 3, 1}));           // alignment not a power of two
  EXPECT_FALSE(decode({kMagic, 1, 1, 4, 0, 1}));           // alignment 0
  EXPECT_FALSE(decode({kMagic, 1, 1, 4, 4, 0}));           // kind 0
  EXPECT_FALSE(decode({kMagic, 1, 1, 4, 4, 5}));           // kind 5
  EXPECT_FALSE(decode({kMagic + 1, 1, 0}));
  EXPECT_FALSE(decode({kMagic, 0, 0}));
}

// A minimal ELF64 with one data section at `address` holding `data`, and one symbol.
struct ElfSpec {
  uint16_t machine = 190, type = ET_EXEC;
  uint64_t address = 0;
  std::vector<unsigned char> data;
  std::string name = "anygpu_params_k";
  uint64_t value = 0, size = 0;
  uint16_t section = 1;
  uint32_t symtab_link = 3;
  uint32_t data_type = SHT_PROGBITS;
};

void append_raw(std::vector<unsigned char>* bytes, const void* data, size_t size) {
  const size_t at = bytes->size();
  bytes->resize(at + size);
  if (size) memcpy(bytes->data() + at, data, size);
}

template <typename T>
void append(std::vector<unsigned char>* bytes, const T& value) {
  append_raw(bytes, &value, sizeof(T));
}

std::vector<unsigned char> build_elf(const ElfSpec& spec) {
  const std::string strtab = std::string("\0", 1) + spec.name + std::string("\0", 1);
  const std::string shstrtab = std::string("\0.data\0.symtab\0.strtab\0.shstrtab\0", 33);
  std::vector<unsigned char> bytes(sizeof(Elf64_Ehdr));
  const uint64_t data_at = bytes.size();
  append_raw(&bytes, spec.data.data(), spec.data.size());
  const uint64_t strtab_at = bytes.size();
  append_raw(&bytes, strtab.data(), strtab.size());
  const uint64_t shstrtab_at = bytes.size();
  append_raw(&bytes, shstrtab.data(), shstrtab.size());
  bytes.resize((bytes.size() + 7) / 8 * 8);
  const uint64_t symtab_at = bytes.size();
  Elf64_Sym symbol{};
  append(&bytes, symbol);
  symbol.st_name = 1;
  symbol.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
  symbol.st_shndx = spec.section;
  symbol.st_value = spec.value;
  symbol.st_size = spec.size;
  append(&bytes, symbol);
  const uint64_t sections_at = bytes.size();
  auto section = [&](uint32_t name, uint32_t type, uint64_t address, uint64_t offset, uint64_t size,
                     uint32_t link, uint64_t entry_size) {
    Elf64_Shdr header{};
    header.sh_name = name;
    header.sh_type = type;
    header.sh_addr = address;
    header.sh_offset = offset;
    header.sh_size = size;
    header.sh_link = link;
    header.sh_entsize = entry_size;
    append(&bytes, header);
  };
  section(0, SHT_NULL, 0, 0, 0, 0, 0);
  section(1, spec.data_type, spec.address, data_at, spec.data.size(), 0, 0);
  section(7, SHT_SYMTAB, 0, symtab_at, 2 * sizeof(Elf64_Sym), spec.symtab_link, sizeof(Elf64_Sym));
  section(15, SHT_STRTAB, 0, strtab_at, strtab.size(), 0, 0);
  section(23, SHT_STRTAB, 0, shstrtab_at, shstrtab.size(), 0, 0);
  Elf64_Ehdr header{};
  memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_type = spec.type;
  header.e_machine = spec.machine;
  header.e_version = EV_CURRENT;
  header.e_ehsize = sizeof(Elf64_Ehdr);
  header.e_shoff = sections_at;
  header.e_shentsize = sizeof(Elf64_Shdr);
  header.e_shnum = 5;
  header.e_shstrndx = 4;
  memcpy(bytes.data(), &header, sizeof header);
  return bytes;
}

// Padding, then the record of one 8-byte pointer, at offset 16 of the data section.
ElfSpec record_elf() {
  ElfSpec spec;
  spec.data.assign(16, 0xee);
  for (const uint32_t word : {kMagic, 1u, 1u, 8u, 8u, 3u}) append(&spec.data, word);
  spec.value = 16;
  spec.size = 24;
  return spec;
}

TEST(KernelParams, SyntheticElfRecords) {
  const ElfSpec cubin = record_elf();
  EXPECT_TRUE(
      has_layout(code(build_elf(cubin), CodeObjectFormat::cuda_cubin), "k", {{P, 8, 8, 0}}));
  ElfSpec amd = cubin;  // a shared object: st_value is an address in the section
  amd.machine = 224;
  amd.type = ET_DYN;
  amd.address = 0x1000;
  amd.value = 0x1010;
  EXPECT_TRUE(
      has_layout(code(build_elf(amd), CodeObjectFormat::amdgpu_code_object), "k", {{P, 8, 8, 0}}));
  EXPECT_TRUE(refused(code(build_elf(cubin), CodeObjectFormat::cuda_cubin), "other"));
}

TEST(KernelParams, CorruptElfFilesAreRefused) {
  auto refuses = [](const ElfSpec& spec) {
    return refused(code(build_elf(spec), CodeObjectFormat::cuda_cubin), "k");
  };
  ElfSpec spec = record_elf();
  spec.size = 100;  // runs past its section
  EXPECT_TRUE(refuses(spec));
  spec = record_elf();
  spec.value = 1ull << 63;
  EXPECT_TRUE(refuses(spec));
  spec = record_elf();
  spec.value = 41;  // inside, but the record runs past the end
  EXPECT_TRUE(refuses(spec));
  spec = record_elf();
  spec.address = 0x1000;  // the value lies before its section's address
  spec.value = 0x10;
  EXPECT_TRUE(refuses(spec));
  spec = record_elf();
  spec.size = 20;  // a record cut short
  EXPECT_TRUE(refuses(spec));
  spec = record_elf();
  spec.section = 9;  // no such section
  EXPECT_TRUE(refuses(spec));
  spec = record_elf();
  spec.section = 0;  // undefined
  EXPECT_TRUE(refuses(spec));
  spec = record_elf();
  spec.data_type = SHT_NOBITS;
  EXPECT_TRUE(refuses(spec));
  spec = record_elf();
  spec.symtab_link = 99;
  EXPECT_TRUE(refuses(spec));
  spec = record_elf();
  spec.data[16] = 0;  // bad magic
  EXPECT_TRUE(refuses(spec));

  // Every truncation of a good file, and every byte flipped: refused or read, never a crash.
  const std::vector<unsigned char> good = build_elf(record_elf());
  for (size_t size = 0; size < good.size(); ++size) {
    const std::vector<unsigned char> cut(good.begin(), good.begin() + size);
    std::vector<ag_param_info> layout;
    std::string error;
    EXPECT_FALSE(read_kernel_params(code(cut, CodeObjectFormat::cuda_cubin), "k", &layout, &error))
        << size;
  }
  for (size_t at = 0; at < good.size(); ++at) {
    std::vector<unsigned char> flipped = good;
    flipped[at] ^= 0xff;
    std::vector<ag_param_info> layout;
    std::string error;
    if (!read_kernel_params(code(flipped, CodeObjectFormat::cuda_cubin), "k", &layout, &error)) {
      EXPECT_FALSE(error.empty()) << at;
    }
  }
}

// nvcc's fatbin (tests/bundle/data: an sm_80 cubin and compute_90 PTX, no records): the cubin
// has no record, so the PTX's .param list gives the layout; a compressed fatbin has none.
TEST(KernelParams, FatbinEntries) {
  const std::string fatbin = read_text(ANYGPU_TEST_BUNDLE_DATA "/kernels_sm80_compute90.fatbin");
  const CodeObject object = detect_code_object(fatbin.data(), fatbin.size());
  ASSERT_EQ(CodeObjectFormat::nvidia_fatbin, object.format);
  EXPECT_TRUE(has_layout(object, "scale", {{I, 8, 8, 0}, {F, 4, 4, 8}}));
  EXPECT_TRUE(has_layout(object, "fill", {{I, 8, 8, 0}, {I, 4, 4, 8}, {I, 1, 1, 12}}));
  EXPECT_TRUE(refused(object, "not_a_kernel"));
  const std::string compressed = read_text(ANYGPU_TEST_BUNDLE_DATA "/kernels_compressed.fatbin");
  EXPECT_TRUE(refused(detect_code_object(compressed.data(), compressed.size()), "scale"));
}

TEST(KernelParams, OtherFormatsHaveNoRecord) {
  const std::string text = "not a code object";
  const CodeObject spirv{CodeObjectFormat::spirv,
                         reinterpret_cast<const unsigned char*>(text.data()), text.size()};
  EXPECT_TRUE(refused(spirv, "k"));
  EXPECT_TRUE(refused(CodeObject{CodeObjectFormat::ptx, nullptr, 0}, "k"));
  EXPECT_TRUE(refused(CodeObject{CodeObjectFormat::cuda_cubin, nullptr, 0}, "k"));
  EXPECT_TRUE(refused(CodeObject{CodeObjectFormat::nvidia_fatbin, nullptr, 0}, "k"));
}

}  // namespace
