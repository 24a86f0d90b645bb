// Atomics on a block's shared memory, made plain read-modify-writes. Shared memory is thread-local
// storage of the worker (kernel_host.h: `__shared__` is `static __thread`), and a worker runs one
// block at a time with every thread of it in the work-item loops of this one OS thread, so no
// other thread can observe such an atomic: its bus lock (`lock xadd`, a `lock cmpxchg` loop for
// floats and min/max) buys nothing. Global-memory atomics stay atomic, and the fiber entries,
// which this pass never rewrites, keep theirs.
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {
namespace {

// True when every object `pointer` may point into is a thread-local global: through GEPs, casts,
// selects, phis and the llvm.threadlocal.address intrinsic that clang wraps TLS accesses in.
bool points_into_thread_local(Value* pointer) {
  SmallVector<Value*, 8> work{pointer};
  SmallPtrSet<Value*, 16> seen;
  while (!work.empty()) {
    Value* value = work.pop_back_val()->stripPointerCasts();
    if (!seen.insert(value).second) continue;
    if (auto* global = dyn_cast<GlobalVariable>(value)) {
      if (!global->isThreadLocal()) return false;
    } else if (auto* gep = dyn_cast<GEPOperator>(value)) {
      work.push_back(gep->getPointerOperand());
    } else if (auto* select = dyn_cast<SelectInst>(value)) {
      work.push_back(select->getTrueValue());
      work.push_back(select->getFalseValue());
    } else if (auto* phi = dyn_cast<PHINode>(value)) {
      for (Value* incoming : phi->incoming_values()) work.push_back(incoming);
    } else if (auto* intrinsic = dyn_cast<IntrinsicInst>(value);
               intrinsic && intrinsic->getIntrinsicID() == Intrinsic::threadlocal_address) {
      work.push_back(intrinsic->getArgOperand(0));
    } else {
      return false;  // a parameter, a load, a call: memory other workers may share
    }
  }
  return true;
}

}  // namespace

unsigned lower_block_local_atomics(Function& entry) {
  SmallVector<Instruction*, 8> atomics;
  for (Instruction& instruction : instructions(entry)) {
    if (auto* rmw = dyn_cast<AtomicRMWInst>(&instruction)) {
      if (points_into_thread_local(rmw->getPointerOperand())) atomics.push_back(rmw);
    } else if (auto* cas = dyn_cast<AtomicCmpXchgInst>(&instruction)) {
      if (points_into_thread_local(cas->getPointerOperand())) atomics.push_back(cas);
    } else if (auto* load = dyn_cast<LoadInst>(&instruction)) {
      if (load->isAtomic() && points_into_thread_local(load->getPointerOperand()))
        atomics.push_back(load);
    } else if (auto* store = dyn_cast<StoreInst>(&instruction)) {
      if (store->isAtomic() && points_into_thread_local(store->getPointerOperand()))
        atomics.push_back(store);
    }
  }
  for (Instruction* atomic : atomics) {
    if (auto* rmw = dyn_cast<AtomicRMWInst>(atomic)) {
      lowerAtomicRMWInst(rmw);
    } else if (auto* cas = dyn_cast<AtomicCmpXchgInst>(atomic)) {
      lowerAtomicCmpXchgInst(cas);
    } else if (auto* load = dyn_cast<LoadInst>(atomic)) {
      load->setAtomic(AtomicOrdering::NotAtomic);
    } else {
      cast<StoreInst>(atomic)->setAtomic(AtomicOrdering::NotAtomic);
    }
  }
  return static_cast<unsigned>(atomics.size());
}

}  // namespace anygpu_pass
