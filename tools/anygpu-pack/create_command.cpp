// anygpu-pack create: checks that each file is what its option says it is, names its entry (see
// shim/bundle_ids.h) and writes the bundle, entries in the order of the options below.
#include <elf.h>

#include <algorithm>

#include "pack.h"
#include "shim/code_object/bundle_ids.h"
#include "shim/code_object/code_object_target.h"
#include "shim/code_object/host_image_check.h"
#include "shim/code_object/offload_bundle.h"
#include "shim/code_object/spirv_reader.h"

namespace anygpu_pack {
namespace {

using namespace anygpu;

struct Input {
  size_t option = 0;  // index in kOptions
  std::string arch;   // "sm_80", "gfx90a:xnack-"; "" for --host and --spirv
  std::string path;
};

// Each returns the entry id for a file given with its option, or "" with `mismatch` saying what
// the file is instead.
// Only an anygpu host code object, checked as the CPU backend checks it before loading: any other
// shared object (libc, a plugin) would be refused by every device that selects it.
std::string host_id(const Input&, const CodeObject& code, const CodeTarget& target,
                    std::string* mismatch) {
  std::string id = target.elf_type == ET_DYN ? host_bundle_id(target.elf_machine) : "";
  std::string problem;
  if (id.empty()) {
    *mismatch = "not a host code object (an ELF shared object for x86_64 or aarch64)";
  } else if (!check_host_image(ByteReader(code.data, code.size), target.elf_machine, &problem)) {
    *mismatch = "not an anygpu host code object: " + problem;
    return "";
  }
  return id;
}

std::string spirv_id(const Input&, const CodeObject& code, const CodeTarget&,
                     std::string* mismatch) {
  SpirvInfo info;
  std::string error;
  if (code.format == CodeObjectFormat::spirv &&
      read_spirv(ByteReader(code.data, code.size), &info, &error))
    return spirv_bundle_id();
  *mismatch = error.empty() ? "not SPIR-V" : "malformed SPIR-V: " + error;
  return "";
}

std::string amdgpu_id(const Input& input, const CodeObject& code, const CodeTarget& target,
                      std::string* mismatch) {
  AmdgpuTarget wanted;
  if (!parse_amdgpu_target(input.arch, &wanted)) {
    *mismatch = "named with '" + input.arch + "', which is not an AMD target id (gfx90a:xnack-)";
    return "";
  }
  if (code.format == CodeObjectFormat::amdgpu_code_object && target.problem.empty() &&
      amdgpu_target_name(target.amdgpu) == amdgpu_target_name(wanted))
    return amdgpu_bundle_id(target.amdgpu);
  *mismatch = "not an AMD code object for " + amdgpu_target_name(wanted);
  return "";
}

std::string nvidia_id(CodeObjectFormat format, const Input& input, const CodeObject& code,
                      const CodeTarget& target, std::string* mismatch) {
  CudaArch wanted;
  const bool ptx = format == CodeObjectFormat::ptx;
  if (!parse_cuda_arch(input.arch, &wanted)) {
    *mismatch = "named with '" + input.arch + "', which is not an NVIDIA architecture (sm_80)";
    return "";
  }
  if (code.format == format && target.problem.empty() && target.cuda.sm == wanted.sm &&
      (!ptx || target.cuda.suffix == wanted.suffix))
    return ptx ? ptx_bundle_id(wanted) : cubin_bundle_id(wanted);
  *mismatch = std::string(ptx ? "not PTX for " : "not a cubin for ") + cuda_arch_name(wanted);
  return "";
}

std::string ptx_id(const Input& input, const CodeObject& code, const CodeTarget& target,
                   std::string* mismatch) {
  return nvidia_id(CodeObjectFormat::ptx, input, code, target, mismatch);
}

std::string cubin_id(const Input& input, const CodeObject& code, const CodeTarget& target,
                     std::string* mismatch) {
  return nvidia_id(CodeObjectFormat::cuda_cubin, input, code, target, mismatch);
}

std::string portable_id(const Input&, const CodeObject& code, const CodeTarget& target,
                        std::string* mismatch) {
  if (code.format == CodeObjectFormat::portable_source && target.problem.empty())
    return portable_source_bundle_id(target.portable_family);
  *mismatch = "not an anygpu portable source (anygpu-pack portable-source makes one)";
  return "";
}

struct Option {
  const char* name;
  bool takes_arch;  // "--ptx sm_80=FILE" rather than "--host FILE"
  std::string (*id)(const Input&, const CodeObject&, const CodeTarget&, std::string*);
};
const Option kOptions[] = {{"--host", false, host_id},   {"--ptx", true, ptx_id},
                           {"--cubin", true, cubin_id},  {"--amdgpu", true, amdgpu_id},
                           {"--spirv", false, spirv_id}, {"--portable", false, portable_id}};

struct Packed {
  size_t option = 0;
  std::string id;
  std::vector<unsigned char> bytes;
};

bool pack_input(const Input& input, Packed* packed, std::string* error) {
  const Option& option = kOptions[input.option];
  const std::string given =
      std::string(option.name) + " " + (option.takes_arch ? input.arch + "=" : "") + input.path;
  if (!read_file(input.path, &packed->bytes, error)) return false;
  const CodeObject code = detect_code_object(packed->bytes.data(), packed->bytes.size());
  const CodeTarget target = describe_code_object(code);
  std::string mismatch;
  packed->option = input.option;
  packed->id = option.id(input, code, target, &mismatch);
  if (packed->id.empty())
    *error = given + ": the file is " + code_target_text(target) + ", " + mismatch;
  return !packed->id.empty();
}

bool parse_input(const std::string& name, const std::string& value, Input* input) {
  const Option* found = std::find_if(std::begin(kOptions), std::end(kOptions),
                                     [&](const Option& o) { return name == o.name; });
  if (found == std::end(kOptions)) return false;
  input->option = static_cast<size_t>(found - std::begin(kOptions));
  if (!found->takes_arch) {
    input->path = value;
    return true;
  }
  const size_t equals = value.find('=');  // "sm_80=path"
  if (equals == std::string::npos || equals == 0 || equals + 1 == value.size()) return false;
  input->arch = value.substr(0, equals);
  input->path = value.substr(equals + 1);
  return true;
}

bool parse_args(const std::vector<std::string>& args, std::string* out,
                std::vector<Input>* inputs) {
  for (size_t i = 0; i + 1 < args.size(); i += 2) {
    Input input;
    if (args[i] == "-o")
      *out = args[i + 1];
    else if (parse_input(args[i], args[i + 1], &input))
      inputs->push_back(input);
    else
      return false;
  }
  return args.size() % 2 == 0 && !out->empty() && !inputs->empty();
}

}  // namespace

int create_command(const std::vector<std::string>& args) {
  std::string out, error;
  std::vector<Input> inputs;
  if (!parse_args(args, &out, &inputs)) return usage();
  std::vector<Packed> packed(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!pack_input(inputs[i], &packed[i], &error)) return report(error);
  std::stable_sort(packed.begin(), packed.end(),
                   [](const Packed& a, const Packed& b) { return a.option < b.option; });
  std::vector<BundleEntry> entries;
  entries.reserve(packed.size());
  for (const Packed& p : packed)
    entries.push_back(BundleEntry{p.id, p.bytes.data(), p.bytes.size()});
  std::vector<unsigned char> bundle;
  if (!write_offload_bundle(entries, &bundle, &error) ||
      !write_file(out, bundle.data(), bundle.size(), &error))
    return report(error);
  return 0;
}

}  // namespace anygpu_pack
