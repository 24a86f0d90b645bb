// Exponentials, logarithms and erf the vectorizer can widen: every call to expf, exp2f, exp10f,
// logf, log2f, log10f, erff, exp, log or erf in the module becomes a call to its straight-line twin
// that math_host_vector.h defines in the same module (agk_vector_expf ...), which the inliner then
// takes in. Done at the start of the pipeline, for the whole module, so that the work-item loops
// and the fiber entry compute the same bits.
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/Module.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {

PreservedAnalyses VectorMathPass::run(Module& module, ModuleAnalysisManager&) {
  bool changed = false;
  for (const char* name :
       {"expf", "exp2f", "exp10f", "logf", "log2f", "log10f", "erff", "exp", "log", "erf"}) {
    Function* library = module.getFunction(name);
    // A static extern "C" function is named by its mangled name, with an alias of the C name.
    GlobalValue* named = module.getNamedValue(std::string("agk_vector_") + name);
    if (auto* alias = dyn_cast_or_null<GlobalAlias>(named)) named = alias->getAliaseeObject();
    auto* twin = dyn_cast_or_null<Function>(named);
    if (!library || !twin || twin->isDeclaration() ||
        library->getFunctionType() != twin->getFunctionType())
      continue;
    // Calls only: the address of expf taken elsewhere stays libm's.
    for (Use& use : make_early_inc_range(library->uses())) {
      auto* call = dyn_cast<CallInst>(use.getUser());
      if (!call || !call->isCallee(&use) || call->getFunction() == twin) continue;
      call->setCalledFunction(twin);
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace anygpu_pass
