//===- ApproximateMath.cpp - graph-approximate-math -----------------------===//

#include "graphopt/Codegen/Passes.h"
#include "graphopt/Codegen/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHAPPROXIMATEMATHPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {
struct GraphApproximateMathPass
    : public graphopt::impl::GraphApproximateMathPassBase<
          GraphApproximateMathPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // The functions with upstream polynomial approximations that our
    // lowering produces. sqrt/rsqrt stay: LLVM has vector instructions.
    auto wanted = [](StringRef name) {
      // Upstream passes op names with or without the dialect prefix
      // depending on the pattern; accept both.
      name.consume_front("math.");
      return llvm::is_contained(
          {"exp", "expm1", "log", "log1p", "log2", "tanh", "erf", "erfc"},
          name);
    };
    populateMathF32ExpansionPatterns(patterns, wanted);
    populateMathPolynomialApproximationPatterns(patterns, wanted);
    populatePolynomialApproximateErfPattern(patterns);
    if (failed(
            graphopt::applyPatternsOnly(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
