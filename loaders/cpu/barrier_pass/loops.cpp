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
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
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
  // Soft regions (strided_loops.cpp): an iteration of a grid-stride loop. `soft` is the exit code
  // (r + 1) of the soft region this one leads to by a loop's back edge, or 0; a soft region runs
  // for the threads that took that edge, and runs again while any takes it again.
  int soft = 0;
  bool is_soft = false;
  bool regular_target = false;  // some region leads to it by a barrier
};

// Stack slots every thread of the block holds the same value in: only uniform values are stored
// to them (values computed from the block's shared values and such slots), and never under a
// condition some threads take and others do not. Optimistic fixpoint: start with every scalar slot
// and drop those that break a rule until none does.
class UniformSlots {
 public:
  UniformSlots(Function& entry, const Prepared& prepared) : entry_(entry), prepared_(prepared) {}

  SmallPtrSet<AllocaInst*, 16> find(const std::vector<AllocaInst*>& candidates) {
    uniform_.clear();
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
  static constexpr int kNoWait = INT32_MAX;  // lowest_ while no thread waits

  LoopBuilder(Function& entry, const Prepared& prepared)
      : entry_(entry),
        prepared_(prepared),
        context_(entry.getContext()),
        uniform_values_(entry, prepared),
        soft_blocks_(prepared.soft_blocks) {
    for (BasicBlock* block : prepared.barrier_blocks) barrier_blocks_.insert(block);
  }

  unsigned soft_loops() const { return (unsigned)soft_blocks_.size(); }

  std::string run(std::string& soft_whole_why) {
    std::string why = plan();
    if (!why.empty() && !soft_blocks_.empty()) {
      soft_whole_why = why;
      // Without the soft back edges the loops stay whole inside their regions, as before.
      for (BasicBlock* soft : soft_blocks_) barrier_blocks_.erase(soft);
      soft_blocks_.clear();
      regions_.clear();
      region_of_entry_.clear();
      regions_of_block_.clear();
      array_of_.clear();
      uniform_.clear();
      family_exits_.clear();
      scheduled_ = false;
      why = plan();
    }
    if (!why.empty()) return why;
    if (!soft_blocks_.empty()) drop_unneeded_trip_counters();
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
  std::string plan() {
    if (std::string why = find_regions(); !why.empty()) return why;
    if (std::string why = check_soft_regions(); !why.empty()) return why;
    if (std::string why = choose_per_thread_storage(); !why.empty()) return why;
    PostDominatorTree post_dominators(entry_);  // of the blocks before the rewrite
    for (Region& region : regions_) region.uniform_exit = exit_is_uniform(region, post_dominators);
    return choose_scheduling();
  }

  FunctionCallee pass_count_marker() {
    Type* i64 = Type::getInt64Ty(context_);
    FunctionCallee marker =
        entry_.getParent()->getOrInsertFunction(kPassCount, FunctionType::get(i64, {i64}, false));
    auto* function = cast<Function>(marker.getCallee());
    function->setDoesNotAccessMemory();
    function->setDoesNotThrow();
    function->setWillReturn();
    function->addFnAttr(Attribute::Speculatable);
    return marker;
  }

  // In a soft family a kLoopTrips marker becomes the pass count, so the real counter behind it
  // (its argument: a demoted PHI, and the copies demotion made of it) is needed only where a
  // marker sits outside every family, after a barrier. Elsewhere it would stay a per-thread array
  // that each pass loads and stores for nothing.
  void drop_unneeded_trip_counters() {
    SmallVector<CallInst*, 8> markers;
    bool needed = false;
    for (Instruction& instruction : instructions(entry_)) {
      if (!is_call_to(instruction, kLoopTrips)) continue;
      markers.push_back(cast<CallInst>(&instruction));
      auto found = regions_of_block_.find(instruction.getParent());
      if (found != regions_of_block_.end())
        for (int r : found->second) needed = needed || !regions_[r].soft;
    }
    SmallPtrSet<AllocaInst*, 8> counter;
    if (needed || markers.empty() || !find_counter(markers, counter)) return;
    for (CallInst* call : markers)
      call->setArgOperand(0, ConstantInt::get(call->getArgOperand(0)->getType(), 0));
    SmallVector<StoreInst*, 8> stores;
    for (AllocaInst* slot : counter)
      for (User* user : slot->users())
        if (auto* store = dyn_cast<StoreInst>(user)) stores.push_back(store);
    for (StoreInst* store : stores) {  // with the increments and copies that fed them
      Value* value = store->getValueOperand();
      store->eraseFromParent();
      RecursivelyDeleteTriviallyDeadInstructions(value);
    }
    for (AllocaInst* slot : counter) {
      SmallVector<User*, 4> loads(slot->users());  // the markers' own, unused now
      for (User* load : loads) cast<Instruction>(load)->eraseFromParent();
      llvm::erase_if(array_of_, [&](auto& pair) { return pair.first == slot; });
      llvm::erase(uniform_, slot);
      slot->eraseFromParent();
    }
  }

  // The slots of the markers' counter: each stored only with 0, an increment of one of them or a
  // copy of one, and read only by markers, increments and copies. False if anything else uses them.
  static bool find_counter(const SmallVector<CallInst*, 8>& markers,
                           SmallPtrSet<AllocaInst*, 8>& counter) {
    SmallVector<AllocaInst*, 8> work;
    auto slot_read_by = [](Value* value) -> AllocaInst* {
      auto* load = dyn_cast<LoadInst>(value);
      return load ? dyn_cast<AllocaInst>(load->getPointerOperand()) : nullptr;
    };
    auto increment_of = [&](Value* value) -> AllocaInst* {
      auto* add = dyn_cast<BinaryOperator>(value);
      if (!add || add->getOpcode() != Instruction::Add ||
          add->getOperand(1) != ConstantInt::get(add->getType(), 1))
        return nullptr;
      return slot_read_by(add->getOperand(0));
    };
    for (CallInst* call : markers) {
      AllocaInst* slot = slot_read_by(call->getArgOperand(0));
      if (!slot) return false;
      work.push_back(slot);
    }
    while (!work.empty()) {
      AllocaInst* slot = work.pop_back_val();
      if (!counter.insert(slot).second) continue;
      for (User* user : slot->users()) {
        if (auto* store = dyn_cast<StoreInst>(user)) {
          Value* value = store->getValueOperand();
          if (store->getPointerOperand() != slot) return false;
          if (auto* zero = dyn_cast<ConstantInt>(value); zero && zero->isZero()) continue;
          AllocaInst* from = slot_read_by(value);
          if (!from) from = increment_of(value);
          if (!from) return false;
          work.push_back(from);
          continue;
        }
        auto* load = dyn_cast<LoadInst>(user);
        if (!load || load->getPointerOperand() != slot) return false;
        for (User* reader : load->users()) {
          if (llvm::is_contained(markers, reader)) continue;
          Value* stored = reader;
          if (isa<BinaryOperator>(reader)) {
            if (!increment_of(reader) || !reader->hasOneUse()) return false;
            stored = reader->user_back();
          }
          auto* copy = dyn_cast<StoreInst>(stored);
          auto* into = copy ? dyn_cast<AllocaInst>(copy->getPointerOperand()) : nullptr;
          if (!into) return false;
          work.push_back(into);
        }
      }
    }
    return true;
  }

  // A soft region is entered only by its loop's back edge and leads back to itself; the regular
  // exits of a soft region and of the regions that lead to it form one set (family_exits_), as
  // its threads and theirs meet at the same barrier.
  std::string check_soft_regions() {
    for (size_t r = 0; r < regions_.size(); ++r) {
      const Region& region = regions_[r];
      if (region.is_soft && (region.regular_target || region.soft != (int)r + 1))
        return "a grid-stride loop's iteration is not a region of its own";
      if (region.soft) family_exits_[region.soft].insert(region.exits.begin(), region.exits.end());
    }
    return "";
  }

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
      int soft = 0;
      for (size_t i = 0; i < order.size(); ++i) {
        if (isa<ReturnInst>(order[i]->getTerminator())) exits.insert(0);
        for (BasicBlock* next : successors(order[i])) {
          if (barrier_blocks_.count(next)) {
            BasicBlock* start = past_barriers(next);
            if (!start) return "it loops over barriers alone";
            const int after = region_at(start);
            if (soft_blocks_.count(next)) {
              if (soft && soft != after + 1) return "two grid-stride loops share a region";
              soft = after + 1;
              regions_[after].is_soft = true;
              continue;
            }
            exits.insert(after + 1);
            regions_[after].regular_target = true;
            if (leads_past_exchange(next)) regions_[after].after_exchange = true;
          } else if (seen.insert(next).second) {
            order.push_back(next);
          }
        }
      }
      for (BasicBlock* block : order) regions_of_block_[block].insert((int)r);
      regions_[r].blocks = std::move(order);
      regions_[r].exits = std::move(exits);
      regions_[r].soft = soft;
    }
    return "";
  }

  // An alloca needs one copy per thread unless every access to it is in blocks of one region
  // that belong to no other region, and its address never escapes.
  bool needs_copy_per_thread(AllocaInst* alloca) {
    if (regions_.size() == 1) return false;
    if (std::optional<bool> live = live_into_a_region(alloca)) return *live;
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

  // For a slot that is only loaded and stored whole (each value demoted by prepare()): whether
  // some region reads it before storing it, so that its value crosses from one region (or run of
  // a region) to the next, where threads interleave. Only such a slot needs a copy per thread; one
  // that each region stores before it reads stays one, and SROA makes it a register. Empty for
  // other slots.
  std::optional<bool> live_into_a_region(AllocaInst* slot) {
    Type* type = slot->getAllocatedType();
    for (User* user : slot->users()) {
      if (auto* load = dyn_cast<LoadInst>(user); load && load->getType() == type) {
        if (load->getParent() == prepared_.prologue) return true;
        continue;
      }
      auto* store = dyn_cast<StoreInst>(user);
      if (!store || store->getPointerOperand() != slot ||
          store->getValueOperand()->getType() != type)
        return std::nullopt;
    }
    for (const Region& region : regions_)
      if (read_before_stored(slot, region)) return true;
    return false;
  }

  // Forward must-analysis over the region's blocks: stored on every path from its entry.
  bool read_before_stored(AllocaInst* slot, const Region& region) const {
    SmallPtrSet<BasicBlock*, 32> members(region.blocks.begin(), region.blocks.end());
    DenseMap<BasicBlock*, bool> stored_at_end;
    for (BasicBlock* block : region.blocks) stored_at_end[block] = true;  // optimistic
    auto stored_at_start = [&](BasicBlock* block) {
      if (block == region.entry) return false;
      bool all = true;
      for (BasicBlock* before : predecessors(block))
        if (members.count(before)) all = all && stored_at_end[before];
      return all;
    };
    auto stores = [&](Instruction& instruction) {
      auto* store = dyn_cast<StoreInst>(&instruction);
      return store && store->getPointerOperand() == slot;
    };
    auto loads = [&](Instruction& instruction) {
      auto* load = dyn_cast<LoadInst>(&instruction);
      return load && load->getPointerOperand() == slot;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (BasicBlock* block : region.blocks) {
        bool stored = stored_at_start(block);
        for (Instruction& instruction : *block) stored = stored || stores(instruction);
        if (stored_at_end[block] != stored) {
          stored_at_end[block] = stored;
          changed = true;
        }
      }
    }
    for (BasicBlock* block : region.blocks) {
      bool stored = stored_at_start(block);
      for (Instruction& instruction : *block) {
        if (loads(instruction) && !stored) return true;
        stored = stored || stores(instruction);
      }
    }
    return false;
  }

  std::string choose_per_thread_storage() {
    std::vector<AllocaInst*> slots, crossing;
    for (Instruction& instruction : *prepared_.prologue)
      if (auto* alloca = dyn_cast<AllocaInst>(&instruction);
          alloca && !alloca->getMetadata(kPerThreadMetadata)) {
        slots.push_back(alloca);
        if (needs_copy_per_thread(alloca)) crossing.push_back(alloca);
      }
    // Over every slot, so that a block-wide value passing through one that stays shared (a loop
    // counter each region stores before it reads) still counts as block-wide.
    const SmallPtrSet<AllocaInst*, 16> uniform = uniform_values_.find(slots);
    for (AllocaInst* alloca : crossing) {
      if (uniform.count(alloca) && !stored_in_soft_family(alloca))
        uniform_.push_back(alloca);
      else
        array_of_.push_back({alloca, nullptr});
    }
    return check_bytes_per_thread();
  }

  // A soft region and the regions that lead to it run the same blocks for different threads at
  // different times, so a block-wide slot stored there would see one group's stores before the
  // next group reads it: such a slot gets a copy per thread.
  bool stored_in_soft_family(AllocaInst* slot) const {
    for (User* user : slot->users()) {
      auto* store = dyn_cast<StoreInst>(user);
      if (!store) continue;
      auto found = regions_of_block_.find(store->getParent());
      if (found == regions_of_block_.end()) continue;
      for (int r : found->second)
        if (regions_[r].soft) return true;
    }
    return false;
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
    if (scheduled_ && !soft_blocks_.empty())
      return "a grid-stride loop in a block whose threads wait at warp functions apart";
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
    for (const Region& region : regions_) {
      const SmallSetVector<int, 4>& exits = regular_exits(region);
      needs_done_ = needs_done_ ||
                    (exits.size() > 1 && exits.count(0) && (region.soft || !region.uniform_exit));
    }
    needs_done_ = needs_done_ && !scheduled_;  // there wait_at_ says who returned
    if (scheduled_) {
      wait_at_ = builder.CreateAlloca(ArrayType::get(i8, kMaxThreads), nullptr, "wi.wait_at");
      wait_at_->setMetadata(kPerThreadMetadata, MDNode::get(context_, {}));
      builder.CreateMemSet(wait_at_, builder.getInt8(1), kMaxThreads, MaybeAlign(16));
    }
    if (!soft_blocks_.empty()) {
      // Per thread: 1 while it is in a grid-stride loop; written for every thread by each region
      // that leads into the loop, before the loop's region reads it.
      in_loop_ = builder.CreateAlloca(ArrayType::get(i8, kMaxThreads), nullptr, "wi.in_loop");
      in_loop_->setMetadata(kPerThreadMetadata, MDNode::get(context_, {}));
      again_ = builder.CreateAlloca(builder.getInt1Ty(), nullptr, "wi.again");
      trips_ = builder.CreateAlloca(builder.getInt64Ty(), nullptr, "wi.trips");
    }
    if (needs_done_) {
      done_ = builder.CreateAlloca(ArrayType::get(i8, kMaxThreads), nullptr, "wi.done");
      done_->setMetadata(kPerThreadMetadata, MDNode::get(context_, {}));
      builder.CreateMemSet(done_, builder.getInt8(0), kMaxThreads, MaybeAlign(16));
    }
    if (prepared_.masks) {
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
    lowest_ = builder.CreateAlloca(i32, nullptr, "wi.lowest");

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

  // Where a region's threads may wait once no thread of the block is in its grid-stride loop.
  const SmallSetVector<int, 4>& regular_exits(const Region& region) const {
    if (!region.soft) return region.exits;
    return family_exits_.find(region.soft)->second;
  }

  // Once per block before the loops of a region that follows a warp exchange: the values the
  // lanes gave, where the lanes read them while they give their next ones, and, where threads
  // may have returned, which lanes of each warp did (from the done marks).
  void share_exchanged_values(IRBuilder<>& builder, size_t r) {
    Value* threads = builder.CreateZExt(threads_, builder.getInt64Ty());
    if (prepared_.given)
      builder.CreateMemCpy(prepared_.taken, Align(64), prepared_.given, Align(64),
                           builder.CreateMul(threads, builder.getInt64(sizeof(uint64_t))));
    if (prepared_.given_narrow)
      builder.CreateMemCpy(prepared_.taken_narrow, Align(64), prepared_.given_narrow, Align(64),
                           builder.CreateMul(threads, builder.getInt64(sizeof(uint32_t))));
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
    const SmallSetVector<int, 4> exits = regular_exits(region);
    const bool check_agreement =
        !scheduled_ && exits.size() > 1 && (region.soft || !region.uniform_exit);
    const bool several_exits = !scheduled_ && (exits.size() > 1 || needs_done_);
    auto block = [&](const char* name) {
      return BasicBlock::Create(context_, Twine("wi.") + name + Twine(r), &entry_);
    };
    BasicBlock *z_head = block("z"), *y_head = block("y"), *x_head = block("x");
    BasicBlock *x_latch = block("x.latch"), *y_latch = block("y.latch");
    BasicBlock *z_latch = block("z.latch"), *after = block("after");

    IRBuilder<> builder(starts_[r]);
    Type* i32 = builder.getInt32Ty();
    if (region.after_exchange) share_exchanged_values(builder, r);
    // A soft region goes on with what the threads before it recorded.
    if (!region.is_soft) {
      if (several_exits) builder.CreateStore(builder.getInt32(-1), next_);
      if (check_agreement) builder.CreateStore(builder.getInt32(kNoWait), lowest_);
    }
    if (region.soft) {
      builder.CreateStore(builder.getFalse(), again_);
      Value* passes = region.is_soft
                          ? builder.CreateAdd(builder.CreateLoad(builder.getInt64Ty(), trips_),
                                              builder.getInt64(1))
                          : builder.getInt64(0);
      builder.CreateStore(passes, trips_);
    }
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
    Value* done =
        needs_done_ ? builder.CreateInBoundsGEP(builder.getInt8Ty(), done_, linear) : nullptr;
    Value* waits = nullptr;
    BasicBlock* skipped = nullptr;
    BasicBlock* idle = nullptr;
    Value* in_loop = nullptr;
    if (region.soft) in_loop = builder.CreateInBoundsGEP(builder.getInt8Ty(), in_loop_, linear);
    if (scheduled_) {  // only the threads waiting for this region run it
      waits = builder.CreateInBoundsGEP(builder.getInt8Ty(), wait_at_, linear);
      LoadInst* here = builder.CreateLoad(builder.getInt8Ty(), waits);
      here->setMetadata(LLVMContext::MD_access_group, accesses);
      BasicBlock* active = block("active");
      builder.CreateCondBr(builder.CreateICmpEQ(here, builder.getInt8(r + 1)), active, x_latch);
      builder.SetInsertPoint(active);
    } else if (region.is_soft) {  // only the threads still in the loop run it
      idle = skip_unless(builder, in_loop, /*run_if_set=*/true, block("idle"), block("active"),
                         x_latch, accesses);
    } else if (needs_done_) {  // threads that returned do not
      skipped = skip_unless(builder, done, /*run_if_set=*/false, block("skipped"), block("active"),
                            x_latch, accesses);
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
    PHINode* exit = several_exits || region.soft ? builder.CreatePHI(i32, 4, "wi.exit") : nullptr;
    if (skipped) exit->addIncoming(builder.getInt32(-1), skipped);
    if (idle) exit->addIncoming(builder.getInt32(-2), idle);
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
        } else if (is_call_to(instruction, kLoopTrips)) {
          // The same for every thread still in the loop: the soft family's pass count, behind
          // a marker for prefetch_grid_stride_passes().
          // A pass runs `copies` iterations of an unrolled loop (strided_loops.cpp); this
          // marker is in copy `copy`.
          auto& marker = cast<CallInst>(instruction);
          Value* trips = marker.getArgOperand(0);
          if (region.soft) {
            Value* pass = CallInst::Create(
                pass_count_marker(), {new LoadInst(builder.getInt64Ty(), trips_, "", &instruction)},
                "wi.pass", &instruction);
            trips = BinaryOperator::CreateAdd(
                BinaryOperator::CreateMul(pass, marker.getArgOperand(2), "", &instruction),
                marker.getArgOperand(1), "wi.trips", &instruction);
          }
          instruction.replaceAllUsesWith(trips);
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

    if (region.soft) {
      record_soft_exit(builder, region, exit, done, in_loop, accesses, check_agreement,
                       several_exits);
    } else if (needs_done_) {
      // Exit -1: skipped (done before), 0: returns now (done from here on), k > 0: barrier k.
      StoreInst* mark = builder.CreateStore(
          builder.CreateZExt(builder.CreateICmpSLT(exit, builder.getInt32(1)), builder.getInt8Ty()),
          done);
      mark->setMetadata(LLVMContext::MD_access_group, accesses);
      record_wait(builder, builder.CreateICmpSGT(exit, builder.getInt32(0)), exit, check_agreement);
    } else if (several_exits) {
      record_wait(builder, nullptr, exit, check_agreement);
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
      // Two chunks of threads in flight: the vectorizer's cost model keeps long thread loops to
      // one, where each thread's in-order float sum then waits on its own additions (matrix_mul
      // 5.6 -> 4.8 ms, transpose 15.5 -> 10.2 ms, docs/cpu-barrier-pass.md).
      MDNode* interleave =
          MDNode::get(context_, {MDString::get(context_, "llvm.loop.interleave.count"),
                                 ConstantAsMetadata::get(builder.getInt32(2))});
      MDNode* loop_id = MDNode::getDistinct(context_, {nullptr, parallel, interleave});
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
    if (region.soft) {  // again while a thread is in the loop, then on to the regular exits
      BasicBlock* onward = block("onward");
      builder.CreateCondBr(builder.CreateLoad(builder.getInt1Ty(), again_),
                           starts_[region.soft - 1], onward);
      builder.SetInsertPoint(onward);
    }
    if (scheduled_) {
      builder.CreateBr(schedule_);
    } else if (exits.empty()) {
      if (region.soft)  // no thread left the loop for a barrier: every one returned
        builder.CreateBr(returned_);
      else
        builder.CreateUnreachable();
    } else if (exits.size() == 1) {
      builder.CreateBr(target_of(exits[0]));
    } else {
      BasicBlock* dispatch = block("dispatch");
      if (check_agreement) {
        // Threads waited at two places: the highest and the lowest of them differ.
        Value* highest = builder.CreateLoad(i32, next_);
        Value* lowest = builder.CreateLoad(i32, lowest_);
        Value* diverged = builder.CreateAnd(builder.CreateICmpNE(lowest, builder.getInt32(kNoWait)),
                                            builder.CreateICmpNE(lowest, highest));
        builder.CreateCondBr(diverged, diverge_, dispatch);
      } else
        builder.CreateBr(dispatch);
      builder.SetInsertPoint(dispatch);
      Value* next = builder.CreateLoad(i32, next_);
      if (needs_done_)  // -1: every thread still running returned
        next = builder.CreateSelect(builder.CreateICmpEQ(next, builder.getInt32(-1)),
                                    builder.getInt32(0), next);
      SwitchInst* choice = builder.CreateSwitch(next, target_of(exits[0]), exits.size());
      for (int code : exits) choice->addCase(builder.getInt32(code), target_of(code));
    }
  }

  // Runs the rest of the thread loop's body only for threads whose byte at `flag` is set (or
  // clear); the others go through `skipped` to the latch. Returns `skipped`.
  BasicBlock* skip_unless(IRBuilder<>& builder, Value* flag, bool run_if_set, BasicBlock* skipped,
                          BasicBlock* active, BasicBlock* latch, MDNode* accesses) {
    LoadInst* value = builder.CreateLoad(builder.getInt8Ty(), flag);
    value->setMetadata(LLVMContext::MD_access_group, accesses);
    BranchInst::Create(latch, skipped);
    Value* set = builder.CreateICmpNE(value, builder.getInt8(0));
    builder.CreateCondBr(set, run_if_set ? active : skipped, run_if_set ? skipped : active);
    builder.SetInsertPoint(active);
    return skipped;
  }

  // After each thread of a region that leads into a grid-stride loop (or is its iteration): whether
  // it is in the loop now, whether any thread is, and, for the others, the done marks and the
  // agreement on the barrier as in other regions. Exit -2: idle in the loop's region (already out
  // of the loop), -1: skipped (done before), 0: returns, region.soft: takes the back edge.
  void record_soft_exit(IRBuilder<>& builder, const Region& region, Value* exit, Value* done,
                        Value* in_loop, MDNode* accesses, bool check_agreement,
                        bool several_exits) {
    Type* i8 = builder.getInt8Ty();
    Value* looping = builder.CreateICmpEQ(exit, builder.getInt32(region.soft));
    StoreInst* stays = builder.CreateStore(builder.CreateZExt(looping, i8), in_loop);
    stays->setMetadata(LLVMContext::MD_access_group, accesses);
    builder.CreateStore(builder.CreateOr(builder.CreateLoad(builder.getInt1Ty(), again_), looping),
                        again_);
    Value* idle = builder.CreateICmpEQ(exit, builder.getInt32(-2));
    if (done) {
      LoadInst* before = builder.CreateLoad(i8, done);
      before->setMetadata(LLVMContext::MD_access_group, accesses);
      Value* now = builder.CreateZExt(builder.CreateICmpSLT(exit, builder.getInt32(1)), i8);
      StoreInst* mark = builder.CreateStore(builder.CreateSelect(idle, before, now), done);
      mark->setMetadata(LLVMContext::MD_access_group, accesses);
    }
    // A barrier (or, where no thread returns while others wait, a return) this thread waits at.
    Value* waits = builder.CreateICmpSGE(exit, builder.getInt32(done ? 1 : 0));
    waits = builder.CreateAnd(waits, builder.CreateNot(looping));
    if (several_exits) record_wait(builder, waits, exit, check_agreement);
  }

  // Where the block goes next: the highest exit of the threads that wait (`waits`; null: every
  // thread) in next_, and with check_agreement the lowest in lowest_, compared after the loops.
  // Running maxima and minima are reductions the vectorizer widens; a "last thread's exit" or a
  // compare with the previous thread's would keep the thread loop scalar.
  void record_wait(IRBuilder<>& builder, Value* waits, Value* exit, bool check_agreement) {
    Type* i32 = builder.getInt32Ty();
    Value* highest = waits ? builder.CreateSelect(waits, exit, builder.getInt32(-1)) : exit;
    builder.CreateStore(
        builder.CreateBinaryIntrinsic(Intrinsic::smax, builder.CreateLoad(i32, next_), highest),
        next_);
    if (!check_agreement) return;
    Value* lowest = waits ? builder.CreateSelect(waits, exit, builder.getInt32(kNoWait)) : exit;
    builder.CreateStore(
        builder.CreateBinaryIntrinsic(Intrinsic::smin, builder.CreateLoad(i32, lowest_), lowest),
        lowest_);
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
  SmallPtrSet<BasicBlock*, 4> soft_blocks_;             // grid-stride loops' back edges
  DenseMap<int, SmallSetVector<int, 4>> family_exits_;  // by soft exit code: regular exits
  AllocaInst* in_loop_ = nullptr;                       // per thread: in the grid-stride loop
  AllocaInst* again_ = nullptr;   // some thread took the loop's back edge in this pass
  AllocaInst* trips_ = nullptr;   // back edges taken by the threads still in the loop
  AllocaInst* next_ = nullptr;    // the highest exit a thread left the region by to wait
  AllocaInst* lowest_ = nullptr;  // the lowest one (kNoWait: none), where threads may disagree
  BasicBlock* returned_ = nullptr;
  BasicBlock* diverge_ = nullptr;
  std::vector<BasicBlock*> starts_;
};

}  // namespace

std::string build_loops(Function& entry, const Prepared& prepared, SoftLoops& soft) {
  LoopBuilder builder(entry, prepared);
  std::string why = builder.run(soft.whole_why);
  soft.kept = why.empty() ? builder.soft_loops() : 0;
  return why;
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
