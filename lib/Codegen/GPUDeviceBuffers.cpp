//===- GPUDeviceBuffers.cpp - graph-gpu-device-buffers --------------------===//
//
// After kernel outlining the host functions of the CUDA target only
// allocate, copy and free buffers and launch kernels. This pass makes those
// buffers device memory, so that the host code never touches tensor data:
//
//   memref.alloc            -> gpu.alloc
//   memref.dealloc          -> gpu.dealloc
//   memref.copy             -> gpu.memcpy       (contiguous buffers only)
//   memref.get_global @c    -> gpu.alloc + gpu.memcpy at entry,
//                              gpu.dealloc before each return
//
// Entry arguments and results are device buffers (the caller uploads the
// inputs and downloads the results). Anything else that reads or writes a
// device buffer on the host is an error naming the op.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUDEVICEBUFFERSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// The buffer `v` is a view of (through subviews, reshapes and casts).
Value rootBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      v = view.getViewSource();
      continue;
    }
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      v = cast.getSource();
      continue;
    }
    break;
  }
  return v;
}

bool isDeviceBuffer(Value v) {
  Value root = rootBuffer(v);
  if (isa<BlockArgument>(root))
    return true;
  return isa_and_nonnull<gpu::AllocOp, memref::AllocOp, memref::GetGlobalOp>(
      root.getDefiningOp());
}

/// A memref whose elements are contiguous in row-major order, so that a
/// byte copy of the whole buffer is a copy of the memref.
bool isContiguous(MemRefType t) {
  return t.getLayout().isIdentity() ||
         (t.hasStaticShape() && memref::isStaticShapeAndContiguousRowMajor(t));
}

struct GraphGPUDeviceBuffersPass
    : public graphopt::impl::GraphGPUDeviceBuffersPassBase<
          GraphGPUDeviceBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (!fn.isExternal() && failed(convert(fn)))
        return signalPassFailure();
  }

  LogicalResult convert(func::FuncOp fn) {
    // Host-side accesses to tensor data first, while the buffers' origins
    // are still visible.
    WalkResult checked = fn.walk([&](Operation *op) {
      Value memref;
      if (auto load = dyn_cast<memref::LoadOp>(op))
        memref = load.getMemRef();
      else if (auto store = dyn_cast<memref::StoreOp>(op))
        memref = store.getMemRef();
      else
        return WalkResult::advance();
      if (!isDeviceBuffer(memref))
        return WalkResult::advance();
      op->emitError() << "'" << op->getName()
                      << "' reads or writes a tensor's data on the host; the "
                         "CUDA target keeps tensors in device memory and "
                         "supports no host-side element access yet "
                         "(data-dependent control flow such as graph.if and "
                         "graph.loop, or sequential loops like cumsum)";
      return WalkResult::interrupt();
    });
    if (checked.wasInterrupted())
      return failure();

    IRRewriter rewriter(fn.getContext());
    SmallVector<Operation *> ops;
    fn.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
              memref::GetGlobalOp>(op))
        ops.push_back(op);
    });
    Block &entry = fn.getBody().front();
    SmallVector<func::ReturnOp> returns;
    fn.walk([&](func::ReturnOp r) { returns.push_back(r); });

    for (Operation *op : ops) {
      Location loc = op->getLoc();
      rewriter.setInsertionPoint(op);
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        auto dev = gpu::AllocOp::create(
            rewriter, loc, alloc.getType(), /*asyncToken=*/Type(),
            /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
            alloc.getSymbolOperands(), /*hostShared=*/false);
        rewriter.replaceOp(alloc, dev.getMemref());
        continue;
      }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        gpu::DeallocOp::create(rewriter, loc, /*asyncToken=*/Type(),
                               ValueRange(), dealloc.getMemref());
        rewriter.eraseOp(dealloc);
        continue;
      }
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        auto src = cast<MemRefType>(copy.getSource().getType());
        auto dst = cast<MemRefType>(copy.getTarget().getType());
        if (!isContiguous(src) || !isContiguous(dst))
          return copy.emitError()
                 << "copy between strided views on the host (" << src
                 << " to " << dst
                 << "): the CUDA target copies whole contiguous buffers only";
        gpu::MemcpyOp::create(rewriter, loc, /*asyncToken=*/Type(),
                              ValueRange(), copy.getTarget(),
                              copy.getSource());
        rewriter.eraseOp(copy);
        continue;
      }
      // A constant: uploaded at entry, freed before returning (unless it is
      // returned, when the caller owns it).
      auto global = cast<memref::GetGlobalOp>(op);
      MemRefType type = global.getType();
      rewriter.moveOpBefore(global, &entry, entry.begin());
      rewriter.setInsertionPointAfter(global);
      auto dev = gpu::AllocOp::create(rewriter, loc, type, Type(),
                                      ValueRange(), ValueRange(), ValueRange(),
                                      /*hostShared=*/false);
      Value buffer = dev.getMemref();
      rewriter.replaceAllUsesWith(global.getResult(), buffer);
      gpu::MemcpyOp::create(rewriter, loc, Type(), ValueRange(), buffer,
                            global.getResult());
      for (func::ReturnOp ret : returns) {
        if (llvm::is_contained(ret.getOperands(), buffer))
          continue;
        rewriter.setInsertionPoint(ret);
        gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange(), buffer);
      }
    }
    return success();
  }
};

} // namespace
