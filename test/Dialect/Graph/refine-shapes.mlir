// RUN: graph-opt %s -graph-refine-shapes -split-input-file | FileCheck %s

// Static operand dims flow through a chain of dynamic results, and the
// function's result type follows what is returned.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.+]]: tensor<4x3xf32>, %[[Y:.+]]: tensor<?x3xf32>, %[[W:.+]]: tensor<3x8xf32>) -> tensor<4x2x4xf32>
// CHECK: %[[A:.+]] = graph.add %[[X]], %[[Y]] : tensor<4x3xf32>, tensor<?x3xf32> -> tensor<4x3xf32>
// CHECK: %[[R:.+]] = graph.relu %[[A]] : tensor<4x3xf32> -> tensor<4x3xf32>
// CHECK: %[[M:.+]] = graph.matmul %[[R]], %[[W]] : tensor<4x3xf32>, tensor<3x8xf32> -> tensor<4x8xf32>
// CHECK: %[[S:.+]] = graph.reshape %[[M]], [4, 2, -1] : tensor<4x8xf32> -> tensor<4x2x4xf32>
// CHECK: return %[[S]] : tensor<4x2x4xf32>
func.func @chain(%x: tensor<4x3xf32>, %y: tensor<?x3xf32>, %w: tensor<3x8xf32>) -> tensor<?x?x?xf32> {
  %0 = graph.add %x, %y : tensor<4x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  %1 = graph.relu %0 : tensor<?x3xf32> -> tensor<?x?xf32>
  %2 = graph.matmul %1, %w : tensor<?x?xf32>, tensor<3x8xf32> -> tensor<?x?xf32>
  %3 = graph.reshape %2, [4, 2, -1] : tensor<?x?xf32> -> tensor<?x?x?xf32>
  return %3 : tensor<?x?x?xf32>
}

// -----

// Shape ops, reductions and casts refine too; cast keeps its element type.
// CHECK-LABEL: func.func @shape_ops
// CHECK-SAME: -> (tensor<3x2xf32>, tensor<2x1xi32>, tensor<4x2x3xf16>, tensor<5x3xf32>, tensor<1x2xf32>)
// CHECK: graph.transpose %{{.+}}, [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK: graph.cast %{{.+}} : tensor<2x3xf32> -> tensor<2x3xi32>
// CHECK: graph.reduce max %{{.+}} axes = [1] keepdims : tensor<2x3xi32> -> tensor<2x1xi32>
// CHECK: graph.broadcast_to %{{.+}}, [4, -1, -1] : tensor<2x3xf16> -> tensor<4x2x3xf16>
// CHECK: graph.concat %{{.+}}, %{{.+}} axis = 0 : tensor<2x3xf32>, tensor<3x3xf32> -> tensor<5x3xf32>
// CHECK: graph.slice %{{.+}} [1, 0] [2, 3] [1, 2] : tensor<2x3xf32> -> tensor<1x2xf32>
func.func @shape_ops(%x: tensor<2x3xf32>, %h: tensor<2x3xf16>, %z: tensor<3x3xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?x?xf16>, tensor<?x3xf32>, tensor<?x?xf32>) {
  %0 = graph.transpose %x, [1, 0] : tensor<2x3xf32> -> tensor<?x?xf32>
  %1 = graph.cast %x : tensor<2x3xf32> -> tensor<?x?xi32>
  %2 = graph.reduce max %1 axes = [1] keepdims : tensor<?x?xi32> -> tensor<?x?xi32>
  %3 = graph.broadcast_to %h, [4, -1, -1] : tensor<2x3xf16> -> tensor<?x?x?xf16>
  %4 = graph.concat %x, %z axis = 0 : tensor<2x3xf32>, tensor<3x3xf32> -> tensor<?x3xf32>
  %5 = graph.slice %x [1, 0] [2, 3] [1, 2] : tensor<2x3xf32> -> tensor<?x?xf32>
  return %0, %2, %3, %4, %5 : tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?x?xf16>, tensor<?x3xf32>, tensor<?x?xf32>
}

// -----

// A dim that is only known at run time stays dynamic: nothing changes.
// CHECK-LABEL: func.func @truly_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>, %[[B:.+]]: tensor<3xf32>) -> tensor<?x3xf32>
// CHECK: graph.add %[[X]], %[[B]] : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
// CHECK: graph.exp %{{.+}} : tensor<?x3xf32> -> tensor<?x3xf32>
// CHECK: return %{{.+}} : tensor<?x3xf32>
func.func @truly_dynamic(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = graph.add %x, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  %1 = graph.exp %0 : tensor<?x3xf32> -> tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}

// -----

// Written types more static than the inferred ones are kept, and so is a
// type whose static dims the inferred one would lose (4x? vs ?x5).
// CHECK-LABEL: func.func @not_more_static
// CHECK-SAME: -> (tensor<7xf32>, tensor<?x5xf32>)
// CHECK: graph.neg %{{.+}} : tensor<?xf32> -> tensor<7xf32>
// CHECK: graph.add %{{.+}}, %{{.+}} : tensor<4x?xf32>, tensor<4x?xf32> -> tensor<?x5xf32>
func.func @not_more_static(%x: tensor<?xf32>, %y: tensor<4x?xf32>) -> (tensor<7xf32>, tensor<?x5xf32>) {
  %0 = graph.neg %x : tensor<?xf32> -> tensor<7xf32>
  %1 = graph.add %y, %y : tensor<4x?xf32>, tensor<4x?xf32> -> tensor<?x5xf32>
  return %0, %1 : tensor<7xf32>, tensor<?x5xf32>
}

// -----

// A dynamic dim broadcast against a static one takes the static size; a
// static 1 does not decide it.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: -> (tensor<5x4xi64>, tensor<?x4xi64>)
// CHECK: graph.mul %{{.+}}, %{{.+}} : tensor<?x4xi64>, tensor<5x1xi64> -> tensor<5x4xi64>
// CHECK: graph.mul %{{.+}}, %{{.+}} : tensor<?x4xi64>, tensor<1x4xi64> -> tensor<?x4xi64>
func.func @broadcast(%x: tensor<?x4xi64>, %y: tensor<5x1xi64>, %z: tensor<1x4xi64>) -> (tensor<?x?xi64>, tensor<?x4xi64>) {
  %0 = graph.mul %x, %y : tensor<?x4xi64>, tensor<5x1xi64> -> tensor<?x?xi64>
  %1 = graph.mul %x, %z : tensor<?x4xi64>, tensor<1x4xi64> -> tensor<?x4xi64>
  return %0, %1 : tensor<?x?xi64>, tensor<?x4xi64>
}

// -----

// Public functions' signatures are updated too; declarations are left alone.
// CHECK-LABEL: func.func private @external(tensor<?xf32>) -> tensor<?xf32>
// CHECK-LABEL: func.func @public
// CHECK-SAME: (%{{.+}}: tensor<8xf32>) -> tensor<8xf32>
// CHECK: graph.sigmoid %{{.+}} : tensor<8xf32> -> tensor<8xf32>
func.func private @external(tensor<?xf32>) -> tensor<?xf32>
func.func @public(%x: tensor<8xf32>) -> tensor<?xf32> {
  %0 = graph.sigmoid %x : tensor<8xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A refined value that leaves through a call keeps its declared type via a
// cast, and a function with callers keeps its signature.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: -> tensor<?xf32>
// CHECK: %[[N:.+]] = graph.neg %{{.+}} : tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[C:.+]] = tensor.cast %[[N]] : tensor<4xf32> to tensor<?xf32>
// CHECK: return %[[C]]
func.func private @callee(%x: tensor<4xf32>) -> tensor<?xf32> {
  %r = graph.neg %x : tensor<4xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}
// CHECK-LABEL: func.func @caller
// CHECK: call @callee(%{{.+}}) : (tensor<4xf32>) -> tensor<?xf32>
func.func @caller(%x: tensor<4xf32>) -> tensor<?xf32> {
  %r = func.call @callee(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
