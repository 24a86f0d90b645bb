/* A program that calls the CUDA Driver API as any C program would, linked against the CUDA test
 * driver (tests/drivers/cuda, a libcuda.so.1 that runs on the CPU), with cuda.h's prototypes
 * declared here. check_interpose.py runs it under the interposer; it prints each call's result
 * and the driver's own counts, so the checks compare what the interposer saw with what happened.
 *
 *   driver_api_program sequence       a known sequence of calls, one allocation never freed
 *   driver_api_program proc-address   cuMemAlloc through dlopen + dlsym("cuGetProcAddress_v2")
 *   driver_api_program matching LIB   cuGetProcAddress_v2 of proc_address_driver.c, loaded from
 *                                     LIB, at several versions and flags; each entry point called
 *   driver_api_program threads        8 threads allocating and freeing at once
 *   driver_api_program fork           calls in a parent and its forked child
 *   driver_api_program modules DIR    loads PTX, a cubin and a wrapped fatbin; writes each image
 *                                     as it should be saved to DIR/expected-<n>.<extension>
 *   driver_api_program launch PTX     saxpy from the PTX file, launched as a module's function
 *                                     and as a library's kernel (the CUDA Runtime's way)
 *   driver_api_program crash HOW      setup and two allocations, then it crashes: HOW is segv (a
 *                                     write near NULL), abort, handled (a SIGSEGV handler of
 *                                     its own, set after the interposer's, sets the default back
 *                                     and returns to the fault) or recover (the handler jumps
 *                                     back; one more allocation, then a normal exit) */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUlib_st* CUlibrary;
typedef struct CUkern_st* CUkernel;
typedef struct CUstream_st* CUstream;

CUresult cuInit(unsigned flags);
CUresult cuDeviceGet(CUdevice* device, int ordinal);
CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device);
CUresult cuCtxSetCurrent(CUcontext context);
CUresult cuCtxGetCurrent(CUcontext* context);
CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr pointer);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t bytes);
CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t bytes);
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned count, int* options,
                            void** values);
CUresult cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name);
CUresult cuModuleUnload(CUmodule module);
CUresult cuLibraryLoadData(CUlibrary* library, const void* code, int* jit_options,
                           void** jit_values, unsigned jit_count, int* options, void** values,
                           unsigned count);
CUresult cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name);
CUresult cuLibraryUnload(CUlibrary library);
CUresult cuLaunchKernel(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                        unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                        CUstream stream, void** params, void** extra);
/* The test driver's control functions (tests/drivers/cuda/README.md). */
long anygpu_cuda_test_calls(const char* function);
long anygpu_cuda_test_live_objects(void);

typedef CUresult (*GetProcAddress)(const char* symbol, void** pfn, int cuda_version,
                                   unsigned long long flags, int* status);
typedef CUresult (*MemAlloc)(CUdeviceptr* pointer, size_t bytes);

static int start(void) {
  CUdevice device = 0;
  CUcontext context = NULL;
  CUresult result = cuInit(0);
  if (result == 0) result = cuDeviceGet(&device, 0);
  if (result == 0) result = cuDevicePrimaryCtxRetain(&context, device);
  if (result == 0) result = cuCtxSetCurrent(context);
  printf("setup %d\n", result);
  return result;
}

static void report_driver(void) {
  printf("driver cuMemAlloc_v2 calls %ld\n", anygpu_cuda_test_calls("cuMemAlloc_v2"));
  printf("driver live objects %ld\n", anygpu_cuda_test_live_objects());
}

/* 4 allocations, 3 copies, 3 frees: the last allocation is never freed. */
static int sequence(void) {
  static const size_t kSizes[4] = {1024, 2048, 4096, 8192};
  CUdeviceptr pointers[4] = {0, 0, 0, 0};
  CUresult results[4];
  char host[1024] = "anygpu";
  if (start() != 0) return 1;
  for (int i = 0; i < 4; ++i) {
    results[i] = cuMemAlloc_v2(&pointers[i], kSizes[i]);
    printf("cuMemAlloc %d bytes %zu result %d\n", i + 1, kSizes[i], results[i]);
  }
  if (results[0] == 0 && results[1] == 0) {
    printf("cuMemcpyHtoD result %d\n", cuMemcpyHtoD_v2(pointers[0], host, sizeof host));
    printf("cuMemcpyDtoD result %d\n", cuMemcpyDtoD_v2(pointers[1], pointers[0], sizeof host));
    printf("cuMemcpyDtoH result %d\n", cuMemcpyDtoH_v2(host, pointers[1], sizeof host));
  }
  for (int i = 0; i < 3; ++i)
    if (results[i] == 0) printf("cuMemFree %d result %d\n", i + 1, cuMemFree_v2(pointers[i]));
  if (results[3] == 0) printf("leaked bytes %zu\n", kSizes[3]);
  report_driver();
  return 0;
}

/* As the CUDA Runtime finds the driver: dlopen, dlsym of cuGetProcAddress_v2, then every function
 * through it, at two CUDA versions. */
static int proc_address(void) {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  GetProcAddress get = library ? (GetProcAddress)dlsym(library, "cuGetProcAddress_v2") : NULL;
  if (!get) {
    printf("no cuGetProcAddress_v2: %s\n", dlerror());
    return 1;
  }
  if (start() != 0) return 1;
  static const int kVersions[2] = {12000, 13000};
  for (int i = 0; i < 2; ++i) {
    void* function = NULL;
    int status = -1;
    CUresult found = get("cuMemAlloc", &function, kVersions[i], 0, &status);
    CUdeviceptr pointer = 0;
    CUresult result = function ? ((MemAlloc)function)(&pointer, 256) : -1;
    printf("cuGetProcAddress_v2 cuMemAlloc %d result %d status %d alloc %d\n", kVersions[i], found,
           status, result);
    if (result == 0) cuMemFree_v2(pointer);
  }
  report_driver();
  return 0;
}

typedef CUresult (*MemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, void* stream);
typedef CUresult (*StreamQuery)(void* stream);
typedef CUresult (*MemAllocV1)(unsigned* pointer, unsigned bytes);

/* Each lookup prints "lookup NAME VERSION FLAGS result R call C". */
static int matching(const char* path) {
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  GetProcAddress get = library ? (GetProcAddress)dlsym(library, "cuGetProcAddress_v2") : NULL;
  if (!get) {
    printf("cannot load %s: %s\n", path, dlerror());
    return 1;
  }
  static const struct {
    const char* name;
    int version;
    unsigned long long flags;
  } kLookups[] = {{"cuMemAlloc", 3000, 0},     {"cuMemAlloc", 12000, 0},
                  {"cuMemcpyAsync", 12000, 2}, {"cuMemcpyAsync", 12000, 0},
                  {"cuStreamQuery", 12000, 0}, {"cuGetProcAddress", 12000, 0}};
  for (size_t i = 0; i < sizeof kLookups / sizeof kLookups[0]; ++i) {
    void* function = NULL;
    CUresult result =
        get(kLookups[i].name, &function, kLookups[i].version, kLookups[i].flags, NULL);
    CUresult call = -1;
    if (result == 0 && strcmp(kLookups[i].name, "cuMemAlloc") == 0 && kLookups[i].version < 3020) {
      unsigned pointer = 0;
      call = ((MemAllocV1)function)(&pointer, 64);
    } else if (result == 0 && strcmp(kLookups[i].name, "cuMemAlloc") == 0) {
      CUdeviceptr pointer = 0;
      call = ((MemAlloc)function)(&pointer, 64);
    } else if (result == 0 && strcmp(kLookups[i].name, "cuMemcpyAsync") == 0) {
      call = ((MemcpyAsync)function)(0x2000u, 0x2000u, 64, NULL);
    } else if (result == 0 && strcmp(kLookups[i].name, "cuStreamQuery") == 0) {
      call = ((StreamQuery)function)(NULL);
    } else if (result == 0) {
      void* again = NULL;
      call = ((GetProcAddress)function)("cuMemAlloc", &again, 12000, 0, NULL);
    }
    printf("lookup %s %d %llu result %d call %d\n", kLookups[i].name, kLookups[i].version,
           kLookups[i].flags, result, call);
  }
  return 0;
}

enum { kThreads = 8, kRounds = 100 };

static void* allocate_in_thread(void* context) {
  long failures = cuCtxSetCurrent((CUcontext)context) != 0;
  for (int i = 0; i < kRounds; ++i) {
    CUdeviceptr pointer = 0;
    if (cuMemAlloc_v2(&pointer, 64 + i) != 0 || cuMemFree_v2(pointer) != 0) ++failures;
  }
  return (void*)failures;
}

static int threads(void) {
  CUcontext context = NULL;
  if (start() != 0 || cuCtxGetCurrent(&context) != 0) return 1;
  pthread_t thread[kThreads];
  for (int i = 0; i < kThreads; ++i) pthread_create(&thread[i], NULL, allocate_in_thread, context);
  long failures = 0;
  for (int i = 0; i < kThreads; ++i) {
    void* result = NULL;
    pthread_join(thread[i], &result);
    failures += (long)result;
  }
  printf("threads %d rounds %d failures %ld\n", kThreads, kRounds, failures);
  return failures == 0 ? 0 : 1;
}

static void allocate_and_free(const char* who) {
  CUdeviceptr pointer = 0;
  CUresult result = cuMemAlloc_v2(&pointer, 4096);
  printf("%s pid %ld cuMemAlloc result %d\n", who, (long)getpid(), result);
  if (result == 0) cuMemFree_v2(pointer);
  fflush(stdout);
}

static int fork_both(void) {
  if (start() != 0) return 1;
  fflush(stdout);
  pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    allocate_and_free("child");
    exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  allocate_and_free("parent");
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static void write_expected(const char* dir, int n, const char* extension, const void* bytes,
                           size_t size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/expected-%d.%s", dir, n, extension);
  FILE* out = fopen(path, "wb");
  if (!out || fwrite(bytes, 1, size, out) != size) printf("cannot write %s\n", path);
  if (out) fclose(out);
}

/* Images the driver may refuse: the dump saves what it was given either way. */
static int modules(const char* dir) {
  static const char kPtx[] =
      ".version 7.0\n.target sm_50\n.address_size 64\n\n"
      ".visible .entry nothing()\n{\n\tret;\n}\n";
  /* A minimal ELF64 cubin: header, one NULL section header at offset 64. */
  unsigned char cubin[128];
  memset(cubin, 0, sizeof cubin);
  memcpy(cubin,
         "\x7f"
         "ELF",
         4);
  cubin[4] = 2;    /* ELFCLASS64 */
  cubin[5] = 1;    /* little-endian */
  cubin[6] = 1;    /* EV_CURRENT */
  cubin[16] = 2;   /* ET_EXEC */
  cubin[18] = 190; /* EM_CUDA */
  cubin[40] = 64;  /* e_shoff */
  cubin[52] = 64;  /* e_ehsize */
  cubin[58] = 64;  /* e_shentsize */
  cubin[60] = 1;   /* e_shnum */
  /* A fatbin: 16-byte header (magic, version 1, header size 16, payload size) and 32 bytes. */
  unsigned char fatbin[48];
  memset(fatbin, 0xab, sizeof fatbin);
  const uint32_t magic = 0xba55ed50u;
  const uint16_t version = 1, header = 16;
  const uint64_t payload = 32;
  memcpy(fatbin, &magic, 4);
  memcpy(fatbin + 4, &version, 2);
  memcpy(fatbin + 6, &header, 2);
  memcpy(fatbin + 8, &payload, 8);
  /* The CUDA Runtime's wrapper around it: {magic, version, data, filename}. */
  struct {
    uint32_t magic, version;
    const void* data;
    const void* filename;
  } wrapper = {0x466243b1u, 1, fatbin, NULL};

  if (start() != 0) return 1;
  CUmodule module = NULL;
  printf("ptx result %d\n", cuModuleLoadDataEx(&module, kPtx, 0, NULL, NULL));
  printf("cubin result %d\n", cuModuleLoadDataEx(&module, cubin, 0, NULL, NULL));
  printf("fatbin result %d\n", cuModuleLoadDataEx(&module, &wrapper, 0, NULL, NULL));
  write_expected(dir, 1, "ptx", kPtx, strlen(kPtx));
  write_expected(dir, 2, "cubin", cubin, sizeof cubin);
  write_expected(dir, 3, "fatbin", fatbin, sizeof fatbin);
  return 0;
}

/* The whole file, NUL-terminated (PTX is text); NULL when it cannot be read. */
static char* read_text(const char* path) {
  FILE* file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char* text = size >= 0 ? malloc((size_t)size + 1) : NULL;
  if (text && fread(text, 1, (size_t)size, file) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text) text[size] = '\0';
  fclose(file);
  return text;
}

/* y = 2 x + y over n floats through `function` on a grid of `blocks` x `threads`; 1 when the
 * launch and copies worked and every element is right. */
static int run_saxpy(CUfunction function, unsigned blocks, unsigned threads, CUresult* launch) {
  enum { n = 256 };
  float x[n], y[n];
  for (int i = 0; i < n; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  CUdeviceptr dx = 0, dy = 0;
  int count = n;
  float a = 2.0f;
  void* params[] = {&count, &a, &dx, &dy};
  *launch = -1;
  if (cuMemAlloc_v2(&dx, sizeof x) || cuMemAlloc_v2(&dy, sizeof y) ||
      cuMemcpyHtoD_v2(dx, x, sizeof x) || cuMemcpyHtoD_v2(dy, y, sizeof y))
    return 0;
  *launch = cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, NULL, params, NULL);
  int right = *launch == 0 && cuMemcpyDtoH_v2(y, dy, sizeof y) == 0;
  for (int i = 0; right && i < n; ++i) right = y[i] == 2.0f * x[i] + 1.0f;
  cuMemFree_v2(dx);
  cuMemFree_v2(dy);
  return right;
}

/* saxpy as a module's function, then as a library's kernel passed as the function. */
static int launch(const char* ptx_path) {
  char* ptx = read_text(ptx_path);
  if (!ptx) {
    fprintf(stderr, "cannot read %s\n", ptx_path);
    return 2;
  }
  if (start() != 0) return 1;
  CUmodule module = NULL;
  CUfunction function = NULL;
  CUresult result = cuModuleLoadDataEx(&module, ptx, 0, NULL, NULL);
  if (result == 0) result = cuModuleGetFunction(&function, module, "saxpy");
  CUresult launched = -1;
  int right = result == 0 && run_saxpy(function, 1, 256, &launched);
  printf("module saxpy result %d launch %d %s\n", result, launched, right ? "right" : "wrong");
  if (module) cuModuleUnload(module);

  CUlibrary library = NULL;
  CUkernel kernel = NULL;
  result = cuLibraryLoadData(&library, ptx, NULL, NULL, 0, NULL, NULL, 0);
  if (result == 0) result = cuLibraryGetKernel(&kernel, library, "saxpy");
  right = result == 0 && run_saxpy((CUfunction)kernel, 2, 128, &launched);
  printf("library saxpy result %d launch %d %s\n", result, launched, right ? "right" : "wrong");
  if (library) cuLibraryUnload(library);
  free(ptx);
  return 0;
}

static sigjmp_buf g_recover_point;

static void say(const char* text) {
  ssize_t ignored = write(STDOUT_FILENO, text, strlen(text));
  (void)ignored;
}

static void default_again(int sig) {
  say("application handler ran\n");
  signal(sig, SIG_DFL); /* returning re-runs the faulting write, which now ends the process */
}

static void jump_back(int sig) {
  (void)sig;
  say("application handler recovered\n");
  siglongjmp(g_recover_point, 1);
}

static int crash(const char* how) {
  if (start() != 0) return 1;
  CUdeviceptr first = 0, second = 0;
  printf("cuMemAlloc result %d\n", cuMemAlloc_v2(&first, 1024));
  printf("cuMemAlloc result %d\n", cuMemAlloc_v2(&second, 2048));
  /* Address 16, in the unmapped page at 0, as a field of a NULL struct pointer would be: a real
   * fault, where a write through NULL itself would be stopped first by UBSan (the asan preset). */
  volatile uintptr_t address = 16;
  int* nowhere = (int*)address;
  if (strcmp(how, "abort") == 0) abort();
  if (strcmp(how, "handled") == 0) signal(SIGSEGV, default_again);
  if (strcmp(how, "recover") == 0) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = jump_back;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, NULL);
    if (sigsetjmp(g_recover_point, 1) != 0) {
      CUdeviceptr third = 0;
      printf("after recovery cuMemAlloc result %d\n", cuMemAlloc_v2(&third, 4096));
      return 0;
    }
  }
  *nowhere = 1;
  printf("the write to address 16 did not fault\n");
  return 1;
}

int main(int argc, char** argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "sequence") == 0) return sequence();
  if (strcmp(mode, "proc-address") == 0) return proc_address();
  if (strcmp(mode, "fork") == 0) return fork_both();
  if (strcmp(mode, "threads") == 0) return threads();
  if (strcmp(mode, "matching") == 0 && argc > 2) return matching(argv[2]);
  if (strcmp(mode, "modules") == 0 && argc > 2) return modules(argv[2]);
  if (strcmp(mode, "launch") == 0 && argc > 2) return launch(argv[2]);
  if (strcmp(mode, "crash") == 0 && argc > 2) return crash(argv[2]);
  fprintf(stderr,
          "usage: %s sequence|proc-address|matching LIB|threads|fork|modules DIR|launch PTX|"
          "crash segv|abort|handled|recover\n",
          argv[0]);
  return 2;
}
