// cuGetExportTable: NVIDIA's undocumented tables, through which the CUDA Runtime reaches the
// driver beside the Driver API. This driver implements the documented API only, so it has none:
// every UUID is CUDA_ERROR_NOT_FOUND. One of the tables cudart (CUDA 13) asks for answers an
// integrity challenge keyed with a secret of NVIDIA's driver; a stand-in driver cannot answer it
// without copying that secret, which anygpu does not do, so cudart stops at its first call here
// (tests/interpose: what the trace shows up to there).
#include "driver_api.h"
#include "driver_state.h"

#ifndef ANYGPU_CUDA_TEST_OLD_DRIVER
namespace anygpu::cuda {

using namespace cuda_test_driver;

ANYGPU_CUDA_TEST_API CUresult cuGetExportTable(const void** table, const CUuuid* id) {
  DRIVER_ENTRY(cuGetExportTable);
  if (!table || !id) return CUDA_ERROR_INVALID_VALUE;
  *table = nullptr;
  return CUDA_ERROR_NOT_FOUND;
}

}  // namespace anygpu::cuda
#endif
