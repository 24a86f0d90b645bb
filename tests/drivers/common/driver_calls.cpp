#include "driver_calls.h"

#include "driver_environment.h"

namespace anygpu::test_driver {

CallTable::CallTable(const char* driver, int functions)
    : driver_(driver), functions_(functions), calls_(new std::atomic<long>[functions]) {
  for (int i = 0; i < functions; ++i) calls_[i].store(0, std::memory_order_relaxed);
}

int CallTable::enter(int fn) {
  calls_[fn].fetch_add(1, std::memory_order_relaxed);
  if (armed_.load(std::memory_order_acquire) == 0) return 0;
  std::lock_guard<std::mutex> lock(mutex_);
  int due = 0;
  for (auto it = failures_.begin(); it != failures_.end();) {
    if (it->fn == fn && --it->remaining == 0) {
      if (due == 0) due = it->result;
      it = failures_.erase(it);
      armed_.fetch_sub(1, std::memory_order_release);
    } else {
      ++it;
    }
  }
  return due;
}

bool CallTable::inject(int fn, int result, int nth) {
  if (nth < 1 || result == 0 || fn < 0 || fn >= functions_) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  failures_.push_back({fn, result, nth});
  armed_.fetch_add(1, std::memory_order_release);
  return true;
}

void CallTable::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  armed_.fetch_sub(static_cast<int>(failures_.size()), std::memory_order_release);
  failures_.clear();
}

long CallTable::calls(int fn) const {
  return fn < 0 || fn >= functions_ ? -1 : calls_[fn].load(std::memory_order_relaxed);
}

void CallTable::read_failures(const char* variable, const std::string& value,
                              const std::function<bool(const std::string&, int*)>& find) {
  for (const std::string& entry : split(value, ',')) {
    if (entry.empty()) continue;
    const std::vector<std::string> fields = split(entry, ':');
    int fn = -1;
    long code = 0, nth = 1;
    if (fields.size() < 2 || fields.size() > 3 || !find(fields[0], &fn) ||
        !parse_int(fields[1], 1, 1 << 30, &code) ||
        (fields.size() == 3 && !parse_int(fields[2], 1, 1 << 30, &nth))) {
      warn(driver_, variable, entry, "expected name:code[:nth]");
      continue;
    }
    inject(fn, static_cast<int>(code), static_cast<int>(nth));
  }
}

}  // namespace anygpu::test_driver
