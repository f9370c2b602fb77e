//===- GPUSplitReductions.cpp - graph-gpu-split-reductions ----------------===//
//
// A full reduction (every loop a reduction, a rank-0 output) becomes one
// thread's loop on the GPU, or one warp's for a rank-1 input: 16M elements
// took 0.84 s on an H200. This pass splits a large one into two stages that
// the row-reduction mapping (graph-gpu-map-reductions) gives a warp per row.
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"
#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <algorithm>

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUSPLITREDUCTIONSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;
using mlir::graphopt::combine;

namespace {

/// Splits a full reduction of many contiguous elements: rows of C elements
/// reduced into a buffer of R = N / C partial values (the original body),
/// then the partial values combined into the output (the combiner alone).
struct SplitFullReduction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  /// Reductions of fewer elements stay as they are (one warp reads 32 of
  /// them per step).
  static constexpr int64_t kMinElements = 1 << 14;

  /// The row length C: a divisor of `n` near n / 1024 (about a thousand
  /// rows, enough warps to fill a GPU), between 256 and 4096; 0 if `n` has
  /// no divisor in that range.
  static int64_t rowLength(int64_t n) {
    int64_t target = std::clamp<int64_t>(n / 1024, 256, 4096);
    for (int64_t c = target; c >= 256; --c)
      if (n % c == 0)
        return c;
    for (int64_t c = target + 1; c <= 4096; ++c)
      if (n % c == 0)
        return c;
    return 0;
  }

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not one output on memrefs");
    unsigned numLoops = op.getNumLoops();
    if (numLoops == 0 || op.getNumReductionLoops() != numLoops)
      return rewriter.notifyMatchFailure(op, "not a full reduction");
    OpOperand *init = op.getDpsInitOperand(0);
    // One output element: rank 0, or keepdims' 1 x ... x 1 read at zeros.
    auto outType = dyn_cast<MemRefType>(init->get().getType());
    if (!outType || !outType.hasStaticShape() || outType.getNumElements() != 1)
      return rewriter.notifyMatchFailure(op, "output is not one element");
    AffineMap outMap = op.getMatchingIndexingMap(init);
    for (AffineExpr e : outMap.getResults())
      if (!isa<AffineConstantExpr>(e) ||
          cast<AffineConstantExpr>(e).getValue() != 0)
        return rewriter.notifyMatchFailure(op, "output not read at zeros");
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t n = 1;
    for (int64_t r : ranges) {
      if (ShapedType::isDynamic(r))
        return rewriter.notifyMatchFailure(op, "dynamic extent");
      n *= r;
    }
    if (n < kMinElements)
      return rewriter.notifyMatchFailure(op, "too few elements to split");
    int64_t c = rowLength(n);
    if (c == 0)
      return rewriter.notifyMatchFailure(op, "no row length divides the size");
    int64_t rows = n / c;
    // Every input reads the whole iteration space in order, contiguously:
    // it can be viewed as rows x C.
    for (OpOperand *in : op.getDpsInputOperands()) {
      auto type = dyn_cast<MemRefType>(in->get().getType());
      if (!type || !op.getMatchingIndexingMap(in).isIdentity() ||
          !type.getLayout().isIdentity())
        return rewriter.notifyMatchFailure(
            op, "an input is not a contiguous identity-indexed memref");
    }
    TypedAttr neutral;
    const char *why = "";
    Operation *combiner = graphopt::matchReductionCombiner(
        op, outType.getElementType(), neutral, why);
    if (!combiner)
      return rewriter.notifyMatchFailure(op, why);
    if (!op.getBlock()->getOps<linalg::IndexOp>().empty())
      return rewriter.notifyMatchFailure(op, "body reads loop indices");

    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    // Inputs viewed as rows x C.
    SmallVector<Value> inputs;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = in->get();
      auto type = cast<MemRefType>(v.getType());
      if (type.getRank() != 1) {
        ReassociationIndices all;
        for (int64_t i = 0; i < type.getRank(); ++i)
          all.push_back(i);
        v = memref::CollapseShapeOp::create(
            rewriter, loc, v, ArrayRef<ReassociationIndices>{all});
      }
      auto rowsType = MemRefType::get({rows, c}, type.getElementType());
      inputs.push_back(memref::ExpandShapeOp::create(
          rewriter, loc, rowsType, v, ArrayRef<ReassociationIndices>{{0, 1}},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(rows),
                                 rewriter.getIndexAttr(c)}));
    }
    // The partial values, starting from the combiner's neutral element.
    Type elemType = outType.getElementType();
    Value partial = memref::AllocOp::create(rewriter, loc,
                                            MemRefType::get({rows}, elemType));
    Value neutralValue = arith::ConstantOp::create(rewriter, loc, neutral);
    linalg::FillOp::create(rewriter, loc, neutralValue, partial);

    // Stage 1: the original body over rows x C.
    AffineMap id2 = AffineMap::getMultiDimIdentityMap(2, ctx);
    AffineMap rowMap = AffineMap::get(2, 0, getAffineDimExpr(0, ctx), ctx);
    SmallVector<AffineMap> maps(inputs.size(), id2);
    maps.push_back(rowMap);
    auto stage1 = linalg::GenericOp::create(
        rewriter, loc, TypeRange{}, inputs, ValueRange{partial}, maps,
        {utils::IteratorType::parallel, utils::IteratorType::reduction});
    rewriter.cloneRegionBefore(op.getRegion(), stage1.getRegion(),
                               stage1.getRegion().end());

    // Stage 2: the partial values combined into the output (whose initial
    // value the combiner folds in, as before).
    AffineMap id1 = AffineMap::getMultiDimIdentityMap(1, ctx);
    AffineMap scalarMap =
        AffineMap::get(1, 0,
                       SmallVector<AffineExpr>(outType.getRank(),
                                               getAffineConstantExpr(0, ctx)),
                       ctx);
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{partial}, ValueRange{init->get()},
        ArrayRef<AffineMap>{id1, scalarMap},
        ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          linalg::YieldOp::create(
              b, bodyLoc, combine(b, bodyLoc, combiner, args[0], args[1]));
        });
    memref::DeallocOp::create(rewriter, loc, partial);
    rewriter.eraseOp(op);
    return success();
  }
};

struct GraphGPUSplitReductionsPass
    : graphopt::impl::GraphGPUSplitReductionsPassBase<
          GraphGPUSplitReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    graphopt::populateGPUSplitReductionsPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void mlir::graphopt::populateGPUSplitReductionsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<SplitFullReduction>(patterns.getContext());
}
