// REQUIRES: mlir-pdll
// Errors of graph-apply-pdl-patterns: bad rule files stop graph-opt with a
// message naming the file (and mlir-pdll's own diagnostics); they never
// crash it.
// RUN: not graph-opt %s --load-patterns=%S/Inputs/does-not-exist.pdll 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not graph-opt %s --load-patterns=%S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING-MLIR
// RUN: not graph-opt %s --load-patterns=%S/Inputs/apply-pdl-patterns-syntax.pdll 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not graph-opt %s --load-patterns=%S/Inputs/apply-pdl-patterns-unknown-op.pdll 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OP
// RUN: not graph-opt %s --load-patterns=%S/Inputs/apply-pdl-patterns-unknown-constraint.pdll 2>&1 | FileCheck %s --check-prefix=NATIVE
// RUN: not graph-opt %s --load-patterns=%S/Inputs/apply-pdl-patterns-empty.pdll 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not graph-opt %s --load-patterns=%S/Inputs/replace-patterns-rules.mlir 2>&1 | FileCheck %s --check-prefix=BY-EXAMPLE
// RUN: not graph-opt %s --graph-apply-pdl-patterns 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not graph-opt %s 2>&1 \
// RUN:   --graph-apply-pdl-patterns='patterns-file=%S/Inputs/apply-pdl-patterns-wrong.pdll mlir-pdll=%t/no/mlir-pdll' \
// RUN:   | FileCheck %s --check-prefix=NOTOOL

// MISSING: error: cannot read patterns file '{{.*}}does-not-exist.pdll': No such file or directory
// MISSING-MLIR: error: cannot read patterns file '{{.*}}does-not-exist.mlir': No such file or directory
// SYNTAX: error: mlir-pdll cannot translate '{{.*}}apply-pdl-patterns-syntax.pdll':
// SYNTAX-NEXT: apply-pdl-patterns-syntax.pdll:4:37: error: expected `)` after operation operand list
// SYNTAX-NEXT: let root = op<graph.relu>(x: Value;
// UNKNOWN-OP: apply-pdl-patterns-unknown-op.pdll:5:21: error: the rewrite creates unknown op 'graph.leakyrelu'
// NATIVE: apply-pdl-patterns-unknown-constraint.pdll:7:3: error: no native constraint 'IsPositive' (graphopt provides HasStaticShape, IsLastAxis, IsSplat, SplatEquals, SwapsLastTwoDims; constraints with C++ bodies need build-time PDLL, -x=cpp)
// EMPTY: error: patterns file '{{.*}}apply-pdl-patterns-empty.pdll' has no patterns
// BY-EXAMPLE: error: patterns file '{{.*}}replace-patterns-rules.mlir' holds a 'func.func' op; it may only hold pdl.pattern ops (rules by example, @pattern_NAME/@replacement_NAME functions, are loaded by graph-replace-patterns)
// NOFILE: error: graph-apply-pdl-patterns needs patterns-file=FILE
// NOTOOL: error: mlir-pdll executable '{{.*}}no/mlir-pdll' not found

// A rule that produces invalid IR (its replacement has another type) is not
// an error: the function is restored, with a warning naming the verifier's
// complaint.
// RUN: graph-opt %s --load-patterns=%S/Inputs/apply-pdl-patterns-retype.pdll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RETYPE
// So is a rule whose replacement's result types cannot be inferred
// (relu(x) -> matmul(x, x) on a non-square x).
// RUN: graph-opt %s --load-patterns=%S/Inputs/apply-pdl-patterns-no-inference.pdll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-INFERENCE

// RETYPE: warning: graph-apply-pdl-patterns: @f is invalid after 1 rewrite, restored: 'graph.cast' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4xi32>'
// RETYPE: func.func @f(%arg0
// RETYPE-NEXT: graph.relu
// NO-INFERENCE: warning: graph-apply-pdl-patterns: @f is invalid after 1 rewrite, restored: 'graph.matmul' op contracting dimension mismatch: lhs dim 1 is 3, rhs dim 0 is 4
// NO-INFERENCE: func.func @f(%arg0
// NO-INFERENCE-NEXT: graph.relu
func.func @f(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = graph.relu %x : tensor<4x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
