#include "interpose/fault_injector.h"

#include <atomic>
#include <cstdint>

#include "interpose/function_names.h"
#include "interpose/settings.h"

namespace anygpu::intercept {
namespace {

std::atomic<long> g_matching_calls[kMaxFaultSpecs];

// A well-mixed 64-bit hash (splitmix64): the k-th call of a spec fails with chance p, the same
// calls for the same seed in every run with the same call order.
uint64_t mix(uint64_t value) {
  value += 0x9e3779b97f4a7c15ull;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
  return value ^ (value >> 31);
}

bool spec_fires(const FaultSpec& spec, long call) {
  if (spec.nth > 0) return call == spec.nth;
  if (spec.probability >= 0.0) {
    double draw =
        static_cast<double>(mix(spec.seed ^ mix(static_cast<uint64_t>(call))) >> 11) * 0x1.0p-53;
    return draw < spec.probability;
  }
  return true;  // neither nth nor p: every call
}

}  // namespace

FaultDecision decide_fault(int id) {
  FaultDecision decision;
  const Settings& config = settings();
  if (!config.fault) return decision;
  int count = static_cast<int>(config.faults.size());
  for (int i = 0; i < count; ++i) {
    const FaultSpec& spec = config.faults[i];
    if (!name_selects(spec.function, id)) continue;
    long call = g_matching_calls[i].fetch_add(1) + 1;
    if (!decision.fails && spec_fires(spec, call)) {
      decision.fails = true;
      decision.after = spec.after;
      decision.error = spec.error;
    }
  }
  return decision;
}

void reset_fault_counts() {
  for (auto& count : g_matching_calls) count.store(0);
}

}  // namespace anygpu::intercept
