//===- GraphOptPlugin.cpp - graphopt as an mlir-opt plugin ----------------===//
//
// mlir-opt --load-dialect-plugin=libGraphOptPlugin.so adds the graph dialect;
// --load-pass-plugin=libGraphOptPlugin.so adds graphopt's passes and
// pipelines. Upstream dialects and passes are mlir-opt's own.
//
//===----------------------------------------------------------------------===//

#include "graphopt/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GraphOpt", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::graphopt::registerGraphOptDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GraphOpt", LLVM_VERSION_STRING,
          []() { mlir::graphopt::registerGraphOptPasses(); }};
}
