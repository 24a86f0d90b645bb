// The pass plugin clang loads with -fpass-plugin (cmake/AnygpuKernels.cmake does it for the host
// code objects). It runs once the module is inlined and simplified, before the vectorizer, which
// then widens the loops it made. `opt -passes=anygpu-work-item-loops` runs it alone.
#include <cstdlib>
#include <map>

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopBoundSplit.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimpleLoopUnswitch.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {
namespace {

// What a kernel the pass gives up on keeps: its block entry returns at once, and its state stays
// 0, so the CPU backend never calls it and runs the kernel on fibers.
void leave_to_fibers(Function& entry) {
  const GlobalValue::VisibilityTypes visibility = entry.getVisibility();
  entry.deleteBody();
  entry.setVisibility(visibility);
  ReturnInst::Create(entry.getContext(), BasicBlock::Create(entry.getContext(), "", &entry));
}

// ANYGPU_BARRIER_PASS_VERBOSE=1 names each kernel made into loops; 2 also prints its entry
// before the rewrite.
int verbosity() {
  static const int level = [] {
    const char* value = getenv("ANYGPU_BARRIER_PASS_VERBOSE");
    if (!value || !*value) return 0;
    if (value[0] >= '0' && value[0] <= '2' && value[1] == '\0') return value[0] - '0';
    errs() << "anygpu barrier pass: ANYGPU_BARRIER_PASS_VERBOSE=" << value
           << " is not 0, 1 or 2; using 0\n";
    return 0;
  }();
  return level;
}

// Pre-Volta warp-synchronous code: volatile accesses to shared memory (thread-local on the host)
// with no __syncwarp() between them, trusting a warp's lanes to run in lockstep. The CPU device
// runs them one after another, so such code computes something else; the build says so.
bool volatile_shared_access(Function& entry) {
  for (Instruction& instruction : instructions(entry)) {
    const Value* pointer = nullptr;
    if (auto* load = dyn_cast<LoadInst>(&instruction); load && load->isVolatile())
      pointer = load->getPointerOperand();
    if (auto* store = dyn_cast<StoreInst>(&instruction); store && store->isVolatile())
      pointer = store->getPointerOperand();
    if (!pointer) continue;
    const auto* object = dyn_cast<GlobalVariable>(getUnderlyingObject(pointer, 0));
    if (object && object->isThreadLocal()) return true;
  }
  return false;
}

}  // namespace

void clean_up(Function& entry, FunctionAnalysisManager& analyses, bool rewritten) {
  FunctionPassManager passes;
  passes.addPass(SROAPass(SROAOptions::ModifyCFG));
  passes.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  passes.addPass(InstCombinePass());
  passes.addPass(SimplifyCFGPass());
  passes.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()), /*UseMemorySSA=*/true));
  passes.addPass(InstCombinePass());
  // No LoopBoundSplitPass (which split `if (i < n)` off the thread loop): LLVM 19's gives the
  // first loop one iteration too few where the latch compares the incremented counter, as every
  // thread loop does. Thread 31 of a block of 32 then took the `tid >= 32` side of
  // `if (threadIdx.x / warpSize == 0)` (shfl_scan in tests/cuda_sources). The vectorizer masks
  // such a branch instead.
  if (rewritten) {
    // A branch on a block-wide value inside a thread loop (the `stride < blockDim.x` that ends a
    // reduction's loop) becomes two loops, so the vectorizer does not run both sides masked.
    LoopPassManager unswitch;
    unswitch.addPass(SimpleLoopUnswitchPass(/*NonTrivial=*/true));
    passes.addPass(createFunctionToLoopPassAdaptor(std::move(unswitch), /*UseMemorySSA=*/true));
    // Peel the first thread off a loop where `threadIdx.x == 0` guards the work, so the rest of
    // the loop has none (else the vectorizer runs it masked for every thread).
    passes.addPass(
        LoopUnrollPass(LoopUnrollOptions(2).setPeeling(true).setPartial(false).setRuntime(false)));
  }
  passes.addPass(SimplifyCFGPass());
  passes.run(entry, analyses);
}

// Clang marks nothing convergent outside GPU targets. Without it, jump threading and friends may
// copy a barrier into both sides of an `if (threadIdx.x == 0)`, and the copies become barriers
// that only some threads reach. So before any optimisation: the barrier and warp-exchange
// markers, every call to them, and every function (and call) that can reach them.
PreservedAnalyses MarkConvergentPass::run(Module& module, ModuleAnalysisManager&) {
  SmallVector<Function*, 8> work;
  for (const char* name : {kBarrier, kWarpExchange}) {
    Function* marker = module.getFunction(name);
    if (!marker) continue;
    // Its call through ctx->barrier too, or LLVM would find that nothing convergent happens
    // inside it and drop the attribute from it and its callers.
    for (Instruction& instruction : instructions(*marker))
      if (auto* call = dyn_cast<CallBase>(&instruction)) call->setConvergent();
    work.push_back(marker);
  }
  if (work.empty()) return PreservedAnalyses::all();
  SmallPtrSet<Function*, 16> done;
  while (!work.empty()) {
    Function* function = work.pop_back_val();
    if (!done.insert(function).second) continue;
    function->setConvergent();
    for (User* user : function->users())
      if (auto* call = dyn_cast<CallBase>(user); call && call->getCalledFunction() == function) {
        call->setConvergent();
        work.push_back(call->getFunction());
      }
  }
  return PreservedAnalyses::none();
}

// One kernel's block entry, or each of its target clones (agk_wi_block_NAME.avx2.1, ...: the
// ifunc agk_wi_block_NAME picks one when the code object is loaded). Returns why not, or "".
std::string rewrite(Function& entry, FunctionAnalysisManager& analyses) {
  if (entry.arg_size() != 2) return "its block entry is not the one kernel_host.h emits";
  std::string why = inline_calls(entry);
  Prepared prepared;
  if (why.empty()) {
    analyses.invalidate(entry, PreservedAnalyses::none());
    clean_up(entry, analyses, false);  // SROA: the kernel's frame becomes plain values
    if (verbosity() >= 2) entry.print(errs());
    why = prepare(entry, prepared);
  }
  SoftLoops soft;
  if (why.empty()) why = build_loops(entry, prepared, soft);
  // After the loops: the plain accesses it leaves carry no parallel mark, so the vectorizer
  // checks them itself (two threads may add to the same shared counter).
  unsigned lowered = 0, shortened = 0, prefetched = 0;
  if (why.empty()) lowered = lower_block_local_atomics(entry);
  if (why.empty() && verifyFunction(entry, &errs()))
    why = "internal error: the rewritten entry does not verify";
  analyses.invalidate(entry, PreservedAnalyses::none());
  if (why.empty()) {
    clean_up(entry, analyses, true);
    // Again: a shared-memory address live across a barrier reaches its atomics through the
    // loops' per-thread copies until the clean-up makes it the address itself.
    if (const unsigned more = lower_block_local_atomics(entry)) {
      lowered += more;
      analyses.invalidate(entry, PreservedAnalyses::none());
    }
    shortened = shorten_guarded_thread_loops(entry, analyses);
    prefetched = prefetch_grid_stride_passes(entry, analyses);
    if (verifyFunction(entry, &errs()))
      why = "internal error: the entry does not verify after the grid-stride prefetches";
    else
      drop_unsafe_parallel_marks(entry, analyses);
  }
  if (shortened && verbosity() >= 1)
    errs() << "anygpu barrier pass: " << entry.getName() << ": " << shortened
           << " thread loop(s) end where their `threadIdx.x < d` guard does\n";
  if (why.empty() && soft.kept && verbosity() >= 1)
    errs() << "anygpu barrier pass: " << entry.getName() << ": " << soft.kept
           << " grid-stride loop(s) run a step at a time for all threads\n";
  if (why.empty() && prepared.unrolled_loops && verbosity() >= 1)
    errs() << "anygpu barrier pass: " << entry.getName() << ": " << prepared.unrolled_loops
           << " grid-stride loop(s) run two iterations a pass\n";
  if (why.empty() && prefetched && verbosity() >= 1)
    errs() << "anygpu barrier pass: " << entry.getName() << ": " << prefetched
           << " address range(s) of grid-stride passes prefetched\n";
  if (why.empty() && !soft.whole_why.empty() && verbosity() >= 1)
    errs() << "anygpu barrier pass: " << entry.getName()
           << ": grid-stride loops stay whole loops: " << soft.whole_why << "\n";
  if (why.empty() && prepared.exchanges && verbosity() >= 1)
    errs() << "anygpu barrier pass: " << entry.getName() << ": " << prepared.narrow_exchanges
           << " of " << prepared.exchanges << " warp exchange(s) pass 32-bit values\n";
  if (lowered && verbosity() >= 1)
    errs() << "anygpu barrier pass: " << entry.getName() << ": " << lowered
           << " shared-memory atomics made plain\n";
  return why;
}

PreservedAnalyses WorkItemLoopsPass::run(Module& module, ModuleAnalysisManager& module_analyses) {
  auto& analyses =
      module_analyses.getResult<FunctionAnalysisManagerModuleProxy>(module).getManager();
  std::map<std::string, SmallVector<Function*, 4>> entries;  // by kernel
  for (Function& function : module) {
    const StringRef name = function.getName();
    if (function.isDeclaration() || !name.starts_with(kBlockPrefix) || name.ends_with(".resolver"))
      continue;
    entries[name.drop_front(strlen(kBlockPrefix)).split('.').first.str()].push_back(&function);
  }
  if (entries.empty()) return PreservedAnalyses::all();

  for (auto& [kernel, versions] : entries) {
    GlobalVariable* state = module.getGlobalVariable(kStatePrefix + kernel, true);
    std::string why;
    if (!state || state->isDeclaration()) why = "its state flag is missing";
    for (Function* version : versions)
      if (why.empty()) why = rewrite(*version, analyses);
    if (volatile_shared_access(*versions.front()))
      errs() << "anygpu barrier pass: warning: kernel " << kernel
             << " reads or writes shared memory through volatile pointers, as pre-Volta "
                "warp-synchronous code does; the CPU device runs a warp's lanes one after "
                "another, not in lockstep, so such code gives other results there: as CUDA asks "
                "since Volta, "
                "put __syncwarp() between each step's reads and its writes\n";
    if (!why.empty()) {
      for (Function* version : versions) leave_to_fibers(*version);
      errs() << "anygpu barrier pass: kernel " << kernel << " stays on fibers: " << why << "\n";
      continue;
    }
    state->setInitializer(ConstantInt::get(state->getValueType(), 1));
    if (verbosity() >= 1) errs() << "anygpu barrier pass: kernel " << kernel << " runs as loops\n";
  }
  // Entries left to fibers lost their bodies, and with them any pass count marker.
  if (Function* marker = module.getFunction(kPassCount); marker && marker->use_empty())
    marker->eraseFromParent();
  return PreservedAnalyses::none();
}

}  // namespace anygpu_pass

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {
      LLVM_PLUGIN_API_VERSION, "anygpu-barrier-pass", "1", [](PassBuilder& builder) {
        builder.registerPipelineStartEPCallback([](ModulePassManager& passes, OptimizationLevel) {
          passes.addPass(anygpu_pass::MarkConvergentPass());
          passes.addPass(anygpu_pass::VectorMathPass());
          passes.addPass(anygpu_pass::ExternSharedPass());
        });
        builder.registerOptimizerEarlyEPCallback([](ModulePassManager& passes, OptimizationLevel) {
          passes.addPass(anygpu_pass::WorkItemLoopsPass());
        });
        builder.registerPipelineParsingCallback(
            [](StringRef name, ModulePassManager& passes, ArrayRef<PassBuilder::PipelineElement>) {
              if (name != "anygpu-work-item-loops") return false;
              passes.addPass(anygpu_pass::WorkItemLoopsPass());
              return true;
            });
      }};
}
