//===- CPUMatmul.h - cache-blocked, packed matmul for the CPU ---*- C++ -*-===//
//
/// \file
/// The CPU matmul strategy's cache level, on tensors: B is packed into
/// contiguous `[N/nr][K][nr]` panels and A into `[M/mr][K][mr]`
/// micro-panels (A stored transposed; a constant operand at compile time),
/// and the matmul is tiled into reduction blocks of `kc`, column blocks of
/// `nc`, then row micro-panels of `mr` and column panels of `nr`: the
/// `mr x kc` block of A stays in L1 while the `kc x nr` panels of the
/// L2-resident `kc x nc` block of B stream past it, each one contiguous run.
/// What is left inside the loops is an `mr x nr x kc` matmul, which
/// `graph-cpu-tile-and-vectorize` register-tiles. Block sizes come from the
/// cache sizes of the machine compiled for.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_CODEGEN_CPUMATMUL_H
#define GRAPHOPT_CODEGEN_CPUMATMUL_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class Operation;
class RewriterBase;
class Value;
namespace linalg {
class LinalgOp;
} // namespace linalg
} // namespace mlir

namespace mlir::graphopt {

/// Data cache sizes per core, in bytes (what blocking plans for).
struct CPUCacheSizes {
  int64_t l1 = 32 * 1024;
  int64_t l2 = 1024 * 1024;
};

/// The cache sizes of the host's first CPU (Linux sysfs); the defaults of
/// CPUCacheSizes where they cannot be read.
CPUCacheSizes getHostCacheSizes();

/// The vector registers of the ISA whose f32 vectors have `vectorWidth`
/// lanes: 32 with AVX-512 (16 lanes), 16 with AVX2 (8). Register blocks
/// (matmul, direct convolution) are sized from it.
inline int64_t vectorRegisters(int64_t vectorWidth) {
  return vectorWidth >= 16 ? 32 : 16;
}

/// The largest divisor of `size` that is at most `limit` and a multiple of
/// `multiple` (which divides `size`); `multiple` when none is larger.
int64_t largestDivisor(int64_t size, int64_t limit, int64_t multiple = 1);

/// On the k loop of a register block that reads a packed B panel: how many
/// rows of that panel further on the next panel's same rows lie (the
/// panel's K), for graph-cpu-prefetch to prefetch them into L2 while this
/// panel's block is computed.
inline constexpr llvm::StringLiteral kPrefetchPanelRowsAttr =
    "graphopt.prefetch_panel_rows";

/// Block sizes of one matmul: the register tile `mr x nr`, the reduction
/// block `kc` and the column block `nc`. Every size divides the dim it
/// blocks.
struct CPUMatmulBlocking {
  int64_t mr = 0, nr = 0, kc = 0, nc = 0;
  /// The column panels loop outside the row micro-panels (BLIS's order):
  /// each `kc x nr` panel of B stays in L1 while every micro-panel of the
  /// L2-resident `m x kc` block of A streams past it. Chosen where B is
  /// larger than L2 and A's rows few (weights streamed from memory).
  bool panelsOuter = false;
  /// The L2 size the blocking was chosen for (bytes; 0: unknown).
  int64_t l2 = 0;
};

/// Chooses the blocking of an `m x n x k` f32 matmul whose register tile is
/// `mr x nr`: `kc` so that an `mr x kc` micro-panel of A fills at most a
/// quarter of L1, rounded down to a divisor of `k` (the whole of `k` when
/// that divisor would be tiny), and `nc` so that a `kc x nc` block of B
/// fills at most half of L2 (a divisor of `n`, a multiple of `nr`).
/// Where B does not fit in L2 and A has 2 to 8 micro-panels, the column
/// panels loop outermost instead (`panelsOuter`), with
/// `kc` such that a `kc x nr` panel of B fills at most half of L1.
CPUMatmulBlocking chooseMatmulBlocking(int64_t m, int64_t n, int64_t k,
                                       int64_t mr, int64_t nr,
                                       const CPUCacheSizes &caches,
                                       int64_t threads = 1);

/// Whether to try packing at all: the matmul is large enough (m n k >= 2^18)
/// and its columns are whole register blocks. Which operands are packed is
/// then decided per operand by packAndBlockMatmul: a constant always (at
/// compile time), B at run time when its panels are reused by at least 16
/// row micro-panels, A when its micro-panels are reused by at least 4
/// column panels. Below that the register kernel reads operands in place.
bool shouldPackMatmul(int64_t m, int64_t n, int64_t k,
                      const CPUMatmulBlocking &blocking);

/// Rewrites `op`, a `linalg.matmul` on static f32 tensors with the default
/// indexing maps, into the packed, cache-blocked loop nest described above.
/// Returns the inner `mr x nr x kc` matmul, which reads a slice of packed B,
/// for the caller to register-tile: with packed A (when its blocks are
/// reused by at least 4 column panels) an `mr x nr x kc` matmul whose A is
/// stored transposed, otherwise one reading A in place. `packOps` receives
/// the ops that pack at run time (B's are absent when B is a constant), for
/// the caller to vectorize. When `firstKBlock` is given, it is set to an
/// i1 value, defined before the inner matmul, that is true in the first
/// reduction block (where an accumulator known to start at zero need not be
/// read); `lastKBlock`, likewise, to one that is true in the last (where
/// an epilogue applies to the finished sums).
/// `packedB`, when given, is set to whether B was packed.
FailureOr<linalg::LinalgOp>
packAndBlockMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                   const CPUMatmulBlocking &blocking,
                   SmallVectorImpl<linalg::LinalgOp> &packOps,
                   Value *firstKBlock = nullptr, bool *packedB = nullptr,
                   Value *lastKBlock = nullptr);

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_CPUMATMUL_H
