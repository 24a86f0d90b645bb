// The soak: 8 threads for about 20 seconds (a tenth of that under a sanitizer) of a seeded mix of
// allocation, copies, launches, frees, stream and event churn, and calls with bad arguments,
// checking every result. A warm-up round first; then resident memory and open file descriptors
// must be where the warm-up left them. ANYGPU_SOAK_SECONDS sets another length.
#include <dirent.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "stress_duration.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

constexpr int kThreads = 8;
constexpr unsigned kSeed = 20261201;
constexpr int kElements = 1024;  // of each vector_add operand
constexpr size_t kMaxAllocations = 16;

size_t resident_bytes() {
  long pages = 0, resident = 0;
  FILE* statm = fopen("/proc/self/statm", "r");
  if (!statm) return 0;
  if (fscanf(statm, "%ld %ld", &pages, &resident) != 2) resident = 0;
  fclose(statm);
  return static_cast<size_t>(resident) * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

int open_descriptors() {
  DIR* fds = opendir("/proc/self/fd");
  if (!fds) return -1;
  int count = 0;
  while (readdir(fds)) ++count;
  closedir(fds);
  return count;
}

// Failures counted by every thread; the first one described.
class Checks {
 public:
  void expect(const char* call, ag_result result, ag_result expected) {
    checked_.fetch_add(1, std::memory_order_relaxed);
    if (result == expected) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (failures_++ == 0)
      first_ = std::string(call) + " returned " + result_name(result) + ", expected " +
               result_name(expected) + ": " + last_detail();
  }
  void expect_true(const char* what, bool condition) {
    if (condition) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (failures_++ == 0) first_ = what;
  }
  int failures() {
    std::lock_guard<std::mutex> lock(mutex_);
    return failures_;
  }
  std::string first() {
    std::lock_guard<std::mutex> lock(mutex_);
    return first_;
  }
  long checked() const { return checked_.load(); }

 private:
  std::atomic<long> checked_{0};
  std::mutex mutex_;
  int failures_ = 0;
  std::string first_;
};

// One thread's share of the soak: its own stream, operands and allocations; everything it made is
// gone when it returns.
class SoakThread {
 public:
  SoakThread(ag_device device, ag_function vector_add, ag_function empty, unsigned seed,
             Checks& checks)
      : device_(device), vector_add_(vector_add), empty_(empty), random_(seed), checks_(checks) {}

  void run(std::chrono::steady_clock::time_point deadline) {
    checks_.expect("agStreamCreate", agStreamCreate(device_, 0, &stream_), AG_SUCCESS);
    for (void*& operand : operands_)
      checks_.expect("agMemAlloc", agMemAlloc(device_, kElements * sizeof(float), &operand),
                     AG_SUCCESS);
    while (std::chrono::steady_clock::now() < deadline) step();
    for (void* allocation : allocations_)
      checks_.expect("agMemFree", agMemFree(device_, allocation), AG_SUCCESS);
    for (void* operand : operands_)
      checks_.expect("agMemFree", agMemFree(device_, operand), AG_SUCCESS);
    checks_.expect("agStreamDestroy", agStreamDestroy(stream_), AG_SUCCESS);
  }

 private:
  unsigned pick(unsigned count) {
    return std::uniform_int_distribution<unsigned>(0, count - 1)(random_);
  }

  void step() {
    switch (pick(8)) {
      case 0:
        allocate();
        break;
      case 1:
        release();
        break;
      case 2:
        copy_round_trip();
        break;
      case 3:
        launch_and_check();
        break;
      case 4:
        launch_many();
        break;
      case 5:
        replace_stream();
        break;
      case 6:
        event_round();
        break;
      default:
        bad_call();
        break;
    }
  }

  void allocate() {
    if (allocations_.size() == kMaxAllocations) return release();
    void* pointer = nullptr;
    const size_t bytes = 1 + pick(256 * 1024);
    checks_.expect("agMemAlloc", agMemAlloc(device_, bytes, &pointer), AG_SUCCESS);
    if (pointer) allocations_.push_back(pointer);
  }

  void release() {
    if (allocations_.empty()) return allocate();
    const size_t i = pick(static_cast<unsigned>(allocations_.size()));
    checks_.expect("agMemFree", agMemFree(device_, allocations_[i]), AG_SUCCESS);
    allocations_.erase(allocations_.begin() + static_cast<long>(i));
  }

  void copy_round_trip() {
    const size_t bytes = 1 + pick(kElements * sizeof(float));
    host_in_.resize(bytes);
    host_out_.assign(bytes, 0);
    for (auto& byte : host_in_) byte = static_cast<unsigned char>(random_());
    checks_.expect("agMemcpyHtoDAsync",
                   agMemcpyHtoDAsync(operands_[2], host_in_.data(), bytes, stream_), AG_SUCCESS);
    checks_.expect("agMemcpyDtoDAsync",
                   agMemcpyDtoDAsync(operands_[1], operands_[2], bytes, stream_), AG_SUCCESS);
    checks_.expect("agMemcpyDtoHAsync",
                   agMemcpyDtoHAsync(host_out_.data(), operands_[1], bytes, stream_), AG_SUCCESS);
    checks_.expect("agStreamSynchronize", agStreamSynchronize(stream_), AG_SUCCESS);
    checks_.expect_true("a copied range came back different", host_in_ == host_out_);
  }

  void launch_and_check() {
    std::vector<float> a(kElements), b(kElements), c(kElements);
    for (int i = 0; i < kElements; ++i) {
      a[i] = static_cast<float>(pick(1000));
      b[i] = static_cast<float>(i);
    }
    int n = 1 + static_cast<int>(pick(kElements));
    void* params[] = {&n, &operands_[0], &operands_[1], &operands_[2]};
    checks_.expect("agMemcpyHtoDAsync",
                   agMemcpyHtoDAsync(operands_[0], a.data(), sizeof(float) * kElements, stream_),
                   AG_SUCCESS);
    checks_.expect("agMemcpyHtoDAsync",
                   agMemcpyHtoDAsync(operands_[1], b.data(), sizeof(float) * kElements, stream_),
                   AG_SUCCESS);
    checks_.expect("agMemsetD8Async",
                   agMemsetD8Async(operands_[2], 0, sizeof(float) * kElements, stream_),
                   AG_SUCCESS);
    checks_.expect(
        "agLaunchKernel",
        agLaunchKernel(vector_add_, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream_, params, nullptr),
        AG_SUCCESS);
    checks_.expect("agMemcpyDtoHAsync",
                   agMemcpyDtoHAsync(c.data(), operands_[2], sizeof(float) * kElements, stream_),
                   AG_SUCCESS);
    checks_.expect("agStreamSynchronize", agStreamSynchronize(stream_), AG_SUCCESS);
    bool right = true;
    for (int i = 0; i < kElements; ++i) right = right && c[i] == (i < n ? a[i] + b[i] : 0.0f);
    checks_.expect_true("vector_add computed a wrong sum", right);
  }

  void launch_many() {
    const unsigned count = 1 + pick(32);
    for (unsigned i = 0; i < count; ++i)
      checks_.expect("agLaunchKernel",
                     agLaunchKernel(empty_, 1 + pick(8), 1, 1, 1 + pick(64), 1, 1, 0, stream_,
                                    nullptr, nullptr),
                     AG_SUCCESS);
    if (pick(2)) checks_.expect("agStreamSynchronize", agStreamSynchronize(stream_), AG_SUCCESS);
  }

  void replace_stream() {
    checks_.expect("agStreamDestroy", agStreamDestroy(stream_), AG_SUCCESS);
    destroyed_stream_ = stream_;
    checks_.expect("agStreamCreate", agStreamCreate(device_, 0, &stream_), AG_SUCCESS);
  }

  void event_round() {
    ag_event start = nullptr, end = nullptr;
    checks_.expect("agEventCreate", agEventCreate(device_, 0, &start), AG_SUCCESS);
    checks_.expect("agEventCreate", agEventCreate(device_, 0, &end), AG_SUCCESS);
    checks_.expect("agEventRecord", agEventRecord(start, stream_), AG_SUCCESS);
    checks_.expect("agLaunchKernel",
                   agLaunchKernel(empty_, 1, 1, 1, 1, 1, 1, 0, stream_, nullptr, nullptr),
                   AG_SUCCESS);
    checks_.expect("agEventRecord", agEventRecord(end, stream_), AG_SUCCESS);
    if (pick(2)) {
      checks_.expect("agEventSynchronize", agEventSynchronize(end), AG_SUCCESS);
      float milliseconds = -1;
      checks_.expect("agEventElapsedTime", agEventElapsedTime(&milliseconds, start, end),
                     AG_SUCCESS);
      checks_.expect_true("a negative elapsed time", milliseconds >= 0);
    }
    checks_.expect("agEventDestroy", agEventDestroy(start), AG_SUCCESS);
    checks_.expect("agEventDestroy", agEventDestroy(end), AG_SUCCESS);
    destroyed_event_ = end;
  }

  // A call with one bad argument: refused with its documented result, and nothing changed.
  void bad_call() {
    void* pointer = nullptr;
    ag_stream stream = nullptr;
    unsigned char host[16] = {};
    switch (pick(9)) {
      case 0:
        checks_.expect("agMemAlloc(0 bytes)", agMemAlloc(device_, 0, &pointer),
                       AG_ERROR_INVALID_VALUE);
        break;
      case 1:
        checks_.expect("agMemFree(a host pointer)", agMemFree(device_, host),
                       AG_ERROR_INVALID_ADDRESS);
        break;
      case 2:
        checks_.expect("agMemcpyHtoD(past the end)",
                       agMemcpyHtoD(device_, static_cast<char*>(operands_[0]) + 4 * kElements - 8,
                                    host, sizeof host),
                       AG_ERROR_INVALID_ADDRESS);
        break;
      case 3:
        checks_.expect(
            "agStreamQuery(destroyed)",
            destroyed_stream_ ? agStreamQuery(destroyed_stream_) : AG_ERROR_INVALID_HANDLE,
            AG_ERROR_INVALID_HANDLE);
        break;
      case 4:
        checks_.expect(
            "agEventDestroy(destroyed)",
            destroyed_event_ ? agEventDestroy(destroyed_event_) : AG_ERROR_INVALID_HANDLE,
            AG_ERROR_INVALID_HANDLE);
        break;
      case 5:
        checks_.expect("agLaunchKernel(grid 0)",
                       agLaunchKernel(empty_, 0, 1, 1, 1, 1, 1, 0, stream_, nullptr, nullptr),
                       AG_ERROR_INVALID_CONFIGURATION);
        break;
      case 6:
        checks_.expect("agLaunchKernel(block 4096)",
                       agLaunchKernel(empty_, 1, 1, 1, 4096, 1, 1, 0, stream_, nullptr, nullptr),
                       AG_ERROR_INVALID_CONFIGURATION);
        break;
      case 7:
        checks_.expect("agMemcpyDtoHAsync(NULL dst)",
                       agMemcpyDtoHAsync(nullptr, operands_[0], 4, stream_),
                       AG_ERROR_INVALID_VALUE);
        break;
      default:
        checks_.expect("agStreamCreate(flags 1)", agStreamCreate(device_, 1, &stream),
                       AG_ERROR_INVALID_VALUE);
        break;
    }
    checks_.expect_true("a refused call wrote its output", !pointer && !stream);
  }

  ag_device device_;
  ag_function vector_add_;
  ag_function empty_;
  std::mt19937 random_;
  Checks& checks_;
  ag_stream stream_ = nullptr;
  ag_stream destroyed_stream_ = nullptr;
  ag_event destroyed_event_ = nullptr;
  void* operands_[3] = {};
  std::vector<void*> allocations_;
  std::vector<unsigned char> host_in_, host_out_;
};

class Soak : public ::testing::TestWithParam<int> {
 protected:
  // One round on kThreads threads; each thread's seed depends on `round` and its index only.
  void run_round(int round, std::chrono::milliseconds duration) {
    const auto deadline = std::chrono::steady_clock::now() + duration;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        SoakThread(device, vector_add, empty, kSeed + 1000u * round + t, checks).run(deadline);
      });
    for (std::thread& thread : threads) thread.join();
  }

  ag_device device = device_at(GetParam());
  TestModule module{device};
  ag_function vector_add = module.function("vector_add");
  ag_function empty = module.function("empty");
  Checks checks;
};

TEST_P(Soak, MixedWorkOnEightThreadsKeepsMemoryAndDescriptorsFlat) {
  // ANYGPU_SOAK_SECONDS runs a longer (or shorter) soak by hand.
  const char* seconds = getenv("ANYGPU_SOAK_SECONDS");
  const auto duration = seconds ? std::chrono::milliseconds(1000L * atol(seconds))
                                : stress_duration(std::chrono::seconds(20));
  run_round(0, duration / 10);  // warm-up: pools, thread stacks, allocator arenas
  const size_t resident_before = resident_bytes();
  const int descriptors_before = open_descriptors();
  run_round(1, duration);
  const size_t resident_after = resident_bytes();
  const int descriptors_after = open_descriptors();

  printf("soak: %ld results checked; resident %zu -> %zu MiB; %d -> %d descriptors\n",
         checks.checked(), resident_before >> 20, resident_after >> 20, descriptors_before,
         descriptors_after);
  EXPECT_EQ(0, checks.failures()) << "first: " << checks.first();
  EXPECT_LE(descriptors_after, descriptors_before) << "file descriptors leaked";
  // The sanitizers keep freed memory aside (ASan's quarantine) and grow shadow memory, so the
  // resident size says nothing about leaks there; ASan's leak check covers them instead.
  if (!kUnderSanitizer) {
    const size_t tolerance = 32u << 20;
    EXPECT_LE(resident_after, resident_before + tolerance)
        << "resident memory grew from " << (resident_before >> 20) << " MiB to "
        << (resident_after >> 20) << " MiB";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Soak, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
