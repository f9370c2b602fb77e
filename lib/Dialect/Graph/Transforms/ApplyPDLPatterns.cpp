//===- ApplyPDLPatterns.cpp - graph-apply-pdl-patterns --------------------===//
//
// User rewrite rules in PDLL or PDL, loaded when the pass runs and compiled
// to PDL bytecode. See the pass description in Passes.td.
//
// Each function is rewritten on its own so that it can be restored on its
// own: a copy is kept, and when the rewritten body does not verify, or
// verify-rewrites finds that its results changed, the copy's body goes back.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/Transforms/PDLPatterns.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"

#include "graphopt/Dialect/Graph/Transforms/RewriteVerification.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::graphopt::graph {
#define GEN_PASS_DEF_GRAPHAPPLYPDLPATTERNSPASS
#include "graphopt/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::graph

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {

/// Records the root op of every successful pattern application. (Patterns
/// compiled to PDL bytecode carry no name; the root op and its location
/// identify the rewrite.)
struct RewriteRecorder : RewriterBase::Listener {
  struct Rewrite {
    OperationName root;
    Location loc;
  };

  void notifyPatternBegin(const Pattern &, Operation *op) override {
    current.emplace(Rewrite{op->getName(), op->getLoc()});
  }
  void notifyPatternEnd(const Pattern &, LogicalResult status) override {
    if (succeeded(status) && current)
      rewrites.push_back(*current);
    current.reset();
  }

  std::optional<Rewrite> current;
  SmallVector<Rewrite> rewrites;
};

/// "1 rewrite", "2 rewrites".
std::string pluralRewrites(size_t n) {
  return std::to_string(n) + (n == 1 ? " rewrite" : " rewrites");
}

/// Verifies `fn`; returns the verifier's messages if it fails.
std::optional<std::string> verifyCollectingErrors(func::FuncOp fn) {
  std::string messages;
  ScopedDiagnosticHandler collect(fn.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      messages += (messages.empty() ? "" : "; ") + diag.str();
    return success();
  });
  if (succeeded(verify(fn)))
    return std::nullopt;
  return messages;
}

struct GraphApplyPDLPatternsPass
    : public mlir::graphopt::graph::impl::GraphApplyPDLPatternsPassBase<
          GraphApplyPDLPatternsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (patternsFile.empty()) {
      emitError(module.getLoc(),
                "graph-apply-pdl-patterns needs patterns-file=FILE");
      return signalPassFailure();
    }
    PDLLoadOptions options;
    options.mlirPDLL = mlirPDLL;
    options.includeDirs.assign(includeDirs.begin(), includeDirs.end());
    OwningOpRef<ModuleOp> pdlModule = loadPDLPatternModule(
        &getContext(), patternsFile, options, module.getLoc());
    if (!pdlModule)
      return signalPassFailure();
    PDLPatternModule pdlPatterns(std::move(pdlModule));
    registerGraphPDLFunctions(pdlPatterns);
    RewritePatternSet set(&getContext());
    set.add(std::move(pdlPatterns));
    FrozenRewritePatternSet patterns(std::move(set));

    for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (!fn.isExternal())
        rewriteFunction(module, fn, patterns);
  }

  void rewriteFunction(ModuleOp module, func::FuncOp fn,
                       const FrozenRewritePatternSet &patterns) {
    OwningOpRef<func::FuncOp> original = fn.clone();

    RewriteRecorder recorder;
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal()
        .enableFolding(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
        .setListener(&recorder);
    bool changed = false;
    if (failed(applyPatternsGreedily(fn, patterns, config, &changed)))
      emitWarning(fn.getLoc(), "graph-apply-pdl-patterns: the patterns did "
                               "not converge on @")
          << fn.getName() << " in " << config.getMaxIterations()
          << " sweeps (do two rules undo each other?)";
    if (!changed)
      return;

    auto restore = [&] {
      fn.getBody().takeBody(original->getBody());
      ++numRestored;
    };
    size_t numApplied = recorder.rewrites.size();
    if (std::optional<std::string> errors = verifyCollectingErrors(fn)) {
      restore();
      emitWarning(fn.getLoc(), "graph-apply-pdl-patterns: @")
          << fn.getName() << " is invalid after " << pluralRewrites(numApplied)
          << ", restored: " << *errors;
      return;
    }
    if (verifyRewrites) {
      // Both programs are the whole module (the function may call others),
      // before with the original body.
      OwningOpRef<ModuleOp> after = module.clone();
      OwningOpRef<ModuleOp> before = module.clone();
      OwningOpRef<func::FuncOp> copy = original->clone();
      before->lookupSymbol<func::FuncOp>(fn.getName())
          .getBody()
          .takeBody(copy->getBody());
      if (std::optional<std::string> problem = checkSameResults(
              *before, *after, fn.getName(),
              {"the original function", "the rewritten one"})) {
        restore();
        emitWarning(fn.getLoc(), "rewrites of @")
            << fn.getName() << " rejected by verify-rewrites ("
            << pluralRewrites(numApplied) << " undone): " << *problem;
        return;
      }
    }
    numRewrites += numApplied;
    if (report)
      for (const RewriteRecorder::Rewrite &r : recorder.rewrites)
        llvm::errs() << "graph-apply-pdl-patterns: rewrote '" << r.root
                     << "' in @" << fn.getName() << " at " << r.loc << "\n";
  }
};

} // namespace
