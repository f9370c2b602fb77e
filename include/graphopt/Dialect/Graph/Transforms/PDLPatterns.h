//===- PDLPatterns.h - user rewrite rules in PDL/PDLL -----------*- C++ -*-===//
//
/// \file
/// Rewrite rules loaded at run time: PDLL sources (translated to the PDL
/// dialect by the `mlir-pdll` tool, since MLIR's PDLL parser is not a
/// library the Debian packages ship) or MLIR files of `pdl.pattern` ops,
/// compiled to PDL bytecode. Also the native constraints and rewrites that
/// graph patterns can call by name; their PDLL declarations are in
/// graphopt/Dialect/Graph/Transforms/GraphPatterns.pdll.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PDLPATTERNS_H
#define GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PDLPATTERNS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir {
class PDLPatternModule;
} // namespace mlir

namespace mlir::graphopt::graph {

/// How loadPDLPatternModule translates `.pdll` files.
struct PDLLoadOptions {
  /// The mlir-pdll executable. Empty: the one found when graphopt was
  /// configured, else `mlir-pdll-<LLVM major>` or `mlir-pdll` on PATH.
  std::string mlirPDLL;
  /// `-I` directories searched before the default ones (graphopt's include
  /// directory, for GraphOps.td, FusionOps.td and GraphPatterns.pdll, and
  /// MLIR's).
  std::vector<std::string> includeDirs;
};

/// Reads `path` into a module of `pdl.pattern` ops. A `.pdll` file is
/// translated by running mlir-pdll (`-x=mlir`); any other file is parsed as
/// MLIR. The module is checked: it holds only `pdl.pattern` ops, at least
/// one; every op they match or create is registered in `context`; every
/// native constraint or rewrite they call is one registerGraphPDLFunctions
/// provides. On failure, emits an error at `loc` (with mlir-pdll's
/// diagnostics, for a `.pdll` file it cannot translate) and returns null.
OwningOpRef<ModuleOp> loadPDLPatternModule(MLIRContext *context, StringRef path,
                                           const PDLLoadOptions &options,
                                           Location loc);

/// Registers graphopt's native PDL functions with `module`: the constraints
/// IsSplat, SplatEquals, HasStaticShape, IsLastAxis, SwapsLastTwoDims and
/// the rewrites SplatValue, ReciprocalSplatValue (see GraphPatterns.pdll).
void registerGraphPDLFunctions(PDLPatternModule &module);

} // namespace mlir::graphopt::graph

#endif // GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PDLPATTERNS_H
