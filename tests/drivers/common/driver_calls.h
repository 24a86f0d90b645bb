// Each exported function's call count, and failures injected into its next calls: what a test
// asks of a driver through its control functions and its ..._TEST_FAIL variable. Functions are
// numbered by the driver (its own enum); results are the vendor's integer codes, 0 being success.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace anygpu::test_driver {

class CallTable {
 public:
  // `driver` names the driver in warnings; `functions` is how many it numbers.
  CallTable(const char* driver, int functions);

  // Counts a call of `fn` and returns the failure injected for it that is due now, else 0. Every
  // entry point starts with it. Without armed failures it takes no lock.
  int enter(int fn);

  // The `nth` call of `fn` from now (1: the next) returns `result`. False for nth < 1, result 0
  // or a function out of range.
  bool inject(int fn, int result, int nth);
  // Forgets the failures not yet returned.
  void clear();
  long calls(int fn) const;

  // Reads `value` as name:code[:nth],... (code from 1 to 2^30, nth from 1), arming each entry;
  // `find` gives the function a name denotes (false: unknown). Malformed entries are warned
  // about, as `variable`'s, and skipped.
  void read_failures(const char* variable, const std::string& value,
                     const std::function<bool(const std::string&, int*)>& find);

 private:
  struct Failure {
    int fn;
    int result;
    int remaining;  // calls until it fires, this one included
  };

  const char* driver_;
  int functions_;
  std::unique_ptr<std::atomic<long>[]> calls_;
  std::mutex mutex_;
  std::vector<Failure> failures_;
  std::atomic<int> armed_{0};
};

}  // namespace anygpu::test_driver
