#include "shim/code_object/cuda_arch.h"

#include <cctype>

namespace anygpu {
namespace {

constexpr uint8_t kCudaAbiVersion1 = 7;  // ELFABIVERSION_CUDA_V1
constexpr uint32_t kSmMaskV1 = 0xff;
constexpr uint32_t kSmMaskV2 = 0xff00, kSmShiftV2 = 8;
constexpr unsigned kMaxSm = 999;

bool strip_prefix(std::string_view* text, std::string_view prefix) {
  if (text->substr(0, prefix.size()) != prefix) return false;
  text->remove_prefix(prefix.size());
  return true;
}

bool same_family(const CudaArch& code, const CudaArch& device) {
  return code.sm / 10 == device.sm / 10 && code.sm % 10 <= device.sm % 10;
}

}  // namespace

bool parse_cuda_arch(std::string_view text, CudaArch* arch) {
  if (!strip_prefix(&text, "sm_") && !strip_prefix(&text, "compute_")) return false;
  CudaArch parsed;
  size_t digits = 0;
  while (digits < text.size() && isdigit(static_cast<unsigned char>(text[digits]))) {
    parsed.sm = parsed.sm * 10 + static_cast<unsigned>(text[digits] - '0');
    if (++digits > 3) return false;
  }
  text.remove_prefix(digits);
  if (digits < 2 || parsed.sm > kMaxSm) return false;
  if (text == "a" || text == "f")
    parsed.suffix = text[0];
  else if (!text.empty())
    return false;
  *arch = parsed;
  return true;
}

std::string cuda_arch_name(const CudaArch& arch) {
  std::string name = "sm_" + std::to_string(arch.sm);
  if (arch.suffix) name += arch.suffix;
  return name;
}

unsigned cubin_sm(const ElfHeader& header) {
  if (header.abi_version <= kCudaAbiVersion1) return header.flags & kSmMaskV1;
  return (header.flags & kSmMaskV2) >> kSmShiftV2;
}

bool cubin_runs_on(const CudaArch& cubin, const CudaArch& device) {
  if (cubin.sm == 0) return false;
  if (cubin.suffix == 'a') return cubin.sm == device.sm;
  return same_family(cubin, device);
}

bool ptx_runs_on(const CudaArch& target, const CudaArch& device) {
  if (target.sm == 0) return false;
  if (target.suffix == 'a') return target.sm == device.sm;
  if (target.suffix == 'f') return same_family(target, device);
  return target.sm <= device.sm;
}

}  // namespace anygpu
