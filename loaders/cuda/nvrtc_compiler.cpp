#include "loaders/cuda/nvrtc_compiler.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "loaders/checked_compiler.h"
#include "loaders/compile_log.h"
#include "loaders/cuda/nvrtc_api.h"
#include "loaders/cuda/ptx_isa.h"
#include "loaders/dynamic_library.h"
#include "loaders/symbol_resolver.h"
#include "shim/core/embedded_headers.h"
#include "shim/core/environment.h"
#include "shim/core/error.h"
#include "shim/support/string_format.h"

namespace anygpu::cuda {
namespace {

// The oldest NVRTC taken: the oldest library name looked for (its soname since CUDA 11.2).
constexpr int kMinimumNvrtcVersion = 11020;
constexpr const char* kLibraryVariable = "ANYGPU_NVRTC_LIBRARY";
constexpr const char* kIncludeVariable = "ANYGPU_NVRTC_INCLUDE";

// CUDA's header names whose NVRTC form is the toolkit's own (from the include directory), not
// anygpu's cuda_compat header of that name: NVRTC compiles them, and anygpu's stand for them only
// where the compiler is clang.
bool toolkit_header(const std::string& name) {
  return name == "cuda_fp16.h" || name == "cuda_bf16.h" || name == "cooperative_groups.h" ||
         name.rfind("cooperative_groups/", 0) == 0;
}

bool is_file(const std::string& path) {
  struct stat status{};
  return stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

bool is_directory(const std::string& path) {
  struct stat status{};
  return stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode);
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string real_path(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

// The toolkit's include directory, for cuda_fp16.h, cuda_bf16.h and cooperative_groups.h (and
// CCCL's cuda/std, which cooperative_groups.h includes): $ANYGPU_NVRTC_INCLUDE, else the one
// beside the library (lib64/../include, targets/<arch>/lib/../include), $CUDA_PATH, $CUDA_HOME,
// /usr/local/cuda. "" when none has cuda_fp16.h.
std::string find_include_directory(const std::string& library) {
  std::string given = environment(kIncludeVariable);
  if (!given.empty()) return given;
  std::vector<std::string> candidates;
  for (const std::string& path : {library, real_path(library)}) {
    candidates.push_back(directory_of(path) + "/../include");
    candidates.push_back(directory_of(path) + "/../../include");
  }
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"}) {
    const std::string root = environment(variable);
    if (!root.empty()) candidates.push_back(root + "/include");
  }
  candidates.push_back("/usr/local/cuda/include");
  for (const std::string& candidate : candidates)
    if (is_file(candidate + "/cuda_fp16.h")) return real_path(candidate);
  return "";
}

struct HeaderSet {
  std::vector<std::string> names;
  std::vector<const char*> texts;
};

// anygpu's headers as NVRTC is given them: by their #include names ("anygpu/kernel.h"), and again
// by the names the headers include one another with, since NVRTC looks an in-memory header up by
// the name written, never relative to the file that includes it ("detail/kernel_nvrtc.h" from
// anygpu/kernel.h, "math_gpu.h" from detail/, "../vector_types.h" from detail/). CUDA's header
// names go in but for those NVRTC takes from the toolkit (toolkit_header).
HeaderSet embedded_header_set() {
  HeaderSet set;
  size_t count = 0;
  const EmbeddedHeader* headers = embedded_headers(&count);
  std::set<std::string> taken;
  auto add = [&](const std::string& name, const char* text) {
    if (taken.insert(name).second) {
      set.names.push_back(name);
      set.texts.push_back(text);
    }
  };
  for (size_t i = 0; i < count; ++i) {
    const std::string name = headers[i].name;
    if (name.rfind("anygpu/", 0) != 0) {
      if (!toolkit_header(name)) add(name, headers[i].text);
      continue;
    }
    if (name.rfind("anygpu/cuda_compat/", 0) == 0) continue;
    add(name, headers[i].text);
  }
  // The C library headers kernel sources include, whose contents NVRTC has built in (it has no
  // C library headers of its own): <stdint.h>'s names come from kernel_nvrtc.h.
  static const char kBuiltIn[] = "/* anygpu under NVRTC: NVRTC's built-ins */\n";
  static const char kStdint[] = "#include <anygpu/kernel.h>\n";
  for (const char* name : {"assert.h", "stdio.h", "math.h", "stddef.h"}) add(name, kBuiltIn);
  add("stdint.h", kStdint);
  for (size_t i = 0; i < count; ++i) {
    const std::string name = headers[i].name;
    if (name.rfind("anygpu/", 0) != 0 || name.rfind("anygpu/cuda_compat/", 0) == 0) continue;
    const std::string relative = name.substr(std::strlen("anygpu/"));
    add(relative, headers[i].text);  // "kernel.h", "detail/kernel_gpu.h"
    if (relative.rfind("detail/", 0) == 0)
      add(relative.substr(std::strlen("detail/")), headers[i].text);  // from detail/ itself
    else
      add("../" + relative, headers[i].text);  // detail/'s "../vector_types.h"
  }
  return set;
}

bool ends_with(const std::string& text, const char* suffix) {
  const size_t length = std::strlen(suffix);
  return text.size() >= length && text.compare(text.size() - length, length, suffix) == 0;
}

// The first line of the log that reports an error, else its first line.
std::string first_error_line(const std::string& log) {
  return anygpu::first_error_line(log, "error", true, "NVRTC gave no log");
}

// PTX's ".version X.Y" as ptx_version_number (X * 100 + Y); 0 when not found.
unsigned ptx_text_version(const std::string& ptx) {
  const size_t at = ptx.find(".version");
  unsigned major = 0, minor = 0;
  if (at == std::string::npos ||
      std::sscanf(ptx.c_str() + at, ".version %u.%u", &major, &minor) != 2)
    return 0;
  return major * 100 + minor;
}

std::string ptx_version_text(unsigned version) {
  return strprintf("%u.%u", version / 100, version % 100);
}

struct Nvrtc {
  std::string path;
  int major = 0, minor = 0;
  NvrtcFunctions fn;
  std::string include_directory;   // "" when none was found
  std::vector<int> architectures;  // the SMs it compiles for, ascending; empty when not known
  HeaderSet headers;

  int version() const { return major * 1000 + minor * 10; }
  std::string name() const { return strprintf("NVRTC %d.%d", major, minor); }
};

class NvrtcCompiler final : public CheckedCompiler {
 public:
  explicit NvrtcCompiler(Nvrtc nvrtc) : nvrtc_(std::move(nvrtc)) {}

  // The toolkit headers' directory too: it decides what cuda_fp16.h and the others are.
  std::string identity() const override {
    std::string text = nvrtc_.name() + " (" + nvrtc_.path + ")";
    if (!nvrtc_.include_directory.empty()) text += " with headers from " + nvrtc_.include_directory;
    return text;
  }

 private:
  // What one NVRTC run gives.
  struct Run {
    nvrtcResult result = NVRTC_SUCCESS;
    const char* step = "";
    std::vector<unsigned char> image;
    std::string log;
  };

  ag_result compile_checked(const CompileRequest& request, CompileOutput& output) override {
    const int device_sm = nvrtc_sm_number(request.target.architecture);
    if (device_sm == 0)
      return fail(AG_ERROR_INVALID_VALUE, "%s compiles for CUDA devices (sm_XY), not '%s'",
                  nvrtc_.name().c_str(), request.target.architecture.c_str());
    // The newest architecture NVRTC has that the device runs: PTX of an older one is compiled up
    // by the driver; a cubin must be of the device's major version.
    int sm = device_sm;
    if (!nvrtc_.architectures.empty()) {
      sm = 0;
      for (int known : nvrtc_.architectures)
        if (known <= device_sm) sm = known;
      if (sm == 0)
        return fail(AG_ERROR_NOT_SUPPORTED,
                    "%s (%s) compiles for sm_%d to sm_%d, not for the device's sm_%d: install "
                    "an NVRTC that still does (CUDA 12 compiles for sm_50 and newer) and name "
                    "it in %s",
                    nvrtc_.name().c_str(), nvrtc_.path.c_str(), nvrtc_.architectures.front(),
                    nvrtc_.architectures.back(), device_sm, kLibraryVariable);
    }
    const bool cubin_possible =
        nvrtc_.fn.nvrtcGetCUBIN && nvrtc_.fn.nvrtcGetCUBINSize && sm / 10 == device_sm / 10;
    // NVRTC writes the PTX ISA of its own CUDA release, which a driver of that release (or newer)
    // compiles; an older driver gets a cubin, which it does not compile.
    const unsigned max_ptx = request.target.max_ir_version;
    const unsigned nvrtc_ptx = max_ptx_version_for_driver(nvrtc_.version());
    bool cubin = max_ptx != 0 && nvrtc_ptx > max_ptx;
    if (cubin && !cubin_possible) return ptx_too_new(nvrtc_ptx, max_ptx, device_sm);

    Run run = run_nvrtc(request, sm, cubin);
    if (run.result == NVRTC_SUCCESS && !cubin && max_ptx != 0) {
      const unsigned version = ptx_text_version(std::string(run.image.begin(), run.image.end()));
      if (version > max_ptx) {
        if (!cubin_possible) return ptx_too_new(version, max_ptx, device_sm);
        cubin = true;
        run = run_nvrtc(request, sm, cubin);
      }
    }
    output.log = run.log;
    if (run.result == NVRTC_ERROR_COMPILATION)
      return fail(AG_ERROR_COMPILE_FAILED, "%s%s", first_error_line(run.log).c_str(),
                  missing_toolkit_hint(run.log).c_str());
    if (run.result != NVRTC_SUCCESS)
      return fail(run.result == NVRTC_ERROR_INVALID_OPTION  ? AG_ERROR_INVALID_VALUE
                  : run.result == NVRTC_ERROR_OUT_OF_MEMORY ? AG_ERROR_OUT_OF_MEMORY
                                                            : AG_ERROR_BACKEND_FAILURE,
                  "%s failed: %s (%d)%s%s", run.step, error_name(run.result), run.result,
                  run.log.empty() ? "" : ": ",
                  run.log.empty() ? "" : first_error_line(run.log).c_str());
    output.image = std::move(run.image);
    return AG_SUCCESS;
  }

  ag_result ptx_too_new(unsigned nvrtc_ptx, unsigned max_ptx, int device_sm) const {
    return fail(AG_ERROR_NO_BINARY_FOR_DEVICE,
                "%s (%s) writes PTX ISA %s, and the CUDA driver compiles PTX ISA %s at most; "
                "%s cannot write a cubin for sm_%d instead: update the driver, or name an "
                "NVRTC no newer than the driver in %s",
                nvrtc_.name().c_str(), nvrtc_.path.c_str(), ptx_version_text(nvrtc_ptx).c_str(),
                ptx_version_text(max_ptx).c_str(), nvrtc_.name().c_str(), device_sm,
                kLibraryVariable);
  }

  std::string missing_toolkit_hint(const std::string& log) const {
    if (!nvrtc_.include_directory.empty() ||
        log.find("cannot open source file") == std::string::npos)
      return "";
    for (const char* name : {"cuda_fp16.h", "cuda_bf16.h", "cooperative_groups"})
      if (log.find(name) != std::string::npos)
        return strprintf(
            " (NVRTC takes cuda_fp16.h, cuda_bf16.h and cooperative_groups.h from the CUDA "
            "toolkit's include directory, and none was found beside %s: install the toolkit's "
            "headers, or name the directory in %s)",
            nvrtc_.path.c_str(), kIncludeVariable);
    return "";
  }

  const char* error_name(nvrtcResult result) const {
    const char* name = nvrtc_.fn.nvrtcGetErrorString(result);
    return name ? name : "NVRTC_ERROR";
  }

  std::vector<std::string> options(const CompileRequest& request, int sm, bool cubin) const {
    std::vector<std::string> list;
    list.push_back(strprintf("--gpu-architecture=%s_%d", cubin ? "sm" : "compute", sm));
    list.push_back("-std=c++17");
    if (!nvrtc_.include_directory.empty()) {
      list.push_back("--include-path=" + nvrtc_.include_directory);
      if (is_directory(nvrtc_.include_directory + "/cccl"))  // CUDA 13: CCCL's cuda/std
        list.push_back("--include-path=" + nvrtc_.include_directory + "/cccl");
    }
    for (const std::string& define : request.options.defines)
      list.push_back("--define-macro=" + define);
    // NVRTC optimises fully by default and has no -O levels: -O3 adds its extra vectorisation,
    // -O2 is its default, -O1 and -O0 trade optimisation for compile time (--Ofast-compile,
    // NVRTC 12.8+). -O0 is not -G: debug code runs many times slower, and its PTX is another
    // program to ptxas.
    const bool fast_compile = nvrtc_.version() >= 12080;
    if (request.options.optimization >= 3)
      list.push_back("--extra-device-vectorization");
    else if (request.options.optimization == 1 && fast_compile)
      list.push_back("--Ofast-compile=mid");
    else if (request.options.optimization <= 0 && fast_compile)
      list.push_back("--Ofast-compile=max");
    if (request.options.fast_math) list.push_back("--use_fast_math");
    for (const std::string& option : request.options.vendor) list.push_back(option);
    return list;
  }

  Run run_nvrtc(const CompileRequest& request, int sm, bool cubin) const {
    Run run;
    const std::string name = request.source.name.empty() ? "program.cu" : request.source.name;
    // CUDA source has anygpu/cuda.h first, as anygpu_add_kernels' builds do; #line keeps the
    // log's line numbers the source's own.
    std::string source;
    if (ends_with(name, ".cu")) {
      std::string quoted;  // the name in a string literal: '"' and '\\' escaped
      for (const char c : name) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += c;
      }
      source = "#include <anygpu/cuda.h>\n#line 1 \"" + quoted + "\"\n";
    }
    source += request.source.text;

    // The application's headers first, then anygpu's under names the application did not take.
    std::vector<const char*> names, texts;
    std::set<std::string> taken;
    for (const SourceFile& header : request.headers) {
      if (!taken.insert(header.name).second) continue;
      names.push_back(header.name.c_str());
      texts.push_back(header.text.c_str());
    }
    for (size_t i = 0; i < nvrtc_.headers.names.size(); ++i) {
      if (taken.count(nvrtc_.headers.names[i])) continue;
      names.push_back(nvrtc_.headers.names[i].c_str());
      texts.push_back(nvrtc_.headers.texts[i]);
    }
    const std::vector<std::string> list = options(request, sm, cubin);
    std::vector<const char*> option_pointers;
    option_pointers.reserve(list.size());
    for (const std::string& option : list) option_pointers.push_back(option.c_str());

    const NvrtcFunctions& fn = nvrtc_.fn;
    nvrtcProgram program = nullptr;
    run.step = "nvrtcCreateProgram";
    run.result = fn.nvrtcCreateProgram(&program, source.c_str(), name.c_str(),
                                       static_cast<int>(names.size()), texts.data(), names.data());
    if (run.result != NVRTC_SUCCESS) return run;
    // Destroyed on every path, an exception's too.
    struct Destroy {
      const NvrtcFunctions& fn;
      nvrtcProgram* program;
      ~Destroy() { fn.nvrtcDestroyProgram(program); }
    } destroy{fn, &program};
    run.step = "nvrtcCompileProgram";
    run.result = fn.nvrtcCompileProgram(program, static_cast<int>(option_pointers.size()),
                                        option_pointers.data());
    size_t size = 0;
    if (fn.nvrtcGetProgramLogSize(program, &size) == NVRTC_SUCCESS && size > 1) {
      std::string log(size, '\0');
      if (fn.nvrtcGetProgramLog(program, &log[0]) == NVRTC_SUCCESS) {
        log.resize(std::strlen(log.c_str()));
        run.log = std::move(log);
      }
    }
    if (run.result == NVRTC_SUCCESS) {
      run.step = cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX";
      size = 0;
      run.result =
          cubin ? fn.nvrtcGetCUBINSize(program, &size) : fn.nvrtcGetPTXSize(program, &size);
      if (run.result == NVRTC_SUCCESS) {
        // PTX: the size counts its NUL, which agModuleLoadData takes the text up to.
        run.image.assign(size + (cubin ? 0 : 1), 0);
        run.result = cubin ? fn.nvrtcGetCUBIN(program, reinterpret_cast<char*>(run.image.data()))
                           : fn.nvrtcGetPTX(program, reinterpret_cast<char*>(run.image.data()));
        if (!cubin) run.image.resize(std::strlen(reinterpret_cast<char*>(run.image.data())) + 1);
      }
    }
    return run;
  }

  const Nvrtc nvrtc_;
};

std::string not_found_reason(const OpenedLibrary& opened) {
  return nvrtc_library_names().front() +
         " not found (install the CUDA toolkit's NVRTC, or name the library in " +
         kLibraryVariable + "): " + opened.error;
}

}  // namespace

const std::vector<std::string>& nvrtc_library_names() {
  static const std::vector<std::string> names = {"libnvrtc.so.13", "libnvrtc.so.12",
                                                 "libnvrtc.so.11.2", "libnvrtc.so"};
  return names;
}

int nvrtc_sm_number(const std::string& architecture) {
  size_t at = 0;
  if (architecture.rfind("sm_", 0) == 0)
    at = 3;
  else if (architecture.rfind("compute_", 0) == 0)
    at = 8;
  else
    return 0;
  int number = 0;
  size_t digits = 0;
  while (at + digits < architecture.size() && digits < 4 && architecture[at + digits] >= '0' &&
         architecture[at + digits] <= '9')
    number = number * 10 + (architecture[at + digits++] - '0');
  return digits >= 2 ? number : 0;
}

std::unique_ptr<RuntimeCompiler> make_nvrtc_compiler(std::string& reason) {
  const OpenedLibrary opened = open_library(nvrtc_library_names(), kLibraryVariable);
  if (!opened.handle) {
    reason = not_found_reason(opened);
    return nullptr;
  }
  Nvrtc nvrtc;
  const std::string missing = resolve_functions(nvrtc.fn, dlsym_lookup(opened.handle));
  if (!missing.empty()) {
    reason = opened.path + " lacks NVRTC's functions " + missing + ": not NVRTC";
    return nullptr;
  }
  // The file the loader chose (libnvrtc.so.13 becomes /usr/local/cuda/lib64/libnvrtc.so.13).
  Dl_info info{};
  nvrtc.path = dladdr(reinterpret_cast<void*>(nvrtc.fn.nvrtcVersion), &info) && info.dli_fname
                   ? info.dli_fname
                   : opened.path;
  if (const nvrtcResult result = nvrtc.fn.nvrtcVersion(&nvrtc.major, &nvrtc.minor)) {
    reason =
        strprintf("nvrtcVersion failed: %s (%d)", nvrtc.fn.nvrtcGetErrorString(result), result);
    return nullptr;
  }
  if (nvrtc.version() < kMinimumNvrtcVersion) {
    reason = strprintf(
        "%s (%s) is older than anygpu takes (NVRTC 11.2): install a newer CUDA "
        "toolkit's NVRTC, or name it in %s",
        nvrtc.name().c_str(), nvrtc.path.c_str(), kLibraryVariable);
    return nullptr;
  }
  int count = 0;
  if (nvrtc.fn.nvrtcGetNumSupportedArchs && nvrtc.fn.nvrtcGetSupportedArchs &&
      nvrtc.fn.nvrtcGetNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0) {
    nvrtc.architectures.assign(count, 0);
    if (nvrtc.fn.nvrtcGetSupportedArchs(nvrtc.architectures.data()) != NVRTC_SUCCESS)
      nvrtc.architectures.clear();
    std::sort(nvrtc.architectures.begin(), nvrtc.architectures.end());
  }
  nvrtc.include_directory = find_include_directory(nvrtc.path);
  nvrtc.headers = embedded_header_set();
  return std::make_unique<NvrtcCompiler>(std::move(nvrtc));
}

}  // namespace anygpu::cuda
