//===- EmitCInterface.cpp - graph-emit-c-interface ------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHEMITCINTERFACEPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {
struct GraphEmitCInterfacePass
    : public graphopt::impl::GraphEmitCInterfacePassBase<
          GraphEmitCInterfacePass> {
  using Base::Base;
  void runOnOperation() override {
    UnitAttr unit = UnitAttr::get(&getContext());
    BoolAttr readOnly = BoolAttr::get(&getContext(), false);
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (!fn.isPublic() || fn.isExternal())
        continue;
      fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), unit);
      // Callers own the input buffers: bufferization must not write into
      // them in place.
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (isa<TensorType>(fn.getArgument(i).getType()))
          fn.setArgAttr(i, "bufferization.writable", readOnly);
    }
  }
};
} // namespace
