//===- Prefetch.cpp - graph-cpu-prefetch -----------------------------------===//
//
// Software prefetch of the next packed B panel in matmul register blocks.
// A packed B is [N/nr][K][nr]: the k loop of a register block reads one
// nr-float row per step from panel j, and panel j + 1's same row lies K
// rows further on. graph-cpu-tile-and-vectorize marks such k loops with K
// (kPrefetchPanelRowsAttr); here each B row read in them gets an L2
// prefetch of that row of the next panel, one per 64-byte line.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/CPUMatmul.h"
#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUPREFETCHPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

struct GraphCPUPrefetchPass
    : public graphopt::impl::GraphCPUPrefetchPassBase<GraphCPUPrefetchPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](scf::ForOp loop) {
      auto rows =
          loop->getAttrOfType<IntegerAttr>(graphopt::kPrefetchPanelRowsAttr);
      if (!rows)
        return;
      loop->removeAttr(graphopt::kPrefetchPanelRowsAttr);
      // The B row reads: [1, nr] vectors of f32 (A's are [mr, 1]) from a
      // 2-D buffer, directly in the loop body.
      for (auto read : loop.getBody()->getOps<vector::TransferReadOp>()) {
        auto memrefType = dyn_cast<MemRefType>(read.getBase().getType());
        VectorType vecType = read.getVectorType();
        if (!memrefType || memrefType.getRank() != 2 ||
            vecType.getRank() != 2 || vecType.getDimSize(0) != 1 ||
            vecType.getDimSize(1) < 16 || !vecType.getElementType().isF32())
          continue;
        // Read from a packed panel buffer [P][rows][nr] through subviews
        // (not from a copy, or a splat constant folded to one row).
        Value root = read.getBase();
        while (auto view = root.getDefiningOp<memref::SubViewOp>())
          root = view.getSource();
        auto rootType = dyn_cast<MemRefType>(root.getType());
        if (!rootType || rootType.getRank() != 3 ||
            rootType.getDimSize(1) != rows.getInt())
          continue;
        Location loc = read.getLoc();
        rewriter.setInsertionPoint(read);
        ValueRange indices = read.getIndices();
        Value row = arith::AddIOp::create(
            rewriter, loc, indices[0],
            arith::ConstantIndexOp::create(rewriter, loc, rows.getInt()));
        // One prefetch per 64-byte line (16 floats).
        for (int64_t c = 0; c < vecType.getDimSize(1); c += 16) {
          Value col = indices[1];
          if (c > 0)
            col = arith::AddIOp::create(
                rewriter, loc, col,
                arith::ConstantIndexOp::create(rewriter, loc, c));
          memref::PrefetchOp::create(rewriter, loc, read.getBase(),
                                     ValueRange{row, col}, /*isWrite=*/false,
                                     /*localityHint=*/2,
                                     /*isDataCache=*/true);
        }
        ++numPrefetched;
      }
    });
  }
};

} // namespace
