// Issue 15, defect 4: a handle destroyed while another thread is inside a call with it. Two
// threads keep replacing shared streams, events and modules (create the new one, publish it,
// destroy the old one) while six use whatever handle they find: query, record, wait, synchronize,
// get a function and launch it. Every call must succeed or say AG_ERROR_INVALID_HANDLE (or what
// it documents for a live handle); before the fix, a destroy freed the object under the call
// (ASan: heap-use-after-free).
#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "stress_duration.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

constexpr int kThreads = 8;
constexpr int kDestroyers = 2;
constexpr int kShared = 4;  // shared handles of each kind

class DestroyWhileInUse : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
};

// What the users saw that they must not: the first such call's name, result and detail.
class Unexpected {
 public:
  void check(const char* call, ag_result result, std::initializer_list<ag_result> allowed) {
    for (ag_result ok : allowed)
      if (result == ok) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (count_++ == 0)
      first_ = std::string(call) + " returned " + result_name(result) + ": " + last_detail();
  }
  int count() {
    std::lock_guard<std::mutex> lock(mutex_);
    return count_;
  }
  std::string first() {
    std::lock_guard<std::mutex> lock(mutex_);
    return first_;
  }

 private:
  std::mutex mutex_;
  int count_ = 0;
  std::string first_;
};

struct SharedHandles {
  std::array<std::atomic<ag_stream>, kShared> streams{};
  std::array<std::atomic<ag_event>, kShared> events{};
  std::array<std::atomic<ag_module>, kShared> modules{};
};

ag_module load_test_kernels(ag_device device) {
  ag_module module = nullptr;
  agModuleLoadData(device, anygpu_image_test_kernels, anygpu_image_test_kernels_size, &module);
  return module;
}

// One round of a destroyer: replaces one shared object of each kind it churns.
void replace_objects(ag_device device, SharedHandles& shared, int round, bool modules,
                     Unexpected& unexpected) {
  const int i = round % kShared;
  ag_stream stream = nullptr;
  ag_event event = nullptr;
  unexpected.check("agStreamCreate", agStreamCreate(device, 0, &stream), {AG_SUCCESS});
  unexpected.check("agStreamDestroy", agStreamDestroy(shared.streams[i].exchange(stream)),
                   {AG_SUCCESS});
  unexpected.check("agEventCreate", agEventCreate(device, 0, &event), {AG_SUCCESS});
  unexpected.check("agEventDestroy", agEventDestroy(shared.events[i].exchange(event)),
                   {AG_SUCCESS});
  if (!modules) return;
  ag_module module = load_test_kernels(device);
  unexpected.check("agModuleLoadData", module ? AG_SUCCESS : AG_ERROR_UNKNOWN, {AG_SUCCESS});
  unexpected.check("agModuleUnload", agModuleUnload(shared.modules[i].exchange(module)),
                   {AG_SUCCESS});
}

// One round of a user: every call on whatever handles are shared now.
void use_objects(SharedHandles& shared, unsigned seed, ag_function& remembered,
                 Unexpected& unexpected) {
  constexpr ag_result invalid = AG_ERROR_INVALID_HANDLE;
  ag_stream stream = shared.streams[seed % kShared].load();
  ag_event event = shared.events[(seed / kShared) % kShared].load();
  ag_event other_event = shared.events[(seed + 1) % kShared].load();
  ag_module module = shared.modules[(seed / 3) % kShared].load();

  unexpected.check("agStreamQuery", agStreamQuery(stream),
                   {AG_SUCCESS, AG_ERROR_NOT_READY, invalid});
  unexpected.check("agEventRecord", agEventRecord(event, stream), {AG_SUCCESS, invalid});
  unexpected.check("agEventQuery", agEventQuery(event), {AG_SUCCESS, AG_ERROR_NOT_READY, invalid});
  unexpected.check("agStreamWaitEvent", agStreamWaitEvent(stream, other_event, 0),
                   {AG_SUCCESS, invalid});
  float milliseconds = 0;
  unexpected.check("agEventElapsedTime", agEventElapsedTime(&milliseconds, other_event, event),
                   {AG_SUCCESS, AG_ERROR_NOT_READY, AG_ERROR_INVALID_VALUE, invalid});

  ag_function function = nullptr;
  const ag_result got = agModuleGetFunction(module, seed % 2 ? "empty" : "vector_add", &function);
  unexpected.check("agModuleGetFunction", got, {AG_SUCCESS, invalid});
  if (got == AG_SUCCESS && seed % 2) remembered = function;  // launched again, perhaps unloaded
  int count = 0;
  unexpected.check("agFunctionGetParamCount", agFunctionGetParamCount(function, &count),
                   {AG_SUCCESS, invalid});
  unexpected.check("agLaunchKernel",
                   agLaunchKernel(remembered, 4, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr),
                   {AG_SUCCESS, invalid});

  if (seed % 4 == 0)
    unexpected.check("agStreamSynchronize", agStreamSynchronize(stream), {AG_SUCCESS, invalid});
  else if (seed % 4 == 1)
    unexpected.check("agEventSynchronize", agEventSynchronize(event), {AG_SUCCESS, invalid});
}

TEST_P(DestroyWhileInUse, EveryCallSucceedsOrSaysInvalidHandle) {
  SharedHandles shared;
  Unexpected unexpected;
  for (int i = 0; i < kShared; ++i) {
    ag_stream stream = nullptr;
    ag_event event = nullptr;
    ASSERT_AG(agStreamCreate(device, 0, &stream));
    ASSERT_AG(agEventCreate(device, 0, &event));
    shared.streams[i] = stream;
    shared.events[i] = event;
    shared.modules[i] = load_test_kernels(device);
    ASSERT_NE(nullptr, shared.modules[i].load()) << last_detail();
  }
  const auto deadline = std::chrono::steady_clock::now() + stress_duration(std::chrono::seconds(3));
  std::atomic<bool> stop{false};
  std::atomic<long> uses{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ag_function remembered = nullptr;
      for (unsigned round = 0; !stop.load(); ++round) {
        if (t < kDestroyers) {
          replace_objects(device, shared, static_cast<int>(round), t == 0, unexpected);
        } else {
          use_objects(shared, round * 7919u + static_cast<unsigned>(t), remembered, unexpected);
          uses.fetch_add(1, std::memory_order_relaxed);
        }
        if (t == 0 && std::chrono::steady_clock::now() > deadline) stop = true;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kShared; ++i) {
    EXPECT_AG(agStreamDestroy(shared.streams[i]));
    EXPECT_AG(agEventDestroy(shared.events[i]));
    EXPECT_AG(agModuleUnload(shared.modules[i]));
  }
  EXPECT_EQ(0, unexpected.count()) << "first: " << unexpected.first();
  EXPECT_GT(uses.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, DestroyWhileInUse, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
