// log of subnormals (issue 19: log(1e-40) gave log(FLT_MIN) = -87.34);
// expected values from NumPy's float32 log (rtol 1e-6), 17 lanes so the
// vector body and the remainder both see them.
// RUN: graph-run %s --entry=log_subnormal --quiet --rtol=1e-6 \
// RUN:   --input=17xf32=1e-40,1.4e-45,1.17549435e-38,0,-1,1,2.5,1e30,1e-40,1e-40,1e-40,1e-40,1e-40,1e-40,1e-40,1e-40,3e-39 \
// RUN:   --expected-output=17xf32=-92.10341,-103.27893,-87.33655,-inf,nan,0,0.91629076,69.07755,-92.10341,-92.10341,-92.10341,-92.10341,-92.10341,-92.10341,-92.10341,-92.10341,-88.70221 \
// RUN:   | FileCheck %s
// RUN: graph-run %s --entry=empty_add --quiet --input=0x3xf32= \
// RUN:   --input=3xf32=1,2,3 --expected-output=0x3xf32= | FileCheck %s
// RUN: graph-run %s --entry=empty_reduce --quiet --input=0x3xf32= \
// RUN:   --expected-output=3xf32=0 --expected-output=3xf32=nan \
// RUN:   | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=empty_k --quiet --input=2x0xf32= \
// RUN:   --input=0x3xf32= --expected-output=2x3xf32=0 | FileCheck %s
// RUN: graph-run %s --entry=scalars --quiet --input=f32=3 --input=f32=-2 \
// RUN:   --expected-output=f32=-6 --expected-output=3xf32=-5,-4,-3 \
// RUN:   | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=bool_ops --quiet \
// RUN:   --input=4xi1=true,true,false,false --input=4xi1=true,false,true,false \
// RUN:   --expected-output=4xi1=true,false,false,false \
// RUN:   --expected-output=8xi1=true,true,false,false,true,false,true,false \
// RUN:   --expected-output=4xi1=false,false,true,false \
// RUN:   | FileCheck %s --check-prefix=THREE

// CHECK: result 0: matches expected

// TWO: result 0: matches expected
// TWO: result 1: matches expected

// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected

// Edge cases with hand-computed results: zero-size tensors (an empty
// broadcast add; reductions over an empty dim give the identity 0 for sum
// and 0 / 0 = NaN for mean, as docs/Dialects/Graph.md specifies; a matmul
// with K = 0 gives zeros), rank-0 operands (x * y and x + [-8, -7, -6]),
// and i1 data through select, concat and compare (false < true).

func.func @empty_add(%x: tensor<0x3xf32>, %y: tensor<3xf32>) -> tensor<0x3xf32> {
  %r = graph.add %x, %y : tensor<0x3xf32>, tensor<3xf32> -> tensor<0x3xf32>
  return %r : tensor<0x3xf32>
}

func.func @empty_reduce(%x: tensor<0x3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %s = graph.reduce sum %x axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %m = graph.reduce mean %x axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  return %s, %m : tensor<3xf32>, tensor<3xf32>
}

func.func @empty_k(%x: tensor<2x0xf32>, %y: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %r = graph.matmul %x, %y : tensor<2x0xf32>, tensor<0x3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @scalars(%x: tensor<f32>, %y: tensor<f32>) -> (tensor<f32>, tensor<3xf32>) {
  %c = graph.constant dense<[-8.0, -7.0, -6.0]> : tensor<3xf32>
  %r = graph.mul %x, %y : tensor<f32>, tensor<f32> -> tensor<f32>
  %s = graph.add %x, %c : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
  return %r, %s : tensor<f32>, tensor<3xf32>
}

func.func @bool_ops(%c: tensor<4xi1>, %d: tensor<4xi1>) -> (tensor<4xi1>, tensor<8xi1>, tensor<4xi1>) {
  %s = graph.select %c, %d, %c : tensor<4xi1>, tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %k = graph.concat %c, %d axis = 0 : tensor<4xi1>, tensor<4xi1> -> tensor<8xi1>
  %l = graph.compare lt, %c, %d : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return %s, %k, %l : tensor<4xi1>, tensor<8xi1>, tensor<4xi1>
}
func.func @log_subnormal(%x: tensor<17xf32>) -> tensor<17xf32> {
  %0 = graph.log %x : tensor<17xf32> -> tensor<17xf32>
  return %0 : tensor<17xf32>
}
