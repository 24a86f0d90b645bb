// Checks the hand-written context switch on the machine it runs on: values live across switches
// (callee-saved integer and floating-point registers), many fibers interleave in a fixed cycle, and
// the floating-point environment is left alone. Standalone (no GoogleTest), so the
// aarch64 build can run under qemu-user; prints "N passed, M failed".
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "loaders/cpu/fiber.h"

using anygpu::cpu::ExecutionContext;
using anygpu::cpu::Fiber;
using anygpu::cpu::switch_context;

namespace {

int passed = 0, failed = 0;

void check(bool ok, const char* what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    printf("FAILED: %s\n", what);
  }
}

ExecutionContext main_context;

struct Worker {
  int id;
  std::unique_ptr<Fiber> fiber;
  unsigned long integer_result = 0;
  double float_result = 0;
};
std::vector<Worker> workers;
int rounds = 0;

void yield_from(int id) {
  const int next = id + 1;
  switch_context(workers[id].fiber->context(), next < static_cast<int>(workers.size())
                                                   ? workers[next].fiber->context()
                                                   : main_context);
}

// Integers and doubles that stay live across every switch.
struct State {
  unsigned long a, b, c;
  double x, y, z;
  explicit State(int id) : a(id), b(id * 3 + 1), c(7), x(id + 0.5), y(1.0 / (id + 2)), z(2.0) {}
  void step() {
    a = a * 31 + b;
    b ^= a >> 3;
    c += a & 0xFF;
    x = x * 1.0000001 + y;
    y = std::sqrt(y + z);
    z += 0.25;
  }
};

void worker_main(void* argument) {
  Fiber::on_first_entry();
  Worker& self = *static_cast<Worker*>(argument);
  State state(self.id);
  for (int round = 0; round < rounds; ++round) {
    state.step();
    yield_from(self.id);
  }
  self.integer_result = state.a + state.b + state.c;
  self.float_result = state.x + state.y + state.z;
  for (;;) yield_from(self.id);  // finished: keep passing the turn on
}

// The same arithmetic without switches.
void expected(int id, unsigned long& integer, double& floating) {
  State state(id);
  for (int round = 0; round < rounds; ++round) state.step();
  integer = state.a + state.b + state.c;
  floating = state.x + state.y + state.z;
}

ExecutionContext rounding_fiber_context;

void rounding_main(void*) {
  Fiber::on_first_entry();
  fesetround(FE_UPWARD);
  for (;;) switch_context(rounding_fiber_context, main_context);
}

}  // namespace

int main() {
  main_context = anygpu::cpu::current_thread_context();
  rounds = 1000;
  const int count = 64;
  workers.resize(count);
  for (int i = 0; i < count; ++i) {
    workers[i].id = i;
    workers[i].fiber = std::make_unique<Fiber>(&worker_main, &workers[i]);
    check(workers[i].fiber->valid(), "fiber stack mapped");
  }
  for (int round = 0; round <= rounds; ++round)
    switch_context(main_context, workers[0].fiber->context());
  for (int i = 0; i < count; ++i) {
    unsigned long integer;
    double floating;
    expected(i, integer, floating);
    check(workers[i].integer_result == integer, "integers live across switches");
    check(workers[i].float_result == floating, "doubles live across switches");
  }

  // The floating-point environment belongs to the OS thread and is not switched (fibers of a
  // worker run one launch's kernel threads): a mode set on a fiber is seen after the switch back.
  Fiber rounding(&rounding_main, nullptr);
  rounding_fiber_context = rounding.context();
  fesetround(FE_TONEAREST);
  switch_context(main_context, rounding_fiber_context);
  check(fegetround() == FE_UPWARD, "the floating-point environment is the thread's, not switched");
  fesetround(FE_TONEAREST);

  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
