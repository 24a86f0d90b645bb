#include "interpose/allocation_ledger.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace anygpu::intercept {
namespace {

// The counts are atomics, changed under the mutex, so that a crash handler reads them without it.
struct Ledger {
  std::unordered_map<uint64_t, uint64_t> live[2];
  std::atomic<uint64_t> live_count[2] = {0, 0};
  std::atomic<uint64_t> current_bytes[2] = {0, 0};
  std::atomic<uint64_t> peak_bytes[2] = {0, 0};
};

std::mutex g_mutex;
Ledger* const g_ledger =
    new Ledger;  // never destroyed: allocations may be freed in a late teardown

}  // namespace

void ledger_allocated(MemoryKind kind, uint64_t pointer, uint64_t bytes) {
  int k = static_cast<int>(kind);
  std::lock_guard<std::mutex> lock(g_mutex);
  auto [entry, inserted] = g_ledger->live[k].emplace(pointer, bytes);
  if (!inserted) {  // the driver reused an address we never saw freed
    g_ledger->current_bytes[k] -= entry->second;
    entry->second = bytes;
  }
  g_ledger->live_count[k] = g_ledger->live[k].size();
  g_ledger->current_bytes[k] += bytes;
  if (g_ledger->current_bytes[k] > g_ledger->peak_bytes[k])
    g_ledger->peak_bytes[k] = g_ledger->current_bytes[k].load();
}

void ledger_freed(MemoryKind kind, uint64_t pointer) {
  int k = static_cast<int>(kind);
  std::lock_guard<std::mutex> lock(g_mutex);
  auto entry = g_ledger->live[k].find(pointer);
  if (entry == g_ledger->live[k].end()) return;
  g_ledger->current_bytes[k] -= entry->second;
  g_ledger->live[k].erase(entry);
  g_ledger->live_count[k] = g_ledger->live[k].size();
}

LedgerSummary ledger_summary() {
  LedgerSummary summary;
  for (int k = 0; k < 2; ++k) {
    summary.peak_bytes[k] = g_ledger->peak_bytes[k];
    summary.live_count[k] = g_ledger->live_count[k];
    summary.live_bytes[k] = g_ledger->current_bytes[k];
  }
  return summary;
}

void lock_ledger() {
  g_mutex.lock();
}
void unlock_ledger() {
  g_mutex.unlock();
}

void reset_ledger() {
  for (int k = 0; k < 2; ++k) {
    g_ledger->live[k].clear();
    g_ledger->live_count[k] = 0;
    g_ledger->current_bytes[k] = 0;
    g_ledger->peak_bytes[k] = 0;
  }
}

}  // namespace anygpu::intercept
