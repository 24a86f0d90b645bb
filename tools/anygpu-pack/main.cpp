// anygpu-pack: makes, lists and unpacks anygpu bundles (clang offload bundles, see
// docs/bundle-format.md).
//   anygpu-pack create -o OUT [--host FILE] [--ptx sm_XY=FILE]... [--cubin sm_XY=FILE]...
//                      [--amdgpu TARGETID=FILE]... [--spirv FILE] [--portable FILE]
//   anygpu-pack list FILE          FILE: a bundle (anygpu's, clang's, hipcc's), a fatbin, a code
//                                  object, or a program or library that embeds bundles
//   anygpu-pack extract FILE ID -o OUT
// and two steps of anygpu_add_kernels' build of CUDA-syntax sources (cuda_syntax.h):
//   anygpu-pack kernels --source SRC [--prelude HEADER] -o OUT OBJECT
//   anygpu-pack shared-memory --host BYTES -o OUT OBJECT...
//   anygpu-pack shared-memory --spirv BYTES -o OUT IR
//   anygpu-pack block-order -o OUT IR
//   anygpu-pack subgroup-size LANES -o OUT IR
// and the portable form of a source for AMD targets (portable_source_command.cpp):
//   anygpu-pack portable-source --source NAME=REWRITTEN... [--library-dir DIR]...
//                               [--define D]... [--fast-math] -o OUT
#include <cstdio>
#include <cstring>

#include "pack.h"

namespace anygpu_pack {

int usage() {
  fprintf(stderr,
          "usage: anygpu-pack create -o OUT [--host FILE] [--ptx sm_XY=FILE]...\n"
          "                          [--cubin sm_XY=FILE]... [--amdgpu TARGETID=FILE]...\n"
          "                          [--spirv FILE] [--portable FILE]\n"
          "       anygpu-pack list FILE\n"
          "       anygpu-pack extract FILE ID -o OUT\n"
          "       anygpu-pack kernels --source SRC [--prelude HEADER] -o OUT OBJECT\n"
          "       anygpu-pack shared-memory --host BYTES -o OUT OBJECT...\n"
          "       anygpu-pack shared-memory --spirv BYTES -o OUT IR\n"
          "       anygpu-pack block-order -o OUT IR\n"
          "       anygpu-pack subgroup-size LANES -o OUT IR\n"
          "       anygpu-pack portable-source --source NAME=REWRITTEN... [--library-dir DIR]...\n"
          "                                   [--define D]... [--fast-math] -o OUT\n");
  return 2;
}

int report(const std::string& message) {
  fprintf(stderr, "anygpu-pack: %s\n", message.c_str());
  return 1;
}

}  // namespace anygpu_pack

int main(int argc, char** argv) {
  using namespace anygpu_pack;
  if (argc < 2) return usage();
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "create") return create_command(args);
  if (command == "list") return list_command(args);
  if (command == "extract") return extract_command(args);
  if (command == "kernels") return kernels_command(args);
  if (command == "shared-memory") return shared_memory_command(args);
  if (command == "block-order") return block_order_command(args);
  if (command == "subgroup-size") return subgroup_size_command(args);
  if (command == "portable-source") return portable_source_command(args);
  const int status = usage();
  return command == "--help" || command == "-h" ? 0 : status;
}
