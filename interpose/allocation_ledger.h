// Live allocations by pointer, for the statistics: the peak of device memory allocated at once,
// and what was never freed. Device memory (cuMemAlloc*, hipMalloc) and page-locked host memory
// (cuMemAllocHost, cuMemHostAlloc, hipHostMalloc) are kept apart.
#pragma once

#include <cstddef>
#include <cstdint>

namespace anygpu::intercept {

enum class MemoryKind { device, host };

struct LedgerSummary {
  uint64_t peak_bytes[2] = {0, 0};  // by MemoryKind
  uint64_t live_count[2] = {0, 0};
  uint64_t live_bytes[2] = {0, 0};
};

void ledger_allocated(MemoryKind kind, uint64_t pointer, uint64_t bytes);
// Freeing a pointer the ledger does not hold (allocated before tracing began) changes nothing.
void ledger_freed(MemoryKind kind, uint64_t pointer);
// Lock-free (async-signal-safe): the counts as of the last completed change.
LedgerSummary ledger_summary();

void lock_ledger();
void unlock_ledger();
void reset_ledger();  // a forked child starts with none

}  // namespace anygpu::intercept
