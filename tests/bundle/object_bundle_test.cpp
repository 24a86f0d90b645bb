// The object-file form of a clang offload bundle: what clang-offload-bundler -type=o writes when
// its host input is an ELF object (one section __CLANG_OFFLOAD_BUNDLE__<id> per entry, the host
// entry being the file itself). Made here by clang-offload-bundler-15 from a relocatable object and
// test_kernels' gfx90a code object and sm_90 PTX; it is detected, selected from and refused like
// the other form, anygpu-pack lists it, and a corrupt one is a clear error. Skipped where
// clang-offload-bundler-15 or those code objects are missing.
#include <elf.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "bundle_test_support.h"
#include "shim/code_object/bundle_ids.h"
#include "shim/code_object/offload_bundle.h"
#include "test_support.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

const std::string kAmdId = "hipv4-amdgcn-amd-amdhsa--gfx90a";
const std::string kPtxId = "hip-nvptx64-nvidia-cuda--compute_90";

std::string find_in_path(const std::string& program) {
  const char* path = getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

bool read_whole_file(const std::string& path, Bytes* bytes) {
  std::ifstream file(path, std::ios::binary);
  if (!file.good()) return false;
  bytes->assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  return true;
}

void write_whole_file(const std::string& path, const Bytes& bytes) {
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(file.good()) << "cannot write " << path;
}

std::string shell_quoted(const std::string& text) {
  return "'" + text + "'";
}

// A command's exit status and what it wrote to stdout and stderr.
struct CommandResult {
  int status = -1;
  std::string output;
};

CommandResult run(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  size_t got;
  while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, got);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// The object-file bundle, made once per test process (ctest runs each test in its own) in a
// temporary directory that goes with the process.
struct Made {
  std::string skip;     // why the tests skip; "" when the bundle was made
  bool failed = false;  // clang-offload-bundler-15 is there but failed: the tests fail
  std::string dir, path;
  Bytes bundle, host, amd, ptx;

  ~Made() {
    std::error_code ignored;
    if (!dir.empty()) std::filesystem::remove_all(dir, ignored);
  }
};

void make(Made* m) {
  const std::string bundler = find_in_path("clang-offload-bundler-15");
  if (bundler.empty()) {
    m->skip = "clang-offload-bundler-15 is not installed (apt-get install clang-tools-15)";
    return;
  }
  if (!read_whole_file(ANYGPU_OBJECT_BUNDLE_AMDGPU, &m->amd) ||
      !read_whole_file(ANYGPU_OBJECT_BUNDLE_PTX, &m->ptx)) {
    m->skip =
        "test_kernels' gfx90a code object or sm_90 PTX was not built (clang-19 or lld-19 is "
        "missing, see the configure warning)";
    return;
  }
  if (!read_whole_file(ANYGPU_OBJECT_BUNDLE_HOST, &m->host)) {
    m->skip = "the host object " ANYGPU_OBJECT_BUNDLE_HOST " is missing";
    return;
  }
  std::string dir = ::testing::TempDir() + "anygpu_object_bundle_XXXXXX";
  if (!mkdtemp(dir.data())) {
    m->skip = "cannot make a temporary directory";
    return;
  }
  m->dir = dir;
  m->path = dir + "/object_bundle.o";
  const std::string targets = host_bundle_id(host_elf_machine()) + "," + kAmdId + "," + kPtxId;
  const CommandResult bundled = run(shell_quoted(bundler) + " -type=o -targets=" + targets +
                                    " -input=" + shell_quoted(ANYGPU_OBJECT_BUNDLE_HOST) +
                                    " -input=" + shell_quoted(ANYGPU_OBJECT_BUNDLE_AMDGPU) +
                                    " -input=" + shell_quoted(ANYGPU_OBJECT_BUNDLE_PTX) +
                                    " -output=" + shell_quoted(m->path));
  if (bundled.status != 0 || !read_whole_file(m->path, &m->bundle)) {
    m->skip = "clang-offload-bundler-15 failed: " + bundled.output;
    m->failed = true;
  }
}

const Made& made() {
  static Made made;
  static const bool done = (make(&made), true);
  (void)done;
  return made;
}

class ObjectBundle : public ::testing::Test {
 protected:
  void SetUp() override {
    if (made().failed) FAIL() << made().skip;
    if (!made().skip.empty()) GTEST_SKIP() << made().skip;
  }

  const Bytes& bundle = made().bundle;
  const std::string host_id = host_bundle_id(host_elf_machine());
  const TestDevice cpu = device(AG_BACKEND_CPU, std::string(host_machine_name()) + "-linux-gnu");
};

// The bytes of ELF section `index`'s header field at `field` (offsetof(Elf64_Shdr, ...)) set.
Bytes with_section_field(Bytes elf, size_t index, size_t field, uint64_t value) {
  Elf64_Ehdr header;
  memcpy(&header, elf.data(), sizeof header);
  const size_t at = header.e_shoff + index * header.e_shentsize + field;
  EXPECT_LE(at + sizeof value, elf.size());
  if (at + sizeof value <= elf.size()) memcpy(elf.data() + at, &value, sizeof value);
  return elf;
}

// The index of the section named `name`.
size_t section_index(const Bytes& elf, const std::string& name) {
  const std::vector<ElfSection> sections = read_ok(read_elf_sections, elf);
  for (size_t i = 0; i < sections.size(); ++i)
    if (sections[i].name == name) return i;
  ADD_FAILURE() << "no section " << name;
  return 0;
}

void expect_parts(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& part : parts)
    EXPECT_NE(std::string::npos, text.find(part)) << part << "\n in: " << text;
}

TEST_F(ObjectBundle, IsDetectedAsTheObjectFileForm) {
  const CodeObject code = detect_code_object(bundle.data(), bundle.size());
  EXPECT_EQ(CodeObjectFormat::clang_offload_bundle_object, code.format);
  EXPECT_TRUE(is_container(code.format));
  EXPECT_STREQ("clang offload bundle in an object file", format_name(code.format));
  EXPECT_EQ(CodeObjectFormat::foreign_elf, detect_elf_format(bundle.data(), bundle.size()));
  EXPECT_EQ(CodeObjectFormat::foreign_elf,
            detect_code_object(made().host.data(), made().host.size()).format);

  const OffloadBundle read = read_ok(read_offload_bundle_sections, bundle);
  ASSERT_EQ(3u, read.entries.size());
  EXPECT_EQ(host_id, read.entries[0].id);
  EXPECT_EQ(kAmdId, read.entries[1].id);
  EXPECT_EQ(kPtxId, read.entries[2].id);
  // The host entry is the whole file, as clang-offload-bundler -unbundle gives it back.
  EXPECT_TRUE(read.entries[0].whole_file);
  EXPECT_EQ(bundle.data(), read.entries[0].data);
  EXPECT_EQ(bundle.size(), read.entries[0].size);
  EXPECT_FALSE(read.entries[1].whole_file);
  EXPECT_TRUE(
      holds(CodeObject{CodeObjectFormat::unknown, read.entries[1].data, read.entries[1].size},
            made().amd));
  EXPECT_TRUE(
      holds(CodeObject{CodeObjectFormat::unknown, read.entries[2].data, read.entries[2].size},
            made().ptx));
  EXPECT_EQ(bundle.size(), read.extent);

  // The other form's reader does not take it, nor this form's reader a plain object.
  OffloadBundle unused;
  std::string error;
  EXPECT_FALSE(read_offload_bundle(ByteReader(bundle.data(), bundle.size()), &unused, &error));
  EXPECT_FALSE(read_offload_bundle_sections(ByteReader(made().host.data(), made().host.size()),
                                            &unused, &error));
  EXPECT_NE(std::string::npos, error.find("no section named __CLANG_OFFLOAD_BUNDLE__")) << error;
}

TEST_F(ObjectBundle, Gfx90aTakesTheAmdEntry) {
  const Selected s = select(device(AG_BACKEND_HIP, "gfx90a"), bundle);
  ASSERT_EQ(AG_SUCCESS, s.result) << s.detail;
  EXPECT_TRUE(holds(s.code, made().amd));
  EXPECT_EQ(CodeObjectFormat::amdgpu_code_object, s.code.format);
  expect_selected(device(AG_BACKEND_HIP, "gfx90a:sramecc+:xnack-"), bundle, made().amd);
  // gfx942 has nothing.
  const Selected none = select(device(AG_BACKEND_HIP, "gfx942"), bundle);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, none.result) << none.detail;
}

TEST_F(ObjectBundle, Sm90TakesThePtx) {
  const Selected s = select(device(AG_BACKEND_CUDA, "sm_90"), bundle);
  ASSERT_EQ(AG_SUCCESS, s.result) << s.detail;
  EXPECT_TRUE(holds(s.code, made().ptx));
  EXPECT_EQ(CodeObjectFormat::ptx, s.code.format);
  // The PTX is for sm_90: an sm_80 device cannot take it.
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, select(device(AG_BACKEND_CUDA, "sm_80"), bundle).result);
}

// The host entry is the relocatable object the bundle was made from: the CPU cannot load it, and
// the detail says so.
std::vector<std::string> cpu_detail_parts(const std::string& host_id) {
  return {"needs a host code object for " + std::string(host_machine_name()),
          "the image (clang offload bundle in an object file) holds 3 code objects",
          "'" + host_id + "' (ELF relocatable object for " + host_machine_name() +
              ": it is the object file that carries the bundle, which no backend loads",
          "'" + kAmdId + "' (AMD code object for gfx90a)", "'" + kPtxId + "' (PTX "};
}

TEST_F(ObjectBundle, TheCpuIsNotGivenTheRelocatableHostEntry) {
  const Selected s = select(cpu, bundle);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
  expect_parts(s.detail, cpu_detail_parts(host_id));
}

TEST_F(ObjectBundle, ModuleLoadDataOnTheCpuIsNoBinaryForDevice) {
  ag_module module = nullptr;
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE,
            agModuleLoadData(anygpu_test::cpu_device(), bundle.data(), bundle.size(), &module));
  EXPECT_EQ(nullptr, module);
  std::vector<std::string> parts = cpu_detail_parts(host_id);
  parts.push_back("agModuleLoadData: device ");
  parts.push_back("(AG_ERROR_NO_BINARY_FOR_DEVICE)");
  expect_parts(anygpu_test::last_detail(), parts);
}

TEST_F(ObjectBundle, AnygpuPackListsAndExtractsIt) {
  const CommandResult listed =
      run(shell_quoted(ANYGPU_PACK_PATH) + " list " + shell_quoted(made().path));
  EXPECT_EQ(0, listed.status) << listed.output;
  expect_parts(listed.output,
               {"(clang offload bundle in an object file): 3 code objects", "\n  " + host_id + " ",
                "\n  " + kAmdId + " ", "AMD code object for gfx90a", "\n  " + kPtxId + " ", "PTX ",
                "for sm_90"});
  EXPECT_EQ(std::string::npos, listed.output.find("malformed")) << listed.output;

  const std::string out = made().dir + "/extracted.bin";
  const std::pair<std::string, const Bytes*> entries[] = {
      {kAmdId, &made().amd}, {kPtxId, &made().ptx}, {host_id, &bundle}};
  for (const auto& entry : entries) {
    remove(out.c_str());
    const CommandResult extracted =
        run(shell_quoted(ANYGPU_PACK_PATH) + " extract " + shell_quoted(made().path) + " " +
            entry.first + " -o " + shell_quoted(out));
    EXPECT_EQ(0, extracted.status) << extracted.output;
    Bytes bytes;
    EXPECT_TRUE(read_whole_file(out, &bytes));
    EXPECT_EQ(*entry.second, bytes) << entry.first;
  }
}

// A bundle section whose bytes lie past the end of the file: every reader says so, nothing reads
// outside the file (ASan), and the image is invalid for every device.
TEST_F(ObjectBundle, ASectionPastTheEndIsAClearError) {
  const size_t amd = section_index(bundle, kOffloadBundleMagic + kAmdId);
  const Bytes corrupt[] = {
      with_section_field(bundle, amd, offsetof(Elf64_Shdr, sh_offset), bundle.size() + 16),
      with_section_field(bundle, amd, offsetof(Elf64_Shdr, sh_offset), UINT64_MAX),
      with_section_field(bundle, amd, offsetof(Elf64_Shdr, sh_size), bundle.size())};
  for (const Bytes& image : corrupt) {
    EXPECT_EQ(CodeObjectFormat::clang_offload_bundle_object,
              detect_code_object(image.data(), image.size()).format);
    OffloadBundle unused;
    std::string error;
    EXPECT_FALSE(
        read_offload_bundle_sections(ByteReader(image.data(), image.size()), &unused, &error));
    expect_parts(error, {"entry '" + kAmdId + "' (section " + std::to_string(amd) + ")",
                         "runs past the end of its " + std::to_string(image.size()) + " bytes"});
    for (const TestDevice& target :
         {device(AG_BACKEND_HIP, "gfx90a"), device(AG_BACKEND_CUDA, "sm_90"), cpu}) {
      const Selected s = select(target, image);
      EXPECT_EQ(AG_ERROR_INVALID_IMAGE, s.result)
          << target->target().architecture << ": " << s.detail;
      expect_parts(s.detail, {"the image is a malformed clang offload bundle in an object file: "
                              "entry '" +
                                  kAmdId + "'",
                              "runs past the end"});
    }
  }

  ag_module module = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE, agModuleLoadData(anygpu_test::cpu_device(), corrupt[0].data(),
                                                     corrupt[0].size(), &module));
  EXPECT_EQ(nullptr, module);
  expect_parts(anygpu_test::last_detail(),
               {"malformed clang offload bundle in an object file", "runs past the end"});

  const std::string path = made().dir + "/corrupt.o";
  write_whole_file(path, corrupt[0]);
  const CommandResult listed = run(shell_quoted(ANYGPU_PACK_PATH) + " list " + shell_quoted(path));
  EXPECT_EQ(1, listed.status) << listed.output;
  expect_parts(listed.output,
               {"is a malformed clang offload bundle in an object file", "runs past the end"});
}

// Cut anywhere, the file is refused or read within its bytes (ASan), never a crash.
TEST_F(ObjectBundle, EveryTruncationIsSafe) {
  for (size_t size = 0; size < bundle.size(); size += size < 256 ? 1 : 97) {
    const Bytes cut(bundle.begin(), bundle.begin() + size);
    for (const TestDevice& target :
         {device(AG_BACKEND_HIP, "gfx90a"), device(AG_BACKEND_CUDA, "sm_90"), cpu}) {
      const Selected s = select(target, cut);
      EXPECT_NE(AG_SUCCESS, s.result) << size;
      EXPECT_FALSE(s.detail.empty()) << size;
    }
  }
}

}  // namespace
