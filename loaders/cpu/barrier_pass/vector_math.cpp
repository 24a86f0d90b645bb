// Exponentials, logarithms and erf the vectorizer can widen: every call to expf, exp2f, exp10f,
// logf, log2f, log10f, erff, exp, log or erf in the module becomes a call to its straight-line twin
// that math_host_vector.h defines in the same module (agk_vector_expf ...), which the inliner then
// takes in; so do the intrinsics clang makes of them under -fno-math-errno. Done at the start of
// the pipeline, for the whole module, so that the work-item loops and the fiber entry compute the
// same bits.
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {
namespace {

// The libm function an intrinsic call stands for: under -fno-math-errno clang emits `expf(x)` as
// llvm.exp.f32 from the start.
const char* library_name(Intrinsic::ID id, Type* type) {
  const bool single = type->isFloatTy();
  if (!single && !type->isDoubleTy()) return nullptr;
  switch (id) {
    case Intrinsic::exp:
      return single ? "expf" : "exp";
    case Intrinsic::exp2:
      return single ? "exp2f" : nullptr;
    case Intrinsic::exp10:
      return single ? "exp10f" : nullptr;
    case Intrinsic::log:
      return single ? "logf" : "log";
    case Intrinsic::log2:
      return single ? "log2f" : nullptr;
    case Intrinsic::log10:
      return single ? "log10f" : nullptr;
    default:
      return nullptr;
  }
}

// math_host_vector.h's twin of libm's `name`, defined in this module, or null. A static
// extern "C" function is named by its mangled name, with an alias of the C name.
Function* twin_of(Module& module, const char* name) {
  GlobalValue* named = module.getNamedValue(std::string("agk_vector_") + name);
  if (auto* alias = dyn_cast_or_null<GlobalAlias>(named)) named = alias->getAliaseeObject();
  auto* twin = dyn_cast_or_null<Function>(named);
  return twin && !twin->isDeclaration() ? twin : nullptr;
}

bool redirect_intrinsics(Module& module) {
  SmallVector<std::pair<CallInst*, Function*>, 16> calls;
  for (Function& function : module) {
    if (function.getName().contains("agk_vector_")) continue;  // the twins' own arithmetic
    for (Instruction& instruction : instructions(function)) {
      auto* call = dyn_cast<IntrinsicInst>(&instruction);
      const char* name = call ? library_name(call->getIntrinsicID(), call->getType()) : nullptr;
      Function* twin = name ? twin_of(module, name) : nullptr;
      if (twin && twin->getFunctionType() == call->getFunctionType()) calls.push_back({call, twin});
    }
  }
  for (auto [call, twin] : calls) {
    CallInst* replacement = CallInst::Create(twin, {call->getArgOperand(0)}, "", call);
    replacement->copyMetadata(*call);
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  return !calls.empty();
}

}  // namespace

PreservedAnalyses VectorMathPass::run(Module& module, ModuleAnalysisManager&) {
  bool changed = false;
  for (const char* name :
       {"expf", "exp2f", "exp10f", "logf", "log2f", "log10f", "erff", "exp", "log", "erf"}) {
    Function* library = module.getFunction(name);
    Function* twin = twin_of(module, name);
    if (!library || !twin || library->getFunctionType() != twin->getFunctionType()) continue;
    // Calls only: the address of expf taken elsewhere stays libm's.
    for (Use& use : make_early_inc_range(library->uses())) {
      auto* call = dyn_cast<CallInst>(use.getUser());
      if (!call || !call->isCallee(&use) || call->getFunction() == twin) continue;
      call->setCalledFunction(twin);
      changed = true;
    }
  }
  changed = redirect_intrinsics(module) || changed;
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace anygpu_pass
