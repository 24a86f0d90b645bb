// anygpu::launch checks the arguments against the kernel's parameter layout before anything
// reaches the device: a wrong count, a wrong size or a value of the wrong kind is an
// anygpu::error with AG_ERROR_INVALID_VALUE and a message that names the argument, and the kernel
// does not run.
#include <anygpu/anygpu.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "mixed_params.h"
#include "test_support.h"

namespace {

class CppLaunchCheckTest : public ::testing::Test {
 protected:
  const anygpu::device dev{anygpu_test::cpu_device()};
  anygpu::module kernels{dev, anygpu_image_test_kernels, anygpu_image_test_kernels_size};
  const anygpu::function saxpy = kernels.function("saxpy");
  const std::vector<float> x_values{1, 2, 3, 4};
  const std::vector<float> y_values{10, 20, 30, 40};
  anygpu::device_memory<float> x{dev, x_values};
  anygpu::device_memory<float> y{dev, y_values};
  const int n = 4;

  // Runs `launch`, expects it to throw INVALID_VALUE with `message`, and y to be unchanged.
  template <typename Launch>
  void expect_rejected(Launch launch, const std::string& message) {
    ASSERT_AG(agClearLastErrorDetail());
    try {
      launch();
      ADD_FAILURE() << "the launch was not rejected; expected: " << message;
    } catch (const anygpu::error& e) {
      EXPECT_EQ(AG_ERROR_INVALID_VALUE, e.code()) << e.what();
      EXPECT_EQ("anygpu::launch: " + message + " (AG_ERROR_INVALID_VALUE)", std::string(e.what()));
      EXPECT_EQ("anygpu::launch: " + message, e.detail());
    }
    // No anygpu call failed (the launch was never attempted) and the kernel did not run.
    EXPECT_EQ("", anygpu_test::last_detail());
    dev.synchronize();
    EXPECT_EQ(y_values, y.download());
  }
};

TEST_F(CppLaunchCheckTest, TheRightArgumentsRun) {
  anygpu::launch(saxpy, 1, 4, n, 2.0f, x, y);
  EXPECT_EQ((std::vector<float>{12, 24, 36, 48}), y.download());
}

TEST_F(CppLaunchCheckTest, WrongArgumentCount) {
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4, n, 2.0f, x); },
                  "saxpy takes 4 arguments, 3 given");
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4, n, 2.0f, x, y, y); },
                  "saxpy takes 4 arguments, 5 given");
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4); }, "saxpy takes 4 arguments, 0 given");
  anygpu::stream s(dev);
  expect_rejected([&] { anygpu::launch(saxpy, {1, 4, s}, n, x, y); },
                  "saxpy takes 4 arguments, 3 given");
}

TEST_F(CppLaunchCheckTest, WrongArgumentSizes) {
  // 3.1 as a double: were it launched, the float read from its bytes would change y.
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4, n, 3.1, x, y); },
                  "saxpy: argument 2 is 8 bytes (double), the kernel's parameter 2 is 4 bytes "
                  "(float)");
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4, int64_t{4}, 2.0f, x, y); },
                  "saxpy: argument 1 is 8 bytes (integer), the kernel's parameter 1 is 4 bytes "
                  "(integer)");
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4, n, 2.0f, x, 7); },
                  "saxpy: argument 4 is 4 bytes (integer), the kernel's parameter 4 is 8 bytes "
                  "(pointer)");
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4, n, x, x, y); },
                  "saxpy: argument 2 is 8 bytes (pointer), the kernel's parameter 2 is 4 bytes "
                  "(float)");
}

TEST_F(CppLaunchCheckTest, WrongKindsOfTheSameSize) {
  // An int literal for a float: the kernel would read its bits as a float.
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4, n, 2, x, y); },
                  "saxpy: argument 2 is 4 bytes (integer), the kernel's parameter 2 is 4 bytes "
                  "(float)");
  // A double where the kernel has a pointer.
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4, n, 2.0f, 1.5, y); },
                  "saxpy: argument 3 is 8 bytes (double), the kernel's parameter 3 is 8 bytes "
                  "(pointer)");
  // An integer where the kernel has a pointer.
  expect_rejected([&] { anygpu::launch(saxpy, 1, 4, n, 2.0f, x, uint64_t{0}); },
                  "saxpy: argument 4 is 8 bytes (integer), the kernel's parameter 4 is 8 bytes "
                  "(pointer)");
}

TEST_F(CppLaunchCheckTest, StructArgumentsAreCheckedBySize) {
  const anygpu::function mixed = kernels.function("mixed_params");
  anygpu::device_memory<double> out(dev, 8);
  out.fill_bytes(0);
  struct pair8 {
    int32_t first;
    float second;
  };
  try {
    anygpu::launch(mixed, 1, 1, 'a', short{1}, 2, int64_t{3}, 4.0f, 5.0, out, pair8{6, 7.0f});
    FAIL() << "an 8-byte struct for a 16-byte one was launched";
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, e.code());
    EXPECT_STREQ(
        "anygpu::launch: mixed_params: argument 8 is 8 bytes (struct), the kernel's parameter 8 "
        "is 16 bytes (struct) (AG_ERROR_INVALID_VALUE)",
        e.what());
  }
  EXPECT_EQ(std::vector<double>(8, 0.0), out.download());
  // Any struct of the right size passes (kinds of structs are not recorded).
  struct same_layout {
    int64_t a;
    double b;
  };
  anygpu::launch(mixed, 1, 1, 'a', short{1}, 2, int64_t{3}, 4.0f, 5.0, out, same_layout{6, 7.0});
  EXPECT_EQ((std::vector<double>{'a', 1, 2, 3, 4, 5, 6, 7}), out.download());
}

TEST_F(CppLaunchCheckTest, LooseKindsThatAreAccepted) {
  enum class count_type : int { four = 4 };
  // unsigned for int, an enum for int, a const pointer, a pinned buffer for a pointer.
  anygpu::launch(saxpy, 1, 4, 4u, 1.0f, static_cast<const float*>(x.get()), y);
  anygpu::launch(saxpy, 1, 4, count_type::four, 1.0f, x, y.get());
  EXPECT_EQ((std::vector<float>{12, 24, 36, 48}), y.download());
  anygpu::pinned_memory<float> pinned(dev, 4);
  for (float& v : pinned) v = 1.0f;
  anygpu::launch(saxpy, 1, 4, n, 1.0f, x, pinned);
  EXPECT_EQ(2.0f, pinned[0]);
  EXPECT_EQ(5.0f, pinned[3]);
  // nullptr is a pointer (n = 0: nothing is dereferenced).
  anygpu::launch(saxpy, 1, 4, 0, 1.0f, nullptr, nullptr);
}

TEST_F(CppLaunchCheckTest, ChecksHappenBeforeTheRuntimeIsCalled) {
  // Unload the module: its function handle is dead, so agLaunchKernel would answer
  // AG_ERROR_INVALID_HANDLE. A wrong argument is still reported as such, so the runtime was never
  // called.
  const anygpu::function dead = saxpy;
  ASSERT_EQ(AG_SUCCESS, kernels.reset());
  try {
    anygpu::launch(dead, 1, 4, n, 2.0, x, y);
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, e.code()) << e.what();
  }
  try {
    anygpu::launch(dead, 1, 4, n, 2.0f, x, y);
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_HANDLE, e.code()) << e.what();
    EXPECT_EQ(0u, std::string(e.what()).rfind("agLaunchKernel: ", 0)) << e.what();
  }
}

TEST_F(CppLaunchCheckTest, FunctionFromABareHandle) {
  const anygpu::function bare(saxpy.get());
  EXPECT_EQ("", bare.name());
  EXPECT_EQ(4, bare.param_count());
  expect_rejected([&] { anygpu::launch(bare, 1, 4, n, 2.0f, x); },
                  "kernel takes 4 arguments, 3 given");
  // An invalid handle has no layout: nothing to check, the runtime reports the handle.
  const anygpu::function invalid(nullptr, "ghost");
  EXPECT_EQ(-1, invalid.param_count());
  EXPECT_EQ("", anygpu_test::last_detail());  // reading the layout is a probe, not a failure
  try {
    anygpu::launch(invalid, 1, 1, n);
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_HANDLE, e.code());
  }
}

TEST_F(CppLaunchCheckTest, KernelWithoutParameters) {
  const anygpu::function empty = kernels.function("empty");
  EXPECT_EQ(0, empty.param_count());
  anygpu::launch(empty, 1, 1);
  // 0 is a known count (an unknown layout is AG_ERROR_NOT_SUPPORTED): an argument is one too many.
  try {
    anygpu::launch(empty, 1, 1, n);
    ADD_FAILURE() << "an argument for a kernel without parameters was accepted";
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, e.code());
    EXPECT_NE(std::string::npos, std::string(e.what()).find("empty takes 0 arguments, 1 given"))
        << e.what();
  }
}

}  // namespace
