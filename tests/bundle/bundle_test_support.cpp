#include "bundle_test_support.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "anygpu_image_test_kernels.h"
#include "loaders/backend_list.h"
#include "shim/code_object/bundle_ids.h"
#include "shim/code_object/offload_bundle.h"

namespace bundle_test {

using namespace anygpu;

Bytes data_file(const std::string& name) {
  const std::string path = std::string(ANYGPU_BUNDLE_TEST_DATA) + "/" + name;
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot read " << path;
  return Bytes(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

Bytes text_bytes(const std::string& text) {
  return Bytes(text.begin(), text.end());
}

Bytes make_bundle(const std::vector<std::pair<std::string, Bytes>>& entries) {
  std::vector<BundleEntry> inputs;
  for (const auto& entry : entries)
    inputs.push_back(BundleEntry{entry.first, entry.second.data(), entry.second.size()});
  Bytes bundle;
  std::string error;
  EXPECT_TRUE(write_offload_bundle(inputs, &bundle, &error)) << error;
  return bundle;
}

Bytes host_code_object() {
  const ByteReader image(anygpu_image_test_kernels, anygpu_image_test_kernels_size);
  if (!is_offload_bundle(image)) return Bytes(image.data(), image.data() + image.size());
  OffloadBundle bundle;
  std::string error;
  EXPECT_TRUE(read_offload_bundle(image, &bundle, &error)) << error;
  const BundleEntry* host = find_bundle_entry(bundle, host_bundle_id(host_elf_machine()));
  EXPECT_NE(nullptr, host) << "the embedded bundle has no host entry";
  return host ? Bytes(host->data, host->data + host->size) : Bytes();
}

Bytes with_elf_flags(Bytes elf, uint32_t flags, int abi_version) {
  EXPECT_GE(elf.size(), sizeof(Elf64_Ehdr));
  if (elf.size() < sizeof(Elf64_Ehdr)) return elf;
  memcpy(elf.data() + offsetof(Elf64_Ehdr, e_flags), &flags, sizeof flags);
  if (abi_version >= 0) elf[EI_ABIVERSION] = static_cast<unsigned char>(abi_version);
  return elf;
}

TestDevice device(ag_backend_kind backend, const std::string& architecture,
                  unsigned max_ptx_version) {
  const BackendDescriptor* descriptor = find_backend_descriptor(backend);
  EXPECT_NE(nullptr, descriptor) << "no backend of kind " << backend;
  if (!descriptor) return nullptr;
  return descriptor->code_rules(DeviceTarget{architecture, max_ptx_version});
}

Selected select(const TestDevice& device, const Bytes& image) {
  Selected selected;
  if (!device) return selected;
  selected.result =
      select_for_device(*device, "", image.data(), image.size(), &selected.code, &selected.detail);
  return selected;
}

bool holds(const CodeObject& code, const Bytes& bytes) {
  return code.size == bytes.size() &&
         (bytes.empty() || memcmp(code.data, bytes.data(), bytes.size()) == 0);
}

void expect_selected(const TestDevice& device, const Bytes& image, const Bytes& expected) {
  const Selected s = select(device, image);
  ASSERT_EQ(AG_SUCCESS, s.result) << device->target().architecture << ": " << s.detail;
  EXPECT_TRUE(holds(s.code, expected)) << device->target().architecture;
}

}  // namespace bundle_test
