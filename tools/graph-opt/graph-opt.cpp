//===- graph-opt.cpp - the graphopt optimizer driver ----------------------===//
//
// mlir-opt with graphopt's dialects, passes and pipelines registered. All
// registration lives in InitAll; this file only calls it.
//
//===----------------------------------------------------------------------===//

#include "graphopt/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::graphopt::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::graphopt::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "graphopt optimizer driver\n", registry));
}
