// Operator fusion keeps fused intermediates out of full-size buffers. After
// bufferization of the CPU pipeline:
//  - @mlp: matmul + bias + GELU is one output group; the matmul's register
//    blocks get bias and GELU before their one store, into the result: no
//    tile buffer, the only 256x4096 buffer is the result (besides the
//    packed operands).
//  - @softmax: exp -> softmax -> relu is one input group tiled by 16 rows:
//    the intermediates are 16x1024 tiles, the only 64x1024 buffer is the
//    result.
//  - @conv1x1: a 1x1 convolution (a matmul on the [C, H*W] image) with its
//    bias and ReLU is one output group: the reshape to NCHW is moved past
//    the epilogue (fusion-tile-and-fuse), so the matmul is fused into the
//    epilogue's tile loop, and the epilogue is applied to its register
//    blocks: no tile buffer, the only full-size buffer is the result.
// With --fuse=false (fuse-elementwise=false) every op gets its own buffer.
// RUN: graph-opt %s --graph-cpu-pipeline --mlir-print-ir-after=one-shot-bufferize -o /dev/null 2>&1 | FileCheck %s
// RUN: graph-opt %s --graph-cpu-pipeline="fuse-elementwise=false" --mlir-print-ir-after=one-shot-bufferize -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNFUSED

// CHECK-LABEL: func.func @mlp
// CHECK-COUNT-1: memref.alloc() {{.*}} : memref<256x4096xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<256x{{.*}}xf32>
// CHECK: scf.if {{.+}} -> (vector<8x32xf32>)
// CHECK-NOT: memref.alloc() {{.*}} : memref<256x{{.*}}xf32>
// CHECK-LABEL: func.func @softmax
// CHECK-COUNT-1: memref.alloc() {{.*}} : memref<64x1024xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<64x1024xf32>
// CHECK: memref.alloc() {{.*}} : memref<16x1024xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<64x1024xf32>
// CHECK-LABEL: func.func @conv1x1
// CHECK: memref.alloc() {{.*}} : memref<256x3136xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<{{.*}}x56x56xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<1x256x3136xf32>
// CHECK: scf.for {{.*}} step %c224
// CHECK-NOT: memref.alloc() {{.*}} : memref<256x224xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<{{.*}}x56x56xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<1x256x3136xf32>
// CHECK: return

// UNFUSED-LABEL: func.func @mlp
// UNFUSED-COUNT-3: memref.alloc() {{.*}} : memref<256x4096xf32>

func.func @mlp(%x: tensor<256x1024xf32>, %w: tensor<1024x4096xf32>, %b: tensor<4096xf32>) -> tensor<256x4096xf32> {
  %m = graph.matmul %x, %w : tensor<256x1024xf32>, tensor<1024x4096xf32> -> tensor<256x4096xf32>
  %a = graph.add %m, %b : tensor<256x4096xf32>, tensor<4096xf32> -> tensor<256x4096xf32>
  %g = graph.gelu %a : tensor<256x4096xf32> -> tensor<256x4096xf32>
  return %g : tensor<256x4096xf32>
}

func.func @softmax(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %e = graph.exp %x : tensor<64x1024xf32> -> tensor<64x1024xf32>
  %s = graph.softmax %e axis = 1 : tensor<64x1024xf32> -> tensor<64x1024xf32>
  %r = graph.relu %s : tensor<64x1024xf32> -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}

// UNFUSED-LABEL: func.func @conv1x1
// UNFUSED: memref.alloc() {{.*}} : memref<256x3136xf32>
// UNFUSED: memref.alloc() {{.*}} : memref<1x256x56x56xf32>
// UNFUSED: memref.alloc() {{.*}} : memref<1x256x56x56xf32>
func.func @conv1x1(%x: tensor<1x64x56x56xf32>, %w: tensor<256x64x1x1xf32>, %b: tensor<256xf32>) -> tensor<1x256x56x56xf32> {
  %c = graph.conv2d %x, %w, %b : (tensor<1x64x56x56xf32>, tensor<256x64x1x1xf32>, tensor<256xf32>) -> tensor<1x256x56x56xf32>
  %r = graph.relu %c : tensor<1x256x56x56xf32> -> tensor<1x256x56x56xf32>
  return %r : tensor<1x256x56x56xf32>
}
