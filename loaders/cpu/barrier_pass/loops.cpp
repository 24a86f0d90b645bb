// Regions and their loops. A region is what a thread runs from the block's start, or from just
// after a barrier, up to the next barrier or its return. Each region becomes a loop nest over the
// block's threads (z, y, x; x innermost, so consecutive threads are consecutive iterations) around
// a clone of the region's basic blocks. CUDA requires every thread of a block to reach the same
// barrier, so after each region the threads still running agree on where the block goes next
// (threads that returned are marked done and skipped); when they do not, the launch fails
// (agk_wi_divergent) instead of giving a wrong result. A warp exchange is a barrier here too; a
// block whose threads may wait at one and elsewhere at once is scheduled (choose_scheduling).
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {
namespace {

struct Region {
  BasicBlock* entry;
  std::vector<BasicBlock*> blocks;  // entry first
  SmallSetVector<int, 4> exits;     // 0: the kernel returns; r + 1: region r follows
  bool after_exchange = false;      // starts just after a warp exchange
  bool uniform_exit = false;        // every thread leaves it for the same place
};

// Stack slots every thread of the block holds the same value in: only uniform values are stored
// to them (values computed from the block's shared values and such slots), and never under a
// condition some threads take and others do not. Optimistic fixpoint: start with every scalar slot
// and drop those that break a rule until none does.
class UniformSlots {
 public:
  UniformSlots(Function& entry, const Prepared& prepared) : entry_(entry), prepared_(prepared) {}

  SmallPtrSet<AllocaInst*, 16> find(const std::vector<AllocaInst*>& candidates) {
    for (AllocaInst* slot : candidates)
      if (slot->getAllocatedType()->isSingleValueType() && !slot->isArrayAllocation())
        uniform_.insert(slot);
    PostDominatorTree post_dominators(entry_);
    for (bool changed = true; changed;) {
      changed = false;
      memo_.clear();
      SmallPtrSet<BasicBlock*, 32> divergent = divergent_blocks(post_dominators);
      for (AllocaInst* slot : SmallVector<AllocaInst*, 16>(uniform_.begin(), uniform_.end()))
        if (!stays_uniform(slot, divergent)) {
          uniform_.erase(slot);
          changed = true;
        }
    }
    return uniform_;
  }

  // After find(): whether every thread of the block computes the same `value`.
  bool is_uniform(Value* value) {
    auto* instruction = dyn_cast<Instruction>(value);
    if (!instruction) return isa<Constant>(value) || isa<Argument>(value);
    if (instruction->getParent() == prepared_.prologue) return !isa<AllocaInst>(instruction);
    auto [found, inserted] = memo_.try_emplace(value, false);
    if (!inserted) return found->second;
    bool uniform = false;
    if (auto* load = dyn_cast<LoadInst>(instruction)) {
      // A uniform slot, or global or shared memory at an address every thread computes alike:
      // between barriers a thread of the block writing it would race with the others, which is
      // undefined in CUDA (LLVM's uniformity analysis for AMD GPUs assumes the same).
      Value* pointer = load->getPointerOperand();
      auto* slot = dyn_cast<AllocaInst>(pointer);
      uniform = load->isSimple() &&
                (slot ? uniform_.count(slot) != 0
                      : !isa<AllocaInst>(getUnderlyingObject(pointer)) && is_uniform(pointer));
    } else if (!instruction->mayReadOrWriteMemory() && !is_call_to(*instruction, kLocalId) &&
               isSafeToSpeculativelyExecute(instruction)) {
      uniform = true;
      for (Value* operand : instruction->operands()) uniform = uniform && is_uniform(operand);
    }
    memo_[value] = uniform;
    return uniform;
  }

 private:
  // Blocks some threads may run and others not: from a branch on a non-uniform condition up to
  // the point where its paths join again.
  SmallPtrSet<BasicBlock*, 32> divergent_blocks(PostDominatorTree& post_dominators) {
    SmallPtrSet<BasicBlock*, 32> divergent;
    for (BasicBlock& block : entry_) {
      Instruction* terminator = block.getTerminator();
      Value* condition = nullptr;
      if (auto* branch = dyn_cast<BranchInst>(terminator); branch && branch->isConditional())
        condition = branch->getCondition();
      else if (auto* choice = dyn_cast<SwitchInst>(terminator))
        condition = choice->getCondition();
      if (!condition || is_uniform(condition)) continue;
      DomTreeNode* node = post_dominators.getNode(&block);
      BasicBlock* join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
      SmallVector<BasicBlock*, 16> work(successors(&block));
      while (!work.empty()) {
        BasicBlock* next = work.pop_back_val();
        if (next == join || !divergent.insert(next).second) continue;
        for (BasicBlock* after : successors(next)) work.push_back(after);
      }
    }
    return divergent;
  }

  bool stays_uniform(AllocaInst* slot, const SmallPtrSet<BasicBlock*, 32>& divergent) {
    for (User* user : slot->users()) {
      if (auto* load = dyn_cast<LoadInst>(user); load && load->getPointerOperand() == slot)
        continue;
      auto* store = dyn_cast<StoreInst>(user);
      if (!store || store->getPointerOperand() != slot || store->getValueOperand() == slot ||
          divergent.count(store->getParent()) || !is_uniform(store->getValueOperand()))
        return false;
    }
    return true;
  }

  Function& entry_;
  const Prepared& prepared_;
  SmallPtrSet<AllocaInst*, 16> uniform_;
  DenseMap<Value*, bool> memo_;
};

class LoopBuilder {
 public:
  LoopBuilder(Function& entry, const Prepared& prepared)
      : entry_(entry),
        prepared_(prepared),
        context_(entry.getContext()),
        uniform_values_(entry, prepared) {
    for (BasicBlock* block : prepared.barrier_blocks) barrier_blocks_.insert(block);
  }

  std::string run() {
    if (std::string why = find_regions(); !why.empty()) return why;
    if (std::string why = choose_per_thread_storage(); !why.empty()) return why;
    PostDominatorTree post_dominators(entry_);  // of the blocks before the rewrite
    for (Region& region : regions_) region.uniform_exit = exit_is_uniform(region, post_dominators);
    if (std::string why = choose_scheduling(); !why.empty()) return why;
    std::vector<BasicBlock*> originals;
    for (BasicBlock& block : entry_)
      if (&block != prepared_.prologue) originals.push_back(&block);
    emit();
    for (BasicBlock* block : originals) block->dropAllReferences();
    for (BasicBlock* block : originals) block->eraseFromParent();
    for (auto& [alloca, array] : array_of_) alloca->eraseFromParent();
    return "";
  }

 private:
  // The block a barrier block leads to, past any barriers that follow it directly.
  BasicBlock* past_barriers(BasicBlock* block) const {
    for (size_t steps = 0; barrier_blocks_.count(block); ++steps) {
      if (steps > barrier_blocks_.size()) return nullptr;
      block = block->getSingleSuccessor();
    }
    return block;
  }

  int region_at(BasicBlock* start) {
    auto [found, inserted] = region_of_entry_.try_emplace(start, (int)regions_.size());
    if (inserted) regions_.push_back(Region{start, {}, {}});
    return found->second;
  }

  bool leads_past_exchange(BasicBlock* block) const {
    for (; barrier_blocks_.count(block); block = block->getSingleSuccessor())
      if (prepared_.exchange_blocks.count(block)) return true;
    return false;
  }

  std::string find_regions() {
    region_at(prepared_.body);
    for (size_t r = 0; r < regions_.size(); ++r) {
      std::vector<BasicBlock*> order{regions_[r].entry};
      SmallPtrSet<BasicBlock*, 32> seen{regions_[r].entry};
      SmallSetVector<int, 4> exits;
      for (size_t i = 0; i < order.size(); ++i) {
        if (isa<ReturnInst>(order[i]->getTerminator())) exits.insert(0);
        for (BasicBlock* next : successors(order[i])) {
          if (barrier_blocks_.count(next)) {
            BasicBlock* start = past_barriers(next);
            if (!start) return "it loops over barriers alone";
            const int after = region_at(start);
            exits.insert(after + 1);
            if (leads_past_exchange(next)) regions_[after].after_exchange = true;
          } else if (seen.insert(next).second) {
            order.push_back(next);
          }
        }
      }
      for (BasicBlock* block : order) regions_of_block_[block].insert((int)r);
      regions_[r].blocks = std::move(order);
      regions_[r].exits = std::move(exits);
    }
    return "";
  }

  // An alloca needs one copy per thread unless every access to it is in blocks of one region
  // that belong to no other region, and its address never escapes.
  bool needs_copy_per_thread(AllocaInst* alloca) {
    if (regions_.size() == 1) return false;
    SmallVector<Value*, 8> pointers{alloca};
    int region = -1;
    while (!pointers.empty()) {
      Value* pointer = pointers.pop_back_val();
      for (User* user : pointer->users()) {
        auto* instruction = cast<Instruction>(user);
        if (isa<GetElementPtrInst>(instruction) || isa<CastInst>(instruction)) {
          pointers.push_back(instruction);
        } else if (auto* store = dyn_cast<StoreInst>(instruction)) {
          if (store->getValueOperand() == pointer) return true;
        } else if (auto* intrinsic = dyn_cast<IntrinsicInst>(instruction)) {
          if (!isa<MemIntrinsic>(intrinsic)) return true;
        } else if (!isa<LoadInst>(instruction)) {
          return true;
        }
        auto found = regions_of_block_.find(instruction->getParent());
        if (found == regions_of_block_.end()) {
          if (instruction->getParent() == prepared_.prologue) return true;
          continue;  // unreachable code
        }
        if (found->second.size() != 1) return true;
        const int here = *found->second.begin();
        if (region >= 0 && region != here) return true;
        region = here;
      }
    }
    return false;
  }

  std::string choose_per_thread_storage() {
    std::vector<AllocaInst*> crossing;
    for (Instruction& instruction : *prepared_.prologue)
      if (auto* alloca = dyn_cast<AllocaInst>(&instruction);
          alloca && !alloca->getMetadata(kPerThreadMetadata) && needs_copy_per_thread(alloca))
        crossing.push_back(alloca);
    const SmallPtrSet<AllocaInst*, 16> uniform = uniform_values_.find(crossing);
    for (AllocaInst* alloca : crossing) {
      if (uniform.count(alloca))
        uniform_.push_back(alloca);
      else
        array_of_.push_back({alloca, nullptr});
    }
    return check_bytes_per_thread();
  }

  std::string check_bytes_per_thread() const {
    const DataLayout& layout = entry_.getParent()->getDataLayout();
    uint64_t bytes = 0;
    for (const auto& [alloca, array] : array_of_) bytes += *alloca->getAllocationSize(layout);
    if (bytes > kMaxBytesPerThread)
      return "it keeps " + std::to_string(bytes) + " bytes per thread across barriers (limit " +
             std::to_string(kMaxBytesPerThread) + ")";
    return "";
  }

  // Where some threads of a block may go on to a warp function while others wait at another one
  // or at a barrier (legal in CUDA, where a warp waits only for its own lanes, as in
  // `if (warp == 0) { shuffles } __syncthreads();`), the block cannot simply run the regions in
  // turn: each thread then records where it waits, and after each region agk_wi_schedule picks
  // the next (emit_schedule): a warp exchange some threads wait at goes before a barrier.
  std::string choose_scheduling() {
    for (const Region& region : regions_) {
      int waits = 0;
      bool exchange = false;
      for (int exit : region.exits) {
        waits += exit > 0;
        exchange = exchange || (exit > 0 && regions_[exit - 1].after_exchange);
      }
      scheduled_ = scheduled_ || (waits > 1 && exchange && !region.uniform_exit);
    }
    if (scheduled_ && regions_.size() > 254)
      return "it has more than 254 barriers and warp functions some threads may take apart";
    if (scheduled_ && !entry_.getParent()->getFunction(kSchedule))
      return std::string("its source has no ") + kSchedule + " (anygpu's headers are older)";
    if (!scheduled_) return "";
    // Groups of threads then run a region at different times, so no slot holds one value for
    // the whole block: the uniform ones get a copy per thread too.
    for (AllocaInst* slot : uniform_) array_of_.push_back({slot, nullptr});
    uniform_.clear();
    return check_bytes_per_thread();
  }

  void emit() {
    IRBuilder<> builder(prepared_.prologue->getTerminator());
    Type* i8 = builder.getInt8Ty();
    Type* i32 = builder.getInt32Ty();
    Value* ctx = entry_.getArg(1);
    for (unsigned d = 0; d < 3; ++d)
      block_dim_[d] = builder.CreateLoad(
          i32, builder.CreateConstInBoundsGEP1_64(i8, ctx, kCtxBlockDim + 4 * d), "wi.dim");
    for (auto& [alloca, array] : array_of_) {
      const uint64_t count = cast<ConstantInt>(alloca->getArraySize())->getZExtValue();
      // [n x T], the form InstCombine gives an array alloca anyway (keeping the mark below).
      auto* copies =
          builder.CreateAlloca(ArrayType::get(alloca->getAllocatedType(), count * kMaxThreads),
                               nullptr, alloca->getName() + ".wi");
      copies->setAlignment(alloca->getAlign());
      copies->setMetadata(kPerThreadMetadata, MDNode::get(context_, {}));
      array = copies;
    }
    // Threads that return before a barrier the others wait at (which CUDA allows since Volta)
    // are marked done and skipped by the later regions.
    for (const Region& region : regions_)
      needs_done_ =
          needs_done_ || (region.exits.size() > 1 && region.exits.count(0) && !region.uniform_exit);
    needs_done_ = needs_done_ && !scheduled_;  // there wait_at_ says who returned
    if (scheduled_) {
      wait_at_ = builder.CreateAlloca(ArrayType::get(i8, kMaxThreads), nullptr, "wi.wait_at");
      wait_at_->setMetadata(kPerThreadMetadata, MDNode::get(context_, {}));
      builder.CreateMemSet(wait_at_, builder.getInt8(1), kMaxThreads, MaybeAlign(16));
    }
    if (needs_done_) {
      done_ = builder.CreateAlloca(ArrayType::get(i8, kMaxThreads), nullptr, "wi.done");
      done_->setMetadata(kPerThreadMetadata, MDNode::get(context_, {}));
      builder.CreateMemSet(done_, builder.getInt8(0), kMaxThreads, MaybeAlign(16));
    }
    if (prepared_.given) {
      threads_ = builder.CreateMul(builder.CreateMul(block_dim_[0], block_dim_[1]), block_dim_[2]);
      // Per warp: its lanes that returned, as of the last exchange. Read by every lane of the
      // warp, written only between regions: marked per thread so that the loops stay parallel.
      if (needs_done_ || scheduled_) {
        exited_ = builder.CreateAlloca(
            ArrayType::get(builder.getInt64Ty(), kMaxThreads / kWarpSize), nullptr, "wi.exited");
        exited_->setMetadata(kPerThreadMetadata, MDNode::get(context_, {}));
      }
    }
    next_ = builder.CreateAlloca(i32, nullptr, "wi.next");
    diverged_ = builder.CreateAlloca(builder.getInt1Ty(), nullptr, "wi.diverged");

    returned_ = BasicBlock::Create(context_, "wi.return", &entry_);
    ReturnInst::Create(context_, returned_);
    diverge_ = BasicBlock::Create(context_, "wi.divergent", &entry_);
    IRBuilder<> at_divergence(diverge_);
    FunctionCallee report = entry_.getParent()->getOrInsertFunction(
        kDivergent, FunctionType::get(builder.getVoidTy(), {ctx->getType()}, false));
    at_divergence.CreateCall(report, {ctx});
    at_divergence.CreateUnreachable();

    for (size_t r = 0; r < regions_.size(); ++r)
      starts_.push_back(BasicBlock::Create(context_, "wi.region" + Twine(r), &entry_));
    if (scheduled_) emit_schedule();
    for (size_t r = 0; r < regions_.size(); ++r) emit_region(r);
    prepared_.prologue->getTerminator()->eraseFromParent();
    BranchInst::Create(starts_[0], prepared_.prologue);
  }

  BasicBlock* target_of(int exit) const { return exit == 0 ? returned_ : starts_[exit - 1]; }

  // Once per block before the loops of a region that follows a warp exchange: the values the
  // lanes gave, where the lanes read them while they give their next ones, and, where threads
  // may have returned, which lanes of each warp did (from the done marks).
  void share_exchanged_values(IRBuilder<>& builder, size_t r) {
    Value* bytes = builder.CreateMul(builder.CreateZExt(threads_, builder.getInt64Ty()),
                                     builder.getInt64(sizeof(uint64_t)));
    builder.CreateMemCpy(prepared_.taken, Align(64), prepared_.given, Align(64), bytes);
    if (!exited_) return;
    Type* i64 = builder.getInt64Ty();
    builder.CreateMemSet(exited_, builder.getInt8(0), (kMaxThreads / kWarpSize) * sizeof(uint64_t),
                         MaybeAlign(8));
    BasicBlock* before = builder.GetInsertBlock();
    BasicBlock* loop = BasicBlock::Create(context_, "wi.exited" + Twine(r), &entry_);
    BasicBlock* after = BasicBlock::Create(context_, "wi.exited.done" + Twine(r), &entry_);
    builder.CreateBr(loop);
    builder.SetInsertPoint(loop);
    PHINode* thread = builder.CreatePHI(builder.getInt32Ty(), 2);
    thread->addIncoming(builder.getInt32(0), before);
    // done_: 1 once returned; wait_at_: 0 once returned.
    Value* mark = builder.CreateLoad(
        builder.getInt8Ty(),
        builder.CreateInBoundsGEP(builder.getInt8Ty(), scheduled_ ? wait_at_ : done_, thread));
    Value* returned = scheduled_ ? builder.CreateICmpEQ(mark, builder.getInt8(0))
                                 : builder.CreateICmpNE(mark, builder.getInt8(0));
    Value* bit =
        builder.CreateShl(builder.CreateZExt(returned, i64),
                          builder.CreateZExt(builder.CreateAnd(thread, kWarpSize - 1), i64));
    Value* word = builder.CreateInBoundsGEP(
        i64, exited_, builder.CreateLShr(thread, builder.getInt32(Log2_32(kWarpSize))));
    builder.CreateStore(builder.CreateOr(builder.CreateLoad(i64, word), bit), word);
    Value* next = builder.CreateAdd(thread, builder.getInt32(1), "", true, true);
    thread->addIncoming(next, loop);
    builder.CreateCondBr(builder.CreateICmpULT(next, threads_), loop, after);
    builder.SetInsertPoint(after);
  }

  // After each region of a scheduled block: agk_wi_schedule() (warp_host.h) reads where the
  // threads wait and picks the next region; -1: they wait for each other, as a GPU would hang.
  void emit_schedule() {
    Type* i8 = Type::getInt8Ty(context_);
    std::vector<Constant*> exchange(regions_.size() + 1, ConstantInt::get(i8, 0));
    for (size_t r = 0; r < regions_.size(); ++r)
      if (regions_[r].after_exchange) exchange[r + 1] = ConstantInt::get(i8, 1);
    auto* table_type = ArrayType::get(i8, exchange.size());
    auto* table =
        new GlobalVariable(*entry_.getParent(), table_type, true, GlobalValue::PrivateLinkage,
                           ConstantArray::get(table_type, exchange), "wi.exchanges");
    schedule_ = BasicBlock::Create(context_, "wi.schedule", &entry_);
    IRBuilder<> builder(schedule_);
    Value* chosen = builder.CreateCall(
        entry_.getParent()->getFunction(kSchedule),
        {wait_at_, prepared_.masks, table, threads_, builder.getInt32(kWarpSize)});
    SwitchInst* choice = builder.CreateSwitch(chosen, diverge_, regions_.size() + 1);
    choice->addCase(builder.getInt32(0), returned_);
    for (size_t r = 0; r < regions_.size(); ++r)
      choice->addCase(builder.getInt32((int)r + 1), starts_[r]);
  }

  // The lanes of `call`'s warp that returned before its exchange: none where no thread returns
  // while others go on.
  Value* exited_lanes(CallInst* call, MDNode* accesses) {
    IRBuilder<> builder(call);
    if (!exited_) return builder.getInt64(0);
    Value* warp = builder.CreateLShr(call->getArgOperand(0), Log2_32(kWarpSize));
    LoadInst* lanes = builder.CreateLoad(
        builder.getInt64Ty(), builder.CreateInBoundsGEP(builder.getInt64Ty(), exited_, warp));
    lanes->setMetadata(LLVMContext::MD_access_group, accesses);
    return lanes;
  }

  void emit_region(size_t r) {
    const Region& region = regions_[r];
    const bool check_agreement = !scheduled_ && region.exits.size() > 1 && !region.uniform_exit;
    const bool several_exits = !scheduled_ && (region.exits.size() > 1 || needs_done_);
    auto block = [&](const char* name) {
      return BasicBlock::Create(context_, Twine("wi.") + name + Twine(r), &entry_);
    };
    BasicBlock *z_head = block("z"), *y_head = block("y"), *x_head = block("x");
    BasicBlock *x_latch = block("x.latch"), *y_latch = block("y.latch");
    BasicBlock *z_latch = block("z.latch"), *after = block("after");

    IRBuilder<> builder(starts_[r]);
    Type* i32 = builder.getInt32Ty();
    if (region.after_exchange) share_exchanged_values(builder, r);
    if (check_agreement || needs_done_) builder.CreateStore(builder.getInt32(-1), next_);
    if (check_agreement) builder.CreateStore(builder.getFalse(), diverged_);
    BasicBlock* before_loops = builder.GetInsertBlock();
    builder.CreateBr(z_head);
    builder.SetInsertPoint(z_head);
    PHINode* z = builder.CreatePHI(i32, 2, "wi.tz");
    z->addIncoming(builder.getInt32(0), before_loops);
    builder.CreateBr(y_head);
    builder.SetInsertPoint(y_head);
    PHINode* y = builder.CreatePHI(i32, 2, "wi.ty");
    y->addIncoming(builder.getInt32(0), z_head);
    Value* row = builder.CreateMul(builder.CreateAdd(builder.CreateMul(z, block_dim_[1]), y),
                                   block_dim_[0], "wi.row");
    builder.CreateBr(x_head);
    builder.SetInsertPoint(x_head);
    PHINode* x = builder.CreatePHI(i32, 2, "wi.tx");
    x->addIncoming(builder.getInt32(0), y_head);
    Value* linear = builder.CreateZExt(builder.CreateAdd(row, x), builder.getInt64Ty(), "wi.id");

    // Threads of a block are unordered between barriers (a race there is undefined in CUDA), so
    // the x loop's memory accesses are independent across iterations: what lets the vectorizer
    // widen loops whose accesses it cannot tell apart, as PoCL marks its work-item loops.
    // drop_unsafe_parallel_marks() takes the mark back where a slot all threads share survives.
    MDNode* accesses = MDNode::getDistinct(context_, {});
    ValueToValueMapTy map;
    for (auto& [alloca, array] : array_of_) {
      const uint64_t count = cast<ConstantInt>(alloca->getArraySize())->getZExtValue();
      Value* index = count == 1 ? linear : builder.CreateMul(linear, builder.getInt64(count));
      map[alloca] = builder.CreateInBoundsGEP(alloca->getAllocatedType(), array, index);
    }
    Value* done = nullptr;
    Value* waits = nullptr;
    BasicBlock* skipped = nullptr;
    if (scheduled_) {  // only the threads waiting for this region run it
      waits = builder.CreateInBoundsGEP(builder.getInt8Ty(), wait_at_, linear);
      LoadInst* here = builder.CreateLoad(builder.getInt8Ty(), waits);
      here->setMetadata(LLVMContext::MD_access_group, accesses);
      BasicBlock* active = block("active");
      builder.CreateCondBr(builder.CreateICmpEQ(here, builder.getInt8(r + 1)), active, x_latch);
      builder.SetInsertPoint(active);
    } else if (needs_done_) {
      done = builder.CreateInBoundsGEP(builder.getInt8Ty(), done_, linear);
      LoadInst* is_done = builder.CreateLoad(builder.getInt8Ty(), done);
      is_done->setMetadata(LLVMContext::MD_access_group, accesses);
      skipped = block("skipped");
      BranchInst::Create(x_latch, skipped);
      BasicBlock* active = block("active");
      builder.CreateCondBr(builder.CreateICmpNE(is_done, builder.getInt8(0)), skipped, active);
      builder.SetInsertPoint(active);
    }
    // A uniform slot: each thread starts the region from the block's value, and the last thread's
    // value (every thread's) becomes the block's after it. SROA makes both registers.
    std::vector<std::pair<AllocaInst*, AllocaInst*>> copies;
    for (AllocaInst* slot : uniform_) {
      IRBuilder<> at_prologue(prepared_.prologue->getTerminator());
      AllocaInst* copy = at_prologue.CreateAlloca(slot->getAllocatedType(), nullptr,
                                                  slot->getName() + ".r" + Twine(r));
      builder.CreateStore(builder.CreateLoad(slot->getAllocatedType(), slot), copy);
      map[slot] = copy;
      copies.push_back({slot, copy});
    }
    std::vector<BasicBlock*> clones;
    for (BasicBlock* original : region.blocks) {
      BasicBlock* clone = CloneBasicBlock(original, map, ".r" + Twine(r), &entry_);
      map[original] = clone;
      clones.push_back(clone);
    }
    builder.CreateBr(cast<BasicBlock>(map[region.entry]));

    // Exits go to the x latch through one block per destination, which says where it was.
    builder.SetInsertPoint(x_latch);
    PHINode* exit = several_exits ? builder.CreatePHI(i32, 4, "wi.exit") : nullptr;
    if (skipped) exit->addIncoming(builder.getInt32(-1), skipped);
    DenseMap<int, BasicBlock*> exit_blocks;
    auto exit_block = [&](int code) {
      BasicBlock*& found = exit_blocks[code];
      if (!found) {
        found = BasicBlock::Create(context_, "wi.exit" + Twine(code), &entry_, x_latch);
        BranchInst::Create(x_latch, found);
        if (exit) exit->addIncoming(builder.getInt32(code), found);
        if (waits) {  // where this thread waits now
          auto* store = new StoreInst(ConstantInt::get(builder.getInt8Ty(), code), waits, false,
                                      Align(1), found->getTerminator());
          store->setMetadata(LLVMContext::MD_access_group, accesses);
        }
      }
      return found;
    };
    Value* counters[3] = {x, y, z};
    for (BasicBlock* clone : clones) {
      for (Instruction& instruction : make_early_inc_range(*clone)) {
        RemapInstruction(&instruction, map, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
        if (instruction.mayReadOrWriteMemory())
          instruction.setMetadata(LLVMContext::MD_access_group, accesses);
        if (is_call_to(instruction, kLocalId)) {
          auto* dim = cast<ConstantInt>(cast<CallInst>(instruction).getArgOperand(1));
          instruction.replaceAllUsesWith(counters[std::min<uint64_t>(dim->getZExtValue(), 2)]);
          instruction.eraseFromParent();
        } else if (is_call_to(instruction, kExitedLanes)) {
          instruction.replaceAllUsesWith(exited_lanes(&cast<CallInst>(instruction), accesses));
          instruction.eraseFromParent();
        }
      }
      Instruction* terminator = clone->getTerminator();
      if (isa<ReturnInst>(terminator)) {
        BranchInst::Create(exit_block(0), terminator);
        terminator->eraseFromParent();
        continue;
      }
      for (unsigned i = 0; i < terminator->getNumSuccessors(); ++i) {
        BasicBlock* next = terminator->getSuccessor(i);
        if (barrier_blocks_.count(next))
          terminator->setSuccessor(i, exit_block(region_of_entry_.lookup(past_barriers(next)) + 1));
      }
    }

    if (needs_done_) {
      // Exit -1: skipped (done before), 0: returns now (done from here on), k > 0: barrier k.
      StoreInst* mark = builder.CreateStore(
          builder.CreateZExt(builder.CreateICmpSLT(exit, builder.getInt32(1)), builder.getInt8Ty()),
          done);
      mark->setMetadata(LLVMContext::MD_access_group, accesses);
      Value* previous = builder.CreateLoad(i32, next_);
      Value* at_barrier = builder.CreateICmpSGT(exit, builder.getInt32(0));
      if (check_agreement) {
        Value* differs = builder.CreateAnd(
            at_barrier, builder.CreateAnd(builder.CreateICmpNE(previous, builder.getInt32(-1)),
                                          builder.CreateICmpNE(previous, exit)));
        builder.CreateStore(
            builder.CreateOr(builder.CreateLoad(builder.getInt1Ty(), diverged_), differs),
            diverged_);
      }
      builder.CreateStore(builder.CreateSelect(at_barrier, exit, previous), next_);
    } else if (check_agreement) {
      Value* previous = builder.CreateLoad(i32, next_);
      Value* differs = builder.CreateAnd(builder.CreateICmpNE(previous, builder.getInt32(-1)),
                                         builder.CreateICmpNE(previous, exit));
      builder.CreateStore(
          builder.CreateOr(builder.CreateLoad(builder.getInt1Ty(), diverged_), differs), diverged_);
      builder.CreateStore(exit, next_);
    } else if (several_exits) {
      builder.CreateStore(exit, next_);
    }
    auto latch = [&](PHINode* counter, Value* size, BasicBlock* head, BasicBlock* done) {
      Value* next = builder.CreateAdd(counter, builder.getInt32(1), "", true, true);
      counter->addIncoming(next, builder.GetInsertBlock());
      builder.CreateCondBr(builder.CreateICmpULT(next, size), head, done);
    };
    latch(x, block_dim_[0], x_head, y_latch);
    {
      auto* back_edge = cast<BranchInst>(x_latch->getTerminator());
      MDNode* parallel =
          MDNode::get(context_, {MDString::get(context_, "llvm.loop.parallel_accesses"), accesses});
      MDNode* loop_id = MDNode::getDistinct(context_, {nullptr, parallel});
      loop_id->replaceOperandWith(0, loop_id);
      back_edge->setMetadata(LLVMContext::MD_loop, loop_id);
    }
    builder.SetInsertPoint(y_latch);
    latch(y, block_dim_[1], y_head, z_latch);
    builder.SetInsertPoint(z_latch);
    latch(z, block_dim_[2], z_head, after);

    builder.SetInsertPoint(after);
    for (auto& [slot, copy] : copies)
      builder.CreateStore(builder.CreateLoad(slot->getAllocatedType(), copy), slot);
    if (scheduled_) {
      builder.CreateBr(schedule_);
    } else if (region.exits.empty()) {
      builder.CreateUnreachable();
    } else if (region.exits.size() == 1) {
      builder.CreateBr(target_of(region.exits[0]));
    } else {
      BasicBlock* dispatch = block("dispatch");
      if (check_agreement)
        builder.CreateCondBr(builder.CreateLoad(builder.getInt1Ty(), diverged_), diverge_,
                             dispatch);
      else
        builder.CreateBr(dispatch);
      builder.SetInsertPoint(dispatch);
      Value* next = builder.CreateLoad(i32, next_);
      if (needs_done_)  // -1: every thread still running returned
        next = builder.CreateSelect(builder.CreateICmpEQ(next, builder.getInt32(-1)),
                                    builder.getInt32(0), next);
      SwitchInst* choice =
          builder.CreateSwitch(next, target_of(region.exits[0]), region.exits.size());
      for (int code : region.exits) choice->addCase(builder.getInt32(code), target_of(code));
    }
  }

  // Where a thread leaves the region is the same for all threads when no branch on a non-uniform
  // condition chooses between exits: each such branch's successors lead to one and the same
  // exit. Then the loops need not check that the threads agree.
  // Whether the paths from `block` (a branch) all meet again in its region before any leaves it:
  // then the branch does not choose the exit, whatever its condition.
  bool rejoins_in_region(BasicBlock* block, PostDominatorTree& post_dominators) {
    DomTreeNode* node = post_dominators.getNode(block);
    BasicBlock* join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
    if (!join) return false;
    SmallVector<BasicBlock*, 16> work(successors(block));
    SmallPtrSet<BasicBlock*, 32> seen;
    while (!work.empty()) {
      BasicBlock* next = work.pop_back_val();
      if (next == join || !seen.insert(next).second) continue;
      if (barrier_blocks_.count(next) || isa<ReturnInst>(next->getTerminator())) return false;
      for (BasicBlock* after : successors(next)) work.push_back(after);
    }
    return true;
  }

  bool exit_is_uniform(const Region& region, PostDominatorTree& post_dominators) {
    DenseMap<BasicBlock*, SmallSetVector<int, 4>> reach;
    auto exit_of = [&](BasicBlock* next) {
      return barrier_blocks_.count(next) ? region_of_entry_.lookup(past_barriers(next)) + 1 : -1;
    };
    for (bool changed = true; changed;) {  // exits reachable from each block, to a fixpoint
      changed = false;
      for (BasicBlock* block : region.blocks) {
        SmallSetVector<int, 4>& mine = reach[block];
        const size_t before = mine.size();
        if (isa<ReturnInst>(block->getTerminator())) mine.insert(0);
        for (BasicBlock* next : successors(block)) {
          const int exit = exit_of(next);
          if (exit >= 0) {
            mine.insert(exit);
          } else {
            const SmallSetVector<int, 4> theirs = reach[next];
            mine.insert(theirs.begin(), theirs.end());
          }
        }
        changed = changed || mine.size() != before;
      }
    }
    for (BasicBlock* block : region.blocks) {
      Instruction* terminator = block->getTerminator();
      Value* condition = nullptr;
      if (auto* branch = dyn_cast<BranchInst>(terminator); branch && branch->isConditional())
        condition = branch->getCondition();
      else if (auto* choice = dyn_cast<SwitchInst>(terminator))
        condition = choice->getCondition();
      if (!condition || uniform_values_.is_uniform(condition) ||
          rejoins_in_region(block, post_dominators))
        continue;
      // Every successor must lead to one exit, the same for all.
      int only = -1;
      for (BasicBlock* next : successors(block)) {
        int exit = exit_of(next);
        if (exit < 0) {
          const SmallSetVector<int, 4>& leads = reach[next];
          if (leads.size() != 1) return false;
          exit = leads[0];
        }
        if (only >= 0 && exit != only) return false;
        only = exit;
      }
    }
    return true;
  }

  Function& entry_;
  const Prepared& prepared_;
  LLVMContext& context_;
  UniformSlots uniform_values_;
  SmallPtrSet<BasicBlock*, 8> barrier_blocks_;
  std::vector<Region> regions_;
  DenseMap<BasicBlock*, int> region_of_entry_;
  DenseMap<BasicBlock*, SmallSetVector<int, 2>> regions_of_block_;
  std::vector<std::pair<AllocaInst*, AllocaInst*>> array_of_;  // per-thread copies
  std::vector<AllocaInst*> uniform_;  // the same in every thread: one value per block
  Value* block_dim_[3] = {};
  Value* threads_ = nullptr;        // in the block; set with warp exchanges only
  AllocaInst* exited_ = nullptr;    // per warp: lanes that returned (needs_done_ and exchanges)
  bool needs_done_ = false;         // some thread may return while others wait at a barrier
  bool scheduled_ = false;          // threads may wait at a warp exchange and elsewhere at once
  AllocaInst* wait_at_ = nullptr;   // scheduled: per thread, 0 returned, r + 1 waits for region r
  BasicBlock* schedule_ = nullptr;  // scheduled: picks the next region
  AllocaInst* done_ = nullptr;      // per thread: returned already
  AllocaInst* next_ = nullptr;      // where the last thread left the region
  AllocaInst* diverged_ = nullptr;  // whether two threads left it for different places
  BasicBlock* returned_ = nullptr;
  BasicBlock* diverge_ = nullptr;
  std::vector<BasicBlock*> starts_;
};

}  // namespace

std::string build_loops(Function& entry, const Prepared& prepared) {
  return LoopBuilder(entry, prepared).run();
}

}  // namespace anygpu_pass

namespace anygpu_pass {

void drop_unsafe_parallel_marks(Function& entry, FunctionAnalysisManager& analyses) {
  LoopInfo& loops = analyses.getResult<LoopAnalysis>(entry);
  for (Loop* loop : loops.getLoopsInPreorder()) {
    MDNode* id = loop->getLoopID();
    if (!id || !findOptionMDForLoopID(id, "llvm.loop.parallel_accesses")) continue;
    bool shared_slot = false;
    for (BasicBlock* block : loop->blocks())
      for (Instruction& instruction : *block) {
        if (!instruction.mayReadOrWriteMemory()) continue;
        for (Value* operand : instruction.operands()) {
          if (!operand->getType()->isPointerTy()) continue;
          auto* slot = dyn_cast<AllocaInst>(getUnderlyingObject(operand));
          shared_slot = shared_slot || (slot && !slot->getMetadata(kPerThreadMetadata));
        }
      }
    if (!shared_slot) continue;
    MDNode* plain = MDNode::getDistinct(entry.getContext(), {nullptr});
    plain->replaceOperandWith(0, plain);
    loop->setLoopID(plain);
  }
  analyses.invalidate(entry, PreservedAnalyses::none());
}

}  // namespace anygpu_pass
