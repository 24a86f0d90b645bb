/* A stand-in libcuda whose cuGetProcAddress_v2 answers as NVIDIA's does: by CUDA version and
 * flags, with the driver's own entry points, which are its exports (linked -Bsymbolic, so their
 * addresses are its own even with the interposer preloaded) or internal functions no export
 * names. How check_interpose.py's proc_address_matching tests that the interposer hands out the
 * wrapper of exactly the export the driver chose, and passes anything else through. */
#include <stddef.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUstream_st* CUstream;

/* cuMemAlloc before CUDA 3.2: 32-bit pointers and sizes, a signature the interposer does not
 * wrap. */
EXPORT CUresult cuMemAlloc(unsigned* pointer, unsigned bytes) {
  *pointer = 0x1000u;
  return 0;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  *pointer = 0x2000u;
  return 0;
}

EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return 0;
}

EXPORT CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                   CUstream stream) {
  return 0;
}

/* Exported as cuStreamQuery, but not what cuGetProcAddress hands out for it. */
EXPORT CUresult cuStreamQuery(CUstream stream) {
  return 0;
}
static CUresult internal_stream_query(CUstream stream) {
  return 0;
}

enum { kPerThreadDefaultStream = 2 };

EXPORT CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cuda_version,
                                    unsigned long long flags, int* status) {
  void* found = NULL;
  if (strcmp(symbol, "cuMemAlloc") == 0)
    found = cuda_version >= 3020 ? (void*)&cuMemAlloc_v2 : (void*)&cuMemAlloc;
  else if (strcmp(symbol, "cuMemcpyAsync") == 0)
    found = flags & kPerThreadDefaultStream ? (void*)&cuMemcpyAsync_ptsz : (void*)&cuMemcpyAsync;
  else if (strcmp(symbol, "cuStreamQuery") == 0)
    found = (void*)&internal_stream_query;
  else if (strcmp(symbol, "cuGetProcAddress") == 0)
    found = (void*)&cuGetProcAddress_v2;
  *pfn = found;
  if (status) *status = found ? 0 : 1;
  return found ? 0 : 500;
}
