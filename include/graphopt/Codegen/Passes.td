//===- Passes.td - graphopt code generation passes ----------*- tablegen -*-===//

#ifndef GRAPHOPT_CODEGEN_PASSES_TD
#define GRAPHOPT_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphCPUTileAndVectorizePass : Pass<"graph-cpu-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile linalg ops on tensors for the CPU caches and registers, then vectorize";
  let description = [{
    Matmul-class ops are tiled into register blocks of `mr x nr` (rows x
    vector-width multiples) with a unit reduction step, vectorized, and the
    accumulator tile is hoisted out of the reduction loop, so that the inner
    loop becomes broadcasts and FMAs. Elementwise and reduction ops are tiled
    so that the innermost dimension is a multiple of the vector width and
    vectorized; tile sizes are divisors of static sizes, so no tile is partial,
    and dynamic sizes stay scalar. Ops it cannot handle are left for the
    loop lowering and counted in a statistic.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "Elements of f32 per SIMD register to target (16: AVX-512, 8: AVX2)">,
    Option<"matmulTileM", "matmul-tile-m", "int64_t", /*default=*/"8",
           "Rows of the matmul register tile">,
    Option<"matmulTileNVectors", "matmul-tile-n-vectors", "int64_t", /*default=*/"2",
           "Columns of the matmul register tile, in vectors">
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::tensor::TensorDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect"
  ];
  let statistics = [
    Statistic<"numVectorized", "vectorized-ops", "linalg ops vectorized">,
    Statistic<"numNotVectorized", "not-vectorized-ops", "linalg ops left to the scalar loop lowering">
  ];
}

def GraphFuseElementwisePass : Pass<"graph-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise linalg producers into their consumers, "
                "keeping contractions and convolutions recognizable";
  let description = [{
    Upstream `linalg-fuse-elementwise-ops` (producer-consumer fusion of
    elementwise `linalg.generic`s, reshape propagation, constant folding)
    with one rule added: nothing is fused *into* a contraction or a
    convolution. Fusing an im2col copy or a transpose into a matmul would
    turn it into a generic loop nest that `graph-cpu-tile-and-vectorize` no
    longer recognizes as a matmul, losing the register-blocked kernel.
    A producer is fused only into its single user (no recomputation).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def GraphEmitCInterfacePass : Pass<"graph-emit-c-interface", "::mlir::ModuleOp"> {
  let summary = "Mark public functions for a C-callable _mlir_ciface_ wrapper";
  let description = [{
    Sets `llvm.emit_c_interface` on every public function with a body, so that
    `convert-func-to-llvm` emits `_mlir_ciface_NAME`, taking and returning
    memrefs as pointers to descriptors, and marks their tensor arguments
    `bufferization.writable = false` so that the caller's input buffers are
    never written. This is the ABI `graph-run` and the runtime library call.
  }];
}

def GraphApproximateMathPass : Pass<"graph-approximate-math"> {
  let summary = "Replace transcendental math ops by polynomial approximations";
  let description = [{
    Rewrites `math.exp`, `math.tanh`, `math.erf`, `math.log` (and the ops
    expanded from them) on f32 scalars and vectors into polynomial
    approximations made of arith ops, so that vector code stays vectorized
    instead of calling libm once per lane. Accuracy is that of upstream's
    approximations (a few ulp for f32).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect"];
}

def GraphSetTargetPass : Pass<"graph-set-target", "::mlir::ModuleOp"> {
  let summary = "Set the target CPU and features on every LLVM function";
  let description = [{
    Sets `target_cpu` and `target_features` on every `llvm.func`, so that
    `mlir-translate --mlir-to-llvmir` followed by `llc` (or any LLVM backend)
    generates code for that CPU without further flags. `cpu=host` and
    `features=host` read the machine this runs on.
  }];
  let options = [
    Option<"cpu", "cpu", "std::string", /*default=*/"\"\"",
           "Target CPU name (e.g. x86-64-v4, znver4, host); empty: unset">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Comma-separated LLVM features (e.g. +avx2,+fma) or host; empty: unset">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GraphGPUMapReductionsPass : Pass<"graph-gpu-map-reductions", "::mlir::func::FuncOp"> {
  let summary = "Map row reductions on memrefs to one warp per row with shuffle "
                "reductions";
  let description = [{
    Runs on bufferized IR (linalg on memrefs, host functions) before the
    generic loop-to-GPU mapping. Each `linalg.generic` that reduces along its
    innermost loop with a single recognized combiner (`arith.addf`, `mulf`,
    `maximumf`, `maxnumf`, `minimumf`, `minnumf`, `addi`, `muli`, `andi`,
    `ori`, `xori`, `maxsi`, `minsi`, `maxui`, `minui`) on 32-bit elements
    (f32, i32) becomes a `gpu.launch` with one warp (32 lanes) per output
    row and `warps-per-block` warps per block. Each lane folds the generic's
    body (including fused elementwise producers such as `exp(x - max)`) over
    elements `lane, lane + 32, ...` of its row, starting from the
    combiner's neutral element; the warp then combines the 32 partial
    values with a `gpu.shuffle xor` butterfly (offsets 16, 8, 4, 2, 1), and
    lane 0 combines the result with the output's initial value and stores
    it. The row guard depends only on the block and warp ids, so every lane
    of a warp takes the same branch and the shuffles are convergent.

    Not matched (left to the default path): several outputs, a reduction
    loop that is not the innermost loop or not the innermost index of every
    input that reads along it (lanes would not read consecutive elements),
    a reduction extent of 1, other element types (gpu.shuffle is 32-bit),
    non-projected-permutation indexing maps, and bodies whose output value
    is used other than once as an operand of the final combiner.
  }];
  let options = [
    Option<"warpsPerBlock", "warps-per-block", "unsigned", /*default=*/"4",
           "Warps (rows) per thread block; blockDim = 32 x warps-per-block">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"
  ];
}

#endif // GRAPHOPT_CODEGEN_PASSES_TD
