// The CPU backend's run-time compiler's tools: the host compiler (clang++, as anygpu_add_kernels
// builds host code objects) and the barrier pass plugin it loads, found once per process.
#pragma once

#include <string>

namespace anygpu {
namespace cpu {

struct HostToolchain {
  std::string compiler;       // an absolute path (or what ANYGPU_HOST_COMPILER says)
  std::string version;        // "19.1.7", from `--version`
  std::string version_line;   // the first line of `--version`
  std::string plugin;         // the barrier pass plugin; empty when none
  std::string plugin_reason;  // why there is none
  std::string identity() const;
};

// Finds the compiler (ANYGPU_HOST_COMPILER, else the clang++-19 anygpu's build found, else
// clang++-19 or clang++ on the PATH), asks its version, and finds the plugin
// (ANYGPU_BARRIER_PASS_PLUGIN, else an installed one beside libanygpu, else this build tree's,
// where the compiler is clang 19). False with `reason` (naming what to install) when no compiler
// runs.
bool find_host_toolchain(HostToolchain* toolchain, std::string* reason);

}  // namespace cpu
}  // namespace anygpu
