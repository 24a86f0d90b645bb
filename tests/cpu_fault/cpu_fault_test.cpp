// A kernel that faults on the CPU device fails its launch as it would on a GPU: the process lives,
// the stream's synchronize reports AG_ERROR_LAUNCH_FAILED naming the kernel, the block and the
// address, and every later call on the device reports it too (sticky). A fault outside kernel code
// still reaches the application's own handler. The fault is sticky for the whole process, so each
// case runs in a fresh one (a "threadsafe" death test re-executes this program for it).
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "anygpu_image_fault_kernels.h"
#include "test_support.h"

namespace {

using anygpu_test::last_detail;

// Checks inside a death test's child: a failure is printed and ends the child with 1.
#define CHILD_CHECK(condition, ...)                                          \
  do {                                                                       \
    if (!(condition)) {                                                      \
      fprintf(stderr, "%s:%d: %s failed: ", __FILE__, __LINE__, #condition); \
      fprintf(stderr, __VA_ARGS__);                                          \
      fprintf(stderr, "\n");                                                 \
      _exit(1);                                                              \
    }                                                                        \
  } while (0)
#define CHILD_AG(call) CHILD_CHECK((call) == AG_SUCCESS, "%s", last_detail().c_str())

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct FaultModule {
  ag_device device = nullptr;
  ag_module module = nullptr;
  ag_stream stream = nullptr;
  ag_function store_at = nullptr;

  FaultModule() {
    CHILD_AG(agInit(0));
    device = anygpu_test::cpu_device();
    CHILD_CHECK(device != nullptr, "no CPU device");
    CHILD_AG(agModuleLoadData(device, anygpu_image_fault_kernels, anygpu_image_fault_kernels_size,
                              &module));
    CHILD_AG(agStreamCreate(device, 0, &stream));
    store_at = function("store_at");  // looked up before any fault, for the checks after it
  }
  ag_function function(const char* name) const {
    ag_function f = nullptr;
    CHILD_AG(agModuleGetFunction(module, name, &f));
    return f;
  }
};

// The stream's synchronize reports the fault with `parts` in its detail; then every later call on
// the device reports it too, while streams can still be destroyed.
void expect_sticky_fault(FaultModule& m, std::initializer_list<const char*> parts) {
  CHILD_CHECK(agStreamSynchronize(m.stream) == AG_ERROR_LAUNCH_FAILED, "sync: %s",
              last_detail().c_str());
  const std::string detail = last_detail();
  for (const char* part : parts)
    CHILD_CHECK(contains(detail, part), "'%s' not in the detail: %s", part, detail.c_str());
  fprintf(stderr, "detail: %s\n", detail.c_str());
  // Sticky: the same stream again, the device, new work, new objects.
  CHILD_CHECK(agStreamSynchronize(m.stream) == AG_ERROR_LAUNCH_FAILED, "%s", last_detail().c_str());
  CHILD_CHECK(contains(last_detail(), detail.substr(detail.find("kernel '"))), "%s",
              last_detail().c_str());
  CHILD_CHECK(agDeviceSynchronize(m.device) == AG_ERROR_LAUNCH_FAILED, "%s", last_detail().c_str());
  void* memory = nullptr;
  CHILD_CHECK(agMemAlloc(m.device, 64, &memory) == AG_ERROR_LAUNCH_FAILED, "%s",
              last_detail().c_str());
  CHILD_CHECK(memory == nullptr, "an allocation was made");
  ag_stream another = nullptr;
  CHILD_CHECK(agStreamCreate(m.device, 0, &another) == AG_ERROR_LAUNCH_FAILED, "%s",
              last_detail().c_str());
  int* null_base = nullptr;
  long long offset = 0;
  int no_block = -1;
  void* params[] = {&null_base, &offset, &no_block};
  CHILD_CHECK(agLaunchKernel(m.store_at, 1, 1, 1, 1, 1, 1, 0, m.stream, params, nullptr) ==
                  AG_ERROR_LAUNCH_FAILED,
              "%s", last_detail().c_str());
  // Streams can still be destroyed, so threads do not outlive the program's use of them; a module
  // unload frees the module and, like every call on the device, reports the fault.
  CHILD_AG(agStreamDestroy(m.stream));
  CHILD_CHECK(agModuleUnload(m.module) == AG_ERROR_LAUNCH_FAILED, "%s", last_detail().c_str());
}

void run_in_fresh_process(void (*scenario)()) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        scenario();
        _exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

void null_store() {
  FaultModule m;
  int* base = nullptr;
  long long offset = 0;
  int fault_block = 5;
  void* params[] = {&base, &offset, &fault_block};
  CHILD_AG(agLaunchKernel(m.store_at, 8, 1, 1, 32, 1, 1, 0, m.stream, params, nullptr));
  expect_sticky_fault(m, {"kernel 'store_at'", "block 5 ", "segmentation fault", "address 0x0 "});
}

TEST(CpuKernelFault, NullStoreFailsTheLaunchStickily) {
  run_in_fresh_process(null_store);
}

// A page the kernel may write, followed by one it may not: writing one int past the first faults.
void store_past_the_end() {
  FaultModule m;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mapping =
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHILD_CHECK(mapping != MAP_FAILED, "mmap");
  CHILD_CHECK(mprotect(static_cast<char*>(mapping) + page, page, PROT_NONE) == 0, "mprotect");
  int* base = static_cast<int*>(mapping);
  long long offset = static_cast<long long>(page / sizeof(int));
  int fault_block = 2;
  void* params[] = {&base, &offset, &fault_block};
  CHILD_AG(agLaunchKernel(m.store_at, 4, 1, 1, 1, 1, 1, 0, m.stream, params, nullptr));
  char address[64];
  snprintf(address, sizeof address, "address %p ", static_cast<void*>(base + offset));
  expect_sticky_fault(m, {"kernel 'store_at'", "block 2 ", "segmentation fault", address});
}

TEST(CpuKernelFault, StorePastMappedMemoryFailsTheLaunch) {
  run_in_fresh_process(store_past_the_end);
}

// assert in a CUDA kernel (tests/cpu_fault/assert_kernel.cu): C's message on stderr, and the
// launch fails as a device-side assert does on a GPU, instead of abort() ending the program.
void failed_assert() {
  FaultModule m;
  int n = 100;
  std::vector<int> values(n, 1);
  values[77] = -3;
  void* device_values = nullptr;
  CHILD_AG(agMemAlloc(m.device, n * sizeof(int), &device_values));
  CHILD_AG(agMemcpyHtoD(m.device, device_values, values.data(), n * sizeof(int)));
  void* params[] = {&device_values, &n};
  CHILD_AG(agLaunchKernel(m.function("check_positive"), 4, 1, 1, 32, 1, 1, 0, m.stream, params,
                          nullptr));
  expect_sticky_fault(m, {"kernel '_Z14check_positivePKii'", "block 2 ", "illegal instruction"});
}

TEST(CpuKernelFault, FailedAssertFailsTheLaunch) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        failed_assert();
        _exit(0);
      },
      ::testing::ExitedWithCode(0),
      "assert_kernel.cu:8: .*check_positive.*: kernel assertion `values\\[i\\] > 0' failed");
}

void divide_by_zero() {
  FaultModule m;
  int out[16] = {};
  int* out_pointer = out;
  int numerator = 84, divisor = 0, fault_block = 3;
  void* params[] = {&out_pointer, &numerator, &divisor, &fault_block};
  CHILD_AG(agLaunchKernel(m.function("divide"), 16, 1, 1, 1, 1, 1, 0, m.stream, params, nullptr));
  expect_sticky_fault(m, {"kernel 'divide'", "block 3 ", "divide by zero"});
}

TEST(CpuKernelFault, IntegerDivideByZeroFailsTheLaunch) {
  run_in_fresh_process(divide_by_zero);
}

// Lanes that wait in __shfl_sync for lanes that wait at __syncthreads() for them
// (tests/cpu_fault/warp_deadlock.cu): the launch fails, naming the kernel and the block, instead
// of the block hanging.
void lanes_wait_for_each_other() {
  FaultModule m;
  void* out = nullptr;
  CHILD_AG(agMemAlloc(m.device, 64 * sizeof(int), &out));
  void* params[] = {&out};
  CHILD_AG(agLaunchKernel(m.function("shuffle_against_barrier"), 1, 1, 1, 32, 1, 1, 0, m.stream,
                          params, nullptr));
  expect_sticky_fault(m, {"kernel '_Z23shuffle_against_barrierPi'", "block 0 ",
                          "waits, in __syncthreads() or in a warp function"});
}

TEST(CpuKernelFault, LanesWaitingForEachOtherFailTheLaunch) {
  run_in_fresh_process(lanes_wait_for_each_other);
}

// Odd and even threads of a block at two different __syncthreads() (warp_deadlock.cu): where
// the kernel runs as loops, they disagree on where the block goes and the launch fails instead
// of running a wrong schedule. Fibers count the arrivals alone and let the block through, so the
// case needs the barrier pass.
void threads_at_different_barriers() {
  FaultModule m;
  void* out = nullptr;
  CHILD_AG(agMemAlloc(m.device, 64 * sizeof(int), &out));
  void* params[] = {&out};
  CHILD_AG(agLaunchKernel(m.function("split_barriers"), 1, 1, 1, 64, 1, 1, 0, m.stream, params,
                          nullptr));
  expect_sticky_fault(m, {"kernel '_Z14split_barriersPi'", "block 0 ",
                          "waits, in __syncthreads() or in a warp function"});
}

TEST(CpuKernelFault, ThreadsAtDifferentBarriersFailTheLaunch) {
#ifndef ANYGPU_TEST_BARRIER_PASS
  GTEST_SKIP() << "this build has no barrier pass (ANYGPU_CPU_BARRIER_PASS=OFF or no LLVM 19 "
                  "development files), and fibers let such a block through";
#endif
  run_in_fresh_process(threads_at_different_barriers);
}

// Launched without dynamic shared memory, a kernel that uses it faults at once.
void dynamic_shared_missing() {
  FaultModule m;
  int out[4] = {};
  int* out_pointer = out;
  int count = 1;
  void* params[] = {&out_pointer, &count};
  CHILD_AG(agLaunchKernel(m.function("fill_dynamic_shared"), 4, 1, 1, 1, 1, 1, 0, m.stream, params,
                          nullptr));
  expect_sticky_fault(m,
                      {"kernel 'fill_dynamic_shared'", "faulted in block ", "segmentation fault"});
}

TEST(CpuKernelFault, DynamicSharedMemoryNotGivenFaults) {
  run_in_fresh_process(dynamic_shared_missing);
}

// Exactly what the launch gave works; one int more faults, instead of writing past it.
void dynamic_shared_overrun() {
  FaultModule m;
  int out[4] = {};
  int* out_pointer = out;
  int count = 16;
  void* params[] = {&out_pointer, &count};
  ag_function fill = m.function("fill_dynamic_shared");
  CHILD_AG(agLaunchKernel(fill, 4, 1, 1, 1, 1, 1, 16 * sizeof(int), m.stream, params, nullptr));
  CHILD_AG(agStreamSynchronize(m.stream));
  CHILD_CHECK(out[3] == 120, "sum %d", out[3]);
  count = 17;
  CHILD_AG(agLaunchKernel(fill, 4, 1, 1, 1, 1, 1, 16 * sizeof(int), m.stream, params, nullptr));
  expect_sticky_fault(m, {"kernel 'fill_dynamic_shared'", "segmentation fault"});
}

TEST(CpuKernelFault, DynamicSharedMemoryOverrunFaults) {
  run_in_fresh_process(dynamic_shared_overrun);
}

// A fault on a fiber's stack (the block runs its threads on fibers when the barrier pass is off)
// comes back to the worker's own stack.
void fault_on_fiber() {
  setenv("ANYGPU_CPU_WORKITEM_LOOPS", "0", 1);
  FaultModule m;
  int out[8 * 16] = {};
  int* out_pointer = out;
  int* target = nullptr;
  int fault_block = 6, fault_thread = 9;
  void* params[] = {&target, &fault_block, &fault_thread, &out_pointer};
  CHILD_AG(agLaunchKernel(m.function("store_after_barrier"), 8, 1, 1, 16, 1, 1, 0, m.stream, params,
                          nullptr));
  expect_sticky_fault(m, {"kernel 'store_after_barrier'", "block 6 ", "segmentation fault"});
}

TEST(CpuKernelFault, FaultOnAFiberStackFailsTheLaunch) {
  run_in_fresh_process(fault_on_fiber);
}

// A launch without a stream runs before the call returns: the call itself reports the fault.
void fault_without_stream() {
  FaultModule m;
  int* base = nullptr;
  long long offset = 0;
  int fault_block = 0;
  void* params[] = {&base, &offset, &fault_block};
  CHILD_CHECK(agLaunchKernel(m.store_at, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr) ==
                  AG_ERROR_LAUNCH_FAILED,
              "%s", last_detail().c_str());
  CHILD_CHECK(contains(last_detail(), "kernel 'store_at'"), "%s", last_detail().c_str());
  CHILD_CHECK(agStreamSynchronize(m.stream) == AG_ERROR_LAUNCH_FAILED, "%s", last_detail().c_str());
}

TEST(CpuKernelFault, FaultInALaunchWithoutAStreamFailsTheCall) {
  run_in_fresh_process(fault_without_stream);
}

// With ANYGPU_CPU_KERNEL_TIMEOUT_MS set, a launch that runs longer is stopped and reported as
// AG_ERROR_LAUNCH_TIMEOUT (sticky too); launches within the limit are not disturbed.
void watchdog_stops_a_spinning_kernel() {
  setenv("ANYGPU_CPU_KERNEL_TIMEOUT_MS", "200", 1);
  FaultModule m;
  int out[2] = {};
  int* out_pointer = out;
  int numerator = 84, divisor = 2, fault_block = 1;
  void* divide_params[] = {&out_pointer, &numerator, &divisor, &fault_block};
  CHILD_AG(
      agLaunchKernel(m.function("divide"), 2, 1, 1, 1, 1, 1, 0, m.stream, divide_params, nullptr));
  CHILD_AG(agStreamSynchronize(m.stream));
  CHILD_CHECK(out[1] == 42, "%d", out[1]);
  int flag = 0;
  int* flag_pointer = &flag;
  void* params[] = {&flag_pointer};
  CHILD_AG(agLaunchKernel(m.function("spin_until_set"), 64, 1, 1, 1, 1, 1, 0, m.stream, params,
                          nullptr));
  CHILD_CHECK(agStreamSynchronize(m.stream) == AG_ERROR_LAUNCH_TIMEOUT, "%s",
              last_detail().c_str());
  const std::string detail = last_detail();
  CHILD_CHECK(contains(detail,
                       "kernel 'spin_until_set' ran longer than "
                       "ANYGPU_CPU_KERNEL_TIMEOUT_MS=200"),
              "%s", detail.c_str());
  fprintf(stderr, "detail: %s\n", detail.c_str());
  CHILD_CHECK(agDeviceSynchronize(m.device) == AG_ERROR_LAUNCH_TIMEOUT, "%s",
              last_detail().c_str());
  CHILD_AG(agStreamDestroy(m.stream));
}

// RLIMIT_CPU's SIGXCPU (raised by the kernel, si_code > 0) keeps the application's disposition:
// ignored here, so the program outlives its soft CPU limit. The watchdog is off, so anygpu has no
// SIGXCPU handler at all; the fault handlers were installed by the launch.
void rlimit_cpu_signal_stays_ignored() {
  CHILD_CHECK(signal(SIGXCPU, SIG_IGN) != SIG_ERR, "signal");
  FaultModule m;
  int out[2] = {};
  int* out_pointer = out;
  int numerator = 84, divisor = 2, no_fault = -1;
  void* params[] = {&out_pointer, &numerator, &divisor, &no_fault};
  CHILD_AG(agLaunchKernel(m.function("divide"), 2, 1, 1, 1, 1, 1, 0, m.stream, params, nullptr));
  CHILD_AG(agStreamSynchronize(m.stream));
  const rlimit limit{1, 20};
  CHILD_CHECK(setrlimit(RLIMIT_CPU, &limit) == 0, "setrlimit");
  // Spin past the soft limit (1 s of CPU time) and the second SIGXCPU a second later: a handler
  // that made the first one's disposition the default is killed by the second.
  while (static_cast<double>(clock()) / CLOCKS_PER_SEC < 3.2) {
  }
}

TEST(CpuKernelFault, RlimitCpuSignalKeepsTheApplicationsDisposition) {
  run_in_fresh_process(rlimit_cpu_signal_stays_ignored);
}

TEST(CpuKernelFault, WatchdogStopsAKernelThatRunsTooLong) {
  run_in_fresh_process(watchdog_stops_a_spinning_kernel);
}

// Runs a kernel, so the CPU device's handlers are installed on top of the application's.
void run_a_good_kernel() {
  FaultModule m;
  int out[2] = {};
  int* out_pointer = out;
  int numerator = 84, divisor = 2, fault_block = 1;
  void* params[] = {&out_pointer, &numerator, &divisor, &fault_block};
  CHILD_AG(agLaunchKernel(m.function("divide"), 2, 1, 1, 1, 1, 1, 0, m.stream, params, nullptr));
  CHILD_AG(agStreamSynchronize(m.stream));
  CHILD_CHECK(out[0] == 84 && out[1] == 42, "%d %d", out[0], out[1]);
}

// A store to a page that is not writable, in the test's own code.
void fault_in_host_code() {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mapping = mmap(nullptr, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHILD_CHECK(mapping != MAP_FAILED, "mmap");
  *static_cast<volatile int*>(mapping) = 1;
}

void exit_42(int, siginfo_t*, void*) {
  _exit(42);
}

void application_handler_gets_host_fault() {
  struct sigaction action{};
  action.sa_sigaction = &exit_42;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  CHILD_CHECK(sigaction(SIGSEGV, &action, nullptr) == 0, "sigaction");
  run_a_good_kernel();
  fault_in_host_code();
  fprintf(stderr, "the fault did not reach the application's handler\n");
}

TEST(CpuKernelFault, FaultOutsideKernelCodeReachesTheApplicationsHandler) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(application_handler_gets_host_fault(), ::testing::ExitedWithCode(42), "");
}

void sent_signal_reaches_handler() {
  struct sigaction action{};
  action.sa_sigaction = &exit_42;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  CHILD_CHECK(sigaction(SIGFPE, &action, nullptr) == 0, "sigaction");
  run_a_good_kernel();
  raise(SIGFPE);
  fprintf(stderr, "the raised signal did not reach the application's handler\n");
}

TEST(CpuKernelFault, RaisedSignalReachesTheApplicationsHandler) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(sent_signal_reaches_handler(), ::testing::ExitedWithCode(42), "");
}

// Without a handler of its own, a program faulting outside kernel code ends as it always did (by
// the signal; under AddressSanitizer, by its report).
void default_disposition_kills() {
  run_a_good_kernel();
  fault_in_host_code();
  fprintf(stderr, "the process survived a fault in its own code\n");
  _exit(0);
}

bool ended_by_the_fault(int status) {
  // SIGABRT: AddressSanitizer's report with abort_on_error=1.
  if (WIFSIGNALED(status)) return WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGABRT;
  return WIFEXITED(status) && WEXITSTATUS(status) != 0;
}

TEST(CpuKernelFault, FaultOutsideKernelCodeStillEndsAProgramWithoutAHandler) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(default_disposition_kills(), ended_by_the_fault, "");
}

}  // namespace
