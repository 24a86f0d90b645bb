// The RAII owners: what they own is released exactly once — at scope exit, when an exception is
// thrown mid-way, on move assignment — and a moved-from owner is empty and releases nothing.
//
// Whether something was released is read from the runtime: agMemFree of a freed pointer fails
// with AG_ERROR_INVALID_ADDRESS, a destroyed stream, event or module handle gives
// AG_ERROR_INVALID_HANDLE. These checks are what prove the release: LeakSanitizer cannot see a
// leaked allocation or handle, which the runtime keeps reachable in its own tables. (Under ASan
// the suite still catches double releases and leaks of the C++ layer's own memory.)
#include <anygpu/anygpu.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_support.h"

namespace {

anygpu::device cpu() {
  return anygpu::device(anygpu_test::cpu_device());
}

anygpu::module test_kernels(const anygpu::device& dev) {
  return anygpu::module(dev, anygpu_image_test_kernels, anygpu_image_test_kernels_size);
}

// The raw handles an owner held, to ask the runtime afterwards whether they are gone.
struct Raw {
  ag_device device = nullptr;
  void* memory = nullptr;
  void* pinned = nullptr;
  ag_stream stream = nullptr;
  ag_event event = nullptr;
  ag_module module = nullptr;
};

void expect_memory_freed(ag_device device, void* memory) {
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemFree(device, memory)) << "device memory still allocated";
}
void expect_pinned_freed(ag_device device, void* pinned) {
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemFreeHost(device, pinned))
      << "pinned memory still allocated";
}
void expect_stream_destroyed(ag_stream stream) {
  EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agStreamQuery(stream)) << "stream still alive";
}
void expect_event_destroyed(ag_event event) {
  EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agEventQuery(event)) << "event still alive";
}
void expect_module_unloaded(ag_module module) {
  ag_function f = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agModuleGetFunction(module, "saxpy", &f))
      << "module still loaded";
}
// Move construction leaves `a` empty: its reset and its destruction release nothing. Returns the
// owner the handle moved to.
template <typename Owner>
Owner expect_move_empties(Owner& a) {
  const auto handle = a.get();
  Owner b(std::move(a));
  EXPECT_EQ(nullptr, a.get());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_FALSE(a);
  EXPECT_EQ(AG_SUCCESS, a.reset());  // releases nothing
  {
    Owner gone(std::move(a));
  }  // destroying an empty owner frees nothing
  EXPECT_EQ(handle, b.get());
  return b;
}

// Move assignment releases what `target` held (`expect_released` is given its old handle);
// self-move assignment keeps the handle.
template <typename Owner, typename ExpectReleased>
void expect_move_assignment(Owner& target, Owner&& source, ExpectReleased expect_released) {
  const auto old = target.get();
  const auto handle = source.get();
  target = std::move(source);
  expect_released(old);
  Owner& alias = target;
  target = std::move(alias);
  EXPECT_EQ(handle, target.get());
}

void expect_all_released(const Raw& raw) {
  expect_memory_freed(raw.device, raw.memory);
  expect_pinned_freed(raw.device, raw.pinned);
  expect_stream_destroyed(raw.stream);
  expect_event_destroyed(raw.event);
  expect_module_unloaded(raw.module);
}

// ---------------------------------------------------------------------------------------------
// No leak when an exception is thrown mid-way
// ---------------------------------------------------------------------------------------------

TEST(CppOwnersTest, RejectedLaunchReleasesEverythingOnTheWayOut) {
  const anygpu::device dev = cpu();
  Raw raw;
  raw.device = dev.handle();
  bool thrown = false;
  try {
    anygpu::device_memory<float> x(dev, std::vector<float>(64, 1.0f));
    anygpu::pinned_memory<float> host(dev, 64);
    anygpu::stream s(dev);
    anygpu::event e(dev);
    anygpu::module m = test_kernels(dev);
    const anygpu::function saxpy = m.function("saxpy");
    raw = {dev.handle(), x.get(), host.get(), s.get(), e.get(), m.get()};
    e.record(s);
    // Queued work, then a launch with an argument of the wrong size (a double for a float).
    anygpu::launch(saxpy, {1, 64, s}, 64, 2.0f, x, x);
    anygpu::launch(saxpy, {1, 64, s}, 64, 2.0, x, x);
    ADD_FAILURE() << "the launch with a double for a float was not rejected";
  } catch (const anygpu::error& e) {
    thrown = true;
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, e.code());
  }
  EXPECT_TRUE(thrown);
  expect_all_released(raw);
}

// An aggregate of owners whose constructor fails at its last member: the members built before
// are released by the exception.
struct Pipeline {
  anygpu::device_memory<int> buffer;
  anygpu::pinned_memory<int> staging;
  anygpu::stream queue;
  anygpu::event marker;
  anygpu::module code;
  Pipeline(const anygpu::device& dev, Raw* raw, const void* image, size_t bytes)
      : buffer(dev, 128), staging(dev, 128), queue(dev), marker(dev) {
    *raw = {dev.handle(), buffer.get(), staging.get(), queue.get(), marker.get(), nullptr};
    code = anygpu::module(dev, image, bytes);
    raw->module = code.get();
  }
};

TEST(CppOwnersTest, FailedConstructorReleasesTheMembersBuiltBefore) {
  const anygpu::device dev = cpu();
  Raw raw;
  const std::vector<unsigned char> garbage(256, 0xAB);
  try {
    Pipeline p(dev, &raw, garbage.data(), garbage.size());
    FAIL() << "loading garbage did not throw";
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_IMAGE, e.code()) << e.what();
  }
  ASSERT_NE(nullptr, raw.memory);
  expect_memory_freed(raw.device, raw.memory);
  expect_pinned_freed(raw.device, raw.pinned);
  expect_stream_destroyed(raw.stream);
  expect_event_destroyed(raw.event);

  // And the same aggregate, built completely, releases everything at scope exit.
  {
    Pipeline p(dev, &raw, anygpu_image_test_kernels, anygpu_image_test_kernels_size);
    ASSERT_NE(nullptr, raw.module);
  }
  expect_all_released(raw);
}

TEST(CppOwnersTest, ExceptionOfAnotherKindAlsoUnwindsTheOwners) {
  const anygpu::device dev = cpu();
  Raw raw;
  bool thrown = false;
  try {
    anygpu::device_memory<double> d(dev, 8);
    anygpu::pinned_memory<double> h(dev, 8);
    anygpu::stream s(dev);
    anygpu::event e(dev);
    anygpu::module m = test_kernels(dev);
    raw = {dev.handle(), d.get(), h.get(), s.get(), e.get(), m.get()};
    throw std::runtime_error("user code failed");
  } catch (const std::runtime_error&) {
    thrown = true;
  }
  EXPECT_TRUE(thrown);
  expect_all_released(raw);
}

// ---------------------------------------------------------------------------------------------
// Moved-from owners
// ---------------------------------------------------------------------------------------------

TEST(CppOwnersTest, DeviceMemoryMoves) {
  const anygpu::device dev = cpu();
  const std::vector<int> values{1, 2, 3};
  anygpu::device_memory<int> a(dev, values);
  int* const pointer = a.get();

  anygpu::device_memory<int> b = expect_move_empties(a);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(0u, a.size());
  EXPECT_EQ(pointer, b.get());
  EXPECT_EQ(3u, b.size());
  EXPECT_EQ(values, b.download());

  // Move assignment frees what the target held; self-move assignment keeps it.
  anygpu::device_memory<int> c(dev, 5);
  expect_move_assignment(c, std::move(b),
                         [&](int* old) { expect_memory_freed(dev.handle(), old); });
  EXPECT_FALSE(b);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(values, c.download());

  // Moving into a default-constructed owner, then reset.
  anygpu::device_memory<int> d;
  EXPECT_FALSE(d);
  d = std::move(c);
  EXPECT_EQ(values, d.download());
  EXPECT_EQ(AG_SUCCESS, d.reset());
  EXPECT_FALSE(d);
  expect_memory_freed(dev.handle(), pointer);
  EXPECT_EQ(AG_SUCCESS, d.reset());
}

TEST(CppOwnersTest, DeviceMemoryRelease) {
  const anygpu::device dev = cpu();
  anygpu::device_memory<float> a(dev, 4);
  float* const pointer = a.release();
  EXPECT_FALSE(a);
  EXPECT_EQ(0u, a.size());
  // The caller owns it now: it is still allocated.
  EXPECT_EQ(AG_SUCCESS, agMemFree(dev.handle(), pointer)) << anygpu_test::last_detail();
}

TEST(CppOwnersTest, PinnedMemoryMoves) {
  const anygpu::device dev = cpu();
  anygpu::pinned_memory<int> a(dev, 4);
  for (int i = 0; i < 4; ++i) a[i] = i;
  int* const pointer = a.get();
  anygpu::pinned_memory<int> b = expect_move_empties(a);
  EXPECT_EQ(nullptr, a.data());
  EXPECT_EQ(a.begin(), a.end());
  EXPECT_EQ(pointer, b.data());
  EXPECT_EQ(3, b[3]);
  anygpu::pinned_memory<int> c(dev, 2);
  expect_move_assignment(c, std::move(b),
                         [&](int* old) { expect_pinned_freed(dev.handle(), old); });
  EXPECT_EQ(2, c[2]);
  int* const released = c.release();
  EXPECT_FALSE(c);
  EXPECT_EQ(AG_SUCCESS, agMemFreeHost(dev.handle(), released)) << anygpu_test::last_detail();
}

TEST(CppOwnersTest, StreamMoves) {
  const anygpu::device dev = cpu();
  anygpu::stream a(dev);
  anygpu::stream b = expect_move_empties(a);
  EXPECT_EQ(dev, b.device());
  EXPECT_TRUE(b.query());  // still alive

  anygpu::stream c(dev);
  expect_move_assignment(c, std::move(b), expect_stream_destroyed);
  c.synchronize();

  // Work queued on the moved-to stream runs.
  anygpu::device_memory<int> d(dev, 4);
  d.fill_bytes_async(1, c);
  c.synchronize();
  EXPECT_EQ(std::vector<int>(4, 0x01010101), d.download());

  const ag_stream released = c.release();
  EXPECT_FALSE(c);
  EXPECT_EQ(AG_SUCCESS, agStreamDestroy(released)) << anygpu_test::last_detail();
}

TEST(CppOwnersTest, EventMoves) {
  const anygpu::device dev = cpu();
  anygpu::stream s(dev);
  anygpu::event a(dev);
  anygpu::event b = expect_move_empties(a);
  b.record(s);
  b.synchronize();
  EXPECT_TRUE(b.query());

  anygpu::event c(dev);
  expect_move_assignment(c, std::move(b), expect_event_destroyed);
  anygpu::event later(dev);
  later.record(s);
  later.synchronize();
  EXPECT_GE(anygpu::elapsed_ms(c, later), 0.0f);

  const ag_event released = c.release();
  EXPECT_FALSE(c);
  EXPECT_EQ(AG_SUCCESS, agEventDestroy(released)) << anygpu_test::last_detail();
}

TEST(CppOwnersTest, ModuleMoves) {
  const anygpu::device dev = cpu();
  anygpu::module a = test_kernels(dev);
  const ag_module handle = a.get();
  anygpu::module b = expect_move_empties(a);
  // Its functions still run: the module was not unloaded by the moved-from owner.
  const anygpu::function saxpy = b.function("saxpy");
  anygpu::device_memory<float> x(dev, std::vector<float>{1, 2}), y(dev, std::vector<float>{0, 0});
  anygpu::launch(saxpy, 1, 2, 2, 3.0f, x, y);
  EXPECT_EQ((std::vector<float>{3, 6}), y.download());

  anygpu::module c = test_kernels(dev);
  expect_move_assignment(c, std::move(b), expect_module_unloaded);
  anygpu::launch(saxpy, 1, 2, 2, 1.0f, x, y);
  EXPECT_EQ((std::vector<float>{4, 8}), y.download());

  EXPECT_EQ(AG_SUCCESS, c.reset());
  expect_module_unloaded(handle);
  // A function of an unloaded module is a dead handle; launching it is an error, not a crash.
  EXPECT_THROW(anygpu::launch(saxpy, 1, 2, 2, 1.0f, x, y), anygpu::error);

  anygpu::module d = test_kernels(dev);
  const ag_module released = d.release();
  EXPECT_FALSE(d);
  EXPECT_EQ(AG_SUCCESS, agModuleUnload(released)) << anygpu_test::last_detail();
}

TEST(CppOwnersTest, ResetReportsInsteadOfThrowing) {
  const anygpu::device dev = cpu();
  anygpu::device_memory<char> a(dev, 16);
  // Free the pointer behind the owner's back: its reset() reports the failure, never throws.
  ASSERT_AG(agMemFree(dev.handle(), a.get()));
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, a.reset());
  EXPECT_FALSE(a);
  anygpu::stream s(dev);
  ASSERT_AG(agStreamDestroy(s.get()));
  EXPECT_EQ(AG_ERROR_INVALID_HANDLE, s.reset());
  // The same in a destructor: it must not throw (it would terminate the test program).
  {
    anygpu::event e(dev);
    ASSERT_AG(agEventDestroy(e.get()));
  }
  static_assert(std::is_nothrow_destructible<anygpu::device_memory<int>>::value, "");
  static_assert(std::is_nothrow_destructible<anygpu::module>::value, "");
  static_assert(std::is_nothrow_move_constructible<anygpu::stream>::value, "");
  static_assert(std::is_nothrow_move_assignable<anygpu::event>::value, "");
  static_assert(!std::is_copy_constructible<anygpu::device_memory<int>>::value, "");
  static_assert(!std::is_copy_assignable<anygpu::pinned_memory<int>>::value, "");
}

}  // namespace
