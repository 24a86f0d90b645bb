#include "interpose/call_stats.h"

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "interpose/allocation_ledger.h"
#include "interpose/function_names.h"

namespace anygpu::intercept {
namespace {

struct FunctionStats {
  std::atomic<long> calls{0};
  std::atomic<long> errors{0};
  std::atomic<long> injected{0};
  std::atomic<uint64_t> nanoseconds{0};
  std::atomic<uint64_t> bytes{0};
};

FunctionStats g_stats[kFunctionCount];
std::atomic<long> g_total_calls{0};
std::atomic<long> g_wrapped_entry_points{0};
std::mutex g_mutex;
auto* const g_passed_through = new std::map<std::string, long>;  // never destroyed

}  // namespace

void record_call(int id, uint64_t nanoseconds, bool failed, bool injected, uint64_t bytes) {
  FunctionStats& stats = g_stats[id];
  stats.calls.fetch_add(1, std::memory_order_relaxed);
  if (failed) stats.errors.fetch_add(1, std::memory_order_relaxed);
  if (injected) stats.injected.fetch_add(1, std::memory_order_relaxed);
  stats.nanoseconds.fetch_add(nanoseconds, std::memory_order_relaxed);
  stats.bytes.fetch_add(bytes, std::memory_order_relaxed);
  g_total_calls.fetch_add(1, std::memory_order_relaxed);
}

void record_entry_point(const char* symbol, bool wrapped) {
  if (wrapped) {
    g_wrapped_entry_points.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  ++(*g_passed_through)[symbol ? symbol : "(null)"];
}

long recorded_calls() {
  return g_total_calls.load();
}

void write_stats(FILE* out, long pid) {
  fprintf(out, "anygpu-intercept: statistics of process %ld\n", pid);
  fprintf(out, "%-32s %8s %8s %8s %12s %10s %14s\n", "function", "calls", "errors", "injected",
          "total ms", "mean us", "bytes");
  for (int id = 0; id < kFunctionCount; ++id) {
    const FunctionStats& stats = g_stats[id];
    long calls = stats.calls.load();
    if (calls == 0) continue;
    double total_us = static_cast<double>(stats.nanoseconds.load()) / 1000.0;
    fprintf(out, "%-32s %8ld %8ld %8ld %12.3f %10.2f %14llu\n", function_symbol(id), calls,
            stats.errors.load(), stats.injected.load(), total_us / 1000.0,
            total_us / static_cast<double>(calls),
            static_cast<unsigned long long>(stats.bytes.load()));
  }
  LedgerSummary memory = ledger_summary();
  const int device = static_cast<int>(MemoryKind::device),
            host = static_cast<int>(MemoryKind::host);
  fprintf(out, "device memory: peak %llu bytes; never freed: %llu allocation(s), %llu bytes\n",
          static_cast<unsigned long long>(memory.peak_bytes[device]),
          static_cast<unsigned long long>(memory.live_count[device]),
          static_cast<unsigned long long>(memory.live_bytes[device]));
  fprintf(
      out,
      "host memory (page-locked): peak %llu bytes; never freed: %llu allocation(s), %llu bytes\n",
      static_cast<unsigned long long>(memory.peak_bytes[host]),
      static_cast<unsigned long long>(memory.live_count[host]),
      static_cast<unsigned long long>(memory.live_bytes[host]));
  std::lock_guard<std::mutex> lock(g_mutex);
  long passed = 0;
  for (const auto& [symbol, count] : *g_passed_through) passed += count;
  fprintf(out,
          "entry points from cuGetProcAddress/hipGetProcAddress: %ld wrapped, %ld passed through",
          g_wrapped_entry_points.load(), passed);
  const char* separator = " (";
  for (const auto& [symbol, count] : *g_passed_through) {
    fprintf(out, "%s%s x%ld", separator, symbol.c_str(), count);
    separator = ", ";
  }
  fprintf(out, "%s\n", passed ? ")" : "");
  fflush(out);
}

void lock_stats() {
  g_mutex.lock();
}
void unlock_stats() {
  g_mutex.unlock();
}

void reset_stats() {
  for (FunctionStats& stats : g_stats) {
    stats.calls = 0;
    stats.errors = 0;
    stats.injected = 0;
    stats.nanoseconds = 0;
    stats.bytes = 0;
  }
  g_total_calls = 0;
  g_wrapped_entry_points = 0;
  g_passed_through->clear();
}

}  // namespace anygpu::intercept
