// anygpu-pack kernels: the registration file of one CUDA-syntax kernel source (see
// shim/kernel_build/kernel_registration.h and anygpu/detail/cuda_syntax.h).
#include <string>

#include "pack.h"
#include "shim/kernel_build/kernel_discovery.h"
#include "shim/kernel_build/kernel_registration.h"

namespace anygpu_pack {

// anygpu-pack kernels --source SRC [--prelude HEADER] -o OUT OBJECT
int kernels_command(const std::vector<std::string>& args) {
  std::string source, prelude, output, object;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    if (args[i] == "--source" && has_value) {
      source = args[++i];
    } else if (args[i] == "--prelude" && has_value) {
      prelude = args[++i];
    } else if (args[i] == "-o" && has_value) {
      output = args[++i];
    } else if (object.empty() && args[i][0] != '-') {
      object = args[i];
    } else {
      return usage();
    }
  }
  if (source.empty() || output.empty() || object.empty()) return usage();

  anygpu::DiscoveredKernels found;
  std::string error, text;
  if (!discover_kernels(object, &found, &error)) return report(error);
  if (!anygpu::kernel_registration_file(source, prelude, found, &text, &error))
    return report(error);
  if (!write_file(output, reinterpret_cast<const unsigned char*>(text.data()), text.size(), &error))
    return report(error);
  return 0;
}

}  // namespace anygpu_pack
