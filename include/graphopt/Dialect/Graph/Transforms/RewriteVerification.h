//===- RewriteVerification.h - check rewrites by running them ---*- C++ -*-===//
//
/// \file
/// The numerical check behind `verify-rewrites`: two versions of a function
/// are JIT-compiled for the host CPU, run on the same inputs, and their
/// results compared. graph-replace-patterns checks each match this way,
/// graph-apply-pdl-patterns each rewritten function.
///
/// The graph passes only declare the check: running code is the execution
/// layer's work (lib/Runtime/RewriteChecker.cpp), which installs the checker
/// at start-up (runtime::registerRewriteChecker(), called by graph-opt and
/// the C API). Without it (the mlir-opt plugin) `verify-rewrites` reports
/// that it cannot run. So the compiler libraries never link the JIT.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_REWRITEVERIFICATION_H
#define GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_REWRITEVERIFICATION_H

#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir::graphopt::graph {

/// How the two programs compared by checkSameResults are called in messages
/// ("the pattern gives 0, the replacement 1").
struct ComparedPrograms {
  StringRef before;
  StringRef after;
};

/// Compiles function `entry` of `before` and of `after` (both modules are
/// lowered in place: pass copies) with their dynamic dims fixed to 5, runs
/// both on the same inputs — seeded random values, zeros, large magnitudes,
/// negative values — and compares the results with the tolerance of their
/// element type (f32: rtol 1e-4, atol 1e-5; f16: 1e-2; bf16: 5e-2; integers
/// exact). Returns a description of the first disagreement, or of what kept
/// the check from running; std::nullopt when the results agree. Diagnostics
/// of the compilation are part of the returned text, not emitted.
std::optional<std::string> checkSameResults(ModuleOp before, ModuleOp after,
                                            StringRef entry,
                                            const ComparedPrograms &names);

/// The implementation of checkSameResults, installed by the execution layer.
using SameResultsChecker = std::function<std::optional<std::string>(
    ModuleOp before, ModuleOp after, StringRef entry,
    const ComparedPrograms &names)>;
void setSameResultsChecker(SameResultsChecker checker);

} // namespace mlir::graphopt::graph

#endif // GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_REWRITEVERIFICATION_H
