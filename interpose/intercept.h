// What every wrapper does around its real function: calls made while another wrapper runs on the
// thread (a driver calling its own exported functions) and calls with no mode on go straight
// through; any other call may be failed by a fault spec, is timed, described and recorded.
#pragma once

#include "interpose/call_record.h"
#include "interpose/fault_injector.h"
#include "interpose/settings.h"

namespace anygpu::intercept {

// How many wrappers the thread is inside. Initial-exec TLS: the interposer is loaded at start-up
// (LD_PRELOAD), and the access is then a plain load, safe at any time.
extern thread_local int t_depth __attribute__((tls_model("initial-exec")));

struct DepthScope {
  DepthScope() { ++t_depth; }
  ~DepthScope() { --t_depth; }
};

// The result a wrapper returns when there is no real function to call.
int missing_real_function(int id);

template <typename Invoke, typename Describe>
int intercept(int id, Invoke&& invoke, Describe&& describe) {
  bool nested = t_depth > 0;
  DepthScope scope;
  if (nested || !settings().any()) return invoke();
  CallRecord record(id);
  FaultDecision fault = decide_fault(id);
  record.begin();
  int result = fault.fails && !fault.after ? fault.error : invoke();
  if (fault.fails) result = fault.error;
  record.end(result, fault.fails);
  describe(record);
  record.commit();
  return result;
}

}  // namespace anygpu::intercept
