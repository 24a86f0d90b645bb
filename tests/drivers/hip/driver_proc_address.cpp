// hipGetProcAddress (HIP 6.2): a name gives the entry point this runtime exports for it. As in HIP,
// a function newer than the requested version is HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, one
// newer than the runtime is not there at all, and "hipGetDeviceProperties" asked at 600 or newer
// answers hipGetDevicePropertiesR0600 (the layout a HIP 6 program's hipDeviceProp_t has). The
// HIP 5 builds do not export it (their version scripts hide it).
#include <cstring>

#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

struct Entry {
  Fn fn;
  void* pointer;
};

// clang-format off
const Entry kEntries[] = {
#define ANYGPU_HIP_TEST_ENTRY(symbol, name, result, parameters) \
  {Fn::symbol, reinterpret_cast<void*>(&symbol)},
  ANYGPU_HIP_REQUIRED_FUNCTIONS(ANYGPU_HIP_TEST_ENTRY)
  ANYGPU_HIP_OPTIONAL_FUNCTIONS(ANYGPU_HIP_TEST_ENTRY)
#undef ANYGPU_HIP_TEST_ENTRY
  {Fn::hipGetProcAddress, reinterpret_cast<void*>(&hipGetProcAddress)},
};
// clang-format on

// The HIP version (major * 100 + minor) that introduced each function anygpu asks for after HIP
// 5.0; every other one is older.
int introduced_in(Fn fn) {
  switch (fn) {
    case Fn::hipGetProcAddress:
      return 602;
    case Fn::hipGetDevicePropertiesR0600:
      return 600;
    default:
      return 0;
  }
}

}  // namespace

}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

ANYGPU_HIP_TEST_API hipError_t hipGetProcAddress(const char* symbol, void** pfn, int hip_version,
                                                 uint64_t flags,
                                                 hipDriverProcAddressQueryResult* status) {
  DRIVER_ENTRY(hipGetProcAddress);
  if (!symbol || !pfn || flags > HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
    return hipErrorInvalidValue;
  *pfn = nullptr;
  const int runtime = api_version(config().runtime_version);
  const char* name = symbol;
  if (strcmp(symbol, "hipGetDeviceProperties") == 0 && hip_version >= 600 && runtime >= 600 &&
      is_exported(Fn::hipGetDevicePropertiesR0600))
    name = "hipGetDevicePropertiesR0600";
  hipDriverProcAddressQueryResult answer = HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  for (const Entry& entry : kEntries) {
    if (strcmp(name, function_name(entry.fn)) != 0) continue;
    if (!is_exported(entry.fn) || config().missing.count(symbol) || config().missing.count(name) ||
        introduced_in(entry.fn) > runtime)
      break;
    if (introduced_in(entry.fn) > hip_version) {
      answer = HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
      break;
    }
    *pfn = entry.pointer;
    answer = HIP_GET_PROC_ADDRESS_SUCCESS;
    break;
  }
  if (status) *status = answer;
  return answer == HIP_GET_PROC_ADDRESS_SUCCESS ? hipSuccess : hipErrorNotFound;
}

}  // namespace anygpu::hip
