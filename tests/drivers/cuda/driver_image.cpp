// The checks of a loaded image: a cubin runs on its own major architecture with an equal or lower
// minor; PTX is compiled when the driver takes its ISA version and the device is at least its
// .target; a fatbin gives the best cubin for the device, else the PTX of the highest target.
#include <string_view>

#include "driver_image.h"
#include "loaders/cuda/ptx_isa.h"
#include "shim/code_object/code_object.h"
#include "shim/code_object/code_object_globals.h"
#include "shim/code_object/code_object_kernels.h"
#include "shim/code_object/code_object_target.h"
#include "shim/code_object/fatbin_reader.h"
#include "shim/code_object/ptx_reader.h"
#include "shim/support/string_format.h"

namespace anygpu::cuda_test_driver {
namespace {

constexpr const char* kAborted = "ptxas fatal   : Ptx assembly aborted due to errors\n";

ImageCheck failed(CUresult result, std::string error_log = "") {
  ImageCheck check;
  check.result = result;
  check.error_log = std::move(error_log);
  return check;
}

// The line of the text's byte `at`, counted from 1.
unsigned line_at(std::string_view text, size_t at) {
  unsigned line = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

// The line of the first `directive` in the text (1 when it is not there).
unsigned line_of(std::string_view text, std::string_view directive) {
  const size_t at = text.find(directive);
  return at == std::string_view::npos ? 1 : line_at(text, at);
}

// Where the text's braces stop balancing, as a parser would find it: the offset of a '}' with no
// '{', or the end of the text when a '{' is never closed; npos when they balance. Comments are
// skipped. anygpu's own PTX reader does not look this far, so a truncated body reaches the "JIT".
size_t unbalanced_brace(std::string_view text) {
  long depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      const size_t end = text.find('\n', i);
      if (end == std::string_view::npos) break;
      i = end;
    } else if (text.compare(i, 2, "/*") == 0) {
      const size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) break;
      i = end + 1;
    } else if (text[i] == '{') {
      ++depth;
    } else if (text[i] == '}' && --depth < 0) {
      return i;
    }
  }
  return depth == 0 ? std::string_view::npos : text.size();
}

ImageCheck check_ptx(ByteReader image, const CudaArch& device, int driver_version) {
  const auto* chars = reinterpret_cast<const char*>(image.data());
  std::string_view text(chars, image.size());
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) text = text.substr(0, nul);
  PtxInfo info;
  std::string error;
  if (!read_ptx(image, &info, &error))
    return failed(CUDA_ERROR_INVALID_PTX,
                  strprintf("ptxas application ptx input, line 1; fatal   : %s\n%s", error.c_str(),
                            kAborted));
  if (const size_t at = unbalanced_brace(text); at != std::string_view::npos)
    return failed(CUDA_ERROR_INVALID_PTX,
                  strprintf("ptxas application ptx input, line %u; fatal   : Parsing error near "
                            "'%s': syntax error\n%s",
                            line_at(text, at), at == text.size() ? "<EOF>" : "}", kAborted));
  const unsigned version = ptx_version_number(info.version_major, info.version_minor);
  const unsigned newest = max_ptx_version_for_driver(driver_version);
  if (version > newest)
    return failed(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
                  strprintf("ptxas application ptx input, line %u; fatal   : Unsupported .version "
                            "%u.%u; current version is '%u.%u'\n%s",
                            line_of(text, ".version"), info.version_major, info.version_minor,
                            newest / 100, newest % 100, kAborted));
  if (!ptx_runs_on(info.target, device)) {
    const std::string target = cuda_arch_name(info.target), own = cuda_arch_name(device);
    return failed(CUDA_ERROR_NO_BINARY_FOR_GPU,
                  strprintf("ptxas application ptx input, line %u; fatal   : .target %s does not "
                            "run on this device (%s): SM version specified by .target is higher "
                            "than default SM version assumed\n%s",
                            line_of(text, ".target"), target.c_str(), own.c_str(), kAborted));
  }
  ImageCheck check;
  check.kernels = info.entries;
  check.globals = info.globals;
  check.info_log = "ptxas info    : 0 bytes gmem\n";
  for (const std::string& kernel : info.entries)
    check.info_log += strprintf("ptxas info    : Compiling entry function '%s' for '%s'\n",
                                kernel.c_str(), cuda_arch_name(device).c_str());
  return check;
}

ImageCheck check_cubin(const CodeObject& code, const CudaArch& device) {
  const CodeTarget target = describe_code_object(code);
  if (!target.problem.empty()) return failed(CUDA_ERROR_INVALID_IMAGE);
  if (!cubin_runs_on(target.cuda, device)) return failed(CUDA_ERROR_NO_BINARY_FOR_GPU);
  ImageCheck check;
  std::string error;
  if (!code_object_kernels(code, &check.kernels, &error) ||
      !code_object_globals(code, &check.globals, &error))
    return failed(CUDA_ERROR_INVALID_IMAGE);
  return check;
}

// Compressed entries are not decompressed here: loading one is CUDA_ERROR_NOT_SUPPORTED.
ImageCheck check_fatbin(const CodeObject& code, const CudaArch& device, int driver_version) {
  std::vector<FatbinEntry> entries;
  std::string error;
  if (!read_fatbin(ByteReader(code.data, code.size), &entries, &error))
    return failed(CUDA_ERROR_INVALID_IMAGE);
  const FatbinEntry* cubin = nullptr;
  const FatbinEntry* ptx = nullptr;
  for (const FatbinEntry& entry : entries) {
    const CudaArch arch{entry.sm, 0};
    if (entry.kind == FatbinEntryKind::elf && cubin_runs_on(arch, device) &&
        (!cubin || entry.sm > cubin->sm))
      cubin = &entry;
    if (entry.kind == FatbinEntryKind::ptx && ptx_runs_on(arch, device) &&
        (!ptx || entry.sm > ptx->sm))
      ptx = &entry;
  }
  const FatbinEntry* chosen = cubin ? cubin : ptx;
  if (!chosen) return failed(CUDA_ERROR_NO_BINARY_FOR_GPU);
  if (chosen->compression)
    return failed(CUDA_ERROR_NOT_SUPPORTED,
                  strprintf("the anygpu CUDA test driver does not decompress fatbin entries (%s)\n",
                            chosen->compression));
  if (chosen == cubin)
    return check_cubin(CodeObject{CodeObjectFormat::cuda_cubin, chosen->data, chosen->size},
                       device);
  return check_ptx(ByteReader(chosen->data, chosen->size), device, driver_version);
}

}  // namespace

ImageCheck check_image(const void* image, const CudaArch& device, int driver_version) {
  bool unterminated = false;
  const size_t size = image_extent(image, &unterminated);
  const CodeObject code = detect_code_object(image, size);
  switch (code.format) {
    case CodeObjectFormat::ptx:
      // A real driver reads PTX up to its NUL: without one it parses whatever follows.
      if (unterminated) {
        const std::string_view text(static_cast<const char*>(image), size);
        return failed(CUDA_ERROR_INVALID_PTX,
                      strprintf("ptxas application ptx input, line %u; fatal   : Parsing error "
                                "near byte 0x%02x at offset %zu: PTX must end with a NUL\n%s",
                                line_at(text, size), static_cast<unsigned char>(text.data()[size]),
                                size, kAborted));
      }
      return check_ptx(ByteReader(code.data, code.size), device, driver_version);
    case CodeObjectFormat::cuda_cubin:
      return check_cubin(code, device);
    case CodeObjectFormat::nvidia_fatbin:
      return check_fatbin(code, device, driver_version);
    default:
      return failed(CUDA_ERROR_INVALID_IMAGE);
  }
}

}  // namespace anygpu::cuda_test_driver
