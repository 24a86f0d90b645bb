// anygpu-pack portable-source --source NAME=REWRITTEN... [--library-dir DIR]... [--define D]...
//                             [--fast-math] -o OUT
// The portable form of an image's kernel sources (shim/code_object/portable_source.h) from
// clang's `-E -frewrite-includes` output of each (shim/kernel_build/portable_rewrite.h): what
// anygpu_add_kernels puts in a bundle for AMD targets it did not build.
#include <string>

#include "pack.h"
#include "shim/code_object/portable_source.h"
#include "shim/kernel_build/portable_rewrite.h"

namespace anygpu_pack {

int portable_source_command(const std::vector<std::string>& args) {
  std::string output;
  std::vector<std::string> libraries, inputs;
  anygpu::PortableSource source;
  source.family = anygpu::kPortableFamilyAmdgcn;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    if (args[i] == "-o" && has_value) {
      output = args[++i];
    } else if (args[i] == "--source" && has_value && args[i + 1].find('=') != std::string::npos) {
      const std::string& value = args[++i];  // NAME=REWRITTEN
      source.sources.push_back({value.substr(0, value.find('=')), ""});
      inputs.push_back(value.substr(value.find('=') + 1));
    } else if (args[i] == "--library-dir" && has_value) {
      libraries.push_back(args[++i]);
    } else if (args[i] == "--define" && has_value) {
      source.defines.push_back(args[++i]);
    } else if (args[i] == "--fast-math") {
      source.fast_math = true;
    } else {
      return usage();
    }
  }
  if (output.empty() || inputs.empty()) return usage();
  std::vector<unsigned char> rewritten, bytes;
  std::string error;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!read_file(inputs[i], &rewritten, &error)) return report(error);
    if (!anygpu::make_portable_text(std::string(rewritten.begin(), rewritten.end()), libraries,
                                    &source.sources[i].text, &error))
      return report(inputs[i] + ": " + error);
  }
  if (!anygpu::write_portable_source(source, &bytes, &error) ||
      !write_file(output, bytes.data(), bytes.size(), &error))
    return report(error);
  return 0;
}

}  // namespace anygpu_pack
