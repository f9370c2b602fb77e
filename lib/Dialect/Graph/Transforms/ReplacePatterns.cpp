//===- ReplacePatterns.cpp - graph-replace-patterns -----------------------===//
//
// Subgraph replacement by example, as torch.fx.subgraph_rewriter does: the
// user writes the subgraph to find and the one to put in its place as two
// ordinary functions. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"

#include "graphopt/Dialect/Graph/Transforms/RewriteVerification.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::graphopt::graph {
#define GEN_PASS_DEF_GRAPHREPLACEPATTERNSPASS
#include "graphopt/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::graph

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {

/// One match of a pattern function in a target function.
struct Match {
  /// Pattern value -> target value, for wildcards and op results.
  IRMapping values;
  /// Matched target ops (one per pattern op).
  llvm::SetVector<Operation *> ops;
};

class Matcher {
public:
  Matcher(func::FuncOp pattern) : pattern(pattern) {}

  /// Tries to match the pattern with its anchor at `anchor`.
  std::optional<Match> matchAt(Operation *anchor) {
    auto ret = cast<func::ReturnOp>(pattern.getBody().back().getTerminator());
    if (ret.getNumOperands() == 0)
      return std::nullopt;
    Value root = ret.getOperand(0);
    if (isa<BlockArgument>(root))
      return std::nullopt; // An identity pattern matches nothing useful.
    auto rootResult = cast<OpResult>(root);
    if (anchor->getNumResults() <= rootResult.getResultNumber())
      return std::nullopt;
    Match m;
    if (!matchValue(root, anchor->getResult(rootResult.getResultNumber()), m))
      return std::nullopt;
    // Every wildcard must be bound (the replacement may use it).
    for (BlockArgument arg : pattern.getArguments())
      if (!m.values.contains(arg))
        return std::nullopt;
    // Every returned value must be part of the match.
    for (Value v : ret.getOperands())
      if (!m.values.contains(v))
        return std::nullopt;
    // Values used outside the match must be returned by the pattern: the
    // rest of the match disappears.
    llvm::DenseSet<Value> outputs;
    for (Value v : ret.getOperands())
      outputs.insert(m.values.lookup(v));
    for (Operation *op : m.ops)
      for (Value r : op->getResults())
        for (Operation *user : r.getUsers())
          if (!m.ops.contains(user) && !outputs.contains(r))
            return std::nullopt;
    return m;
  }

private:
  bool matchValue(Value p, Value t, Match &m) {
    if (Value bound = m.values.lookupOrNull(p))
      return bound == t;
    if (isa<BlockArgument>(p)) {
      m.values.map(p, t);
      return true;
    }
    auto pr = cast<OpResult>(p);
    auto tr = dyn_cast<OpResult>(t);
    if (!tr || tr.getResultNumber() != pr.getResultNumber())
      return false;
    Operation *po = pr.getOwner(), *to = tr.getOwner();
    if (m.ops.contains(to))
      return false; // One target op for two pattern ops.
    if (po->getName() != to->getName() ||
        po->getNumOperands() != to->getNumOperands() ||
        po->getNumResults() != to->getNumResults() ||
        po->getNumRegions() != 0 || to->getNumRegions() != 0)
      return false;
    if (po->getDiscardableAttrDictionary() !=
            to->getDiscardableAttrDictionary() ||
        po->getPropertiesAsAttribute() != to->getPropertiesAsAttribute())
      return false;
    for (auto [pv, tv] : llvm::zip(po->getResults(), to->getResults()))
      m.values.map(pv, tv);
    m.ops.insert(to);
    for (auto [pv, tv] : llvm::zip(po->getOperands(), to->getOperands()))
      if (!matchValue(pv, tv, m))
        return false;
    return true;
  }

  func::FuncOp pattern;
};

/// Clones the ops of `body` (but its terminator) at `b`'s insertion point
/// through `map`, giving each clone the result types inferred from the
/// operands it now has. Returns the clones.
SmallVector<Operation *> cloneWithInferredTypes(OpBuilder &b, Block &body,
                                                IRMapping &map) {
  SmallVector<Operation *> created;
  for (Operation &op : body.without_terminator()) {
    Operation *clone = b.clone(op, map);
    created.push_back(clone);
    SmallVector<RankedTensorType> types;
    if (succeeded(inferResultTypes(clone, types)))
      for (auto [r, t] : llvm::zip(clone->getResults(), types))
        r.setType(t);
  }
  return created;
}

/// Inlines `replacement` at `m`'s anchor and rewires the pattern's outputs.
/// Returns false (leaving the IR unchanged) if a type would change.
bool applyReplacement(func::FuncOp pattern, func::FuncOp replacement,
                      Operation *anchor, Match &m) {
  auto patRet = cast<func::ReturnOp>(pattern.getBody().back().getTerminator());
  auto repRet =
      cast<func::ReturnOp>(replacement.getBody().back().getTerminator());
  // The insertion point: after the last matched op in program order.
  Operation *last = anchor;
  for (Operation *op : m.ops)
    if (last->isBeforeInBlock(op))
      last = op;
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  IRMapping map;
  for (auto [parg, rarg] :
       llvm::zip(pattern.getArguments(), replacement.getArguments()))
    map.map(rarg, m.values.lookup(parg));
  SmallVector<Operation *> created =
      cloneWithInferredTypes(b, replacement.getBody().front(), map);
  SmallVector<Value> newValues;
  for (Value v : repRet.getOperands())
    newValues.push_back(map.lookupOrDefault(v));
  for (auto [pv, nv] : llvm::zip(patRet.getOperands(), newValues)) {
    Value old = m.values.lookup(pv);
    // A replacement op that does not infer its types (fusion.custom_call)
    // may produce a less static but compatible type: cast it back.
    if (old.getType() != nv.getType() &&
        areCompatibleTensorTypes(old.getType(), nv.getType())) {
      auto cast = tensor::CastOp::create(b, nv.getLoc(), old.getType(), nv);
      created.push_back(cast);
      nv = cast.getResult();
    }
    if (old.getType() != nv.getType()) {
      for (Operation *op : llvm::reverse(created))
        op->erase();
      return false;
    }
  }
  for (auto [pv, nv] : llvm::zip(patRet.getOperands(), newValues))
    m.values.lookup(pv).replaceAllUsesWith(nv);
  // Erase the matched ops, users first.
  SmallVector<Operation *> dead(m.ops.begin(), m.ops.end());
  llvm::sort(dead,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  for (Operation *op : dead)
    if (op->use_empty())
      op->erase();
  return true;
}

/// A standalone module with one public function @check: `source`'s body
/// with its arguments typed `argTypes` and graph result types re-inferred.
OwningOpRef<ModuleOp> extractFunction(func::FuncOp source, TypeRange argTypes) {
  MLIRContext *ctx = source.getContext();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(source.getLoc());
  b.setInsertionPointToEnd(module->getBody());
  auto fn = func::FuncOp::create(b, source.getLoc(), "check",
                                 b.getFunctionType(argTypes, {}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  IRMapping map;
  for (auto [from, to] :
       llvm::zip(source.getArguments(), entry->getArguments()))
    map.map(from, to);
  cloneWithInferredTypes(b, source.getBody().front(), map);
  auto ret = cast<func::ReturnOp>(source.getBody().back().getTerminator());
  SmallVector<Value> results;
  for (Value v : ret.getOperands())
    results.push_back(map.lookupOrDefault(v));
  func::ReturnOp::create(b, source.getLoc(), results);
  fn.setType(b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  return module;
}

/// Runs `pattern` and `replacement` (as matched in `m`) on the same inputs.
/// Returns a description of the first disagreement, or std::nullopt.
std::optional<std::string> verifyRewrite(func::FuncOp pattern,
                                         func::FuncOp replacement, Match &m) {
  SmallVector<Type> argTypes;
  for (BlockArgument arg : pattern.getArguments()) {
    auto t = dyn_cast<RankedTensorType>(m.values.lookup(arg).getType());
    if (!t)
      return std::string("a wildcard matched a non-tensor value");
    argTypes.push_back(t);
  }
  OwningOpRef<ModuleOp> before = extractFunction(pattern, argTypes);
  OwningOpRef<ModuleOp> after = extractFunction(replacement, argTypes);
  return checkSameResults(*before, *after, "check",
                          {"the pattern", "the replacement"});
}

struct GraphReplacePatternsPass
    : public mlir::graphopt::graph::impl::GraphReplacePatternsPassBase<
          GraphReplacePatternsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // File-level errors carry no location: the module's would print it.
    Location fileLoc = UnknownLoc::get(&getContext());
    if (patternsFile.empty()) {
      mlir::emitError(fileLoc,
                      "graph-replace-patterns needs patterns-file=FILE");
      return signalPassFailure();
    }
    llvm::SourceMgr sourceMgr;
    auto buffer = llvm::MemoryBuffer::getFile(patternsFile);
    if (!buffer) {
      mlir::emitError(fileLoc, "cannot read patterns file '")
          << patternsFile << "': " << buffer.getError().message();
      return signalPassFailure();
    }
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
    OwningOpRef<ModuleOp> patterns =
        parseSourceFile<ModuleOp>(sourceMgr, &getContext());
    if (!patterns) {
      mlir::emitError(fileLoc, "cannot parse patterns file '")
          << patternsFile << "'";
      return signalPassFailure();
    }

    // Pair @pattern_NAME with @replacement_NAME, in file order.
    SmallVector<std::tuple<std::string, func::FuncOp, func::FuncOp>> pairs;
    for (auto fn : patterns->getOps<func::FuncOp>()) {
      StringRef name = fn.getName();
      if (!name.consume_front("pattern_"))
        continue;
      auto rep =
          patterns->lookupSymbol<func::FuncOp>(("replacement_" + name).str());
      if (!rep) {
        mlir::emitError(fn.getLoc(), "no @replacement_")
            << name << " for @pattern_" << name;
        return signalPassFailure();
      }
      if (rep.getNumArguments() != fn.getNumArguments() ||
          rep.getNumResults() != fn.getNumResults()) {
        mlir::emitError(rep.getLoc(), "@replacement_")
            << name << " must take the arguments of @pattern_" << name
            << " and return as many values (" << fn.getNumArguments()
            << " arguments, " << fn.getNumResults() << " results)";
        return signalPassFailure();
      }
      pairs.emplace_back(name.str(), fn, rep);
    }
    if (pairs.empty()) {
      mlir::emitError(fileLoc, "patterns file '")
          << patternsFile << "' has no @pattern_NAME functions";
      return signalPassFailure();
    }

    for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (fn.isExternal())
        continue;
      for (auto &[name, pat, rep] : pairs) {
        Matcher matcher(pat);
        // Program order; ops created or erased by a replacement are not
        // revisited.
        SmallVector<Operation *> candidates;
        fn.walk([&](Operation *op) { candidates.push_back(op); });
        llvm::DenseSet<Operation *> erased;
        for (Operation *op : candidates) {
          if (erased.contains(op))
            continue;
          std::optional<Match> m = matcher.matchAt(op);
          if (!m)
            continue;
          Location loc = op->getLoc();
          if (verifyRewrites) {
            if (std::optional<std::string> problem =
                    verifyRewrite(pat, rep, *m)) {
              emitWarning(loc) << "rewrite '" << name
                               << "' rejected by verify-rewrites: " << *problem;
              ++numRejected;
              continue;
            }
          }
          SmallVector<Operation *> matched(m->ops.begin(), m->ops.end());
          if (!applyReplacement(pat, rep, op, *m)) {
            emitWarning(loc) << "pattern '" << name
                             << "' matched but its replacement would change a "
                                "result type; skipped";
            continue;
          }
          erased.insert(matched.begin(), matched.end());
          ++numReplaced;
          if (report)
            llvm::errs() << "graph-replace-patterns: '" << name << "' in @"
                         << fn.getName() << " at " << loc << "\n";
        }
      }
    }
  }
};

} // namespace
