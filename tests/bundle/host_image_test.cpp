// Issue 15, defect 1: host code objects are checked before the dynamic loader sees them. Every
// truncation of a real host code object, and seeded corruptions of the structure the check covers,
// either load or are refused with AG_ERROR_INVALID_IMAGE and a detail, and never crash; a shared
// object that is not an anygpu host code object is refused before its constructors run.
#include <elf.h>
#include <gnu/libc-version.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>

#include "bundle_test_support.h"
#include "shim/code_object/code_object.h"
#include "shim/code_object/host_image_check.h"
#include "test_support.h"

using namespace anygpu;
using namespace anygpu_test;
using namespace bundle_test;

namespace {

// The sanitizers make each load many times slower: there every 7th truncation (a prime, so every
// field's bytes are still cut) and a quarter of the corruptions run.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr size_t kTruncationStep = 7;
constexpr int kMutationBatches = 3;
#else
constexpr size_t kTruncationStep = 1;
constexpr int kMutationBatches = 12;
#endif
constexpr int kMutationsPerBatch = 500;

Bytes file_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot read " << path;
  return Bytes(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

std::string check_error(const Bytes& image) {
  std::string error;
  if (check_host_image(ByteReader(image.data(), image.size()), host_elf_machine(), &error))
    return "";
  EXPECT_FALSE(error.empty());
  return error;
}

// agModuleLoadData's result; a loaded module is unloaded. "" or the refusal's detail.
std::string load_result(ag_device cpu, const unsigned char* image, size_t bytes,
                        ag_result* result) {
  ag_module module = nullptr;
  *result = agModuleLoadData(cpu, image, bytes, &module);
  if (*result == AG_SUCCESS) {
    agModuleUnload(module);
    return "";
  }
  return last_detail();
}

TEST(HostImageCheck, AcceptsTheTestKernelsAndRunsThem) {
  const Bytes host = host_code_object();
  EXPECT_EQ("", check_error(host));
  ag_device cpu = cpu_device();
  ag_module module = nullptr;
  ASSERT_AG(agModuleLoadData(cpu, host.data(), host.size(), &module));
  ag_function function = nullptr;
  EXPECT_AG(agModuleGetFunction(module, "vector_add", &function));
  ASSERT_AG(agModuleUnload(module));
}

TEST(HostImageCheck, NamesWhatLiesPastTheEnd) {
  const Bytes host = host_code_object();
  const Bytes truncated(host.begin(), host.begin() + 8192);
  const std::string error = check_error(truncated);
  EXPECT_NE(std::string::npos, error.find("(PT_LOAD) bytes")) << error;
  EXPECT_NE(std::string::npos, error.find("lie past the image's end (8192 bytes)")) << error;
  ag_result result;
  const std::string detail = load_result(cpu_device(), truncated.data(), truncated.size(), &result);
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE, result) << detail;
  EXPECT_NE(std::string::npos, detail.find("host code object refused before loading")) << detail;
}

// Each note segment's notes are walked as ld.so walks them: a PT_NOTE made a PT_GNU_PROPERTY
// with a memory size of 2 GiB sent ld.so reading unmapped memory (SIGSEGV in dl-load.c).
TEST(HostImageCheck, NotesPastTheirSegmentAreRefused) {
  Bytes host = host_code_object();
  Elf64_Ehdr header;
  memcpy(&header, host.data(), sizeof header);
  bool changed = false;
  for (unsigned i = 0; i < header.e_phnum && !changed; ++i) {
    Elf64_Phdr ph;
    const size_t at = header.e_phoff + size_t{i} * sizeof ph;
    memcpy(&ph, host.data() + at, sizeof ph);
    if (ph.p_type != PT_NOTE) continue;
    ph.p_type = PT_GNU_PROPERTY;
    ph.p_align = 8;
    ph.p_memsz = 0x80000000;
    memcpy(host.data() + at, &ph, sizeof ph);
    changed = true;
  }
  ASSERT_TRUE(changed) << "the test kernels' host code object has no PT_NOTE";
  const std::string error = check_error(host);
  EXPECT_NE(std::string::npos, error.find("PT_GNU_PROPERTY")) << error;
  ag_result result;
  const std::string detail = load_result(cpu_device(), host.data(), host.size(), &result);
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE, result) << detail;
}

TEST(HostImageMutation, EveryTruncationIsRefused) {
  const Bytes host = host_code_object();
  ag_device cpu = cpu_device();
  for (size_t size = 0; size < host.size(); size += kTruncationStep) {
    ag_result result;
    const std::string detail = load_result(cpu, host.data(), size, &result);
    ASSERT_NE(AG_SUCCESS, result) << size;
    ASSERT_FALSE(detail.empty()) << size;
    if (size >= sizeof(Elf64_Ehdr)) {
      ASSERT_EQ(AG_ERROR_INVALID_IMAGE, result) << size << ": " << detail;
    }
  }
}

// The bytes the check covers, which the mutations below change: the ELF header, the program
// headers, and the dynamic section and the tables it names (symbols, strings, hash tables, symbol
// versions). Left out, because no structural check can tell a wrong value from a right one:
// addresses of code (a symbol's st_value, DT_INIT, DT_FINI and relocation addends: any address
// inside the code segment is plausible, and a wrong one is called), the relocation tables (a
// relocation moved to another writable slot can overwrite a pointer that a constructor calls),
// and code and data. The check still bounds those (each relocation writes inside a writable
// PT_LOAD, each constructor pointer is relocated to code), but corrupting them can crash.
std::vector<size_t> covered_bytes(const Bytes& image) {
  std::vector<bool> covered(image.size(), false);
  auto mark = [&](uint64_t offset, uint64_t size, bool value) {
    for (uint64_t i = offset; i < offset + size && i < image.size(); ++i) covered[i] = value;
  };
  Elf64_Ehdr header;
  memcpy(&header, image.data(), sizeof header);
  mark(0, sizeof header, true);
  mark(header.e_phoff, uint64_t{header.e_phnum} * sizeof(Elf64_Phdr), true);
  std::vector<ElfSection> sections;
  std::string error;
  EXPECT_TRUE(read_elf_sections(ByteReader(image.data(), image.size()), &sections, &error));
  for (const ElfSection& s : sections) {
    if (s.type == SHT_DYNAMIC || s.type == SHT_DYNSYM || s.type == SHT_GNU_HASH ||
        s.type == SHT_HASH || s.type == SHT_GNU_versym || s.type == SHT_GNU_verneed ||
        s.type == SHT_GNU_verdef || s.name == ".dynstr")
      mark(s.offset, s.size, true);
    if (s.type == SHT_DYNSYM)
      for (uint64_t at = s.offset; at < s.offset + s.size; at += sizeof(Elf64_Sym))
        mark(at + offsetof(Elf64_Sym, st_value), sizeof(uint64_t), false);
    if (s.type == SHT_DYNAMIC)
      for (uint64_t at = s.offset; at + sizeof(Elf64_Dyn) <= s.offset + s.size;
           at += sizeof(Elf64_Dyn)) {
        int64_t tag;
        memcpy(&tag, image.data() + at, sizeof tag);
        if (tag == DT_INIT || tag == DT_FINI) mark(at + 8, 8, false);
      }
  }
  std::vector<size_t> at;
  for (size_t i = 0; i < image.size(); ++i)
    if (covered[i]) at.push_back(i);
  return at;
}

// One seeded corruption at a covered byte: a flipped bit, a random byte, or an extreme value of
// 1 to 8 bytes (as tests/bundle/mutation_test.cpp does).
Bytes mutate(Bytes image, const std::vector<size_t>& covered, std::mt19937& random) {
  static const uint64_t kExtremes[] = {0,      1,          0x7f,       0xff,
                                       0xffff, 0xffffffff, UINT64_MAX, UINT64_MAX / 2};
  const size_t at = covered[random() % covered.size()];
  switch (random() % 3) {
    case 0:
      image[at] ^= static_cast<unsigned char>(1u << (random() % 8));
      break;
    case 1:
      image[at] = static_cast<unsigned char>(random());
      break;
    default: {
      const uint64_t value = kExtremes[random() % (sizeof kExtremes / sizeof kExtremes[0])];
      const size_t width = size_t{1} << (random() % 4);
      if (at + width <= image.size()) memcpy(image.data() + at, &value, width);
      break;
    }
  }
  return image;
}

// Runs in a child process (a death test): loaded images stay loaded for the life of a process,
// so each batch's loads end with it. Exits 0 when every mutation loaded or was refused with a
// detail (AG_ERROR_INVALID_IMAGE, or AG_ERROR_NO_BINARY_FOR_DEVICE for a header that now names
// another machine or file type); a crash or a hang fails the test with the batch's seed.
[[noreturn]] void run_mutation_batch(const Bytes& host, unsigned seed) {
  const std::vector<size_t> covered = covered_bytes(host);
  ag_device cpu = cpu_device();
  std::mt19937 random(seed);
  int refused = 0, loaded = 0;
  for (int i = 0; i < kMutationsPerBatch; ++i) {
    const Bytes image = mutate(host, covered, random);
    ag_result result;
    const std::string detail = load_result(cpu, image.data(), image.size(), &result);
    // A header changed to another machine or file type is no host code object for this device.
    const bool clear_refusal =
        (result == AG_ERROR_INVALID_IMAGE || result == AG_ERROR_NO_BINARY_FOR_DEVICE) &&
        !detail.empty();
    if (result != AG_SUCCESS && !clear_refusal) {
      fprintf(stderr, "mutation %d of seed %u: result %d, detail '%s'\n", i, seed, result,
              detail.c_str());
      _exit(1);
    }
    ++(result == AG_SUCCESS ? loaded : refused);
  }
  fprintf(stderr, "seed %u: %d refused, %d loaded\n", seed, refused, loaded);
  _exit(refused > 0 ? 0 : 2);
}

TEST(HostImageMutation, CorruptedStructureLoadsOrIsRefused) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Bytes host = host_code_object();
  ASSERT_GT(covered_bytes(host).size(), 1000u);
  for (int batch = 0; batch < kMutationBatches; ++batch) {
    const unsigned seed = 20251201 + static_cast<unsigned>(batch);
    EXPECT_EXIT(run_mutation_batch(host, seed), ::testing::ExitedWithCode(0), "refused")
        << "seed " << seed;
  }
}

// Not an anygpu host code object: refused from its bytes, so its constructor, which would write
// a file and abort, never runs.
TEST(HostImageCheck, APlainSharedObjectIsRefusedBeforeItsConstructorRuns) {
  const std::string side_effect = ::testing::TempDir() + "anygpu_plain_constructor_ran";
  remove(side_effect.c_str());
  setenv("ANYGPU_TEST_CONSTRUCTOR_FILE", side_effect.c_str(), 1);
  setenv("ANYGPU_TEST_CONSTRUCTOR_ABORTS", "1", 1);
  const Bytes plain = file_bytes(ANYGPU_PLAIN_SHARED_OBJECT);
  ag_result result;
  const std::string detail = load_result(cpu_device(), plain.data(), plain.size(), &result);
  unsetenv("ANYGPU_TEST_CONSTRUCTOR_FILE");
  unsetenv("ANYGPU_TEST_CONSTRUCTOR_ABORTS");
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE, result) << detail;
  EXPECT_NE(std::string::npos, detail.find("exports no anygpu_host_abi()")) << detail;
  EXPECT_NE(0, access(side_effect.c_str(), F_OK)) << "the constructor ran";
}

TEST(HostImageCheck, TheCLibraryIsRefused) {
  Dl_info info{};
  // gnu_get_libc_version is libc's own: no sanitizer runtime intercepts it.
  ASSERT_NE(0, dladdr(reinterpret_cast<void*>(&gnu_get_libc_version), &info));
  ASSERT_NE(nullptr, info.dli_fname);
  const Bytes libc = file_bytes(info.dli_fname);
  ag_result result;
  const std::string detail = load_result(cpu_device(), libc.data(), libc.size(), &result);
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE, result) << detail;
  EXPECT_NE(std::string::npos, detail.find("exports no anygpu_host_abi()")) << detail;
}

}  // namespace

namespace {

// Issue 15, defect 10: an nvcc-built object or program is refused with a detail that names the
// device code it carries, not with a dynamic-loader error.
TEST(CarriedDeviceCode, AnNvccObjectIsRefusedNamingItsCode) {
  const Bytes object = file_bytes(ANYGPU_NV_FATBIN_OBJECT);
  ag_result result;
  const std::string detail = load_result(cpu_device(), object.data(), object.size(), &result);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, result) << detail;
  const std::string expected = std::string("ELF relocatable object for ") + host_machine_name() +
                               ": it carries device code in its .nv_fatbin section (cubin for "
                               "sm_80, PTX";
  EXPECT_NE(std::string::npos, detail.find(expected)) << detail;
}

TEST(CarriedDeviceCode, AnNvccProgramIsRefusedNamingItsCode) {
  const Bytes program = file_bytes(ANYGPU_NV_FATBIN_PROGRAM);
  ag_result result;
  const std::string detail = load_result(cpu_device(), program.data(), program.size(), &result);
  // A position-independent program is an ELF shared object, refused by the host-image check; an
  // other one is no host code object at all.
  EXPECT_TRUE(result == AG_ERROR_INVALID_IMAGE || result == AG_ERROR_NO_BINARY_FOR_DEVICE)
      << detail;
  EXPECT_NE(std::string::npos,
            detail.find("it carries device code in its .nv_fatbin section (cubin for sm_80, PTX"))
      << detail;
}

}  // namespace
