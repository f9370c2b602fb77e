// RUN: graph-opt %s -convert-graph-to-linalg -split-input-file | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @constant
// CHECK: %[[C:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NOT: graph.
// CHECK: return %[[C]]
func.func @constant() -> tensor<2xf32> {
  %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// NumPy broadcasting: the rank-1 rhs is aligned with the trailing dim.
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: (%[[A:.+]]: tensor<4x3xf32>, %[[B:.+]]: tensor<3xf32>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<4x3xf32>, tensor<3xf32>) outs(%[[INIT]] : tensor<4x3xf32>)
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: return %[[R]]
func.func @add_broadcast(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = graph.add %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// A static unit dim broadcast against a larger one reads index 0; f16 is
// computed in f32.
// CHECK-DAG: #[[$COL0:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ROW0:.+]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @mul_unit_dims_f16
// CHECK: linalg.generic {indexing_maps = [#[[$COL0]], #[[$ROW0]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK: ^bb0(%[[X:.+]]: f16, %[[Y:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[XE:.+]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: %[[YE:.+]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[XE]], %[[YE]] : f32
// CHECK-NEXT: %[[T:.+]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK: -> tensor<4x3xf16>
func.func @mul_unit_dims_f16(%a: tensor<4x1xf16>, %b: tensor<1x3xf16>) -> tensor<4x3xf16> {
  %0 = graph.mul %a, %b : tensor<4x1xf16>, tensor<1x3xf16> -> tensor<4x3xf16>
  return %0 : tensor<4x3xf16>
}

// -----

// A dynamic result dim is sized from the operand that has it.
// CHECK-LABEL: func.func @sub_dynamic
// CHECK-SAME: (%[[A:.+]]: tensor<?x3xf32>, %[[B:.+]]: tensor<3xf32>)
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[D:.+]] = tensor.dim %[[A]], %[[C0]] : tensor<?x3xf32>
// CHECK: %[[INIT:.+]] = tensor.empty(%[[D]]) : tensor<?x3xf32>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[INIT]] : tensor<?x3xf32>)
// CHECK: arith.subf
func.func @sub_dynamic(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = graph.sub %a, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @binary_float
// CHECK: arith.divf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: math.powf
func.func @binary_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.div %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = graph.max %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %2 = graph.min %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %3 = graph.pow %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Integer ops are signed; division never traps (the divisor is replaced by 1
// where it is 0 or -1, and those cases are selected separately).
// CHECK-LABEL: func.func @binary_int
// CHECK: arith.addi
// CHECK: arith.subi
// CHECK: arith.muli
// CHECK: ^bb0(%[[X:.+]]: i64, %[[Y:.+]]: i64, %{{.+}}: i64):
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[MONE:.+]] = arith.constant -1 : i64
// CHECK-DAG: %[[ISZERO:.+]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i64
// CHECK-DAG: %[[ISMONE:.+]] = arith.cmpi eq, %[[Y]], %[[MONE]] : i64
// CHECK: %[[UNSAFE:.+]] = arith.ori %[[ISZERO]], %[[ISMONE]] : i1
// CHECK: %[[DIVISOR:.+]] = arith.select %[[UNSAFE]], %[[ONE]], %[[Y]] : i64
// CHECK: %[[Q:.+]] = arith.divsi %[[X]], %[[DIVISOR]] : i64
// CHECK: %[[NEG:.+]] = arith.subi %[[ZERO]], %[[X]] : i64
// CHECK: %[[Q1:.+]] = arith.select %[[ISMONE]], %[[NEG]], %[[Q]] : i64
// CHECK: %[[Q2:.+]] = arith.select %[[ISZERO]], %[[ZERO]], %[[Q1]] : i64
// CHECK: linalg.yield %[[Q2]] : i64
// CHECK: arith.maxsi
// CHECK: arith.minsi
func.func @binary_int(%a: tensor<4xi64>, %b: tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) {
  %0 = graph.add %a, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %1 = graph.sub %a, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %2 = graph.mul %a, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %3 = graph.div %a, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %4 = graph.max %a, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %5 = graph.min %a, %b : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @unary_float
// CHECK: ^bb0(%[[X0:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: arith.negf %[[X0]] : f32
// CHECK: ^bb0(%[[X1:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: math.absf %[[X1]] : f32
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// rsqrt is 1 / sqrt(x) (libm has no rsqrtf).
// CHECK: %[[SQ:.+]] = math.sqrt
// CHECK-NEXT: arith.divf %{{.+}}, %[[SQ]]
// CHECK: math.tanh
// sigmoid: 1 / (1 + exp(-x))
// CHECK: ^bb0(%[[X2:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[X2]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[N]] : f32
// CHECK-NEXT: %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[S]]
// relu: maximumf propagates NaN
// CHECK: ^bb0(%[[X3:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[X3]], %[[Z]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
// silu: x * sigmoid(x)
// CHECK: ^bb0(%[[X4:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[SIG:.+]] = arith.divf
// CHECK-NEXT: %[[SILU:.+]] = arith.mulf %[[X4]], %[[SIG]] : f32
// CHECK-NEXT: linalg.yield %[[SILU]]
// gelu: x/2 * (1 + erf(x / sqrt 2))
// CHECK: ^bb0(%[[X5:.+]]: f32, %{{.+}}: f32):
// CHECK-DAG: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[ONE5:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[RSQRT2:.+]] = arith.constant 0.707106{{[0-9]*}} : f32
// CHECK: %[[SC:.+]] = arith.mulf %[[X5]], %[[RSQRT2]] : f32
// CHECK: %[[ERF:.+]] = math.erf %[[SC]] : f32
// CHECK: %[[HX:.+]] = arith.mulf %[[HALF]], %[[X5]] : f32
// CHECK: %[[OPE:.+]] = arith.addf %[[ONE5]], %[[ERF]] : f32
// CHECK: %[[G:.+]] = arith.mulf %[[HX]], %[[OPE]] : f32
// CHECK: linalg.yield %[[G]]
// gelu tanh: x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))
// CHECK: ^bb0(%[[X6:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[X2SQ:.+]] = arith.mulf %[[X6]], %[[X6]] : f32
// CHECK: %[[X3C:.+]] = arith.mulf %[[X6]], %[[X2SQ]] : f32
// CHECK: %[[K:.+]] = arith.constant 4.471500e-02 : f32
// CHECK: %[[KX3:.+]] = arith.mulf %[[K]], %[[X3C]] : f32
// CHECK: %[[POLY:.+]] = arith.addf %[[X6]], %[[KX3]] : f32
// CHECK: %[[C:.+]] = arith.constant 0.797884{{[0-9]*}} : f32
// CHECK: %[[ARG:.+]] = arith.mulf %[[C]], %[[POLY]] : f32
// CHECK: math.tanh %[[ARG]] : f32
// CHECK-NOT: math.erf
// CHECK: return
func.func @unary_float(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.neg %x : tensor<4xf32> -> tensor<4xf32>
  %1 = graph.abs %x : tensor<4xf32> -> tensor<4xf32>
  %2 = graph.exp %x : tensor<4xf32> -> tensor<4xf32>
  %3 = graph.log %x : tensor<4xf32> -> tensor<4xf32>
  %4 = graph.sqrt %x : tensor<4xf32> -> tensor<4xf32>
  %5 = graph.rsqrt %x : tensor<4xf32> -> tensor<4xf32>
  %6 = graph.tanh %x : tensor<4xf32> -> tensor<4xf32>
  %7 = graph.sigmoid %x : tensor<4xf32> -> tensor<4xf32>
  %8 = graph.relu %x : tensor<4xf32> -> tensor<4xf32>
  %9 = graph.silu %x : tensor<4xf32> -> tensor<4xf32>
  %10 = graph.gelu %x : tensor<4xf32> -> tensor<4xf32>
  %11 = graph.gelu %x approximate = tanh : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @unary_int
// CHECK: ^bb0(%[[X0:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[Z0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[N:.+]] = arith.subi %[[Z0]], %[[X0]] : i32
// CHECK-NEXT: linalg.yield %[[N]]
// CHECK: ^bb0(%[[X1:.+]]: i32, %{{.+}}: i32):
// abs: select(x < 0, 0 - x, x)
// CHECK: %[[NEG:.+]] = arith.subi %{{.+}}, %[[X1]] : i32
// CHECK-NEXT: %[[LT:.+]] = arith.cmpi slt, %[[X1]], %{{.+}} : i32
// CHECK-NEXT: %[[A:.+]] = arith.select %[[LT]], %[[NEG]], %[[X1]] : i32
// CHECK-NEXT: linalg.yield %[[A]]
// CHECK: ^bb0(%[[X2:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[Z2:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[R:.+]] = arith.maxsi %[[X2]], %[[Z2]] : i32
// CHECK-NEXT: linalg.yield %[[R]]
func.func @unary_int(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = graph.neg %x : tensor<4xi32> -> tensor<4xi32>
  %1 = graph.abs %x : tensor<4xi32> -> tensor<4xi32>
  %2 = graph.relu %x : tensor<4xi32> -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// bf16 is computed in f32 too.
// CHECK-LABEL: func.func @unary_bf16
// CHECK: ^bb0(%[[X:.+]]: bf16, %{{.+}}: bf16):
// CHECK-NEXT: %[[E:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK: %[[S:.+]] = math.sqrt %[[E]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.divf %{{.+}}, %[[S]] : f32
// CHECK-NEXT: %[[T:.+]] = arith.truncf %[[R]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[T]] : bf16
func.func @unary_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = graph.rsqrt %x : tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// Float comparisons are ordered except ne (unordered: true on NaN); i1 is
// compared unsigned (false < true), other integers signed.
// CHECK-DAG: #[[$SCALAR:.+]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[$ID1:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @compare
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$SCALAR]], #[[$ID1]]]
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf une
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ole
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oge
// CHECK: arith.cmpi ult, %{{.+}}, %{{.+}} : i1
// CHECK: arith.cmpi sge, %{{.+}}, %{{.+}} : i32
// CHECK: -> tensor<?x4xi1>
func.func @compare(%a: tensor<4xf32>, %b: tensor<f32>, %p: tensor<4xi1>, %i: tensor<?x4xi32>)
    -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?x4xi1>) {
  %0 = graph.compare eq, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %1 = graph.compare ne, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %2 = graph.compare lt, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %3 = graph.compare le, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %4 = graph.compare gt, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %5 = graph.compare ge, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %6 = graph.compare lt, %p, %p : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %7 = graph.compare ge, %i, %i : tensor<?x4xi32>, tensor<?x4xi32> -> tensor<?x4xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?x4xi1>
}

// -----

// All three operands broadcast.
// CHECK-DAG: #[[$COL0:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$SCALAR:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @select
// CHECK: linalg.generic {indexing_maps = [#[[$COL0]], #[[$ROW]], #[[$SCALAR]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK: ^bb0(%[[C:.+]]: i1, %[[T:.+]]: f32, %[[F:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.select %[[C]], %[[T]], %[[F]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
func.func @select(%c: tensor<2x1xi1>, %a: tensor<3xf32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %0 = graph.select %c, %a, %b : tensor<2x1xi1>, tensor<3xf32>, tensor<f32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// float -> int truncates (fptosi); -> i1 tests != 0; i1 -> number is
// unsigned (0 or 1); integer widening sign-extends; f16 -> bf16 goes
// through f32.
// CHECK-LABEL: func.func @cast
// CHECK: arith.fptosi %{{.+}} : f32 to i32
// CHECK: ^bb0(%[[X1:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT: %[[Z1:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.cmpf une, %[[X1]], %[[Z1]] : f32
// CHECK: ^bb0(%[[X2:.+]]: f16, %{{.+}}: bf16):
// CHECK-NEXT: %[[W:.+]] = arith.extf %[[X2]] : f16 to f32
// CHECK-NEXT: arith.truncf %[[W]] : f32 to bf16
// CHECK: arith.uitofp %{{.+}} : i1 to f32
// CHECK: arith.extsi %{{.+}} : i32 to i64
// CHECK: ^bb0(%[[X5:.+]]: i32, %{{.+}}: i1):
// CHECK-NEXT: %[[Z5:.+]] = arith.constant 0 : i32
// CHECK-NEXT: arith.cmpi ne, %[[X5]], %[[Z5]] : i32
// CHECK: arith.sitofp %{{.+}} : i64 to f16
// CHECK: arith.trunci %{{.+}} : i64 to i32
// CHECK: arith.extui %{{.+}} : i1 to i32
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @cast(%x: tensor<4xf32>, %h: tensor<4xf16>, %i: tensor<4xi32>, %p: tensor<4xi1>, %l: tensor<4xi64>, %b: tensor<4xbf16>)
    -> (tensor<4xi32>, tensor<4xi1>, tensor<4xbf16>, tensor<4xf32>, tensor<4xi64>, tensor<4xi1>, tensor<4xf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf16>) {
  %0 = graph.cast %x : tensor<4xf32> -> tensor<4xi32>
  %1 = graph.cast %x : tensor<4xf32> -> tensor<4xi1>
  %2 = graph.cast %h : tensor<4xf16> -> tensor<4xbf16>
  %3 = graph.cast %p : tensor<4xi1> -> tensor<4xf32>
  %4 = graph.cast %i : tensor<4xi32> -> tensor<4xi64>
  %5 = graph.cast %i : tensor<4xi32> -> tensor<4xi1>
  %6 = graph.cast %l : tensor<4xi64> -> tensor<4xf16>
  %7 = graph.cast %l : tensor<4xi64> -> tensor<4xi32>
  %8 = graph.cast %p : tensor<4xi1> -> tensor<4xi32>
  %9 = graph.cast %b : tensor<4xbf16> -> tensor<4xf32>
  %10 = graph.cast %x : tensor<4xf32> -> tensor<4xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<4xi32>, tensor<4xi1>, tensor<4xbf16>, tensor<4xf32>, tensor<4xi64>, tensor<4xi1>, tensor<4xf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf16>
}

// -----

// 1-D x 1-D is a dot product into a zero-filled rank-0 tensor.
// CHECK-LABEL: func.func @matmul_dot
// CHECK-SAME: (%[[A:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.+]] = tensor.empty() : tensor<f32>
// CHECK: %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<f32>) -> tensor<f32>
// CHECK: %[[D:.+]] = linalg.dot ins(%[[A]], %[[B]] : tensor<8xf32>, tensor<8xf32>) outs(%[[F]] : tensor<f32>) -> tensor<f32>
// CHECK: return %[[D]]
func.func @matmul_dot(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<f32> {
  %0 = graph.matmul %a, %b : tensor<8xf32>, tensor<8xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// f16 operands accumulate in f32; the product is truncated at the end.
// CHECK-LABEL: func.func @matmul_2d_f16
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf16>, %[[B:.+]]: tensor<8x5xf16>)
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.+}} : tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf16>, tensor<8x5xf16>) outs(%[[F]] : tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: %[[T:.+]] = linalg.generic
// CHECK-SAME: ins(%[[M]] : tensor<4x5xf32>)
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: return %[[T]] : tensor<4x5xf16>
func.func @matmul_2d_f16(%a: tensor<4x8xf16>, %b: tensor<8x5xf16>) -> tensor<4x5xf16> {
  %0 = graph.matmul %a, %b : tensor<4x8xf16>, tensor<8x5xf16> -> tensor<4x5xf16>
  return %0 : tensor<4x5xf16>
}

// -----

// A 1-D lhs is a 1xK row; the unit dim is removed from the result.
// CHECK-LABEL: func.func @matmul_vec_mat
// CHECK-SAME: (%[[A:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8x5xf32>)
// CHECK: %[[L:.+]] = tensor.expand_shape %[[A]] {{\[}}[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[L]], %[[B]] : tensor<1x8xf32>, tensor<8x5xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[M]] {{\[}}[0, 1]] : tensor<1x5xf32> into tensor<5xf32>
// CHECK: return %[[R]]
func.func @matmul_vec_mat(%a: tensor<8xf32>, %b: tensor<8x5xf32>) -> tensor<5xf32> {
  %0 = graph.matmul %a, %b : tensor<8xf32>, tensor<8x5xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// A 1-D rhs is a Kx1 column.
// CHECK-LABEL: func.func @matmul_mat_vec
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xi32>, %[[B:.+]]: tensor<8xi32>)
// CHECK: %[[Z:.+]] = arith.constant 0 : i32
// CHECK: %[[R:.+]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [8, 1] : tensor<8xi32> into tensor<8x1xi32>
// CHECK: %[[F:.+]] = linalg.fill ins(%[[Z]] : i32)
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[A]], %[[R]] : tensor<4x8xi32>, tensor<8x1xi32>) outs(%[[F]] : tensor<4x1xi32>)
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[M]] {{\[}}[0, 1]] : tensor<4x1xi32> into tensor<4xi32>
// CHECK: return %[[C]]
func.func @matmul_mat_vec(%a: tensor<4x8xi32>, %b: tensor<8xi32>) -> tensor<4xi32> {
  %0 = graph.matmul %a, %b : tensor<4x8xi32>, tensor<8xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// [B, M, K] x [K, N]: the batch folds into M for one 2-D matmul.
// CHECK-LABEL: func.func @matmul_3d_2d
// CHECK-SAME: (%[[A:.+]]: tensor<2x4x8xf32>, %[[B:.+]]: tensor<8x5xf32>)
// CHECK: %[[L:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[L]], %[[B]] : tensor<8x8xf32>, tensor<8x5xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[M]] {{\[}}[0, 1], [2]] output_shape [2, 4, 5] : tensor<8x5xf32> into tensor<2x4x5xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: return %[[R]]
func.func @matmul_3d_2d(%a: tensor<2x4x8xf32>, %b: tensor<8x5xf32>) -> tensor<2x4x5xf32> {
  %0 = graph.matmul %a, %b : tensor<2x4x8xf32>, tensor<8x5xf32> -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// -----

// Batch dims [2, 1] and [3] broadcast to [2, 3]: both operands are
// broadcast, the batch dims collapsed into one for batch_matmul and expanded
// back.
// CHECK-DAG: #[[$LHSB:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-DAG: #[[$RHSB:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-DAG: #[[$ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_batched
// CHECK-SAME: (%[[A:.+]]: tensor<2x1x4x8xf32>, %[[B:.+]]: tensor<3x8x5xf32>)
// CHECK: %[[LB:.+]] = linalg.generic {indexing_maps = [#[[$LHSB]], #[[$ID4]]]
// CHECK-SAME: ins(%[[A]] : tensor<2x1x4x8xf32>)
// CHECK: -> tensor<2x3x4x8xf32>
// CHECK: %[[RB:.+]] = linalg.generic {indexing_maps = [#[[$RHSB]], #[[$ID4]]]
// CHECK-SAME: ins(%[[B]] : tensor<3x8x5xf32>)
// CHECK: -> tensor<2x3x8x5xf32>
// CHECK: %[[L:.+]] = tensor.collapse_shape %[[LB]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x4x8xf32> into tensor<6x4x8xf32>
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[RB]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x8x5xf32> into tensor<6x8x5xf32>
// CHECK: %[[M:.+]] = linalg.batch_matmul ins(%[[L]], %[[R]] : tensor<6x4x8xf32>, tensor<6x8x5xf32>) outs(%{{.+}} : tensor<6x4x5xf32>)
// CHECK: %[[E:.+]] = tensor.expand_shape %[[M]] {{\[}}[0, 1], [2], [3]] output_shape [2, 3, 4, 5] : tensor<6x4x5xf32> into tensor<2x3x4x5xf32>
// CHECK: return %[[E]]
func.func @matmul_batched(%a: tensor<2x1x4x8xf32>, %b: tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32> {
  %0 = graph.matmul %a, %b : tensor<2x1x4x8xf32>, tensor<3x8x5xf32> -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// -----

// One batch dim on both sides: batch_matmul directly, no reshapes.
// CHECK-LABEL: func.func @matmul_batched_same
// CHECK-SAME: (%[[A:.+]]: tensor<3x4x8xbf16>, %[[B:.+]]: tensor<3x8x5xbf16>)
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[M:.+]] = linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<3x4x8xbf16>, tensor<3x8x5xbf16>) outs(%{{.+}} : tensor<3x4x5xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK: arith.truncf %{{.+}} : f32 to bf16
func.func @matmul_batched_same(%a: tensor<3x4x8xbf16>, %b: tensor<3x8x5xbf16>) -> tensor<3x4x5xbf16> {
  %0 = graph.matmul %a, %b : tensor<3x4x8xbf16>, tensor<3x8x5xbf16> -> tensor<3x4x5xbf16>
  return %0 : tensor<3x4x5xbf16>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.+]]: tensor<2x?x4xf32>)
// CHECK: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %[[C1]] : tensor<2x?x4xf32>
// CHECK: %[[INIT:.+]] = tensor.empty(%[[D]]) : tensor<4x2x?xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<2x?x4xf32>) outs(%[[INIT]] : tensor<4x2x?xf32>) permutation = [2, 0, 1]
// CHECK: return %[[T]]
func.func @transpose(%x: tensor<2x?x4xf32>) -> tensor<4x2x?xf32> {
  %0 = graph.transpose %x, [2, 0, 1] : tensor<2x?x4xf32> -> tensor<4x2x?xf32>
  return %0 : tensor<4x2x?xf32>
}

// -----

// reshape collapses to 1-D and expands to the target.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.+]]: tensor<2x6xf32>, %[[Y:.+]]: tensor<?x8x8xbf16>, %[[S:.+]]: tensor<i32>)
// CHECK: %[[F:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<2x6xf32> into tensor<12xf32>
// CHECK: %[[R0:.+]] = tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
// The -1 entry is numel / 64 at run time.
// CHECK: %[[FY:.+]] = tensor.collapse_shape %[[Y]] {{\[}}[0, 1, 2]] : tensor<?x8x8xbf16> into tensor<?xbf16>
// CHECK: %[[N:.+]] = tensor.dim %[[FY]], %{{.+}} : tensor<?xbf16>
// CHECK: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[Q:.+]] = arith.divui %[[N]], %[[C64]] : index
// CHECK: %[[R1:.+]] = tensor.expand_shape %[[FY]] {{\[}}[0, 1]] output_shape [%[[Q]], 64] : tensor<?xbf16> into tensor<?x64xbf16>
// Rank 0 -> 1 -> 2.
// CHECK: %[[S1:.+]] = tensor.expand_shape %[[S]] [] output_shape [1] : tensor<i32> into tensor<1xi32>
// CHECK: %[[R2:.+]] = tensor.expand_shape %[[S1]] {{\[}}[0, 1]] output_shape [1, 1] : tensor<1xi32> into tensor<1x1xi32>
// To 1-D, the collapse is all there is.
// CHECK: %[[R3:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<2x6xf32> into tensor<12xf32>
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[R0]], %[[R1]], %[[R2]], %[[R3]]
func.func @reshape(%x: tensor<2x6xf32>, %y: tensor<?x8x8xbf16>, %s: tensor<i32>) -> (tensor<3x4xf32>, tensor<?x64xbf16>, tensor<1x1xi32>, tensor<12xf32>) {
  %0 = graph.reshape %x, [3, -1] : tensor<2x6xf32> -> tensor<3x4xf32>
  %1 = graph.reshape %y, [-1, 64] : tensor<?x8x8xbf16> -> tensor<?x64xbf16>
  %2 = graph.reshape %s, [1, 1] : tensor<i32> -> tensor<1x1xi32>
  %3 = graph.reshape %x, [12] : tensor<2x6xf32> -> tensor<12xf32>
  return %0, %1, %2, %3 : tensor<3x4xf32>, tensor<?x64xbf16>, tensor<1x1xi32>, tensor<12xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_to_scalar
// CHECK-SAME: (%[[X:.+]]: tensor<1x1xf32>)
// CHECK: %[[F:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<1x1xf32> into tensor<1xf32>
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[F]] [] : tensor<1xf32> into tensor<f32>
// CHECK: return %[[R]]
func.func @reshape_to_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %0 = graph.reshape %x, [] : tensor<1x1xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$KEEP:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[$ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_to
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>, %[[Y:.+]]: tensor<?x1xi32>)
// CHECK: %[[R0:.+]] = linalg.generic {indexing_maps = [#[[$ROW]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<3xf32>)
// CHECK: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: %[[D:.+]] = tensor.dim %[[Y]], %{{.+}} : tensor<?x1xi32>
// CHECK: %[[INIT:.+]] = tensor.empty(%[[D]]) : tensor<2x?x5xi32>
// CHECK: %[[R1:.+]] = linalg.generic {indexing_maps = [#[[$KEEP]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[Y]] : tensor<?x1xi32>) outs(%[[INIT]] : tensor<2x?x5xi32>)
// CHECK: return %[[R0]], %[[R1]]
func.func @broadcast_to(%x: tensor<3xf32>, %y: tensor<?x1xi32>) -> (tensor<4x3xf32>, tensor<2x?x5xi32>) {
  %0 = graph.broadcast_to %x, [4, 3] : tensor<3xf32> -> tensor<4x3xf32>
  %1 = graph.broadcast_to %y, [2, -1, 5] : tensor<?x1xi32> -> tensor<2x?x5xi32>
  return %0, %1 : tensor<4x3xf32>, tensor<2x?x5xi32>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<2x5xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<2x8xf32>
// CHECK: %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x8xf32>
// CHECK: %[[I1:.+]] = tensor.insert_slice %[[B]] into %[[I0]][0, 3] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<2x8xf32>
// CHECK: return %[[I1]]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = graph.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x5xf32> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Dynamic sizes along the axis: the second operand goes at the first's size.
// CHECK-LABEL: func.func @concat_dynamic
// CHECK-SAME: (%[[A:.+]]: tensor<?x4xf16>, %[[B:.+]]: tensor<?x4xf16>)
// CHECK: tensor.dim %[[A]]
// CHECK: %[[OFF:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: %[[DB:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<?x4xf16>
// CHECK: %[[TOTAL:.+]] = arith.addi %[[OFF]], %[[DB]] : index
// CHECK: %[[E:.+]] = tensor.empty(%[[TOTAL]]) : tensor<?x4xf16>
// CHECK: %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[E]][0, 0]
// CHECK: %[[I1:.+]] = tensor.insert_slice %[[B]] into %[[I0]][%[[OFF]], 0]
// CHECK: return %[[I1]]
func.func @concat_dynamic(%a: tensor<?x4xf16>, %b: tensor<?x4xf16>) -> tensor<?x4xf16> {
  %0 = graph.concat %a, %b axis = 0 : tensor<?x4xf16>, tensor<?x4xf16> -> tensor<?x4xf16>
  return %0 : tensor<?x4xf16>
}

// -----

// Columns 1, 3, 5: offset 1, size 3, stride 2.
// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// A strided slice is copied into a contiguous tensor.
// CHECK: %[[S:.+]] = tensor.extract_slice %[[X]][0, 1] [4, 3] [1, 2] : tensor<4x8xf32> to tensor<4x3xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[C:.+]] = linalg.copy ins(%[[S]] : tensor<4x3xf32>) outs(%[[E]] : tensor<4x3xf32>)
// CHECK: return %[[C]]
func.func @slice(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %0 = graph.slice %x [0, 1] [4, 7] [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$D0:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$D1:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$NONE:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[I:.+]]: tensor<4x8xi32>)
// sum over dim 1, from 0
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F0:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.+}} : tensor<4xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D0]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x8xf32>) outs(%[[F0]] : tensor<4xf32>)
// CHECK: arith.addf
// max over both dims of i32, from INT32_MIN, keepdims
// CHECK: %[[MIN32:.+]] = arith.constant -2147483648 : i32
// CHECK: %[[F1:.+]] = linalg.fill ins(%[[MIN32]] : i32) outs(%{{.+}} : tensor<i32>)
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$NONE]]], iterator_types = ["reduction", "reduction"]} ins(%[[I]] : tensor<4x8xi32>) outs(%[[F1]] : tensor<i32>)
// CHECK: arith.maxsi
// CHECK: %[[MAXK:.+]] = tensor.expand_shape %[[MAX]] [] output_shape [1, 1] : tensor<i32> into tensor<1x1xi32>
// min over dim 0, from +inf
// CHECK: %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK: %[[F2:.+]] = linalg.fill ins(%[[INF]] : f32) outs(%{{.+}} : tensor<8xf32>)
// CHECK: %[[MIN:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D1]]], iterator_types = ["reduction", "parallel"]} ins(%[[X]] : tensor<4x8xf32>) outs(%[[F2]] : tensor<8xf32>)
// CHECK: arith.minimumf
// max over dim 1 keepdims, from -inf
// CHECK: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NINF]] : f32)
// CHECK: %[[FMAX:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D0]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK: %[[FMAXK:.+]] = tensor.expand_shape %[[FMAX]] {{\[}}[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK: return %[[SUM]], %[[MAXK]], %[[MIN]], %[[FMAXK]]
func.func @reduce(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4xf32>, tensor<1x1xi32>, tensor<8xf32>, tensor<4x1xf32>) {
  %0 = graph.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  %1 = graph.reduce max %i axes = [0, 1] keepdims : tensor<4x8xi32> -> tensor<1x1xi32>
  %2 = graph.reduce min %x axes = [0] : tensor<4x8xf32> -> tensor<8xf32>
  %3 = graph.reduce max %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<1x1xi32>, tensor<8xf32>, tensor<4x1xf32>
}

// -----

// mean of f16: accumulated in f32, divided by the count of reduced elements
// (here 8), then truncated.
// CHECK-LABEL: func.func @reduce_mean_f16
// CHECK-SAME: (%[[X:.+]]: tensor<?x8xf16>)
// CHECK: %[[ACC:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x8xf16>) outs(%{{.+}} : tensor<?xf32>)
// CHECK: ^bb0(%[[IN:.+]]: f16, %[[OUT:.+]]: f32):
// CHECK-NEXT: %[[E:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[E]], %[[OUT]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[C8:.+]] = arith.constant 8 : index
// CHECK: %[[N:.+]] = arith.muli %{{.+}}, %[[C8]] : index
// CHECK: %[[N64:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[COUNT:.+]] = arith.sitofp %[[N64]] : i64 to f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[ACC]] : tensor<?xf32>)
// CHECK: ^bb0(%[[V:.+]]: f32, %{{.+}}: f16):
// CHECK-NEXT: %[[M:.+]] = arith.divf %[[V]], %[[COUNT]] : f32
// CHECK-NEXT: %[[T:.+]] = arith.truncf %[[M]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [%{{.+}}, 1] : tensor<?xf16> into tensor<?x1xf16>
func.func @reduce_mean_f16(%x: tensor<?x8xf16>) -> tensor<?x1xf16> {
  %0 = graph.reduce mean %x axes = [1] keepdims : tensor<?x8xf16> -> tensor<?x1xf16>
  return %0 : tensor<?x1xf16>
}

// -----

// softmax = exp(x - max) / sum(exp(x - max)) along the axis, in f32 for f16.
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$D0:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.+]]: tensor<4x10xf16>)
// CHECK: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MI:.+]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.+}} : tensor<4xf32>)
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D0]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x10xf16>) outs(%[[MI]] : tensor<4xf32>)
// CHECK: arith.maximumf
// CHECK: %[[EXP:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D0]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]] : tensor<4x10xf16>, tensor<4xf32>) outs(%{{.+}} : tensor<4x10xf32>)
// CHECK: ^bb0(%[[A:.+]]: f16, %[[M:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[AE:.+]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[AE]], %[[M]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[E]] : f32
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SI:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.+}} : tensor<4xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D0]]], iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] : tensor<4x10xf32>) outs(%[[SI]] : tensor<4xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$D0]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[EXP]], %[[SUM]] : tensor<4x10xf32>, tensor<4xf32>) outs(%{{.+}} : tensor<4x10xf16>)
// CHECK: ^bb0(%[[N:.+]]: f32, %[[S:.+]]: f32, %{{.+}}: f16):
// CHECK-NEXT: %[[Q:.+]] = arith.divf %[[N]], %[[S]] : f32
// CHECK-NEXT: %[[T:.+]] = arith.truncf %[[Q]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK: return %[[R]]
func.func @softmax(%x: tensor<4x10xf16>) -> tensor<4x10xf16> {
  %0 = graph.softmax %x axis = 1 : tensor<4x10xf16> -> tensor<4x10xf16>
  return %0 : tensor<4x10xf16>
}

// -----

// Axis 0: the max and sum are indexed by the other dim.
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$D1:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @softmax_axis0
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$D1]]], iterator_types = ["reduction", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$D1]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$D1]]], iterator_types = ["reduction", "parallel"]}
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$D1]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @softmax_axis0(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = graph.softmax %x axis = 0 : tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// A written result type may be less or more static than the inferred one:
// the op is lowered at its inferred type and tensor.cast to the written one.
// CHECK-LABEL: func.func @written_result_types
// CHECK-SAME: (%[[X:.+]]: tensor<8xf32>, %[[Y:.+]]: tensor<2x3xf32>, %[[D:.+]]: tensor<?xf32>)
// CHECK: %[[S:.+]] = tensor.extract_slice %[[X]][0] [3] [1] : tensor<8xf32> to tensor<3xf32>
// CHECK: %[[SC:.+]] = tensor.cast %[[S]] : tensor<3xf32> to tensor<?xf32>
// CHECK: %[[R:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK: %[[RC:.+]] = tensor.cast %[[R]] : tensor<3x2xf32> to tensor<?x?xf32>
// CHECK: %[[E:.+]] = linalg.generic
// CHECK-SAME: ins(%[[D]] : tensor<?xf32>) outs(%{{.+}} : tensor<?xf32>)
// CHECK: %[[EC:.+]] = tensor.cast %[[E]] : tensor<?xf32> to tensor<4xf32>
// CHECK: return %[[SC]], %[[RC]], %[[EC]]
func.func @written_result_types(%x: tensor<8xf32>, %y: tensor<2x3xf32>, %d: tensor<?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>, tensor<4xf32>) {
  %0 = graph.slice %x [0] [3] [1] : tensor<8xf32> -> tensor<?xf32>
  %1 = graph.reshape %y, [3, 2] : tensor<2x3xf32> -> tensor<?x?xf32>
  %2 = graph.exp %d : tensor<?xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?x?xf32>, tensor<4xf32>
}
