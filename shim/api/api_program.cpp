// Run-time compilation: programs, their compile through the backend's compiler and the cache on
// disk, and agModuleLoadSource.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "shim/api/api_common.h"
#include "shim/core/compile_options.h"
#include "shim/core/compiler_registry.h"
#include "shim/core/log.h"
#include "shim/core/program_compile.h"

using namespace anygpu;

namespace {

constexpr const char* kDefaultProgramName = "program.cu";

// The image and log of one compile of `source` and `headers` for `device`, from the cache when it
// holds them.
ag_result compile_program(const SourceFile& source, const std::vector<SourceFile>& headers,
                          Device& device, int num_options, const char* const* options,
                          CompileOutput& output) {
  CompileRequest request;
  bool cacheable = true;
  if (ag_result r = parse_compile_options(num_options, options, device.backend->name,
                                          request.options, cacheable))
    return r;
  request.source = source;
  request.headers = headers;
  return compile_for_device(device, request, cacheable, "agProgramCompile", output);
}

// Copies `bytes` into the caller's buffer by the size rule of agProgramGetLog.
ag_result copy_out(const void* bytes, size_t size, void* buffer, size_t* buffer_size,
                   const char* what) {
  if (!buffer) {
    *buffer_size = size;
    return AG_SUCCESS;
  }
  if (*buffer_size < size)
    return fail(AG_ERROR_INVALID_VALUE,
                "the buffer has %zu bytes and the %s %zu (call with %s NULL to get the size)",
                *buffer_size, what, size, what);
  if (size) std::memcpy(buffer, bytes, size);
  *buffer_size = size;
  return AG_SUCCESS;
}

}  // namespace

ag_result agProgramCreate(const char* source, const char* name, int num_headers,
                          const char* const* headers, const char* const* header_names,
                          ag_program* program) try {
  AG_DEVICE_ENTRY();
  if (ag_result r = require_pointer(source, "source")) return r;
  if (ag_result r = require_pointer(program, "program")) return r;
  if (num_headers < 0)
    return fail(AG_ERROR_INVALID_VALUE, "num_headers is %d; it must be 0 or more", num_headers);
  if (num_headers > 0) {
    if (ag_result r = require_pointer(headers, "headers")) return r;
    if (ag_result r = require_pointer(header_names, "header_names")) return r;
  }
  if (name && !*name)
    return fail(AG_ERROR_INVALID_VALUE, "name is empty (pass NULL for \"%s\")",
                kDefaultProgramName);
  auto made = std::make_unique<Program>();
  made->source = {name ? name : kDefaultProgramName, source};
  for (int i = 0; i < num_headers; ++i) {
    if (!headers[i] || !header_names[i] || !*header_names[i]) {
      return fail(AG_ERROR_INVALID_VALUE, "header %d: %s is %s", i,
                  headers[i] ? "its name" : "its text",
                  headers[i] && header_names[i] ? "empty" : "NULL");
    }
    made->headers.push_back({header_names[i], headers[i]});
  }
  void* handle = handles().programs.insert(made.get());
  if (!handle) return fail(AG_ERROR_OUT_OF_MEMORY, "too many programs");
  made.release();  // NOLINT(bugprone-unused-return-value): the handle table owns it now
  *program = static_cast<ag_program>(handle);
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agProgramDestroy(ag_program program) try {
  AG_DEVICE_ENTRY();
  Program* removed = handles().programs.remove(program);
  if (!removed) {
    ProgramRef none;
    return get_program(program, &none);  // records the detail
  }
  delete removed;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agProgramCompile(ag_program program, ag_device device, int num_options,
                           const char* const* options) try {
  AG_DEVICE_ENTRY();
  ProgramRef found;
  if (ag_result r = get_program(program, &found)) return r;
  Device* dev = nullptr;
  if (ag_result r = get_device(device, &dev)) return r;
  if (num_options > 0)
    if (ag_result r = require_pointer(options, "options")) return r;
  if (num_options < 0)
    return fail(AG_ERROR_INVALID_VALUE, "num_options is %d; it must be 0 or more", num_options);
  CompileOutput output;
  const ag_result r =
      compile_program(found->source, found->headers, *dev, num_options, options, output);
  if (r != AG_SUCCESS && r != AG_ERROR_COMPILE_FAILED) return r;  // the log stays as it was
  std::lock_guard<std::mutex> lock(found->mutex);
  found->log = std::move(output.log);
  found->image.clear();
  if (r == AG_SUCCESS) found->image = std::move(output.image);
  return r;
} catch (...) {
  return fail_from_exception();
}

ag_result agProgramGetLog(ag_program program, char* log, size_t* size) try {
  AG_DEVICE_ENTRY();
  ProgramRef found;
  if (ag_result r = get_program(program, &found)) return r;
  if (ag_result r = require_pointer(size, "size")) return r;
  std::lock_guard<std::mutex> lock(found->mutex);
  return copy_out(found->log.c_str(), found->log.size() + 1, log, size, "log");
} catch (...) {
  return fail_from_exception();
}

ag_result agProgramGetImage(ag_program program, void* image, size_t* size) try {
  AG_DEVICE_ENTRY();
  ProgramRef found;
  if (ag_result r = get_program(program, &found)) return r;
  if (ag_result r = require_pointer(size, "size")) return r;
  std::lock_guard<std::mutex> lock(found->mutex);
  if (found->image.empty())
    return fail(AG_ERROR_INVALID_VALUE,
                "the program has no image: its last compile failed or it was never compiled "
                "(agProgramCompile)");
  return copy_out(found->image.data(), found->image.size(), image, size, "image");
} catch (...) {
  return fail_from_exception();
}

ag_result agModuleLoadSource(ag_device device, const char* source, int num_options,
                             const char* const* options, ag_module* module) try {
  AG_DEVICE_ENTRY();
  Device* dev = nullptr;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(source, "source")) return r;
  if (ag_result r = require_pointer(module, "module")) return r;
  if (num_options > 0)
    if (ag_result r = require_pointer(options, "options")) return r;
  if (num_options < 0)
    return fail(AG_ERROR_INVALID_VALUE, "num_options is %d; it must be 0 or more", num_options);
  CompileOutput output;
  const ag_result r =
      compile_program({kDefaultProgramName, source}, {}, *dev, num_options, options, output);
  if (r == AG_ERROR_COMPILE_FAILED)
    anygpu::log(LogLevel::warn, "agModuleLoadSource: the compiler's log:\n%s", output.log.c_str());
  if (r) return r;
  return load_module(dev, output.image.data(), output.image.size(), module);
} catch (...) {
  return fail_from_exception();
}

ag_result agBackendGetCompilerInfo(int index, ag_compiler_info* info) try {
  AG_DEVICE_ENTRY();
  const Registry& reg = registry();
  if (ag_result r = require_pointer(info, "info")) return r;
  if (ag_result r = require_index(index, reg.backends.size(), "backend index")) return r;
  const CompilerRecord& record = compiler_for(*reg.backends[index].descriptor);
  ag_compiler_info value{};
  value.struct_size = sizeof value;
  value.available = record.compiler ? 1 : 0;
  value.compiler = record.identity.c_str();
  value.reason = record.reason.c_str();
  return write_versioned(info, value, "info");
} catch (...) {
  return fail_from_exception();
}
