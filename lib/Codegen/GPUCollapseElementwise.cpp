//===- GPUCollapseElementwise.cpp - graph-gpu-collapse-elementwise --------===//
//
// The generic CUDA kernels come from all-parallel linalg ops on buffers,
// one thread per element of the innermost dims. Where consecutive dims are
// laid out contiguously in every operand that reads them, they are one dim:
// merging them before the ops become loops gives the kernels fewer
// divisions to delinearize, no idle lanes on a short innermost dim, and
// 16-byte vectors where only the merged extent is a multiple of the vector.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUCOLLAPSEELEMENTWISEPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// Rewrites the inputs `op` reads at index 0 along unit dims (a broadcast
/// as the graph lowering writes it: (d0, d1, d2, d3) -> (d1, 0, 0) on
/// memref<512x1x1xf32>) to views without those dims, read by dims only
/// ((d1) on memref<512xf32>), so that the maps are projected permutations
/// and the unit dims do not keep other dims apart.
void dropBroadcastUnitDims(linalg::GenericOp op, RewriterBase &rewriter) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(operand->get().getType());
    AffineMap map = maps[operand->getOperandNumber()];
    if (!type)
      continue;
    // Each kept (dim) result with the unit dims after it; leading unit
    // dims join the first kept one.
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices leading;
    SmallVector<AffineExpr> kept;
    bool valid = true;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      auto c = dyn_cast<AffineConstantExpr>(e);
      if (isa<AffineDimExpr>(e)) {
        kept.push_back(e);
        groups.push_back(leading);
        groups.back().push_back(i);
        leading.clear();
      } else if (c && c.getValue() == 0 && type.getDimSize(i) == 1) {
        if (groups.empty())
          leading.push_back(i);
        else
          groups.back().push_back(i);
      } else {
        valid = false;
        break;
      }
    }
    if (!valid || kept.size() == map.getNumResults() ||
        !memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups))
      continue;
    rewriter.setInsertionPoint(op);
    Value view = memref::CollapseShapeOp::create(rewriter, op.getLoc(),
                                                 operand->get(), groups);
    rewriter.modifyOpInPlace(op, [&] { operand->set(view); });
    maps[operand->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
    changed = true;
  }
  if (changed)
    rewriter.modifyOpInPlace(op, [&] {
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
}

/// Whether the iteration dims `group` (consecutive) may be one dim of
/// `op`: in every operand's map they are consecutive results in order, or
/// absent, and where present the operand's memory is contiguous across
/// them (each dim's stride is the next one's stride times its extent).
bool mergeable(linalg::GenericOp op, const ReassociationIndices &group) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!linalg::areDimSequencesPreserved(maps, {group}))
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> pos =
        map.getResultPosition(getAffineDimExpr(group.front(), op.getContext()));
    if (!pos)
      continue;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)))
      return false;
    for (unsigned i = *pos; i + 1 < *pos + group.size(); ++i) {
      int64_t next = type.getDimSize(i + 1);
      if (ShapedType::isDynamic(strides[i]) ||
          ShapedType::isDynamic(strides[i + 1]) ||
          ShapedType::isDynamic(next) || strides[i] != strides[i + 1] * next)
        return false;
    }
  }
  return true;
}

/// The coarsest grouping of `op`'s iteration dims into runs that may each
/// be one dim, built from the outermost dim in.
SmallVector<ReassociationIndices> groupsOf(linalg::GenericOp op) {
  SmallVector<ReassociationIndices> groups = {{0}};
  for (int64_t d = 1, e = op.getNumLoops(); d < e; ++d) {
    ReassociationIndices wider = groups.back();
    wider.push_back(d);
    if (mergeable(op, wider))
      groups.back() = std::move(wider);
    else
      groups.push_back({d});
  }
  return groups;
}

struct GraphGPUCollapseElementwisePass
    : public graphopt::impl::GraphGPUCollapseElementwisePassBase<
          GraphGPUCollapseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>() &&
          op.hasPureBufferSemantics() && op.getNumLoops() >= 2 &&
          op.getNumParallelLoops() == op.getNumLoops())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops) {
      dropBroadcastUnitDims(op, rewriter);
      if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
            return map.isProjectedPermutation(/*allowZeroInResults=*/false);
          }))
        continue;
      SmallVector<ReassociationIndices> groups = groupsOf(op);
      if (groups.size() == op.getNumLoops())
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, groups, rewriter);
      if (failed(collapsed))
        continue;
      rewriter.eraseOp(op);
      ++numCollapsed;
    }
  }
};

} // namespace
