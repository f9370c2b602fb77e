//===- FormGroups.cpp - fusion-form-groups and the fusion report ----------===//
//
// Planning walks the block once in program order. Every graph op starts as
// its own group (union-find); for each op, the edges from its operands'
// producers are decided by the rules below and fusible producer groups are
// merged into the op's group. A merge must keep every group *convex*: all
// values a group reads from outside are defined before its first op, so the
// group can be placed there and no path leaves the group and comes back
// (checked by scanning the two groups' ops, at most max-group-size each). Multi-consumer producers are recomputed in each
// consumer's group when the cost model allows, and left unfused otherwise.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Fusion/Transforms/FusionPlanner.h"

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Dialect/Fusion/Transforms/Passes.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::graphopt::fusion {
#define GEN_PASS_DEF_FUSIONFORMGROUPSPASS
#include "graphopt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::fusion

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::fusion;
namespace g = mlir::graphopt::graph;

namespace {

//===----------------------------------------------------------------------===//
// Op classes and costs
//===----------------------------------------------------------------------===//

enum class OpClass { Elementwise, Layout, Reduction, Contraction, Other };

bool isTrig(Operation *op) {
  using namespace g;
  return isa<GRAPH_TRIG_OPS>(op);
}

OpClass classify(Operation *op) {
  if (isa<g::AddOp, g::SubOp, g::MulOp, g::DivOp, g::MaxOp, g::MinOp, g::PowOp,
          g::RemOp, g::NegOp, g::AbsOp, g::ExpOp, g::LogOp, g::SqrtOp,
          g::RsqrtOp, g::TanhOp, g::SigmoidOp, g::ReluOp, g::SiluOp, g::GeluOp,
          g::ErfOp, g::HardSwishOp, g::HardSigmoidOp, g::LeakyReluOp,
          g::ClampOp, g::CompareOp, g::SelectOp, g::CastOp, g::BitwiseAndOp,
          g::BitwiseOrOp, g::BitwiseXorOp, g::ShiftLeftOp, g::ShiftRightOp,
          g::FloorOp, g::CeilOp, g::RoundOp>(op) ||
      isTrig(op))
    return OpClass::Elementwise;
  // Read through an affine map by the consumer's loop nest: fusible like
  // elementwise ops.
  if (isa<g::BroadcastToOp, g::TransposeOp>(op))
    return OpClass::Layout;
  if (isa<g::ReduceOp, g::SoftmaxOp>(op))
    return OpClass::Reduction;
  if (isa<g::MatMulOp, g::Conv2DOp, LinearOp>(op))
    return OpClass::Contraction;
  return OpClass::Other;
}

/// Arithmetic per result element, in "flops" (a transcendental ~ 20).
double flopsPerElement(Operation *op) {
  return llvm::TypeSwitch<Operation *, double>(op)
      .Case<g::ExpOp, g::LogOp, g::TanhOp, g::SigmoidOp, g::SiluOp, g::GeluOp,
            g::ErfOp>([](auto) { return 20.0; })
      .Case<g::PowOp>([](auto) { return 30.0; })
      .Case<g::DivOp, g::RemOp, g::SqrtOp, g::RsqrtOp>([](auto) { return 4.0; })
      .Case<g::HardSwishOp, g::HardSigmoidOp>([](auto) { return 4.0; })
      .Case<g::BroadcastToOp, g::TransposeOp>([](auto) { return 0.0; })
      .Default([](Operation *op) { return isTrig(op) ? 20.0 : 1.0; });
}

RankedTensorType resultType(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType());
}

int64_t elementBytes(RankedTensorType t) {
  return std::max<int64_t>(1, t.getElementTypeBitWidth() / 8);
}

bool isSmallConstant(Operation *op) {
  DenseElementsAttr attr;
  return matchPattern(op, m_Constant(&attr)) &&
         (attr.isSplat() || attr.getNumElements() <= 1);
}

bool isGraphLike(Operation *op) {
  return isa<g::GraphDialect, FusionDialect>(op->getDialect()) &&
         !isa<g::ConstantOp, GroupOp>(op) && op->getNumResults() >= 1 &&
         op->getNumRegions() == 0;
}

std::string opLabel(Operation *op) {
  return op->getName().getStringRef().str();
}

std::string locLabel(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

//===----------------------------------------------------------------------===//
// The planner
//===----------------------------------------------------------------------===//

struct GroupInfo {
  int64_t minPos = 0;
  unsigned size = 1;
  bool hasReduction = false, hasContraction = false;
};

class Planner {
public:
  Planner(Block &block, const FusionCostModel &model)
      : block(block), model(model) {}

  FusionPlan run();

private:
  int64_t posOf(Value v) const {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &block)
      return -1;
    auto it = position.find(def);
    return it == position.end() ? -1 : it->second;
  }
  Operation *leader(Operation *op) { return groups.getLeaderValue(op); }
  GroupInfo &info(Operation *op) { return infos[leader(op)]; }

  /// The multi-consumer cost term: recompute `producer` in `consumer`'s
  /// group if the arithmetic repeated is worth less than the traffic saved.
  void applyCostModel(Operation *producer, Operation *consumer,
                      FusionEdge &edge) {
    size_t users = llvm::range_size(producer->getUsers());
    RankedTensorType t = resultType(producer);
    double flops = flopsPerElement(producer) * double(users - 1);
    double saved = double(elementBytes(t)) * double(1 + users);
    if (flops <= model.flopsPerByte * saved &&
        classify(producer) != OpClass::Contraction &&
        classify(producer) != OpClass::Reduction) {
      edge.recomputed = true;
      edge.fused = true;
      edge.reason += llvm::formatv(
          "; {0} consumers: recomputed ({1} flop/element redone <= {2} "
          "flop/byte x {3} bytes/element saved)",
          users, flops, model.flopsPerByte, saved);
      recomputes.push_back({producer, consumer});
      return;
    }
    edge.rule = "multi-consumer-cost";
    edge.reason = llvm::formatv(
        "{0} has {1} consumers; recomputing it costs {2} flop/element, more "
        "than {3} flop/byte x {4} bytes/element saved",
        opLabel(producer), users, flops, model.flopsPerByte, saved);
  }

  /// Decides the edge producer -> consumer (operand `idx`); returns whether
  /// the producer's group may merge into the consumer's.
  bool decide(Operation *producer, Operation *consumer, FusionEdge &edge);

  Block &block;
  const FusionCostModel &model;
  llvm::DenseMap<Operation *, int64_t> position;
  llvm::EquivalenceClasses<Operation *> groups;
  llvm::DenseMap<Operation *, GroupInfo> infos;
  /// Ops of each group, by leader (groups are at most maxGroupSize ops, so
  /// scanning them is O(1) per merge).
  llvm::DenseMap<Operation *, SmallVector<Operation *>> members;
  FusionPlan plan;

  /// Latest position of a value that the union of the groups led by `a`
  /// and `b` reads from outside itself (-1: only arguments).
  int64_t externalMax(Operation *a, Operation *b) {
    int64_t m = -1;
    for (Operation *l : {a, b})
      for (Operation *op : members[l])
        for (Value v : op->getOperands()) {
          Operation *d = v.getDefiningOp();
          if (d && groups.contains(d) &&
              (leader(d) == a || leader(d) == b))
            continue;
          m = std::max(m, posOf(v));
        }
    return m;
  }
  /// Merges the group led by `b` into the one led by `a`; returns the new
  /// leader.
  Operation *merge(Operation *a, Operation *b) {
    SmallVector<Operation *> ma = std::move(members[a]),
                             mb = std::move(members[b]);
    members.erase(a);
    members.erase(b);
    groups.unionSets(a, b);
    Operation *l = leader(a);
    ma.append(mb.begin(), mb.end());
    members[l] = std::move(ma);
    return l;
  }
  /// Producers recomputed in a consumer's group: (producer, consumer).
  llvm::SmallVector<std::pair<Operation *, Operation *>> recomputes;
};

bool Planner::decide(Operation *producer, Operation *consumer,
                     FusionEdge &edge) {
  OpClass pc = classify(producer), cc = classify(consumer);
  auto set = [&](StringRef rule, std::string reason) {
    edge.rule = rule.str();
    edge.reason = std::move(reason);
  };
  if (pc == OpClass::Other || cc == OpClass::Other) {
    Operation *which = pc == OpClass::Other ? producer : consumer;
    set("not-fusible-op", opLabel(which) +
                              " is not fused with other ops (no loop nest "
                              "shared with its neighbours)");
    return false;
  }
  if (producer->getNumResults() != 1 || consumer->getNumResults() != 1) {
    set("multi-result", "ops with several results are not fused");
    return false;
  }
  RankedTensorType pt = resultType(producer), ct = resultType(consumer);
  bool sameShape = pt.getShape() == ct.getShape();
  if (cc == OpClass::Contraction) {
    set("contraction-operand",
        "operands of " + opLabel(consumer) +
            " are read in blocks many times; fusing the producer would "
            "recompute it for every block");
    return false;
  }
  if (pc == OpClass::Contraction) {
    if (cc == OpClass::Reduction) {
      set("contraction-into-reduction",
          "a reduction needs whole rows of the " + opLabel(producer) +
              " result, which its kernel produces in column blocks");
      return false;
    }
    if (!sameShape) {
      set("shape-mismatch", "the epilogue's shape differs from the " +
                                opLabel(producer) + " result");
      return false;
    }
    set("epilogue", opLabel(consumer) + " runs on the " + opLabel(producer) +
                        " result tile while it is in registers/cache");
    return true;
  }
  if (pc == OpClass::Reduction && cc == OpClass::Reduction) {
    set("reduction-into-reduction",
        "two reductions over different iteration spaces are separate loop "
        "nests");
    return false;
  }
  if (cc == OpClass::Reduction) {
    // Elementwise/layout producer of a reduction's input.
    if (consumer->getOperand(0).getDefiningOp() != producer) {
      set("shape-mismatch", "the producer is not the reduction's input");
      return false;
    }
    set("reduction-input",
        opLabel(producer) + " is computed inside the reduction loop");
    return true;
  }
  if (pc == OpClass::Reduction) {
    // Elementwise consumer of a reduction: fused if it runs over the
    // reduction's input space (softmax / layer-norm normalization) or over
    // the reduced values themselves (var + eps, rsqrt: once per row).
    RankedTensorType in =
        cast<RankedTensorType>(producer->getOperand(0).getType());
    if (sameShape && ct.getShape() != in.getShape()) {
      set("reduction-epilogue", opLabel(consumer) +
                                    " runs on the reduced values, once per "
                                    "row of the reduction");
      return true;
    }
    if (ct.getShape() != in.getShape()) {
      set("shape-mismatch",
          "the consumer does not iterate over the reduction's input space");
      return false;
    }
    set("reduction-output", opLabel(consumer) +
                                " reuses the reduced row while it is in "
                                "cache (softmax / normalization pattern)");
    return true;
  }
  // Elementwise / layout producer into an elementwise consumer.
  if (!sameShape && info(producer).hasReduction &&
      pt.getRank() == ct.getRank() &&
      llvm::all_of(llvm::zip(pt.getShape(), ct.getShape()), [](auto p) {
        return std::get<0>(p) == 1 || std::get<0>(p) == std::get<1>(p);
      })) {
    set("row-broadcast", opLabel(producer) +
                             " is a per-row value of a reduction group, "
                             "broadcast along the reduced dims within the "
                             "row tile (computed once per row)");
    return true;
  }
  if (!sameShape) {
    int64_t pn = pt.hasStaticShape() ? pt.getNumElements() : -1;
    int64_t cn = ct.hasStaticShape() ? ct.getNumElements() : -1;
    if (pn > 0 && cn > 0 && pn < cn && flopsPerElement(producer) <= 1.0) {
      set("loop-broadcast",
          opLabel(producer) + " is cheap (" +
              llvm::formatv("{0}", flopsPerElement(producer)).str() +
              " flop/element) and recomputed for each of the " +
              std::to_string(cn / pn) + " broadcast copies");
      return true;
    }
    set("shape-mismatch",
        "the producer is broadcast into the consumer and not cheap enough "
        "to recompute per copy");
    return false;
  }
  set("loop", "elementwise " + opLabel(producer) + " -> " +
                  opLabel(consumer) + " share one loop nest");
  return true;
}

FusionPlan Planner::run() {
  int64_t pos = 0;
  for (Operation &op : block)
    position[&op] = pos++;
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    if (isGraphLike(&op))
      ops.push_back(&op);
  for (Operation *op : ops) {
    groups.insert(op);
    members[op].push_back(op);
    GroupInfo &gi = infos[op];
    gi.minPos = position[op];
    gi.hasReduction = classify(op) == OpClass::Reduction;
    gi.hasContraction = classify(op) == OpClass::Contraction;
  }

  llvm::DenseSet<Operation *> graphOps(ops.begin(), ops.end());
  for (Operation *consumer : ops) {
    // Decide every incoming edge, then merge the fusible producer groups.
    SmallVector<std::pair<Operation *, size_t>> candidates, deferred;
    for (auto [idx, operand] : llvm::enumerate(consumer->getOperands())) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || !graphOps.contains(producer))
        continue;
      FusionEdge edge;
      edge.producer = producer;
      edge.consumer = consumer;
      edge.operand = idx;
      bool ok = decide(producer, consumer, edge);
      if (ok) {
        // Multi-consumer producers: fusing would need the value outside
        // the group as well; recompute it if cheap, else keep it apart.
        size_t users = llvm::range_size(producer->getUsers());
        bool lastUser = llvm::all_of(producer->getUsers(), [&](Operation *u) {
          return u == consumer || !graphOps.contains(u) ||
                 position[u] < position[consumer];
        });
        if (users > 1 && lastUser &&
            classify(producer) != OpClass::Contraction &&
            llvm::all_of(producer->getUsers(), [&](Operation *u) {
              return graphOps.contains(u);
            })) {
          // Maybe all consumers end up in this group: decided after the
          // single-consumer merges below.
          deferred.push_back({producer, plan.edges.size()});
          plan.edges.push_back(edge);
          continue;
        }
        if (users > 1) {
          applyCostModel(producer, consumer, edge);
          plan.edges.push_back(edge);
          continue;
        }
        candidates.push_back({producer, plan.edges.size()});
      }
      plan.edges.push_back(edge);
    }
    // Merge candidates one by one, keeping groups convex (everything a group
    // reads from outside is defined before its first op) and bounded.
    GroupInfo cur = info(consumer);
    auto tryMerge = [&](Operation *producer, FusionEdge &edge) -> bool {
      Operation *pl = leader(producer), *cl = leader(consumer);
      if (pl == cl)
        return true;
      GroupInfo &p = infos[pl];
      if (p.size + cur.size > model.maxGroupSize) {
        edge.rule = "group-size-limit";
        edge.reason = llvm::formatv("the merged group would have {0} ops, "
                                    "more than the limit of {1}",
                                    p.size + cur.size, model.maxGroupSize);
        return false;
      }
      if (p.hasContraction && cur.hasContraction) {
        edge.rule = "one-contraction-per-group";
        edge.reason = "a group holds at most one contraction";
        return false;
      }
      if ((p.hasContraction && cur.hasReduction) ||
          (p.hasReduction && cur.hasContraction)) {
        edge.rule = "contraction-with-reduction";
        edge.reason = "a group does not mix a contraction and a reduction";
        return false;
      }
      int64_t newMin = std::min(cur.minPos, p.minPos);
      if (externalMax(pl, cl) >= newMin) {
        edge.rule = "would-create-cycle";
        edge.reason = "the group would read a value defined after its first "
                      "op (a path would leave the group and come back)";
        return false;
      }
      merge(cl, pl);
      cur.minPos = newMin;
      cur.size += p.size;
      cur.hasReduction |= p.hasReduction;
      cur.hasContraction |= p.hasContraction;
      return true;
    };
    // A merge refused because the group would read a value defined after
    // its first op may become possible once that value's group has merged
    // too (x + y where x's group starts before y's): retry those until no
    // merge succeeds.
    struct Retry {
      Operation *producer;
      size_t edge;
      std::string rule, reason; // the edge's decision before the refusal
    };
    SmallVector<Retry> retry;
    for (auto [producer, edgeIdx] : candidates) {
      FusionEdge &edge = plan.edges[edgeIdx];
      Retry r{producer, edgeIdx, edge.rule, edge.reason};
      if (tryMerge(producer, edge))
        edge.fused = true;
      else if (edge.rule == "would-create-cycle")
        retry.push_back(std::move(r));
    }
    for (bool progress = true; progress && !retry.empty();) {
      progress = false;
      for (auto *it = retry.begin(); it != retry.end();) {
        FusionEdge &edge = plan.edges[it->edge];
        FusionEdge trial = edge;
        if (!tryMerge(it->producer, trial)) {
          ++it;
          continue;
        }
        edge.fused = true;
        edge.rule = it->rule;
        edge.reason =
            it->reason + " (merged after the group's other producers)";
        it = retry.erase(it);
        progress = true;
      }
    }
    // Multi-consumer producers whose consumers are all in this group now:
    // merged like single-consumer ones (nothing is needed outside).
    for (auto [producer, edgeIdx] : deferred) {
      FusionEdge &edge = plan.edges[edgeIdx];
      size_t users = llvm::range_size(producer->getUsers());
      bool allInside = llvm::all_of(producer->getUsers(), [&](Operation *u) {
        return leader(u) == leader(consumer);
      });
      FusionEdge trial = edge;
      if (allInside && tryMerge(producer, trial)) {
        edge.fused = true;
        edge.rule = "multi-consumer-internal";
        edge.reason = llvm::formatv("all {0} consumers of {1} are in this "
                                    "group: nothing is needed outside it",
                                    users, opLabel(producer));
        continue;
      }
      // Otherwise the cost model decides, as for other multi-consumer
      // producers.
      applyCostModel(producer, consumer, edge);
    }
    infos[leader(consumer)] = cur;
  }

  // Collect groups of >= 2 ops in program order.
  llvm::DenseMap<Operation *, unsigned> groupIndex;
  for (Operation *op : ops) {
    Operation *l = leader(op);
    auto it = groupIndex.find(l);
    if (it == groupIndex.end()) {
      it = groupIndex.insert({l, plan.groups.size()}).first;
      plan.groups.emplace_back();
    }
    plan.groups[it->second].push_back(op);
  }
  FusionPlan result;
  llvm::DenseMap<Operation *, unsigned> finalIndex;
  // A lone consumer with a recomputed producer still forms a group (of the
  // producer's clone and itself).
  llvm::DenseSet<Operation *> recomputeConsumers;
  for (auto [producer, consumer] : recomputes)
    recomputeConsumers.insert(consumer);
  for (auto &group : plan.groups) {
    if (group.size() < 2 &&
        !(group.size() == 1 && recomputeConsumers.contains(group.front())))
      continue;
    GroupInfo &gi = infos[leader(group.front())];
    for (Operation *op : group)
      finalIndex[op] = result.groups.size();
    result.kinds.push_back(gi.hasContraction  ? GroupKind::Output
                           : gi.hasReduction ? GroupKind::Input
                                             : GroupKind::Loop);
    result.groups.push_back(group);
  }
  result.recomputed.resize(result.groups.size());
  auto dropRecompute = [&](Operation *producer, Operation *consumer,
                           StringRef why) {
    for (FusionEdge &e : plan.edges)
      if (e.producer == producer && e.consumer == consumer) {
        e.fused = false;
        e.recomputed = false;
        e.rule = "multi-consumer-cost";
        e.reason = (opLabel(producer) + " has several consumers and would be "
                    "cheap to recompute, but " + why)
                       .str();
      }
  };
  for (auto [producer, consumer] : recomputes) {
    auto it = finalIndex.find(consumer);
    if (it == finalIndex.end()) {
      dropRecompute(producer, consumer,
                    "the consumer forms no group, so nothing is gained");
      continue;
    }
    auto pit = finalIndex.find(producer);
    if (pit != finalIndex.end()) {
      if (pit->second != it->second) {
        dropRecompute(producer, consumer,
                      "it belongs to another group, whose result is read");
        continue;
      }
      // The producer joined the consumer's group later: a plain fused edge.
      for (FusionEdge &e : plan.edges)
        if (e.producer == producer && e.consumer == consumer) {
          e.recomputed = false;
          e.rule = "multi-consumer-internal";
          e.reason = "all consumers of " + opLabel(producer) +
                     " ended up in this group";
        }
      continue;
    }
    // The clone goes before the group's first op: its operands must be
    // defined there.
    int64_t groupMin = position[result.groups[it->second].front()];
    if (llvm::any_of(producer->getOperands(),
                     [&](Value v) { return posOf(v) >= groupMin; })) {
      dropRecompute(producer, consumer,
                    "its operands are defined after the group starts");
      continue;
    }
    auto &list = result.recomputed[it->second];
    if (!llvm::is_contained(list, producer))
      list.push_back(producer);
  }
  result.edges = std::move(plan.edges);
  return result;
}

} // namespace

FusionPlan mlir::graphopt::fusion::planFusion(Block &block,
                                              const FusionCostModel &model) {
  return Planner(block, model).run();
}

//===----------------------------------------------------------------------===//
// Applying the plan
//===----------------------------------------------------------------------===//

void mlir::graphopt::fusion::applyFusionPlan(RewriterBase &rewriter,
                                             const FusionPlan &plan) {
  // Ops erased so far: a producer recomputed in several groups, or also a
  // member of one, must be looked at (and erased) once only.
  llvm::SmallPtrSet<Operation *, 32> erased;
  for (auto [index, group] : llvm::enumerate(plan.groups)) {
    llvm::SmallPtrSet<Operation *, 16> members(group.begin(), group.end());
    const auto &recomputed = plan.recomputed[index];
    // Ops cloned into the body, in program order: recomputed producers
    // come before the group's first op (they dominate it).
    SmallVector<Operation *> body(recomputed.begin(), recomputed.end());
    llvm::sort(body, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    body.append(group.begin(), group.end());
    llvm::SmallPtrSet<Operation *, 16> inBody(body.begin(), body.end());

    SmallVector<Value> inputs;
    SmallVector<Operation *> clonedConstants;
    llvm::DenseSet<Value> seen;
    for (Operation *op : body)
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (def && inBody.contains(def))
          continue;
        if (def && isSmallConstant(def)) {
          if (!llvm::is_contained(clonedConstants, def))
            clonedConstants.push_back(def);
          continue;
        }
        if (seen.insert(v).second)
          inputs.push_back(v);
      }
    SmallVector<Value> results;
    for (Operation *op : group)
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(), [&](Operation *u) {
              return !members.contains(u);
            }))
          results.push_back(r);

    Operation *first = group.front();
    rewriter.setInsertionPoint(first);
    SmallVector<Type> resultTypes;
    for (Value r : results)
      resultTypes.push_back(r.getType());
    Location loc = rewriter.getFusedLoc(llvm::to_vector(llvm::map_range(
        group, [](Operation *op) { return op->getLoc(); })));
    auto groupOp = GroupOp::create(rewriter, loc, resultTypes,
                                   plan.kinds[index], inputs);
    Block &block = groupOp.getBody().front();
    IRMapping map;
    for (auto [v, arg] : llvm::zip(inputs, block.getArguments()))
      map.map(v, arg);
    rewriter.setInsertionPointToStart(&block);
    for (Operation *c : clonedConstants)
      rewriter.clone(*c, map);
    for (Operation *op : body)
      rewriter.clone(*op, map);
    SmallVector<Value> yielded;
    for (Value r : results)
      yielded.push_back(map.lookup(r));
    rewriter.setInsertionPointToEnd(&block);
    if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
      rewriter.eraseOp(&block.back());
    YieldOp::create(rewriter, loc, yielded);
    for (auto [r, nr] : llvm::zip(results, groupOp.getResults()))
      rewriter.replaceUsesWithIf(r, nr, [&](OpOperand &use) {
        return !members.contains(use.getOwner());
      });
    for (Operation *op : llvm::reverse(group)) {
      erased.insert(op);
      rewriter.eraseOp(op);
    }
  }
  // Recomputed producers left without users.
  for (const auto &list : plan.recomputed)
    for (Operation *p : list)
      if (!erased.contains(p) && p->use_empty()) {
        erased.insert(p);
        rewriter.eraseOp(p);
      }
}

//===----------------------------------------------------------------------===//
// The report
//===----------------------------------------------------------------------===//

void mlir::graphopt::fusion::printFusionReport(llvm::raw_ostream &os,
                                               StringRef function,
                                               const FusionPlan &plan,
                                               bool json) {
  llvm::DenseMap<Operation *, unsigned> groupOf;
  for (auto [i, group] : llvm::enumerate(plan.groups))
    for (Operation *op : group)
      groupOf[op] = i;
  size_t fused = llvm::count_if(plan.edges,
                                [](const FusionEdge &e) { return e.fused; });
  if (json) {
    llvm::json::Array groups, edges;
    for (auto [i, group] : llvm::enumerate(plan.groups)) {
      llvm::json::Array ops, recomputed;
      for (Operation *op : group)
        ops.push_back(llvm::json::Object{{"op", opLabel(op)},
                                         {"loc", locLabel(op->getLoc())}});
      for (Operation *op : plan.recomputed[i])
        recomputed.push_back(llvm::json::Object{
            {"op", opLabel(op)}, {"loc", locLabel(op->getLoc())}});
      groups.push_back(llvm::json::Object{
          {"id", (int64_t)i},
          {"kind", stringifyGroupKind(plan.kinds[i]).str()},
          {"ops", std::move(ops)},
          {"recomputed", std::move(recomputed)}});
    }
    for (const FusionEdge &e : plan.edges) {
      llvm::json::Object o{{"producer", opLabel(e.producer)},
                           {"producer_loc", locLabel(e.producer->getLoc())},
                           {"consumer", opLabel(e.consumer)},
                           {"consumer_loc", locLabel(e.consumer->getLoc())},
                           {"operand", (int64_t)e.operand},
                           {"fused", e.fused},
                           {"recomputed", e.recomputed},
                           {"rule", e.rule},
                           {"reason", e.reason}};
      auto it = groupOf.find(e.consumer);
      if (e.fused && it != groupOf.end())
        o["group"] = (int64_t)it->second;
      edges.push_back(std::move(o));
    }
    llvm::json::Object report{
        {"function", function.str()},
        {"summary", llvm::json::Object{{"groups", (int64_t)plan.groups.size()},
                                       {"edges", (int64_t)plan.edges.size()},
                                       {"fused", (int64_t)fused}}},
        {"groups", std::move(groups)},
        {"edges", std::move(edges)}};
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))) << "\n";
    return;
  }
  os << "fusion report for @" << function << ": " << plan.groups.size()
     << " group" << (plan.groups.size() == 1 ? "" : "s") << ", "
     << plan.edges.size() << " edges, " << fused << " fused\n";
  for (auto [i, group] : llvm::enumerate(plan.groups)) {
    os << "  group " << i << " (" << stringifyGroupKind(plan.kinds[i])
       << ", " << group.size() << " ops):";
    for (Operation *op : group)
      os << " " << opLabel(op);
    if (!plan.recomputed[i].empty()) {
      os << "; recomputed:";
      for (Operation *op : plan.recomputed[i])
        os << " " << opLabel(op);
    }
    os << "\n";
  }
  for (const FusionEdge &e : plan.edges) {
    os << (e.fused ? (e.recomputed ? "  recompute " : "  fused     ")
                   : "  NOT fused ")
       << opLabel(e.producer) << " (" << locLabel(e.producer->getLoc())
       << ") -> " << opLabel(e.consumer) << " ("
       << locLabel(e.consumer->getLoc()) << ") operand " << e.operand
       << "\n      [" << e.rule << "] " << e.reason << "\n";
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct FusionFormGroupsPass
    : mlir::graphopt::fusion::impl::FusionFormGroupsPassBase<
          FusionFormGroupsPass> {
  using Base::Base;
  void runOnOperation() override {
    FusionCostModel model;
    model.flopsPerByte = flopsPerByte;
    model.maxGroupSize = maxGroupSize;
    std::unique_ptr<llvm::ToolOutputFile> file;
    llvm::raw_ostream *os = nullptr;
    if (!report.empty()) {
      if (report == "-") {
        os = &llvm::errs();
      } else {
        std::error_code ec;
        file = std::make_unique<llvm::ToolOutputFile>(report, ec,
                                                      llvm::sys::fs::OF_Text);
        if (ec) {
          getOperation()->emitError() << "cannot write the fusion report to '"
                                      << report << "': " << ec.message();
          return signalPassFailure();
        }
        os = &file->os();
      }
    }
    bool json = reportFormat == "json" ||
                (reportFormat.empty() && StringRef(report).ends_with(".json"));
    if (json && os)
      *os << "[\n";
    bool firstFn = true;
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](func::FuncOp fn) {
      if (fn.isExternal())
        return;
      FusionPlan plan = planFusion(fn.getBody().front(), model);
      if (os) {
        if (json && !firstFn)
          *os << ",\n";
        firstFn = false;
        printFusionReport(*os, fn.getName(), plan, json);
      }
      numGroups += plan.groups.size();
      if (!reportOnly)
        applyFusionPlan(rewriter, plan);
    });
    if (json && os)
      *os << "]\n";
    if (file)
      file->keep();
  }
};
} // namespace
