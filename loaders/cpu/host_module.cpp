#include "host_module.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include "host_globals.h"
#include "kernel_fault_trap.h"
#include "shim/code_object/carried_device_code.h"
#include "shim/code_object/code_object.h"
#include "shim/code_object/host_image_check.h"
#include "shim/core/environment.h"
#include "shim/core/error.h"
#include "shim/core/log.h"

namespace anygpu::cpu {
namespace {

// Writes the image to an anonymous memory file and opens it as a shared object. The file stays
// open while the object is loaded: dlopen recognises objects by path, so a closed descriptor's
// number, reused for the next image, would make dlopen hand back this object again.
void* open_from_memory(const unsigned char* image, size_t bytes, int& memory_file,
                       std::string& error) {
  const int fd = memfd_create("anygpu-host-code-object", MFD_CLOEXEC);
  if (fd < 0) {
    error = std::string("memfd_create: ") + strerror(errno);
    return nullptr;
  }
  size_t written = 0;
  while (written < bytes) {
    const ssize_t n = write(fd, image + written, bytes - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = std::string("writing the memory file: ") + strerror(errno);
      close(fd);
      return nullptr;
    }
    written += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* message = dlerror();
    error = message ? message : "dlopen failed";
    close(fd);
    return nullptr;
  }
  memory_file = fd;
  return handle;
}

// ANYGPU_CPU_WORKITEM_LOOPS=0 runs every kernel on the fiber path, even where the barrier pass
// made loops of it. Read when a module's kernel is first looked up, so a program (or a test) can
// load one image twice, once each way.
bool work_item_loops_enabled() {
  const std::string value = environment("ANYGPU_CPU_WORKITEM_LOOPS");
  if (!value.empty() && value != "0" && value != "1") {
    static std::once_flag warned;
    std::call_once(warned, [&] {
      log(LogLevel::warn, "ANYGPU_CPU_WORKITEM_LOOPS=%s is neither 0 nor 1; using 1",
          value.c_str());
    });
  }
  return value != "0";
}

bool layout_from_signature(const char* signature, HostKernel& kernel) {
  for (const char* c = signature; *c; ++c) {
    ag_param_info info{sizeof(ag_param_info), AG_PARAM_INTEGER, 0, 0, 0};
    ffi_type* type = nullptr;
    switch (*c) {
      case 'b':
        info.size = 1;
        type = &ffi_type_sint8;
        break;
      case 'h':
        info.size = 2;
        type = &ffi_type_sint16;
        break;
      case 'i':
        info.size = 4;
        type = &ffi_type_sint32;
        break;
      case 'l':
        info.size = 8;
        type = &ffi_type_sint64;
        break;
      case 'f':
        info.size = 4;
        info.kind = AG_PARAM_FLOAT;
        type = &ffi_type_float;
        break;
      case 'd':
        info.size = 8;
        info.kind = AG_PARAM_FLOAT;
        type = &ffi_type_double;
        break;
      case 'p':
        info.size = sizeof(void*);
        info.kind = AG_PARAM_POINTER;
        type = &ffi_type_pointer;
        break;
      default:
        return false;
    }
    info.alignment = info.size;
    kernel.layout.push_back(info);
    kernel.ffi_types.push_back(type);
  }
  return true;
}

// Offsets by C rules, and the packed size.
void assign_offsets(HostKernel& kernel) {
  size_t offset = 0;
  for (ag_param_info& info : kernel.layout) {
    const size_t align = info.alignment ? info.alignment : 1;
    offset = (offset + align - 1) / align * align;
    info.offset = offset;
    offset += info.size;
  }
  kernel.argument_bytes = offset;
}

// Images stay loaded for the life of the process, once per distinct image: worker threads hold
// thread-local storage of the code they ran (the kernels' context pointer and __shared__ arrays),
// which dlclose would pull from under them. Reloading an identical image reuses its code.
struct LoadedImage {
  std::vector<unsigned char> bytes;
  void* handle;
  int memory_file;
};

// For an image that turned out not to be a host code object (no kernel code ran).
void close_image(void* handle, int memory_file) {
  dlclose(handle);
  close(memory_file);
}

ag_result open_image(const unsigned char* image, size_t bytes, void** handle) {
  static std::mutex mutex;
  static std::vector<LoadedImage>* images = new std::vector<LoadedImage>;
  std::lock_guard<std::mutex> lock(mutex);
  for (const LoadedImage& loaded : *images) {
    if (loaded.bytes.size() == bytes && memcmp(loaded.bytes.data(), image, bytes) == 0) {
      *handle = loaded.handle;
      return AG_SUCCESS;
    }
  }
  // Checked before anything is written or mapped: ld.so trusts the image's structure, and runs
  // the constructors of any shared object it opens.
  std::string error;
  if (const ByteReader bytes_read(image, bytes);
      !check_host_image(bytes_read, host_elf_machine(), &error)) {
    const std::string carried = carried_device_code(bytes_read);
    return fail(AG_ERROR_INVALID_IMAGE, "host code object refused before loading: %s%s%s",
                error.c_str(), carried.empty() ? "" : "; ", carried.c_str());
  }
  int memory_file = -1;
  void* opened = open_from_memory(image, bytes, memory_file, error);
  if (!opened)
    return fail(AG_ERROR_INVALID_IMAGE, "the host code object cannot be loaded: %s", error.c_str());
  auto abi = reinterpret_cast<uint32_t (*)()>(dlsym(opened, AGK_HOST_ABI_SYMBOL));
  if (!abi) {
    close_image(opened, memory_file);
    return fail(AG_ERROR_INVALID_IMAGE,
                "the shared object has no %s(): it was not built with anygpu/kernel.h",
                AGK_HOST_ABI_SYMBOL);
  }
  if (const uint32_t version = abi();
      version < AGK_HOST_ABI_MIN_VERSION || version > AGK_HOST_ABI_VERSION) {
    close_image(opened, memory_file);
    return fail(AG_ERROR_INVALID_IMAGE, "host code object ABI %u; this anygpu takes %u to %u",
                version, AGK_HOST_ABI_MIN_VERSION, AGK_HOST_ABI_VERSION);
  }
  register_kernel_code(opened);  // a fault in its code fails the launch, not the process
  images->push_back(
      LoadedImage{std::vector<unsigned char>(image, image + bytes), opened, memory_file});
  *handle = opened;
  return AG_SUCCESS;
}

}  // namespace

ag_result HostModule::load(const unsigned char* image, size_t bytes, HostModule** module) {
  void* handle = nullptr;
  if (ag_result r = open_image(image, bytes, &handle)) return r;
  *module = new HostModule(handle);
  return AG_SUCCESS;
}

HostModule::~HostModule() = default;

ag_result HostModule::get_global(const char* name, void** pointer, size_t* bytes) const {
  return find_host_global(handle_, name, pointer, bytes);
}

ag_result HostModule::get_kernel(const char* name, const HostKernel** kernel) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = kernels_.find(name);
  if (found != kernels_.end()) {
    *kernel = found->second.get();
    return AG_SUCCESS;
  }
  const std::string symbol = std::string(AGK_KERNEL_SYMBOL_PREFIX) + name;
  auto describe = reinterpret_cast<const agk_kernel_desc* (*)()>(dlsym(handle_, symbol.c_str()));
  if (!describe) return fail(AG_ERROR_NOT_FOUND, "the module has no kernel named '%s'", name);
  auto loaded = std::make_unique<HostKernel>();
  loaded->module = this;
  loaded->desc = describe();
  const agk_kernel_desc* desc = loaded->desc;
  if (!desc || desc->abi_version < AGK_HOST_ABI_MIN_VERSION ||
      desc->abi_version > AGK_HOST_ABI_VERSION || !desc->set_context)
    return fail(AG_ERROR_INVALID_IMAGE, "kernel '%s' has an invalid descriptor", name);
  if (desc->run_blocks && desc->run_thread && desc->params) {
    for (uint32_t i = 0; i < desc->param_count; ++i) {
      const agk_param_desc& p = desc->params[i];
      loaded->layout.push_back(ag_param_info{
          sizeof(ag_param_info), static_cast<ag_param_kind>(p.kind), p.size, p.alignment, 0});
    }
    loaded->run_blocks = desc->run_blocks;
    loaded->run_thread = desc->run_thread;
    if (desc->abi_version >= 2 && desc->run_blocks_wi && work_item_loops_enabled()) {
      loaded->run_blocks = desc->run_blocks_wi;
      loaded->work_item_loops = true;
    }
  } else if (desc->c_function && desc->signature) {
    if (!layout_from_signature(desc->signature, *loaded))
      return fail(AG_ERROR_INVALID_IMAGE, "kernel '%s' has an invalid signature \"%s\"", name,
                  desc->signature);
    if (ffi_prep_cif(&loaded->cif, FFI_DEFAULT_ABI, static_cast<unsigned>(loaded->ffi_types.size()),
                     &ffi_type_void, loaded->ffi_types.data()) != FFI_OK)
      return fail(AG_ERROR_INVALID_IMAGE, "libffi cannot call kernel '%s'", name);
    loaded->run_blocks = &ffi_run_blocks;
    loaded->run_thread = &ffi_run_thread;
  } else {
    return fail(AG_ERROR_INVALID_IMAGE, "kernel '%s' has neither an entry nor a signature", name);
  }
  assign_offsets(*loaded);
  *kernel = loaded.get();
  kernels_.emplace(name, std::move(loaded));
  return AG_SUCCESS;
}

}  // namespace anygpu::cpu
