// cuGetErrorName and cuGetErrorString: the names and texts of a real driver (CUDA 12/13) for the
// results this driver returns and the common ones; other numbers are CUDA_ERROR_INVALID_VALUE.
#include "driver_state.h"

namespace anygpu::cuda_test_driver {
namespace {

struct ResultText {
  CUresult result;
  const char* name;
  const char* text;
};

constexpr ResultText kResults[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler library not found"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the provided PTX was compiled with an unsupported toolchain."},
    {301, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {600, "CUDA_ERROR_NOT_READY", "device not ready"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access is already enabled"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access has not been enabled"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {800, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const ResultText* find(CUresult result) {
  for (const ResultText& entry : kResults)
    if (entry.result == result) return &entry;
  return nullptr;
}

}  // namespace

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

// Both answer before cuInit.
ANYGPU_CUDA_TEST_API CUresult cuGetErrorName(CUresult result, const char** name) {
  DRIVER_ENTRY(cuGetErrorName);
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  const ResultText* found = find(result);
  *name = found ? found->name : nullptr;
  return found ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

ANYGPU_CUDA_TEST_API CUresult cuGetErrorString(CUresult result, const char** text) {
  DRIVER_ENTRY(cuGetErrorString);
  if (!text) return CUDA_ERROR_INVALID_VALUE;
  const ResultText* found = find(result);
  *text = found ? found->text : nullptr;
  return found ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

}  // namespace anygpu::cuda
