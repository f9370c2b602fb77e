// RUN: graph-opt %s -split-input-file -canonicalize | FileCheck %s

// A reshape of a dense_resource constant (a weight kept out of the
// context: include/graphopt/Dialect/Graph/IR/HeapConstants.h) folds to a
// constant of the same resource at the new type: no data is copied (the
// graph dialect's canonicalization patterns). The data, 6 floats 0..5, is
// printed once, unchanged. (The patterns are collected when the graph
// dialect is loaded, as in every graphopt compile: the constants here are
// graph.constant ops.)
// CHECK-LABEL: func.func @collapse
// CHECK-NEXT: %[[C:.+]] = arith.constant dense_resource<w> : tensor<6xf32>
// CHECK-NEXT: return %[[C]]
// CHECK: w: "0x04000000000000000000803F000000400000404000008040
func.func @collapse() -> tensor<6xf32> {
  %c = graph.constant dense_resource<w> : tensor<2x3xf32>
  %r = tensor.collapse_shape %c [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  return %r : tensor<6xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000000000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// CHECK-LABEL: func.func @expand
// CHECK-NEXT: %[[C:.+]] = arith.constant dense_resource<w> : tensor<3x1x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @expand() -> tensor<3x1x2xf32> {
  %c = graph.constant dense_resource<w> : tensor<6xf32>
  %r = tensor.expand_shape %c [[0, 1, 2]] output_shape [3, 1, 2] : tensor<6xf32> into tensor<3x1x2xf32>
  return %r : tensor<3x1x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000000000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// CHECK-LABEL: func.func @graph_reshape
// CHECK-NEXT: %[[C:.+]] = graph.constant dense_resource<w> : tensor<3x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @graph_reshape() -> tensor<3x2xf32> {
  %c = graph.constant dense_resource<w> : tensor<2x3xf32>
  %r = graph.reshape %c, [3, 2] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000000000000000803F000000400000404000008040"
    }
  }
#-}
