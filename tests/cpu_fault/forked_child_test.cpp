// A forked child of a process that initialised anygpu gets a clear error at once for the parent's
// objects (the threads that would run its work were not copied), instead of waiting forever; a
// child that never calls anygpu is unaffected.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "anygpu_image_fault_kernels.h"
#include "test_support.h"

namespace {

using anygpu_test::last_detail;

// The child's exit status, or -1 (after killing it) if it has not ended within 20 seconds.
int wait_bounded(pid_t child) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int status = 0;
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool refused_for_fork(ag_result result) {
  return result == AG_ERROR_NOT_INITIALIZED &&
         last_detail().find("a fork of one that initialised anygpu") != std::string::npos;
}

class ForkedChild : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_AG(agInit(0));
    device_ = anygpu_test::cpu_device();
    ASSERT_AG(agModuleLoadData(device_, anygpu_image_fault_kernels, anygpu_image_fault_kernels_size,
                               &module_));
    ASSERT_AG(agModuleGetFunction(module_, "divide", &divide_));
    ASSERT_AG(agStreamCreate(device_, 0, &stream_));
  }
  void TearDown() override {
    EXPECT_AG(agStreamDestroy(stream_));
    EXPECT_AG(agModuleUnload(module_));
  }
  // Launches divide on the stream: out[0] = 84, out[1] = 42.
  ag_result launch(int* out) {
    numerator_ = 84;
    divisor_ = 2;
    fault_block_ = 1;
    out_ = out;
    params_[0] = &out_;
    params_[1] = &numerator_;
    params_[2] = &divisor_;
    params_[3] = &fault_block_;
    return agLaunchKernel(divide_, 2, 1, 1, 1, 1, 1, 0, stream_, params_, nullptr);
  }

  ag_device device_ = nullptr;
  ag_module module_ = nullptr;
  ag_function divide_ = nullptr;
  ag_stream stream_ = nullptr;
  int* out_ = nullptr;
  int numerator_ = 0, divisor_ = 0, fault_block_ = 0;
  void* params_[4] = {};
};

TEST_F(ForkedChild, ParentsObjectsAreRefusedAtOnce) {
  int out[2] = {};
  ASSERT_AG(launch(out));
  ASSERT_AG(agStreamSynchronize(stream_));
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Each check ends the child with its own code, so the parent can say which failed.
    int child_out[2] = {};
    if (!refused_for_fork(launch(child_out))) _exit(10);
    if (!refused_for_fork(agStreamSynchronize(stream_))) _exit(11);
    if (!refused_for_fork(agDeviceSynchronize(device_))) _exit(12);
    void* memory = nullptr;
    if (!refused_for_fork(agMemAlloc(device_, 64, &memory)) || memory) _exit(13);
    ag_stream another = nullptr;
    if (!refused_for_fork(agStreamCreate(device_, 0, &another))) _exit(14);
    _exit(0);
  }
  EXPECT_EQ(0, wait_bounded(child)) << "-1: the child hung; 10..14: a call was not refused";
  // The parent goes on as before.
  out[0] = out[1] = 0;
  ASSERT_AG(launch(out));
  ASSERT_AG(agStreamSynchronize(stream_));
  EXPECT_EQ(42, out[1]);
}

// A parent thread inside a call at the fork leaves its handle reference counted in the child's
// copy, with no thread to drop it: a destroy there must be refused, not wait for it forever.
TEST_F(ForkedChild, DestroyIsRefusedWhileAParentThreadWasInsideACall) {
  ag_function spin = nullptr;
  ASSERT_AG(agModuleGetFunction(module_, "spin_until_set", &spin));
  int flag = 0;
  int* flag_pointer = &flag;
  void* params[] = {&flag_pointer};
  ASSERT_AG(agLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, stream_, params, nullptr));
  std::thread waiter([&] { EXPECT_AG(agStreamSynchronize(stream_)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the waiter is inside by now
  const pid_t child = fork();
  if (child == 0) {
    if (!refused_for_fork(agStreamDestroy(stream_))) _exit(10);
    if (!refused_for_fork(agModuleUnload(module_))) _exit(11);
    if (!refused_for_fork(agModuleGetFunction(module_, "divide", &spin))) _exit(12);
    _exit(0);
  }
  const int status = child < 0 ? -2 : wait_bounded(child);
  __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);  // let the kernel, then the waiter, finish
  waiter.join();
  EXPECT_EQ(0, status) << "-1: the child hung; 10..12: a call was not refused";
}

TEST_F(ForkedChild, ChildThatNeverCallsAnygpuIsUnaffected) {
  int out[2] = {};
  ASSERT_AG(launch(out));  // the workers are running when the process forks
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // exit() runs the thread-local and static destructors, as a normal program ends. The handler
    // registered here runs after them and before LeakSanitizer's exit check, which in a forked
    // child would report the parent's other threads' records as leaks.
    atexit([] { _exit(7); });
    exit(7);
  }
  EXPECT_EQ(7, wait_bounded(child)) << "-1: the child hung on exit";
  ASSERT_AG(agStreamSynchronize(stream_));
}

}  // namespace
