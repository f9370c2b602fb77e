// Errors of graph-replace-patterns name the file and the function at fault.
// RUN: not graph-opt %s --replace-patterns=%S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not graph-opt %s --replace-patterns=%S/Inputs/replace-patterns-unpaired.mlir 2>&1 | FileCheck %s --check-prefix=UNPAIRED
// RUN: not graph-opt %s --graph-replace-patterns 2>&1 | FileCheck %s --check-prefix=NOFILE

// MISSING: error: cannot read patterns file '{{.*}}does-not-exist.mlir': No such file or directory
// UNPAIRED: replace-patterns-unpaired.mlir:1:1: error: no @replacement_lonely for @pattern_lonely
// NOFILE: error: graph-replace-patterns needs patterns-file=FILE
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
