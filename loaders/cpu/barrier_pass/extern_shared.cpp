// `extern __shared__ float temp[];` is `extern thread_local float temp[];` on the host
// (kernel_host.h). C++ reaches a thread_local of another file through its wrapper, which calls
// the variable's initialisation function `_ZTH...` when one is linked in: a weak reference, tested
// at every access. The build defines the extern __shared__ arrays itself, uninitialised, in
// assembly (host_shared_memory_assembly), so no such function ever exists; but the test and the
// possible call stay in every loop that touches the array, and keep the vectorizer out of it (the
// prescan's loops ran one thread at a time). Here the reference becomes the null pointer it
// resolves to, for the unsized thread-local arrays only: the shape CUDA gives extern __shared__.
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "work_item_loops.h"

using namespace llvm;

namespace anygpu_pass {
namespace {

// The Itanium name of a variable's initialisation function: _ZTH and the variable's mangled name
// without its _Z (a variable at namespace scope is mangled as a plain <source-name>).
std::string init_function_name(StringRef variable) {
  if (variable.starts_with("_Z")) return ("_ZTH" + variable.drop_front(2)).str();
  return "_ZTH" + std::to_string(variable.size()) + variable.str();
}

bool is_extern_shared_array(const GlobalVariable& variable) {
  auto* array = dyn_cast<ArrayType>(variable.getValueType());
  return variable.isDeclaration() && variable.isThreadLocal() && array &&
         array->getNumElements() == 0;
}

}  // namespace

PreservedAnalyses ExternSharedPass::run(Module& module, ModuleAnalysisManager&) {
  bool changed = false;
  for (GlobalVariable& variable : module.globals()) {
    if (!is_extern_shared_array(variable)) continue;
    Function* init = module.getFunction(init_function_name(variable.getName()));
    if (!init || !init->isDeclaration() || !init->hasExternalWeakLinkage()) continue;
    // Its calls first (the wrapper makes them only when the function exists): a call through
    // null would be an indirect call, which sends a kernel to fibers where nothing folds it (-O0).
    for (User* user : make_early_inc_range(init->users()))
      if (auto* call = dyn_cast<CallInst>(user); call && call->getCalledOperand() == init)
        call->eraseFromParent();
    init->replaceAllUsesWith(ConstantPointerNull::get(init->getType()));
    init->eraseFromParent();
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace anygpu_pass
