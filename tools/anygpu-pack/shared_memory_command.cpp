// anygpu-pack shared-memory: the storage of the extern __shared__ arrays of an image's kernel
// sources, which no kernel build defines: on the host, from the discovery objects, thread-local
// and every array at one address, as the launch's dynamic shared memory is in CUDA; in SPIR-V, a
// sized workgroup array each, written into the linked module's IR (spirv_shared_memory.h).
#include <algorithm>
#include <cstdlib>
#include <string>

#include "pack.h"
#include "shim/kernel_build/kernel_discovery.h"
#include "shim/kernel_build/kernel_registration.h"
#include "shim/kernel_build/spirv_shared_memory.h"

namespace anygpu_pack {

// anygpu-pack shared-memory --host BYTES -o OUT OBJECT...
// anygpu-pack shared-memory --spirv BYTES -o OUT IR
int shared_memory_command(const std::vector<std::string>& args) {
  std::string target, output;
  unsigned long bytes = 0;
  std::vector<std::string> objects;
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--host" || args[i] == "--spirv") && i + 1 < args.size()) {
      target = args[i];
      char* end = nullptr;
      bytes = strtoul(args[++i].c_str(), &end, 10);
      if (*end != '\0' || bytes == 0) return report("shared-memory: bad size " + args[i]);
    } else if (args[i] == "-o" && i + 1 < args.size()) {
      output = args[++i];
    } else if (args[i][0] != '-') {
      objects.push_back(args[i]);
    } else {
      return usage();
    }
  }
  if (target.empty() || output.empty()) return usage();
  std::string text;
  if (target == "--spirv") {
    std::vector<unsigned char> ir;
    std::string error;
    if (objects.size() != 1 || !read_file(objects[0], &ir, &error))
      return objects.size() != 1 ? usage() : report(error);
    if (!anygpu::size_extern_shared_arrays(std::string(ir.begin(), ir.end()), bytes, &text, &error))
      return report(objects[0] + ": " + error);
  } else {
    std::vector<std::string> names;
    for (const std::string& object : objects) {
      anygpu::DiscoveredKernels found;
      std::string error;
      if (!discover_kernels(object, &found, &error)) return report(error);
      for (const std::string& name : found.extern_shared)
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    text = anygpu::host_shared_memory_assembly(names, bytes);
  }
  std::string error;
  if (!write_file(output, reinterpret_cast<const unsigned char*>(text.data()), text.size(), &error))
    return report(error);
  return 0;
}

}  // namespace anygpu_pack
