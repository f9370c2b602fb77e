// The constant globals of one-shot bufferization get the order of their
// first use (functions in module order, ops in program order) at the top of
// the module, and their names again in that order: a counter per base name
// from 0, the name without a counter for the first. Here as bufferization
// might leave them, named and placed in the order it happened to visit the
// functions. A global nothing reads follows the read ones; one that is not
// a bufferized constant (public, or another name) keeps its name and place.
// RUN: graph-opt %s --graph-name-constant-globals | FileCheck %s

// CHECK: memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-NEXT: memref.global "private" constant @__constant_3xi64 : memref<3xi64> = dense<[7, 8, 9]>
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[3.000000e+00, 4.000000e+00]>
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32_1 : memref<2xf32> = dense<[5.000000e+00, 6.000000e+00]>
// CHECK-NEXT: memref.global "private" constant @__constant_xf32 : memref<f32> = dense<0.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_2xf32_2 : memref<2xf32> = dense<9.000000e+00>
// CHECK-NEXT: memref.global @weights : memref<2xf32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" constant @table : memref<2xi64> = dense<[1, 2]>
memref.global "private" constant @__constant_2xf32_7 : memref<2xf32> = dense<[5.0, 6.0]>
memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[9.0, 9.0]>
memref.global "private" constant @__constant_xf32_3 : memref<f32> = dense<0.0>
memref.global @weights : memref<2xf32> = dense<[1.0, 1.0]>
memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[3.0, 4.0]>
memref.global "private" constant @table : memref<2xi64> = dense<[1, 2]>
memref.global "private" constant @__constant_3xi64 : memref<3xi64> = dense<[7, 8, 9]>
memref.global "private" constant @__constant_2xf32_12 : memref<2xf32> = dense<[1.0, 2.0]>

// CHECK-LABEL: func.func @first
// CHECK: memref.get_global @__constant_2xf32 : memref<2xf32>
// CHECK: memref.get_global @__constant_3xi64 : memref<3xi64>
// CHECK: memref.get_global @__constant_2xf32_0 : memref<2xf32>
// CHECK: memref.get_global @__constant_2xf32 : memref<2xf32>
// CHECK: memref.get_global @table
func.func @first() -> (memref<2xf32>, memref<3xi64>, memref<2xf32>, memref<2xf32>, memref<2xi64>) {
  %a = memref.get_global @__constant_2xf32_12 : memref<2xf32>
  %b = memref.get_global @__constant_3xi64 : memref<3xi64>
  %c = memref.get_global @__constant_2xf32 : memref<2xf32>
  %d = memref.get_global @__constant_2xf32_12 : memref<2xf32>
  %e = memref.get_global @table : memref<2xi64>
  return %a, %b, %c, %d, %e : memref<2xf32>, memref<3xi64>, memref<2xf32>, memref<2xf32>, memref<2xi64>
}

// CHECK-LABEL: func.func @second
// CHECK: memref.get_global @__constant_2xf32_1 : memref<2xf32>
// CHECK: memref.get_global @__constant_xf32 : memref<f32>
func.func @second() -> (memref<2xf32>, memref<f32>) {
  %a = memref.get_global @__constant_2xf32_7 : memref<2xf32>
  %b = memref.get_global @__constant_xf32_3 : memref<f32>
  return %a, %b : memref<2xf32>, memref<f32>
}
