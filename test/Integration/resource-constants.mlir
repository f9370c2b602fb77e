// Constants given as `dense_resource<NAME>` with their data in the file's
// dialect_resources section (MLIR's out-of-band form; the Python importer
// passes weights this way, with the data handed over in memory) are made
// ordinary dense constants before the passes run. Values worked out by hand:
// w0 = [1, 2, 3, 4] (f32 0x3F800000 ...), x = 10 everywhere.
// RUN: graph-run %s --entry=add --input=2x2xf32=10 --expected-output=2x2xf32=11,12,13,14 --quiet | FileCheck %s --check-prefix=ADD
// The same data through a matmul: [[10,10],[10,10]] x [[1,2],[3,4]].
// RUN: graph-run %s --entry=mm --input=2x2xf32=10 --expected-output=2x2xf32=40,60,40,60 --quiet | FileCheck %s --check-prefix=ADD
// i1 resources hold one byte per element.
// RUN: graph-run %s --entry=select --input=4xf32=1,2,3,4 --expected-output=4xf32=1,0,0,4 --quiet | FileCheck %s --check-prefix=ADD
// ADD: result 0: matches expected

func.func @add(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c = graph.constant dense_resource<w0> : tensor<2x2xf32>
  %y = graph.add %x, %c : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

func.func @mm(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c = graph.constant dense_resource<w0> : tensor<2x2xf32>
  %y = graph.matmul %x, %c : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

func.func @select(%x: tensor<4xf32>) -> tensor<4xf32> {
  %m = graph.constant dense_resource<mask> : tensor<4xi1>
  %z = graph.constant dense<0.0> : tensor<4xf32>
  %y = graph.select %m, %x, %z : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F000000400000404000008040",
      mask: "0x0100000001000001"
    }
  }
#-}
