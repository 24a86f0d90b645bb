#include "loaders/cpu/host_toolchain.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "loaders/tool_compile.h"
#include "shim/core/environment.h"
#include "shim/support/string_format.h"

// Set by loaders/cpu/CMakeLists.txt: the clang++-19 this build found, and this build tree's
// barrier pass plugin (empty when it has none).
#ifndef ANYGPU_CPU_BUILD_HOST_COMPILER
#define ANYGPU_CPU_BUILD_HOST_COMPILER ""
#endif
#ifndef ANYGPU_CPU_BUILD_BARRIER_PASS
#define ANYGPU_CPU_BUILD_BARRIER_PASS ""
#endif

namespace anygpu {
namespace cpu {

namespace {

// The LLVM the plugin is built against (loaders/cpu/barrier_pass: llvm-19-dev): another clang
// cannot load it.
constexpr const char* kPluginLlvmMajor = "19";
// Where an installed package puts the plugin, beside libanygpu (CMakeLists.txt's
// ANYGPU_INSTALL_PLUGINDIR: <libdir>/anygpu).
constexpr const char* kInstalledPlugin = "anygpu/libanygpu_barrier_pass.so";

bool is_file(const std::string& path) {
  return !path.empty() && access(path.c_str(), R_OK) == 0;
}

// The directory of the file this code is in: libanygpu.so, or the program it is linked into.
std::string own_directory() {
  Dl_info info;
  static const int anchor = 0;
  if (dladdr(&anchor, &info) == 0 || !info.dli_fname) return "";
  std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

std::string HostToolchain::identity() const {
  std::string text = "clang++ " + version + " (" + compiler + ")";
  // The plugin's size and time of change too: a plugin rebuilt in place changes the cache key.
  struct stat status{};
  if (!plugin.empty() && stat(plugin.c_str(), &status) == 0)
    return text + " + barrier pass (" + plugin + ", " + std::to_string(status.st_size) +
           " bytes, changed " + std::to_string(static_cast<long long>(status.st_mtime)) + ")";
  if (!plugin.empty()) return text + " + barrier pass (" + plugin + ")";
  return text + ", no barrier pass";
}

bool find_host_toolchain(HostToolchain* toolchain, std::string* reason) {
  std::string given;
  const std::string compiler = find_program(
      "ANYGPU_HOST_COMPILER",
      {ANYGPU_CPU_BUILD_HOST_COMPILER, search_path("clang++-19"), search_path("clang++")}, &given);
  if (compiler.empty()) {
    *reason = given.empty() ? "no host compiler: clang++-19 not found (install clang-19, or set "
                              "ANYGPU_HOST_COMPILER)"
                            : "ANYGPU_HOST_COMPILER=" + given + " is not a program that can be run";
    return false;
  }
  std::string answer;
  if (!ask_version(compiler, "the host compiler ", &answer, reason)) return false;
  toolchain->compiler = compiler;
  toolchain->version_line = answer.substr(0, answer.find('\n'));
  toolchain->version = version_in(toolchain->version_line);

  const std::string plugin = environment("ANYGPU_BARRIER_PASS_PLUGIN");
  if (!plugin.empty()) {
    if (is_file(plugin)) {
      toolchain->plugin = plugin;
    } else {
      toolchain->plugin_reason = "ANYGPU_BARRIER_PASS_PLUGIN=" + plugin + " cannot be read";
    }
    return true;
  }
  if (toolchain->version.compare(0, 3, std::string(kPluginLlvmMajor) + ".") != 0) {
    toolchain->plugin_reason = strprintf(
        "the barrier pass plugin is built for clang %s, and %s is %s (set "
        "ANYGPU_BARRIER_PASS_PLUGIN to use one built for it)",
        kPluginLlvmMajor, compiler.c_str(), toolchain->version_line.c_str());
    return true;
  }
  const std::string installed = own_directory() + "/" + kInstalledPlugin;
  if (is_file(installed)) {
    toolchain->plugin = installed;
  } else if (is_file(ANYGPU_CPU_BUILD_BARRIER_PASS)) {
    toolchain->plugin = ANYGPU_CPU_BUILD_BARRIER_PASS;
  } else {
    toolchain->plugin_reason =
        "no barrier pass plugin: none installed at " + installed +
        (std::string(ANYGPU_CPU_BUILD_BARRIER_PASS).empty()
             ? std::string(" and anygpu was built without it (llvm-19-dev, or a sanitizer build)")
             : " nor at " + std::string(ANYGPU_CPU_BUILD_BARRIER_PASS)) +
        " (or set ANYGPU_BARRIER_PASS_PLUGIN)";
  }
  return true;
}

}  // namespace cpu
}  // namespace anygpu
