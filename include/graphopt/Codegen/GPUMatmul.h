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
  /// The accumulators start at zero in registers instead of being loaded
  /// from `acc` (set when `acc` was just filled with zeros: the kernel
  /// writes every element, so the fill can go).
  bool zeroInit = false;
};

/// Recognizes `op` (a linalg op on memrefs: matmul, batch_matmul, or a
/// generic with contraction maps and a multiply-add body) as a
/// GPUContraction with f16, bf16 or f32 inputs (both the same) and an f32
/// output. Fails, with the reason in `why` when given, otherwise.
FailureOr<GPUContraction> matchGPUContraction(linalg::LinalgOp op,
                                              std::string *why = nullptr);

/// Which kernel buildGPUMatmulKernel builds.
enum class GPUMatmulKernelKind { TensorCore, Simt };

/// Builds at `b`'s insertion point a `gpu.launch` that computes `c`: the
/// tensor-core kernel for f16 inputs when its tiles divide M, N and K, else
/// the SIMT kernel. The SIMT block and thread tiles are halved (down to a
/// 4x4 thread tile, keeping the thread count) along M or N when they do not
/// divide it. Builds nothing and fails, with the reason in `why` when given,
/// when no kernel's tiles divide the problem. Assumes, as CUDA allocations
/// guarantee, that the memrefs' base addresses are 32-byte aligned.
FailureOr<gpu::LaunchOp>
buildGPUMatmulKernel(OpBuilder &b, Location loc, const GPUContraction &c,
                     const GPUMatmulTiles &tiles,
                     GPUMatmulKernelKind *kind = nullptr,
                     std::string *why = nullptr);

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_GPUMATMUL_H
