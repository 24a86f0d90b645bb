// The compile cache's hit (shim/core/compile_cache.h): open the entry, read it, check its header
// and its SHA-256, hand the image and log over. For an image of 64 KiB and 1 MiB, in a cache of
// its own in a temporary directory (so the page cache holds it: this is the warm hit a second run
// of a program sees). Also the key and a store, for scale.
//   cmake --build --preset release --target anygpu_compile_cache_bench
//   build/release/bench/anygpu_compile_cache_bench
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "shim/core/compile_cache.h"
#include "shim/support/sha256.h"

namespace {

using anygpu::CompileCache;
using anygpu::CompileCacheConfig;
using anygpu::CompileOutput;
using anygpu::CompileRequest;

// A cache in a fresh temporary directory, removed at exit.
struct BenchCache {
  BenchCache() {
    const char* tmp = getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/anygpu-cache-bench-XXXXXX";
    if (!mkdtemp(&pattern[0])) abort();
    root = pattern;
    CompileCacheConfig config;
    config.directory = root;
    config.max_bytes = 1ull << 30;
    cache = new CompileCache(config);
  }
  ~BenchCache() {
    delete cache;
    std::error_code ignored;
    std::filesystem::remove_all(root, ignored);
  }
  std::string root;
  CompileCache* cache;
};

BenchCache& bench_cache() {
  static BenchCache instance;
  return instance;
}

CompileRequest request_of(size_t image_bytes) {
  CompileRequest request;
  request.source = {"kernel.cu", std::string(4000, 'k') + std::to_string(image_bytes)};
  request.options.defines = {"N=256"};
  request.target.architecture = "sm_90";
  request.target.max_ir_version = 85;
  return request;
}

CompileOutput output_of(size_t image_bytes) {
  CompileOutput output;
  output.image.resize(image_bytes);
  for (size_t i = 0; i < image_bytes; ++i) output.image[i] = static_cast<unsigned char>(i * 131);
  output.log = "kernel.cu(12): warning: variable \"unused\" was declared but never referenced\n";
  return output;
}

void BM_CacheHit(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(state.range(0));
  CompileCache& cache = *bench_cache().cache;
  const std::string key = anygpu::compile_cache_key(request_of(bytes), "NVRTC 13.0", "580.65");
  cache.store(key, output_of(bytes));
  for (auto _ : state) {
    CompileOutput out;
    if (!cache.lookup(key, out)) {
      state.SkipWithError("the entry was not found");
      break;
    }
    benchmark::DoNotOptimize(out.image.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}
BENCHMARK(BM_CacheHit)->Arg(64 << 10)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

void BM_CacheMiss(benchmark::State& state) {
  CompileCache& cache = *bench_cache().cache;
  const std::string key = anygpu::compile_cache_key(request_of(1), "absent", "absent");
  for (auto _ : state) {
    CompileOutput out;
    benchmark::DoNotOptimize(cache.lookup(key, out));
  }
}
BENCHMARK(BM_CacheMiss)->Unit(benchmark::kMicrosecond);

void BM_CacheStore(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(state.range(0));
  CompileCache& cache = *bench_cache().cache;
  const std::string key = anygpu::compile_cache_key(request_of(bytes + 1), "NVRTC 13.0", "580.65");
  const CompileOutput output = output_of(bytes);
  for (auto _ : state) cache.store(key, output);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}
BENCHMARK(BM_CacheStore)->Arg(64 << 10)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

void BM_CacheKey(benchmark::State& state) {
  const CompileRequest request = request_of(0);
  for (auto _ : state)
    benchmark::DoNotOptimize(anygpu::compile_cache_key(request, "NVRTC 13.0", "580.65"));
}
BENCHMARK(BM_CacheKey)->Unit(benchmark::kMicrosecond);

void BM_Sha256(benchmark::State& state) {
  const std::string data(1 << 20, 'x');
  for (auto _ : state) {
    anygpu::Sha256 hash(state.range(0) != 0);
    hash.update(data);
    benchmark::DoNotOptimize(hash.finish());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * (1 << 20));
  state.SetLabel(state.range(0) && anygpu::Sha256::hardware_available() ? "SHA extensions"
                                                                        : "portable");
}
BENCHMARK(BM_Sha256)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
