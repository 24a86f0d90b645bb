// Brings a block entry into the shape build_loops() expects: one function with no calls that could
// hide a barrier, the block's shared values in a prologue, each barrier alone in its basic block,
// and no SSA value used outside its basic block (so that regions can be cloned freely).
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {

bool is_call_to(const Instruction& instruction, StringRef name) {
  const auto* call = dyn_cast<CallInst>(&instruction);
  const Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName() == name;
}

namespace {

bool is_marker(const Function& function) {
  const StringRef name = function.getName();
  return name == kLocalId || name == kBarrier || name == kDivergent || name == kWarpExchange;
}

// Helpers are static inline, so this normally finds little left after clang's own inliner.
std::string inline_everything(Function& entry) {
  for (int round = 0; round < 64; ++round) {
    SmallVector<CallBase*, 16> calls;
    for (Instruction& instruction : instructions(entry))
      if (auto* call = dyn_cast<CallBase>(&instruction))
        if (Function* callee = call->getCalledFunction())
          if (!callee->isDeclaration() && !is_marker(*callee)) calls.push_back(call);
    if (calls.empty()) return "";
    for (CallBase* call : calls) {
      Function* callee = call->getCalledFunction();
      if (callee == &entry) return "it calls itself";
      InlineFunctionInfo info;
      const InlineResult result = InlineFunction(*call, info);
      if (!result.isSuccess())
        return ("cannot inline " + callee->getName() + ": " + result.getFailureReason()).str();
    }
  }
  return "its helpers call each other recursively";
}

std::string check(Function& entry) {
  for (Instruction& instruction : instructions(entry)) {
    if (isa<InvokeInst>(instruction) || isa<CallBrInst>(instruction) || instruction.isEHPad())
      return "it uses exceptions";
    if (auto* alloca = dyn_cast<AllocaInst>(&instruction)) {
      if (!alloca->isStaticAlloca()) return "it allocates stack memory of a run-time size";
      continue;
    }
    auto* call = dyn_cast<CallInst>(&instruction);
    if (!call || call->isInlineAsm()) continue;
    const Function* callee = call->getCalledFunction();
    // A call through a pointer might reach __syncthreads() where the pass cannot see it.
    if (!callee) return "it makes an indirect call, which might reach a barrier";
    if (call->hasFnAttr(Attribute::ReturnsTwice)) return "it calls setjmp";
    if (callee->getIntrinsicID() == Intrinsic::stacksave) return "it saves the stack pointer";
    if (callee->getName() == kLocalId && !isa<ConstantInt>(call->getArgOperand(1)))
      return "it reads threadIdx with a run-time dimension";
  }
  return "";
}

// Values the whole block shares: the kernel's parameters (read through `params`, which the kernel
// cannot write), the launch shape and block index (read from the context), and side-effect-free
// arithmetic on them. Computed once per block in the prologue instead of once per thread, and
// never stored per thread.
class Uniforms {
 public:
  Uniforms(Function& entry) : params_(entry.getArg(0)), ctx_(entry.getArg(1)) {}

  // Hoisting gathers copies of one value: the same launch field loaded in several places, which
  // the optimizer could not merge across stores to global memory (it cannot tell they do not
  // write the context). One of each stays, PHIs of them fold, and what they feed may count as
  // shared in turn: hoist again after this.
  bool merge_copies(Function& entry, BasicBlock& prologue) {
    bool merged = false;
    SmallVector<Instruction*, 32> kept;
    for (Instruction& instruction : make_early_inc_range(prologue)) {
      if (!hoisted_.count(&instruction)) continue;
      Instruction* same = nullptr;
      for (Instruction* earlier : kept)
        if (earlier->isIdenticalTo(&instruction)) same = earlier;
      if (!same) {
        kept.push_back(&instruction);
        continue;
      }
      instruction.replaceAllUsesWith(same);
      hoisted_.erase(&instruction);
      instruction.eraseFromParent();
      merged = true;
    }
    for (BasicBlock& block : entry)
      for (PHINode& phi : make_early_inc_range(block.phis())) {
        Value* only = phi.hasConstantValue();
        if (only && only != &phi && is_shared(only)) {
          phi.replaceAllUsesWith(only);
          phi.eraseFromParent();
          merged = true;
        }
      }
    return merged;
  }

  void hoist(BasicBlock& body, BasicBlock& prologue) {
    ReversePostOrderTraversal<BasicBlock*> order(&body);
    for (BasicBlock* block : order)
      for (Instruction& instruction : make_early_inc_range(*block))
        if (is_uniform(instruction)) {
          instruction.moveBefore(prologue.getTerminator());
          hoisted_.insert(&instruction);
        }
  }

 private:
  bool is_shared(const Value* value) const {
    return isa<Constant>(value) || value == params_ || value == ctx_ || hoisted_.count(value) != 0;
  }

  bool is_uniform(Instruction& instruction) {
    if (isa<PHINode>(instruction) || instruction.isTerminator() || isa<AllocaInst>(instruction))
      return false;
    if (auto* load = dyn_cast<LoadInst>(&instruction)) return is_invariant_load(*load);
    if (instruction.mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(&instruction))
      return false;
    for (const Value* operand : instruction.operands())
      if (!is_shared(operand)) return false;
    return true;
  }

  // params[i], *params[i] (at a constant offset), and ctx fields other than thread_idx.
  bool is_invariant_load(LoadInst& load) {
    if (!load.isSimple()) return false;
    const DataLayout& layout = load.getModule()->getDataLayout();
    APInt offset(64, 0);
    const Value* base = load.getPointerOperand()->stripAndAccumulateConstantOffsets(
        layout, offset, /*AllowNonInbounds=*/true);
    if (!is_shared(load.getPointerOperand())) return false;
    if (base == params_) {
      slots_.insert(&load);
      return true;
    }
    if (slots_.count(base)) return true;
    return base == ctx_ && offset.getSExtValue() >= (int64_t)kCtxFirstInvariant;
  }

  const Value* params_;
  const Value* ctx_;
  SmallPtrSet<const Value*, 16> slots_;  // loads of params[i]: where parameter i is stored
  SmallPtrSet<const Value*, 32> hoisted_;
};

// Each use of a thread-index marker gets its own call next to it, so no index is ever demoted to
// memory; build_loops() replaces every call with the loops' counters.
void split_local_ids(Function& entry) {
  SmallVector<CallInst*, 16> markers;
  for (Instruction& instruction : instructions(entry))
    if (is_call_to(instruction, kLocalId)) markers.push_back(cast<CallInst>(&instruction));
  for (CallInst* marker : markers) {
    marker->setArgOperand(0, entry.getArg(1));
    SmallVector<Use*, 8> uses;
    for (Use& use : marker->uses()) uses.push_back(&use);
    for (Use* use : uses) {
      auto* user = cast<Instruction>(use->getUser());
      Instruction* at = user;
      if (auto* phi = dyn_cast<PHINode>(user)) at = phi->getIncomingBlock(*use)->getTerminator();
      Instruction* copy = marker->clone();
      copy->insertBefore(at);
      use->set(copy);
    }
    marker->eraseFromParent();
  }
}

// A value computed only from constants, the block's shared values and the thread's indices is
// the same wherever the thread computes it: instead of keeping it per thread across a barrier,
// each use outside its block gets its own copy of the (small) computation.
class Rematerializer {
 public:
  explicit Rematerializer(BasicBlock& prologue) : prologue_(prologue) {}

  void run(Function& entry) {
    SmallVector<Instruction*, 32> candidates;
    for (BasicBlock& block : entry) {
      if (&block == &prologue_) continue;
      for (Instruction& instruction : block) {
        int budget = kBudget;
        if (!isa<AllocaInst>(instruction) && instruction.isUsedOutsideOfBlock(&block) &&
            computable(&instruction, budget))
          candidates.push_back(&instruction);
      }
    }
    for (Instruction* instruction : candidates) {
      SmallVector<Use*, 8> uses;
      for (Use& use : instruction->uses())
        if (cast<Instruction>(use.getUser())->getParent() != instruction->getParent() ||
            isa<PHINode>(use.getUser()))
          uses.push_back(&use);
      for (Use* use : uses) {
        auto* user = cast<Instruction>(use->getUser());
        Instruction* at = user;
        if (auto* phi = dyn_cast<PHINode>(user)) at = phi->getIncomingBlock(*use)->getTerminator();
        if (at->getParent() == instruction->getParent()) continue;
        use->set(rebuild(instruction, at));
      }
    }
  }

 private:
  static constexpr int kBudget = 12;

  bool is_leaf(const Value* value) const {
    const auto* instruction = dyn_cast<Instruction>(value);
    return !instruction || instruction->getParent() == &prologue_;
  }

  bool computable(Value* value, int& budget) const {
    if (is_leaf(value)) return true;
    auto* instruction = cast<Instruction>(value);
    if (--budget < 0) return false;
    if (is_call_to(*instruction, kLocalId)) return true;
    if (isa<PHINode>(instruction) || instruction->mayReadOrWriteMemory() ||
        !isSafeToSpeculativelyExecute(instruction))
      return false;
    for (Value* operand : instruction->operands())
      if (!computable(operand, budget)) return false;
    return true;
  }

  Value* rebuild(Value* value, Instruction* at) const {
    if (is_leaf(value)) return value;
    auto* original = cast<Instruction>(value);
    Instruction* copy = original->clone();
    copy->insertBefore(at);
    if (!is_call_to(*original, kLocalId))
      for (unsigned i = 0; i < copy->getNumOperands(); ++i)
        copy->setOperand(i, rebuild(original->getOperand(i), copy));
    return copy;
  }

  BasicBlock& prologue_;
};

// Each warp exchange becomes a barrier. Before it the lane stores its value in `given`; after
// it the lane finds its warp's values in `taken` (build_loops() copies `given` there between the
// two regions) and the lanes that took part: those of the mask that the block has and that have
// not returned (which only build_loops() knows: a kExitedLanes call stands for it).
void lower_warp_exchanges(Function& entry, BasicBlock& prologue, Prepared& out,
                          SmallPtrSet<CallInst*, 8>& exchange_barriers) {
  SmallVector<CallInst*, 8> exchanges;
  for (Instruction& instruction : instructions(entry))
    if (is_call_to(instruction, kWarpExchange)) exchanges.push_back(cast<CallInst>(&instruction));
  if (exchanges.empty()) return;
  Module& module = *entry.getParent();
  LLVMContext& context = entry.getContext();
  IRBuilder<> at_prologue(prologue.getTerminator());
  Type* i32 = at_prologue.getInt32Ty();
  Type* i64 = at_prologue.getInt64Ty();
  Type* pointer = at_prologue.getPtrTy();
  auto lane_values = [&](const char* name, Type* slot = nullptr) {
    AllocaInst* values =
        at_prologue.CreateAlloca(ArrayType::get(slot ? slot : i64, kMaxThreads), nullptr, name);
    values->setAlignment(Align(64));
    values->setMetadata(kPerThreadMetadata, MDNode::get(context, {}));
    return values;
  };
  out.masks = lane_values("wi.masks");
  Value* ctx = entry.getArg(1);
  Value* dim[3];
  for (unsigned d = 0; d < 3; ++d)
    dim[d] = at_prologue.CreateLoad(i32, at_prologue.CreateConstInBoundsGEP1_64(
                                             at_prologue.getInt8Ty(), ctx, kCtxBlockDim + 4 * d));
  Value* threads = at_prologue.CreateMul(at_prologue.CreateMul(dim[0], dim[1]), dim[2]);
  FunctionCallee local_id =
      module.getOrInsertFunction(kLocalId, FunctionType::get(i32, {pointer, i32}, false));
  FunctionCallee barrier = module.getOrInsertFunction(
      kBarrier,
      FunctionType::get(at_prologue.getVoidTy(), {pointer, i32, i32, i32, pointer}, false));
  FunctionCallee exited =
      module.getOrInsertFunction(kExitedLanes, FunctionType::get(i64, {i32}, false));
  auto linear_id = [&](IRBuilder<>& builder) {
    Value* id[3];
    for (unsigned d = 0; d < 3; ++d)
      id[d] = builder.CreateCall(local_id, {ctx, builder.getInt32(d)});
    return builder.CreateAdd(
        id[0],
        builder.CreateMul(dim[0], builder.CreateAdd(id[1], builder.CreateMul(dim[1], id[2]))));
  };
  const SmallPtrSet<CallInst*, 8> narrowed = narrow_exchanges(exchanges);
  out.exchanges = exchanges.size();
  out.narrow_exchanges = narrowed.size();
  for (CallInst* exchange : exchanges) {
    IRBuilder<> builder(exchange);
    const bool narrow = narrowed.count(exchange) != 0;
    if (narrow && !out.given_narrow) {
      out.given_narrow = lane_values("wi.given.narrow", i32);
      out.taken_narrow = lane_values("wi.taken.narrow", i32);
    } else if (!narrow && !out.given) {
      out.given = lane_values("wi.given");
      out.taken = lane_values("wi.taken");
    }
    Type* slot = narrow ? i32 : i64;
    AllocaInst* given = narrow ? out.given_narrow : out.given;
    AllocaInst* taken = narrow ? out.taken_narrow : out.taken;
    Value* mine = builder.CreateZExt(linear_id(builder), i64);
    builder.CreateStore(builder.CreateTrunc(exchange->getArgOperand(2), slot),
                        builder.CreateInBoundsGEP(slot, given, mine));
    builder.CreateStore(exchange->getArgOperand(1),
                        builder.CreateInBoundsGEP(i64, out.masks, mine));
    Value* none = PoisonValue::get(i32);
    exchange_barriers.insert(
        builder.CreateCall(barrier, {ctx, none, none, none, PoisonValue::get(pointer)}));
    Value* linear = linear_id(builder);
    Value* first_lane = builder.CreateAnd(linear, ~(kWarpSize - 1));
    builder.CreateStore(builder.CreateInBoundsGEP(slot, taken, builder.CreateZExt(first_lane, i64)),
                        exchange->getArgOperand(3));
    Value* lanes = builder.CreateBinaryIntrinsic(
        Intrinsic::umin, builder.CreateSub(threads, first_lane), builder.getInt32(kWarpSize));
    Value* present =
        builder.CreateSub(builder.CreateShl(builder.getInt64(1), builder.CreateZExt(lanes, i64)),
                          builder.getInt64(1));
    Value* gone = builder.CreateCall(exited, {linear});
    exchange->replaceAllUsesWith(builder.CreateAnd(
        builder.CreateAnd(exchange->getArgOperand(1), present), builder.CreateNot(gone)));
    exchange->eraseFromParent();
  }
}

// Whether `pointer` is the source file's current-context pointer (kernel_host.h's agk_current_ctx)
// as llvm.threadlocal.address gives it.
bool is_current_context(const Value* pointer) {
  const auto* address = dyn_cast<IntrinsicInst>(pointer);
  if (!address || address->getIntrinsicID() != Intrinsic::threadlocal_address) return false;
  const auto* variable = dyn_cast<GlobalVariable>(address->getArgOperand(0));
  return variable && variable->getName().contains("agk_current_ctx");
}

// The block entry points the thread-local context pointer at its own context before anything else
// and only ever stores that context again, so every load of it is the entry's `ctx` argument. A
// call the optimizer cannot see through (the thread-local wrapper of an extern __shared__ array)
// keeps it from forwarding the store itself; without this, blockDim and gridDim would not count
// as values the block shares.
void forward_current_context(Function& entry) {
  Value* ctx = entry.getArg(1);
  SmallVector<LoadInst*, 16> loads;
  for (Instruction& instruction : instructions(entry)) {
    if (auto* store = dyn_cast<StoreInst>(&instruction);
        store && is_current_context(store->getPointerOperand())) {
      auto* reloaded = dyn_cast<LoadInst>(store->getValueOperand());
      if (store->getValueOperand() != ctx &&
          !(reloaded && is_current_context(reloaded->getPointerOperand())))
        return;
    }
    if (auto* load = dyn_cast<LoadInst>(&instruction);
        load && load->isSimple() && load->getType() == ctx->getType() &&
        is_current_context(load->getPointerOperand()))
      loads.push_back(load);
  }
  for (LoadInst* load : loads) {
    load->replaceAllUsesWith(ctx);
    load->eraseFromParent();
  }
}

void drop_lifetime_markers(Function& entry) {
  for (Instruction& instruction : make_early_inc_range(instructions(entry)))
    if (auto* intrinsic = dyn_cast<IntrinsicInst>(&instruction))
      if (intrinsic->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(intrinsic))
        intrinsic->eraseFromParent();
}

}  // namespace

std::string inline_calls(Function& entry) {
  if (std::string why = inline_everything(entry); !why.empty()) return why;
  return check(entry);
}

std::string prepare(Function& entry, Prepared& out) {
  drop_lifetime_markers(entry);

  // The prologue takes the entry's allocas and the shared values; the old entry starts region 0.
  LLVMContext& context = entry.getContext();
  BasicBlock* body = &entry.getEntryBlock();
  BasicBlock* prologue = BasicBlock::Create(context, "wi.prologue", &entry, body);
  BranchInst::Create(body, prologue);
  for (Instruction& instruction : make_early_inc_range(*body))
    if (isa<AllocaInst>(instruction)) instruction.moveBefore(prologue->getTerminator());
  forward_current_context(entry);
  Uniforms uniforms(entry);
  uniforms.hoist(*body, *prologue);
  if (uniforms.merge_copies(entry, *prologue)) uniforms.hoist(*body, *prologue);
  split_local_ids(entry);
  SmallPtrSet<CallInst*, 8> exchange_barriers;
  lower_warp_exchanges(entry, *prologue, out, exchange_barriers);

  // Each barrier alone in its block: [barrier, br next].
  SmallVector<CallInst*, 8> barriers;
  for (Instruction& instruction : instructions(entry))
    if (is_call_to(instruction, kBarrier)) barriers.push_back(cast<CallInst>(&instruction));
  for (CallInst* barrier : barriers) {
    for (unsigned i = 0; i < barrier->arg_size(); ++i)  // the loops need none of them
      barrier->setArgOperand(i, PoisonValue::get(barrier->getArgOperand(i)->getType()));
    BasicBlock* block = barrier->getParent()->splitBasicBlock(barrier, "wi.barrier");
    block->splitBasicBlock(std::next(barrier->getIterator()), "wi.after");
    out.barrier_blocks.push_back(block);
    if (exchange_barriers.count(barrier)) out.exchange_blocks.insert(block);
  }

  out.prologue = prologue;
  std::vector<StridedLoop> strided = find_strided_loops(entry, out);

  Rematerializer(*prologue).run(entry);

  // Other values used outside their block go to memory; build_loops() decides which memory is per
  // thread. PHIs first: demoting them adds stores whose values may then need demoting too.
  const BasicBlock::iterator alloca_point = prologue->getTerminator()->getIterator();
  SmallVector<PHINode*, 16> phis;
  for (BasicBlock& block : entry)
    for (PHINode& phi : block.phis()) phis.push_back(&phi);
  for (PHINode* phi : phis) DemotePHIToStack(phi, alloca_point);
  SmallVector<Instruction*, 32> crossing;
  for (BasicBlock& block : entry) {
    if (&block == prologue) continue;
    for (Instruction& instruction : block)
      if (!isa<AllocaInst>(instruction) && instruction.isUsedOutsideOfBlock(&block))
        crossing.push_back(&instruction);
  }
  for (Instruction* instruction : crossing) DemoteRegToStack(*instruction, false, alloca_point);
  out.unrolled_loops = unroll_strided_loops(entry, strided);
  add_soft_back_edges(entry, strided, out);

  out.body = body;
  return "";
}

}  // namespace anygpu_pass
