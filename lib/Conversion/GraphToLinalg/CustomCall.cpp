//===- CustomCall.cpp - fusion.custom_call to func.call -------------------===//
//
// fusion.custom_call @f(%in...) -> a call of the C-interface function
// `_mlir_ciface_f(in memrefs..., out memrefs...)` on buffers: inputs through
// bufferization.to_buffer (read-only), outputs freshly allocated and turned
// back into tensors. The callee is declared `private` with
// `llvm.emit_c_interface` so LLVM lowering calls the ciface symbol.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgUtils.h"

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::graphopt;

namespace {

struct CustomCallLowering : OpRewritePattern<fusion::CustomCallOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(fusion::CustomCallOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    SmallVector<Value> args;
    SmallVector<Type> argTypes;
    for (Value in : op.getInputs()) {
      auto t = cast<RankedTensorType>(in.getType());
      auto mt = MemRefType::get(t.getShape(), t.getElementType());
      args.push_back(bufferization::ToBufferOp::create(b, loc, mt, in,
                                                       /*read_only=*/true));
      argTypes.push_back(mt);
    }
    SmallVector<Value> outs;
    for (Type r : op.getResultTypes()) {
      auto t = cast<RankedTensorType>(r);
      auto mt = MemRefType::get(t.getShape(), t.getElementType());
      // Dynamic dims are sized like operand 0 (verified).
      SmallVector<Value> dynSizes;
      for (int64_t d = 0; d < t.getRank(); ++d)
        if (t.isDynamicDim(d))
          dynSizes.push_back(
              tensor::DimOp::create(b, loc, op.getInputs()[0], d));
      Value buf = memref::AllocOp::create(b, loc, mt, dynSizes);
      outs.push_back(buf);
      args.push_back(buf);
      argTypes.push_back(mt);
    }
    auto fnType = b.getFunctionType(argTypes, {});
    StringRef name = op.getCallee();
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      fn = func::FuncOp::create(b, loc, name, fnType);
      fn.setPrivate();
      fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
    } else if (fn.getFunctionType() != fnType) {
      // A tensor-typed declaration (from the user's source) is replaced.
      if (!fn.isExternal())
        return b.notifyMatchFailure(op, "callee is defined in the module");
      fn.setType(fnType);
      fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
    }
    func::CallOp::create(b, loc, name, TypeRange{}, args);
    SmallVector<Value> results;
    for (auto [buf, r] : llvm::zip(outs, op.getResultTypes()))
      results.push_back(bufferization::ToTensorOp::create(
          b, loc, r, buf, /*restrict=*/true, /*writable=*/true));
    b.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::graphopt::lowering::populateCustomCallLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<CustomCallLowering>(patterns.getContext());
}
