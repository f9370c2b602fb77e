//===- GPUDeviceBuffers.cpp - graph-gpu-device-buffers --------------------===//
//
// After kernel outlining the host functions of the CUDA target only
// allocate, copy and free buffers and launch kernels. This pass makes those
// buffers device memory, so that the host code never touches tensor data
// (but for reads and writes of small whole buffers, through a host copy:
// the condition of graph.if and graph.loop):
//
//   memref.alloc            -> gpu.alloc
//   memref.dealloc          -> gpu.dealloc
//   memref.copy             -> gpu.memcpy       (contiguous buffers only)
//   memref.get_global @c    -> the runtime's device copy of @c, uploaded
//                              on first use and cached
//                              (graphopt_cuda_constant_<type>)
//
// Entry arguments and results are device buffers (the caller uploads the
// inputs and downloads the results). A host-side memref.load or
// memref.store of a whole, static, contiguous device buffer of at most 4
// KiB works on a host copy exchanged by gpu.memcpy (a read waits for the
// kernels that wrote the buffer: data-dependent control flow synchronizes,
// as `.item()` does in eager PyTorch). Anything else that reads or writes
// a device buffer on the host is an error naming the op.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "GPUUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
  if (graphopt::isHostScratch(v))
    return false;
  Value root = rootBuffer(v);
  if (isa<BlockArgument>(root))
    return true;
  return isa_and_nonnull<gpu::AllocOp, memref::AllocOp, memref::GetGlobalOp>(
      root.getDefiningOp());
}

/// A memref whose elements are contiguous in row-major order, so that a
/// byte copy of the whole buffer is a copy of the memref.
/// (Identity layouts only: the gpu.memcpy lowering copies from the aligned
/// pointer and ignores a view's offset.)
bool isContiguous(MemRefType t) { return t.getLayout().isIdentity(); }

/// Replaces the uses of `global` by the runtime's cached device copy of the
/// constant: `graphopt_cuda_constant_<elt>(memref<?xelt>) -> memref<?xelt>`
/// (C interface; libGraphOptCUDARuntime), called on the flattened buffer.
LogicalResult useDeviceConstant(IRRewriter &rewriter,
                                memref::GetGlobalOp global) {
  MemRefType type = global.getType();
  Type elt = type.getElementType();
  std::string eltName;
  llvm::raw_string_ostream(eltName) << elt;
  if (!llvm::is_contained({"f16", "bf16", "f32", "f64", "i1", "i8", "i16",
                           "i32", "i64"},
                          eltName) ||
      !type.getLayout().isIdentity() || !type.hasStaticShape())
    return failure();
  MLIRContext *ctx = rewriter.getContext();
  auto module = global->getParentOfType<ModuleOp>();
  Location loc = global.getLoc();
  std::string name = "graphopt_cuda_constant_" + eltName;
  auto flatDynamic = MemRefType::get({ShapedType::kDynamic}, elt);
  func::FuncOp decl = graphopt::getOrDeclareFunction(
      module, name, FunctionType::get(ctx, {flatDynamic}, {flatDynamic}), loc);
  decl->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                UnitAttr::get(ctx));
  int64_t rank = type.getRank();
  auto flat = MemRefType::get({type.getNumElements()}, elt);
  SmallVector<ReassociationIndices> all;
  if (rank > 0)
    all.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
  // At function entry: the call is a host synchronization point
  // (gpu-async-region), cheapest before any kernel is queued.
  auto fn = global->getParentOfType<func::FuncOp>();
  rewriter.moveOpBefore(global, &fn.getBody().front(),
                        fn.getBody().front().begin());
  rewriter.setInsertionPointAfter(global);
  Value host = global.getResult();
  Value hostFlat = host;
  if (rank == 0)
    hostFlat = memref::ExpandShapeOp::create(rewriter, loc, flat, host, all);
  else if (rank > 1)
    hostFlat = memref::CollapseShapeOp::create(rewriter, loc, host, all);
  Value arg = memref::CastOp::create(rewriter, loc, flatDynamic, hostFlat);
  Value dev = func::CallOp::create(rewriter, loc, decl, ValueRange{arg})
                  .getResult(0);
  Value devFlat = memref::CastOp::create(rewriter, loc, flat, dev);
  Value result = devFlat;
  if (rank == 0)
    result = memref::CollapseShapeOp::create(rewriter, loc, type, devFlat, all);
  else if (rank > 1)
    result = memref::ExpandShapeOp::create(rewriter, loc, type, devFlat, all);
  Operation *first = hostFlat == host ? arg.getDefiningOp()
                                      : hostFlat.getDefiningOp();
  rewriter.replaceAllUsesExcept(host, result, first);
  return success();
}

/// Bytes of a device buffer the host may read or write (copied whole per
/// access).
constexpr int64_t kMaxHostReadBytes = 4096;

/// The buffer a host-side load or store of `memref` accesses, if the host
/// can work on a copy of it: the buffer itself (not a view: gpu.memcpy
/// copies whole identity-layout buffers), static, of at most
/// kMaxHostReadBytes.
Value stageableBuffer(Value memref) {
  Value buffer = memref;
  while (auto cast = buffer.getDefiningOp<memref::CastOp>())
    buffer = cast.getSource();
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.hasStaticShape() || !isContiguous(type) ||
      rootBuffer(memref) != buffer)
    return Value();
  // (i1 takes a byte, as in LLVM's memory layout.)
  int64_t bytes = (type.getElementTypeBitWidth() + 7) / 8;
  if (type.getNumElements() * bytes > kMaxHostReadBytes)
    return Value();
  return buffer;
}

/// The host's access to a small device buffer goes to a host copy (a
/// memref.alloca at function entry, one per access): for a read, the copy
/// is made just before it (gpu.memcpy, ordered after the kernels that
/// wrote the buffer; gpu-async-region puts a host wait before the read, a
/// host op with memory effects); for a write, the copy (unless the write
/// replaces the whole buffer) is made, written and copied back (ordered
/// before the kernels that read it after).
void stageHostAccess(IRRewriter &rewriter, func::FuncOp fn, Operation *op,
                     Value buffer) {
  Value memref = graphopt::getAccessedMemRef(op);
  auto type = cast<MemRefType>(buffer.getType());
  Location loc = op->getLoc();
  rewriter.setInsertionPointToStart(&fn.getBody().front());
  Value host = memref::AllocaOp::create(rewriter, loc, type);
  rewriter.setInsertionPoint(op);
  bool store = isa<memref::StoreOp>(op);
  if (!store || type.getNumElements() != 1)
    gpu::MemcpyOp::create(rewriter, loc, /*asyncToken=*/Type(), ValueRange(),
                          host, buffer);
  Value hostView = host;
  if (memref != buffer)
    hostView = memref::CastOp::create(rewriter, loc, memref.getType(), host);
  rewriter.modifyOpInPlace(op,
                           [&] { op->setOperand(store ? 1 : 0, hostView); });
  if (store) {
    rewriter.setInsertionPointAfter(op);
    gpu::MemcpyOp::create(rewriter, loc, /*asyncToken=*/Type(), ValueRange(),
                          buffer, host);
  }
}

struct GraphGPUDeviceBuffersPass
    : public graphopt::impl::GraphGPUDeviceBuffersPassBase<
          GraphGPUDeviceBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (!fn.isExternal() && !graphopt::isDeallocHelper(fn) &&
          failed(convert(fn)))
        return signalPassFailure();
  }

  LogicalResult convert(func::FuncOp fn) {
    // Host-side accesses to tensor data first, while the buffers' origins
    // are still visible.
    // (Before outlining, as in CPU emulation, kernel bodies are still
    // inline: what is inside a gpu.launch is device code, left alone.)
    auto inKernel = [](Operation *op) {
      return op->getParentOfType<gpu::LaunchOp>() != nullptr;
    };
    // Accesses to small whole buffers (a reduction's 0-d result tested by
    // graph.if, graph.loop's condition, trip count and counters, an index)
    // go through a host copy; anything else is an error.
    SmallVector<std::pair<Operation *, Value>> hostAccesses;
    WalkResult checked = fn.walk([&](Operation *op) {
      Value memref = graphopt::getAccessedMemRef(op);
      if (inKernel(op))
        return WalkResult::advance();
      if (!memref || !isDeviceBuffer(memref))
        return WalkResult::advance();
      if (Value buffer = stageableBuffer(memref)) {
        hostAccesses.push_back({op, buffer});
        return WalkResult::advance();
      }
      op->emitError() << "'" << op->getName()
                      << "' reads or writes a tensor's data on the host; the "
                         "CUDA target keeps tensors in device memory and "
                         "accesses on the host (through a copy) only whole "
                         "static tensors of at most "
                      << kMaxHostReadBytes
                      << " bytes, such as the condition of graph.if or "
                         "graph.loop, not views or larger ones";
      return WalkResult::interrupt();
    });
    if (checked.wasInterrupted())
      return failure();

    IRRewriter rewriter(fn.getContext());
    for (auto [op, buffer] : hostAccesses)
      stageHostAccess(rewriter, fn, op, buffer);
    SmallVector<Operation *> ops;
    fn.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
              memref::GetGlobalOp>(op) &&
          !inKernel(op) &&
          !(isa<memref::AllocOp>(op) &&
            graphopt::isHostScratch(op->getResult(0))) &&
          !(isa<memref::DeallocOp>(op) &&
            graphopt::isHostScratch(op->getOperand(0))))
        ops.push_back(op);
    });
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
      // A constant: the runtime's device copy, uploaded on first use and
      // kept (graphopt_cuda_constant_<type>); never freed here.
      auto global = cast<memref::GetGlobalOp>(op);
      if (failed(useDeviceConstant(rewriter, global)))
        return global.emitError()
               << "constant of type " << global.getType()
               << " cannot be placed in device memory (the CUDA target "
                  "supports static, identity-layout constants of f16, bf16, "
                  "f32, f64, i1, i8, i16, i32, i64)";
    }
    return success();
  }
};

} // namespace
