// Fuzz target: the ELF reader (header, sections, symbols), what is read from e_flags, and the
// parameter records (anygpu_params_<kernel> symbols).
#include "fuzz_support.h"
#include "shim/code_object/amdgpu_target.h"
#include "shim/code_object/cuda_arch.h"
#include "shim/code_object/elf_reader.h"
#include "shim/code_object/kernel_params.h"

using namespace anygpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ByteReader image(data, size);
  ElfHeader header;
  std::string error;
  if (!read_elf_header(image, &header, &error)) return 0;
  AmdgpuTarget target;
  if (amdgpu_target_from_elf(header, &target, &error)) {
    AmdgpuTarget parsed;
    fuzz::check(parse_amdgpu_target(amdgpu_target_name(target), &parsed));
    fuzz::check(amdgpu_target_name(parsed) == amdgpu_target_name(target));
  }
  (void)cubin_sm(header);
  std::vector<ElfSection> sections;
  if (read_elf_sections(image, &sections, &error))
    for (const ElfSection& section : sections) {
      fuzz::check_inside(data, size, section.name.data(), section.name.size());
      if (section.type != 8) fuzz::check(image.contains(section.offset, section.size));  // NOBITS
    }
  std::vector<ElfSymbol> symbols;
  if (!read_elf_symbols(image, &symbols, &error)) return 0;
  const std::string prefix = kParamRecordPrefix;
  int records = 0;
  for (const ElfSymbol& symbol : symbols) {
    fuzz::check_inside(data, size, symbol.name.data(), symbol.name.size());
    if (symbol.name.compare(0, prefix.size(), prefix) != 0 || ++records > 4) continue;
    std::vector<ag_param_info> layout;
    const std::string kernel(symbol.name.substr(prefix.size()));
    if (!read_kernel_params(CodeObject{CodeObjectFormat::cuda_cubin, data, size}, kernel, &layout,
                            &error))
      fuzz::check(!error.empty());
  }
  return 0;
}
