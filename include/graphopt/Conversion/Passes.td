//===- Passes.td - graphopt conversion passes ---------------*- tablegen -*-===//

#ifndef GRAPHOPT_CONVERSION_PASSES_TD
#define GRAPHOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalgPass : Pass<"convert-graph-to-linalg"> {
  let summary = "Lower graph ops to linalg, tensor and arith on tensors";
  let description = [{
    Lowers every `graph` op to destination-passing-style ops on tensors:
    `linalg` named ops where they exist (matmul, batch_matmul, transpose,
    broadcast, reduce, fill), `linalg.generic` for broadcasting elementwise
    ops, and `tensor` ops for reshapes, slices and concatenation.
    Convolutions with `groups = 1` become matmuls (so they use the tiled
    matmul kernel), image by image for a static batch: stride-1 f32 ones
    one matmul per kernel tap on shifted slices of the padded, flattened
    image (an implicit GEMM, which the CPU code generation turns into a
    direct kernel), stride-2 ones with outputs at least 56 wide (stems) the
    same over the input's four phase images (one copy the size of the
    input, each tap a stride-1 slice of one phase), others an im2col copy
    and one matmul, with the pixels as
    the matmul's rows when they are few and the channels many; depthwise and
    grouped ones linalg's convolution ops; pooling linalg's pooling ops.
    With `winograd`, 3x3 stride-1 f32 convolutions with constant weights
    and enough channels and pixels are Winograd F(2x2, 3x3) instead: the
    weights transformed at compile time, the input's phase images
    transformed into 16 [C, tiles] matrices, 16 matmuls, one op for the
    four output phases, and their interleave (Winograd.cpp). `graph.if` becomes
    `scf.if` and `graph.loop` `scf.while`; a `graph.gather` whose rank-0
    index the host knows (the loop's counter, a constant) a slice at that
    offset, read in place (a recurrent loop's step input). `fusion.custom_call` becomes a
    call of the kernel's C interface on buffers. Composite ops are first expanded
    with the `graph-decompose` patterns. Fails, naming the op, when an op
    cannot be lowered.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
    "::mlir::scf::SCFDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect", "::mlir::func::FuncDialect"
  ];
  let options = [
    Option<"winograd", "winograd", "bool", /*default=*/"false",
           "3x3, stride-1 f32 convolutions with constant weights, at least "
           "16 input and output channels and 8 output tiles of 2x2 pixels "
           "per image, as Winograd F(2x2, 3x3): 16 matmuls over the "
           "transformed input with the weights transformed at compile time, "
           "2.25x fewer multiplications (rounding differs from the direct "
           "convolution's at the 1e-6 level)">
  ];
}

def GraphSignlessPass : Pass<"graph-signless", "::mlir::ModuleOp"> {
  let summary = "Make unsigned integer graph types signless for lowering";
  let description = [{
    The code below the graph dialect (arith, linalg, memref) works on
    signless integers. Every `ui8` ... `ui64` tensor type (results, block
    arguments, function signatures, constants: the same bits) becomes `i8`
    ... `i64`, and the graph ops whose meaning depends on the signedness --
    compare, div, rem, max, min, abs, relu, clamp, reduce max/min, argmax,
    max_pool2d, scatter max/min and casts from an unsigned type -- get the
    `graph.unsigned` attribute (a cast to an unsigned type
    `graph.unsigned_result`), from which `convert-graph-to-linalg` picks the
    unsigned arith ops (`arith.cmpi ult`, `divui`, `maxui`, `extui`,
    `uitofp`, `fptoui`, ...). Runs just before `convert-graph-to-linalg`,
    after the graph-level optimizations, which see the unsigned types.
  }];
}

def ConvertFusionAttentionPass : Pass<"convert-fusion-attention"> {
  let summary = "Lower fusion.attention to a tiled online-softmax (flash "
                "attention) loop nest";
  let description = [{
    Rewrites every `fusion.attention` into `scf.for` loops over the batch,
    over blocks of `block-rows` query rows and over blocks of `block-cols`
    key/value positions, with `linalg` ops on tensors inside, so that the
    `[L, S]` score matrix is never materialized: each key/value block
    computes a transposed `[Bc, Br]` score tile `K_blk (Q_blk * scale)^T`
    with `linalg.matmul` (the query block is scaled and transposed once;
    keys down, queries across, so that the row statistics are vector max
    and add over rows of the tile, not horizontal reductions per query
    row), applies the mask (transposed once to match), and updates a
    running row max, a running row sum and the `[Br, Dv]` output
    accumulator (online softmax), which a second `linalg.matmul` (with
    transposed-A maps: `P^T` is its left operand) accumulates `P V` into;
    the result rows are `O / l`.

    Every block has a static shape, so `graph-cpu-tile-and-vectorize`
    register-blocks both matmuls and vectorizes the softmax arithmetic.
    Lengths the blocks do not divide are padded (static lengths get blocks
    that split them evenly: L = 77 runs two blocks of 40 rows); padded keys
    are masked with -inf and padded rows never written. With `causal`, key
    blocks above the diagonal are skipped and only the blocks crossing it
    compute the index mask. f16/bf16 attention computes in f32. A boolean
    mask is converted to i8 once, so that the blocks reading it vectorize
    (i1 tensors are not vectorized).

    Ops it cannot lower (a default scale with a dynamic head dim, a mask that
    broadcasts the batch dims) are left for `fusion-expand`. The patterns
    are public (`populateFusionAttentionLoweringPatterns`).
  }];
  let options = [
    Option<"blockRows", "block-rows", "int64_t", /*default=*/"64",
           "Query rows per block (Br)">,
    Option<"blockCols", "block-cols", "int64_t", /*default=*/"64",
           "Key/value positions per block (Bc)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
  let statistics = [
    Statistic<"numLowered", "lowered-attentions",
              "fusion.attention ops lowered to the flash loop nest">
  ];
}

#endif // GRAPHOPT_CONVERSION_PASSES_TD
