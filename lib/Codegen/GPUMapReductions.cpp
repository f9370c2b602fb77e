//===- GPUMapReductions.cpp - graph-gpu-map-reductions --------------------===//
//
// A row reduction lowered by the generic parallel-loop mapping gets one
// thread per output element that loops serially over the whole row. This
// pass gives each row a warp instead: the lanes stride over the row, then a
// shuffle butterfly combines their partial values in registers.
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"
#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUMAPREDUCTIONSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;
using mlir::graphopt::combine;
using mlir::graphopt::isCombiner;
using mlir::graphopt::kWarpSize;

namespace {

struct MapReductionToWarps : OpRewritePattern<linalg::GenericOp> {
  MapReductionToWarps(MLIRContext *ctx, unsigned warpsPerBlock)
      : OpRewritePattern(ctx), warpsPerBlock(warpsPerBlock) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "not on memrefs");
    if (op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not exactly one output");
    unsigned numLoops = op.getNumLoops();
    if (numLoops == 0 || op.getNumReductionLoops() != 1 ||
        op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
      return rewriter.notifyMatchFailure(
          op, "not exactly one reduction loop, the innermost one");
    unsigned redDim = numLoops - 1;
    for (AffineMap map : op.getIndexingMapsArray())
      if (!map.isProjectedPermutation())
        return rewriter.notifyMatchFailure(
            op, "indexing map is not a projected permutation");

    // The output is indexed by every parallel loop, each once: one output
    // element per row, written by one lane.
    OpOperand *init = op.getDpsInitOperand(0);
    AffineMap outMap = op.getMatchingIndexingMap(init);
    if (outMap.getNumResults() != numLoops - 1 ||
        outMap.isFunctionOfDim(redDim))
      return rewriter.notifyMatchFailure(
          op, "output not indexed by exactly the parallel loops");
    auto outType = dyn_cast<MemRefType>(init->get().getType());
    if (!outType)
      return rewriter.notifyMatchFailure(op, "output is not a memref");
    Type elemType = outType.getElementType();
    if (!elemType.isF32() && !elemType.isInteger(32))
      return rewriter.notifyMatchFailure(
          op, "element type is not f32 or i32 (gpu.shuffle is 32-bit)");

    // Lanes read consecutive elements only when the reduction loop indexes
    // the innermost dimension of every input it indexes.
    for (OpOperand *in : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(in);
      if (map.isFunctionOfDim(redDim) &&
          map.getDimPosition(map.getNumResults() - 1) != redDim)
        return rewriter.notifyMatchFailure(
            op, "reduction loop is not the innermost dimension of an input");
    }
    SmallVector<int64_t> staticRanges = op.getStaticLoopRanges();
    if (staticRanges[redDim] == 1)
      return rewriter.notifyMatchFailure(op, "reduction extent is 1");

    // The body yields combiner(f(inputs), out) and uses `out` nowhere else.
    Block *body = op.getBlock();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    BlockArgument outArg = op.getMatchingBlockArgument(init);
    TypedAttr neutral;
    const char *why = "";
    Operation *combiner =
        graphopt::matchReductionCombiner(op, elemType, neutral, why);
    if (!combiner)
      return rewriter.notifyMatchFailure(op, why);

    // rows = product of the parallel extents, folded when they are static.
    std::optional<int64_t> staticRows = 1;
    for (unsigned d = 0; d < redDim; ++d) {
      if (ShapedType::isDynamic(staticRanges[d])) {
        staticRows.reset();
        break;
      }
      *staticRows *= staticRanges[d];
    }
    if (staticRows == 0)
      return rewriter.notifyMatchFailure(op, "no output rows");

    Location loc = op.getLoc();
    SmallVector<Value> sizes;
    for (Range range :
         cast<linalg::LinalgOp>(*op).createLoopRanges(rewriter, loc))
      sizes.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value numWarps =
        arith::ConstantIndexOp::create(rewriter, loc, warpsPerBlock);
    Value warpSize = arith::ConstantIndexOp::create(rewriter, loc, kWarpSize);
    Value rows, grid;
    if (staticRows) {
      rows = arith::ConstantIndexOp::create(rewriter, loc, *staticRows);
      grid = arith::ConstantIndexOp::create(
          rewriter, loc, llvm::divideCeil(*staticRows, warpsPerBlock));
    } else {
      rows = c1;
      for (unsigned d = 0; d < redDim; ++d)
        rows = arith::MulIOp::create(rewriter, loc, rows, sizes[d]);
      grid = arith::DivUIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, rows,
                                arith::ConstantIndexOp::create(
                                    rewriter, loc, warpsPerBlock - 1)),
          numWarps);
      // A launch of zero blocks is a CUDA error: skip empty outputs.
      Value nonEmpty = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ugt, rows,
          arith::ConstantIndexOp::create(rewriter, loc, 0));
      auto ifNonEmpty = scf::IfOp::create(rewriter, loc, nonEmpty,
                                          /*withElseRegion=*/false);
      rewriter.setInsertionPointToStart(ifNonEmpty.thenBlock());
    }
    auto launch = gpu::LaunchOp::create(rewriter, loc, grid, c1, c1, warpSize,
                                        numWarps, c1);

    // Warp `threadIdx.y` of block `blockIdx.x` owns row
    // `blockIdx.x * warpsPerBlock + threadIdx.y`; its lanes are threadIdx.x.
    PatternRewriter &b = rewriter;
    b.setInsertionPointToStart(&launch.getBody().front());
    Value kc0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value kc32 = arith::ConstantIndexOp::create(b, loc, kWarpSize);
    Value lane = launch.getThreadIds().x;
    Value row = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                              launch.getBlockSize().y),
        launch.getThreadIds().y);
    // Uniform across the warp (no lane id in it): the shuffles below run
    // with all 32 lanes or none.
    Value inRows =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
    auto ifInRows = scf::IfOp::create(b, loc, inRows, /*withElseRegion=*/false);
    gpu::TerminatorOp::create(b, loc);

    b.setInsertionPointToStart(ifInRows.thenBlock());
    // Row-major delinearization of the row id into the parallel indices.
    SmallVector<Value> ivs(numLoops);
    Value rest = row;
    for (int d = static_cast<int>(redDim) - 1; d >= 0; --d) {
      if (staticRanges[d] == 1) {
        ivs[d] = kc0;
        continue;
      }
      if (d == 0) {
        ivs[d] = rest;
        break;
      }
      ivs[d] = arith::RemUIOp::create(b, loc, rest, sizes[d]);
      rest = arith::DivUIOp::create(b, loc, rest, sizes[d]);
    }

    auto loadOperand = [&](OpBuilder &lb, OpOperand *operand) -> Value {
      Value source = operand->get();
      if (!isa<MemRefType>(source.getType()))
        return source;
      AffineMap map = op.getMatchingIndexingMap(operand);
      SmallVector<Value> indices;
      for (unsigned i = 0, e = map.getNumResults(); i < e; ++i)
        indices.push_back(ivs[map.getDimPosition(i)]);
      return memref::LoadOp::create(lb, loc, source, indices);
    };

    // Each lane folds the body over k = lane, lane + 32, ... < K.
    Value neutralValue = arith::ConstantOp::create(b, loc, neutral);
    auto forOp = scf::ForOp::create(
        b, loc, lane, sizes[redDim], kc32, ValueRange{neutralValue},
        [&](OpBuilder &lb, Location bodyLoc, Value k, ValueRange iterArgs) {
          ivs[redDim] = k;
          IRMapping mapping;
          for (OpOperand *in : op.getDpsInputOperands())
            mapping.map(op.getMatchingBlockArgument(in), loadOperand(lb, in));
          mapping.map(outArg, iterArgs[0]);
          for (Operation &bodyOp : body->without_terminator()) {
            if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
              mapping.map(index.getResult(), ivs[index.getDim()]);
              continue;
            }
            lb.clone(bodyOp, mapping);
          }
          scf::YieldOp::create(lb, bodyLoc,
                               mapping.lookup(yield.getValues()[0]));
        });

    // Butterfly: after the offsets 16, 8, 4, 2, 1 every lane holds the
    // combination of all 32 partial values.
    Value acc = forOp.getResult(0);
    for (int64_t offset = kWarpSize / 2; offset > 0; offset /= 2)
      acc = combine(b, loc, combiner, acc,
                    graphopt::shuffleXor(b, loc, acc, offset));

    // Lane 0 folds in the output's initial value and stores the row's result.
    Value isLane0 =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, kc0);
    auto ifLane0 = scf::IfOp::create(b, loc, isLane0, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifLane0.thenBlock());
    SmallVector<Value> outIndices;
    for (unsigned i = 0, e = outMap.getNumResults(); i < e; ++i)
      outIndices.push_back(ivs[outMap.getDimPosition(i)]);
    Value initial =
        memref::LoadOp::create(b, loc, init->get(), outIndices);
    memref::StoreOp::create(b, loc, combine(b, loc, combiner, acc, initial),
                            init->get(), outIndices);

    rewriter.eraseOp(op);
    return success();
  }

  unsigned warpsPerBlock;
};

struct GraphGPUMapReductionsPass
    : graphopt::impl::GraphGPUMapReductionsPassBase<GraphGPUMapReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(graphopt::checkWarpsPerBlock(getOperation(), warpsPerBlock)))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    graphopt::populateGPUMapReductionsPatterns(patterns, warpsPerBlock);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

Operation *mlir::graphopt::matchReductionCombiner(Operation *generic,
                                                  Type elemType,
                                                  TypedAttr &neutral,
                                                  const char *&why) {
  auto op = cast<linalg::GenericOp>(generic);
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  BlockArgument outArg = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  Operation *combiner = yield.getValues()[0].getDefiningOp();
  if (!combiner || combiner->getBlock() != body || !isCombiner(combiner) ||
      combiner->getResult(0).getType() != elemType) {
    why = "yield is not a known combiner";
    return nullptr;
  }
  if (!outArg.hasOneUse() || outArg.getUses().begin()->getOwner() != combiner) {
    why = "output value used other than once by the combiner";
    return nullptr;
  }
  std::optional<TypedAttr> value = arith::getNeutralElement(combiner);
  if (!value) {
    why = "combiner has no neutral element";
    return nullptr;
  }
  for (Operation &bodyOp : body->without_terminator())
    if (!isMemoryEffectFree(&bodyOp)) {
      why = "body has memory effects";
      return nullptr;
    }
  neutral = *value;
  return combiner;
}

void mlir::graphopt::populateGPUMapReductionsPatterns(
    RewritePatternSet &patterns, unsigned warpsPerBlock) {
  patterns.add<MapReductionToWarps>(patterns.getContext(), warpsPerBlock);
}
