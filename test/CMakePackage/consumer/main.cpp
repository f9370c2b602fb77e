// Parses a graph program, runs graph-optimize through the public pipeline
// builder, and prints the result.
#include "graphopt/InitAll.h"
#include "graphopt/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::DialectRegistry registry;
  mlir::graphopt::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  const char *source = R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %one = graph.constant dense<1.0> : tensor<4xf32>
      %y = graph.mul %x, %one : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %y : tensor<4xf32>
    })mlir";
  auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  mlir::graphopt::buildGraphOptimizePipeline(
      pm, mlir::graphopt::GraphOptimizeOptions());
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
