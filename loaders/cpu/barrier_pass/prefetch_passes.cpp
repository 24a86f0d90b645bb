// A grid-stride loop that runs a step at a time (strided_loops.cpp) reads, in each pass, one
// block's span of each array (1 KiB for 256 threads of floats), then jumps a whole grid ahead: a
// new page every pass, which the hardware prefetchers do not follow, so every pass waits for
// memory (`perf` on the ported reduction: its time in the loads of the input). Before each thread
// loop of such a pass, this step prefetches the lines the same loop will touch kPassesAhead passes
// later: for each load or store whose address is built from the thread counter and the pass count
// by plain arithmetic, the address for the first and the last thread with the pass count moved on.
#include "llvm/ADT/SmallSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {
namespace {

constexpr uint64_t kPassesAhead = 4;
constexpr uint64_t kLineBytes = 64;
// A thread loop whose first and last thread's addresses lie further apart is not walking a
// block's span (a transposed or scattered index): prefetching it would fetch what nobody reads.
constexpr uint64_t kMostBytesAPass = 64 * 1024;

// What an address may be built of, to be rebuilt where it would not run: casts, GEPs and binary
// operators, but a division or remainder only by a constant that cannot trap (nonzero, and not -1
// when signed: INT_MIN / -1), as the rebuilt one runs for threads and passes that may not exist.
bool is_arithmetic(const Instruction& instruction) {
  if (isa<CastInst>(instruction) || isa<GetElementPtrInst>(instruction)) return true;
  if (!isa<BinaryOperator>(instruction)) return false;
  if (!instruction.isIntDivRem()) return true;
  auto* divisor = dyn_cast<ConstantInt>(instruction.getOperand(1));
  const bool is_signed =
      instruction.getOpcode() == Instruction::SDiv || instruction.getOpcode() == Instruction::SRem;
  return divisor && !divisor->isZero() && !(is_signed && divisor->isMinusOne());
}

// Rebuilds an address at `at` with the thread counter and the pass count replaced; nullptr where
// it depends on anything else that changes in the loop (a load, another PHI).
class AddressRebuilder {
 public:
  AddressRebuilder(const DominatorTree& dominators, Instruction* at, Value* counter,
                   Value* counter_value, Value* pass_count, Value* pass_count_value)
      : dominators_(dominators),
        at_(at),
        counter_(counter),
        counter_value_(counter_value),
        pass_count_(pass_count),
        pass_count_value_(pass_count_value) {}

  Value* rebuild(Value* value) {
    if (value == counter_) return counter_value_;
    if (value == pass_count_) return pass_count_value_;
    auto* instruction = dyn_cast<Instruction>(value);
    if (!instruction) return value;  // a constant or an argument
    if (auto found = rebuilt_.find(value); found != rebuilt_.end()) return found->second;
    Value* result = nullptr;
    if (!depends(instruction)) {
      if (dominators_.dominates(instruction, at_)) result = instruction;
    } else {
      Instruction* copy = instruction->clone();
      bool complete = true;
      for (unsigned i = 0; complete && i < copy->getNumOperands(); ++i) {
        Value* operand = rebuild(copy->getOperand(i));
        complete = operand != nullptr;
        if (complete) copy->setOperand(i, operand);
      }
      if (complete) {
        // Other threads and passes than the loop's own may overflow where it did not.
        copy->dropPoisonGeneratingFlags();
        copy->insertBefore(at_);
        result = copy;
      } else {
        copy->deleteValue();
      }
    }
    rebuilt_[value] = result;
    return result;
  }

 private:
  bool depends(Instruction* instruction) {
    if (instruction == counter_ || instruction == pass_count_) return true;
    if (!is_arithmetic(*instruction)) return false;
    if (auto found = depends_.find(instruction); found != depends_.end()) return found->second;
    bool result = false;
    for (Value* operand : instruction->operands())
      if (auto* inner = dyn_cast<Instruction>(operand)) result = result || depends(inner);
    depends_[instruction] = result;
    return result;
  }

  const DominatorTree& dominators_;
  Instruction* at_;
  Value *counter_, *counter_value_, *pass_count_, *pass_count_value_;
  DenseMap<Value*, Value*> rebuilt_;
  DenseMap<Instruction*, bool> depends_;
};

struct Prefetch {
  BasicBlock* preheader;
  Value* first;  // the first and last thread's address, kPassesAhead passes on
  Value* last;
  bool write;
};

// The thread loop around an access in a pass, and its counter's first and last values.
struct ThreadLoop {
  Loop* loop = nullptr;
  PHINode* counter = nullptr;
  Value* last = nullptr;
};

ThreadLoop thread_loop_of(LoopInfo& loops, BasicBlock* block) {
  ThreadLoop found;
  Loop* loop = loops.getLoopFor(block);
  MDNode* id = loop ? loop->getLoopID() : nullptr;
  if (!id || !findOptionMDForLoopID(id, "llvm.loop.parallel_accesses")) return found;
  PHINode* counter = loop->getCanonicalInductionVariable();
  if (!counter || !loop->getLoopPreheader()) return found;
  bool header_on_true = true;
  Value* bound = thread_loop_bound(*loop, counter, header_on_true);
  if (!bound) return found;
  IRBuilder<> builder(loop->getLoopPreheader()->getTerminator());
  found.loop = loop;
  found.counter = counter;
  found.last = builder.CreateSub(builder.CreateZExtOrTrunc(bound, counter->getType()),
                                 ConstantInt::get(counter->getType(), 1));
  return found;
}

// Each load and store of the loop whose address the pass count reaches through arithmetic only.
void plan(CallInst* pass_count, LoopInfo& loops, const DominatorTree& dominators,
          std::vector<Prefetch>& out) {
  SmallVector<Instruction*, 16> work{pass_count};
  SmallPtrSet<Instruction*, 32> seen{pass_count};
  SmallVector<Instruction*, 8> accesses;
  while (!work.empty()) {
    for (User* user : work.pop_back_val()->users()) {
      auto* instruction = dyn_cast<Instruction>(user);
      if (!instruction || !seen.insert(instruction).second) continue;
      if (auto* load = dyn_cast<LoadInst>(instruction); load && load->isSimple())
        accesses.push_back(load);
      else if (auto* store = dyn_cast<StoreInst>(instruction); store && store->isSimple())
        accesses.push_back(store);
      else if (is_arithmetic(*instruction))
        work.push_back(instruction);
    }
  }
  DenseMap<Loop*, ThreadLoop> thread_loops;
  SmallSet<std::pair<BasicBlock*, Value*>, 8> planned;
  for (Instruction* access : accesses) {
    Value* pointer = getLoadStorePointerOperand(access);
    auto* address = dyn_cast<Instruction>(pointer);
    if (!address || !seen.count(address)) continue;  // a store of the count, not to it
    if (!planned.insert({access->getParent(), pointer}).second) continue;
    Loop* innermost = loops.getLoopFor(access->getParent());
    if (!innermost) continue;
    auto [entry, added] = thread_loops.try_emplace(innermost);
    if (added) entry->second = thread_loop_of(loops, access->getParent());
    const ThreadLoop& thread = entry->second;
    if (!thread.loop) continue;
    Instruction* at = thread.loop->getLoopPreheader()->getTerminator();
    auto* count = dyn_cast<Instruction>(pass_count->getArgOperand(0));
    if (count && !dominators.dominates(count, at)) continue;
    IRBuilder<> builder(at);
    Value* ahead = builder.CreateAdd(pass_count->getArgOperand(0),
                                     ConstantInt::get(pass_count->getType(), kPassesAhead));
    Value* ends[2] = {ConstantInt::get(thread.counter->getType(), 0), thread.last};
    Value* addresses[2] = {};
    for (int end = 0; end < 2; ++end) {
      AddressRebuilder rebuilder(dominators, at, thread.counter, ends[end], pass_count, ahead);
      addresses[end] = rebuilder.rebuild(pointer);
    }
    if (addresses[0] && addresses[1])
      out.push_back(
          {thread.loop->getLoopPreheader(), addresses[0], addresses[1], isa<StoreInst>(access)});
  }
}

// Before the thread loop: a loop over the cache lines from `first` to `last`, when they are a
// block's span apart at most.
void emit(const Prefetch& prefetch, Module& module) {
  LLVMContext& context = module.getContext();
  Instruction* terminator = prefetch.preheader->getTerminator();
  BasicBlock* rest = SplitBlock(prefetch.preheader, terminator);
  BasicBlock* lines = BasicBlock::Create(context, "wi.prefetch", rest->getParent(), rest);
  prefetch.preheader->getTerminator()->eraseFromParent();
  IRBuilder<> builder(prefetch.preheader);
  Type* i64 = builder.getInt64Ty();
  // Frozen: the addresses of threads and passes that do not run may be anything, never poison.
  Value* first = builder.CreatePtrToInt(builder.CreateFreeze(prefetch.first), i64);
  Value* last = builder.CreatePtrToInt(builder.CreateFreeze(prefetch.last), i64);
  Value* span = builder.CreateSub(last, first);
  // Counted, not compared with `last`: a range at the top of the address space must not wrap.
  Value* start = builder.CreateAnd(first, ~(kLineBytes - 1));
  Value* more = builder.CreateLShr(builder.CreateSub(last, start), Log2_64(kLineBytes));
  builder.CreateCondBr(builder.CreateICmpULT(span, builder.getInt64(kMostBytesAPass)), lines, rest);
  builder.SetInsertPoint(lines);
  PHINode* line = builder.CreatePHI(i64, 2, "wi.prefetch.line");
  line->addIncoming(builder.getInt64(0), prefetch.preheader);
  Function* intrinsic =
      Intrinsic::getDeclaration(&module, Intrinsic::prefetch, {builder.getPtrTy()});
  Value* address = builder.CreateAdd(start, builder.CreateShl(line, Log2_64(kLineBytes)));
  // Into L2 (locality 2, prefetcht1 on x86): into L1 the prefetches wait for the core's few
  // outstanding-miss slots, and the reduction took twice as long.
  builder.CreateCall(intrinsic, {builder.CreateIntToPtr(address, builder.getPtrTy()),
                                 builder.getInt32(prefetch.write ? 1 : 0), builder.getInt32(2),
                                 builder.getInt32(1)});
  Value* next = builder.CreateAdd(line, builder.getInt64(1));
  line->addIncoming(next, lines);
  builder.CreateCondBr(builder.CreateICmpULE(next, more), lines, rest);
}

}  // namespace

unsigned prefetch_grid_stride_passes(Function& entry, FunctionAnalysisManager& analyses) {
  SmallVector<CallInst*, 4> pass_counts;
  for (Instruction& instruction : instructions(entry))
    if (is_call_to(instruction, kPassCount)) pass_counts.push_back(cast<CallInst>(&instruction));
  if (pass_counts.empty()) return 0;
  std::vector<Prefetch> prefetches;
  {
    LoopInfo& loops = analyses.getResult<LoopAnalysis>(entry);
    const DominatorTree& dominators = analyses.getResult<DominatorTreeAnalysis>(entry);
    for (CallInst* pass_count : pass_counts) plan(pass_count, loops, dominators, prefetches);
  }
  for (const Prefetch& prefetch : prefetches) emit(prefetch, *entry.getParent());
  // The marker has done its job: the pass count itself.
  for (CallInst* pass_count : pass_counts) {
    pass_count->replaceAllUsesWith(pass_count->getArgOperand(0));
    pass_count->eraseFromParent();
  }
  analyses.invalidate(entry, PreservedAnalyses::none());
  return (unsigned)prefetches.size();
}

}  // namespace anygpu_pass
