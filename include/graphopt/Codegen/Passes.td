//===- Passes.td - graphopt code generation passes ----------*- tablegen -*-===//

#ifndef GRAPHOPT_CODEGEN_PASSES_TD
#define GRAPHOPT_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphCPUTileAndVectorizePass : Pass<"graph-cpu-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile linalg ops on tensors for the CPU caches and registers, then vectorize";
  let description = [{
    Counted `scf.while` loops (a recurrent model's steps) first become
    `scf.for` loops, whose carried state one-shot bufferization updates in
    place. Matmul-class ops are tiled into register blocks of `mr x nr` (rows x
    vector-width multiples) with a unit reduction step, vectorized, and the
    accumulator tile is hoisted out of the reduction loop, so that the inner
    loop becomes broadcasts and FMAs. Large f32 matmuls are first packed and
    cache-blocked (`pack-matmuls`, `l1-cache-bytes`; CPUMatmul.h): B into
    [N/nr][K][nr] panels, A into [M/mr][K][mr] micro-panels, constants at
    compile time, and blocked so that an A micro-panel stays in L1 while
    the B panels stream past it (or, for few rows of A against a B larger
    than L2, a B panel stays in L1 while A's micro-panels pass). Chains of convolution-tap matmuls
    (stride-1 convolutions with constant weights) become a direct kernel
    that keeps the output block in registers across all taps (CPUConv.h):
    over the padded rows flattened (the padded columns computed and
    dropped; blocks of 8 channels by 3 vectors with 32 vector registers,
    4 by 3 with 16), or, when the convolution has an elementwise epilogue (bias,
    residual, activation) and its rows hold a 2 x vector-width block, row
    by row with the epilogue applied in registers and the final values
    stored once; that form is chosen when it computes at most 5% more
    columns than the padded rows, or when the convolution is short (at
    most 64 products per output: its stores dominate). A 2x2, stride-2
    max pooling of such an epilogue is fused into the same kernel.
    Depthwise convolutions and pooling windows run in blocks of 4 output
    rows, each row in vector-width chunks whose accumulators stay in
    registers while every input row the block needs is read once per tap
    column (stride 2 by shuffles); a zero (or, for max pooling, -inf)
    padding of the input is read through rather than materialized, a
    per-channel bias starts the accumulators, and a lane-wise consumer (an
    activation) is applied before the one store. Elementwise and reduction
    ops are tiled so that the innermost dimension is a multiple of the
    vector width and vectorized; tile sizes are divisors of static sizes, so
    no tile is partial, and dynamic sizes stay scalar. A padding still
    materialized (a padded image the direct convolution kernel reads) fills
    only its border. Ops it cannot handle are left for the loop lowering and
    counted in a statistic.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "Elements of f32 per SIMD register to target (16: AVX-512, 8: AVX2)">,
    Option<"matmulTileM", "matmul-tile-m", "int64_t", /*default=*/"0",
           "Rows of the matmul register tile (0: by the vector registers: 8 with AVX-512's 32, 6 with AVX2's 16)">,
    Option<"matmulTileNVectors", "matmul-tile-n-vectors", "int64_t", /*default=*/"2",
           "Columns of the matmul register tile, in vectors">,
    Option<"packMatmuls", "pack-matmuls", "bool", /*default=*/"true",
           "Pack large f32 matmuls' operands into contiguous panels and block them for the caches (an A micro-panel in L1, a block of B panels in L2; a constant operand is packed at compile time)">,
    Option<"fuseMatmulEpilogues", "fuse-matmul-epilogues", "bool", /*default=*/"true",
           "Apply a matmul's lane-wise consumer (bias, activation, residual add in the same fused tile) to each register block before its one store, writing the consumer's output directly (off: the matmul's block is stored and the consumer reads it back)">,
    Option<"l1CacheBytes", "l1-cache-bytes", "int64_t", /*default=*/"0",
           "L1 data cache per core that matmul blocking plans for (0: the host's)">,
    Option<"l2CacheBytes", "l2-cache-bytes", "int64_t", /*default=*/"0",
           "L2 cache per core that matmul blocking plans for (0: the host's)">,
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "Threads the code will run on (graph-cpu-parallelize splits the outermost parallel loop among them): above 1, a packed matmul with one column block whose A has fewer rows than B has columns loops over the column panels outside the row micro-panels, so that each thread reads only its panels of B">
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::tensor::TensorDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect"
  ];
  let statistics = [
    Statistic<"numVectorized", "vectorized-ops", "linalg ops vectorized">,
    Statistic<"numNotVectorized", "not-vectorized-ops", "linalg ops left to the scalar loop lowering">,
    Statistic<"numPacked", "packed-matmuls", "matmuls with packed B panels and cache blocking">,
    Statistic<"numDirectConvs", "direct-convs", "chains of convolution-tap matmuls replaced by the direct kernel">,
    Statistic<"numEpilogues", "matmul-epilogues", "lane-wise consumers applied in the matmul register kernel">,
    Statistic<"numRowStreamed", "row-streamed-matmuls", "single-row matmuls (matrix-vector products) that stream B's rows in order">
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
    A producer is fused only into its single user (no recomputation). A
    reshape that splits one dim into several dynamic ones is not propagated
    through the ops around it (their operands would need reshapes that
    MLIR 22's `expand-strided-metadata` cannot lower). A `linalg.transpose`
    of an f32 constant (a weight laid out for a matmul) is folded from the
    raw floats; upstream's folder, which takes an `APFloat` per element
    (0.24 s for ResNet-50's three transposed weights, 0.6 s for a BERT-base
    layer's), folds the other element types.
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

def GraphGPUDeviceBuffersPass : Pass<"graph-gpu-device-buffers", "::mlir::ModuleOp"> {
  let summary = "Make the host side of outlined GPU code use device memory";
  let description = [{
    Runs on host functions after `gpu-kernel-outlining`, when every compute
    op is inside a kernel: the buffers the host code allocates become device
    buffers (`memref.alloc`/`dealloc` -> `gpu.alloc`/`gpu.dealloc`), copies
    between buffers become `gpu.memcpy`, and each constant
    (`memref.get_global`) is replaced by the runtime's device copy of it
    (a call of `graphopt_cuda_constant_<type>` from libGraphOptCUDARuntime,
    which uploads it on first use and caches it). Function arguments and
    results are device buffers: that is the calling convention of the CUDA
    target.

    Host code that would read or write device memory itself (a
    `memref.load`/`store`, e.g. from data-dependent control flow) and copies
    of strided views are reported as errors naming the op: they are not
    supported by the CUDA target yet.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def GraphGPUCopiesToLinalgPass : Pass<"graph-gpu-copies-to-linalg", "::mlir::func::FuncOp"> {
  let summary = "Turn copies of strided views into linalg.copy (GPU kernels)";
  let description = [{
    Bufferization copies into and out of strided views (`memref.copy` for
    pad, concat, slices). On the CUDA target such a copy must run on the
    device: this pass rewrites each `memref.copy` whose source or target is
    not contiguous into `linalg.copy`, which becomes a parallel loop nest and
    a kernel like any other linalg op. Copies of whole contiguous buffers
    stay `memref.copy` and become `gpu.memcpy` (graph-gpu-device-buffers).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GraphGPUCollapseElementwisePass : Pass<"graph-gpu-collapse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Merge the contiguous dims of the generic CUDA kernels' loop nests";
  let description = [{
    Runs on bufferized host functions of the CUDA target before linalg ops
    become parallel loops (and then kernels). An all-parallel
    `linalg.generic` on buffers (an elementwise chain, a broadcast, a
    copy) has its iteration dims merged wherever consecutive dims are
    consecutive, in the same order, in every operand that reads them, and
    contiguous in memory there (`memref.collapse_shape` views): an add of
    two [4, 12, 197, 197] tensors becomes one loop over 1862832 elements,
    a bias add [N, C, H, W] + [C, 1, 1] a loop nest [N, C, H * W]. The
    kernels then index with fewer divisions, leave no lanes idle on a
    short innermost dim (7 in a 7 x 7 feature map filled 8 lanes of 8 x 8
    blocks), and take 16-byte vectors (graph-gpu-vectorize-loops) wherever
    the merged innermost extent is a multiple of the vector (197 is not;
    197 * 197 * 48 is). Ops inside kernels, with reductions, or whose maps
    are not projected permutations are left as they are.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numCollapsed", "collapsed-ops", "linalg ops whose dims were merged">
  ];
}

def GraphGPUSerialKernelsPass : Pass<"graph-gpu-serial-kernels", "::mlir::func::FuncOp"> {
  let summary = "Run sequential work on tensor data as one-thread kernels";
  let description = [{
    Runs on bufferized host functions of the CUDA target before linalg ops
    become parallel loops. Work without parallel loops would stay on the
    host, which cannot touch device memory: linalg ops with no parallel
    dimension (a reduction of a whole tensor to a scalar, a dot product, a
    0-d computation) and top-level sequential loops and stores over tensor
    data (`scf.for`, e.g. cumsum). Each such op without results,
    allocations, calls, GPU ops or parallel linalg ops inside is wrapped in
    a `gpu.launch` of one block of one thread, so that it runs on the
    device. Correct but sequential: a fallback for what the kernel
    generators do not cover.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def GraphGPUAlignSharedMemoryPass : Pass<"graph-gpu-align-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare the kernels' dynamic shared memory as such, aligned to 128 bytes";
  let description = [{
    `convert-gpu-to-nvvm` lowers `gpu.dynamic_shared_memory` (which
    graph-gpu-matmul's shared tiles are views of) to an *internal*
    zero-length array global in the shared address space, aligned to 16
    bytes. LLVM's NVPTX backend "demotes" such a global into the kernel
    as `.shared .align 16 .b8 NAME;`: a one-byte static variable that the
    kernel indexes far past, relying on the dynamic shared memory being
    placed right after it; and WMMA fragment loads need 32-byte aligned
    addresses. This pass makes every such global (address space 3, a
    zero-length array, no initializer) external, which NVPTX declares as
    `.extern .shared .align A .b8 NAME[]`, the launch's dynamic shared
    memory, and raises its alignment to `alignment` bytes (default 128).
    Other globals are left as they are.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"128",
           "Alignment in bytes (a power of two, at least 16)">,
  ];
  let statistics = [
    Statistic<"numAligned", "aligned", "Dynamic shared memory symbols aligned">,
  ];
}

def GraphGPUSimplifyTileBoundsPass : Pass<"graph-gpu-simplify-tile-bounds", "::mlir::func::FuncOp"> {
  let summary = "Fold constants into the bounds of tiled parallel loops";
  let description = [{
    `scf-parallel-loop-tiling` bounds each inner (thread) loop by an
    `affine.min` of the tile size, passed as an operand, and the remaining
    extent; `convert-parallel-loops-to-gpu` needs a constant among the
    min's results to size the thread block. This pass folds constants into
    `affine.min`/`affine.max`/`affine.apply` maps and folds arith constants,
    and nothing else: unlike `canonicalize` it never merges the block and
    thread loop levels or removes a one-iteration level, either of which
    would lose the thread mapping.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def GraphGPUTileParallelLoopsPass : Pass<"graph-gpu-tile-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Tile parallel loop nests into blocks of threads";
  let description = [{
    Splits every outermost `scf.parallel` into a loop over blocks and a
    loop over the threads of one block, with a block shape chosen from the
    loop's rank and extents: a 1-D loop gets `block-size` threads; a loop of
    rank >= 2 gets the innermost dim as x (up to 32 lanes, so that a warp
    reads consecutive addresses) and the next dim as y, filling
    `block-size` threads; outer dims get one thread each. The thread loop
    has constant bounds, with an in-bounds check inside, so that
    `gpu-map-parallel-loops{mapping-policy=innermost-first}` and
    `convert-parallel-loops-to-gpu` can size the launch. The loop over
    blocks is collapsed into one dimension (a 1-D grid, delinearized in the
    kernel): grid y and z are limited to 65535 blocks, x to 2^31 - 1. A
    block has three thread dims: the thread loop of a rank >= 4 nest has
    its outer dims (all but the last two) collapsed into one, so that the
    innermost dim stays x (otherwise it became a sequential loop in each
    thread, and a warp's lanes read elements a row apart).

    A loop with more than `max-blocks` blocks becomes a grid-stride loop:
    the grid has `max-blocks` blocks and each thread runs the body for
    blocks g, g + G, g + 2G, ... (an `scf.for` inside the thread loop), so
    that large tensors do not launch millions of short-lived blocks and the
    per-thread set-up is shared by several vectors. The default, 4224, is
    32 blocks per SM of an H100 or H200 (132 SMs): four full waves at 8
    resident blocks of 256 threads. 0 keeps one block per tile.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
    Option<"maxBlocks", "max-blocks", "int64_t", /*default=*/"4224",
           "Blocks of a grid-stride elementwise kernel (0: no grid-stride loop)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def GraphGPULaunchToLoopsPass : Pass<"graph-gpu-launch-to-loops", "::mlir::ModuleOp"> {
  let summary = "Run gpu.launch bodies as sequential loops on the host (testing)";
  let description = [{
    A testing aid for the CUDA target on machines without a GPU: every
    `gpu.launch` becomes six nested `scf.for` loops (grid z, y, x, then
    block z, y, x) running its body once per thread, in order. This is
    exact for kernels whose threads do not communicate: the generic
    elementwise and copy kernels (`graph-gpu-tile-parallel-loops` and the
    upstream mapping) and the one-thread kernels
    (`graph-gpu-serial-kernels`).

    Warp kernels (`graph-gpu-map-reductions`, `graph-gpu-row-kernels`) are
    emulated warp by warp, the lanes in lockstep at their shuffles:
    blockDim.x must be 32 (the lanes), the shuffles (width 32; xor, down,
    up or idx) must sit in one block -- the launch body, or the then-block
    of one `scf.if` that is last in the body and follows only pure ops (the
    ids and the row guard, which those kernels make uniform across a warp:
    it is evaluated for lane 0). The loops then run over the grid and over
    blockDim.z and y (the warps); the block's ops between two shuffles run
    as a loop over the 32 lanes (the pure ops before the branch recomputed
    per lane), values used past a shuffle kept per lane in 32-element
    buffers (`memref.alloca` before the loops); a shuffle is a loop that
    reads its operand's buffer at the source lane (its own lane, with
    `valid` false, when the source is outside the warp).

    Kernels with barriers, shared memory or tensor-core fragments (the
    matmul kernels of `graph-gpu-matmul`, the attention kernel) are
    emulated block by block, the
    block's threads in lockstep at the barriers: the ops between two
    barriers run as one loop over the threads (blockDim must be constant);
    a barrier inside an `scf.for` (the K loop) makes that loop run once per
    block, with thread 0's bounds, its carried values and results kept per
    thread; values used past a barrier are kept per thread in buffers of
    blockDim elements (`memref.alloc` before the loops) or, for pure ops,
    computed again. Dynamic shared memory and workgroup attributions become
    one host buffer per launch. `gpu.subgroup_mma_*` fragments become
    vectors of rows x cols elements computed by each warp's lane 0 in
    scalar loops (loads and stores honour `transpose`; the leading
    dimension must be the memref's row stride; products summed in the
    accumulator's type); the other lanes skip them. `nvvm.mma.sync`
    (m16n8k16 bf16 or m16n8k8 tf32, row.col, f32; warp-collective) meets
    the warp's lanes like a barrier: warp by warp, the lanes' registers are
    gathered into A, B and C tiles by the PTX fragment layout, D = A B + C
    is summed in f32, and each lane gets its 4 results. `nvgpu.ldmatrix`
    (warp-collective too) gathers the lanes' row addresses, then gives
    each lane its registers by the PTX layout of `ldmatrix` (and
    `.trans`). In such a kernel a `gpu.shuffle` (width 32) is a
    warp-collective point too: the lanes' values are gathered, then each
    lane reads its source lane's. `nvvm.wgmma.mma_async` (m64nNk16, f16 or
    bf16, f32 accumulators; warpgroup-collective) meets a warpgroup's 128
    threads: their accumulators are gathered by the PTX layout, A and B
    are read from the emulated shared memory through their matrix
    descriptors (start address, leading and stride byte offsets, 128-byte
    swizzle applied to the address bits, as the PTX ISA defines them; other
    swizzle modes fail a run-time check), D = A B + C is summed in f32; its
    fences, commits and waits go. Asynchronous copies
    (`nvgpu.device_async_copy`) run at once (their groups and waits go), so
    a missing wait goes unnoticed. The wgmma kernel's TMA copies
    (`nvvm.cp.async.bulk.tensor`, tile mode) and mbarrier ops (init,
    arrive.expect_tx, try_wait.parity) become calls of
    libGraphOptCUDARuntime's emulations (`graphoptEmu*`, declared in the
    module): a copy reads the box through the emulated driver's tensor map
    (elements outside the tensor zero, the 128-byte swizzle on the shared
    address bits) at once and counts down its barrier's transaction bytes;
    a wait on a phase that has not completed stops the program with a
    message (on a GPU the kernel would hang).

    Reported as errors: in a warp kernel, shuffles outside the one block
    described above; in a block-emulated kernel, a shuffle narrower than
    the warp; barriers, mma.sync, ldmatrix or shuffles inside a branch or
    a loop other than `scf.for`, collective reductions (`gpu.all_reduce`,
    `gpu.subgroup_reduce`), elementwise fragment ops, and values of other
    than scalar or 1-D vector type carried across a barrier.
    `graph-compile-pipeline{target=cuda cpu-emulation=true}` uses it in
    place of outlining and device code generation (graph-run
    `--cuda-emulate`).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def GraphGPUParallelDimsFirstPass : Pass<"graph-gpu-parallel-dims-first", "::mlir::func::FuncOp"> {
  let summary = "Order linalg.generic loops parallel dims first, for GPU kernels";
  let description = [{
    Interchanges the loops of every `linalg.generic` on memrefs whose
    reduction dims come before parallel ones (a reduction over an outer
    axis: batch-norm statistics, column sums, cumsum's scan) so that the
    parallel dims are outermost, in their order. `convert-linalg-to-parallel-
    loops` keeps the loop order, so otherwise the reduction becomes a host
    loop around a kernel launch per step; after the interchange it is one
    kernel in which each thread runs its reduction.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GraphCPUOutlineKernelsPass : Pass<"graph-cpu-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Move each top-level loop nest into a function of its own, identical ones shared";
  let description = [{
    A model lowers to one function whose body is a sequence of loop nests,
    one per fused kernel, and LLVM's optimizer and code generator are not
    linear in the size of a function (a 12-layer BERT-base encoder spent
    6.6 s in LLVM against 0.37 s for one layer). This pass moves every
    top-level loop nest (`scf.for`, `scf.parallel`, `scf.forall` without
    results, of at least `min-ops` operations) of a function with two or
    more of them into a private `noinline` function called in its place:
    the values the nest reads from outside become arguments, scalar and
    vector constants are cloned in. Kernels that are the same function under
    another name (a repeated layer, whose weights are arguments) are
    generated once and called from each place. Runs on memrefs, after
    bufferization.

    With `tensors`, it runs before bufferization, on the tiled and
    vectorized tensor program, so that bufferization and everything after
    it see each distinct kernel once (ResNet-50: 592 kernels, 88 distinct):
    the top-level loop nests with tensor results become functions that
    return them; their operands (the tensors they read and the tensors they
    write in place: destination-passing style) become arguments, weights
    included (so layers of one shape share a kernel), splat and scalar
    constants are cloned in. A nest that reads a `tensor.extract_slice`
    stays where it is: at the function boundary its buffer, a strided view,
    would be copied into a contiguous one. Bufferization then makes each
    result the buffer of its destination argument, and
    `drop-equivalent-buffer-results` drops it from the function.
  }];
  let options = [
    Option<"minOps", "min-ops", "int64_t", /*default=*/"8",
           "Smallest loop nest (operations, nested ones included) moved into a function">,
    Option<"tensors", "tensors", "bool", /*default=*/"false",
           "Outline loop nests with tensor results, before bufferization">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def GraphCPUExpandCopiesPass : Pass<"graph-cpu-expand-copies", "::mlir::func::FuncOp"> {
  let summary = "Expand strided memref.copy ops into loops the backend vectorizes";
  let description = [{
    A `memref.copy` between buffers that are not both contiguous becomes a
    call of the runtime library's generic `memrefCopy`, which walks the
    elements one by one through their descriptors: tens of cycles per
    element, and a call per copy. Bufferization emits such copies for
    slices written out of place (the columns of a split matmul, a 16-wide
    row of a packed panel, a dynamic concat's operands). This pass expands
    every such copy of rank >= 1 into a loop nest of loads and stores
    (dynamic bounds read from the source with `memref.dim`), whose
    innermost loop LLVM vectorizes and unrolls; compiled code then never
    calls `memrefCopy`, so ahead-of-time objects need only libc and libm.
    Contiguous copies are left alone: they become `memcpy`. The loops are
    marked parallel (`graphopt.parallel`): with threads, the CPU pipeline
    runs `graph-cpu-parallelize` again after this pass, so that a large
    copy (a convolution's input into the interior of its padded image)
    runs on every thread.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numExpanded", "expanded-copies", "strided copies expanded into loops">
  ];
}

def GraphCPUQuantizedMatmulPass : Pass<"graph-cpu-quantized-matmul", "::mlir::ModuleOp"> {
  let summary = "Products of dequantized 8-bit tensors as integer matmuls with AMX tiles or AVX-512 VNNI";
  let description = [{
    A QDQ model multiplies dequantized tensors, `matmul(dq(a), dq(w))` with
    `dq(x) = (x - zero_point) * scale` on 8-bit integers, which the
    importers write as graph ops (`mul(cast(sub(cast(x), zp)), scale)`).
    Where `w`'s integers minus its zero point are constants in [-128, 127]
    (2-D `[K, N]`, or `[N, K]` transposed as ONNX's Gemm with `transB`
    imports), both scales are the same along K (per tensor, per row
    of `a`, per column of `w`), `a`'s zero point is one integer, `a` has at
    most one dynamic dim before K, and the i32 sums cannot overflow, the
    matmul becomes

        (sum_k a[m, k] * w'[k, n] - (za + s) * colsum(w')[n]) * scale_a * scale_w

    (`s` = 128 for a signed `a`, 0 for an unsigned one): a `func.call` of
    an integer kernel, then a conversion to f32 and the two scales as graph
    ops, which fuse with what follows (the next QuantizeLinear). The sums
    are exact; the f32 product they replace rounded each term, so results
    differ from it by f32 rounding only.

    The kernel (`@__graphopt_int8_matmul_<M>x<K>x<N>_<rows>x<vectors>_<u|s>`,
    one per shape, shared) computes with `vpdpbusd` (AVX-512 VNNI: four
    products of an unsigned and a signed byte summed into each i32 lane,
    called as the declared function `@llvm.x86.avx512.vpdpbusd.512`, which
    LLVM takes for the intrinsic): the weights packed at compile time as
    [N/16][K/4][16 x 4] bytes, one 64-byte register per 16 columns and 4
    k values; each row's 4 bytes of `a` broadcast to every lane (a signed
    `a` with its sign bits flipped, which the correction undoes); a
    register block of up to 8 rows by 1-4 such registers whose
    accumulators start at the column correction. Runs only with `vnni`
    (the compile pipeline sets it when the target CPU has `avx512vnni`)
    or `avx2` (below); elsewhere the f32 product stays.

    With `avx2` and not `vnni` (the compile pipeline sets it with its
    option `int8-avx2`, off by default, when the target CPU has AVX2: for
    AMD Zen 1-3 or Intel before Ice Lake, which lack VNNI), the same
    kernels (`..._<rows>x<vectors>_avx2_<u|s>`) take
    each `vpdpbusd` as four `vpmaddwd` (`@llvm.x86.avx2.pmadd.wd`: 16-bit
    products summed in pairs into i32 lanes, exact since a byte times a
    byte fits in 16 bits; not `vpmaddubsw`, whose 16-bit pair sums
    saturate): `a` widened to 16 bits before the call (a signed `a` plus
    128, as VNNI's sign flip), each row's (a0, a1) and (a2, a3) broadcast
    as 32-bit words, the weights packed per 16 columns and 4 k values as
    four runs of 8 columns x 2 k values of 16-bit values, so that the
    products land in column order; blocks of 4
    rows x 16 columns (AVX2 has 16 registers). Off by default because it
    is not faster than the f32 kernels: `vpmaddwd` does 16 multiply-adds
    where an FMA does 8, but the i32 accumulation needs a `vpaddd` per
    `vpmaddwd` on the same ports (measured on an AVX-512 Xeon compiling
    for x86-64-v3: a 128 x 768 x 768 product 1.50 ms against 1.28 ms in
    f32). It gives exact integer sums and 2-byte weights.

    With `amx` (the compile pipeline sets it when the target CPU has
    `amx-tile` and `amx-int8` and, for the host, Linux grants the process
    the tile state), a matmul whose K is a multiple of 4 (and at most 32
    KiB: the kernel unrolls K) uses AMX tiles instead
    (`@__graphopt_int8_matmul_<M>x<K>x<N>_amx_<u|s>`): `a` padded with zeros
    to whole tiles (rows to a multiple of 16, K to one of 64), the weights
    packed as one 16 x 64-byte tile per 16 columns and 64 k values, blocks
    of 2 x 2 i32 accumulator tiles (32 x 32 outputs) loaded from the column
    corrections, `tdpbusd` for an unsigned `a` and `tdpbssd` for a signed
    one (no sign flip, so `s` = 0), and the padded result sliced back.
    Rows known at run time only (`<M>` is `d`; N a multiple of 16): whole
    tiles in place, the last M mod 16 rows through scratch tiles. The
    kernel first asks Linux for the tile state (`arch_prctl`, an inline
    system call, so ahead-of-time objects need no runtime library).
    Convolutions use AMX where the dilation along W is 1 (a kernel row's
    KW x C bytes are consecutive in the NHWC input: read as 64-byte
    chunks, the weights zero past them) or the channels are a multiple of
    64 (a chunk per tap); rows are strips of 16 output pixels along W (the
    whole row where it is narrower), the input's right padding widened so
    the last strip's reads stay inside.

    Also, with or without `vnni`: `max_pool2d(dq(x))` becomes
    `dq(max_pool2d(x))` where every scale is a positive constant, scale and
    zero point are the same along H and W (per tensor, per channel) and
    every window reaches the input (a window wholly in the padding gives
    -inf in f32). Dequantization is then increasing, so the results are
    equal; the pool reads 1-byte integers (graph-cpu-tile-and-vectorize's
    window kernel, 64 lanes of 8 bits with 512-bit vectors) and the
    dequantization of its smaller result fuses with the QuantizeLinear
    that usually follows.
  }];
  let options = [
    Option<"vnni", "vnni", "bool", /*default=*/"false",
           "The target has AVX-512 VNNI (vpdpbusd)">,
    Option<"amx", "amx", "bool", /*default=*/"false",
           "The target has AMX-INT8 tiles (tdpbusd/tdpbssd), usable by the process">,
    Option<"avx2", "avx2", "bool", /*default=*/"false",
           "The target has AVX2 (vpmaddwd); used where neither vnni nor amx is; "
           "with none of the three the pass rewrites pools only">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::amx::AMXDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numRewritten", "rewritten-matmuls", "Dequantized matmuls made integer kernels">,
    Statistic<"numRewrittenConvs", "rewritten-convolutions", "Dequantized convolutions made integer kernels">,
    Statistic<"numRewrittenPools", "rewritten-pools", "Max pools of dequantized values that pool the integers">
  ];
}

def GraphCPUPrefetchPass : Pass<"graph-cpu-prefetch", "::mlir::func::FuncOp"> {
  let summary = "Prefetch the next packed B panel into L2 while a matmul register block computes";
  let description = [{
    A packed matmul whose B is a constant (weights) reads B from memory on
    each call: the weights of a network do not stay in L2 between its
    layers. The first register block over each B panel then waits for
    memory at every k step, since the kernel consumes B faster than one
    core's share of memory bandwidth supplies it. graph-cpu-tile-and-vectorize
    marks the k loop of each register block that reads a packed B panel
    with the panel's row count (`graphopt.prefetch_panel_rows`); this pass
    adds, next to each B row read in such a loop, an L2 prefetch
    (`memref.prefetch`, locality 2) of the same row of the next panel, one
    per 64-byte line, so that memory is read while the current panel is
    computed. Prefetches past the last panel read nothing useful and never
    fault.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numPrefetched", "prefetched-reads", "B panel reads given a prefetch of the next panel">
  ];
}

def GraphCPUParallelizePass : Pass<"graph-cpu-parallelize", "::mlir::func::FuncOp"> {
  let summary = "Run the independent tiles of the CPU code on several threads";
  let description = [{
    Tiling marks the loops it creates over parallel dims (`graphopt.parallel`,
    graphopt/Codegen/Parallel.h): the column and row blocks of a packed
    matmul, the tiles of a fused group, the rows of an elementwise op, the
    blocks of the direct and depthwise convolutions. On buffers, right
    after bufferization (before buffer hoisting, so that each tile's
    temporaries stay private to it), this pass turns the outermost marked
    loop of each nest into an `scf.parallel` when it has a static trip count
    of at least 2 and enough work to pay for the threads (`min-work`: the
    estimated number of vector/scalar operations in the whole loop);
    `convert-scf-to-openmp` then runs it on `threads` threads of the OpenMP
    runtime. Nested marked loops stay sequential, as do marked loops inside
    an `scf.parallel` (the CPU pipeline runs the pass a second time after
    `graph-cpu-expand-copies`, whose copy loops hold no temporaries). With
    `threads=1` it only removes the marks. A buffer allocated outside the
    loop and used only inside it (a temporary whose `tensor.empty`
    bufferization placed before the loop, such as the score tile of a
    flash attention reused by every head) is moved into the loop, one per
    iteration (`temporaries-privatized`); before 2026-12-07 the iterations
    shared it, a data race (wrong attention results with 2 threads).
    Buffers also used outside the loop (its outputs, written in disjoint
    tiles; inputs computed before it) stay shared.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "Threads the parallel loops will run on (1: none parallelized)">,
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Smallest estimated work (operations, vectors counted per "
           "512-bit register) of a loop run in parallel">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numParallelized", "parallelized-loops",
              "loops turned into scf.parallel">,
    Statistic<"numPrivatized", "temporaries-privatized",
              "buffers allocated before a parallelized loop and used only "
              "in it, moved into it (one per iteration)">
  ];
}

def GraphCPUEarlyDeallocPass : Pass<"graph-cpu-early-dealloc", "::mlir::func::FuncOp"> {
  let summary = "Move each memref.dealloc up to right after the buffer's last use";
  let description = [{
    Ownership-based buffer deallocation frees the buffers a block allocates
    at the end of the block, so every intermediate of a model's host
    function lived until the call returned (ResNet-18: 404 buffers, 60 MB
    live at once). This pass moves each `memref.dealloc` of a buffer up to
    right after the last op of its block that uses the buffer or a view of
    it (subview, cast, reshape, transpose, ...; a use inside a loop or a
    branch is the use of the op that holds it), so that the allocator can
    hand the memory, still in cache, to the buffers allocated after it. A
    buffer that may flow into another value than a view (a result of a
    call, a loop or a branch, a yield, a return) keeps its dealloc where it
    is. Host code of the CPU pipeline only: on CUDA a kernel may still be
    running when the host reaches the next op.
  }];
}

def GraphFoldEmptyTensorsPass : Pass<"graph-fold-empty-tensors", "::mlir::func::FuncOp"> {
  let summary = "Replace tensors without elements computed by side-effect-free ops by tensor.empty";
  let description = [{
    A statically shaped tensor with a zero-size dim has nothing to compute.
    Every such result of a pure op, a `tensor.pad` or a `linalg` op on
    tensors becomes a `tensor.empty` of its type, and the op goes when
    nothing else uses it. Both pipelines run this just before one-shot
    bufferization: a shape can become static and empty late (a loop whose
    batch is 0 at run time, its one-trip loop folded after tiling), and a
    pad of such a tensor bufferizes into a subview at offset 0 of a
    zero-size dim, which the memref verifier rejects.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def GraphNameConstantGlobalsPass : Pass<"graph-name-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Name and order the constant memref.globals of bufferization by their first use";
  let description = [{
    One-shot bufferization turns each tensor constant into a private
    constant `memref.global` named `__constant_<type>` (a counter appended
    when the name is taken), in the order it visits the functions, which
    it derives from a map keyed by pointer: the same program of several
    functions could get other names, and another order, for its globals
    from one run to the next, and so a different object file. This pass
    gives those globals the order of their first use (functions in module
    order, ops in program order; globals nothing reads after them, in their
    current order) at the top of the module, and names them again in that
    order (`__constant_2xf32`, `__constant_2xf32_0`, ...), so that the
    compiled program depends only on its input. Both pipelines run it right
    after one-shot bufferization.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GraphReleaseHeapConstantsPass : Pass<"graph-release-heap-constants", "::mlir::ModuleOp"> {
  let summary = "Free the data of large constants that nothing refers to any more";
  let description = [{
    Large f32 constants that the compiler derives from the model's weights
    (batch norm folded into a convolution's weight, Winograd-transformed
    weights, packed matmul operands) are `dense_resource`s whose data is a
    heap block of their own, not the MLIR context's, which would keep every
    generation of the weights until the compile ends
    (include/graphopt/Dialect/Graph/IR/HeapConstants.h). Once code
    generation has packed a weight, the constant it was packed from is no
    longer used: this pass frees the data of every such constant that no
    operation of the module refers to (ResNet-50: 190 MB after
    `graph-cpu-tile-and-vectorize`). The CPU pipeline runs it after tiling
    and vectorization. It assumes the module is the only one of its context
    that refers to them (a compile's context holds one module).
  }];
  let options = [
    Option<"remark", "remark", "bool", /*default=*/"false",
           "Report the bytes freed as a remark on the module">
  ];
}

def GraphCPUPlanMemoryPass : Pass<"graph-cpu-plan-memory", "::mlir::func::FuncOp"> {
  let summary = "Place a function's static buffers in one arena, at offsets planned from their lifetimes";
  let description = [{
    After buffer deallocation (and `graph-cpu-early-dealloc`), each
    intermediate of a model's function is a `memref.alloc` freed by a
    `memref.dealloc` after its last use: ResNet-18 makes ~600 allocations
    per call. This pass plans them at compile time: every buffer of the
    function's body that has a static shape, the identity layout and one
    dealloc in the same block, and that flows only into views (not into a
    call's or a loop's result, a yield, a return or a raw pointer), lives
    from its alloc to its dealloc; buffers whose lifetimes overlap get
    disjoint ranges of one arena, the others share memory. Offsets are
    assigned largest buffer first, each at the lowest 64-byte aligned offset
    clear of the placed buffers it overlaps. The arena is allocated once at
    the function's start and freed before its return; each planned alloc
    becomes a `memref.view` of it and its dealloc goes. Buffers of dynamic
    size, inside loops or branches, and returned ones keep their own
    allocation. With fewer than two such buffers nothing changes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GraphCPUMemoryReportPass : Pass<"graph-cpu-memory-report", "::mlir::ModuleOp"> {
  let summary = "Report the buffers each entry allocates and its peak live bytes";
  let description = [{
    Reads the bufferized host functions (after buffer deallocation, where
    each buffer is freed after its last use) in program order and writes,
    per public function: the heap buffers (`memref.alloc`) with their total
    bytes, the stack buffers (`memref.alloca`), the peak of the bytes live
    at once on the heap with the allocation where it is reached, and how
    much less that is than one buffer per tensor held for the whole call
    (the sum), which is what freeing dead buffers lets `malloc` reuse.
    The largest buffers are listed with their locations. A buffer of
    dynamic size is counted apart (its size is known only at run time); one
    inside a loop counts once. Changes nothing.

    ```
    graph-cpu-memory-report: @main: 3 heap buffers, 49152 bytes in all;
      peak 32768 bytes live (66.7% of one buffer per tensor) ...
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the report ('-': stderr)">,
  ];
}

def GraphCPULowerAllocaScopesPass : Pass<"graph-cpu-lower-alloca-scopes", "::mlir::func::FuncOp"> {
  let summary = "Replace memref.alloca_scope by stack save/restore around its body";
  let description = [{
    `convert-scf-to-openmp` wraps each parallel loop body in a
    `memref.alloca_scope` (its stack allocations are freed per iteration).
    The op's region must be one block, which `convert-scf-to-cf` breaks when
    the body holds loops. This pass lowers the scope first, the way the
    memref-to-LLVM lowering does: `llvm.intr.stacksave` before the body,
    `llvm.intr.stackrestore` after it, the body inlined. Scopes with
    results are left alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
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

def GraphExpandFloat8Pass : Pass<"graph-expand-float8"> {
  let summary = "Lower conversions to and from the 8-bit floats to integer arithmetic";
  let description = [{
    The 8-bit floats (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ) are storage
    types: `graph.cast` converts through f32, and
    `arith-emulate-unsupported-floats` (run before this pass) makes other
    arithmetic on them f32 between conversions. LLVM has no 8-bit float
    type, so this pass rewrites what is left, on scalars and vectors:
    `arith.extf` from f8 (the fields rebiased into an f32; subnormals,
    infinities and NaN by their encodings), `arith.truncf` to f8 (round to
    nearest even, saturating at the largest finite value, infinities too;
    NaN to the format's NaN; the FNUZ formats have no negative zero) and
    f8 constants (their bits as i8). Both pipelines run it just before
    `arith-expand`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
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

def GraphGPUMatmulPass : Pass<"graph-gpu-matmul", "::mlir::ModuleOp"> {
  let summary = "Replace matmul-class linalg ops on memrefs by tiled CUDA kernels";
  let description = [{
    Runs on bufferized host code, before the generic loop-to-GPU mapping.
    Every linalg contraction C[b?, m, n] += A[b?, m, k] * B[b?, k, n]
    (matmul, batch_matmul, or a generic with those maps, A or B possibly
    transposed) on static identity-layout memrefs, with f16, bf16 or f32
    inputs and an f32 output, becomes a `gpu.launch` (grid: N/BN x M/BM x
    batch) built by `buildGPUMatmulKernel` (graphopt/Codegen/GPUMatmul.h):

    - f16: tensor cores. Each warp owns a tile of 16x16x16 WMMA fragments
      (`gpu.subgroup_mma_load_matrix` / `_compute` / `_store_matrix`, lowered
      by `convert-gpu-to-nvvm` to PTX `wmma.mma.sync`, f32 accumulation).
    - bf16 (with `bf16-tensor-cores`, default; the CUDA pipeline turns it
      off before sm_80): tensor cores through `nvvm.mma.sync` m16n8k16
      (MLIR 22's `gpu.mma_matrix` has no bf16), per-lane fragments in the
      PTX layout loaded by `nvgpu.ldmatrix` (x4; `.trans` for a k-major A
      or B tile) from bf16 tiles kept in their global layout.
    - f32 with `tf32-tensor-cores` (off by default; the CUDA pipeline's
      `tf32` option, sm_80+): tensor cores through `nvvm.mma.sync` m16n8k8
      with TF32 multiplicands, each element rounded to TF32 (10 mantissa
      bits, to nearest, ties away from zero: `cvt.rna.tf32.f32`) as its
      fragment is loaded from the f32 shared tiles (by `ldmatrix` where
      the tile is k-contiguous, element by element where it is k-major);
      f32 accumulation. The opt-in that PyTorch's `allow_tf32` is.
    - f16/bf16 with `wgmma` (the CUDA pipeline sets it for chip `sm_90a`)
      when 128 divides M and N and 64 divides K: Hopper warpgroup MMAs
      (`nvvm.wgmma.mma_async` m64n128k16, f32 accumulation). A block of two
      warpgroups (256 threads) computes 128x128 of C, each warpgroup 64
      rows as 64 f32 registers per thread; A and B are read from shared
      memory by 64-bit matrix descriptors, never through registers. The
      tiles are 128-byte swizzled (16-byte chunk c of a 128-byte row r kept
      at chunk c ^ (r % 8), as the descriptors' swizzle mode has the
      hardware expect), K-major ([rows][64]) or MN-major ([cols / 64][64
      k][64]) as the operand is stored. With `wgmma-tma` (default) the
      stages are filled by TMA: thread 0 issues `cp.async.bulk.tensor`
      copies of 128-byte-swizzled boxes from tensor maps of A and B (the
      host asks libGraphOptCUDARuntime for them before the launch:
      `graphopt_cuda_tensor_map_<type>`, encoded and uploaded once per
      buffer and shape), each stage's mbarrier counting their bytes; every
      thread waits on the barrier's phase, then one block barrier per K
      step frees the stage read the step before. Elements past A's rows
      (M padded) read as zeros. Otherwise (or where an operand's strides
      are not multiples of 16 bytes) cp.async stages, with a
      `fence.proxy.async` ordering the copies before the MMAs (which read
      through the async proxy). No warp specialization yet: the 256
      threads both wait and compute.
    - f32 (and bf16 otherwise): SIMT FMAs on a per-thread register tile,
      in IEEE f32 (bf16 widened to f32 in shared memory). Without
      `tf32-tensor-cores`, f32 never uses TF32.

    Both kernels stage A and B tiles in shared memory (views of dynamic
    shared memory), copied cooperatively 16 bytes at a time where the layout
    allows. The tensor-core kernels, with `async-copy-stages` >= 2 (default
    3, fewer where they do not fit in 48 KiB; the CUDA pipeline sets 0 for
    chips before sm_80), fill that many
    stages with asynchronous copies (`nvgpu.device_async_copy`, PTX
    `cp.async.cg`), the copies of a tile issued stages - 1 K steps before
    its math, one wait (`cp.async.wait_group stages - 2`) and one barrier
    per step. Otherwise (the SIMT kernel, older chips) two buffers: the
    next K tile is loaded into registers before the current one is
    multiplied, then stored into the other buffer, with one barrier per K
    step. The accumulators start from C's contents.

    Contractions whose M, N or K the tiles do not divide (after halving the
    SIMT tile along M or N) and whose work (batch x M x N x K multiply-adds)
    is at least `pad-min-work` run on copies of their operands zero-padded
    to multiples of the tiles (the kernel their types take: tensor-core
    tiles for f16, bf16 and opt-in TF32; SIMT tiles, or half tiles where
    that pads less, for f32), C's valid part read back (by the elementwise
    op after the contraction where it has one, else copied); the fills and
    copies are kernels of their own, except for a constant operand (a
    `memref.get_global` of a constant global with dense contents, e.g. a
    weight), which is padded once at compile time into a new constant
    global (one per global and padded shape; statistic `constants-padded`).
    (The pass runs on the module for that.) An A stored [M, K] that needs padding
    along M only is read in place, its row index clamped to M - 1 (the
    rows of C past M are dropped); if moreover C starts at zero and an
    elementwise op writing another buffer follows, that op is applied in
    the kernel, which stores only the rows below M: one kernel, nothing
    padded. Contractions with M or N below 16
    (matrix-vector-like) are not padded, nor smaller ones (three more
    launches would cost more than the default kernel saves). Those, and
    contractions that do not fit the form above, are left to the default
    lowering (one thread per output element). When the accumulator was filled with zeros just
    before the contraction (the usual `linalg.fill` + `linalg.matmul`), the
    kernel's accumulators start at zero in registers instead of being
    loaded, and the fill (a kernel and a pass over C of its own) goes.

    With `fuse-epilogue` (default), the elementwise `linalg.generic` that
    follows a contraction and reads C (a bias add, an activation, the f32 ->
    f16/bf16 rounding of an f16 product: `matchGPUEpilogue`) is applied in
    the kernel: the tensor-core kernel stores its fragments into a staging
    tile in shared memory (reusing the A and B tiles' space) and then each
    thread applies the epilogue to every `threads`-th element (consecutive
    threads, consecutive columns) and stores into the generic's output; the
    SIMT kernel applies it to its register tile. C is then neither stored
    nor read again: an f16 linear layer (matmul, bias, relu, rounding) is
    one kernel and one pass over its output, where it was a matmul kernel
    writing f32 C and a kernel reading it back.
    Nothing here has run on a GPU yet: the kernels are checked by FileCheck
    and ptxas only.

    Example:

    ```mlir
    linalg.matmul ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>)
                  outs(%c : memref<256x256xf32>)
    // becomes
    gpu.launch blocks(...) in (%gx = %c4, %gy = %c4, %gz = %c1)
               threads(...) in (%tx = %c128, ...)
               dynamic_shared_memory_size %c19456_i32 {
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %sa = memref.view %smem[%c0][] : ... to memref<2x64x40xf16, #gpu.address_space<workgroup>>
      %sb = memref.view %smem[%c10240][] : ... to memref<2x32x72xf16, #gpu.address_space<workgroup>>
      ... scf.for ... gpu.subgroup_mma_compute ... gpu.barrier ...
    }
    ```
  }];
  let options = [
    Option<"mmaTileM", "mma-tile-m", "int64_t", /*default=*/"64",
           "Rows of C per block, tensor-core kernel">,
    Option<"mmaTileN", "mma-tile-n", "int64_t", /*default=*/"64",
           "Columns of C per block, tensor-core kernel">,
    Option<"mmaTileK", "mma-tile-k", "int64_t", /*default=*/"32",
           "K step of the tensor-core kernel (a multiple of 16)">,
    Option<"mmaWarpTileM", "mma-warp-tile-m", "int64_t", /*default=*/"32",
           "Rows of C per warp (a multiple of 16)">,
    Option<"mmaWarpTileN", "mma-warp-tile-n", "int64_t", /*default=*/"32",
           "Columns of C per warp (a multiple of 16)">,
    Option<"simtTileM", "simt-tile-m", "int64_t", /*default=*/"128",
           "Rows of C per block, SIMT kernel">,
    Option<"simtTileN", "simt-tile-n", "int64_t", /*default=*/"128",
           "Columns of C per block, SIMT kernel">,
    Option<"simtTileK", "simt-tile-k", "int64_t", /*default=*/"8",
           "K step of the SIMT kernel">,
    Option<"simtThreadTileM", "simt-thread-tile-m", "int64_t", /*default=*/"8",
           "Rows of C per thread (a multiple of 4)">,
    Option<"simtThreadTileN", "simt-thread-tile-n", "int64_t", /*default=*/"8",
           "Columns of C per thread (a multiple of 4)">,
    Option<"asyncCopyStages", "async-copy-stages", "int64_t", /*default=*/"3",
           "Shared-memory stages of the tensor-core kernel filled by cp.async "
           "(sm_80+); below 2: double-buffered through registers">,
    Option<"bf16TensorCores", "bf16-tensor-cores", "bool", /*default=*/"true",
           "bf16 products on tensor cores (mma.sync m16n8k16, sm_80+); "
           "otherwise the SIMT kernel">,
    Option<"tf32TensorCores", "tf32-tensor-cores", "bool", /*default=*/"false",
           "f32 products on tensor cores with TF32 multiplicands (mma.sync "
           "m16n8k8, sm_80+; inputs rounded to 10 mantissa bits, f32 "
           "accumulation); otherwise IEEE f32 on the SIMT kernel">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "Hopper warpgroup MMAs (wgmma.mma_async, chip sm_90a only) for "
           "f16/bf16 products with M, N multiples of 128 and K of 64: "
           "128x128x64 blocks of two warpgroups fed by stages of "
           "128-byte-swizzled shared tiles">,
    Option<"wgmmaTma", "wgmma-tma", "bool", /*default=*/"true",
           "The wgmma kernel's tiles copied by TMA (cp.async.bulk.tensor from "
           "tensor maps the runtime encodes, one mbarrier per stage) where "
           "the operands' strides are multiples of 16 bytes; false: by "
           "cp.async">,
    Option<"matrixVector", "matrix-vector", "bool", /*default=*/"true",
           "Products with M <= 15 (matrix-vector-like) on a kernel streaming B "
           "once (16-byte loads, 8-byte for M > 8; K split over the threads, "
           "f32 sums); "
           "otherwise left to the default lowering">,
    Option<"fuseEpilogue", "fuse-epilogue", "bool", /*default=*/"true",
           "Apply the elementwise op after a contraction (bias, activation, "
           "cast) in its kernel, before the one store">,
    Option<"padMinWork", "pad-min-work", "int64_t", /*default=*/"4194304",
           "Run contractions whose shapes the tiles do not divide on "
           "zero-padded copies of their operands when they have at least "
           "this many multiply-adds (and M, N >= 16); 0: never">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::arith::ArithDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::LLVM::LLVMDialect"
  ];
  let statistics = [
    Statistic<"numTensorCore", "tensor-core-kernels", "contractions given the tensor-core kernel">,
    Statistic<"numSimt", "simt-kernels", "contractions given the SIMT kernel">,
    Statistic<"numSkinny", "matrix-vector-kernels", "contractions with M <= 15 given the matrix-vector kernel">,
    Statistic<"numWgmma", "wgmma-kernels", "contractions given the Hopper wgmma kernel (also counted as tensor-core kernels)">,
    Statistic<"numLeft", "contractions-left", "contractions left to the default lowering">,
    Statistic<"numPadded", "padded", "contractions run on zero-padded operands">,
    Statistic<"numPaddedConstants", "constants-padded", "constant operands zero-padded at compile time (new constant globals)">,
    Statistic<"numZeroFillsDropped", "zero-fills-dropped", "zero fills of an accumulator replaced by zero registers">,
    Statistic<"numEpilogues", "epilogues-fused", "elementwise ops after a contraction applied in its kernel">
  ];
}

def GraphGPUSplitReductionsPass : Pass<"graph-gpu-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Split full reductions on memrefs into a row stage and a "
                "final stage, for GPU kernels";
  let description = [{
    Runs on bufferized IR before `graph-gpu-map-reductions`. A
    `linalg.generic` whose loops are all reductions (a rank-0 output: the sum,
    mean, max or min of a whole tensor) would otherwise be one thread's loop
    on the GPU, or one warp's for a rank-1 input. One of at least 2^14
    elements, static sizes, whose inputs are contiguous memrefs read with
    identity maps and whose body yields `combiner(f(inputs), output)` (the
    combiners of `graph-gpu-map-reductions`, any element type) becomes:

    - each input viewed as R x C (`memref.collapse_shape` and
      `memref.expand_shape`: no copy), C a divisor of N near N / 1024 in
      [256, 4096];
    - a buffer of R partial values filled with the combiner's neutral
      element, and the original body reducing each row into it (a row
      reduction: one warp per row after `graph-gpu-map-reductions`);
    - the partial values combined into the output by the combiner alone
      (one more row reduction), and the buffer freed.

    The combination order changes, as any parallel reduction's does (sums
    round differently; max/min are exact). Sizes with no divisor in that
    range, dynamic sizes, strided inputs and bodies that read loop indices
    are left as they are.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::arith::ArithDialect"
  ];
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

def GraphGPUAttentionPass : Pass<"graph-gpu-attention", "::mlir::ModuleOp"> {
  let summary = "fusion.attention as one CUDA kernel that keeps the scores on chip";
  let description = [{
    Runs on fusion ops (CUDA pipeline, after `fusion-form-attention`). Each
    `fusion.attention` the kernel supports becomes the buffers of q, k, v
    and the result (`bufferization.to_buffer` / `to_tensor`) and a call of
    a private declaration `__graphopt_gpu_attention_<n>` (attributes
    `graphopt.scale`, `graphopt.causal`) that `graph-gpu-attention-kernels`
    replaces by the kernel after buffer deallocation (which refuses the
    kernel's barriers, ops without declared memory effects). The kernel is
    one `gpu.launch`: a block of 4 warps per 64 query rows of one (batch,
    head), the Q tile read once into registers, key and value tiles of 32
    rows in two shared stages filled by `cp.async` a step ahead.
    FlashAttention-2 style, one pass over the keys, everything per row in
    registers: each warp computes S = Q K^T for its 16 rows on tensor cores
    (`mma.sync` m16n8k16, f16, f32 accumulation; fragments by `ldmatrix`),
    scales and (causal) masks it, takes each row's maximum across its 4
    lanes (two xor shuffles), rescales its running sum and O by
    exp(m_old - m_new), and feeds P = exp(s - m_new), rounded to f16,
    straight from the score accumulators into O += P V (the accumulator
    layout of m16n8 is the A fragment layout of m16n8k16; V's fragments by
    `ldmatrix.trans`). The L x S scores never leave registers. At the end
    the 4 lanes' partial sums are added and O / sum is stored.

    Supported: static shapes; f16 or bf16 q, k and v (one type; P is
    rounded to it) with the same batch dims; a static mask broadcasting to
    [..., L, S] (float: added to the scaled scores; i1: false keys get
    -inf), a float one read 2 adjacent keys per load where it varies along
    the keys and S is even, an i1 one per score element; head dim a multiple of 8 up to 256,
    equal for q, k and v (one that is not a multiple of 16 is computed as
    the next one, over zero columns in shared memory); any L and S (key steps of 64 rows where the head
    dim is at most 64, else 32; the last query block's rows past L read
    row L - 1 and store nothing, the last step's keys past S copy key
    S - 1 and score -inf); `causal` (the key loop stops at the block's
    last row). Others are left to `fusion-expand`'s decomposition
    (batched matmuls and a row-kernel softmax).

    f32 q, k and v (since 2026-12-07; before, decomposed: 13 kernels for
    ViT-B/16's) take a SIMT kernel instead, IEEE f32 as f32 matmuls are by
    default: 128 threads per 64 query rows, 32 keys per step through
    shared memory (the Q tile once, K, V and P^T per step, rows padded by
    16 bytes, every shared access a 16-byte vector), each thread 4 rows x 4
    keys of scores by FMAs, its rows' statistics over the row's 8 lanes
    (xor shuffles), P through shared memory into O += P V (4 rows x D / 8
    columns a thread). Same masks, causal and ragged L and S as above; head
    dim a multiple of 8 up to 128 (computed as the next multiple of 32
    over zero columns).
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::vector::VectorDialect",
    "::mlir::bufferization::BufferizationDialect"
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "attention ops given the fused kernel">,
    Statistic<"numLeft", "left", "attention ops left to the decomposition">
  ];
}

def GraphGPUAttentionKernelsPass : Pass<"graph-gpu-attention-kernels", "::mlir::ModuleOp"> {
  let summary = "Build the fused attention kernels graph-gpu-attention asked for";
  let description = [{
    Runs on buffers (CUDA pipeline, after buffer deallocation, before the
    other kernels): every call of a `__graphopt_gpu_attention_<n>`
    declaration (q, k, v, out; `graphopt.scale`, `graphopt.causal`) becomes
    the fused attention kernel's `gpu.launch` (see `graph-gpu-attention`),
    and the declarations go.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::vector::VectorDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "fused attention kernels built">
  ];
}

def GraphGPURowKernelsPass : Pass<"graph-gpu-row-kernels", "::mlir::func::FuncOp"> {
  let summary = "Softmax, layer norm and RMS norm as one CUDA kernel each, a warp per row";
  let description = [{
    Runs on graph ops (CUDA pipeline, before `graph-decompose` for layer
    norm and again after it for the softmax of decomposed attention).
    Decomposed, `graph.softmax` along the last axis is 6 kernels (two
    fills, the row maximum, `exp(x - max)` written out, the row sum, the
    division) and `graph.layer_norm` 5 and a copy, each a pass over memory.
    This pass replaces each with one `gpu.launch` on the buffers of its
    operands and result (`bufferization.to_buffer` / `to_tensor`), with a
    warp (32 lanes) per row and `warps-per-block` rows per block, reading
    the row twice (softmax) or three times (layer norm) and writing it once:

    - softmax: each lane keeps the running maximum `m` of its elements
      `lane, lane + 32, ...` and the sum `s` of `exp(x - m)`, rescaled by
      `exp(m - m')` when the maximum grows; the lanes' pairs are merged the
      same way by a `gpu.shuffle xor` butterfly (offsets 16 ... 1); then
      `exp(x - m) / s` is written. While the maximum is -inf (a row that
      begins with masked entries) the exponentials are taken against 0, so
      -inf - -inf gives no NaN; a row of -inf only gives 0 / 0 = NaN, as
      PyTorch's does.
    - layer norm over the trailing `weight.rank` dims: the mean (a warp
      sum of the lanes' sums), then the mean of the squared deviations
      (two passes, as the decomposition computes them), then
      `(x - mean) * rsqrt(var + eps) * w + b`.
    - RMS normalization, which has no graph op, in the form the importers
      leave it (torch.nn.RMSNorm, LLaMA-style modules): `x * rsqrt(mean(x *
      x, trailing axes, keepdims) + eps)`, the factors of each product in
      either order, optionally times a weight of the trailing shape (either
      side), every intermediate used once (3 kernels decomposed): the sum
      of squares (a warp sum), then `x * rsqrt(sum / n + eps) * w`.

    f16 and bf16 tensors are read into f32, computed in f32 and rounded once
    when stored. Matched: static shapes with at least one element; softmax
    along the last axis; layer norm whose weight and bias have the input's
    trailing shape; RMS norm over trailing axes with a constant eps. Under
    CPU emulation too (`graph-gpu-launch-to-loops` runs a warp's lanes in
    lockstep at the shuffles).
  }];
  let options = [
    Option<"warpsPerBlock", "warps-per-block", "unsigned", /*default=*/"4",
           "Warps (rows) per thread block; blockDim = 32 x warps-per-block">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::bufferization::BufferizationDialect"
  ];
}

def GraphGPUVectorizeLoopsPass : Pass<"graph-gpu-vectorize-loops", "::mlir::func::FuncOp"> {
  let summary = "16 bytes per thread along the innermost dim of the generic CUDA kernels";
  let description = [{
    Runs on the host's top-level `scf.parallel` nests (after
    `convert-linalg-to-parallel-loops`, before
    `graph-gpu-tile-parallel-loops`), which become the elementwise and copy
    kernels, one element per thread. Where the innermost loop (from 0, step
    1, a static extent) is only the last index of the body's loads and
    stores, the body holds only those, constants and elementwise ops on
    scalars, and every access along it is contiguous and aligned for
    vectors (last stride 1; static offset, other strides and last extent
    multiples of the lane count), the loop counts vectors of 16 bytes of
    the widest element accessed (4 lanes for f32, 8 for f16, 16 for i8;
    mixed widths take the widest's lane count): those loads and stores
    become `vector.load` / `vector.store` with the vector's alignment
    (`ld.global.v4.b32` for f32), the ops on them vector ops, and the
    other values (broadcast operands, loads the innermost index does not
    reach) scalars broadcast where used. The base pointers are taken to be
    16-byte aligned: allocations and constants are; an entry buffer must be
    (the AOT header refuses one that is not, `graphopt.load` copies it).
    Otherwise the nest is left as it is. Also under CPU emulation, where
    the vector code runs on the host.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect", "::mlir::arith::ArithDialect"];
}

#endif // GRAPHOPT_CODEGEN_PASSES_TD
