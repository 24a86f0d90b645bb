// A warp function hands 64 bits per lane to the exchange (warp_host.h), but most exchange a float
// or an int. Kept 64 bits wide, the lane's slot is the widest type of the loop that stores it
// and halves the vector width there (8 lanes in 512 bits, where a float sum has 16). Here the
// exchanges whose values are all zero-extended 32-bit ones get 4-byte slots: their reads, found
// through the pointer each exchange returns, load the low half and zero-extend it, which gives
// the same 64 bits. lower_warp_exchanges() gives them the 4-byte buffers.
#include "llvm/ADT/MapVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {
namespace {

bool given_fits(Value* value) {
  if (auto* constant = dyn_cast<ConstantInt>(value)) return constant->getValue().isIntN(32);
  auto* widened = dyn_cast<ZExtInst>(value);
  return widened && widened->getSrcTy()->getScalarSizeInBits() <= 32;
}

// A read of a lane's value: 8 bytes as an integer, whose high half every exchange sharing the
// buffer leaves zero, or at most 4 bytes, its low half.
bool read_fits(const LoadInst& load) {
  Type* type = load.getType();
  if (!load.isSimple()) return false;  // volatile or atomic: left as it is
  return type->isIntegerTy(64) ||
         (!type->isVectorTy() && load.getModule()->getDataLayout().getTypeStoreSize(type) <= 4);
}

// The lane an address into the values names: `values` itself, values[i] as an i64 GEP, or a
// constant byte offset that is a whole number of 8-byte slots. Null when it is something else.
Value* lane_of(Value* address, Value* values) {
  Type* i64 = Type::getInt64Ty(values->getContext());
  if (address == values) return ConstantInt::get(i64, 0);
  auto* step = dyn_cast<GetElementPtrInst>(address);
  if (!step || step->getPointerOperand() != values || step->getNumIndices() != 1) return nullptr;
  Value* index = step->getOperand(1);
  if (step->getSourceElementType()->isIntegerTy(64)) return index;
  auto* bytes = dyn_cast<ConstantInt>(index);
  if (!step->getSourceElementType()->isIntegerTy(8) || !bytes || bytes->getSExtValue() % 8 != 0)
    return nullptr;
  return ConstantInt::get(i64, bytes->getSExtValue() / 8);
}

struct Read {
  LoadInst* load;
  Value* values;  // the pointer the exchange gave, as loaded from its slot
  Value* lane;
};

// Every read through the pointers the exchanges write to `slot` (the helpers' `values`, one local
// that a loop of warp functions, unrolled, shares among its exchanges), or false where one is not
// a plain read of a lane's value.
bool collect_reads(AllocaInst* slot, SmallVectorImpl<Read>& reads) {
  for (User* user : slot->users()) {
    if (auto* call = dyn_cast<CallInst>(user); call && is_call_to(*call, kWarpExchange)) continue;
    if (auto* store = dyn_cast<StoreInst>(user); store && store->getPointerOperand() == slot &&
                                                 isa<ConstantPointerNull>(store->getValueOperand()))
      continue;  // `values = nullptr` before the call
    auto* values = dyn_cast<LoadInst>(user);
    if (!values || !values->getType()->isPointerTy()) return false;
    for (User* use : values->users()) {
      SmallVector<User*, 4> addresses{use};
      if (isa<GetElementPtrInst>(use)) addresses.assign(use->user_begin(), use->user_end());
      for (User* address_user : addresses) {
        auto* load = dyn_cast<LoadInst>(address_user);
        Value* lane = load ? lane_of(load->getPointerOperand(), values) : nullptr;
        if (!lane || !read_fits(*load)) return false;
        reads.push_back({load, values, lane});
      }
    }
  }
  return true;
}

void narrow_reads(ArrayRef<Read> reads) {
  for (auto [load, values, lane] : reads) {
    IRBuilder<> builder(load);
    Value* address = builder.CreateInBoundsGEP(builder.getInt32Ty(), values, lane);
    Type* type = load->getType();
    Value* read = builder.CreateAlignedLoad(type->isIntegerTy(64) ? builder.getInt32Ty() : type,
                                            address, Align(4));
    if (type->isIntegerTy(64)) read = builder.CreateZExt(read, type);
    load->replaceAllUsesWith(read);
  }
  for (const Read& read : reads) {
    auto* address = dyn_cast<GetElementPtrInst>(read.load->getPointerOperand());
    read.load->eraseFromParent();
    if (address && address->use_empty()) address->eraseFromParent();
  }
}

}  // namespace

SmallPtrSet<CallInst*, 8> narrow_exchanges(ArrayRef<CallInst*> exchanges) {
  MapVector<AllocaInst*, SmallVector<CallInst*, 8>> by_slot;
  for (CallInst* exchange : exchanges)
    if (auto* slot = dyn_cast<AllocaInst>(exchange->getArgOperand(3)))
      by_slot[slot].push_back(exchange);
  SmallPtrSet<CallInst*, 8> narrowed;
  for (auto& [slot, sharing] : by_slot) {
    if (!all_of(sharing, [](CallInst* exchange) { return given_fits(exchange->getArgOperand(2)); }))
      continue;
    SmallVector<Read, 32> reads;
    if (!collect_reads(slot, reads)) continue;
    narrow_reads(reads);
    narrowed.insert(sharing.begin(), sharing.end());
  }
  return narrowed;
}

}  // namespace anygpu_pass
