// Helpers for the API error-path tests: a failure check that also checks the error detail, output
// variables pre-filled with a sentinel, and bad handles of every kind.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "test_support.h"

namespace api_test {

// The function named by a call expression: "agMemAlloc(d, 0, &p)" gives "agMemAlloc".
std::string function_of(const char* expression);

// Clears this thread's error detail, runs `call`, and checks that it returned `expected` and
// recorded a detail that starts with "<function>: ".
::testing::AssertionResult fails_with(ag_result expected, const std::string& function,
                                      const std::function<ag_result()>& call);

// A value no API call hands out, of a handle or pointer type.
template <typename T>
T made_up(uintptr_t value = 0x1234) {
  return reinterpret_cast<T>(value);
}

// An output variable pre-filled with a byte pattern; intact() says whether a call wrote it.
template <typename T>
class Sentinel {
 public:
  Sentinel() {
    std::memset(static_cast<void*>(&value_), 0xA5, sizeof value_);
    std::memset(static_cast<void*>(&expected_), 0xA5, sizeof expected_);
  }
  // A versioned struct with `struct_size` set (and the rest patterned).
  explicit Sentinel(size_t struct_size) : Sentinel() {
    value_.struct_size = struct_size;
    expected_.struct_size = struct_size;
  }
  T* get() { return &value_; }
  ::testing::AssertionResult intact() const {
    if (std::memcmp(&value_, &expected_, sizeof value_) == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "a failed call wrote its output";
  }

 private:
  T value_;
  T expected_;
};

// Runs `call(out)` with a sentinel-filled output of type T, checks that the output is untouched and
// returns the call's result.
template <typename T, typename Call>
ag_result with_untouched_output(Call call) {
  Sentinel<T> out;
  const ag_result result = call(out.get());
  EXPECT_TRUE(out.intact());
  return result;
}

// Calls `call(out)` with a versioned struct T whose struct_size is below its first version
// (0, 1, first_version - 1) and expects AG_ERROR_INVALID_VALUE with the struct untouched.
template <typename T, typename Call>
void expect_small_struct_sizes_rejected(const std::string& function, Call call,
                                        size_t first_version = sizeof(T)) {
  for (size_t size : {size_t{0}, size_t{1}, first_version - 1}) {
    SCOPED_TRACE(function + " given struct_size " + std::to_string(size));
    Sentinel<T> out(size);
    EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, function, [&] { return call(out.get()); }));
    EXPECT_TRUE(out.intact());
  }
}

template <typename H>
struct NamedHandle {
  std::string name;
  H handle;
};

// Live handles of every kind on the CPU device, and destroyed ones, to pass where they do not
// belong.
class ApiErrorTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Every wrong value for a handle of type H: null, made up, stale, destroyed, of another kind.
  template <typename H>
  std::vector<NamedHandle<H>> bad_handles() const {
    std::vector<NamedHandle<H>> list = {{"null", nullptr},
                                        {"made-up 0x1234", made_up<H>(0x1234)},
                                        {"all-ones", made_up<H>(~uintptr_t{0})}};
    const uintptr_t live = reinterpret_cast<uintptr_t>(live_handle<H>());
    list.push_back(
        {"live handle with another generation", made_up<H>(live ^ (uintptr_t{1} << 32))});
    list.push_back({"live handle with another index", made_up<H>(live + 1000)});
    if (H dead = dead_handle<H>()) list.push_back({"destroyed", dead});
    add_foreign(list, "device", device);
    add_foreign(list, "stream", stream);
    add_foreign(list, "event", event);
    add_foreign(list, "module", module->module());
    add_foreign(list, "function", saxpy);
    return list;
  }

  // Calls `call(handle)` with each bad handle of type H and expects AG_ERROR_INVALID_HANDLE. Where
  // NULL is a valid value (agLaunchKernel's stream), `null_is_valid` leaves it out.
  template <typename H, typename Call>
  void expect_invalid_handles(const std::string& function, Call call,
                              bool null_is_valid = false) const {
    for (const NamedHandle<H>& bad : bad_handles<H>()) {
      if (null_is_valid && !bad.handle) continue;
      SCOPED_TRACE(function + " given a " + bad.name + " handle");
      EXPECT_TRUE(fails_with(AG_ERROR_INVALID_HANDLE, function, [&] { return call(bad.handle); }));
    }
  }

  ag_device device = nullptr;
  ag_device_properties properties{};
  ag_stream stream = nullptr;
  ag_event event = nullptr;
  std::unique_ptr<anygpu_test::TestModule> module;
  ag_function saxpy = nullptr;
  ag_stream dead_stream = nullptr;
  ag_event dead_event = nullptr;
  ag_module dead_module = nullptr;
  ag_function dead_function = nullptr;  // from an unloaded module

 private:
  template <typename H, typename Other>
  static void add_foreign(std::vector<NamedHandle<H>>& list, const char* name, Other handle) {
    if constexpr (!std::is_same_v<H, Other>)
      list.push_back({std::string("live ") + name, reinterpret_cast<H>(handle)});
  }
  template <typename H>
  H live_handle() const {
    if constexpr (std::is_same_v<H, ag_device>) return device;
    if constexpr (std::is_same_v<H, ag_stream>) return stream;
    if constexpr (std::is_same_v<H, ag_event>) return event;
    if constexpr (std::is_same_v<H, ag_module>) return module->module();
    if constexpr (std::is_same_v<H, ag_function>) return saxpy;
  }
  template <typename H>
  H dead_handle() const {
    if constexpr (std::is_same_v<H, ag_stream>) return dead_stream;
    if constexpr (std::is_same_v<H, ag_event>) return dead_event;
    if constexpr (std::is_same_v<H, ag_module>) return dead_module;
    if constexpr (std::is_same_v<H, ag_function>) return dead_function;
    return nullptr;
  }
};

}  // namespace api_test

// Expects `call` to return `expected` and to record a detail starting with its function's name.
#define EXPECT_FAILS(expected, call) \
  EXPECT_TRUE(                       \
      ::api_test::fails_with((expected), ::api_test::function_of(#call), [&] { return (call); }))
