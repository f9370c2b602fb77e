//===- Optimize.cpp - graph-optimize: the fixed-point optimizer -----------===//

#include "graphopt/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::graphopt::graph {
#define GEN_PASS_DEF_GRAPHOPTIMIZEPASS
#include "graphopt/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::graph

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {
struct GraphOptimizePass
    : public mlir::graphopt::graph::impl::GraphOptimizePassBase<
          GraphOptimizePass> {
  using Base::Base;

  void runOnOperation() override {
    OpPassManager round(ModuleOp::getOperationName());
    round.addPass(createGraphRefineShapesPass());
    GraphFoldConstantsPassOptions fold;
    fold.sizeLimit = foldSizeLimit;
    round.addPass(createGraphFoldConstantsPass(fold));
    round.addPass(createCanonicalizerPass());
    round.addPass(createCSEPass());
    round.addPass(createSymbolDCEPass());
    // Each round can expose work for the others (a refined shape enables a
    // fold, a fold enables a simplification): iterate until the IR is stable.
    for (unsigned i = 0; i < maxIterations; ++i) {
      OperationFingerPrint before(getOperation());
      if (failed(runPipeline(round, getOperation())))
        return signalPassFailure();
      ++numRounds;
      if (OperationFingerPrint(getOperation()) == before)
        break;
    }
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager round(ModuleOp::getOperationName());
    round.addPass(createGraphRefineShapesPass());
    round.addPass(createCanonicalizerPass());
    round.getDependentDialects(registry);
  }
};
} // namespace
