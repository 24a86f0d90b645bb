/* A three-stream pipeline with the anygpu C API: the data goes through in chunks, and each chunk's
 * copy-in, saxpy and copy-out are queued on one of three streams, so one chunk's copies overlap
 * other chunks' kernels. Host memory is pinned (agMemAllocHost); each chunk's device memory is
 * allocated and freed in stream order (agMemAllocAsync, agMemFreeAsync); a host function on each
 * stream counts the chunks done (agLaunchHostFunc). The same work runs first on one stream, and
 * the program prints both times and the overlap the three streams achieved, checks every element
 * and prints OK; it exits non-zero otherwise.
 *   pipeline [elements] [chunks]     (defaults 16 Mi and 16) */
#include <anygpu/anygpu.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "anygpu_image_pipeline.h"

#define STREAMS 3

#define CHECK(call)                                                 \
  do {                                                              \
    ag_result result_ = (call);                                     \
    if (result_ != AG_SUCCESS) {                                    \
      const char* detail_ = "";                                     \
      agGetLastErrorDetail(&detail_);                               \
      fprintf(stderr, "pipeline: %s failed: %s\n", #call, detail_); \
      exit(1);                                                      \
    }                                                               \
  } while (0)

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* What the host functions update: they run on anygpu's threads and make no anygpu call. */
static atomic_int chunks_done;

static void chunk_done(void* user_data) {
  (void)user_data;
  atomic_fetch_add(&chunks_done, 1);
}

struct pipeline {
  ag_function saxpy;
  int n, chunks;
  float a;
  float *x, *y; /* pinned: y is updated in place */
};

/* Queues every chunk on `count` streams (chunk c on stream c % count) and waits for all of them. */
static double run(const struct pipeline* p, ag_stream* streams, int count) {
  const double start = now_ms();
  const int per_chunk = (p->n + p->chunks - 1) / p->chunks;
  for (int c = 0; c < p->chunks; ++c) {
    ag_stream s = streams[c % count];
    int first = c * per_chunk;
    int length = p->n - first < per_chunk ? p->n - first : per_chunk;
    if (length <= 0) break;
    size_t bytes = (size_t)length * sizeof(float);
    void *dx, *dy;
    CHECK(agMemAllocAsync(&dx, bytes, s));
    CHECK(agMemAllocAsync(&dy, bytes, s));
    CHECK(agMemcpyHtoDAsync(dx, p->x + first, bytes, s));
    CHECK(agMemcpyHtoDAsync(dy, p->y + first, bytes, s));
    void* params[] = {&length, (void*)&p->a, &dx, &dy};
    const unsigned block = 256, grid = (unsigned)((length + block - 1) / block);
    CHECK(agLaunchKernel(p->saxpy, grid, 1, 1, block, 1, 1, 0, s, params, NULL));
    CHECK(agMemcpyDtoHAsync(p->y + first, dy, bytes, s));
    CHECK(agMemFreeAsync(dx, s));
    CHECK(agMemFreeAsync(dy, s));
    CHECK(agLaunchHostFunc(s, chunk_done, NULL));
  }
  for (int i = 0; i < count; ++i) CHECK(agStreamSynchronize(streams[i]));
  return now_ms() - start;
}

/* y[i] after `rounds` saxpys from its start value. */
static float expected(const struct pipeline* p, int i, int rounds) {
  float y = (float)(i % 7);
  for (int r = 0; r < rounds; ++r) y = p->a * (float)(i % 1000) + y;
  return y;
}

int main(int argc, char** argv) {
  struct pipeline p = {
      NULL, argc > 1 ? atoi(argv[1]) : 16 << 20, argc > 2 ? atoi(argv[2]) : 16, 0.5f, NULL, NULL};
  if (p.n <= 0 || p.chunks <= 0 || p.chunks > p.n) {
    fprintf(stderr, "usage: pipeline [elements > 0] [chunks, 1 to elements]\n");
    return 2;
  }
  ag_device device;
  ag_device_properties props = {.struct_size = sizeof props};
  CHECK(agInit(0));
  CHECK(agDeviceGet(0, &device));
  CHECK(agDeviceGetProperties(device, &props));
  ag_module module;
  CHECK(agModuleLoadData(device, anygpu_image_pipeline, anygpu_image_pipeline_size, &module));
  CHECK(agModuleGetFunction(module, "saxpy", &p.saxpy));

  const size_t bytes = (size_t)p.n * sizeof(float);
  CHECK(agMemAllocHost(device, bytes, (void**)&p.x));
  CHECK(agMemAllocHost(device, bytes, (void**)&p.y));
  for (int i = 0; i < p.n; ++i) {
    p.x[i] = (float)(i % 1000);
    p.y[i] = (float)(i % 7);
  }
  ag_stream streams[STREAMS];
  for (int i = 0; i < STREAMS; ++i) CHECK(agStreamCreate(device, 0, &streams[i]));

  /* A first round on each stream makes the pools' blocks and the module's first launch, then one
   * round on one stream and one on three, each timed. */
  run(&p, streams, STREAMS);
  const double serial = run(&p, streams, 1);
  const double overlapped = run(&p, streams, STREAMS);

  int wrong = 0;
  for (int i = 0; i < p.n; ++i) {
    const float want = expected(&p, i, 3);
    if (p.y[i] != want) {
      if (wrong < 5) fprintf(stderr, "pipeline: y[%d] = %g, expected %g\n", i, p.y[i], want);
      ++wrong;
    }
  }
  const int done = atomic_load(&chunks_done);
  printf("device 0: %s (%s)\n", props.name, props.architecture);
  printf("%d elements in %d chunks: one stream %.2f ms, %d streams %.2f ms: overlap %.2fx\n", p.n,
         p.chunks, serial, STREAMS, overlapped, serial / overlapped);
  printf("host functions counted %d of %d chunks\n", done, 3 * p.chunks);

  for (int i = 0; i < STREAMS; ++i) CHECK(agStreamDestroy(streams[i]));
  CHECK(agMemFreeHost(device, p.x));
  CHECK(agMemFreeHost(device, p.y));
  CHECK(agModuleUnload(module));
  if (wrong || done != 3 * p.chunks) {
    printf("FAILED: %d of %d elements wrong, %d chunks counted\n", wrong, p.n, done);
    return 1;
  }
  printf("OK\n");
  return 0;
}
