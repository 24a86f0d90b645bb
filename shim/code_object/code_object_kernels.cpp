#include "shim/code_object/code_object_kernels.h"

#include <elf.h>

#include <set>

#include "shim/code_object/elf_reader.h"
#include "shim/code_object/ptx_reader.h"
#include "shim/code_object/spirv_reader.h"

namespace anygpu {
namespace {

constexpr uint8_t kCudaEntryFlag = 0x10;  // STO_CUDA_ENTRY
constexpr std::string_view kAmdDescriptorSuffix = ".kd";
constexpr std::string_view kHostKernelPrefix = "anygpu_kernel_";

// The kernel a symbol names in this kind of code object, or "" for none.
std::string_view kernel_of(CodeObjectFormat format, const ElfSymbol& symbol) {
  std::string_view name = symbol.name;
  switch (format) {
    case CodeObjectFormat::cuda_cubin:
      return symbol.type == STT_FUNC && (symbol.other & kCudaEntryFlag) ? name : "";
    case CodeObjectFormat::amdgpu_code_object:
      if (name.size() <= kAmdDescriptorSuffix.size() ||
          name.substr(name.size() - kAmdDescriptorSuffix.size()) != kAmdDescriptorSuffix)
        return "";
      name.remove_suffix(kAmdDescriptorSuffix.size());
      return name;
    default:
      // Exported descriptors only: a local symbol is no entry point (GCC's split-off
      // anygpu_kernel_NAME.cold parts are local).
      if (name.size() <= kHostKernelPrefix.size() ||
          name.substr(0, kHostKernelPrefix.size()) != kHostKernelPrefix ||
          symbol.section == SHN_UNDEF || symbol.binding == STB_LOCAL)
        return "";
      name.remove_prefix(kHostKernelPrefix.size());
      return name;
  }
}

// .symtab and .dynsym often list the same kernel: keep the first of each name.
bool elf_kernels(const CodeObject& code, std::vector<std::string>* kernels, std::string* error) {
  std::vector<ElfSymbol> symbols;
  if (!read_elf_symbols(ByteReader(code.data, code.size), &symbols, error)) return false;
  std::set<std::string_view> seen;
  for (const ElfSymbol& symbol : symbols) {
    const std::string_view kernel = kernel_of(code.format, symbol);
    if (!kernel.empty() && seen.insert(kernel).second) kernels->emplace_back(kernel);
  }
  return true;
}

bool spirv_kernels(const CodeObject& code, std::vector<std::string>* kernels, std::string* error) {
  SpirvInfo info;
  if (!read_spirv(ByteReader(code.data, code.size), &info, error)) return false;
  for (const SpirvEntryPoint& entry : info.entry_points)
    if (entry.execution_model == kSpirvExecutionModelKernel) kernels->push_back(entry.name);
  return true;
}

}  // namespace

bool code_object_kernels(const CodeObject& code, std::vector<std::string>* kernels,
                         std::string* error) {
  kernels->clear();
  const ByteReader image(code.data, code.size);
  if (code.format == CodeObjectFormat::ptx) {
    PtxInfo info;
    if (!read_ptx(image, &info, error)) return false;
    *kernels = info.entries;
    return true;
  }
  if (code.format == CodeObjectFormat::spirv) return spirv_kernels(code, kernels, error);
  if (is_elf(image) && !is_container(code.format)) return elf_kernels(code, kernels, error);
  return true;  // containers and unknown formats name no kernels themselves
}

}  // namespace anygpu
