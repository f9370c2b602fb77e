//===- Pipelines.cpp - graphopt pass pipelines ----------------------------===//
//
// The single place where pipelines are assembled. Upstream passes are added
// by their registered textual names (stable across MLIR's C++ renames);
// graphopt's own passes through their generated create functions.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Pipelines/Pipelines.h"

#include "graphopt/Codegen/Passes.h"
#include "graphopt/Conversion/Passes.h"
#include "graphopt/Dialect/Fusion/Transforms/Passes.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/X86TargetParser.h"

#if defined(__linux__) && defined(__x86_64__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

using namespace mlir;
using namespace mlir::graphopt;

namespace {
/// Appends upstream passes, by textual pipeline, to `pm`. The strings are
/// fixed at build time and covered by the pipeline tests, so a parse error
/// is a bug: report it loudly.
void addUpstream(OpPassManager &pm, StringRef pipeline) {
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    llvm::report_fatal_error(llvm::Twine("graphopt: bad built-in pipeline '") +
                             pipeline + "': " + error);
}
} // namespace

static void buildLoopsToLLVM(OpPassManager &pm,
                             const CompilePipelineOptions &options,
                             bool gpuRuntime = false);

/// f32 lanes per SIMD register of a CPU with `features`: 16 with AVX-512,
/// 8 with AVX2 or AVX, 4 otherwise.
static int64_t vectorWidthOf(const llvm::StringMap<bool> &features) {
  if (features.lookup("avx512f"))
    return 16;
  if (features.lookup("avx2") || features.lookup("avx"))
    return 8;
  return 4;
}

int64_t mlir::graphopt::getHostVectorWidth() {
  return vectorWidthOf(llvm::sys::getHostCPUFeatures());
}

/// Whether `cpu` names the host's CPU ("host" or empty).
static bool isHostCPU(llvm::StringRef cpu) {
  return cpu.empty() || cpu == "host";
}

/// The features of the CPU code is generated for: `cpu`'s (the host's for
/// "host" or empty, none for an unknown name: the backend reports that),
/// then the explicit `features`, in order.
static llvm::StringMap<bool> targetFeatureMap(llvm::StringRef cpu,
                                              llvm::StringRef features) {
  llvm::StringMap<bool> has;
  if (isHostCPU(cpu)) {
    has = llvm::sys::getHostCPUFeatures();
  } else {
    llvm::SmallVector<llvm::StringRef> cpuFeatures;
    llvm::X86::getFeaturesForCPU(cpu, cpuFeatures, /*NeedPlus=*/false);
    for (llvm::StringRef f : cpuFeatures)
      has[f] = true;
  }
  if (features != "host") {
    llvm::SmallVector<llvm::StringRef> items;
    features.split(items, ',', -1, false);
    for (llvm::StringRef f : items) {
      f = f.trim();
      if (f.consume_front("+"))
        has[f] = true;
      else if (f.consume_front("-"))
        has[f] = false;
    }
  }
  return has;
}

int64_t mlir::graphopt::getTargetVectorWidth(llvm::StringRef cpu,
                                             llvm::StringRef features) {
  return vectorWidthOf(targetFeatureMap(cpu, features));
}

bool mlir::graphopt::targetHasFeature(llvm::StringRef cpu,
                                      llvm::StringRef features,
                                      llvm::StringRef feature) {
  return targetFeatureMap(cpu, features).lookup(feature);
}

/// Whether this process may use AMX tiles: Linux grants the tile state
/// on request (arch_prctl ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA; kernels
/// before 5.16 do not know the request). Asked once.
static bool hostGrantsAMX() {
#if defined(__linux__) && defined(__x86_64__)
  static const bool granted = syscall(SYS_arch_prctl, 0x1023, 18) == 0;
  return granted;
#else
  return false;
#endif
}

bool mlir::graphopt::targetHasAMXInt8(llvm::StringRef cpu,
                                      llvm::StringRef features) {
  llvm::StringMap<bool> has = targetFeatureMap(cpu, features);
  if (!has.lookup("amx-int8") || !has.lookup("amx-tile"))
    return false;
  // Code for this host runs here: the kernel must grant the tiles too.
  return !isHostCPU(cpu) || hostGrantsAMX();
}

void mlir::graphopt::buildGraphOptimizePipeline(
    OpPassManager &pm, const GraphOptimizeOptions &options) {
  graph::GraphOptimizePassOptions opts;
  opts.maxIterations = options.maxIterations;
  opts.foldSizeLimit = options.foldSizeLimit;
  pm.addPass(graph::createGraphOptimizePass(opts));
}

/// The target-independent front half: graph-level optimization, fusion
/// decisions, graph -> linalg on tensors with elementwise fusion. Shared by
/// every target; what differs is only which kernels the target has code
/// generation for (the flash-attention loop nest and the tiled fusion.group
/// loop nests are CPU code generation).
static void buildGraphToLinalg(OpPassManager &pm,
                               const CompilePipelineOptions &options,
                               bool cpu) {
  // Products of dequantized 8-bit tensors as integer kernels (AMX, VNNI or
  // AVX2): first, before constant folding makes a small weight's
  // dequantization an f32 constant; their scaling then fuses with what
  // follows.
  if (cpu && options.int8Matmul) {
    GraphCPUQuantizedMatmulPassOptions quantized;
    quantized.vnni = options.vectorize &&
                     (options.vectorWidth <= 0 || options.vectorWidth == 16) &&
                     targetHasFeature(options.targetCPU, options.targetFeatures,
                                      "avx512vnni");
    quantized.amx = options.vectorize &&
                    targetHasAMXInt8(options.targetCPU, options.targetFeatures);
    quantized.avx2 =
        options.int8AVX2 && options.vectorize &&
        (options.vectorWidth <= 0 || options.vectorWidth >= 8) &&
        targetHasFeature(options.targetCPU, options.targetFeatures, "avx2");
    pm.addPass(createGraphCPUQuantizedMatmulPass(quantized));
  }
  if (options.optimize)
    buildGraphOptimizePipeline(pm, GraphOptimizeOptions());

  // Attention (the exported subgraph and graph.scaled_dot_product_attention)
  // becomes fusion.attention and then the flash-attention loop nest. Fused
  // kernels without a dedicated lowering and composite ops become primitive
  // graph ops; a second optimization round folds their constant parts
  // (batch-norm statistics into one scale and shift per channel).
  bool groups = cpu && options.fuseElementwise;
  {
    OpPassManager &fn = pm.nest<func::FuncOp>();
    if (options.fuseElementwise)
      fn.addPass(fusion::createFusionFormConvPass());
    if (cpu && options.flashAttention) {
      fn.addPass(fusion::createFusionFormAttentionPass());
      fn.addPass(createConvertFusionAttentionPass());
    }
    if (!cpu && options.flashAttention)
      fn.addPass(fusion::createFusionFormAttentionPass());
  }
  // CUDA: the attention ops the fused kernel supports (f16, static) become
  // calls that graph-gpu-attention-kernels replaces by the kernel after
  // buffer deallocation; fusion-expand decomposes the others.
  if (!cpu && options.flashAttention)
    pm.addPass(createGraphGPUAttentionPass());
  {
    OpPassManager &fn = pm.nest<func::FuncOp>();
    fusion::FusionExpandPassOptions expand;
    expand.inlineGroups = !groups;
    fn.addPass(fusion::createFusionExpandPass(expand));
    // CUDA: softmax and layer norm as one warp-per-row kernel each, before
    // the decomposition takes layer norm apart and after it for the
    // softmax of decomposed attention.
    bool rowKernels = !cpu;
    if (rowKernels)
      fn.addPass(createGraphGPURowKernelsPass());
    fn.addPass(graph::createGraphDecomposePass());
    if (rowKernels)
      fn.addPass(createGraphGPURowKernelsPass());
  }
  if (options.optimize)
    buildGraphOptimizePipeline(pm, GraphOptimizeOptions());

  // Fusion decisions (fusion.group kernels, cost model, report).
  if (groups) {
    fusion::FusionFormGroupsPassOptions groupOpts;
    groupOpts.report = options.fusionReport;
    pm.addPass(fusion::createFusionFormGroupsPass(groupOpts));
  }

  // graph -> linalg on tensors (unsigned types made signless first);
  // elementwise fusion (inside each group on the CPU, where each group is
  // then generated as one tiled loop nest).
  pm.addPass(createGraphSignlessPass());
  OpPassManager &fn = pm.nest<func::FuncOp>();
  ConvertGraphToLinalgPassOptions lowering;
  lowering.winograd = cpu && options.winograd;
  fn.addPass(createConvertGraphToLinalgPass(lowering));
  addUpstream(fn, "canonicalize");
  if (options.fuseElementwise) {
    fn.addPass(createGraphFuseElementwisePass());
    if (groups) {
      fusion::FusionTileAndFusePassOptions tiling;
      tiling.threads = options.threads;
      fn.addPass(fusion::createFusionTileAndFusePass(tiling));
    }
  }
  addUpstream(fn, "canonicalize,cse");
}

void mlir::graphopt::buildCompilePipeline(
    OpPassManager &pm, const CompilePipelineOptions &options) {
  if (options.target == "cuda")
    buildCUDAPipeline(pm, options);
  else
    buildCPUPipeline(pm, options);
}

void mlir::graphopt::buildCPUPipeline(OpPassManager &pm,
                                      const CPUPipelineOptions &options) {
  buildGraphToLinalg(pm, options, /*cpu=*/true);
  OpPassManager &fn = pm.nest<func::FuncOp>();

  // Tiling and vectorization on tensors.
  if (options.vectorize) {
    GraphCPUTileAndVectorizePassOptions tv;
    tv.vectorWidth =
        options.vectorWidth > 0
            ? options.vectorWidth
            : getTargetVectorWidth(options.targetCPU, options.targetFeatures);
    tv.l1CacheBytes = options.l1CacheBytes;
    tv.l2CacheBytes = options.l2CacheBytes;
    tv.threads = options.threads;
    fn.addPass(createGraphCPUTileAndVectorizePass(tv));
    // Structured code, one block per region: the region simplification
    // (region DCE after every iteration) finds nothing to do here.
    addUpstream(fn, "canonicalize{region-simplify=disabled},cse");
    // The weights packed above are no longer needed: their memory goes
    // back before bufferization and LLVM need more.
    pm.addPass(createGraphReleaseHeapConstantsPass());
  }
  // Each distinct kernel bufferized and lowered once: the tiled loop nests
  // become functions on tensors, the same nest shared (weights passed).
  if (options.outlineKernels) {
    GraphCPUOutlineKernelsPassOptions outline;
    outline.tensors = true;
    pm.addPass(createGraphCPUOutlineKernelsPass(outline));
  }

  // Buffer planning: one-shot bufferization in place where possible, then
  // ownership-based deallocation so temporaries are freed as soon as dead.
  if (options.emitCInterface)
    pm.addPass(createGraphEmitCInterfacePass());
  pm.addNestedPass<func::FuncOp>(createGraphFoldEmptyTensorsPass());
  addUpstream(pm, "one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops "
                  "function-boundary-type-conversion=identity-layout-map}");
  pm.addPass(createGraphNameConstantGlobalsPass());
  // A kernel function's results are its destination arguments' buffers:
  // dropped, so that the caller keeps owning them (the loops' buffer
  // iter_args folded first).
  if (options.outlineKernels)
    addUpstream(pm, "canonicalize,drop-equivalent-buffer-results");
  // Independent tiles on threads: before buffer hoisting, so each tile's
  // temporaries stay inside its (now parallel) loop.
  GraphCPUParallelizePassOptions parallel;
  parallel.threads = options.threads;
  parallel.minWork = options.parallelMinWork;
  pm.addNestedPass<func::FuncOp>(createGraphCPUParallelizePass(parallel));
  addUpstream(pm, "func.func(buffer-hoisting,buffer-loop-hoisting,"
                  "promote-buffers-to-stack{max-alloc-size-in-bytes=4096})");
  addUpstream(pm, "buffer-deallocation-pipeline");
  addUpstream(pm, "convert-bufferization-to-memref");
  // Each temporary freed after its last use, not at the function's end.
  pm.addNestedPass<func::FuncOp>(createGraphCPUEarlyDeallocPass());
  // Strided copies as loops LLVM vectorizes, not calls of memrefCopy; a
  // large one (a convolution's input copied into its padded image) on the
  // threads: the copy loops hold no temporaries, so this second
  // parallelization after buffer hoisting shares none.
  pm.addNestedPass<func::FuncOp>(createGraphCPUExpandCopiesPass());
  if (options.threads > 1)
    pm.addNestedPass<func::FuncOp>(createGraphCPUParallelizePass(parallel));
  // The next packed B panel into L2 while the current one is computed.
  pm.addNestedPass<func::FuncOp>(createGraphCPUPrefetchPass());
  // One function per kernel, identical kernels shared: LLVM's time grows
  // faster than the size of a function.
  if (options.outlineKernels)
    pm.addPass(createGraphCPUOutlineKernelsPass());
  if (!options.memoryReport.empty()) {
    GraphCPUMemoryReportPassOptions report;
    report.output = options.memoryReport;
    pm.addPass(createGraphCPUMemoryReportPass(report));
  }
  // The intermediates in one arena per call (after the report, which
  // describes the buffers and this plan).
  if (options.planMemory)
    pm.addNestedPass<func::FuncOp>(createGraphCPUPlanMemoryPass());
  if (options.threads > 1) {
    addUpstream(pm, "convert-scf-to-openmp{num-threads=" +
                        std::to_string(options.threads) + "}");
    pm.addNestedPass<func::FuncOp>(createGraphCPULowerAllocaScopesPass());
  }

  buildLoopsToLLVM(pm, options);
}

/// Loops, vectors and memrefs (host memory) -> the LLVM dialect; with
/// `gpuRuntime`, gpu dialect host ops (gpu.alloc, gpu.memcpy, ...) become
/// calls of the CUDA runtime library.
static void buildLoopsToLLVM(OpPassManager &pm,
                             const CompilePipelineOptions &options,
                             bool gpuRuntime) {
  addUpstream(pm, "func.func(convert-linalg-to-loops,"
                  "graph-approximate-math,"
                  "convert-vector-to-scf{full-unroll=true},lower-affine,"
                  "canonicalize,cse)");
  // The conversions that stay within a function run nested on each
  // function on the CPU, so that the pass manager spreads the kernel
  // functions over its threads (ResNet-50: 189 functions; the vector and
  // arith conversions, the strided-metadata expansion and the last
  // canonicalization were 0.3 s on one thread). The CUDA host module also
  // holds the kernels' gpu.module, which they convert too: module level
  // there.
  auto inFunctions = [&](StringRef anchor, StringRef passes) {
    return gpuRuntime ? passes.str() : (anchor + "(" + passes + ")").str();
  };
  // bf16 arithmetic is expanded to integer ops: x86 has no bf16 libcalls.
  // So are the conversions to and from the 8-bit floats, after what else
  // computes on them has become f32 arithmetic between conversions.
  addUpstream(pm, inFunctions("func.func",
                              "convert-scf-to-cf,expand-strided-metadata,"
                              "lower-affine") +
                      ",func.func(arith-emulate-unsupported-floats{source-"
                      "types=f8E4M3FN,f8E5M2,f8E4M3FNUZ,f8E5M2FNUZ "
                      "target-type=f32},"
                      "graph-expand-float8,arith-expand{include-bf16=true})");
  // Math ops LLVM has intrinsics for (fma, sqrt, exp, ...) become those,
  // on vectors too; the rest become libm calls (scalarized for vectors,
  // declared in the module), before the vector dialect is lowered.
  addUpstream(pm, inFunctions("func.func", "convert-math-to-llvm") +
                      ",convert-math-to-libm," +
                      inFunctions("func.func",
                                  "convert-vector-to-llvm{reassociate-fp-"
                                  "reductions=true enable-amx=true}"));
  if (gpuRuntime)
    addUpstream(pm, "gpu-to-llvm");
  addUpstream(pm, options.runtimeAllocator
                      ? "finalize-memref-to-llvm{use-generic-functions=true}"
                      : "finalize-memref-to-llvm");
  addUpstream(pm, inFunctions("func.func",
                              "convert-arith-to-llvm,convert-index-to-llvm") +
                      ",convert-func-to-llvm,convert-cf-to-llvm,"
                      "convert-ub-to-llvm," +
                      (options.threads > 1 ? "convert-openmp-to-llvm," : "") +
                      "reconcile-unrealized-casts");
  // Without region simplification: LLVM's own simplifycfg merges and
  // removes blocks (the same IR for the benchmark models, 0.02 s less).
  addUpstream(pm, inFunctions("llvm.func",
                              "canonicalize{region-simplify=disabled},cse"));
  if (!options.targetCPU.empty() || !options.targetFeatures.empty()) {
    GraphSetTargetPassOptions target;
    target.cpu = options.targetCPU;
    target.features = options.targetFeatures;
    pm.addPass(createGraphSetTargetPass(target));
  }
}

void mlir::graphopt::buildCUDAPipeline(OpPassManager &pm,
                                       const CUDAPipelineOptions &options) {
  buildGraphToLinalg(pm, options, /*cpu=*/false);

  // Buffers: the same one-shot bufferization and ownership-based
  // deallocation as on the CPU.
  if (options.emitCInterface && (options.lowerHost || options.cpuEmulation))
    pm.addPass(createGraphEmitCInterfacePass());
  pm.addNestedPass<func::FuncOp>(createGraphFoldEmptyTensorsPass());
  addUpstream(pm, "one-shot-bufferize{bufferize-function-boundaries "
                  "allow-return-allocs-from-loops "
                  "function-boundary-type-conversion=identity-layout-map}");
  pm.addPass(createGraphNameConstantGlobalsPass());
  addUpstream(pm, "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
                  "canonicalize");

  // Kernels. Matmul-class ops become tiled shared-memory kernels
  // (tensor cores for f16); innermost-loop reductions one warp per row
  // with a shuffle butterfly (full reductions split into two of those); other
  // reductions get their parallel dims outermost; copies of strided views
  // become linalg.copy; sequential work (no parallel loops) becomes one-thread
  // kernels; every other linalg op becomes a parallel loop nest, tiled into
  // blocks of threads. Each becomes one outlined gpu.func. (CPU emulation runs
  // the warp kernels with their lanes in lockstep at shuffles and the matmul
  // kernels with their block's threads in lockstep at barriers.) Full
  // reductions become a row stage and a final stage first.
  pm.addPass(createGraphGPUAttentionKernelsPass());
  pm.addNestedPass<func::FuncOp>(createGraphGPUSplitReductionsPass());
  {
    // cp.async (the tensor-core kernel's multi-stage copies) needs sm_80.
    GraphGPUMatmulPassOptions matmul;
    matmul.tf32TensorCores = options.tf32;
    unsigned sm = 0;
    if (StringRef(options.chip).starts_with("sm_") &&
        !StringRef(options.chip)
             .drop_front(3)
             .take_while(llvm::isDigit)
             .getAsInteger(10, sm) &&
        sm < 80) {
      matmul.asyncCopyStages = 0;
      matmul.bf16TensorCores = false;
      matmul.tf32TensorCores = false;
    }
    // Hopper's warpgroup MMAs need the arch-specific sm_90a.
    matmul.wgmma = StringRef(options.chip) == "sm_90a";
    matmul.wgmmaTma = options.tma;
    pm.addPass(createGraphGPUMatmulPass(matmul));
  }
  pm.addNestedPass<func::FuncOp>(createGraphGPUMapReductionsPass());
  pm.addNestedPass<func::FuncOp>(createGraphGPUParallelDimsFirstPass());
  pm.addNestedPass<func::FuncOp>(createGraphGPUCopiesToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createGraphGPUSerialKernelsPass());
  // Contiguous dims merged: fewer divisions, no idle lanes on short
  // innermost dims, vectors where only the merged extent allows them.
  pm.addNestedPass<func::FuncOp>(createGraphGPUCollapseElementwisePass());
  addUpstream(pm, "func.func(convert-linalg-to-parallel-loops)");
  // 16 bytes per thread along the innermost dim where the accesses allow.
  pm.addNestedPass<func::FuncOp>(createGraphGPUVectorizeLoopsPass());
  {
    GraphGPUTileParallelLoopsPassOptions tile;
    tile.blockSize = options.blockSize;
    pm.addNestedPass<func::FuncOp>(createGraphGPUTileParallelLoopsPass(tile));
  }
  addUpstream(pm, "func.func(graph-gpu-simplify-tile-bounds,"
                  "gpu-map-parallel-loops{mapping-policy=innermost-first},"
                  "convert-parallel-loops-to-gpu,canonicalize,cse)");
  // Loop nests of a single iteration were folded to straight-line host
  // code by canonicalization: that too becomes a one-thread kernel.
  pm.addNestedPass<func::FuncOp>(createGraphGPUSerialKernelsPass());
  if (options.cpuEmulation) {
    // Testing aid: the host side exactly as for a GPU (device buffers,
    // constants, runtime calls), but every kernel runs as loops over its
    // blocks and threads on the host, through the emulated driver of
    // libGraphOptCUDAEmulator.so, whose device memory is host memory.
    pm.addPass(createGraphGPUDeviceBuffersPass());
    pm.addPass(createGraphGPULaunchToLoopsPass());
    addUpstream(pm, "func.func(canonicalize,cse,gpu-async-region)");
    buildLoopsToLLVM(pm, options, /*gpuRuntime=*/true);
    return;
  }
  // Constants hoisted out of launches would otherwise be kernel arguments.
  addUpstream(pm, "gpu-launch-sink-index-computations,gpu-kernel-outlining");
  // Host side: every buffer the kernels touch is device memory.
  pm.addPass(createGraphGPUDeviceBuffersPass());
  addUpstream(pm, "lower-affine,convert-scf-to-cf");

  // Device code: NVVM, then PTX/cubin in a gpu.binary.
  addUpstream(pm, std::string("nvvm-attach-target{chip=") + options.chip +
                      " features=" + options.features + "}");
  // The dynamic shared memory (the matmul tiles) aligned for WMMA loads;
  // on sm_90a to 1024 bytes, where the wgmma tiles' 128-byte swizzle
  // pattern repeats (the descriptors say base offset 0).
  // (convert-nvvm-to-llvm: wgmma becomes inline PTX.)
  bool sm90a = StringRef(options.chip) == "sm_90a";
  addUpstream(pm, std::string("gpu.module(convert-nvgpu-to-nvvm,"
                              "convert-gpu-to-nvvm,convert-math-to-llvm,") +
                      (sm90a ? "convert-nvvm-to-llvm," : "") +
                      "reconcile-unrealized-casts,canonicalize,cse,"
                      "graph-gpu-align-shared-memory{alignment=" +
                      (sm90a ? "1024" : "128") + "})");
  if (!options.lowerHost) {
    addUpstream(pm, std::string("gpu-module-to-binary{format=") +
                        options.format + "}");
    return;
  }

  // Host code: gpu ops become calls of the CUDA runtime library
  // (libGraphOptCUDARuntime.so; mgpu* functions) on one stream.
  addUpstream(pm, "func.func(gpu-async-region),expand-strided-metadata,"
                  "lower-affine,convert-scf-to-cf");
  addUpstream(pm, "gpu-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,"
                  "convert-index-to-llvm,convert-func-to-llvm,"
                  "convert-cf-to-llvm,convert-ub-to-llvm");
  addUpstream(pm, std::string("gpu-module-to-binary{format=") +
                      options.format + "}");
  addUpstream(pm, "reconcile-unrealized-casts,canonicalize,cse");
}

void mlir::graphopt::registerPipelines() {
  PassPipelineRegistration<GraphOptimizeOptions>(
      "graph-optimize-pipeline",
      "Graph-level optimization to a fixed point (shape refinement, constant "
      "folding, canonicalization, CSE, DCE)",
      buildGraphOptimizePipeline);
  PassPipelineRegistration<CompilePipelineOptions>(
      "graph-compile-pipeline",
      "Compile graph programs for target=cpu (the host CPU) or target=cuda "
      "(NVIDIA GPUs): one entry point, the graph-level passes shared",
      buildCompilePipeline);
  PassPipelineRegistration<CPUPipelineOptions>(
      "graph-cpu-pipeline",
      "Compile graph programs for the host CPU: optimize, lower to linalg, "
      "tile and vectorize, bufferize with deallocation, lower to LLVM",
      buildCPUPipeline);
  PassPipelineRegistration<CUDAPipelineOptions>(
      "graph-cuda-pipeline",
      "graph-compile-pipeline with target=cuda: kernels outlined and "
      "compiled to PTX/cubin/fatbin for the chosen chip, the host side "
      "lowered to LLVM calling libGraphOptCUDARuntime",
      buildCUDAPipeline);
}
