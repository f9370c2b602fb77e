//===- FusionPlanner.h - fusion decisions and the fusion report -*- C++ -*-===//
//
// The analysis behind `fusion-form-groups`: which producer -> consumer edges
// of a block are fused into `fusion.group`s, which producers are recomputed
// in several groups, and why every other edge is left alone. Kept apart from
// the pass so that tools can print the report without rewriting anything.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNER_H
#define GRAPHOPT_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNER_H

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
class Block;
class RewriterBase;
} // namespace mlir

namespace mlir::graphopt::fusion {

/// The terms of the cost model (docs/Dialects/FusionRationale.md).
struct FusionCostModel {
  /// Machine balance: arithmetic a fused kernel may redo per byte of memory
  /// traffic it saves. A producer with several consumers is recomputed in
  /// each consumer's group when
  ///   flops(producer) * (consumers - 1) <= balance * bytes saved,
  /// bytes saved = element size * (1 write + consumers reads) per element.
  double flopsPerByte = 2.0;
  /// Largest number of ops in one group (bounds compile time of one kernel).
  unsigned maxGroupSize = 64;
};

/// One producer -> consumer edge and what the planner decided for it.
struct FusionEdge {
  Operation *producer = nullptr;
  Operation *consumer = nullptr;
  unsigned operand = 0;
  bool fused = false;
  /// The producer is cloned into the consumer's group (multi-consumer).
  bool recomputed = false;
  /// Short name of the rule or cost term that decided: "loop", "epilogue",
  /// "reduction-input", "reduction-output", "not-fusible-op",
  /// "contraction-operand", "shape-mismatch", "multi-consumer-cost",
  /// "would-create-cycle", "group-size-limit", ...
  std::string rule;
  /// One sentence for humans, with the numbers that decided.
  std::string reason;
};

struct FusionPlan {
  /// Groups of >= 2 ops, each in program order.
  llvm::SmallVector<llvm::SmallVector<Operation *>> groups;
  llvm::SmallVector<GroupKind> kinds;
  /// For every group, producers outside it that are cloned into it.
  llvm::SmallVector<llvm::SmallVector<Operation *>> recomputed;
  /// Every edge between two graph ops of the block (constants excluded).
  llvm::SmallVector<FusionEdge> edges;
};

/// Plans fusion for the graph ops directly in `block`. Linear in the number
/// of ops and edges.
FusionPlan planFusion(Block &block, const FusionCostModel &model = {});

/// Wraps every planned group into a `fusion.group` (isolated from above;
/// small splat constants are cloned in, other values become inputs).
void applyFusionPlan(RewriterBase &rewriter, const FusionPlan &plan);

/// Writes the report for one function: JSON (one object) or text.
void printFusionReport(llvm::raw_ostream &os, llvm::StringRef function,
                       const FusionPlan &plan, bool json);

} // namespace mlir::graphopt::fusion

#endif // GRAPHOPT_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNER_H
