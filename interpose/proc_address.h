// What cuGetProcAddress and hipGetProcAddress hand out. The driver answers a base name, a version
// and flags with one of its functions; which one decides the signature (cuMemAlloc at 3010 is
// the 32-bit cuMemAlloc, at 12000 cuMemAlloc_v2; with the per-thread flag cuMemcpyAsync is
// cuMemcpyAsync_ptsz). Rather than restate the driver's version rules, the answer is compared
// with the library's own exports of that family: the export it equals names the wrapper to hand
// out. An answer equal to none (an internal entry point) is passed through untouched.
#pragma once

#include "interpose/function_names.h"

namespace anygpu::intercept {

// After a successful lookup of `requested`: replaces *pfn with the matching wrapper, if any.
// Returns whether it did.
bool hand_out_entry_point(Api api, const char* requested, void** pfn);

}  // namespace anygpu::intercept
