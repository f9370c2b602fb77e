//===- TileAndFuse.cpp - fusion-tile-and-fuse -----------------------------===//
//
// Code generation of fusion.group kernels once their bodies are on linalg:
// the op computing the group's result (the root) is tiled, and every
// producer inside the group is fused into the tile loop, computing only the
// slice the tile needs. Intermediates then live as tiles, never as
// full-size tensors (so never as full-size buffers after bufferization).
// Tile sizes by kind:
//   output: the last two dims (the contraction's M, N) in tiles of up to
//           256 x 256 that divide them;
//   input:  rows of 16 along the last dim no reduction in the group runs
//           over, 1 for the other non-reduced dims, reduced dims untiled;
//   loop:   not tiled (elementwise fusion already made one loop nest).
// An output group whose convolution was lowered to a loop over images
// (batch > 1) instead has its elementwise epilogue fused into that loop,
// and tiled there like a batch-1 group when each image is a matmul. The
// group is then inlined, and each image's result is computed in its slice
// of the loop's result (no per-image temporary and copy).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::graphopt::fusion {
#define GEN_PASS_DEF_FUSIONTILEANDFUSEPASS
#include "graphopt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::fusion

using namespace mlir;
using namespace mlir::graphopt::fusion;

namespace {

/// Dims of the root's iteration space that some reduction in the group
/// reduces over (read through the reduction's identity-mapped input of the
/// root's rank).
llvm::SmallBitVector reducedDims(GroupOp group, ArrayRef<int64_t> rootRanges) {
  int64_t rank = rootRanges.size();
  llvm::SmallBitVector dims(rank);
  group.getBody().walk([&](linalg::LinalgOp op) {
    if (op.getNumReductionLoops() == 0)
      return;
    SmallVector<utils::IteratorType> its = op.getIteratorTypesArray();
    if (op.getNumLoops() == rank) {
      for (int64_t d = 0; d < rank; ++d)
        if (its[d] == utils::IteratorType::reduction)
          dims.set(d);
      return;
    }
    // A reduction over a reshaped view of the root's space (layer norm's
    // [rows, 1, cols] against a [rows, cols] root): its dims match the
    // root's once unit dims are dropped. Unmatched, the root's last dim is
    // taken as reduced, so that no tile recomputes a whole reduction.
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<int64_t> opDims, rootDims;
    for (int64_t d = 0, e = ranges.size(); d < e; ++d)
      if (ranges[d] != 1)
        opDims.push_back(d);
    for (int64_t d = 0; d < rank; ++d)
      if (rootRanges[d] != 1)
        rootDims.push_back(d);
    bool matched = opDims.size() == rootDims.size();
    for (size_t i = 0; matched && i < opDims.size(); ++i)
      matched = ranges[opDims[i]] == rootRanges[rootDims[i]] &&
                !ShapedType::isDynamic(ranges[opDims[i]]);
    if (!matched) {
      dims.set(rank - 1);
      return;
    }
    for (size_t i = 0; i < opDims.size(); ++i)
      if (its[opDims[i]] == utils::IteratorType::reduction)
        dims.set(rootDims[i]);
  });
  return dims;
}

/// Tile sizes of an output group's root (a contraction with its epilogue).
SmallVector<int64_t> outputTileSizes(TilingInterface root, int64_t threads) {
  int64_t rank = root.getLoopIteratorTypes().size();
  SmallVector<int64_t> sizes(rank, 0);
  if (rank == 0)
    return sizes;
  // Tiles that divide the dims (a partial tile would have dynamic sizes
  // and lose the vectorized matmul kernel), rows up to 256 so the
  // kernel's column blocks are reused across many rows as in the unfused
  // loop order.
  SmallVector<int64_t> ranges =
      cast<linalg::LinalgOp>(root.getOperation()).getStaticLoopRanges();
  auto divisor = [](int64_t size, int64_t limit) -> int64_t {
    if (ShapedType::isDynamic(size))
      return 0;
    for (int64_t d = std::min(size, limit); d > 1; --d)
      if (size % d == 0)
        return d;
    return 1;
  };
  for (int64_t d = 0; d + 2 < rank; ++d)
    sizes[d] = 1;
  if (rank >= 2)
    sizes[rank - 2] = divisor(ranges[rank - 2], 256);
  // One row (a matrix-vector product, batch 1): no rows to reuse a
  // column block across, and the matmul reads B's rows in order
  // (graph-cpu-tile-and-vectorize), fastest as whole rows: one tile per
  // thread. (The 1024 x 1000 classifier with its bias alone, streamed,
  // graph-run on one Zen 4 core: 250-column tiles 66 us, 500-column
  // tiles 63, whole rows 52; MobileNetV3 ~2.67 -> ~2.45 ms from 500 to
  // whole rows.)
  int64_t colLimit = 256;
  if (rank >= 2 && ranges[rank - 2] == 1 &&
      !ShapedType::isDynamic(ranges[rank - 1]))
    colLimit = std::max<int64_t>(256, ranges[rank - 1] /
                                          std::max<int64_t>(1, threads));
  sizes[rank - 1] = divisor(ranges[rank - 1], colLimit);
  // On several threads the tiles are split evenly among them, so their
  // count should be a multiple of the thread count: BERT-base's 768-column
  // projections ([128, 768] x [768, 768] and [128, 3072] x [3072, 768],
  // with bias and residual) were 3 tiles of 256 columns, 2 on one thread
  // and 1 on the other, which then waited for a third of the kernel. The
  // columns are cut narrower instead (whole 32-column register panels:
  // 768 -> 4 tiles of 192; QKV's 2304 -> 12 tiles of 192). Measured, two
  // threads on the Xeon, in-process A/B over 9 rounds: the BERT layer 8.85
  // -> 8.06 ms; the CNNs' groups already had even counts.
  if (threads > 1 && rank >= 2 &&
      llvm::none_of(ranges, ShapedType::isDynamic) && sizes[rank - 2] > 0 &&
      sizes[rank - 1] > 0) {
    int64_t outer = ranges[rank - 2] / sizes[rank - 2];
    for (int64_t d = 0; d + 2 < rank; ++d)
      outer *= ranges[d];
    int64_t cols = ranges[rank - 1];
    if (outer * (cols / sizes[rank - 1]) % threads != 0)
      for (int64_t d = sizes[rank - 1] - 1; d >= 32; --d)
        if (cols % d == 0 && d % 32 == 0 && outer * (cols / d) % threads == 0) {
          sizes[rank - 1] = d;
          break;
        }
  }
  // Only parallel dims of the root may be tiled for fusion.
  SmallVector<utils::IteratorType> its = root.getLoopIteratorTypes();
  for (int64_t d = 0; d < rank; ++d)
    if (its[d] != utils::IteratorType::parallel)
      sizes[d] = 0;
  return sizes;
}

SmallVector<int64_t> tileSizesFor(GroupOp group, TilingInterface root,
                                  int64_t threads) {
  int64_t rank = root.getLoopIteratorTypes().size();
  SmallVector<int64_t> sizes(rank, 0);
  if (rank == 0)
    return sizes;
  switch (group.getKind()) {
  case GroupKind::Loop:
    return {};
  case GroupKind::Output:
    return outputTileSizes(root, threads);
  case GroupKind::Input: {
    llvm::SmallBitVector reduced = reducedDims(
        group,
        cast<linalg::LinalgOp>(root.getOperation()).getStaticLoopRanges());
    SmallVector<utils::IteratorType> its = root.getLoopIteratorTypes();
    int64_t last = -1;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced.test(d) && its[d] == utils::IteratorType::parallel) {
        sizes[d] = 1;
        last = d;
      }
    if (last < 0)
      return {};
    sizes[last] = 16;
    return sizes;
  }
  }
  return {};
}

/// An output group of one matmul whose epilogue (bias, batch norm,
/// activation, residual: elementwise generics) runs on a reshaped result:
/// a convolution, lowered to a 2-D matmul whose [F, P] result is expanded
/// to NCHW before its epilogue (or whose [P, F] result, pixels as rows, is
/// transposed and expanded).
bool isMatmulWithReshapedEpilogue(GroupOp group) {
  if (group.getKind() != GroupKind::Output)
    return false;
  int64_t matmuls = 0;
  bool expands = false;
  for (Operation &op : group.getBody().front()) {
    if (isa<linalg::MatmulOp>(op)) {
      ++matmuls;
    } else if (isa<tensor::ExpandShapeOp>(op)) {
      expands = true;
    } else if (auto l = dyn_cast<linalg::LinalgOp>(op)) {
      if (!isa<linalg::GenericOp, linalg::FillOp, linalg::TransposeOp>(op) ||
          l.getNumReductionLoops() != 0)
        return false;
    }
  }
  return matmuls == 1 && expands;
}

/// Moves the group's expand_shapes past its elementwise ops (dropping unit
/// dims and collapsing the ops to the matmul's rank), so that the epilogue
/// consumes the matmul's result directly and the tile loop can fuse the
/// matmul: the expand_shape to NCHW then comes last, on the tiled result.
/// Without this the epilogue's tile loop stops at the expand_shape and the
/// matmul's whole result is written, then read back by the bias pass, and
/// written and read again by the activation's.
void moveExpandsToEnd(Region &body) {
  MLIRContext *ctx = body.getContext();
  // A transpose of the matmul's result (a convolution computed with pixels
  // as rows, [P, F], transposed to NCHW) becomes a generic, so that the
  // epilogue's elementwise ops absorb it and read the matmul's result
  // through a transposed map.
  {
    IRRewriter rewriter(ctx);
    SmallVector<linalg::TransposeOp> transposes;
    body.walk([&](linalg::TransposeOp t) {
      // Only the result's: the operands' transposes (a constant weight's,
      // packed at compile time) stay.
      Value in = t.getInput();
      while (auto expand = in.getDefiningOp<tensor::ExpandShapeOp>())
        in = expand.getSrc();
      if (in.getDefiningOp<linalg::MatmulOp>())
        transposes.push_back(t);
    });
    for (linalg::TransposeOp t : transposes) {
      rewriter.setInsertionPoint(t);
      (void)linalg::generalizeNamedOp(rewriter, t);
    }
  }
  RewritePatternSet patterns(ctx);
  linalg::ControlDropUnitDims unitDims;
  linalg::populateFoldUnitExtentDimsPatterns(patterns, unitDims);
  linalg::populateFoldReshapeOpsByCollapsingPatterns(
      patterns, [](OpOperand *) { return true; });
  // The epilogue's elementwise ops become one.
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [](OpOperand *operand) {
        Operation *producer = operand->get().getDefiningOp();
        return producer && isa<linalg::GenericOp>(producer) &&
               cast<linalg::LinalgOp>(producer).getNumReductionLoops() == 0;
      });
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(body, std::move(patterns));
}

/// Tiles `root` by `sizes` and fuses into the tile loop every producer
/// defined in `scope` (a group's body, whose inputs are block arguments, or
/// the body of a loop over images, whose padded input stays outside).
bool tileRootAndFuseProducers(RewriterBase &rewriter, TilingInterface root,
                              ArrayRef<int64_t> sizes, Region &scope) {
  if (sizes.empty() || llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return false;
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&scope](tensor::ExtractSliceOp, OpResult producer, bool)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!scope.isAncestor(producer.getOwner()->getParentRegion()))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{
            /*yieldProducerReplacement=*/false};
      });
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
  if (failed(result))
    return false;
  // Only parallel dims were tiled: the tiles are independent.
  graphopt::markParallelTileLoops(result->loops, root, sizes);
  for (auto [orig, repl] : result->replacements)
    rewriter.replaceAllUsesWith(orig, repl);
  return true;
}

/// The op defining `v`, looking through expand_shapes (a root's result
/// reshaped to the shape the group or the loop over images yields).
Operation *definingOpThroughExpands(Value v) {
  Operation *op = v.getDefiningOp();
  while (auto expand = dyn_cast_if_present<tensor::ExpandShapeOp>(op))
    op = expand.getSrc().getDefiningOp();
  return op;
}

/// Whether `v` is a matmul's result through expand_shapes and transposes
/// (a convolution lowered per image to im2col and a matmul).
bool isReshapedMatmul(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<linalg::MatmulOp>(def))
      return true;
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
      v = expand.getSrc();
    else if (auto transpose = dyn_cast<linalg::TransposeOp>(def))
      v = transpose.getInput();
    else
      return false;
  }
  return false;
}

/// Fuses an elementwise `root` into the loop over images that a convolution
/// is lowered to (convert-graph-to-linalg's per-image tap chains), so that
/// the epilogue runs on each image's result as it is produced: the
/// convolution kernel can then apply it in registers and store the final
/// values once (graph-cpu-tile-and-vectorize), instead of writing the
/// convolution's result, copying it out of its padded rows and reading it
/// back for the epilogue.
bool fuseIntoImageLoop(RewriterBase &rewriter, TilingInterface root,
                       int64_t threads) {
  auto generic = dyn_cast<linalg::GenericOp>(root.getOperation());
  if (!generic || generic.getNumReductionLoops() != 0 ||
      generic.getNumDpsInits() != 1)
    return false;
  scf::ForOp loop;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    auto producer = in->get().getDefiningOp<scf::ForOp>();
    if (!producer)
      continue;
    if (loop || !graphopt::isMarkedParallel(producer) ||
        producer.getNumResults() != 1 || !in->get().hasOneUse() ||
        !generic.getMatchingIndexingMap(in).isIdentity())
      return false;
    loop = producer;
  }
  if (!loop)
    return false;
  auto insert = loop.getYieldedValues()[0].getDefiningOp<tensor::InsertSliceOp>();
  if (!insert || insert.getDest() != loop.getRegionIterArg(0) ||
      !insert->hasOneUse())
    return false;
  bool matmulImage = isReshapedMatmul(insert.getSource());
  // Consumer fusion needs the tile at the destination's rank: a
  // rank-reducing insert (an image's [F, H, W] into [N, F, H, W]) inserts an
  // expand_shape of it instead.
  RankedTensorType tileType = insert.getSourceType();
  if (tileType.getRank() != insert.getDestType().getRank()) {
    auto fullType = RankedTensorType::get(insert.getStaticSizes(),
                                          tileType.getElementType());
    if (!fullType.hasStaticShape() || !tileType.hasStaticShape())
      return false;
    std::optional<SmallVector<ReassociationIndices>> reassoc =
        getReassociationIndicesForReshape(tileType, fullType);
    if (!reassoc)
      return false;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(insert);
    Value tile = tensor::ExpandShapeOp::create(
        rewriter, insert.getLoc(), fullType, insert.getSource(), *reassoc);
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        insert, tile, insert.getDest(), insert.getMixedOffsets(),
        insert.getMixedSizes(), insert.getMixedStrides());
  }
  SmallVector<LoopLikeOpInterface> loops = {loop};
  FailureOr<scf::SCFFuseConsumerOfSliceResult> fused =
      scf::tileAndFuseConsumer(rewriter, generic, loops);
  if (failed(fused))
    return false;
  // The loop now yields the epilogue's tiles too; the convolution's own
  // result is dead: stop inserting it into a full-size tensor (which would
  // be materialized and copied).
  auto newLoop = cast<scf::ForOp>(fused->tiledOps.front()->getParentOp());
  graphopt::markParallelLoop(newLoop);
  rewriter.replaceOp(generic, newLoop.getResults().take_back(1));
  if (newLoop.getResult(0).use_empty()) {
    auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
    auto deadInsert =
        yield.getOperand(0).getDefiningOp<tensor::InsertSliceOp>();
    if (deadInsert && deadInsert->hasOneUse())
      rewriter.modifyOpInPlace(yield, [&] {
        yield->setOperand(0, deadInsert.getDest());
      });
  }
  // A matmul's image (im2col or a pointwise convolution) then gets the
  // batch-1 treatment inside the loop: the epilogue is made to consume the
  // matmul's [F, P] result directly, and is tiled with the matmul fused into
  // its tiles, so the kernel applies it in registers
  // (graph-cpu-tile-and-vectorize) and stores each value once.
  if (!matmulImage)
    return true;
  Region &body = newLoop.getRegion();
  moveExpandsToEnd(body);
  auto newYield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
  auto epilogueInsert =
      newYield.getOperands().back().getDefiningOp<tensor::InsertSliceOp>();
  if (!epilogueInsert)
    return true;
  auto epilogue = dyn_cast_if_present<linalg::GenericOp>(
      definingOpThroughExpands(epilogueInsert.getSource()));
  if (!epilogue || epilogue.getNumReductionLoops() != 0 ||
      !llvm::any_of(epilogue.getDpsInputs(), [](Value in) {
        return in.getDefiningOp<linalg::MatmulOp>();
      }))
    return true;
  auto tileable = cast<TilingInterface>(epilogue.getOperation());
  (void)tileRootAndFuseProducers(rewriter, tileable,
                                 outputTileSizes(tileable, threads), body);
  return true;
}

/// A loop over images (forEachImage) inserts each image's result into its
/// slice of the loop's result; when that result is computed into a
/// tensor.empty (a matmul's [F, P] accumulator, the tile loop of its
/// epilogue) and then reshaped to the image's shape, bufferization gives it
/// a buffer of its own and copies it into the slice. Start the computation
/// from the slice itself (collapsed to the computed shape) so the result is
/// stored in place. Followed from the inserted value: one expand_shape, then
/// the destinations of linalg ops and the init arguments of loops.
void computeImagesInPlace(RewriterBase &rewriter, scf::ForOp loop) {
  if (!graphopt::isMarkedParallel(loop))
    return;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [i, yielded] : llvm::enumerate(yield.getOperands())) {
    auto insert = yielded.getDefiningOp<tensor::InsertSliceOp>();
    if (!insert || insert.getDest() != loop.getRegionIterArg(i) ||
        insert->getBlock() != loop.getBody())
      continue;
    // The computed shape: the image's, or that of an expand_shape's source.
    Value v = insert.getSource();
    auto expand = v.getDefiningOp<tensor::ExpandShapeOp>();
    if (expand)
      v = expand.getSrc();
    Type computed = v.getType();
    // The operand holding the tensor.empty found (directly, or through an
    // expand_shape to the image's shape), if any.
    OpOperand *start = nullptr;
    auto isEmptyStart = [&](Value init) {
      if (init.getDefiningOp<tensor::EmptyOp>())
        return init.getType() == computed;
      auto e = init.getDefiningOp<tensor::ExpandShapeOp>();
      return !expand && e && e.getSrc().getDefiningOp<tensor::EmptyOp>() &&
             init.getType() == computed;
    };
    while (Operation *def = v.getDefiningOp()) {
      if (!loop->isProperAncestor(def))
        break;
      auto result = cast<OpResult>(v);
      if (auto dps = dyn_cast<linalg::LinalgOp>(def))
        start = dps.getDpsInitOperand(result.getResultNumber());
      else if (auto inner = dyn_cast<scf::ForOp>(def))
        start = &inner.getInitArgsMutable()[result.getResultNumber()];
      else
        break;
      v = start->get();
      if (isEmptyStart(v))
        break;
    }
    if (!start || !isEmptyStart(start->get()) ||
        !insert.getSourceType().hasStaticShape())
      continue;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(start->getOwner());
    Location loc = start->getOwner()->getLoc();
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, loc, insert.getSourceType(), insert.getDest(),
        insert.getMixedOffsets(), insert.getMixedSizes(),
        insert.getMixedStrides());
    if (expand)
      slice = tensor::CollapseShapeOp::create(rewriter, loc,
                                              expand.getSrcType(), slice,
                                              expand.getReassociationIndices());
    rewriter.modifyOpInPlace(start->getOwner(), [&] { start->set(slice); });
  }
}

/// Tiles the group's root and fuses its producers; false when the group
/// has no single tileable root.
bool tileAndFuse(RewriterBase &rewriter, GroupOp group, int64_t threads) {
  auto yield = cast<YieldOp>(group.getBody().front().getTerminator());
  if (yield.getValues().size() != 1)
    return false;
  if (isMatmulWithReshapedEpilogue(group))
    moveExpandsToEnd(group.getBody());
  // The root: what the group yields, through trailing expand_shapes.
  Operation *rootOp = definingOpThroughExpands(yield.getValues()[0]);
  auto root = dyn_cast_if_present<TilingInterface>(rootOp);
  if (!root || !isa<linalg::LinalgOp>(root.getOperation()))
    return false;
  // Zero-size iteration spaces have nothing to tile.
  if (llvm::any_of(cast<linalg::LinalgOp>(root.getOperation())
                       .getStaticLoopRanges(),
                   [](int64_t r) { return r == 0; }))
    return false;
  // Nor any op with a static zero-size operand dim, even when its loop
  // ranges read as dynamic (a dynamic input added to a constant of shape
  // 1x5x0): a tile's slice of that operand would start at an offset the
  // empty dim does not have.
  for (Operation &op : group.getBody().front())
    if (auto l = dyn_cast<linalg::LinalgOp>(op)) {
      if (llvm::is_contained(l.getStaticLoopRanges(), 0))
        return false;
      for (Type t : op.getOperandTypes())
        if (auto shaped = dyn_cast<ShapedType>(t))
          if (shaped.hasRank() && llvm::is_contained(shaped.getShape(), 0))
            return false;
    }
  if (group.getKind() == GroupKind::Output &&
      fuseIntoImageLoop(rewriter, root, threads))
    return true;
  return tileRootAndFuseProducers(
      rewriter, root, tileSizesFor(group, root, threads), group.getBody());
}

struct FusionTileAndFusePass
    : mlir::graphopt::fusion::impl::FusionTileAndFusePassBase<
          FusionTileAndFusePass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<GroupOp> groups;
    getOperation()->walk([&](GroupOp g) { groups.push_back(g); });
    for (GroupOp group : groups) {
      if (tileAndFuse(rewriter, group, threads))
        ++numTiled;
      // Inline the body.
      Block &body = group.getBody().front();
      auto yield = cast<YieldOp>(body.getTerminator());
      // A yielded block argument (a body folded to one of its inputs) is
      // the matching input: the block's arguments die with the block.
      SmallVector<Value> results;
      for (Value v : yield.getValues()) {
        auto arg = dyn_cast<BlockArgument>(v);
        results.push_back(arg && arg.getOwner() == &body
                              ? group.getInputs()[arg.getArgNumber()]
                              : v);
      }
      rewriter.inlineBlockBefore(&body, group, group.getInputs());
      rewriter.eraseOp(yield);
      rewriter.replaceOp(group, results);
    }
    getOperation()->walk(
        [&](scf::ForOp loop) { computeImagesInPlace(rewriter, loop); });
  }
};

} // namespace
