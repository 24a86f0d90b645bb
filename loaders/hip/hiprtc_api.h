// The hiprtc API anygpu uses, declared here (no ROCm header): HIP's run-time compiler, exported by
// libhiprtc.so.6/.7 (ROCm 6 and 7) and, in HIP 5, by libamdhip64.so.5 itself. Checked against
// hiprtc.h of HIP 5.2 (Debian's libamdhip64-dev) and of ROCm 6/7. Also the two calls of the code
// object manager (libamd_comgr) that anygpu makes to check a target id before hiprtc 5 sees it
// (hiprtc_compiler.cpp says why), from amd_comgr.h of comgr 2.4 (ROCm 5.2) to 3.x.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loaders/function_table.h"

namespace anygpu::hiprtc {

enum hiprtcResult : int {
  HIPRTC_SUCCESS = 0,
  HIPRTC_ERROR_OUT_OF_MEMORY = 1,
  HIPRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  HIPRTC_ERROR_INVALID_INPUT = 3,
  HIPRTC_ERROR_INVALID_PROGRAM = 4,
  HIPRTC_ERROR_INVALID_OPTION = 5,
  HIPRTC_ERROR_COMPILATION = 6,
  HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  HIPRTC_ERROR_INTERNAL_ERROR = 11,
};

struct hiprtcProgramOpaque;
using hiprtcProgram = hiprtcProgramOpaque*;

#define ANYGPU_HIPRTC_REQUIRED(X)                                                             \
  X(hiprtcCreateProgram, hiprtcCreateProgram, hiprtcResult,                                   \
    (hiprtcProgram*, const char*, const char*, int, const char* const*, const char* const*))  \
  X(hiprtcDestroyProgram, hiprtcDestroyProgram, hiprtcResult, (hiprtcProgram*))               \
  X(hiprtcCompileProgram, hiprtcCompileProgram, hiprtcResult,                                 \
    (hiprtcProgram, int, const char* const*))                                                 \
  X(hiprtcGetProgramLogSize, hiprtcGetProgramLogSize, hiprtcResult, (hiprtcProgram, size_t*)) \
  X(hiprtcGetProgramLog, hiprtcGetProgramLog, hiprtcResult, (hiprtcProgram, char*))           \
  X(hiprtcGetCodeSize, hiprtcGetCodeSize, hiprtcResult, (hiprtcProgram, size_t*))             \
  X(hiprtcGetCode, hiprtcGetCode, hiprtcResult, (hiprtcProgram, char*))
#define ANYGPU_HIPRTC_OPTIONAL(X)                                                    \
  X(hiprtcGetErrorString, hiprtcGetErrorString, const char*, (hiprtcResult))         \
  X(hiprtcVersion, hiprtcVersion, hiprtcResult, (int*, int*))                        \
  /* HIP 5's libamdhip64 only: its hiprtcVersion answers 9.0 whatever the release */ \
  X(hipRuntimeGetVersion, hipRuntimeGetVersion, int, (int*))

#define ANYGPU_HIPRTC_DECLARE_PFN(symbol, name, result, parameters) \
  typedef result(*PFN_##symbol) parameters;
ANYGPU_HIPRTC_REQUIRED(ANYGPU_HIPRTC_DECLARE_PFN)
ANYGPU_HIPRTC_OPTIONAL(ANYGPU_HIPRTC_DECLARE_PFN)
ANYGPU_FUNCTION_TABLE(HiprtcFunctions, ANYGPU_HIPRTC_REQUIRED, ANYGPU_HIPRTC_OPTIONAL)

// The code object manager: an action info's ISA name is set, which fails for a target id comgr
// does not know (AMD_COMGR_STATUS_ERROR_INVALID_ARGUMENT, 2).
struct amd_comgr_action_info_t {
  uint64_t handle;
};

#define ANYGPU_COMGR_REQUIRED(X)                                                                  \
  X(amd_comgr_create_action_info, amd_comgr_create_action_info, int, (amd_comgr_action_info_t*))  \
  X(amd_comgr_destroy_action_info, amd_comgr_destroy_action_info, int, (amd_comgr_action_info_t)) \
  X(amd_comgr_action_info_set_isa_name, amd_comgr_action_info_set_isa_name, int,                  \
    (amd_comgr_action_info_t, const char*))
#define ANYGPU_COMGR_OPTIONAL(X) \
  X(amd_comgr_get_version, amd_comgr_get_version, void, (size_t*, size_t*))

ANYGPU_COMGR_REQUIRED(ANYGPU_HIPRTC_DECLARE_PFN)
ANYGPU_COMGR_OPTIONAL(ANYGPU_HIPRTC_DECLARE_PFN)
#undef ANYGPU_HIPRTC_DECLARE_PFN
ANYGPU_FUNCTION_TABLE(ComgrFunctions, ANYGPU_COMGR_REQUIRED, ANYGPU_COMGR_OPTIONAL)

}  // namespace anygpu::hiprtc
