// RUN: graph-opt %s -split-input-file -verify-diagnostics

// One case per verifier diagnostic of lib/Dialect/Graph/IR/GraphOps.cpp,
// named after the op and the constraint it checks. Every failed inference is
// followed by the generic "failed to infer returned types" error.

//===----------------------------------------------------------------------===//
// Elementwise binary ops: C1 same element type, C2 broadcast-compatible.
//===----------------------------------------------------------------------===//

func.func @add_c1(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+2 {{'graph.add' op element types differ: lhs is f32, rhs is i32}}
  // expected-error @+1 {{'graph.add' op failed to infer returned types}}
  %0 = graph.add %a, %b : tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

func.func @add_c2(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'graph.add' op operands are not broadcast-compatible: lhs dim 0 is 4, rhs dim 0 is 3 (shapes [4] and [3])}}
  // expected-error @+1 {{'graph.add' op failed to infer returned types}}
  %0 = graph.add %a, %b : tensor<4xf32>, tensor<3xf32> -> tensor<4xf32>
  return
}

// -----

func.func @sub_c1(%a: tensor<4xi64>, %b: tensor<4xi32>) {
  // expected-error @+2 {{'graph.sub' op element types differ: lhs is i64, rhs is i32}}
  // expected-error @+1 {{'graph.sub' op failed to infer returned types}}
  %0 = graph.sub %a, %b : tensor<4xi64>, tensor<4xi32> -> tensor<4xi64>
  return
}

// -----

// The dims are reported in each operand's own numbering.
func.func @sub_c2(%a: tensor<2x4xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'graph.sub' op operands are not broadcast-compatible: lhs dim 1 is 4, rhs dim 0 is 3 (shapes [2x4] and [3])}}
  // expected-error @+1 {{'graph.sub' op failed to infer returned types}}
  %0 = graph.sub %a, %b : tensor<2x4xf32>, tensor<3xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @mul_c1(%a: tensor<4xf32>, %b: tensor<4xbf16>) {
  // expected-error @+2 {{'graph.mul' op element types differ: lhs is f32, rhs is bf16}}
  // expected-error @+1 {{'graph.mul' op failed to infer returned types}}
  %0 = graph.mul %a, %b : tensor<4xf32>, tensor<4xbf16> -> tensor<4xf32>
  return
}

// -----

// A dynamic dim does not hide a conflict between two static ones.
func.func @mul_c2(%a: tensor<?x4xi32>, %b: tensor<5xi32>) {
  // expected-error @+2 {{'graph.mul' op operands are not broadcast-compatible: lhs dim 1 is 4, rhs dim 0 is 5 (shapes [?x4] and [5])}}
  // expected-error @+1 {{'graph.mul' op failed to infer returned types}}
  %0 = graph.mul %a, %b : tensor<?x4xi32>, tensor<5xi32> -> tensor<?x4xi32>
  return
}

// -----

func.func @div_c1(%a: tensor<4xbf16>, %b: tensor<4xf32>) {
  // expected-error @+2 {{'graph.div' op element types differ: lhs is bf16, rhs is f32}}
  // expected-error @+1 {{'graph.div' op failed to infer returned types}}
  %0 = graph.div %a, %b : tensor<4xbf16>, tensor<4xf32> -> tensor<4xbf16>
  return
}

// -----

func.func @div_c2(%a: tensor<3x1x4xf32>, %b: tensor<2x5xf32>) {
  // expected-error @+2 {{'graph.div' op operands are not broadcast-compatible: lhs dim 2 is 4, rhs dim 1 is 5 (shapes [3x1x4] and [2x5])}}
  // expected-error @+1 {{'graph.div' op failed to infer returned types}}
  %0 = graph.div %a, %b : tensor<3x1x4xf32>, tensor<2x5xf32> -> tensor<3x2x4xf32>
  return
}

// -----

func.func @max_c1(%a: tensor<4xf16>, %b: tensor<4xbf16>) {
  // expected-error @+2 {{'graph.max' op element types differ: lhs is f16, rhs is bf16}}
  // expected-error @+1 {{'graph.max' op failed to infer returned types}}
  %0 = graph.max %a, %b : tensor<4xf16>, tensor<4xbf16> -> tensor<4xf16>
  return
}

// -----

func.func @max_c2(%a: tensor<2x3xi32>, %b: tensor<3x3xi32>) {
  // expected-error @+2 {{'graph.max' op operands are not broadcast-compatible: lhs dim 0 is 2, rhs dim 0 is 3 (shapes [2x3] and [3x3])}}
  // expected-error @+1 {{'graph.max' op failed to infer returned types}}
  %0 = graph.max %a, %b : tensor<2x3xi32>, tensor<3x3xi32> -> tensor<2x3xi32>
  return
}

// -----

func.func @min_c1(%a: tensor<4xi32>, %b: tensor<4xi64>) {
  // expected-error @+2 {{'graph.min' op element types differ: lhs is i32, rhs is i64}}
  // expected-error @+1 {{'graph.min' op failed to infer returned types}}
  %0 = graph.min %a, %b : tensor<4xi32>, tensor<4xi64> -> tensor<4xi32>
  return
}

// -----

func.func @min_c2(%a: tensor<3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+2 {{'graph.min' op operands are not broadcast-compatible: lhs dim 0 is 3, rhs dim 1 is 2 (shapes [3] and [4x2])}}
  // expected-error @+1 {{'graph.min' op failed to infer returned types}}
  %0 = graph.min %a, %b : tensor<3xf32>, tensor<4x2xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @pow_c1(%a: tensor<4xf32>, %b: tensor<f16>) {
  // expected-error @+2 {{'graph.pow' op element types differ: lhs is f32, rhs is f16}}
  // expected-error @+1 {{'graph.pow' op failed to infer returned types}}
  %0 = graph.pow %a, %b : tensor<4xf32>, tensor<f16> -> tensor<4xf32>
  return
}

// -----

func.func @pow_c2(%a: tensor<4xf32>, %b: tensor<2xf32>) {
  // expected-error @+2 {{'graph.pow' op operands are not broadcast-compatible: lhs dim 0 is 4, rhs dim 0 is 2 (shapes [4] and [2])}}
  // expected-error @+1 {{'graph.pow' op failed to infer returned types}}
  %0 = graph.pow %a, %b : tensor<4xf32>, tensor<2xf32> -> tensor<4xf32>
  return
}

// -----

func.func @rem_c1(%a: tensor<4xi32>, %b: tensor<i64>) {
  // expected-error @+2 {{'graph.rem' op element types differ: lhs is i32, rhs is i64}}
  // expected-error @+1 {{'graph.rem' op failed to infer returned types}}
  %0 = graph.rem %a, %b : tensor<4xi32>, tensor<i64> -> tensor<4xi32>
  return
}

// -----

func.func @rem_c2(%a: tensor<3x4xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'graph.rem' op operands are not broadcast-compatible: lhs dim 1 is 4, rhs dim 0 is 3 (shapes [3x4] and [3])}}
  // expected-error @+1 {{'graph.rem' op failed to infer returned types}}
  %0 = graph.rem %a, %b : tensor<3x4xf32>, tensor<3xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @rem_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'graph.rem' op operand #0 must be ranked tensor of}}
  %0 = graph.rem %a, %a : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.compare, graph.select, graph.cast
//===----------------------------------------------------------------------===//

func.func @compare_c1(%a: tensor<4xi1>, %b: tensor<4xi32>) {
  // expected-error @+2 {{'graph.compare' op element types differ: lhs is i1, rhs is i32}}
  // expected-error @+1 {{'graph.compare' op failed to infer returned types}}
  %0 = graph.compare eq, %a, %b : tensor<4xi1>, tensor<4xi32> -> tensor<4xi1>
  return
}

// -----

func.func @compare_c2(%a: tensor<4xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.compare' op operands are not broadcast-compatible: lhs dim 0 is 4, rhs dim 1 is 3 (shapes [4] and [2x3])}}
  // expected-error @+1 {{'graph.compare' op failed to infer returned types}}
  %0 = graph.compare lt, %a, %b : tensor<4xf32>, tensor<2x3xf32> -> tensor<2x4xi1>
  return
}

// -----

func.func @select_c2(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+2 {{'graph.select' op element types differ: on_true is f32, on_false is i32}}
  // expected-error @+1 {{'graph.select' op failed to infer returned types}}
  %0 = graph.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

func.func @select_c3_values(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'graph.select' op operands are not broadcast-compatible: on_true dim 0 is 4, on_false dim 0 is 3 (shapes [4] and [3])}}
  // expected-error @+1 {{'graph.select' op failed to infer returned types}}
  %0 = graph.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<3xf32> -> tensor<4xf32>
  return
}

// -----

func.func @select_c3_condition(%c: tensor<3xi1>, %a: tensor<2x4xf32>, %b: tensor<f32>) {
  // expected-error @+2 {{'graph.select' op operands are not broadcast-compatible: condition dim 0 is 3, broadcast value dim 1 is 4 (shapes [3] and [2x4])}}
  // expected-error @+1 {{'graph.select' op failed to infer returned types}}
  %0 = graph.select %c, %a, %b : tensor<3xi1>, tensor<2x4xf32>, tensor<f32> -> tensor<2x4xf32>
  return
}

// -----

// cast infers only the shape; a shape change is reported against the input
// type.
func.func @cast_c1(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.cast' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf16>'}}
  // expected-error @+1 {{'graph.cast' op failed to infer returned types}}
  %0 = graph.cast %x : tensor<2x3xf32> -> tensor<3x2xf16>
  return
}

// -----

func.func @cast_c1_rank(%x: tensor<?x3xi32>) {
  // expected-error @+2 {{'graph.cast' op inferred type(s) 'tensor<?x3xi32>' are incompatible with return type(s) of operation 'tensor<3xi1>'}}
  // expected-error @+1 {{'graph.cast' op failed to infer returned types}}
  %0 = graph.cast %x : tensor<?x3xi32> -> tensor<3xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.matmul
//===----------------------------------------------------------------------===//

func.func @matmul_c1(%a: tensor<f32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{'graph.matmul' op operands must have rank >= 1, got lhs rank 0 and rhs rank 1}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @matmul_c2(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{'graph.matmul' op contracting dimension mismatch: lhs dim 1 is 3, rhs dim 0 is 4}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : tensor<4x3xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
  return
}

// -----

// A 1-D rhs contracts its only dim.
func.func @matmul_c2_vector(%a: tensor<4x3xi32>, %b: tensor<4xi32>) {
  // expected-error @+2 {{'graph.matmul' op contracting dimension mismatch: lhs dim 1 is 3, rhs dim 0 is 4}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : tensor<4x3xi32>, tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

// A batched rhs contracts its second-to-last dim.
func.func @matmul_c2_batched(%a: tensor<2x4x3xf16>, %b: tensor<2x5x6xf16>) {
  // expected-error @+2 {{'graph.matmul' op contracting dimension mismatch: lhs dim 2 is 3, rhs dim 1 is 5}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : tensor<2x4x3xf16>, tensor<2x5x6xf16> -> tensor<2x4x6xf16>
  return
}

// -----

func.func @matmul_c3(%a: tensor<2x4x3xf32>, %b: tensor<3x3x5xf32>) {
  // expected-error @+2 {{'graph.matmul' op operands are not broadcast-compatible: lhs batch dim 0 is 2, rhs batch dim 0 is 3 (shapes [2] and [3])}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : tensor<2x4x3xf32>, tensor<3x3x5xf32> -> tensor<2x4x5xf32>
  return
}

// -----

func.func @matmul_c4(%a: tensor<4x3xf32>, %b: tensor<3x5xf16>) {
  // expected-error @+2 {{'graph.matmul' op element types differ: lhs is f32, rhs is f16}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : tensor<4x3xf32>, tensor<3x5xf16> -> tensor<4x5xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.transpose
//===----------------------------------------------------------------------===//

func.func @transpose_c1_size(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.transpose' op permutation has 1 entries, but the input has rank 2}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x, [0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_c1_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.transpose' op permutation entry 1 is 2, outside [0, 2)}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x, [0, 2] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_c1_negative(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.transpose' op permutation entry 0 is -1, outside [0, 2)}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x, [-1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_c1_repeat(%x: tensor<2x3x4xi1>) {
  // expected-error @+2 {{'graph.transpose' op permutation entry 2 repeats 0}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %x, [0, 1, 0] : tensor<2x3x4xi1> -> tensor<2x3x2xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.reshape
//===----------------------------------------------------------------------===//

func.func @reshape_c1(%x: tensor<2x6xf32>) {
  // expected-error @+2 {{'graph.reshape' op shape entries 0 and 2 are both -1; at most one may be}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x, [-1, 2, -1] : tensor<2x6xf32> -> tensor<?x2x?xf32>
  return
}

// -----

func.func @reshape_c2(%x: tensor<2x6xf32>) {
  // expected-error @+2 {{'graph.reshape' op shape entry 1 is -2; entries must be >= 0 or -1}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x, [3, -2] : tensor<2x6xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @reshape_c3_divide(%x: tensor<2x6xf32>) {
  // expected-error @+2 {{'graph.reshape' op cannot reshape 12 elements to shape [5, -1]: 12 is not a multiple of 5}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x, [5, -1] : tensor<2x6xf32> -> tensor<5x?xf32>
  return
}

// -----

func.func @reshape_c3_zero(%x: tensor<2x6xi64>) {
  // expected-error @+2 {{'graph.reshape' op cannot infer the -1 entry of shape [-1, 0]: the other entries multiply to 0}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x, [-1, 0] : tensor<2x6xi64> -> tensor<?x0xi64>
  return
}

// -----

func.func @reshape_c3_count(%x: tensor<2x6xf32>) {
  // expected-error @+2 {{'graph.reshape' op element count mismatch: input [2x6] has 12 elements, shape [3, 5] has 15}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x, [3, 5] : tensor<2x6xf32> -> tensor<3x5xf32>
  return
}

// -----

// The target shape is authoritative for the written result type.
func.func @reshape_result(%x: tensor<?x6xf32>) {
  // expected-error @+2 {{'graph.reshape' op inferred type(s) 'tensor<3x4xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %0 = graph.reshape %x, [3, 4] : tensor<?x6xf32> -> tensor<4x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.broadcast_to
//===----------------------------------------------------------------------===//

func.func @broadcast_to_c1(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.broadcast_to' op target rank 1 is smaller than the input rank 2}}
  // expected-error @+1 {{'graph.broadcast_to' op failed to infer returned types}}
  %0 = graph.broadcast_to %x, [3] : tensor<2x3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @broadcast_to_c2(%x: tensor<3xf32>) {
  // expected-error @+2 {{'graph.broadcast_to' op shape entry 0 is -1 but there is no input dim there}}
  // expected-error @+1 {{'graph.broadcast_to' op failed to infer returned types}}
  %0 = graph.broadcast_to %x, [-1, 3] : tensor<3xf32> -> tensor<?x3xf32>
  return
}

// -----

// Entries below -1 are rejected too (no constraint number).
func.func @broadcast_to_negative_entry(%x: tensor<3xf32>) {
  // expected-error @+2 {{'graph.broadcast_to' op shape entry 0 is -3; entries must be >= 0 or -1}}
  // expected-error @+1 {{'graph.broadcast_to' op failed to infer returned types}}
  %0 = graph.broadcast_to %x, [-3, 3] : tensor<3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @broadcast_to_c3(%x: tensor<3x1xi32>) {
  // expected-error @+2 {{'graph.broadcast_to' op input dim 0 is 3, cannot broadcast to 4 (target dim 1)}}
  // expected-error @+1 {{'graph.broadcast_to' op failed to infer returned types}}
  %0 = graph.broadcast_to %x, [2, 4, 5] : tensor<3x1xi32> -> tensor<2x4x5xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.concat
//===----------------------------------------------------------------------===//

// The custom syntax cannot spell zero operands; the generic form can.
func.func @concat_c1() {
  // expected-error @+2 {{'graph.concat' op needs at least one operand}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = "graph.concat"() {axis = 0 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @concat_c2(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'graph.concat' op operand 1 has rank 1, operand 0 has rank 2}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_c3(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.concat' op axis 2 is outside [0, 2)}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a, %b axis = 2 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @concat_c3_negative(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.concat' op axis -1 is outside [0, 2)}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a axis = -1 : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @concat_c4(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<3x3xf32>) {
  // expected-error @+2 {{'graph.concat' op operand 2 dim 0 is 3, operand 0 dim 0 is 2}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a, %b, %c axis = 1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x3xf32> -> tensor<2x9xf32>
  return
}

// -----

func.func @concat_c5(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) {
  // expected-error @+2 {{'graph.concat' op element types differ: operand 0 is f32, operand 1 is i32}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<2x3xi32> -> tensor<4x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.slice
//===----------------------------------------------------------------------===//

func.func @slice_c1_start(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.slice' op start has 1 entries, but the input has rank 2}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x [0] [4, 8] [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_c1_limit(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.slice' op limit has 3 entries, but the input has rank 2}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x [0, 0] [4, 8, 1] [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_c1_step(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.slice' op step has 0 entries, but the input has rank 2}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x [0, 0] [4, 8] [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_c2_start(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.slice' op dim 0: need 0 <= start <= limit and step >= 1, got start -1, limit 4, step 1}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x [-1, 0] [4, 8] [1, 1] : tensor<4x8xf32> -> tensor<5x8xf32>
  return
}

// -----

func.func @slice_c2_limit(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.slice' op dim 1: need 0 <= start <= limit and step >= 1, got start 5, limit 3, step 1}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x [0, 5] [4, 3] [1, 1] : tensor<4x8xf32> -> tensor<4x0xf32>
  return
}

// -----

func.func @slice_c2_step(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.slice' op dim 1: need 0 <= start <= limit and step >= 1, got start 0, limit 8, step 0}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x [0, 0] [4, 8] [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_c3(%x: tensor<?x8xf32>) {
  // expected-error @+2 {{'graph.slice' op dim 1: limit 9 is past the dim size 8}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x [0, 0] [100, 9] [1, 1] : tensor<?x8xf32> -> tensor<100x9xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.reduce, graph.softmax
//===----------------------------------------------------------------------===//

func.func @reduce_c1_range(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.reduce' op axis 2 (entry 1) is outside [0, 2)}}
  // expected-error @+1 {{'graph.reduce' op failed to infer returned types}}
  %0 = graph.reduce sum %x axes = [0, 2] : tensor<4x8xf32> -> tensor<f32>
  return
}

// -----

func.func @reduce_c1_negative(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.reduce' op axis -1 (entry 0) is outside [0, 2)}}
  // expected-error @+1 {{'graph.reduce' op failed to infer returned types}}
  %0 = graph.reduce max %x axes = [-1] : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_c1_twice(%x: tensor<4x8xi32>) {
  // expected-error @+2 {{'graph.reduce' op axis 1 is listed twice}}
  // expected-error @+1 {{'graph.reduce' op failed to infer returned types}}
  %0 = graph.reduce min %x axes = [1, 0, 1] : tensor<4x8xi32> -> tensor<i32>
  return
}

// -----

func.func @reduce_c2(%x: tensor<4xi32>) {
  // expected-error @+2 {{'graph.reduce' op mean needs a float element type}}
  // expected-error @+1 {{'graph.reduce' op failed to infer returned types}}
  %0 = graph.reduce mean %x axes = [0] : tensor<4xi32> -> tensor<i32>
  return
}

// -----

// keepdims decides the result rank.
func.func @reduce_keepdims_result(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.reduce' op inferred type(s) 'tensor<4x1xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'graph.reduce' op failed to infer returned types}}
  %0 = graph.reduce sum %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @softmax_c1(%x: tensor<4x10xf32>) {
  // expected-error @+2 {{'graph.softmax' op axis 2 is outside [0, 2)}}
  // expected-error @+1 {{'graph.softmax' op failed to infer returned types}}
  %0 = graph.softmax %x axis = 2 : tensor<4x10xf32> -> tensor<4x10xf32>
  return
}

// -----

func.func @softmax_c1_negative(%x: tensor<4xf16>) {
  // expected-error @+2 {{'graph.softmax' op axis -1 is outside [0, 1)}}
  // expected-error @+1 {{'graph.softmax' op failed to infer returned types}}
  %0 = graph.softmax %x axis = -1 : tensor<4xf16> -> tensor<4xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Written result type vs inferred type: same rank and element type, static
// dims equal.
//===----------------------------------------------------------------------===//

func.func @inferred_shape(%x: tensor<4xf32>) {
  // expected-error @+2 {{'graph.add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  // expected-error @+1 {{'graph.add' op failed to infer returned types}}
  %0 = graph.add %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<5xf32>
  return
}

// -----

func.func @inferred_rank(%x: tensor<4xf32>, %y: tensor<3x1xf32>) {
  // expected-error @+2 {{'graph.sub' op inferred type(s) 'tensor<3x4xf32>' are incompatible with return type(s) of operation 'tensor<12xf32>'}}
  // expected-error @+1 {{'graph.sub' op failed to infer returned types}}
  %0 = graph.sub %x, %y : tensor<4xf32>, tensor<3x1xf32> -> tensor<12xf32>
  return
}

// -----

func.func @inferred_element_type(%x: tensor<4xf32>) {
  // expected-error @+2 {{'graph.exp' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @+1 {{'graph.exp' op failed to infer returned types}}
  %0 = graph.exp %x : tensor<4xf32> -> tensor<4xf16>
  return
}

// -----

func.func @inferred_matmul(%a: tensor<8x1x4x3xf32>, %b: tensor<5x3x2xf32>) {
  // expected-error @+2 {{'graph.matmul' op inferred type(s) 'tensor<8x5x4x2xf32>' are incompatible with return type(s) of operation 'tensor<8x1x4x2xf32>'}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : tensor<8x1x4x3xf32>, tensor<5x3x2xf32> -> tensor<8x1x4x2xf32>
  return
}

// -----

// Indices 0, 3, 6, 9: four elements.
func.func @inferred_slice(%x: tensor<10xf32>) {
  // expected-error @+2 {{'graph.slice' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'graph.slice' op failed to infer returned types}}
  %0 = graph.slice %x [0] [10] [3] : tensor<10xf32> -> tensor<3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// ODS type constraints
//===----------------------------------------------------------------------===//

func.func @exp_float_only(%x: tensor<4xi32>) {
  // expected-error @+1 {{'graph.exp' op operand #0 must be ranked tensor of f32, f16, bf16 or f64 values, but got 'tensor<4xi32>'}}
  %0 = graph.exp %x : tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

func.func @gelu_float_only(%x: tensor<4xi64>) {
  // expected-error @+1 {{'graph.gelu' op operand #0 must be ranked tensor of f32, f16, bf16 or f64 values, but got 'tensor<4xi64>'}}
  %0 = graph.gelu %x approximate = tanh : tensor<4xi64> -> tensor<4xi64>
  return
}

// -----

func.func @pow_float_only(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'graph.pow' op operand #1 must be ranked tensor of f32, f16, bf16 or f64 values, but got 'tensor<4xi32>'}}
  %0 = graph.pow %x, %y : tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

func.func @softmax_float_only(%x: tensor<4xi32>) {
  // expected-error @+1 {{'graph.softmax' op operand #0 must be ranked tensor of f32, f16, bf16 or f64 values, but got 'tensor<4xi32>'}}
  %0 = graph.softmax %x axis = 0 : tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

func.func @matmul_no_i1(%x: tensor<4x4xi1>) {
  // expected-error @+1 {{'graph.matmul' op operand #0 must be ranked tensor of f32, f16, bf16, f64, i8, i16, i32, i64, ui8, ui16, ui32 or ui64 values, but got 'tensor<4x4xi1>'}}
  %0 = graph.matmul %x, %x : tensor<4x4xi1>, tensor<4x4xi1> -> tensor<4x4xi1>
  return
}

// -----

func.func @neg_no_i1(%x: tensor<4xi1>) {
  // expected-error @+1 {{'graph.neg' op operand #0 must be ranked tensor of f32, f16, bf16, f64, i8, i16, i32, i64, ui8, ui16, ui32 or ui64 values, but got 'tensor<4xi1>'}}
  %0 = graph.neg %x : tensor<4xi1> -> tensor<4xi1>
  return
}

// -----

func.func @reduce_no_i1(%x: tensor<4xi1>) {
  // expected-error @+1 {{'graph.reduce' op operand #0 must be ranked tensor of f32, f16, bf16, f64, i8, i16, i32, i64, ui8, ui16, ui32 or ui64 values, but got 'tensor<4xi1>'}}
  %0 = graph.reduce max %x axes = [0] : tensor<4xi1> -> tensor<i1>
  return
}

// -----

func.func @add_no_i4(%x: tensor<4xi4>) {
  // expected-error @+1 {{'graph.add' op operand #0 must be ranked tensor of f32, f16, bf16, f64, i8, i16, i32, i64, ui8, ui16, ui32 or ui64 values, but got 'tensor<4xi4>'}}
  %0 = graph.add %x, %x : tensor<4xi4>, tensor<4xi4> -> tensor<4xi4>
  return
}

// -----

func.func @compare_result_i1(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.compare' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = graph.compare eq, %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

// The condition's element type is an ODS constraint (select has no C1).
func.func @select_condition_i1(%c: tensor<4xi32>, %x: tensor<4xi32>) {
  // expected-error @+1 {{'graph.select' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = graph.select %c, %x, %x : tensor<4xi32>, tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

func.func @cast_no_i4(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.cast' op result #0 must be ranked tensor of f32, f16, bf16, f64, i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64 or an 8-bit float (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ) values, but got 'tensor<4xi4>'}}
  %0 = graph.cast %x : tensor<4xf32> -> tensor<4xi4>
  return
}

// -----

func.func @constant_no_f8e8m0() {
  // expected-error @+1 {{'graph.constant' op result #0 must be ranked tensor of f32, f16, bf16, f64, i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64 or an 8-bit float (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ) values, but got 'tensor<2xf8E8M0FNU>'}}
  %0 = graph.constant dense<1.0> : tensor<2xf8E8M0FNU>
  return
}

// -----

func.func @constant_static_shape() {
  // expected-error @+1 {{elements literal type must have static shape}}
  %0 = graph.constant dense<1.0> : tensor<?xf32>
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{'graph.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

func.func @neg_ranked_only(%x: tensor<*xf32>) {
  // expected-error @+1 {{custom op 'graph.neg' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = graph.neg %x : tensor<*xf32> -> tensor<*xf32>
  return
}

// -----

func.func @gelu_approximation(%x: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'graph.gelu' expected string or keyword containing one of the following enum values for attribute 'approximate' [none, tanh]}}
  %0 = graph.gelu %x approximate = erf : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'graph.reduce' expected string or keyword containing one of the following enum values for attribute 'kind' [sum, mean, max, min]}}
  %0 = graph.reduce prod %x axes = [0] : tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @compare_direction(%x: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'graph.compare' expected string or keyword containing one of the following enum values for attribute 'direction' [eq, ne, lt, le, gt, ge]}}
  %0 = graph.compare neq, %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

func.func @reshape_c2_overflow(%x: tensor<2x3xf32>) -> tensor<3x3x6148914691236517206xf32> {
  // expected-error @+2 {{'graph.reshape' op shape [3, 3, 6148914691236517206] has more than 2^63 elements}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %r = graph.reshape %x, [3, 3, 6148914691236517206] : tensor<2x3xf32> -> tensor<3x3x6148914691236517206xf32>
  return %r : tensor<3x3x6148914691236517206xf32>
}

// -----

func.func @reshape_c3_dynamic_zero(%x: tensor<?xf32>) -> tensor<0x?xf32> {
  // expected-error @+2 {{'graph.reshape' op cannot infer the -1 entry of shape [0, -1]: the other entries multiply to 0}}
  // expected-error @+1 {{'graph.reshape' op failed to infer returned types}}
  %r = graph.reshape %x, [0, -1] : tensor<?xf32> -> tensor<0x?xf32>
  return %r : tensor<0x?xf32>
}

// -----

func.func @bitwise_and_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.bitwise_and' op operand #0 must be ranked tensor of i1, i8, i16, i32, i64, ui8, ui16, ui32 or ui64 values, but got 'tensor<4xf32>'}}
  %0 = graph.bitwise_and %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @shift_left_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'graph.shift_left' op operand #0 must be ranked tensor of i8, i16, i32, i64, ui8, ui16, ui32 or ui64 values, but got 'tensor<4xi1>'}}
  %0 = graph.shift_left %a, %a : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return
}

// -----

func.func @shift_right_c2(%a: tensor<4xi32>, %b: tensor<3xi32>) {
  // expected-error @+2 {{'graph.shift_right' op operands are not broadcast-compatible: lhs dim 0 is 4, rhs dim 0 is 3 (shapes [4] and [3])}}
  // expected-error @+1 {{'graph.shift_right' op failed to infer returned types}}
  %0 = graph.shift_right %a, %b : tensor<4xi32>, tensor<3xi32> -> tensor<4xi32>
  return
}

// -----

// The 8-bit floats are storage types: arithmetic refuses them (cast to f32).
func.func @add_float8(%a: tensor<4xf8E4M3FN>) {
  // expected-error @+1 {{'graph.add' op operand #0 must be ranked tensor of f32, f16, bf16, f64, i8, i16, i32, i64, ui8, ui16, ui32 or ui64 values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = graph.add %a, %a : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN> -> tensor<4xf8E4M3FN>
  return
}

// -----

// graph.bitcast: (C2) the same bit width (or i1 to an 8-bit integer).
func.func @bitcast_width(%a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.bitcast' op bitcast from 'f32' (32 bits) to 'i64' (64 bits): the widths must be equal (or i1 to an 8-bit integer)}}
  %0 = graph.bitcast %a : tensor<4xf32> -> tensor<4xi64>
  return
}

// -----

func.func @bitcast_to_i1(%a: tensor<4xi8>) {
  // expected-error @+1 {{'graph.bitcast' op bitcast from 'i8' (8 bits) to 'i1' (1 bits): the widths must be equal (or i1 to an 8-bit integer)}}
  %0 = graph.bitcast %a : tensor<4xi8> -> tensor<4xi1>
  return
}

// -----

// graph.bitcast: (C1) the same shape.
func.func @bitcast_shape(%a: tensor<4xf32>) {
  // expected-error @+2 {{'graph.bitcast' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<2xi32>'}}
  // expected-error @+1 {{'graph.bitcast' op failed to infer returned types}}
  %0 = graph.bitcast %a : tensor<4xf32> -> tensor<2xi32>
  return
}
