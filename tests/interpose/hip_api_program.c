/* A program that calls the HIP runtime as any C program would, linked against the HIP test driver
 * (tests/drivers/hip, a libamdhip64.so.6 that runs on the CPU), with the prototypes declared
 * here. It makes three allocations directly and one through hipGetProcAddress, copies into the
 * first, frees what it got, and prints each result. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int hipError_t;

hipError_t hipInit(unsigned flags);
hipError_t hipGetDeviceCount(int* count);
hipError_t hipMalloc(void** pointer, size_t bytes);
hipError_t hipFree(void* pointer);
hipError_t hipMemcpyHtoD(void* dst, const void* src, size_t bytes);
hipError_t hipGetProcAddress(const char* symbol, void** pfn, int hip_version, uint64_t flags,
                             int* status);

typedef hipError_t (*Malloc)(void** pointer, size_t bytes);

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int count = 0;
  printf("hipInit result %d\n", hipInit(0));
  printf("hipGetDeviceCount result %d\n", hipGetDeviceCount(&count));
  void* pointers[4] = {NULL, NULL, NULL, NULL};
  hipError_t results[4];
  for (int i = 0; i < 3; ++i) {
    results[i] = hipMalloc(&pointers[i], 1024);
    printf("hipMalloc %d result %d\n", i + 1, results[i]);
  }
  void* function = NULL;
  int status = -1;
  hipError_t found = hipGetProcAddress("hipMalloc", &function, 602, 0, &status);
  results[3] = function ? ((Malloc)function)(&pointers[3], 1024) : -1;
  printf("hipGetProcAddress hipMalloc result %d status %d alloc %d\n", found, status, results[3]);
  char host[1024];
  memset(host, 7, sizeof host);
  if (results[0] == 0) printf("hipMemcpyHtoD result %d\n", hipMemcpyHtoD(pointers[0], host, 1024));
  for (int i = 0; i < 4; ++i)
    if (results[i] == 0) printf("hipFree %d result %d\n", i + 1, hipFree(pointers[i]));
  return 0;
}
