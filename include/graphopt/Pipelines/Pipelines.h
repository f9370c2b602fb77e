//===- Pipelines.h - graphopt pass pipelines --------------------*- C++ -*-===//
//
/// \file
/// Every pipeline of the project is built here, from an options struct. Tools
/// and the plugin call these builders; none of them lists passes itself.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_PIPELINES_PIPELINES_H
#define GRAPHOPT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::graphopt {

/// Options of the graph-level optimization pipeline (`graph-optimize`).
struct GraphOptimizeOptions : public PassPipelineOptions<GraphOptimizeOptions> {
  PassOptions::Option<unsigned> maxIterations{
      *this, "max-iterations",
      llvm::cl::desc("Upper bound on optimization rounds"), llvm::cl::init(8)};
  PassOptions::Option<int64_t> foldSizeLimit{
      *this, "fold-size-limit",
      llvm::cl::desc("Largest constant (elements) folding may create"),
      llvm::cl::init(1 << 16)};
};

/// Options of the compilation pipeline (`graph-compile-pipeline`), for every
/// target: the graph-level options are shared, the CPU- and CUDA-specific
/// ones are ignored by the other target.
struct CompilePipelineOptions
    : public PassPipelineOptions<CompilePipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("'cpu' (the host CPU) or 'cuda' (NVIDIA GPUs; "
                     "graph-cpu-pipeline and graph-cuda-pipeline fix it)"),
      llvm::cl::init("cpu")};
  PassOptions::Option<bool> optimize{
      *this, "optimize",
      llvm::cl::desc("Run graph-level optimization before lowering"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Operator fusion: form fusion.group kernels (elementwise "
                     "chains, reductions with their producers and consumers, "
                     "contractions with their epilogues) and generate each "
                     "as one tiled loop nest (off: one loop nest and buffer "
                     "per op)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> fusionReport{
      *this, "fusion-report",
      llvm::cl::desc("Write the fusion report here ('-': stderr; .json: "
                     "JSON)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> memoryReport{
      *this, "memory-report",
      llvm::cl::desc("CPU: write the memory report here ('-': stderr): per "
                     "entry, the buffers allocated, their bytes in all and "
                     "the peak live at once (graph-cpu-memory-report)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> flashAttention{
      *this, "flash-attention",
      llvm::cl::desc("Form fusion.attention from attention subgraphs and "
                     "graph.scaled_dot_product_attention and lower it to a "
                     "tiled online-softmax loop nest (off: attention is "
                     "expanded into matmul, softmax and elementwise ops)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> winograd{
      *this, "winograd",
      llvm::cl::desc("CPU: 3x3 stride-1 f32 convolutions with constant "
                     "weights and enough channels and pixels as Winograd "
                     "F(2x2, 3x3) (2.25x fewer multiplications; sums "
                     "rounded in another order than the direct "
                     "convolution's; convert-graph-to-linalg's winograd)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> int8Matmul{
      *this, "int8-matmul",
      llvm::cl::desc("CPU: products of dequantized 8-bit tensors (QDQ "
                     "models) as exact integer matmuls with AMX tiles or "
                     "AVX-512 VNNI where the target CPU has them (graph-cpu-"
                     "quantized-matmul; target-features=-amx-int8 keeps "
                     "VNNI; off: they compute in f32)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> int8AVX2{
      *this, "int8-avx2",
      llvm::cl::desc("CPU: with int8-matmul, where the target CPU has AVX2 "
                     "but neither VNNI nor AMX, the integer kernels with "
                     "vpmaddwd (exact; off by default: on an AVX-512 Xeon "
                     "compiling for x86-64-v3 they were 1.2x slower than the "
                     "f32 kernels, docs/Performance.md)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Tile and vectorize linalg ops (off: scalar loops)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("f32 lanes per SIMD register (16: AVX-512, 8: AVX2; 0: "
                     "from target-cpu / target-features, else the host CPU)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> l1CacheBytes{
      *this, "l1-cache-bytes",
      llvm::cl::desc("CPU: L1 data cache per core that matmul blocking plans "
                     "for (0: the host's, read from sysfs)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> l2CacheBytes{
      *this, "l2-cache-bytes",
      llvm::cl::desc("CPU: L2 cache per core that matmul blocking plans for "
                     "(0: the host's, read from sysfs)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> targetCPU{
      *this, "target-cpu",
      llvm::cl::desc("CPU to generate code for, recorded on every LLVM "
                     "function (e.g. znver4, x86-64-v3, host; empty: leave "
                     "to the backend)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("LLVM target features, recorded on every LLVM function "
                     "(e.g. +avx2,+fma, or host)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> emitCInterface{
      *this, "emit-c-interface",
      llvm::cl::desc("Give public functions a _mlir_ciface_ wrapper (memref "
                     "descriptors by pointer), as graph-run calls them"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> threads{
      *this, "threads",
      llvm::cl::desc("CPU: threads the parallel loops of the generated code "
                     "run on, through the OpenMP runtime (graph-cpu-"
                     "parallelize; 1: one thread, no OpenMP runtime needed). "
                     "graph-run and Python default to the cores the process "
                     "may use, AOT objects to 1"),
      llvm::cl::init(1)};
  PassOptions::Option<int64_t> parallelMinWork{
      *this, "parallel-min-work",
      llvm::cl::desc("CPU, threads > 1: the smallest estimated work of a "
                     "loop run on several threads (graph-cpu-parallelize's "
                     "min-work: operations, a vector op counted once per "
                     "512 bits)"),
      llvm::cl::init(32768)};
  PassOptions::Option<bool> outlineKernels{
      *this, "outline-kernels",
      llvm::cl::desc("CPU: give each kernel's loop nest a function of its "
                     "own, identical kernels one shared function "
                     "(graph-cpu-outline-kernels: LLVM compiles many small "
                     "functions faster than one large one)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> planMemory{
      *this, "plan-memory",
      llvm::cl::desc("CPU: place each function's statically sized "
                     "intermediates in one arena allocated per call, at "
                     "offsets planned from their lifetimes at compile time "
                     "(graph-cpu-plan-memory; off: one allocation per "
                     "buffer)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> runtimeAllocator{
      *this, "runtime-allocator",
      llvm::cl::desc("Allocate buffers through graphopt's runtime allocator "
                     "(_mlir_memref_to_llvm_alloc/free from libGraphOpt.so, "
                     "which reuses freed buffers) instead of malloc/free"),
      llvm::cl::init(false)};

  // CUDA target.
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("NVIDIA target chip (sm_80, sm_90, ...; sm_90a: Hopper "
                     "wgmma matmul kernels, graph-gpu-matmul's wgmma)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (MLIR 22's default PTX 6.0 is rejected for "
                     "sm_80/sm_90)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Device code format: 'isa' (PTX text, no CUDA toolkit "
                     "needed), 'bin' (cubin, runs ptxas) or 'fatbin'"),
      llvm::cl::init("isa")};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("CUDA: threads per block of the generic kernels "
                     "(elementwise, copies; see graph-gpu-tile-parallel-loops)"),
      llvm::cl::init(256)};
  PassOptions::Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("CUDA, sm_80+: f32 matmuls on tensor cores with TF32 "
                     "multiplicands (rounded to 10 mantissa bits, f32 "
                     "accumulation; graph-gpu-matmul's tf32-tensor-cores). "
                     "Off by default: f32 products stay IEEE f32"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> tma{
      *this, "tma",
      llvm::cl::desc("CUDA, sm_90a: the wgmma matmul kernel's tiles copied "
                     "by TMA (tensor maps encoded by the runtime, an "
                     "mbarrier per stage; graph-gpu-matmul's wgmma-tma). "
                     "Off: by cp.async, every thread computing addresses"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> cpuEmulation{
      *this, "cpu-emulation",
      llvm::cl::desc("CUDA, testing aid: run the kernels as loops on the "
                     "host CPU instead of generating device code (warp "
                     "kernels with their lanes in lockstep at shuffles, "
                     "matmul kernels with a block's threads in lockstep at "
                     "barriers; graph-gpu-launch-to-loops)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> lowerHost{
      *this, "lower-host",
      llvm::cl::desc("CUDA: lower the host side to the LLVM dialect calling "
                     "libGraphOptCUDARuntime (off: stop at gpu.launch_func "
                     "on memrefs, to read the kernels)"),
      llvm::cl::init(true)};
};

/// The CPU and CUDA pipelines take the same options (the target is implied).
using CPUPipelineOptions = CompilePipelineOptions;
using CUDAPipelineOptions = CompilePipelineOptions;

/// Adds the fixed-point graph optimizer to `pm` (a module pass manager).
void buildGraphOptimizePipeline(OpPassManager &pm,
                                const GraphOptimizeOptions &options);

/// Adds the pipeline of `options.target` (cpu or cuda). Both targets share
/// the graph-level front half (optimization, fusion, graph -> linalg).
void buildCompilePipeline(OpPassManager &pm,
                          const CompilePipelineOptions &options);

/// Adds graph -> linalg -> (tiled, vectorized) -> bufferized -> LLVM dialect.
void buildCPUPipeline(OpPassManager &pm, const CPUPipelineOptions &options);

/// Adds graph -> linalg -> bufferized -> kernels (dedicated matmul and
/// reduction kernels, other ops as parallel loop nests mapped to blocks and
/// threads) -> one outlined gpu.func each -> NVVM -> PTX/cubin/fatbin in a
/// gpu.binary. With lowerHost, buffers are device memory
/// (graph-gpu-device-buffers) and the host side becomes LLVM calling
/// libGraphOptCUDARuntime: the entry takes and returns device buffers.
void buildCUDAPipeline(OpPassManager &pm, const CUDAPipelineOptions &options);

/// The vector width (f32 lanes) of the host CPU: 16 with AVX-512, 8 with AVX2
/// or AVX, 4 otherwise.
int64_t getHostVectorWidth();

/// The same for the CPU code is generated for (the pipeline's target-cpu
/// and target-features: an x86 CPU name such as x86-64-v3 or znver4, and
/// "+avx512f,-avx2"-style features; empty or "host": the host's).
int64_t getTargetVectorWidth(llvm::StringRef cpu, llvm::StringRef features);

/// Whether the CPU code is generated for (as for getTargetVectorWidth) has
/// `feature` (an LLVM feature name such as "avx512vnni").
bool targetHasFeature(llvm::StringRef cpu, llvm::StringRef features,
                      llvm::StringRef feature);

/// Whether that CPU has AMX-INT8 tiles (`amx-tile`, `amx-int8`) and, when
/// it is the host, the operating system grants this process their state.
bool targetHasAMXInt8(llvm::StringRef cpu, llvm::StringRef features);

/// Registers `graph-optimize-pipeline`, `graph-compile-pipeline`,
/// `graph-cpu-pipeline` and `graph-cuda-pipeline` for textual
/// pipelines (`--pass-pipeline`, `graph-opt --graph-cpu-pipeline`).
void registerPipelines();

} // namespace mlir::graphopt

#endif // GRAPHOPT_PIPELINES_PIPELINES_H
