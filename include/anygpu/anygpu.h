/*
 * anygpu.h — the anygpu C ABI.
 *
 * One API for devices, memory, streams, events, modules and kernel launch, on whichever GPU driver
 * is present at run time (CUDA Driver API, HIP, Level Zero) and always on the CPU.
 *
 * Conventions
 *  - Every function returns an ag_result; outputs come last and are written only on success.
 *  - Handles are opaque. A destroyed, foreign or made-up handle gives AG_ERROR_INVALID_HANDLE and
 * is never dereferenced.
 *  - No hidden current context: a call that needs a device takes it, or a stream that carries it.
 *  - Device memory is a plain pointer (unified addressing).
 *  - On failure the calling thread's error detail (agGetLastErrorDetail) names the function and the
 *    reason; the call has changed nothing it was given.
 *  - Every function may be called from any thread. Initialisation is lazy and happens once; agInit
 *    may be called explicitly.
 *  - Destroying a handle while other threads are inside calls with it is safe: the handle is
 *    invalid at once (calls that start later get AG_ERROR_INVALID_HANDLE), and the destroy waits
 *    for the calls already inside to return before it frees the object. A call racing a destroy
 *    thus returns its normal result or AG_ERROR_INVALID_HANDLE.
 *  - No call holds a lock of the runtime while it waits for device work: a thread waiting for a
 *    kernel never blocks other threads creating or destroying other objects.
 *  - Structs that may grow start with `struct_size`: set it to sizeof(the struct) before the call.
 *    Fields are only ever appended. A program built against an older, smaller version of a struct
 *    keeps working: the library writes only the fields its struct_size covers, and refuses only a
 *    size below the struct's first version.
 */
#ifndef ANYGPU_ANYGPU_H
#define ANYGPU_ANYGPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(ANYGPU_BUILDING_LIBRARY)
#define AG_API __attribute__((visibility("default")))
#else
#define AG_API
#endif

#define AG_VERSION_MAJOR 0
#define AG_VERSION_MINOR 1
#define AG_VERSION_PATCH 0

/* ------------------------------------------------------------------------------------------------
 * Results
 * ---------------------------------------------------------------------------------------------- */
typedef enum ag_result {
  AG_SUCCESS = 0,
  AG_ERROR_INVALID_VALUE = 1,   /* an argument is null, zero, out of range or inconsistent */
  AG_ERROR_OUT_OF_MEMORY = 2,   /* the device or host could not provide the memory */
  AG_ERROR_NOT_INITIALIZED = 3, /* initialisation failed; see the detail */
  AG_ERROR_INVALID_HANDLE = 4,  /* a handle is null, destroyed, or not a handle of that kind */
  AG_ERROR_INVALID_DEVICE = 5,  /* a device ordinal is out of range */
  AG_ERROR_NO_DEVICE = 6,       /* no backend has a device */
  AG_ERROR_NOT_READY = 7,       /* a stream or event still has work pending (not a failure) */
  AG_ERROR_NOT_FOUND = 8,       /* a named kernel or symbol is not in the module */
  AG_ERROR_FILE_NOT_FOUND = 9,  /* a file could not be opened or read */
  AG_ERROR_INVALID_IMAGE = 10,  /* a code object is corrupt or of an unknown format */
  AG_ERROR_NO_BINARY_FOR_DEVICE = 11, /* the image holds no code object this device can run */
  AG_ERROR_INVALID_CONFIGURATION =
      12,                         /* launch grid, block or shared memory exceeds device limits */
  AG_ERROR_LAUNCH_FAILED = 13,    /* the kernel could not be run, or it faulted */
  AG_ERROR_NOT_SUPPORTED = 14,    /* the operation is not available on this device or backend */
  AG_ERROR_BACKEND_FAILURE = 15,  /* the vendor driver returned an error; see the detail */
  AG_ERROR_INVALID_ADDRESS = 16,  /* a device pointer or range is not inside an allocation */
  AG_ERROR_OUT_OF_RESOURCES = 17, /* the system refused a thread, a file descriptor or the like */
  AG_ERROR_LAUNCH_TIMEOUT = 18,   /* a kernel ran longer than the device's watchdog allows */
  AG_ERROR_NOT_PERMITTED = 19,    /* not allowed from where it was called (a host function) */
  AG_ERROR_COMPILE_FAILED = 20,   /* a program did not compile; agProgramGetLog has the log */
  AG_ERROR_UNKNOWN = 999,
  AG_RESULT_FORCE32 = 0x7fffffff /* keeps the enum 32 bits wide as it grows; never returned */
} ag_result;

/* ------------------------------------------------------------------------------------------------
 * Handles
 * ---------------------------------------------------------------------------------------------- */
typedef struct ag_device_s* ag_device;
typedef struct ag_stream_s* ag_stream;
typedef struct ag_event_s* ag_event;
typedef struct ag_module_s* ag_module;
typedef struct ag_function_s* ag_function;
typedef struct ag_mem_pool_s* ag_mem_pool;

/* ------------------------------------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------------------------------- */

/* The enumerator's name, e.g. "AG_ERROR_INVALID_VALUE". Unknown codes give AG_ERROR_INVALID_VALUE.
 */
AG_API ag_result agGetErrorName(ag_result result, const char** name);
/* A one-line description of the code. */
AG_API ag_result agGetErrorString(ag_result result, const char** description);
/* The detail of the last failed call on this thread: the function, the reason and, for vendor
 * errors, the vendor function with its native code and name. An empty string when no call has
 * failed. Valid until the next anygpu call on this thread. */
AG_API ag_result agGetLastErrorDetail(const char** detail);
/* Forget this thread's last error detail. */
AG_API ag_result agClearLastErrorDetail(void);

/* ------------------------------------------------------------------------------------------------
 * Initialisation and version
 * ---------------------------------------------------------------------------------------------- */

/* Loads the backends (once, thread-safe). Every other call does this lazily. `flags` must be 0.
 * Succeeds when at least one backend has a device; otherwise AG_ERROR_NO_DEVICE. */
AG_API ag_result agInit(unsigned int flags);
/* The library's version as major * 10000 + minor * 100 + patch. */
AG_API ag_result agGetVersion(int* version);

/* ------------------------------------------------------------------------------------------------
 * Backends
 * ---------------------------------------------------------------------------------------------- */
typedef enum ag_backend_kind {
  AG_BACKEND_CUDA = 1,
  AG_BACKEND_HIP = 2,
  AG_BACKEND_LEVEL_ZERO = 3,
  AG_BACKEND_CPU = 4,
  AG_BACKEND_KIND_FORCE32 = 0x7fffffff /* keeps the enum 32 bits wide as it grows */
} ag_backend_kind;

typedef struct ag_backend_info {
  size_t struct_size; /* in: sizeof(ag_backend_info) */
  ag_backend_kind kind;
  const char* name; /* "cuda", "hip", "level_zero", "cpu"; valid for the process lifetime */
  int available;    /* 1 when the backend loaded and has at least one device */
  int device_count;
  const char* library; /* the library loaded or last tried; "" for the CPU */
  const char* reason;  /* why it is unavailable; "" when available */
  /* Appended after the first version (first_version_size: up to `reason`): */
  const char* label; /* "CUDA", "HIP", "Level Zero", "CPU"; valid for the process lifetime */
} ag_backend_info;

/* Every backend anygpu knows, available or not, in device order. */
AG_API ag_result agBackendGetCount(int* count);
AG_API ag_result agBackendGetInfo(int index, ag_backend_info* info);

/* ------------------------------------------------------------------------------------------------
 * Devices
 * ---------------------------------------------------------------------------------------------- */
typedef struct ag_device_properties {
  size_t struct_size; /* in: sizeof(ag_device_properties) */
  char name[256];
  char vendor[64];
  ag_backend_kind backend;
  char architecture[64]; /* "sm_90", "gfx90a:xnack-", "x86_64-linux-gnu", ... */
  uint64_t total_memory; /* bytes */
  int compute_units;     /* SMs, CUs, EUs or CPU worker threads */
  int max_threads_per_block;
  int max_block_dim[3];
  int max_grid_dim[3];
  uint64_t shared_memory_per_block; /* bytes of static plus dynamic shared memory a block may use */
  int warp_size;                    /* warp, wavefront or sub-group width; 32 on the CPU */
  int ordinal;                      /* this device's ordinal */
  /* Appended after the first version (first_version_size: up to `ordinal`): */
  int compute_capability_major; /* CUDA's and HIP's; 0 on Level Zero and the CPU */
  int compute_capability_minor;
  int pci_domain_id; /* -1 where there is no PCI device or the driver does not say */
  int pci_bus_id;
  int pci_device_id;
  unsigned char uuid[16];    /* the driver's device UUID; all zero where it gives none */
  int clock_rate_khz;        /* peak core clock; 0 where unknown */
  int memory_bus_width_bits; /* 0 where unknown */
  int registers_per_block;   /* 0 where there is no register file (the CPU) */
  uint64_t shared_memory_per_block_optin; /* the most a kernel may opt in to; >= the default */
  uint64_t l2_cache_bytes;                /* 0 where unknown */
  int managed_memory;                     /* the driver can allocate memory host and device share */
  int concurrent_managed_access;          /* host and device may touch managed memory at once */
  int stream_ordered_allocation; /* agMemAllocAsync and the pools use the driver's own allocator
                                    (CUDA, HIP); 0: anygpu's pool serves them (they work alike) */
  int host_functions;            /* agLaunchHostFunc works: 1 on every device */
  int driver_version; /* cuDriverGetVersion's, hipDriverGetVersion's, the Level Zero API version
                         (major << 16 | minor); anygpu's (agGetVersion) on the CPU */
} ag_device_properties;

AG_API ag_result agDeviceGetCount(int* count);
/* Device 0 is the best one: GPUs by backend (CUDA, HIP, Level Zero), then the CPU. */
AG_API ag_result agDeviceGet(int ordinal, ag_device* device);
AG_API ag_result agDeviceGetProperties(ag_device device, ag_device_properties* properties);
/* Waits until all work on all of the device's streams has finished. */
AG_API ag_result agDeviceSynchronize(ag_device device);

/* ------------------------------------------------------------------------------------------------
 * Memory
 *
 * Sizes are in bytes and must be > 0. Device pointers passed to copies and memset must lie, with
 * their whole range, inside an allocation made by agMemAlloc or agMemAllocHost on that device;
 * otherwise AG_ERROR_INVALID_ADDRESS. Host pointers must be non-null. agMemFree waits for the
 * device's pending work first, as cuMemFree does.
 * ---------------------------------------------------------------------------------------------- */
AG_API ag_result agMemAlloc(ag_device device, size_t bytes, void** device_ptr);
AG_API ag_result agMemFree(ag_device device, void* device_ptr);
/* Page-locked host memory the device can reach (pinned). */
AG_API ag_result agMemAllocHost(ag_device device, size_t bytes, void** host_ptr);
AG_API ag_result agMemFreeHost(ag_device device, void* host_ptr);
AG_API ag_result agMemGetInfo(ag_device device, size_t* free_bytes, size_t* total_bytes);

/* Managed memory (cuMemAllocManaged, hipMallocManaged, Level Zero shared allocations): one pointer
 * that the host, and the device's kernels and copies, all use; the driver moves its pages to where
 * they are touched. On the CPU device it is ordinary host memory. AG_ERROR_NOT_SUPPORTED where the
 * device's `managed_memory` property is 0. agMemFree frees it (after waiting for the device). Where
 * `concurrent_managed_access` is 0 the host must not touch it while device work that may use it is
 * pending: synchronise first, as in CUDA. */
typedef enum ag_mem_attach_flags {
  AG_MEM_ATTACH_GLOBAL = 0x1, /* any stream may use it (CUDA's CU_MEM_ATTACH_GLOBAL) */
  AG_MEM_ATTACH_FLAGS_FORCE32 = 0x7fffffff
} ag_mem_attach_flags;
/* `flags`: AG_MEM_ATTACH_GLOBAL; anything else is AG_ERROR_INVALID_VALUE. */
AG_API ag_result agMemAllocManaged(ag_device device, size_t bytes, unsigned int flags,
                                   void** pointer);
/* Moves [pointer, pointer + bytes), inside one managed allocation, to `destination` (the
 * allocation's device) or with NULL to the host, in order on `stream` (a stream of the
 * allocation's device). A hint: where the driver cannot move pages (the CPU device; Level Zero
 * towards the host) it succeeds and moves nothing. */
AG_API ag_result agMemPrefetchAsync(const void* pointer, size_t bytes, ag_device destination,
                                    ag_stream stream);
typedef enum ag_mem_advice { /* CUDA's CUmem_advise values */
                             AG_MEM_ADVISE_SET_READ_MOSTLY = 1,
                             AG_MEM_ADVISE_UNSET_READ_MOSTLY = 2,
                             AG_MEM_ADVISE_SET_PREFERRED_LOCATION = 3,
                             AG_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 4,
                             AG_MEM_ADVISE_SET_ACCESSED_BY = 5,
                             AG_MEM_ADVISE_UNSET_ACCESSED_BY = 6,
                             AG_MEM_ADVICE_FORCE32 = 0x7fffffff
} ag_mem_advice;
/* Advice on how [pointer, pointer + bytes), inside one managed allocation, will be used, by
 * `device` (the allocation's device) or with NULL by the host. A hint, as in CUDA: where the driver
 * has no such advice it succeeds and changes nothing. */
AG_API ag_result agMemAdvise(const void* pointer, size_t bytes, ag_mem_advice advice,
                             ag_device device);

/* Synchronous forms: done when the call returns. They are not ordered with work queued on streams
 * (as with CUDA's non-blocking streams): synchronize a stream first when it uses the same memory.
 */
AG_API ag_result agMemcpyHtoD(ag_device device, void* dst_device, const void* src_host,
                              size_t bytes);
AG_API ag_result agMemcpyDtoH(ag_device device, void* dst_host, const void* src_device,
                              size_t bytes);
AG_API ag_result agMemcpyDtoD(ag_device device, void* dst_device, const void* src_device,
                              size_t bytes);
/* The direction and the device from the pointers, as CUDA's cuMemcpy with unified addressing:
 * device memory anygpu allocated is recognised by its device; any other pointer is host memory.
 * One side must be device memory, and both device sides of one device. */
AG_API ag_result agMemcpy(void* dst, const void* src, size_t bytes);
AG_API ag_result agMemsetD8(ag_device device, void* dst_device, unsigned char value, size_t bytes);
/* `count` 16- or 32-bit elements set to `value`; dst_device aligned to the element's size. */
AG_API ag_result agMemsetD16(ag_device device, void* dst_device, unsigned short value,
                             size_t count);
AG_API ag_result agMemsetD32(ag_device device, void* dst_device, unsigned int value, size_t count);

/* Asynchronous forms: ordered on `stream`. The host memory must stay valid until the stream has
 * passed the copy. `stream` must not be NULL. */
AG_API ag_result agMemcpyHtoDAsync(void* dst_device, const void* src_host, size_t bytes,
                                   ag_stream stream);
AG_API ag_result agMemcpyDtoHAsync(void* dst_host, const void* src_device, size_t bytes,
                                   ag_stream stream);
AG_API ag_result agMemcpyDtoDAsync(void* dst_device, const void* src_device, size_t bytes,
                                   ag_stream stream);
AG_API ag_result agMemcpyAsync(void* dst, const void* src, size_t bytes, ag_stream stream);
AG_API ag_result agMemsetD8Async(void* dst_device, unsigned char value, size_t bytes,
                                 ag_stream stream);
AG_API ag_result agMemsetD16Async(void* dst_device, unsigned short value, size_t count,
                                  ag_stream stream);
AG_API ag_result agMemsetD32Async(void* dst_device, unsigned int value, size_t count,
                                  ag_stream stream);

/* Stream-ordered allocation (cuMemAllocAsync, cudaMallocAsync): memory that is the stream's to use
 * from the allocation on, and that agMemFreeAsync gives back at that point of a stream's work. The
 * pointer is returned at once; work queued before the allocation must not use it, nor work queued
 * after the free. A pool keeps freed blocks and gives them to later allocations, on the same
 * stream at once and on another stream once the free has completed (no stream is made to wait for
 * another). Each device has a default pool; agMemPoolCreate makes more. */
typedef struct ag_mem_pool_props {
  size_t struct_size; /* in: sizeof(ag_mem_pool_props) */
  /* Bytes of freed blocks the pool keeps; beyond it, blocks whose free has completed go back to
   * the device at the next agMemFreeAsync. UINT64_MAX (a new pool's and the default pool's) keeps
   * them all until agMemPoolTrimTo, or until an allocation would otherwise fail. */
  uint64_t release_threshold;
} ag_mem_pool_props;
/* From the stream's device's default pool. */
AG_API ag_result agMemAllocAsync(void** pointer, size_t bytes, ag_stream stream);
/* From `pool`, which must be of the stream's device. */
AG_API ag_result agMemAllocFromPoolAsync(void** pointer, size_t bytes, ag_mem_pool pool,
                                         ag_stream stream);
/* Gives `pointer` (from agMemAllocAsync or agMemAllocFromPoolAsync, on any stream of its device)
 * back to its pool once the stream's earlier work is done. agMemFree of such a pointer waits for
 * the device first and gives it back at once; either free twice is AG_ERROR_INVALID_ADDRESS. */
AG_API ag_result agMemFreeAsync(void* pointer, ag_stream stream);
/* `props` may be NULL: the defaults. */
AG_API ag_result agMemPoolCreate(ag_device device, const ag_mem_pool_props* props,
                                 ag_mem_pool* pool);
/* Refused (AG_ERROR_INVALID_VALUE) while allocations of the pool are not freed, and for a default
 * pool; waits for the pending frees, then gives every block back to the device. */
AG_API ag_result agMemPoolDestroy(ag_mem_pool pool);
AG_API ag_result agDeviceGetDefaultMemPool(ag_device device, ag_mem_pool* pool);
/* Gives blocks whose free has completed back to the device until the pool keeps at most
 * `min_bytes_to_keep` (cuMemPoolTrimTo). */
AG_API ag_result agMemPoolTrimTo(ag_mem_pool pool, size_t min_bytes_to_keep);
AG_API ag_result agMemPoolSetReleaseThreshold(ag_mem_pool pool, uint64_t bytes);
/* Bytes the pool holds: handed out (`used`) and kept for reuse (`reserved` counts both). Either
 * pointer may be NULL. */
AG_API ag_result agMemPoolGetUsage(ag_mem_pool pool, uint64_t* used, uint64_t* reserved);

/* Pitched memory (cuMemAllocPitch, cudaMallocPitch): `height` rows of `width_bytes`, each row
 * starting *pitch bytes after the one before. *pitch is width_bytes rounded up to
 * AG_PITCH_ALIGNMENT, so that every row starts as aligned as the allocation; the allocation is
 * *pitch * height bytes and is freed with agMemFree. */
#define AG_PITCH_ALIGNMENT 512
AG_API ag_result agMemAllocPitch(ag_device device, size_t width_bytes, size_t height,
                                 void** device_ptr, size_t* pitch);
/* `height` rows of `width_bytes` from src, a row every src_pitch bytes, to dst, a row every
 * dst_pitch bytes (cudaMemcpy2D with cudaMemcpyDefault): the direction and device from the
 * pointers, as agMemcpy. A pitch may not be less than width_bytes; every row must lie inside the
 * memory it names. width_bytes or height 0 copies nothing and succeeds, as CUDA does. */
AG_API ag_result agMemcpy2D(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                            size_t width_bytes, size_t height);
AG_API ag_result agMemcpy2DAsync(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                                 size_t width_bytes, size_t height, ag_stream stream);

/* Memory seen as slices of rows (cudaPitchedPtr): a row every `pitch` bytes, a slice every
 * `pitch * height` bytes. */
typedef struct ag_pitched_ptr {
  void* ptr;
  size_t pitch;
  size_t height; /* rows in a slice; may be 0 when a copy's depth is 1 */
} ag_pitched_ptr;

/* A box of `width_bytes` x `height` rows x `depth` slices, from (src_x_bytes, src_y, src_z) of src
 * to (dst_x_bytes, dst_y, dst_z) of dst: cudaMemcpy3D for linear memory. */
typedef struct ag_memcpy_3d {
  size_t struct_size; /* in: sizeof(ag_memcpy_3d) */
  ag_pitched_ptr src;
  size_t src_x_bytes; /* the box's origin in src: bytes into a row, row, slice */
  size_t src_y;
  size_t src_z;
  ag_pitched_ptr dst;
  size_t dst_x_bytes;
  size_t dst_y;
  size_t dst_z;
  size_t width_bytes; /* the box: bytes of a row, rows, slices */
  size_t height;
  size_t depth;
} ag_memcpy_3d;
AG_API ag_result agMemcpy3D(const ag_memcpy_3d* copy);
AG_API ag_result agMemcpy3DAsync(const ag_memcpy_3d* copy, ag_stream stream);

/* ------------------------------------------------------------------------------------------------
 * Several devices
 *
 * Peer access lets one device's kernels use memory another device allocated (CUDA's and HIP's peer
 * access; Level Zero devices of one driver). Only GPUs of one backend can be peers. agMemcpyPeer
 * copies between any two devices, of one backend or of two: directly where the driver can, else
 * through pinned host memory, and with a single copy where one side is the CPU device (its memory
 * is the host's).
 * ---------------------------------------------------------------------------------------------- */
/* `*can_access` is 1 where agDeviceEnablePeerAccess(device, peer) can give `device`'s kernels
 * access to `peer`'s memory, else 0: always 0 for one device with itself and for devices of two
 * backends. */
AG_API ag_result agDeviceCanAccessPeer(ag_device device, ag_device peer, int* can_access);
/* From now on `device`'s kernels and copies may use memory allocated on `peer` (one direction, as
 * cuCtxEnablePeerAccess). `flags` must be 0. Enabling it again succeeds and changes nothing.
 * AG_ERROR_NOT_SUPPORTED where agDeviceCanAccessPeer says 0; AG_ERROR_INVALID_VALUE for one
 * device with itself. */
AG_API ag_result agDeviceEnablePeerAccess(ag_device device, ag_device peer, unsigned int flags);
/* Withdraws that access; AG_ERROR_INVALID_VALUE where it is not enabled. */
AG_API ag_result agDeviceDisablePeerAccess(ag_device device, ag_device peer);
/* Copies `bytes` from `src`, device memory of `src_device`, to `dst`, device memory of
 * `dst_device` (each range inside one allocation of its device; the two devices may be one).
 * Peer access need not be enabled. Done when it returns, and not ordered with work queued on
 * streams, like agMemcpyDtoD. agMemcpy and agMemcpyAsync take such pointers too. */
AG_API ag_result agMemcpyPeer(void* dst, ag_device dst_device, const void* src,
                              ag_device src_device, size_t bytes);
/* Ordered on `stream`, a stream of either device (the other device's streams are not waited for,
 * as in CUDA). Where the copy goes through host memory it also waits for the stream's earlier
 * work and is done when it returns. */
AG_API ag_result agMemcpyPeerAsync(void* dst, ag_device dst_device, const void* src,
                                   ag_device src_device, size_t bytes, ag_stream stream);

/* ------------------------------------------------------------------------------------------------
 * Streams: in-order asynchronous queues. Streams of one device run independently of each other.
 * ---------------------------------------------------------------------------------------------- */
AG_API ag_result agStreamCreate(ag_device device, unsigned int flags, ag_stream* stream);
/* The priorities the device's streams may have, CUDA's way: lower numbers run first, `greatest`
 * <= `least`, and 0, agStreamCreate's, is the least urgent. Both 0 where the device has no
 * priorities (the CPU device). Either pointer may be NULL. */
AG_API ag_result agDeviceGetStreamPriorityRange(ag_device device, int* least, int* greatest);
/* agStreamCreate with a priority; one outside the device's range is clamped to it (as in CUDA). */
AG_API ag_result agStreamCreateWithPriority(ag_device device, unsigned int flags, int priority,
                                            ag_stream* stream);
/* The stream's priority, as clamped at its creation. */
AG_API ag_result agStreamGetPriority(ag_stream stream, int* priority);
/* Waits for the stream's pending work, then destroys it. */
AG_API ag_result agStreamDestroy(ag_stream stream);
AG_API ag_result agStreamSynchronize(ag_stream stream);
/* AG_SUCCESS when all work is done, AG_ERROR_NOT_READY otherwise. */
AG_API ag_result agStreamQuery(ag_stream stream);
/* The device the stream belongs to. */
AG_API ag_result agStreamGetDevice(ag_stream stream, ag_device* device);
/* Work submitted to `stream` after this call waits until `event`'s latest record has completed.
 * The event must belong to a device of the same backend. */
AG_API ag_result agStreamWaitEvent(ag_stream stream, ag_event event, unsigned int flags);

/* A function of the host, queued on a stream (cuLaunchHostFunc, hipLaunchHostFunc). */
typedef void (*ag_host_fn)(void* user_data);
/* Calls `fn(user_data)` on a thread of anygpu's once the stream's earlier work has completed; the
 * stream's later work waits until it returns. A host function must not wait for work of its own
 * device, nor use its own stream: there agStreamSynchronize, agEventSynchronize,
 * agDeviceSynchronize, agStreamDestroy, agMemFree, agMemFreeHost and agModuleUnload on that
 * device, and every call naming that stream, return AG_ERROR_NOT_PERMITTED instead of waiting
 * forever. Other calls (work queued on other streams, waits on other devices) are allowed on the
 * CPU and Level Zero devices; CUDA and HIP forbid calls into their driver there (CUDA's
 * CUDA_ERROR_NOT_PERMITTED is AG_ERROR_NOT_PERMITTED), so a portable host function makes no call
 * that reaches a device. */
AG_API ag_result agLaunchHostFunc(ag_stream stream, ag_host_fn fn, void* user_data);

/* ------------------------------------------------------------------------------------------------
 * Native handles: the driver's own objects behind anygpu's, so that vendor libraries (cuBLAS,
 * NCCL, rocBLAS, oneMKL) run on anygpu's streams and anygpu runs inside a program that already
 * owns a context. anygpu keeps owning what it hands out: do not destroy it, nor use it after the
 * anygpu object is destroyed. The CPU device has no native objects: AG_ERROR_NOT_SUPPORTED.
 * ---------------------------------------------------------------------------------------------- */
typedef struct ag_native_device {
  size_t struct_size; /* in: sizeof(ag_native_device) */
  ag_backend_kind backend;
  int ordinal;   /* CUdevice (CUDA), hipDevice_t (HIP); -1 on Level Zero */
  void* context; /* CUDA: the device's primary CUcontext, retained by anygpu; Level Zero: the
                    ze_context_handle_t anygpu made for the driver; HIP: NULL */
  void* device;  /* Level Zero: ze_device_handle_t; NULL elsewhere */
  void* driver;  /* Level Zero: ze_driver_handle_t; NULL elsewhere */
} ag_native_device;
AG_API ag_result agDeviceGetNativeHandle(ag_device device, ag_native_device* native);
/* CUstream, hipStream_t, or on Level Zero the stream's in-order immediate command list
 * (ze_command_list_handle_t). Work the application queues on it is ordered with anygpu's work on
 * the stream; on Level Zero only one thread at a time may append to the list. */
AG_API ag_result agStreamGetNativeHandle(ag_stream stream, void** native);
/* CUevent, hipEvent_t, ze_event_handle_t. */
AG_API ag_result agEventGetNativeHandle(ag_event event, void** native);
/* An anygpu stream over a stream the application made: a CUstream of the device's primary
 * context, a hipStream_t of the device, or an in-order immediate command list of the device in
 * anygpu's context (agDeviceGetNativeHandle). CUDA and HIP streams are checked against the
 * device (AG_ERROR_INVALID_VALUE); Level Zero cannot tell, so there the caller vouches for it.
 * NULL (a default stream) is AG_ERROR_INVALID_VALUE. agStreamDestroy waits for the stream's work
 * and leaves the native stream to its owner, who destroys it after. `flags` must be 0. */
AG_API ag_result agStreamCreateFromNative(ag_device device, void* native_stream, unsigned int flags,
                                          ag_stream* stream);

/* ------------------------------------------------------------------------------------------------
 * Events: markers in a stream, with timestamps.
 * ---------------------------------------------------------------------------------------------- */
typedef enum ag_event_flags {
  AG_EVENT_DEFAULT = 0,
  AG_EVENT_BLOCKING_SYNC = 0x1,       /* agEventSynchronize sleeps instead of spinning */
  AG_EVENT_DISABLE_TIMING = 0x2,      /* no timestamp: cheaper; agEventElapsedTime refuses it */
  AG_EVENT_FLAGS_FORCE32 = 0x7fffffff /* keeps the enum 32 bits wide as it grows */
} ag_event_flags;
/* `flags`: AG_EVENT_* bits (the same values as CUDA's CU_EVENT_*); others are
 * AG_ERROR_INVALID_VALUE. */
AG_API ag_result agEventCreate(ag_device device, unsigned int flags, ag_event* event);
AG_API ag_result agEventDestroy(ag_event event);
/* Records the event at the current end of `stream` (a stream of the event's device). */
AG_API ag_result agEventRecord(ag_event event, ag_stream stream);
AG_API ag_result agEventSynchronize(ag_event event);
/* AG_SUCCESS when the latest record has completed (or the event was never recorded),
 * AG_ERROR_NOT_READY otherwise. */
AG_API ag_result agEventQuery(ag_event event);
/* Milliseconds between two completed records. AG_ERROR_NOT_READY if either is pending,
 * AG_ERROR_INVALID_VALUE if either was never recorded or was created with
 * AG_EVENT_DISABLE_TIMING. */
AG_API ag_result agEventElapsedTime(float* milliseconds, ag_event start, ag_event end);

/* ------------------------------------------------------------------------------------------------
 * Modules and functions
 * ---------------------------------------------------------------------------------------------- */

/* Loads a code object for `device`. The format is detected from the bytes: on the CPU, a host code
 * object (an ELF shared object for this machine built with anygpu/kernel.h). The image is copied;
 * the caller may free it after the call. Every kernel is loaded here, so that no later call waits
 * for a load; on CUDA with lazy loading (the driver's default) that load may wait for work running
 * on the device, so load modules before launching a kernel that waits for the host. */
AG_API ag_result agModuleLoadData(ag_device device, const void* image, size_t bytes,
                                  ag_module* module);
/* The same from a file, which must be a regular file of at most 1 GiB: a directory, device, FIFO
 * or socket is AG_ERROR_FILE_NOT_FOUND (the detail says which), a larger file
 * AG_ERROR_INVALID_IMAGE, and running out of file descriptors AG_ERROR_OUT_OF_RESOURCES. */
AG_API ag_result agModuleLoad(ag_device device, const char* path, ag_module* module);
/* Unloads; the module's functions become invalid at once. Launches of them still queued run
 * to the end (the code stays loaded until they have): the CPU device waits for none of them, the
 * GPU backends wait for the device's pending work first. */
AG_API ag_result agModuleUnload(ag_module module);
/* The kernel `name` names, one handle per kernel. An exact code-object name wins (AG_KERNEL and
 * extern "C" kernels, mangled names); a C++ kernel is also found by its plain name when no other
 * kernel has it ("reduce"), by its name with template arguments or namespaces ("reduce<256>",
 * "ns::scale<float>") and by its demangled signature ("reduce<256>(float*, float*, unsigned
 * int)"). AG_ERROR_INVALID_VALUE when `name` names several kernels, AG_ERROR_NOT_FOUND when none;
 * the detail lists the candidates, or the module's kernels. docs/runtime-core.md has the rules. */
AG_API ag_result agModuleGetFunction(ag_module module, const char* name, ag_function* function);
/* The module-scope variable `name` (CUDA's __device__ and __constant__ variables, as
 * cuModuleGetGlobal gives them): its device address in `*device_ptr` and its size in `*bytes`.
 * Either output may be NULL. The address is device memory of the module's device, valid while the
 * module is loaded: read and write it with agMemcpy* (cudaMemcpyToSymbol ports as this lookup and
 * agMemcpyHtoD). `name` is the symbol's name: a variable in a namespace has its mangled name
 * ("_ZN2ns7counterE"). AG_ERROR_NOT_FOUND when the module has no such variable (an empty name
 * included). On the CPU device, modules loaded from identical images share their variables. */
AG_API ag_result agModuleGetGlobal(ag_module module, const char* name, void** device_ptr,
                                   size_t* bytes);

typedef enum ag_param_kind {
  AG_PARAM_INTEGER = 1, /* signed or unsigned integer, char and bool included */
  AG_PARAM_FLOAT = 2,   /* float or double */
  AG_PARAM_POINTER = 3,
  AG_PARAM_STRUCT = 4,               /* any other object passed by value */
  AG_PARAM_KIND_FORCE32 = 0x7fffffff /* keeps the enum 32 bits wide as it grows */
} ag_param_kind;

typedef struct ag_param_info {
  size_t struct_size; /* in: sizeof(ag_param_info) */
  ag_param_kind kind;
  size_t size;      /* bytes */
  size_t alignment; /* bytes */
  size_t offset;    /* offset in a packed argument buffer laid out by C rules */
} ag_param_info;

/* The kernel's parameter layout, where the code object records it (host code objects and the GPU
 * code objects anygpu_add_kernels builds do). AG_ERROR_NOT_SUPPORTED when it records none (PTX or
 * a cubin built elsewhere, on a driver that cannot tell): then the layout is unknown, not empty. */
AG_API ag_result agFunctionGetParamCount(ag_function function, int* count);
AG_API ag_result agFunctionGetParamInfo(ag_function function, int index, ag_param_info* info);

/* What the compiled kernel needs, as cuFuncGetAttribute tells it. */
typedef struct ag_function_attributes {
  size_t struct_size;           /* in: sizeof(ag_function_attributes) */
  int max_threads_per_block;    /* the most a block of this kernel may have: the device's, or fewer
                                   where its registers or a required work-group size limit it */
  int registers_per_thread;     /* 0 where the driver does not say (the CPU has no register file) */
  uint64_t static_shared_bytes; /* shared memory the kernel declares with a fixed size */
  uint64_t max_dynamic_shared_bytes; /* the most dynamic shared memory a launch may ask for now:
                                        the device's default less the static part, or what
                                        agFunctionSetMaxDynamicShared set */
  uint64_t const_bytes;              /* constant memory the kernel uses; 0 where unknown */
  uint64_t local_bytes_per_thread;   /* private (local, spill) memory per thread */
  int binary_version; /* the architecture the code was built for, major * 10 + minor (90 for
                         sm_90) where the driver says; 0 elsewhere */
} ag_function_attributes;

AG_API ag_result agFunctionGetAttributes(ag_function function, ag_function_attributes* attributes);
/* Lets launches of `function` ask for up to `bytes` of dynamic shared memory (cuFuncSetAttribute
 * with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES): more than the device's default, up to
 * ag_device_properties.shared_memory_per_block_optin less the kernel's static shared memory, or
 * less, which later launches must keep to. AG_ERROR_INVALID_VALUE above that, nothing changed. */
AG_API ag_result agFunctionSetMaxDynamicShared(ag_function function, size_t bytes);

/* How many blocks of `block_size` threads, each with `dynamic_shared_bytes` of dynamic shared
 * memory, one compute unit (SM, CU) holds at once: the driver's answer on CUDA and HIP; on Level
 * Zero and the CPU, where the driver has no such call, one block per compute unit (the CPU runs
 * one block per worker thread). AG_ERROR_INVALID_VALUE when block_size is not in 1 to the
 * function's max_threads_per_block or the shared memory is more than a launch may ask for. */
AG_API ag_result agOccupancyMaxActiveBlocksPerMultiprocessor(ag_function function, int block_size,
                                                             size_t dynamic_shared_bytes,
                                                             int* blocks);
/* The block size that keeps the most threads resident with `dynamic_shared_bytes` per block, the
 * largest such when several do, at most `block_size_limit` (0: no limit), and the smallest grid
 * that fills the device with it (cuOccupancyMaxPotentialBlockSize with a fixed shared size). */
AG_API ag_result agOccupancyMaxPotentialBlockSize(ag_function function, size_t dynamic_shared_bytes,
                                                  int block_size_limit, int* min_grid_size,
                                                  int* block_size);

/* ------------------------------------------------------------------------------------------------
 * Launch
 * ---------------------------------------------------------------------------------------------- */

/* Launches `function` on a grid of grid_x*grid_y*grid_z blocks of block_x*block_y*block_z threads,
 * as cuLaunchKernel does. `params[i]` points at the value of parameter i; the values are copied
 * before the call returns. `extra` must be NULL. With `stream` NULL the launch runs on the
 * function's device and the call returns when it has finished; otherwise it is queued on `stream`,
 * which must belong to the function's device. Checked against the device limits:
 * AG_ERROR_INVALID_CONFIGURATION when a dimension is 0 or too large, the block has more threads
 * than the function's max_threads_per_block, or the dynamic shared memory exceeds the function's
 * max_dynamic_shared_bytes (agFunctionGetAttributes; agFunctionSetMaxDynamicShared raises it).
 * `params` carries no count: anygpu reads as many entries as the kernel has parameters, so an
 * array shorter than that is read past its end, which no C ABI without a count can detect (CUDA's
 * cuLaunchKernel has the same contract). agLaunchKernelChecked takes the count and refuses a
 * mismatch; the C++ layer's typed launch checks it too. */
AG_API ag_result agLaunchKernel(ag_function function, unsigned int grid_x, unsigned int grid_y,
                                unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                unsigned int block_z, unsigned int shared_memory_bytes,
                                ag_stream stream, void** params, void** extra);

/* agLaunchKernel with the number of entries of `params`: AG_ERROR_INVALID_VALUE, before anything
 * is read from `params`, when it differs from the kernel's parameter count;
 * AG_ERROR_NOT_SUPPORTED when the code object records no parameter layout, so the count cannot be
 * checked (agFunctionGetParamCount says the same). */
AG_API ag_result agLaunchKernelChecked(ag_function function, unsigned int grid_x,
                                       unsigned int grid_y, unsigned int grid_z,
                                       unsigned int block_x, unsigned int block_y,
                                       unsigned int block_z, unsigned int shared_memory_bytes,
                                       ag_stream stream, void** params, size_t param_count,
                                       void** extra);

/* ------------------------------------------------------------------------------------------------
 * Run-time compilation (docs/runtime-compilation.md)
 * ---------------------------------------------------------------------------------------------- */
typedef struct ag_program_s* ag_program;

/* A program: kernel source in the language anygpu_add_kernels takes. `name` says which: a name
 * ending in ".cu" (or NULL, which is "program.cu") is CUDA source, anygpu/cuda.h included first;
 * any other name is C++ that includes anygpu/kernel.h or anygpu/cuda.h itself. anygpu's headers
 * (and CUDA's header names such as cuda_runtime.h) are built into the library. The application's
 * own headers come as strings: `headers[i]` is the text the source includes as `header_names[i]`
 * (num_headers of each; both NULL when 0). Every string is copied. */
AG_API ag_result agProgramCreate(const char* source, const char* name, int num_headers,
                                 const char* const* headers, const char* const* header_names,
                                 ag_program* program);
/* A compile of the program running on another thread is waited for. */
AG_API ag_result agProgramDestroy(ag_program program);
/* Compiles the program for `device` with its backend's compiler, or takes the result from the
 * cache on disk. Options every backend understands: -D<name>[=<value>] (or -D <name>...),
 * -I<directory> (headers on disk), -O0 to -O3 (default -O3),
 * --use_fast_math (anygpu_add_kernels' FAST_MATH). -X<backend>=<option> passes <option> to that
 * backend's compiler only (-Xcuda=--maxrregcount=32); the backend names are ag_backend_info.name.
 * Anything else is AG_ERROR_INVALID_VALUE. A program whose result depends on files on disk (-I,
 * or a compiler option that reads files) or on this machine (-Xcpu=-march=native) is not
 * cached. A source that does not compile is
 * AG_ERROR_COMPILE_FAILED, the first error line in the detail and the whole log in
 * agProgramGetLog; a backend without a compiler is AG_ERROR_NOT_SUPPORTED naming what to install.
 * The program keeps the image and log of its last compile. */
AG_API ag_result agProgramCompile(ag_program program, ag_device device, int num_options,
                                  const char* const* options);
/* The log of the last compile (warnings too), NUL-terminated; "" before any. With `log` NULL,
 * `*size` gets the bytes needed (the NUL included); otherwise `*size` is the buffer's size, and one
 * too small is AG_ERROR_INVALID_VALUE with nothing written. */
AG_API ag_result agProgramGetLog(ag_program program, char* log, size_t* size);
/* The code object of the last compile, when it succeeded, which agModuleLoadData takes for the
 * device it was compiled for (PTX text on CUDA, or a cubin where the driver takes no PTX this NVRTC
 * writes; an AMD code object on HIP, SPIR-V on Level Zero, a host code object on the CPU). `*size`
 * as for agProgramGetLog; AG_ERROR_INVALID_VALUE when the last compile failed or none was made. */
AG_API ag_result agProgramGetImage(ag_program program, void* image, size_t* size);
/* agProgramCreate (as "program.cu"), agProgramCompile and agModuleLoadData in one call. On
 * AG_ERROR_COMPILE_FAILED the detail holds the first error line and the log goes to anygpu's log
 * (ANYGPU_LOG=warn). */
AG_API ag_result agModuleLoadSource(ag_device device, const char* source, int num_options,
                                    const char* const* options, ag_module* module);

typedef struct ag_compiler_info {
  size_t struct_size;   /* in: sizeof(ag_compiler_info) */
  int available;        /* 1 when the compiler was found and loaded */
  const char* compiler; /* "NVRTC 13.0 (/usr/local/cuda/lib64/libnvrtc.so.13)"; "" if none */
  const char* reason;   /* why not, naming what to install; "" when available */
} ag_compiler_info;

/* The run-time compiler of backend `index` (as agBackendGetInfo counts), found and loaded on the
 * first call. Strings are valid for the process lifetime. */
AG_API ag_result agBackendGetCompilerInfo(int index, ag_compiler_info* info);

typedef struct ag_compile_cache_info {
  size_t struct_size;    /* in: sizeof(ag_compile_cache_info) */
  int enabled;           /* 0 with ANYGPU_CACHE=0, or when the directory cannot be made */
  const char* directory; /* $ANYGPU_CACHE_DIR, else $XDG_CACHE_HOME/anygpu, else ~/.cache/anygpu */
  const char* reason;    /* why it is disabled; "" when enabled */
  uint64_t entries;
  uint64_t bytes;
  uint64_t max_bytes; /* least recently used entries go beyond it (ANYGPU_CACHE_MAX_MB) */
} ag_compile_cache_info;

AG_API ag_result agCompileCacheGetInfo(ag_compile_cache_info* info);
/* Removes every entry (other processes' entries being written stay theirs). */
AG_API ag_result agCompileCacheClear(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ANYGPU_ANYGPU_H */
