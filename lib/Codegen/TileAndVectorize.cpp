//===- TileAndVectorize.cpp - graph-cpu-tile-and-vectorize ----------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUTILEANDVECTORIZEPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {
struct GraphCPUTileAndVectorizePass
    : public graphopt::impl::GraphCPUTileAndVectorizePassBase<
          GraphCPUTileAndVectorizePass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace
