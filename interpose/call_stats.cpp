#include "interpose/call_stats.h"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "interpose/allocation_ledger.h"
#include "interpose/function_names.h"
#include "interpose/signal_safe_text.h"

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
std::atomic<long> g_passed_through_calls{0};
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
  g_passed_through_calls.fetch_add(1, std::memory_order_relaxed);
}

long recorded_calls() {
  return g_total_calls.load();
}

void write_stats(int fd, long pid, const char* occasion) {
  FdText out(fd);
  out.text("anygpu-intercept: statistics of process ").number(static_cast<uint64_t>(pid));
  if (occasion) out.text(" ").text(occasion);
  out.text("\n").left("function", 32);
  for (auto [title, width] :
       {std::pair{"calls", 9}, std::pair{"errors", 9}, std::pair{"injected", 9},
        std::pair{"total ms", 13}, std::pair{"mean us", 11}, std::pair{"bytes", 15}}) {
    const int length = static_cast<int>(strlen(title));
    for (int i = length; i < width; ++i) out.text(" ");
    out.text(title);
  }
  out.text("\n");
  for (int id = 0; id < kFunctionCount; ++id) {
    const FunctionStats& stats = g_stats[id];
    const uint64_t calls = static_cast<uint64_t>(stats.calls.load());
    if (calls == 0) continue;
    const uint64_t nanoseconds = stats.nanoseconds.load();
    out.left(function_symbol(id), 32).text(" ").number(calls, 8).text(" ");
    out.number(static_cast<uint64_t>(stats.errors.load()), 8).text(" ");
    out.number(static_cast<uint64_t>(stats.injected.load()), 8).text(" ");
    // Milliseconds with 3 decimals, microseconds per call with 2, rounded to the nearest.
    out.fixed((nanoseconds + 500) / 1000, 3, 12).text(" ");
    out.fixed((nanoseconds + 5 * calls) / (10 * calls), 2, 10).text(" ");
    out.number(stats.bytes.load(), 14).text("\n");
  }
  const LedgerSummary memory = ledger_summary();
  for (auto [kind, title] : {std::pair{MemoryKind::device, "device memory"},
                             std::pair{MemoryKind::host, "host memory (page-locked)"}}) {
    const int k = static_cast<int>(kind);
    out.text(title).text(": peak ").number(memory.peak_bytes[k]).text(" bytes; never freed: ");
    out.number(memory.live_count[k]).text(" allocation(s), ").number(memory.live_bytes[k]);
    out.text(" bytes\n");
  }
  out.text("entry points from cuGetProcAddress/hipGetProcAddress: ");
  out.number(static_cast<uint64_t>(g_wrapped_entry_points.load())).text(" wrapped, ");
  out.number(static_cast<uint64_t>(g_passed_through_calls.load())).text(" passed through");
  // A signal handler must not wait for the lock: the interrupted thread may hold it.
  const bool locked = occasion ? g_mutex.try_lock() : (g_mutex.lock(), true);
  if (locked) {
    const char* separator = " (";
    for (const auto& [symbol, count] : *g_passed_through) {
      out.text(separator).text(symbol.c_str()).text(" x").number(static_cast<uint64_t>(count));
      separator = ", ";
    }
    if (!g_passed_through->empty()) out.text(")");
    g_mutex.unlock();
  }
  out.text("\n");
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
  g_passed_through_calls = 0;
  g_passed_through->clear();
}

}  // namespace anygpu::intercept
