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

#ifdef GRAPHOPT_STANDALONE_LIBRARY
#include "NarrowRegistration.h"
#else
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#endif

void mlir::graphopt::registerGraphOptDialects(DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, fusion::FusionDialect>();
}

// The pipelines create ops from many upstream dialects and rely on their
// external interface models (bufferization, tiling, LLVM conversion), so the
// tools register the upstream set as mlir-opt does. Startup stays under 50 ms.
//
// The wheel's self-contained library (GRAPHOPT_STANDALONE_LIBRARY) registers
// only what graphopt's pipelines use (NarrowRegistration.h): registering
// every upstream dialect and pass would link all of MLIR and every LLVM
// backend into it.
void mlir::graphopt::registerAllDialects(DialectRegistry &registry) {
  registerGraphOptDialects(registry);
#ifdef GRAPHOPT_STANDALONE_LIBRARY
  registerUsedUpstreamDialects(registry);
#else
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
#endif
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
#ifdef GRAPHOPT_STANDALONE_LIBRARY
    registerUsedUpstreamPasses();
#else
    mlir::registerAllPasses();
#endif
    return true;
  }();
  (void)once;
  registerGraphOptPasses();
}
