//===- LowerAllocaScopes.cpp - graph-cpu-lower-alloca-scopes --------------===//
//
// memref.alloca_scope -> llvm.intr.stacksave; body; llvm.intr.stackrestore.
// convert-scf-to-openmp wraps each parallel loop body in a scope; the op
// must hold one block, which convert-scf-to-cf breaks for bodies with
// loops, so the scopes are lowered before it (as memref-to-LLVM would).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPULOWERALLOCASCOPESPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// memref.alloca_scope (without results) -> stacksave; body; stackrestore.
struct GraphCPULowerAllocaScopesPass
    : mlir::graphopt::impl::GraphCPULowerAllocaScopesPassBase<
          GraphCPULowerAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation().walk([&](memref::AllocaScopeOp scope) {
      if (scope->getNumResults() == 0)
        scopes.push_back(scope);
    });
    IRRewriter rewriter(&getContext());
    // Innermost first (the walk is post-order), so inlining an outer scope
    // moves already-lowered inner ones.
    for (memref::AllocaScopeOp scope : scopes) {
      Location loc = scope.getLoc();
      rewriter.setInsertionPoint(scope);
      auto ptr = LLVM::LLVMPointerType::get(&getContext());
      Value saved = LLVM::StackSaveOp::create(rewriter, loc, ptr);
      Block &body = scope.getBodyRegion().front();
      Operation *ret = body.getTerminator();
      rewriter.setInsertionPoint(ret);
      LLVM::StackRestoreOp::create(rewriter, loc, saved);
      rewriter.eraseOp(ret);
      rewriter.inlineBlockBefore(&body, scope);
      rewriter.eraseOp(scope);
    }
  }
};

} // namespace
