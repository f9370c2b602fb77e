//===- GPUUtils.h - helpers shared by the CUDA codegen passes ---*- C++ -*-===//
//
// Private to lib/Codegen.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_LIB_CODEGEN_GPUUTILS_H
#define GRAPHOPT_LIB_CODEGEN_GPUUTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::graphopt {

/// The combiners whose operands commute and that have a neutral element
/// (arith::getNeutralElement): the order in which lanes and the butterfly
/// combine partial values does not change the result beyond rounding.
inline bool isCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MaxNumFOp,
             arith::MinimumFOp, arith::MinNumFOp, arith::AddIOp, arith::MulIOp,
             arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::MaxSIOp,
             arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(op);
}

/// Creates `combiner(lhs, rhs)`: an op of the same kind and attributes
/// (fastmath flags included) as `combiner`.
inline Value combine(OpBuilder &b, Location loc, Operation *combiner, Value lhs,
                     Value rhs) {
  OperationState state(loc, combiner->getName(), ValueRange{lhs, rhs},
                       combiner->getResultTypes(), combiner->getAttrs());
  return b.create(state)->getResult(0);
}

/// The combiner of a reduction `linalg.generic` (`generic`) with one output:
/// its body yields `combiner(f(inputs), out)`, uses `out` nowhere else and
/// has no memory effects, and the combiner (an isCombiner op of type
/// `elemType`) has a neutral element, returned in `neutral`. Null otherwise,
/// with the reason in `why`. Shared by graph-gpu-map-reductions and
/// graph-gpu-split-reductions (defined in GPUMapReductions.cpp).
Operation *matchReductionCombiner(Operation *generic, Type elemType,
                                  TypedAttr &neutral, const char *&why);

/// Index arithmetic at a builder's insertion point.
struct Idx {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, c(y)) : x; }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, c(y)).getResult();
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, loc, x, c(y)).getResult();
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, c(y));
  }
};

/// Kernels built on graph-level tensors (graph-gpu-row-kernels,
/// graph-gpu-attention) read their operands' buffers and write a fresh one
/// that stands for the result.
/// The buffer of `tensor` (static shape), read only.
inline Value toBuffer(OpBuilder &b, Location loc, Value tensor) {
  auto tt = cast<RankedTensorType>(tensor.getType());
  return bufferization::ToBufferOp::create(
             b, loc, MemRefType::get(tt.getShape(), tt.getElementType()),
             tensor, /*read_only=*/true)
      .getResult();
}

/// A fresh buffer for a result of type `t`.
inline Value resultBuffer(OpBuilder &b, Location loc, RankedTensorType t) {
  return memref::AllocOp::create(
      b, loc, MemRefType::get(t.getShape(), t.getElementType()));
}

/// `out`, which a kernel writes, as the tensor of type `t` it stands for.
inline Value bufferAsTensor(OpBuilder &b, Location loc, RankedTensorType t,
                            Value out) {
  return bufferization::ToTensorOp::create(b, loc, t, out, /*restrict=*/true,
                                           /*writable=*/true);
}

/// Lanes of a warp: the x threads of the warp kernels' blocks.
constexpr int64_t kWarpSize = 32;

/// The private declaration `name` of type `type` in `module`, created at
/// the module's start if missing (a runtime function the generated code
/// calls).
inline func::FuncOp getOrDeclareFunction(ModuleOp module, StringRef name,
                                         FunctionType type, Location loc) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto fn = func::FuncOp::create(b, loc, name, type);
  fn.setPrivate();
  return fn;
}

/// `v` of the lane `offset` away in the xor butterfly (`gpu.shuffle xor`
/// over the whole warp).
inline Value shuffleXor(OpBuilder &b, Location loc, Value v, int64_t offset) {
  return gpu::ShuffleOp::create(b, loc, v, offset, kWarpSize,
                                gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

/// The registers of `n` (1, 2 or 4) 8x8 matrices of 16-bit elements (8 x 4
/// of 32-bit ones) read from shared `mem` by one warp-collective
/// `nvgpu.ldmatrix`, `idx` being this lane's row address (lanes 8q .. 8q + 7
/// address the rows of matrix q); one vector<2 x T> (vector<1 x f32>) per
/// matrix, holding row lane / 4, elements 2 (lane % 4) and the next (or,
/// transposed, column lane / 4 of those rows). Defined in GPUMatmul.cpp.
SmallVector<Value> loadMatrices(Idx &x, Value mem, ValueRange idx, int64_t n,
                                bool transpose);

/// One warp-collective `nvvm.mma.sync` D = A B + C, row.col, m16n8k16 for
/// f16/bf16 multiplicands (`type`), m16n8k8 for TF32 (`type` f32): `a`, 4
/// registers, and `b`, 2, in the PTX fragment layout (f16: vector<2xf16>;
/// bf16: vector<2xbf16> or i32; TF32: i32), `c` 4 f32 accumulators;
/// returns D's 4 values.
/// Defined in GPUMatmul.cpp.
SmallVector<Value> warpMma(Idx &x, Type type, ValueRange a, ValueRange b,
                           ValueRange c);

/// Checks a warp kernel pass's `warps-per-block` (a block holds at most
/// 1024 threads, 32 per warp); emits the error on `op` otherwise.
inline LogicalResult checkWarpsPerBlock(Operation *op, unsigned warps) {
  if (warps >= 1 && warps <= 32)
    return success();
  return op->emitError() << "warps-per-block must be in [1, 32] (at most "
                            "1024 threads per block), got "
                         << static_cast<int64_t>(warps);
}

/// The memref a memref.load or memref.store accesses; null for other ops.
inline Value getAccessedMemRef(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  return Value();
}

/// The outermost `scf.parallel` loops under `root` that are host code (not
/// nested in another parallel loop or in a `gpu.launch`): the loop nests
/// that become the generic kernels, in walk order.
inline SmallVector<scf::ParallelOp> hostParallelLoops(Operation *root) {
  SmallVector<scf::ParallelOp> loops;
  root->walk([&](scf::ParallelOp loop) {
    if (!loop->getParentOfType<scf::ParallelOp>() &&
        !loop->getParentOfType<gpu::LaunchOp>())
      loops.push_back(loop);
  });
  return loops;
}

/// Whether `fn` is the helper of the deallocation lowering
/// (`dealloc_helper`): host code over pointer bookkeeping, no tensor data.
inline bool isDeallocHelper(func::FuncOp fn) {
  return fn.getName().starts_with("dealloc_helper");
}

/// Whether `memref` is host scratch memory of the deallocation lowering: a
/// buffer (of pointers or flags) passed, possibly through casts, to
/// `dealloc_helper`. It lives in host memory on every target.
inline bool isHostScratch(Value memref) {
  while (auto cast = memref.getDefiningOp<memref::CastOp>())
    memref = cast.getSource();
  if (!isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
          memref.getDefiningOp()))
    return false;
  SmallVector<Value> worklist = {memref};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto cast = dyn_cast<memref::CastOp>(user))
        worklist.push_back(cast.getResult());
      else if (auto call = dyn_cast<func::CallOp>(user);
               call && call.getCallee().starts_with("dealloc_helper"))
        return true;
    }
  }
  return false;
}

} // namespace mlir::graphopt

#endif // GRAPHOPT_LIB_CODEGEN_GPUUTILS_H
