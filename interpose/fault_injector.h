// Decides, call by call, whether a fault spec fails it (settings().faults, mode fault).
#pragma once

namespace anygpu::intercept {

struct FaultDecision {
  bool fails = false;
  bool after = false;  // run the real call first, then return `error`
  int error = 0;
};

// Counts the call against every spec selecting function `id`; the first spec that fires decides.
FaultDecision decide_fault(int id);

// A forked child counts its own calls from zero.
void reset_fault_counts();

}  // namespace anygpu::intercept
