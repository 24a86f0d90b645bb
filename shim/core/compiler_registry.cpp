#include "shim/core/compiler_registry.h"

#include <map>
#include <memory>
#include <mutex>

namespace anygpu {

const CompilerRecord& compiler_for(const BackendDescriptor& backend) {
  static std::mutex mutex;
  // Never destroyed: compilers, like drivers, stay loaded until exit.
  static auto* records = new std::map<const BackendDescriptor*, CompilerRecord>;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = records->find(&backend);
  if (found != records->end()) return found->second;
  CompilerRecord record;
  if (!backend.compiler) {
    record.reason = std::string("the ") + backend.label + " backend has no run-time compiler";
  } else if (std::unique_ptr<RuntimeCompiler> made = backend.compiler(record.reason)) {
    record.identity = made->identity();
    record.compiler = made.release();
    record.reason.clear();
  } else if (record.reason.empty()) {
    record.reason = std::string("the ") + backend.label + " compiler could not be loaded";
  }
  return records->emplace(&backend, std::move(record)).first->second;
}

}  // namespace anygpu
