// Primary contexts (retained and released, reset on the last release) and the calling thread's
// stack of current contexts.
#include <mutex>
#include <vector>

#include "driver_context.h"
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::cuda_test_driver {
namespace {

Context* primary_contexts() {
  static Context* const contexts = [] {
    auto* made = new Context[kMaxDevices];
    for (int i = 0; i < kMaxDevices; ++i) made[i].device = i;
    return made;
  }();
  return contexts;
}

// Serialises retain and release, so that a reset finishes before the context is retained again.
std::mutex retain_mutex;

// The top is the current context; cuCtxSetCurrent replaces it.
thread_local std::vector<Context*> current_stack;

// The context a handle names; nullptr for anything that is not a primary context.
Context* from_handle(CUcontext handle) {
  Context* contexts = primary_contexts();
  for (int i = 0; i < config().device_count; ++i)
    if (to_handle(&contexts[i]) == handle) return &contexts[i];
  return nullptr;
}

// A reset context has no peers, and is no other context's peer.
void forget_peers(Context* reset) {
  reset->peers.store(0, std::memory_order_release);
  const uint64_t bit = uint64_t{1} << reset->device;
  Context* contexts = primary_contexts();
  for (int i = 0; i < config().device_count; ++i)
    contexts[i].peers.fetch_and(~bit, std::memory_order_acq_rel);
}

// `handle` as a peer of the current context `context`: another active primary context. The
// CUDA documentation has CUDA_ERROR_INVALID_CONTEXT for the current context itself.
CUresult find_peer(Context* context, CUcontext handle, Context** peer) {
  if (CUresult r = find_context(handle, peer)) return r;
  return *peer == context ? CUDA_ERROR_INVALID_CONTEXT : CUDA_SUCCESS;
}

}  // namespace

Context* primary_context(CUdevice device) {
  return &primary_contexts()[device];
}

Context* current_context() {
  return current_stack.empty() ? nullptr : current_stack.back();
}

CUresult require_context(Context** context) {
  if (CUresult r = require_initialized()) return r;
  if (current_stack.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  Context* current = current_stack.back();
  if (current->retains.load(std::memory_order_acquire) <= 0) return CUDA_ERROR_INVALID_CONTEXT;
  *context = current;
  return CUDA_SUCCESS;
}

CUresult find_context(CUcontext handle, Context** context) {
  Context* found = from_handle(handle);
  if (!found || found->retains.load(std::memory_order_acquire) <= 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  *context = found;
  return CUDA_SUCCESS;
}

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

ANYGPU_CUDA_TEST_API CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  DRIVER_ENTRY(cuDevicePrimaryCtxRetain);
  if (CUresult r = require_initialized()) return r;
  if (!context) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = require_device(device)) return r;
  std::lock_guard<std::mutex> lock(retain_mutex);
  Context* primary = &primary_contexts()[device];
  primary->retains.fetch_add(1, std::memory_order_acq_rel);
  *context = to_handle(primary);
  return CUDA_SUCCESS;
}

// The last release resets the context: what was made in it is destroyed, as the CUDA
// documentation says. It stays on any thread's stack, where it is not usable until retained.
ANYGPU_CUDA_TEST_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  DRIVER_ENTRY(cuDevicePrimaryCtxRelease_v2);
  if (CUresult r = require_initialized()) return r;
  if (CUresult r = require_device(device)) return r;
  std::lock_guard<std::mutex> lock(retain_mutex);
  Context* primary = &primary_contexts()[device];
  if (primary->retains.load(std::memory_order_acquire) <= 0) return CUDA_ERROR_INVALID_CONTEXT;
  if (primary->retains.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    forget_peers(primary);
    destroy_objects(primary);
  }
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuCtxGetCurrent(CUcontext* context) {
  DRIVER_ENTRY(cuCtxGetCurrent);
  if (CUresult r = require_initialized()) return r;
  if (!context) return CUDA_ERROR_INVALID_VALUE;
  *context = current_stack.empty() ? nullptr : to_handle(current_stack.back());
  return CUDA_SUCCESS;
}

// NULL unbinds: it pops the top of the stack (nothing when the stack is empty).
ANYGPU_CUDA_TEST_API CUresult cuCtxSetCurrent(CUcontext context) {
  DRIVER_ENTRY(cuCtxSetCurrent);
  if (CUresult r = require_initialized()) return r;
  if (!context) {
    if (!current_stack.empty()) current_stack.pop_back();
    return CUDA_SUCCESS;
  }
  Context* found = from_handle(context);
  if (!found) return CUDA_ERROR_INVALID_CONTEXT;
  if (current_stack.empty())
    current_stack.push_back(found);
  else
    current_stack.back() = found;
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuCtxPushCurrent_v2(CUcontext context) {
  DRIVER_ENTRY(cuCtxPushCurrent_v2);
  if (CUresult r = require_initialized()) return r;
  Context* found = from_handle(context);
  if (!found) return CUDA_ERROR_INVALID_CONTEXT;
  current_stack.push_back(found);
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuCtxPopCurrent_v2(CUcontext* context) {
  DRIVER_ENTRY(cuCtxPopCurrent_v2);
  if (CUresult r = require_initialized()) return r;
  if (current_stack.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  if (context) *context = to_handle(current_stack.back());
  current_stack.pop_back();
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuCtxSynchronize() {
  DRIVER_ENTRY(cuCtxSynchronize);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  synchronize_context(context);
  return CUDA_SUCCESS;
}

// Access is one way, from the current context to the peer's memory. The devices all live in host
// memory, so any two can be peers, and the access changes nothing but these answers.
ANYGPU_CUDA_TEST_API CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned flags) {
  DRIVER_ENTRY(cuCtxEnablePeerAccess);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  Context* found = nullptr;
  if (CUresult r = find_peer(context, peer, &found)) return r;
  const uint64_t bit = uint64_t{1} << found->device;
  return context->peers.fetch_or(bit, std::memory_order_acq_rel) & bit
             ? CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
             : CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuCtxDisablePeerAccess(CUcontext peer) {
  DRIVER_ENTRY(cuCtxDisablePeerAccess);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  Context* found = nullptr;
  if (CUresult r = find_peer(context, peer, &found)) return r;
  const uint64_t bit = uint64_t{1} << found->device;
  return context->peers.fetch_and(~bit, std::memory_order_acq_rel) & bit
             ? CUDA_SUCCESS
             : CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

#ifndef ANYGPU_CUDA_TEST_OLD_DRIVER
// What the CUDA Runtime calls: the device of the current context and, since CUDA 13.0, of a given
// one (NULL: the current one), and the synchronisation of a given context.
ANYGPU_CUDA_TEST_API CUresult cuCtxGetDevice(CUdevice* device) {
  DRIVER_ENTRY(cuCtxGetDevice);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  *device = context->device;
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuCtxGetDevice_v2(CUdevice* device, CUcontext context) {
  DRIVER_ENTRY(cuCtxGetDevice_v2);
  if (!context) return cuCtxGetDevice(device);
  if (CUresult r = require_initialized()) return r;
  Context* found = from_handle(context);
  if (!found) return CUDA_ERROR_INVALID_CONTEXT;
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  *device = found->device;
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuCtxSynchronize_v2(CUcontext context) {
  DRIVER_ENTRY(cuCtxSynchronize_v2);
  if (!context) return cuCtxSynchronize();
  if (CUresult r = require_initialized()) return r;
  Context* found = from_handle(context);
  if (!found || found->retains.load(std::memory_order_acquire) <= 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  synchronize_context(found);
  return CUDA_SUCCESS;
}
#endif

}  // namespace anygpu::cuda
