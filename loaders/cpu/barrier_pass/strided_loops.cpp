// Grid-stride loops (`for (i = global_id; i < n; i += blockDim.x * gridDim.x)`), the loop CUDA
// programmers write to cover any size with any grid. Inside a thread loop each thread would walk
// its own strided sequence to the end before the next thread starts: the vectorizer cannot widen
// the thread loop around it (an outer loop) and the walk touches a new cache line at every step.
// A soft back edge instead makes each iteration of such a loop a region of its own, run for all
// the threads that are still in the loop before any goes on (build_loops, "soft regions"): the
// thread loop becomes the inner one, consecutive threads read consecutive addresses, and the
// vectorizer widens it. Each thread still runs its iterations in order; only the interleaving of
// threads changes, which CUDA leaves open between barriers.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {
namespace {

// Grid-stride loops (their stride reads gridDim) whose bodies are up to this size and read one
// element of global memory run two iterations per pass: the per-thread bookkeeping of a pass (the
// thread's loop mark, its live values in memory) then serves two elements, not one. Measured
// slower unrolled, and so left as they are: a body that reads two already (reduceGridStride:
// in[i] and in[i + blockDim.x], 1.85 -> 2.15 ms) and a block-stride loop over a tile, a few
// passes long (transpose_shared, 24.7 -> 37.2 ms).
constexpr size_t kMostUnrolledInstructions = 96;

bool has_barrier(const Loop& loop, const Prepared& prepared) {
  for (BasicBlock* block : loop.blocks())
    if (std::find(prepared.barrier_blocks.begin(), prepared.barrier_blocks.end(), block) !=
        prepared.barrier_blocks.end())
      return true;
  return false;
}

// The step of `phi` when it is `phi [start, outside], [phi + step, latch]`, or null.
Value* step_of(PHINode& phi, BasicBlock* latch) {
  auto* next = dyn_cast<BinaryOperator>(phi.getIncomingValueForBlock(latch));
  if (!next || next->getOpcode() != Instruction::Add) return nullptr;
  if (next->getOperand(0) == &phi) return next->getOperand(1);
  return next->getOperand(1) == &phi ? next->getOperand(0) : nullptr;
}

// A value the whole block shares that is not a constant: a parameter or a prologue value.
bool is_block_value(Value* value, const BasicBlock& prologue) {
  auto* shared = dyn_cast_or_null<Instruction>(value);
  return (shared && shared->getParent() == &prologue) || isa_and_nonnull<Argument>(value);
}

// An induction variable stepped by a value the whole block shares and that is not a constant:
// the stride of a grid-stride loop (blockDim.x * gridDim.x, or a parameter).
bool strides_by_block_value(const Loop& loop, const BasicBlock& prologue) {
  BasicBlock* latch = loop.getLoopLatch();
  if (!latch) return false;
  for (PHINode& phi : loop.getHeader()->phis())
    if (is_block_value(step_of(phi, latch), prologue)) return true;
  return false;
}

// Whether `to` can follow `from` without a barrier between them.
bool reaches(BasicBlock* from, BasicBlock* to, const Prepared& prepared) {
  SmallPtrSet<BasicBlock*, 32> seen{from};
  SmallVector<BasicBlock*, 16> work{from};
  while (!work.empty()) {
    BasicBlock* block = work.pop_back_val();
    if (block == to) return true;
    for (BasicBlock* next : successors(block))
      if (std::find(prepared.barrier_blocks.begin(), prepared.barrier_blocks.end(), next) ==
              prepared.barrier_blocks.end() &&
          seen.insert(next).second)
        work.push_back(next);
  }
  return false;
}

void collect(Loop& loop, const Prepared& prepared, std::vector<Loop*>& found) {
  if (has_barrier(loop, prepared)) {
    for (Loop* inner : loop) collect(*inner, prepared, found);
    return;
  }
  if (!strides_by_block_value(loop, *prepared.prologue)) return;
  // Entered again from its own exits with no barrier between (an enclosing loop whose barrier is
  // conditional): a thread would start it over in the middle of the others' passes.
  SmallVector<BasicBlock*, 4> exits;
  loop.getExitBlocks(exits);
  for (BasicBlock* exit : exits)
    if (reaches(exit, loop.getHeader(), prepared)) return;
  // At most one such loop between two barriers: a region has one soft exit.
  for (Loop* other : found)
    if (reaches(loop.getHeader(), other->getHeader(), prepared) ||
        reaches(other->getHeader(), loop.getHeader(), prepared))
      return;
  found.push_back(&loop);
}

// The marker stays in the header, where a thread arrives from the loop's entry or its back edge
// only (a loop entered again without a barrier is not taken); other uses read its value through
// the slots demotion makes, so after the loop they see the thread's own count.
// Each induction variable `i = phi [start, preheader], [i + step, latch]` with a step the block
// shares becomes `start + trips * step`, where `trips` (a kLoopTrips marker) is how many times the
// thread took the back edge. In a soft region every thread still in the loop took it equally
// often, so build_loops() makes the marker the region's pass count, the same for all: then
// `i` is affine in the thread index and the vectorizer reads consecutive threads' elements with
// one load instead of a gather. Where the loop stays whole the marker is its argument, a real
// counter. The arithmetic wraps as the repeated additions did.
void count_trips(Loop& loop, const BasicBlock& prologue) {
  BasicBlock* header = loop.getHeader();
  BasicBlock* preheader = loop.getLoopPredecessor();  // the one block outside that enters it
  BasicBlock* latch = loop.getLoopLatch();
  if (!preheader || !latch || !header->hasNPredecessors(2)) return;
  SmallVector<std::pair<PHINode*, Value*>, 4> variables;  // with their steps
  for (PHINode& phi : header->phis()) {
    Value* step = phi.getType()->isIntegerTy() ? step_of(phi, latch) : nullptr;
    if (step && (isa<Constant>(step) || is_block_value(step, prologue)))
      variables.push_back({&phi, step});
  }
  if (variables.empty()) return;
  Module& module = *header->getModule();
  Type* i64 = Type::getInt64Ty(module.getContext());
  FunctionCallee marker =
      module.getOrInsertFunction(kLoopTrips, FunctionType::get(i64, {i64, i64, i64}, false));
  cast<Function>(marker.getCallee())->setDoesNotAccessMemory();
  PHINode* counter = PHINode::Create(i64, 2, "wi.trips", header->begin());
  counter->addIncoming(ConstantInt::get(i64, 0), preheader);
  counter->addIncoming(BinaryOperator::CreateAdd(counter, ConstantInt::get(i64, 1), "wi.trips.next",
                                                 latch->getTerminator()),
                       latch);
  IRBuilder<> builder(header, header->getFirstInsertionPt());
  Value* trips = builder.CreateCall(
      marker, {counter, ConstantInt::get(i64, 0), ConstantInt::get(i64, 1)}, "wi.trips.taken");
  for (auto [phi, step] : variables) {
    Value* taken = builder.CreateZExtOrTrunc(trips, phi->getType());
    Value* value = builder.CreateAdd(phi->getIncomingValueForBlock(preheader),
                                     builder.CreateMul(taken, step), phi->getName() + ".wi");
    phi->replaceAllUsesWith(value);
    phi->eraseFromParent();
  }
}

// Whether `value`, computed in the prologue, reads gridDim (ctx->grid_dim).
bool reads_grid_dim(Value* value, const BasicBlock& prologue) {
  SmallVector<Value*, 8> work{value};
  SmallPtrSet<Value*, 16> seen;
  while (!work.empty()) {
    auto* instruction = dyn_cast<Instruction>(work.pop_back_val());
    if (!instruction || instruction->getParent() != &prologue || !seen.insert(instruction).second)
      continue;
    if (auto* load = dyn_cast<LoadInst>(instruction)) {
      APInt offset(64, 0);
      const Value* base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(
          prologue.getDataLayout(), offset, true);
      const uint64_t size = prologue.getDataLayout().getTypeStoreSize(load->getType());
      if (base == prologue.getParent()->getArg(1) && offset.getZExtValue() < kCtxGridDim + 12 &&
          offset.getZExtValue() + size > kCtxGridDim)
        return true;
      continue;
    }
    for (Value* operand : instruction->operands()) work.push_back(operand);
  }
  return false;
}

// A grid-stride loop proper: an induction variable steps by a value that reads gridDim.
bool strides_by_grid(const Loop& loop, const BasicBlock& prologue) {
  for (PHINode& phi : loop.getHeader()->phis())
    if (Value* step = step_of(phi, loop.getLoopLatch()); step && reads_grid_dim(step, prologue))
      return true;
  return false;
}

// Loads of memory other blocks can see (neither the thread's stack slots nor the block's shared
// memory, thread-local storage here) in the loop's blocks.
unsigned global_loads(const Loop& loop) {
  unsigned count = 0;
  for (BasicBlock* block : loop.blocks())
    for (Instruction& instruction : *block) {
      auto* load = dyn_cast<LoadInst>(&instruction);
      if (!load) continue;
      const Value* object = getUnderlyingObject(load->getPointerOperand());
      const auto* global = dyn_cast<GlobalVariable>(object);
      const auto* intrinsic = dyn_cast<IntrinsicInst>(object);
      const bool thread_local_address =
          intrinsic && intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address;
      if (!isa<AllocaInst>(object) && !(global && global->isThreadLocal()) && !thread_local_address)
        ++count;
    }
  return count;
}

}  // namespace

std::vector<StridedLoop> find_strided_loops(Function& entry, const Prepared& prepared) {
  std::vector<StridedLoop> strided;
  DominatorTree dominators(entry);
  LoopInfo loops(dominators);
  std::vector<Loop*> found;
  for (Loop* loop : loops) collect(*loop, prepared, found);
  for (Loop* loop : found) {
    const bool by_grid = strides_by_grid(*loop, *prepared.prologue);
    count_trips(*loop, *prepared.prologue);
    strided.push_back({loop->getHeader(), loop->getLoopLatch(), by_grid});
  }
  return strided;
}

unsigned unroll_strided_loops(Function& entry, std::vector<StridedLoop>& strided) {
  unsigned unrolled = 0;
  DominatorTree dominators(entry);
  LoopInfo loops(dominators);
  for (StridedLoop& found : strided) {
    Loop* loop = loops.getLoopFor(found.header);
    if (!loop || loop->getHeader() != found.header || loop->getLoopLatch() != found.latch) continue;
    size_t size = 0;
    bool jumps_by_address = false;  // a copied indirectbr would jump into the first copy
    for (BasicBlock* block : loop->blocks()) {
      size += block->size();
      jumps_by_address = jumps_by_address || isa<IndirectBrInst>(block->getTerminator());
    }
    if (jumps_by_address) continue;
    if (!found.by_grid || size > kMostUnrolledInstructions || global_loads(*loop) > 1) continue;
    // The copy: its blocks remapped among themselves; exits leave to the same blocks (demotion
    // left them no PHIs) and its latch goes back to the header, the loop's new back edge.
    ValueToValueMapTy map;
    SmallVector<BasicBlock*, 16> copies;
    for (BasicBlock* block : loop->blocks()) {
      BasicBlock* copy = CloneBasicBlock(block, map, ".wi.copy", &entry);
      map[block] = copy;
      copies.push_back(copy);
    }
    for (BasicBlock* copy : copies)
      for (Instruction& instruction : *copy)
        RemapInstruction(&instruction, map, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    auto* copied_header = cast<BasicBlock>(map[found.header]);
    auto* copied_latch = cast<BasicBlock>(map[found.latch]);
    copied_latch->getTerminator()->replaceSuccessorWith(copied_header, found.header);
    found.latch->getTerminator()->replaceSuccessorWith(found.header, copied_header);
    for (BasicBlock* block : loop->blocks())
      for (Instruction& instruction : *block)
        if (is_call_to(instruction, kLoopTrips)) {
          auto& marker = cast<CallInst>(instruction);
          auto& copied = cast<CallInst>(*map[&marker]);
          Type* i64 = marker.getType();
          marker.setArgOperand(2, ConstantInt::get(i64, 2));
          copied.setArgOperand(1, ConstantInt::get(i64, 1));
          copied.setArgOperand(2, ConstantInt::get(i64, 2));
        }
    found.latch = copied_latch;
    ++unrolled;
  }
  return unrolled;
}

void add_soft_back_edges(Function& entry, const std::vector<StridedLoop>& loops, Prepared& out) {
  for (const StridedLoop& loop : loops) {
    // Demotion left no PHI in the header, so the new block needs none.
    BasicBlock* soft = BasicBlock::Create(entry.getContext(), "wi.loop_again", &entry, loop.header);
    BranchInst::Create(loop.header, soft);
    loop.latch->getTerminator()->replaceSuccessorWith(loop.header, soft);
    out.barrier_blocks.push_back(soft);
    out.soft_blocks.insert(soft);
  }
}

}  // namespace anygpu_pass
