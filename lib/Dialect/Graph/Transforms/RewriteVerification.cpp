//===- RewriteVerification.cpp - the verify-rewrites hook -----------------===//
//
// The graph passes call checkSameResults; the execution layer installs what
// runs it (lib/Runtime/RewriteChecker.cpp), so that these passes, and the
// mlir-opt plugin built from them, do not depend on the JIT.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/Transforms/RewriteVerification.h"

#include <mutex>

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {
std::mutex &checkerMutex() {
  static std::mutex m;
  return m;
}
SameResultsChecker &installedChecker() {
  static SameResultsChecker checker;
  return checker;
}
} // namespace

void mlir::graphopt::graph::setSameResultsChecker(SameResultsChecker checker) {
  std::lock_guard<std::mutex> lock(checkerMutex());
  installedChecker() = std::move(checker);
}

std::optional<std::string>
mlir::graphopt::graph::checkSameResults(ModuleOp before, ModuleOp after,
                                        StringRef entry,
                                        const ComparedPrograms &names) {
  SameResultsChecker checker;
  {
    std::lock_guard<std::mutex> lock(checkerMutex());
    checker = installedChecker();
  }
  if (!checker)
    return std::string("verify-rewrites needs graphopt's JIT, which this "
                       "program does not provide (graph-opt, graph-run and "
                       "the Python package do; the mlir-opt plugin does not)");
  return checker(before, after, entry, names);
}
