#include "driver_image.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "driver_elf_extent.h"
#include "driver_state.h"
#include "shim/code_object/code_object.h"
#include "shim/code_object/code_object_globals.h"
#include "shim/code_object/code_object_kernels.h"
#include "shim/code_object/code_object_target.h"
#include "shim/code_object/offload_bundle.h"

namespace anygpu::hip_test_driver {
namespace {

using test_driver::kMaxImageBytes;

// The prefixes of the AMD entries of a HIP bundle: code objects v4 and later, and v2/v3.
constexpr const char* kAmdPrefixes[] = {"hipv4-amdgcn-amd-amdhsa--", "hip-amdgcn-amd-amdhsa--"};
constexpr uint64_t kMaxBundleEntries = 4096;
constexpr uint64_t kMaxBundleIdBytes = 4096;

// Compared a byte at a time, stopping at the first that differs.
bool starts_with(const unsigned char* bytes, const char* magic) {
  for (size_t i = 0; magic[i]; ++i)
    if (bytes[i] != static_cast<unsigned char>(magic[i])) return false;
  return true;
}

uint64_t u64(const unsigned char* bytes, uint64_t offset) {
  uint64_t value;
  memcpy(&value, bytes + offset, sizeof value);
  return value;
}

// The header and every entry it announces, read a field at a time.
size_t bundle_extent(const unsigned char* bytes) {
  uint64_t at = kOffloadBundleMagicSize;
  const uint64_t count = u64(bytes, at);
  at += 8;
  if (count > kMaxBundleEntries) return 0;
  uint64_t end = at;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t offset = u64(bytes, at), size = u64(bytes, at + 8), id = u64(bytes, at + 16);
    if (offset > kMaxImageBytes || size > kMaxImageBytes || id > kMaxBundleIdBytes) return 0;
    at += 24 + id;
    end = std::max({end, at, offset + size});
  }
  return end > kMaxImageBytes ? 0 : static_cast<size_t>(end);
}

ImageCheck failed(hipError_t result) {
  ImageCheck check;
  check.result = result;
  return check;
}

// As HIP's loader: the code object's processor and features against the device's; from HIP 6.4
// on, which loads code object v6, a generic code object runs on the processors of its family.
int runtime_fit(const AmdgpuTarget& code, const AmdgpuTarget& device) {
  constexpr int kFirstGenericRuntime = 60400000;
  const int fit = amdgpu_target_fit(code, device);
  if (fit >= 0 || config().runtime_version < kFirstGenericRuntime) return fit;
  AmdgpuTarget generic = device;
  generic.processor = amdgpu_generic_processor(device.processor);
  return generic.processor.empty() ? -1 : amdgpu_target_fit(code, generic);
}

// One AMD code object: its processor and features against the device's.
ImageCheck check_code_object(const CodeObject& code, const AmdgpuTarget& device) {
  const CodeTarget target = describe_code_object(code);
  if (code.format != CodeObjectFormat::amdgpu_code_object || !target.problem.empty() ||
      target.amdgpu.processor.empty())
    return failed(hipErrorInvalidImage);
  if (runtime_fit(target.amdgpu, device) < 0) return failed(hipErrorNoBinaryForGpu);
  ImageCheck check;
  std::string error;
  if (!code_object_kernels(code, &check.kernels, &error) ||
      !code_object_globals(code, &check.globals, &error))
    return failed(hipErrorInvalidImage);
  check.target = amdgpu_target_name(target.amdgpu);
  check.bytes = code.size;
  return check;
}

// The entry whose id fits the device best; its code object is then checked as one given alone.
ImageCheck check_bundle(const CodeObject& code, const AmdgpuTarget& device) {
  OffloadBundle bundle;
  std::string error;
  if (!read_offload_bundle(ByteReader(code.data, code.size), &bundle, &error))
    return failed(hipErrorInvalidImage);
  const BundleEntry* best = nullptr;
  int best_fit = -1;
  for (const BundleEntry& entry : bundle.entries) {
    for (const char* prefix : kAmdPrefixes) {
      const size_t length = strlen(prefix);
      if (entry.id.compare(0, length, prefix) != 0) continue;
      AmdgpuTarget target;
      if (!parse_amdgpu_target(entry.id.substr(length), &target)) continue;
      const int fit = runtime_fit(target, device);
      if (fit > best_fit) {
        best = &entry;
        best_fit = fit;
      }
    }
  }
  if (!best) return failed(hipErrorNoBinaryForGpu);
  ImageCheck check = check_code_object(detect_code_object(best->data, best->size), device);
  check.from_bundle = true;
  return check;
}

}  // namespace

size_t image_extent(const void* image) {
  const auto* bytes = static_cast<const unsigned char*>(image);
  if (test_driver::starts_with_elf_magic(bytes)) return test_driver::elf_extent(bytes);
  if (starts_with(bytes, kOffloadBundleMagic)) return bundle_extent(bytes);
  return 0;
}

ImageCheck check_image(const void* image, const AmdgpuTarget& device) {
  if (starts_with(static_cast<const unsigned char*>(image), kCompressedOffloadBundleMagic))
    return failed(hipErrorNotSupported);
  const size_t size = image_extent(image);
  if (size == 0) return failed(hipErrorInvalidImage);
  const CodeObject code = detect_code_object(image, size);
  switch (code.format) {
    case CodeObjectFormat::amdgpu_code_object:
      return check_code_object(code, device);
    case CodeObjectFormat::clang_offload_bundle:
      return check_bundle(code, device);
    default:
      return failed(hipErrorInvalidImage);
  }
}

}  // namespace anygpu::hip_test_driver
