// Thread loops whose every iteration starts with `if (threadIdx.x < d)` and does nothing
// otherwise: a level of a tree reduction or of a scan's up- and down-sweep, where d halves down to
// 1 while the block keeps its 256 or 1024 threads. The vectorizer masks such a loop but still
// walks every thread; here the loop ends at min(blockDim.x, d) instead. The guard stays (it is
// true for every remaining iteration but thread 0 of an empty level, which a loop over threads,
// entered at thread 0, always runs).
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {
namespace {

// `value` is the counter, or the counter widened.
bool is_counter(Value* value, PHINode* counter) {
  if (auto* cast = dyn_cast<CastInst>(value); cast && (isa<ZExtInst>(cast) || isa<SExtInst>(cast)))
    value = cast->getOperand(0);
  return value == counter;
}

// The iterations past the guard's bound go straight to the latch, and nothing there depends on
// which way they came except values carried through unchanged.
bool skipped_iterations_do_nothing(Loop& loop, BasicBlock* skipped) {
  BasicBlock* latch = loop.getLoopLatch();
  BasicBlock* from = loop.getHeader();
  if (skipped != latch) {
    if (skipped->size() != 1 || skipped->getSingleSuccessor() != latch) return false;
    from = skipped;
  }
  for (PHINode& phi : latch->phis()) {
    auto* carried = dyn_cast<PHINode>(phi.getIncomingValueForBlock(from));
    if (!carried || carried->getParent() != loop.getHeader() ||
        carried->getIncomingValueForBlock(latch) != &phi)
      return false;
  }
  for (BasicBlock* block : {loop.getHeader(), skipped, latch})
    for (Instruction& instruction : *block)
      if (instruction.mayHaveSideEffects()) return false;
  return true;
}

bool shorten(Loop& loop) {
  PHINode* counter = loop.getCanonicalInductionVariable();
  BasicBlock* preheader = loop.getLoopPreheader();
  if (!counter || !preheader || !loop.getLoopLatch()) return false;
  auto* guard = dyn_cast<BranchInst>(loop.getHeader()->getTerminator());
  if (!guard || !guard->isConditional()) return false;
  auto* compare = dyn_cast<ICmpInst>(guard->getCondition());
  if (!compare) return false;
  // Normalised to `counter < limit` on the guard's true side.
  Value* limit = nullptr;
  ICmpInst::Predicate predicate = compare->getPredicate();
  if (is_counter(compare->getOperand(0), counter)) {
    limit = compare->getOperand(1);
  } else if (is_counter(compare->getOperand(1), counter)) {
    limit = compare->getOperand(0);
    predicate = ICmpInst::getSwappedPredicate(predicate);
  }
  if (!limit || !loop.isLoopInvariant(limit)) return false;
  Value* side = compare->getOperand(0) == limit ? compare->getOperand(1) : compare->getOperand(0);
  BasicBlock* active = guard->getSuccessor(0);
  BasicBlock* skipped = guard->getSuccessor(1);
  if (predicate == ICmpInst::ICMP_UGE || predicate == ICmpInst::ICMP_SGE) {
    std::swap(active, skipped);
    predicate = ICmpInst::getInversePredicate(predicate);
  }
  const bool is_signed = predicate == ICmpInst::ICMP_SLT;
  if (predicate != ICmpInst::ICMP_ULT && !is_signed) return false;
  if (is_signed && isa<ZExtInst>(side)) return false;  // a widened counter compared as signed
  if (active == skipped || !skipped_iterations_do_nothing(loop, skipped)) return false;
  bool header_on_true = true;
  Value* bound = thread_loop_bound(loop, counter, header_on_true);
  if (!bound) return false;

  IRBuilder<> builder(preheader->getTerminator());
  Type* wide = limit->getType();
  Value* size = builder.CreateZExtOrTrunc(bound, wide);
  Value* shorter = builder.CreateBinaryIntrinsic(Intrinsic::umin, size, limit);
  if (is_signed)  // a negative limit: no thread passes the guard
    shorter = builder.CreateSelect(builder.CreateICmpSLT(limit, ConstantInt::get(wide, 0)),
                                   ConstantInt::get(wide, 0), shorter);
  Value* end = builder.CreateZExtOrTrunc(shorter, counter->getType(), "wi.guarded_end");
  BasicBlock* latch = loop.getLoopLatch();
  auto* back = cast<BranchInst>(latch->getTerminator());
  IRBuilder<> at_latch(back);
  Value* next = counter->getIncomingValueForBlock(latch);
  back->setCondition(header_on_true ? at_latch.CreateICmpULT(next, end)
                                    : at_latch.CreateICmpUGE(next, end));
  return true;
}

}  // namespace

Value* thread_loop_bound(Loop& loop, PHINode* counter, bool& header_on_true) {
  BasicBlock* latch = loop.getLoopLatch();
  auto* branch = dyn_cast<BranchInst>(latch->getTerminator());
  if (!branch || !branch->isConditional()) return nullptr;
  auto* compare = dyn_cast<ICmpInst>(branch->getCondition());
  Value* next = counter->getIncomingValueForBlock(latch);
  if (!compare || compare->getOperand(0) != next || !loop.isLoopInvariant(compare->getOperand(1)))
    return nullptr;
  header_on_true = branch->getSuccessor(0) == loop.getHeader();
  const ICmpInst::Predicate stays =
      header_on_true ? compare->getPredicate() : compare->getInversePredicate();
  if (stays != ICmpInst::ICMP_ULT && stays != ICmpInst::ICMP_NE) return nullptr;
  return compare->getOperand(1);
}

unsigned shorten_guarded_thread_loops(Function& entry, FunctionAnalysisManager& analyses) {
  LoopInfo& loops = analyses.getResult<LoopAnalysis>(entry);
  unsigned shortened = 0;
  for (Loop* loop : loops.getLoopsInPreorder()) {
    MDNode* id = loop->getLoopID();
    if (id && findOptionMDForLoopID(id, "llvm.loop.parallel_accesses") && shorten(*loop))
      ++shortened;
  }
  if (shortened) analyses.invalidate(entry, PreservedAnalyses::none());
  return shortened;
}

}  // namespace anygpu_pass
