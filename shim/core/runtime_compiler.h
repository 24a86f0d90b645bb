// Run-time compilation (agProgramCompile, agModuleLoadSource): what a backend's compiler is given
// and gives back. Each backend names its compiler in its BackendDescriptor (`compiler`); the core
// makes it once, on first use, and asks the on-disk cache (compile_cache.h) before compiling.
#pragma once

#include <anygpu/anygpu.h>

#include <memory>
#include <string>
#include <vector>

#include "shim/code_object/code_fit.h"

namespace anygpu {

// A file of a program: the main source or a header the source includes by this name.
struct SourceFile {
  std::string name;  // "saxpy.cu", "params.h"
  std::string text;
};

// The options every backend understands, parsed once by the core (compile_options.h).
struct CompileOptions {
  std::vector<std::string> defines;  // "NAME" or "NAME=VALUE", in the order given (-D)
  int optimization = 3;              // -O0 ... -O3
  bool fast_math = false;            // --use_fast_math: anygpu_add_kernels' FAST_MATH
  // The options given as -X<this backend's name>=<option> (-Xcuda=, -Xhip=, -Xlevel_zero=,
  // -Xcpu=), prefix removed, and -I<directory>: passed to the compiler as they are.
  std::vector<std::string> vendor;
};

// One compile: the program for one device target.
struct CompileRequest {
  // The program's source. Its name says its language: ".cu" is CUDA source (anygpu/cuda.h
  // included first, kernels found by their __global__), anything else C++ that includes
  // anygpu/kernel.h or anygpu/cuda.h itself (anygpu_add_kernels' rule).
  SourceFile source;
  // Further translation units of the same program, compiled each on its own and linked with the
  // first (the portable source of an image of several kernel sources, run_time_build.h). Only a
  // compiler that links translation units takes them (RuntimeCompiler::links_sources).
  std::vector<SourceFile> more_sources;
  // An image's portable source, which the build compiled: a backend that has the build's own
  // compiler among its compilers tries that one first.
  bool from_portable_source = false;
  std::vector<SourceFile> headers;  // the application's headers, by their #include names
  CompileOptions options;
  DeviceTarget target;  // the device's code_target(): "sm_90", "gfx90a:xnack-", "x86_64..."
};

// What a compile gives: a code object agModuleLoadData takes for the target, and the
// compiler's messages (warnings too, on success).
struct CompileOutput {
  std::vector<unsigned char> image;
  std::string log;
};

class RuntimeCompiler {
 public:
  virtual ~RuntimeCompiler() = default;
  // The compiler and its version, as the cache key and anygpu-info use it:
  // "NVRTC 13.0 (/usr/local/cuda/lib64/libnvrtc.so.13)".
  virtual std::string identity() const = 0;
  // Compiles `request`. AG_SUCCESS with `output.image` set; AG_ERROR_COMPILE_FAILED when the
  // source does not compile, and when a compiler process crashed or ran past its time limit
  // (`output.log` holds the compiler's messages, the detail its first error line or what
  // happened to the process); AG_ERROR_NOT_SUPPORTED when a tool cannot be run or the device's
  // target is beyond the compiler; other failures (out of memory) through anygpu::fail(). Safe to
  // call from several threads at once.
  virtual ag_result compile(const CompileRequest& request, CompileOutput& output) = 0;
  // Whether it takes CompileRequest::more_sources; one that does not refuses such a request with
  // AG_ERROR_NOT_SUPPORTED.
  virtual bool links_sources() const { return false; }
};

// Makes a backend's compiler, or returns nullptr and says in `reason` what is missing and what
// to install ("libnvrtc.so.13 not found (install the CUDA toolkit's NVRTC, or set
// ANYGPU_NVRTC_LIBRARY)"). Called once per process per backend.
using RuntimeCompilerFactory = std::unique_ptr<RuntimeCompiler> (*)(std::string& reason);

}  // namespace anygpu
