// hiprtc, HIP's run-time compiler (docs/hip-backend.md, "Run-time compilation"). The program is
// the request's source with anygpu's kernel headers and the request's own as in-memory headers,
// compiled for the device's target id; the result is the AMD code object hiprtcGetCode gives,
// which agModuleLoadData takes as it is.
//
// hiprtc 5 (libamdhip64.so.5) sets the target id it is given as the ISA name of its code object
// manager (comgr) and ignores the error for one comgr does not know (gfx1101 with ROCm 5.2's
// comgr 2.4, or a feature the processor lacks: gfx1030:xnack-), then frees a pointer it never
// set: the process aborts. So the target id is first set on an action info of the same comgr by
// anygpu, and one that comgr refuses is AG_ERROR_NOT_SUPPORTED before hiprtc sees it.
#include "loaders/hip/hiprtc_compiler.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <mutex>
#include <string>
#include <vector>

#include "loaders/checked_compiler.h"
#include "loaders/compile_log.h"
#include "loaders/dynamic_library.h"
#include "loaders/hip/hiprtc_api.h"
#include "loaders/symbol_resolver.h"
#include "shim/core/embedded_headers.h"
#include "shim/core/error.h"
#include "shim/support/string_format.h"

namespace anygpu::hip {
namespace {

using namespace hiprtc;

constexpr const char* kOverrideEnv = "ANYGPU_HIPRTC_LIBRARY";
constexpr const char* kInstall =
    "install ROCm's hiprtc (libhiprtc.so.6 or .7), or HIP 5's libamdhip64.so.5 with its "
    "libhiprtc-builtins.so.5 and libamd_comgr.so.2 (Debian: libamdhip64-5 libhiprtc-builtins5), "
    "or set ANYGPU_HIPRTC_LIBRARY";

const char* result_name(hiprtcResult result) {
  static const char* const names[] = {"HIPRTC_SUCCESS",
                                      "HIPRTC_ERROR_OUT_OF_MEMORY",
                                      "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE",
                                      "HIPRTC_ERROR_INVALID_INPUT",
                                      "HIPRTC_ERROR_INVALID_PROGRAM",
                                      "HIPRTC_ERROR_INVALID_OPTION",
                                      "HIPRTC_ERROR_COMPILATION",
                                      "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE",
                                      "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
                                      "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
                                      "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
                                      "HIPRTC_ERROR_INTERNAL_ERROR"};
  const int index = static_cast<int>(result);
  return index >= 0 && index < static_cast<int>(sizeof names / sizeof names[0]) ? names[index]
                                                                                : "unknown";
}

std::string describe(hiprtcResult result) {
  return strprintf("%s (%d)", result_name(result), static_cast<int>(result));
}

// The first line of the log that says "error", else its first line that is not empty.
std::string first_error_line(const std::string& log) {
  return anygpu::first_error_line(log, "error", true, "(no log)");
}

// The real path (links resolved) of the library that holds `symbol`, else `fallback`.
std::string library_real_path(const void* symbol, const std::string& fallback) {
  Dl_info info{};
  if (!symbol || dladdr(symbol, &info) == 0 || !info.dli_fname) return fallback;
  char resolved[PATH_MAX];
  return realpath(info.dli_fname, resolved) ? std::string(resolved) : std::string(info.dli_fname);
}

// The code object manager hiprtc uses (see the top of this file): the one the process has loaded,
// else the one of hiprtc's generation.
struct Comgr {
  std::string path;
  std::string version;  // "2.4"
  ComgrFunctions fn;
  bool loaded = false;

  void load(int hip_major) {
    const std::vector<std::string> names =
        hip_major >= 7 ? std::vector<std::string>{"libamd_comgr.so.3", "libamd_comgr.so.2"}
                       : std::vector<std::string>{"libamd_comgr.so.2", "libamd_comgr.so.3"};
    // The comgr hiprtc itself loaded first, else the first that loads.
    void* handle = nullptr;
    for (int flags : {RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD, RTLD_NOW | RTLD_LOCAL}) {
      for (const std::string& name : names) {
        handle = dlopen(name.c_str(), flags);
        if (handle) {
          path = name;
          break;
        }
      }
      if (handle) break;
    }
    if (!handle || !resolve_functions(fn, dlsym_lookup(handle)).empty()) return;
    path = library_real_path(reinterpret_cast<const void*>(fn.amd_comgr_create_action_info), path);
    if (fn.amd_comgr_get_version) {
      size_t major = 0, minor = 0;
      fn.amd_comgr_get_version(&major, &minor);
      version = strprintf("%zu.%zu", major, minor);
    }
    loaded = true;
  }

  // Whether comgr takes "amdgcn-amd-amdhsa--<target id>" as an ISA name.
  bool knows(const std::string& target_id) const {
    amd_comgr_action_info_t info{0};
    if (fn.amd_comgr_create_action_info(&info) != 0) return true;  // nothing to tell
    const std::string isa = "amdgcn-amd-amdhsa--" + target_id;
    const bool known = fn.amd_comgr_action_info_set_isa_name(info, isa.c_str()) == 0;
    if (!known) fn.amd_comgr_action_info_set_isa_name(info, "");  // leaves a valid (empty) name
    fn.amd_comgr_destroy_action_info(info);
    return known;
  }
};

class HiprtcCompiler final : public CheckedCompiler {
 public:
  HiprtcCompiler(std::string path, std::string version, HiprtcFunctions fn, Comgr comgr)
      : path_(std::move(path)), version_(std::move(version)), fn_(fn), comgr_(std::move(comgr)) {}

  // hiprtc's version and library (its real path), and the comgr it compiles with.
  std::string identity() const override {
    std::string text = "hiprtc " + version_ + " (" + path_ + ")";
    if (comgr_.loaded)
      text += " + comgr " + (comgr_.version.empty() ? std::string("?") : comgr_.version) + " (" +
              comgr_.path + ")";
    return text;
  }

 private:
  ag_result compile_checked(const CompileRequest& request, CompileOutput& output) override {
    const std::string& target = request.target.architecture;
    if (target.compare(0, 3, "gfx") != 0)
      return fail(AG_ERROR_INVALID_VALUE, "%s compiles for AMD GPUs (gfx...), not '%s'",
                  identity().c_str(), target.c_str());
    if (comgr_.loaded && !comgr_.knows(target))
      return fail(AG_ERROR_NOT_SUPPORTED,
                  "%s cannot compile for %s: its code object manager %s (comgr %s) does not know "
                  "that target id (a newer ROCm's hiprtc does: install libhiprtc.so.6 or .7, or "
                  "set ANYGPU_HIPRTC_LIBRARY)",
                  identity().c_str(), target.c_str(), comgr_.path.c_str(),
                  comgr_.version.empty() ? "?" : comgr_.version.c_str());

    // The headers: the request's, then anygpu's that the request does not replace.
    std::vector<const char*> names, texts;
    for (const SourceFile& header : request.headers) {
      names.push_back(header.name.c_str());
      texts.push_back(header.text.c_str());
    }
    size_t embedded_count = 0;
    const EmbeddedHeader* embedded = embedded_headers(&embedded_count);
    for (size_t i = 0; i < embedded_count; ++i) {
      bool replaced = false;
      for (const SourceFile& header : request.headers) replaced |= header.name == embedded[i].name;
      if (replaced) continue;
      names.push_back(embedded[i].name);
      texts.push_back(embedded[i].text);
    }

    std::vector<std::string> options = {"--offload-arch=" + target, "-std=c++17",
                                        strprintf("-O%d", request.options.optimization)};
    const std::string& name = request.source.name;
    if (name.size() >= 3 && name.compare(name.size() - 3, 3, ".cu") == 0) {
      options.push_back("-include");
      options.push_back("anygpu/cuda.h");
    }
    for (const std::string& define : request.options.defines) options.push_back("-D" + define);
    if (request.options.fast_math) {
      options.push_back("-ffast-math");
      options.push_back("-DAGK_FAST_MATH=1");
    }
    for (const std::string& vendor : request.options.vendor) options.push_back(vendor);
    std::vector<const char*> option_pointers;
    option_pointers.reserve(options.size());
    for (const std::string& option : options) option_pointers.push_back(option.c_str());

    // hiprtc 5 keeps state of its own per process (the runtime's offline devices, comgr): one
    // compile at a time.
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    hiprtcProgram program = nullptr;
    if (hiprtcResult r = fn_.hiprtcCreateProgram(
            &program, request.source.text.c_str(), name.empty() ? "program.cpp" : name.c_str(),
            static_cast<int>(names.size()), texts.data(), names.data()))
      return fail(
          r == HIPRTC_ERROR_OUT_OF_MEMORY ? AG_ERROR_OUT_OF_MEMORY : AG_ERROR_BACKEND_FAILURE,
          "hiprtcCreateProgram failed: %s", describe(r).c_str());
    struct Destroy {
      PFN_hiprtcDestroyProgram destroy;
      hiprtcProgram* program;
      ~Destroy() { destroy(program); }
    } destroy{fn_.hiprtcDestroyProgram, &program};

    const hiprtcResult compiled = fn_.hiprtcCompileProgram(
        program, static_cast<int>(option_pointers.size()), option_pointers.data());
    size_t log_size = 0;
    output.log.clear();
    if (fn_.hiprtcGetProgramLogSize(program, &log_size) == HIPRTC_SUCCESS && log_size > 0) {
      std::string log(log_size, '\0');
      if (fn_.hiprtcGetProgramLog(program, &log[0]) == HIPRTC_SUCCESS) {
        log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
        output.log = std::move(log);
      }
    }
    if (compiled == HIPRTC_ERROR_COMPILATION)
      return fail(AG_ERROR_COMPILE_FAILED, "%s", first_error_line(output.log).c_str());
    if (compiled != HIPRTC_SUCCESS)
      return fail(compiled == HIPRTC_ERROR_INVALID_OPTION  ? AG_ERROR_INVALID_VALUE
                  : compiled == HIPRTC_ERROR_OUT_OF_MEMORY ? AG_ERROR_OUT_OF_MEMORY
                                                           : AG_ERROR_BACKEND_FAILURE,
                  "hiprtcCompileProgram failed: %s%s%s", describe(compiled).c_str(),
                  output.log.empty() ? "" : ": ",
                  output.log.empty() ? "" : first_error_line(output.log).c_str());

    size_t code_size = 0;
    if (hiprtcResult r = fn_.hiprtcGetCodeSize(program, &code_size))
      return fail(AG_ERROR_BACKEND_FAILURE, "hiprtcGetCodeSize failed: %s", describe(r).c_str());
    if (code_size == 0)
      return fail(AG_ERROR_BACKEND_FAILURE, "%s gave no code object for %s", identity().c_str(),
                  target.c_str());
    output.image.assign(code_size, 0);
    if (hiprtcResult r = fn_.hiprtcGetCode(program, reinterpret_cast<char*>(output.image.data())))
      return fail(AG_ERROR_BACKEND_FAILURE, "hiprtcGetCode failed: %s", describe(r).c_str());
    return AG_SUCCESS;
  }

  std::string path_, version_;
  HiprtcFunctions fn_;
  Comgr comgr_;
};

}  // namespace

const std::vector<std::string>& hiprtc_library_names() {
  static const std::vector<std::string> names = {"libhiprtc.so.7", "libhiprtc.so.6",
                                                 "libamdhip64.so.5", "/opt/rocm/lib/libhiprtc.so"};
  return names;
}

std::unique_ptr<RuntimeCompiler> make_hiprtc_compiler(std::string& reason) {
  const OpenedLibrary opened = open_library(hiprtc_library_names(), kOverrideEnv);
  if (!opened.handle) {
    reason = "hiprtc not found: " + opened.error + " (" + kInstall + ")";
    return nullptr;
  }
  HiprtcFunctions fn;
  const std::string missing = resolve_functions(fn, dlsym_lookup(opened.handle));
  if (!missing.empty()) {
    reason = opened.path + " is not hiprtc: it lacks " + missing + " (" + kInstall + ")";
    return nullptr;
  }
  // The version: HIP 5's libamdhip64 says its own (its hiprtcVersion answers 9.0); libhiprtc
  // answers hiprtcVersion with the ROCm release.
  int major = 0, minor = 0, runtime = 0;
  if (fn.hipRuntimeGetVersion && fn.hipRuntimeGetVersion(&runtime) == 0 && runtime > 0) {
    major = runtime / 10000000;
    minor = (runtime / 100000) % 100;
  } else if (!fn.hiprtcVersion || fn.hiprtcVersion(&major, &minor) != HIPRTC_SUCCESS) {
    major = minor = 0;
  }
  std::string version = major > 0 ? strprintf("%d.%d", major, minor) : std::string("?");
  if (major == 0) {  // the soname's number, where there is one
    const size_t so = opened.path.rfind(".so.");
    if (so != std::string::npos) {
      version = opened.path.substr(so + 4);
      major = std::atoi(version.c_str());
    }
  }
  Comgr comgr;
  comgr.load(major);
  return std::make_unique<HiprtcCompiler>(
      library_real_path(reinterpret_cast<const void*>(fn.hiprtcCreateProgram), opened.path),
      version, fn, std::move(comgr));
}

}  // namespace anygpu::hip
