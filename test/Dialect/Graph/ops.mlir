// RUN: graph-opt %s | graph-opt | FileCheck %s

// Round trip of every graph op, with static and dynamic dims and every
// element type the op accepts (f32 f16 bf16 i1 i32 i64).

// CHECK-LABEL: func.func @constant
func.func @constant() -> (tensor<2x2xf32>, tensor<3xi32>, tensor<i1>, tensor<2xbf16>, tensor<4xf16>, tensor<2xi64>) {
  // CHECK: graph.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %0 = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // CHECK: graph.constant dense<[1, -2, 3]> : tensor<3xi32>
  %1 = graph.constant dense<[1, -2, 3]> : tensor<3xi32>
  // CHECK: graph.constant dense<true> : tensor<i1>
  %2 = graph.constant dense<true> : tensor<i1>
  // CHECK: graph.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xbf16>
  %3 = graph.constant dense<[1.5, -2.0]> : tensor<2xbf16>
  // CHECK: graph.constant dense<5.000000e-01> : tensor<4xf16>
  %4 = graph.constant dense<0.5> : tensor<4xf16>
  // CHECK: graph.constant dense<[9223372036854775807, -1]> : tensor<2xi64>
  %5 = graph.constant dense<[9223372036854775807, -1]> : tensor<2xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<2x2xf32>, tensor<3xi32>, tensor<i1>, tensor<2xbf16>, tensor<4xf16>, tensor<2xi64>
}

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:.+]]: tensor<4x3xf32>, %[[B:.+]]: tensor<3xf32>, %[[C:.+]]: tensor<?x1xi32>, %[[D:.+]]: tensor<5xi32>, %[[E:.+]]: tensor<2x?xf16>, %[[F:.+]]: tensor<bf16>, %[[G:.+]]: tensor<i64>, %[[H:.+]]: tensor<?xi64>)
func.func @binary(%a: tensor<4x3xf32>, %b: tensor<3xf32>, %c: tensor<?x1xi32>,
                  %d: tensor<5xi32>, %e: tensor<2x?xf16>, %f: tensor<bf16>,
                  %g: tensor<i64>, %h: tensor<?xi64>) {
  // CHECK: graph.add %[[A]], %[[B]] : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %0 = graph.add %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  // CHECK: graph.sub %[[C]], %[[D]] : tensor<?x1xi32>, tensor<5xi32> -> tensor<?x5xi32>
  %1 = graph.sub %c, %d : tensor<?x1xi32>, tensor<5xi32> -> tensor<?x5xi32>
  // CHECK: graph.mul %[[E]], %[[E]] : tensor<2x?xf16>, tensor<2x?xf16> -> tensor<2x?xf16>
  %2 = graph.mul %e, %e : tensor<2x?xf16>, tensor<2x?xf16> -> tensor<2x?xf16>
  // CHECK: graph.div %[[F]], %[[F]] : tensor<bf16>, tensor<bf16> -> tensor<bf16>
  %3 = graph.div %f, %f : tensor<bf16>, tensor<bf16> -> tensor<bf16>
  // CHECK: graph.max %[[G]], %[[H]] : tensor<i64>, tensor<?xi64> -> tensor<?xi64>
  %4 = graph.max %g, %h : tensor<i64>, tensor<?xi64> -> tensor<?xi64>
  // CHECK: graph.min %[[B]], %[[A]] : tensor<3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
  %5 = graph.min %b, %a : tensor<3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
  // CHECK: graph.pow %[[E]], %[[E]] : tensor<2x?xf16>, tensor<2x?xf16> -> tensor<2x?xf16>
  %6 = graph.pow %e, %e : tensor<2x?xf16>, tensor<2x?xf16> -> tensor<2x?xf16>
  // A written result type may be less static than the inferred one.
  // CHECK: graph.add %[[A]], %[[B]] : tensor<4x3xf32>, tensor<3xf32> -> tensor<?x?xf32>
  %7 = graph.add %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<?x?xf32>
  // ... and more static, where the operands leave a dim unknown.
  // CHECK: graph.mul %[[H]], %[[G]] : tensor<?xi64>, tensor<i64> -> tensor<7xi64>
  %8 = graph.mul %h, %g : tensor<?xi64>, tensor<i64> -> tensor<7xi64>
  return
}

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.+]]: tensor<2x?xf32>, %[[Y:.+]]: tensor<8xf16>, %[[Z:.+]]: tensor<bf16>, %[[I:.+]]: tensor<?xi32>, %[[J:.+]]: tensor<3x4xi64>)
func.func @unary(%x: tensor<2x?xf32>, %y: tensor<8xf16>, %z: tensor<bf16>,
                 %i: tensor<?xi32>, %j: tensor<3x4xi64>) {
  // CHECK: graph.neg %[[X]] : tensor<2x?xf32> -> tensor<2x?xf32>
  %0 = graph.neg %x : tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK: graph.neg %[[I]] : tensor<?xi32> -> tensor<?xi32>
  %1 = graph.neg %i : tensor<?xi32> -> tensor<?xi32>
  // CHECK: graph.abs %[[J]] : tensor<3x4xi64> -> tensor<3x4xi64>
  %2 = graph.abs %j : tensor<3x4xi64> -> tensor<3x4xi64>
  // CHECK: graph.abs %[[Y]] : tensor<8xf16> -> tensor<8xf16>
  %3 = graph.abs %y : tensor<8xf16> -> tensor<8xf16>
  // CHECK: graph.exp %[[X]] : tensor<2x?xf32> -> tensor<2x?xf32>
  %4 = graph.exp %x : tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK: graph.log %[[Y]] : tensor<8xf16> -> tensor<8xf16>
  %5 = graph.log %y : tensor<8xf16> -> tensor<8xf16>
  // CHECK: graph.sqrt %[[Z]] : tensor<bf16> -> tensor<bf16>
  %6 = graph.sqrt %z : tensor<bf16> -> tensor<bf16>
  // CHECK: graph.rsqrt %[[X]] : tensor<2x?xf32> -> tensor<2x?xf32>
  %7 = graph.rsqrt %x : tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK: graph.tanh %[[Y]] : tensor<8xf16> -> tensor<8xf16>
  %8 = graph.tanh %y : tensor<8xf16> -> tensor<8xf16>
  // CHECK: graph.sigmoid %[[Z]] : tensor<bf16> -> tensor<bf16>
  %9 = graph.sigmoid %z : tensor<bf16> -> tensor<bf16>
  // CHECK: graph.relu %[[X]] : tensor<2x?xf32> -> tensor<2x?xf32>
  %10 = graph.relu %x : tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK: graph.relu %[[I]] : tensor<?xi32> -> tensor<?xi32>
  %11 = graph.relu %i : tensor<?xi32> -> tensor<?xi32>
  // CHECK: graph.silu %[[Y]] : tensor<8xf16> -> tensor<8xf16>
  %12 = graph.silu %y : tensor<8xf16> -> tensor<8xf16>
  // The default approximation is not printed.
  // CHECK: graph.gelu %[[X]] : tensor<2x?xf32> -> tensor<2x?xf32>
  %13 = graph.gelu %x : tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK: graph.gelu %[[X]] : tensor<2x?xf32> -> tensor<2x?xf32>
  %14 = graph.gelu %x approximate = none : tensor<2x?xf32> -> tensor<2x?xf32>
  // CHECK: graph.gelu %[[Z]] approximate = tanh : tensor<bf16> -> tensor<bf16>
  %15 = graph.gelu %z approximate = tanh : tensor<bf16> -> tensor<bf16>
  // CHECK: graph.exp %[[X]] : tensor<2x?xf32> -> tensor<2x5xf32>
  %16 = graph.exp %x : tensor<2x?xf32> -> tensor<2x5xf32>
  return
}

// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<f32>, %[[C:.+]]: tensor<?x3xi32>, %[[D:.+]]: tensor<3xi32>, %[[P:.+]]: tensor<2xi1>, %[[H:.+]]: tensor<2xbf16>)
func.func @compare(%a: tensor<4xf32>, %b: tensor<f32>, %c: tensor<?x3xi32>,
                   %d: tensor<3xi32>, %p: tensor<2xi1>, %h: tensor<2xbf16>) {
  // CHECK: graph.compare eq, %[[A]], %[[B]] : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %0 = graph.compare eq, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  // CHECK: graph.compare ne, %[[C]], %[[D]] : tensor<?x3xi32>, tensor<3xi32> -> tensor<?x3xi1>
  %1 = graph.compare ne, %c, %d : tensor<?x3xi32>, tensor<3xi32> -> tensor<?x3xi1>
  // CHECK: graph.compare lt, %[[P]], %[[P]] : tensor<2xi1>, tensor<2xi1> -> tensor<2xi1>
  %2 = graph.compare lt, %p, %p : tensor<2xi1>, tensor<2xi1> -> tensor<2xi1>
  // CHECK: graph.compare le, %[[H]], %[[H]] : tensor<2xbf16>, tensor<2xbf16> -> tensor<2xi1>
  %3 = graph.compare le, %h, %h : tensor<2xbf16>, tensor<2xbf16> -> tensor<2xi1>
  // CHECK: graph.compare gt, %[[A]], %[[B]] : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %4 = graph.compare gt, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  // CHECK: graph.compare ge, %[[D]], %[[C]] : tensor<3xi32>, tensor<?x3xi32> -> tensor<?x3xi1>
  %5 = graph.compare ge, %d, %c : tensor<3xi32>, tensor<?x3xi32> -> tensor<?x3xi1>
  return
}

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[C:.+]]: tensor<4xi1>, %[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<f32>, %[[D:.+]]: tensor<?x1xi1>, %[[E:.+]]: tensor<3xi64>, %[[P:.+]]: tensor<2x3xi1>)
func.func @select(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<f32>,
                  %d: tensor<?x1xi1>, %e: tensor<3xi64>, %p: tensor<2x3xi1>) {
  // CHECK: graph.select %[[C]], %[[A]], %[[B]] : tensor<4xi1>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %0 = graph.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  // CHECK: graph.select %[[D]], %[[E]], %[[E]] : tensor<?x1xi1>, tensor<3xi64>, tensor<3xi64> -> tensor<?x3xi64>
  %1 = graph.select %d, %e, %e : tensor<?x1xi1>, tensor<3xi64>, tensor<3xi64> -> tensor<?x3xi64>
  // Values may be i1 too.
  // CHECK: graph.select %[[P]], %[[P]], %[[D]] : tensor<2x3xi1>, tensor<2x3xi1>, tensor<?x1xi1> -> tensor<2x3xi1>
  %2 = graph.select %p, %p, %d : tensor<2x3xi1>, tensor<2x3xi1>, tensor<?x1xi1> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[Y:.+]]: tensor<?xi32>, %[[B:.+]]: tensor<4xi1>)
func.func @cast(%x: tensor<2x3xf32>, %y: tensor<?xi32>, %b: tensor<4xi1>) {
  // CHECK: graph.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xf16>
  %0 = graph.cast %x : tensor<2x3xf32> -> tensor<2x3xf16>
  // CHECK: %[[BF:.+]] = graph.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xbf16>
  %1 = graph.cast %x : tensor<2x3xf32> -> tensor<2x3xbf16>
  // CHECK: graph.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi64>
  %2 = graph.cast %x : tensor<2x3xf32> -> tensor<2x3xi64>
  // CHECK: graph.cast %[[Y]] : tensor<?xi32> -> tensor<?xi1>
  %3 = graph.cast %y : tensor<?xi32> -> tensor<?xi1>
  // CHECK: graph.cast %[[Y]] : tensor<?xi32> -> tensor<5xf32>
  %4 = graph.cast %y : tensor<?xi32> -> tensor<5xf32>
  // CHECK: graph.cast %[[B]] : tensor<4xi1> -> tensor<4xi32>
  %5 = graph.cast %b : tensor<4xi1> -> tensor<4xi32>
  // CHECK: graph.cast %[[BF]] : tensor<2x3xbf16> -> tensor<2x3xf16>
  %7 = graph.cast %1 : tensor<2x3xbf16> -> tensor<2x3xf16>
  // CHECK: graph.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xf32>
  %6 = graph.cast %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @matmul
func.func @matmul(%v: tensor<64xf32>, %w: tensor<64xf32>, %m: tensor<128x64xf32>,
                  %n: tensor<64x32xf32>, %b: tensor<8x1x128x64xf16>,
                  %c: tensor<5x64x32xf16>, %t: tensor<8x128x64xbf16>,
                  %u: tensor<64x32xbf16>, %i: tensor<?x4xi32>, %j: tensor<4x?xi32>,
                  %k: tensor<2x3xi64>, %l: tensor<3x?x4xi64>) {
  // 1-D x 1-D: a dot product, rank 0.
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : tensor<64xf32>, tensor<64xf32> -> tensor<f32>
  %0 = graph.matmul %v, %w : tensor<64xf32>, tensor<64xf32> -> tensor<f32>
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : tensor<128x64xf32>, tensor<64x32xf32> -> tensor<128x32xf32>
  %1 = graph.matmul %m, %n : tensor<128x64xf32>, tensor<64x32xf32> -> tensor<128x32xf32>
  // 1-D x 2-D: the lhs row dim is removed.
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : tensor<64xf32>, tensor<64x32xf32> -> tensor<32xf32>
  %2 = graph.matmul %v, %n : tensor<64xf32>, tensor<64x32xf32> -> tensor<32xf32>
  // 2-D x 1-D: the rhs column dim is removed.
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : tensor<128x64xf32>, tensor<64xf32> -> tensor<128xf32>
  %3 = graph.matmul %m, %v : tensor<128x64xf32>, tensor<64xf32> -> tensor<128xf32>
  // Batch dims broadcast: [8, 1] with [5] gives [8, 5].
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : tensor<8x1x128x64xf16>, tensor<5x64x32xf16> -> tensor<8x5x128x32xf16>
  %4 = graph.matmul %b, %c : tensor<8x1x128x64xf16>, tensor<5x64x32xf16> -> tensor<8x5x128x32xf16>
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : tensor<8x128x64xbf16>, tensor<64x32xbf16> -> tensor<8x128x32xbf16>
  %5 = graph.matmul %t, %u : tensor<8x128x64xbf16>, tensor<64x32xbf16> -> tensor<8x128x32xbf16>
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : tensor<?x4xi32>, tensor<4x?xi32> -> tensor<?x?xi32>
  %6 = graph.matmul %i, %j : tensor<?x4xi32>, tensor<4x?xi32> -> tensor<?x?xi32>
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : tensor<2x3xi64>, tensor<3x?x4xi64> -> tensor<3x2x4xi64>
  %7 = graph.matmul %k, %l : tensor<2x3xi64>, tensor<3x?x4xi64> -> tensor<3x2x4xi64>
  return
}

// CHECK-LABEL: func.func @transpose
func.func @transpose(%x: tensor<2x3xf32>, %y: tensor<?x4x5xi1>) {
  // CHECK: graph.transpose %{{.+}}, [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %0 = graph.transpose %x, [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  // CHECK: graph.transpose %{{.+}}, [2, 0, 1] : tensor<?x4x5xi1> -> tensor<5x?x4xi1>
  %1 = graph.transpose %y, [2, 0, 1] : tensor<?x4x5xi1> -> tensor<5x?x4xi1>
  return
}

// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<2x6xf32>, %y: tensor<?x8x8xbf16>, %z: tensor<6xi64>,
                   %s: tensor<i32>, %u: tensor<1x1xf32>, %d: tensor<?x8xi1>) {
  // CHECK: graph.reshape %{{.+}}, [3, -1] : tensor<2x6xf32> -> tensor<3x4xf32>
  %0 = graph.reshape %x, [3, -1] : tensor<2x6xf32> -> tensor<3x4xf32>
  // CHECK: graph.reshape %{{.+}}, [-1, 64] : tensor<?x8x8xbf16> -> tensor<?x64xbf16>
  %1 = graph.reshape %y, [-1, 64] : tensor<?x8x8xbf16> -> tensor<?x64xbf16>
  // CHECK: graph.reshape %{{.+}}, [2, 3] : tensor<6xi64> -> tensor<2x3xi64>
  %2 = graph.reshape %z, [2, 3] : tensor<6xi64> -> tensor<2x3xi64>
  // CHECK: graph.reshape %{{.+}}, [1, 1] : tensor<i32> -> tensor<1x1xi32>
  %3 = graph.reshape %s, [1, 1] : tensor<i32> -> tensor<1x1xi32>
  // CHECK: graph.reshape %{{.+}}, [] : tensor<1x1xf32> -> tensor<f32>
  %4 = graph.reshape %u, [] : tensor<1x1xf32> -> tensor<f32>
  // A dynamic input without -1: the target shape is taken as written.
  // CHECK: graph.reshape %{{.+}}, [4, 16] : tensor<?x8xi1> -> tensor<4x16xi1>
  %5 = graph.reshape %d, [4, 16] : tensor<?x8xi1> -> tensor<4x16xi1>
  // CHECK: graph.reshape %{{.+}}, [-1] : tensor<?x8xi1> -> tensor<?xi1>
  %6 = graph.reshape %d, [-1] : tensor<?x8xi1> -> tensor<?xi1>
  return
}

// CHECK-LABEL: func.func @broadcast_to
func.func @broadcast_to(%x: tensor<3xf32>, %y: tensor<?x1xi32>, %z: tensor<i1>) {
  // CHECK: graph.broadcast_to %{{.+}}, [4, 3] : tensor<3xf32> -> tensor<4x3xf32>
  %0 = graph.broadcast_to %x, [4, 3] : tensor<3xf32> -> tensor<4x3xf32>
  // -1 keeps the input dim, here a dynamic one.
  // CHECK: graph.broadcast_to %{{.+}}, [2, -1, 5] : tensor<?x1xi32> -> tensor<2x?x5xi32>
  %1 = graph.broadcast_to %y, [2, -1, 5] : tensor<?x1xi32> -> tensor<2x?x5xi32>
  // CHECK: graph.broadcast_to %{{.+}}, [2, 2] : tensor<i1> -> tensor<2x2xi1>
  %2 = graph.broadcast_to %z, [2, 2] : tensor<i1> -> tensor<2x2xi1>
  return
}

// CHECK-LABEL: func.func @concat
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<?x4xf16>, %d: tensor<?xi64>) {
  // CHECK: graph.concat %{{.+}}, %{{.+}} axis = 1 : tensor<2x3xf32>, tensor<2x5xf32> -> tensor<2x8xf32>
  %0 = graph.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x5xf32> -> tensor<2x8xf32>
  // CHECK: graph.concat %{{.+}}, %{{.+}}, %{{.+}} axis = 0 : tensor<?x4xf16>, tensor<?x4xf16>, tensor<?x4xf16> -> tensor<?x4xf16>
  %1 = graph.concat %c, %c, %c axis = 0 : tensor<?x4xf16>, tensor<?x4xf16>, tensor<?x4xf16> -> tensor<?x4xf16>
  // CHECK: graph.concat %{{.+}} axis = 0 : tensor<?xi64> -> tensor<?xi64>
  %2 = graph.concat %d axis = 0 : tensor<?xi64> -> tensor<?xi64>
  return
}

// CHECK-LABEL: func.func @slice
func.func @slice(%x: tensor<4x8xf32>, %y: tensor<?x10xi32>, %b: tensor<4xi1>) {
  // CHECK: graph.slice %{{.+}} [0, 1] [4, 7] [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  %0 = graph.slice %x [0, 1] [4, 7] [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  // CHECK: graph.slice %{{.+}} [1, 0] [3, 10] [1, 3] : tensor<?x10xi32> -> tensor<2x4xi32>
  %1 = graph.slice %y [1, 0] [3, 10] [1, 3] : tensor<?x10xi32> -> tensor<2x4xi32>
  // An empty slice: start == limit.
  // CHECK: graph.slice %{{.+}} [2] [2] [1] : tensor<4xi1> -> tensor<0xi1>
  %2 = graph.slice %b [2] [2] [1] : tensor<4xi1> -> tensor<0xi1>
  return
}

// CHECK-LABEL: func.func @reduce
func.func @reduce(%x: tensor<4x8xf32>, %y: tensor<?x8x2xf16>, %z: tensor<3x?xi32>, %w: tensor<5xbf16>, %v: tensor<2x2xi64>) {
  // CHECK: graph.reduce sum %{{.+}} axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  %0 = graph.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  // CHECK: graph.reduce max %{{.+}} axes = [0, 1] keepdims : tensor<4x8xf32> -> tensor<1x1xf32>
  %1 = graph.reduce max %x axes = [0, 1] keepdims : tensor<4x8xf32> -> tensor<1x1xf32>
  // CHECK: graph.reduce mean %{{.+}} axes = [1] keepdims : tensor<?x8x2xf16> -> tensor<?x1x2xf16>
  %2 = graph.reduce mean %y axes = [1] keepdims : tensor<?x8x2xf16> -> tensor<?x1x2xf16>
  // CHECK: graph.reduce min %{{.+}} axes = [1] : tensor<3x?xi32> -> tensor<3xi32>
  %3 = graph.reduce min %z axes = [1] : tensor<3x?xi32> -> tensor<3xi32>
  // CHECK: graph.reduce mean %{{.+}} axes = [0] : tensor<5xbf16> -> tensor<bf16>
  %4 = graph.reduce mean %w axes = [0] : tensor<5xbf16> -> tensor<bf16>
  // CHECK: graph.reduce sum %{{.+}} axes = [1, 0] : tensor<2x2xi64> -> tensor<i64>
  %5 = graph.reduce sum %v axes = [1, 0] : tensor<2x2xi64> -> tensor<i64>
  // CHECK: graph.reduce max %{{.+}} axes = [] : tensor<2x2xi64> -> tensor<2x2xi64>
  %6 = graph.reduce max %v axes = [] : tensor<2x2xi64> -> tensor<2x2xi64>
  return
}

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<4x10xf32>, %y: tensor<?x3xf16>, %z: tensor<7xbf16>) {
  // CHECK: graph.softmax %{{.+}} axis = 1 : tensor<4x10xf32> -> tensor<4x10xf32>
  %0 = graph.softmax %x axis = 1 : tensor<4x10xf32> -> tensor<4x10xf32>
  // CHECK: graph.softmax %{{.+}} axis = 0 : tensor<?x3xf16> -> tensor<?x3xf16>
  %1 = graph.softmax %y axis = 0 : tensor<?x3xf16> -> tensor<?x3xf16>
  // CHECK: graph.softmax %{{.+}} axis = 0 : tensor<7xbf16> -> tensor<7xbf16>
  %2 = graph.softmax %z axis = 0 : tensor<7xbf16> -> tensor<7xbf16>
  return
}

// CHECK-LABEL: func.func @bitwise
func.func @bitwise(%a: tensor<4x3xi32>, %b: tensor<3xi32>, %p: tensor<5xi1>, %u: tensor<?xui8>, %s: tensor<ui8>) {
  // CHECK: graph.bitwise_and %{{.+}}, %{{.+}} : tensor<4x3xi32>, tensor<3xi32> -> tensor<4x3xi32>
  %0 = graph.bitwise_and %a, %b : tensor<4x3xi32>, tensor<3xi32> -> tensor<4x3xi32>
  // CHECK: graph.bitwise_or %{{.+}}, %{{.+}} : tensor<5xi1>, tensor<5xi1> -> tensor<5xi1>
  %1 = graph.bitwise_or %p, %p : tensor<5xi1>, tensor<5xi1> -> tensor<5xi1>
  // CHECK: graph.bitwise_xor %{{.+}}, %{{.+}} : tensor<?xui8>, tensor<ui8> -> tensor<?xui8>
  %2 = graph.bitwise_xor %u, %s : tensor<?xui8>, tensor<ui8> -> tensor<?xui8>
  // CHECK: graph.shift_left %{{.+}}, %{{.+}} : tensor<4x3xi32>, tensor<3xi32> -> tensor<4x3xi32>
  %3 = graph.shift_left %a, %b : tensor<4x3xi32>, tensor<3xi32> -> tensor<4x3xi32>
  // CHECK: graph.shift_right %{{.+}}, %{{.+}} : tensor<?xui8>, tensor<ui8> -> tensor<?xui8>
  %4 = graph.shift_right %u, %s : tensor<?xui8>, tensor<ui8> -> tensor<?xui8>
  return
}
