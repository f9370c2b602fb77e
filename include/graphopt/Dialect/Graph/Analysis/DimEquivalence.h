//===- DimEquivalence.h - dims a graph function needs equal -----*- C++ -*-===//
//
/// \file
/// Which dynamic dims of a function's arguments the function's ops require
/// to be equal, to each other or to a static size. The CPU lowering takes a
/// dynamic dim shared by two operands of an elementwise op (or the
/// contraction dim of a matmul) to be the same at run time and does not
/// broadcast a dynamic dim that turns out to be 1; callers of compiled code
/// check these equalities once per call, before running it (an argument
/// that breaks one would otherwise be read out of bounds).
///
/// The rules: elementwise ops with NumPy broadcasting (a dim that is not
/// statically 1 equals the result's), unary ops, casts and normalizations
/// (same shape), graph.matmul (the contraction dims; rows, columns and
/// batch dims with the result's) and graph.transpose (permuted dims). Other
/// ops add nothing, so a dim read only by them is not checked.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_ANALYSIS_DIMEQUIVALENCE_H
#define GRAPHOPT_DIALECT_GRAPH_ANALYSIS_DIMEQUIVALENCE_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace mlir::graphopt {

/// Dynamic dim `dim` of argument `arg` must equal dim `otherDim` of argument
/// `otherArg` or, when `otherArg` is -1, the static size `size`.
struct ArgDimEquality {
  unsigned arg = 0, dim = 0;
  int64_t otherArg = -1;
  unsigned otherDim = 0;
  int64_t size = 0;
  /// The op that needs them equal, with its location, for messages:
  /// "graph.add at model.mlir:3:8".
  std::string reason;
};

/// The equalities between `fn`'s tensor arguments' dims that its body
/// requires (see the file comment), one per dynamic argument dim that has
/// to match something: each compared with the first argument dim of its
/// class, or with the class's static size.
llvm::SmallVector<ArgDimEquality> getArgDimEqualities(func::FuncOp fn);

} // namespace mlir::graphopt

#endif // GRAPHOPT_DIALECT_GRAPH_ANALYSIS_DIMEQUIVALENCE_H
