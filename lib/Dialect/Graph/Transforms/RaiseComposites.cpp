//===- RaiseComposites.cpp - graph-raise-composites -----------------------===//
//
// The patterns are PDLL (RaiseComposites.pdll), compiled to C++ by mlir-pdll
// when graphopt is built; PDLL states each form as the graph it is, which
// is what these recognizers are. This file provides the C++ the PDLL calls
// and the pass shell.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/Transforms/PDLPatterns.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::graphopt::graph {
#define GEN_PASS_DEF_GRAPHRAISECOMPOSITESPASS
#include "graphopt/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::graph

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {

/// `axes` are the last `k` dims of `input`, in order, where `weight` and
/// `bias` have rank `k` and the shape of those dims (dims may be dynamic on
/// either side), all with `input`'s element type.
LogicalResult normalizesTrailingDims(Value input, Attribute axes, Value weight,
                                     Value bias) {
  auto x = dyn_cast<RankedTensorType>(input.getType());
  auto w = dyn_cast<RankedTensorType>(weight.getType());
  auto b = dyn_cast<RankedTensorType>(bias.getType());
  auto a = dyn_cast_if_present<DenseI64ArrayAttr>(axes);
  if (!x || !w || !b || !a)
    return failure();
  int64_t rank = x.getRank(), k = w.getRank();
  if (k == 0 || k > rank || b.getRank() != k || a.size() != k)
    return failure();
  if (w.getElementType() != x.getElementType() ||
      b.getElementType() != x.getElementType())
    return failure();
  for (int64_t i = 0; i < k; ++i) {
    int64_t dim = rank - k + i;
    if (a[i] != dim)
      return failure();
    for (RankedTensorType t : {w, b})
      if (!ShapedType::isDynamic(t.getDimSize(i)) &&
          !ShapedType::isDynamic(x.getDimSize(dim)) &&
          t.getDimSize(i) != x.getDimSize(dim))
        return failure();
  }
  return success();
}

#include "RaiseComposites.h.inc"

struct GraphRaiseCompositesPass
    : public mlir::graphopt::graph::impl::GraphRaiseCompositesPassBase<
          GraphRaiseCompositesPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populateRaiseCompositesPatterns(set);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal()
        .enableFolding(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), patterns, config)))
      return signalPassFailure();
  }

  FrozenRewritePatternSet patterns;
};

} // namespace

void mlir::graphopt::graph::populateRaiseCompositesPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  context->loadDialect<pdl::PDLDialect, pdl_interp::PDLInterpDialect>();
  populateGeneratedPDLLPatterns(patterns);
  registerGraphPDLFunctions(patterns.getPDLPatterns());
}
