// Errors of graph-replace-patterns name the file and the function at fault.
// RUN: not graph-opt %s --replace-patterns=%S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not graph-opt %s --replace-patterns=%S/Inputs/replace-patterns-unpaired.mlir 2>&1 | FileCheck %s --check-prefix=UNPAIRED
// RUN: not graph-opt %s --graph-replace-patterns 2>&1 | FileCheck %s --check-prefix=NOFILE
// Errors do not dump the module or the function (issue 19).
// RUN: not graph-opt %s --replace-patterns=%S/Inputs/replace-patterns-arity.mlir 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not graph-opt %s --replace-patterns=%S/Inputs/replace-patterns-unparsable.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// ARITY: replace-patterns-arity.mlir:5:1: error: @replacement_a must take the arguments of @pattern_a and return as many values (1 arguments, 1 results)
// ARITY-NOT: see current operation
// PARSE: replace-patterns-unparsable.mlir:2:8: error: custom op 'graph.sigmoidd' is unknown
// PARSE: error: cannot parse patterns file '{{.*}}replace-patterns-unparsable.mlir'
// PARSE-NOT: see current operation

// MISSING: error: cannot read patterns file '{{.*}}does-not-exist.mlir': No such file or directory
// UNPAIRED: replace-patterns-unpaired.mlir:1:1: error: no @replacement_lonely for @pattern_lonely
// NOFILE: error: graph-replace-patterns needs patterns-file=FILE
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
