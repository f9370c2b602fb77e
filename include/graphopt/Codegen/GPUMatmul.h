//===- GPUMatmul.h - CUDA matmul kernels built as gpu.launch ----*- C++ -*-===//
//
/// \file
/// Builds tiled matmul kernels for NVIDIA GPUs directly as `gpu.launch` ops
/// on memrefs: a tensor-core kernel (WMMA through `gpu.subgroup_mma_*`) for
/// f16 inputs and a SIMT kernel with register tiles for f32 (IEEE, never
/// TF32) and bf16 inputs. Both stage A and B tiles in double-buffered shared
/// memory. `graph-gpu-matmul` is the pass that uses them; other pipelines can
/// call the builder on their own contractions.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_CODEGEN_GPUMATMUL_H
#define GRAPHOPT_CODEGEN_GPUMATMUL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace gpu {
class LaunchOp;
}
namespace linalg {
class LinalgOp;
}
} // namespace mlir

namespace mlir::graphopt {

/// Tile sizes of the kernels built by buildGPUMatmulKernel.
struct GPUMatmulTiles {
  /// Tensor-core kernel: block tile, K tile and the tile of one warp; the
  /// block has (mmaM / mmaWarpM) * (mmaN / mmaWarpN) warps.
  int64_t mmaM = 64, mmaN = 64, mmaK = 32;
  int64_t mmaWarpM = 32, mmaWarpN = 32;
  /// Shared-memory stages of the tensor-core kernel's A and B tiles filled
  /// by asynchronous copies (`cp.async`, sm_80 and later); below 2, the
  /// tiles are double-buffered through registers instead.
  int64_t mmaAsyncStages = 3;
  /// bf16 inputs on tensor cores (`mma.sync` m16n8k16, sm_80 and later)
  /// with the mma* block and warp tiles; otherwise the SIMT kernel.
  bool mmaSyncBF16 = true;
  /// f32 inputs on tensor cores as TF32 (`mma.sync` m16n8k8, sm_80 and
  /// later; each multiplicand rounded to 10 mantissa bits), with the mma*
  /// tiles; otherwise (default) IEEE f32 on the SIMT kernel.
  bool mmaSyncTF32 = false;
  /// Hopper (sm_90a): f16/bf16 products whose M and N are multiples of 128
  /// and K of 64 on warpgroup MMAs (`wgmma.mma_async`): 128x128x64 blocks
  /// of two warpgroups, mmaAsyncStages (at least 2) cp.async stages of
  /// 128-byte-swizzled tiles. Needs chip sm_90a (the `a` features).
  bool wgmma = false;
  /// The wgmma kernel's tiles copied by TMA (`cp.async.bulk.tensor`, one
  /// producer thread, an mbarrier per stage; the runtime encodes the
  /// operands' tensor maps) where the operands allow it (strides multiples
  /// of 16 bytes); otherwise by cp.async.
  bool wgmmaTMA = true;
  /// Products with M <= 8 (matrix-vector-like) on a kernel that streams B
  /// once with 16-byte loads and splits K over threads (a warp per column
  /// of C when B is stored [N, K]); otherwise they are left to the default
  /// lowering.
  bool skinny = true;
  /// SIMT kernel: block tile, K tile and the register tile of one thread;
  /// the block has (simtM / simtThreadM) * (simtN / simtThreadN) threads.
  int64_t simtM = 128, simtN = 128, simtK = 8;
  int64_t simtThreadM = 8, simtThreadN = 8;
};

/// A contraction C[b, m, n] += A[b, m, k] * B[b, k, n] on memrefs with
/// static shapes and identity layouts, the batch dimension b optional. A may
/// be stored as [b, k, m] and B as [b, n, k] (the `transpose*` flags).
struct GPUContraction {
  Value lhs, rhs, acc;
  bool transposeLhs = false, transposeRhs = false;
  /// Batch size; 0 when there is no batch dimension.
  int64_t batch = 0;
  int64_t m = 0, n = 0, k = 0;
  /// When positive, `lhs` (stored [b?, m, k]) has only this many rows, fewer
  /// than `m`: the kernels read row min(row, lhsRows - 1) of it instead,
  /// so the rows of C past it hold garbage (C is then a padded buffer
  /// whose extra rows nothing reads).
  int64_t lhsRows = 0;
  /// When positive, the kernel stores only the rows of C (or of the
  /// epilogue's output) below it: the output has that many rows, fewer
  /// than `m` (the rows past it are padding).
  int64_t rowsOut = 0;
  /// The accumulators start at zero in registers instead of being loaded
  /// from `acc` (set when `acc` was just filled with zeros: the kernel
  /// writes every element, so the fill can go).
  bool zeroInit = false;
  /// An elementwise `linalg.generic` after the contraction that reads C
  /// (bias, activation, a cast to f16/bf16; see matchGPUEpilogue), applied
  /// to the accumulators before the kernel's one store: the kernel writes
  /// its result to the generic's output and does not store C. Null: the
  /// kernel stores C.
  Operation *epilogue = nullptr;
};

/// Recognizes `op` (a linalg op on memrefs: matmul, batch_matmul, or a
/// generic with contraction maps and a multiply-add body) as a
/// GPUContraction with f16, bf16 or f32 inputs (both the same) and an f32
/// output. Fails, with the reason in `why` when given, otherwise.
FailureOr<GPUContraction> matchGPUContraction(linalg::LinalgOp op,
                                              std::string *why = nullptr);

/// Finds the elementwise op to fuse into the kernel of contraction `op`
/// (matched as `c`) and sets `c.epilogue`: the first `linalg.generic` after
/// `op` in its block that reads C, where only allocations and pure ops lie
/// between them; all its loops parallel over C's shape; C read once with
/// the identity map; one output, of C's shape, written with the identity
/// map, either C itself or a fresh allocation (never a buffer the kernel
/// reads: other blocks are still reading A and B); other inputs read with
/// maps of dims and constants (a bias broadcast); a body of pure ops with
/// no regions and no `linalg.index`. When the output is not C, C must be
/// a local allocation used after the generic only by its deallocation.
/// Fails, with the reason in `why` when given, otherwise.
LogicalResult matchGPUEpilogue(linalg::LinalgOp op, GPUContraction &c,
                               std::string *why = nullptr);

/// Which kernel buildGPUMatmulKernel builds.
enum class GPUMatmulKernelKind { TensorCore, Wgmma, Simt, Skinny };

/// Builds at `b`'s insertion point a `gpu.launch` that computes `c`: the
/// tensor-core kernel for f16 inputs when its tiles divide M, N and K, else
/// the SIMT kernel. The SIMT block and thread tiles are halved (down to a
/// 4x4 thread tile, keeping the thread count) along M or N when they do not
/// divide it. With `c.epilogue`, the kernel applies it to each accumulator
/// and stores its result instead of C: the tensor-core kernel stages the
/// accumulator fragments in shared memory (reusing the A and B tiles'
/// space) for a pass in which consecutive threads take consecutive
/// columns; the SIMT kernel applies it in registers. Build it where the
/// epilogue is (its output may be allocated after the contraction). Builds
/// nothing and fails, with the reason in `why` when given, when no kernel's
/// tiles divide the problem or the tensor-core epilogue's staging tile
/// does not fit in shared memory. Assumes, as CUDA allocations
/// guarantee, that the memrefs' base addresses are 32-byte aligned.
FailureOr<gpu::LaunchOp>
buildGPUMatmulKernel(OpBuilder &b, Location loc, const GPUContraction &c,
                     const GPUMatmulTiles &tiles,
                     GPUMatmulKernelKind *kind = nullptr,
                     std::string *why = nullptr);

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_GPUMATMUL_H
