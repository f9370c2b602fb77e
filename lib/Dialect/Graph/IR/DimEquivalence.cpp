//===- DimEquivalence.cpp - dims a graph function needs equal ------------===//
//
// Union-find over (value, dim) pairs: each rule of an op joins the dims it
// requires equal; static sizes join as (null, size). The classes that hold
// a dynamic argument dim and something else give the run-time checks.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/Analysis/DimEquivalence.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::graph;

namespace {

/// A dim of a value, or a static size (value null, index = the size).
using DimKey = std::pair<const void *, int64_t>;

class DimUnion {
public:
  /// Dim `d` of `v` (rank-checked by the caller); static dims become their
  /// size, so that all static 4s are one member.
  DimKey key(Value v, int64_t d) const {
    auto t = cast<RankedTensorType>(v.getType());
    if (!t.isDynamicDim(d))
      return {nullptr, t.getDimSize(d)};
    return {v.getAsOpaquePointer(), d};
  }

  void join(Value a, int64_t da, Value b, int64_t db, Operation *op) {
    DimKey ka = key(a, da), kb = key(b, db);
    if (ka == kb)
      return;
    classes.unionSets(ka, kb);
    firstOp.try_emplace(ka, op);
    firstOp.try_emplace(kb, op);
  }

  llvm::EquivalenceClasses<DimKey> classes;
  llvm::DenseMap<DimKey, Operation *> firstOp;
};

bool isRanked(Value v) { return isa<RankedTensorType>(v.getType()); }

int64_t rankOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getRank();
}

/// NumPy broadcasting: operand dims aligned at the trailing end equal the
/// result's unless statically 1 (the lowering does not broadcast a dynamic
/// dim that is 1 at run time).
void joinBroadcast(DimUnion &u, Operation *op, ValueRange operands,
                   Value result) {
  int64_t rank = rankOf(result);
  for (Value v : operands) {
    if (!isRanked(v) || rankOf(v) > rank)
      continue;
    auto t = cast<RankedTensorType>(v.getType());
    int64_t off = rank - t.getRank();
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (t.getDimSize(d) != 1)
        u.join(v, d, result, d + off, op);
  }
}

/// torch.matmul: contraction dims equal; rows with the result's rows,
/// columns with its columns, batch dims broadcast.
void joinMatmul(DimUnion &u, MatMulOp op) {
  Value a = op.getLhs(), b = op.getRhs(), r = op.getResult();
  if (!isRanked(a) || !isRanked(b) || !isRanked(r))
    return;
  int64_t ra = rankOf(a), rb = rankOf(b), rr = rankOf(r);
  u.join(a, ra - 1, b, rb == 1 ? 0 : rb - 2, op);
  if (ra >= 2 && rr >= 1)
    u.join(a, ra - 2, r, rb == 1 ? rr - 1 : rr - 2, op);
  if (rb >= 2 && rr >= 1)
    u.join(b, rb - 1, r, rr - 1, op);
  if (ra < 2 || rb < 2)
    return;
  // Batch dims: the result's leading rr - 2 dims.
  int64_t batch = rr - 2;
  for (auto [v, rank] : {std::pair(a, ra), std::pair(b, rb)}) {
    auto t = cast<RankedTensorType>(v.getType());
    int64_t nb = rank - 2, off = batch - nb;
    for (int64_t d = 0; d < nb; ++d)
      if (t.getDimSize(d) != 1 && off >= 0)
        u.join(v, d, r, d + off, op);
  }
}

void visit(DimUnion &u, Operation *op) {
  if (op->getNumResults() != 1 || !isRanked(op->getResult(0)))
    return;
  Value result = op->getResult(0);
  if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, RemOp, CompareOp,
          SelectOp, BitwiseAndOp, BitwiseOrOp, BitwiseXorOp, ShiftLeftOp,
          ShiftRightOp>(op)) {
    joinBroadcast(u, op, op->getOperands(), result);
    return;
  }
  if (isa<NegOp, AbsOp, ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp,
          ReluOp, SiluOp, ErfOp, HardSwishOp, HardSigmoidOp, LeakyReluOp,
          ClampOp, GeluOp, CastOp, SoftmaxOp, GRAPH_TRIG_OPS,
          GRAPH_ROUNDING_OPS>(op)) {
    Value in = op->getOperand(0);
    if (isRanked(in) && rankOf(in) == rankOf(result))
      for (int64_t d = 0; d < rankOf(in); ++d)
        u.join(in, d, result, d, op);
    return;
  }
  if (auto mm = dyn_cast<MatMulOp>(op)) {
    joinMatmul(u, mm);
    return;
  }
  if (auto tr = dyn_cast<TransposeOp>(op)) {
    Value in = tr.getInput();
    ArrayRef<int64_t> perm = tr.getPermutation();
    if (isRanked(in) && (int64_t)perm.size() == rankOf(result))
      for (auto [i, p] : llvm::enumerate(perm))
        u.join(in, p, result, i, op);
    return;
  }
}

std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << op->getName();
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " at " << loc.getFilename().getValue() << ":" << loc.getLine()
       << ":" << loc.getColumn();
  return s;
}

} // namespace

llvm::SmallVector<ArgDimEquality>
mlir::graphopt::getArgDimEqualities(func::FuncOp fn) {
  llvm::SmallVector<ArgDimEquality> out;
  if (fn.isExternal())
    return out;
  // Nothing to check without a dynamic argument dim.
  bool dynamic = llvm::any_of(fn.getArgumentTypes(), [](Type t) {
    auto rt = dyn_cast<RankedTensorType>(t);
    return rt && !rt.hasStaticShape();
  });
  if (!dynamic)
    return out;
  DimUnion u;
  fn.walk([&](Operation *op) { visit(u, op); });

  // Per class: the first dynamic argument dim met (in argument order) is
  // the reference; a static size in the class is checked instead.
  llvm::DenseMap<DimKey, std::pair<unsigned, unsigned>> reference;
  for (auto [i, arg] : llvm::enumerate(fn.getArguments())) {
    auto t = dyn_cast<RankedTensorType>(arg.getType());
    if (!t)
      continue;
    for (int64_t d = 0; d < t.getRank(); ++d) {
      if (!t.isDynamicDim(d))
        continue;
      DimKey k = u.key(arg, d);
      auto leader = u.classes.findLeader(k);
      if (leader == u.classes.member_end())
        continue;
      DimKey root = *leader;
      Operation *op = u.firstOp.lookup(k);
      ArgDimEquality eq;
      eq.arg = i;
      eq.dim = d;
      eq.reason = op ? describe(op) : std::string();
      // A static size in the class?
      std::optional<int64_t> size;
      for (const DimKey &m : u.classes.members(k))
        if (m.first == nullptr)
          size = m.second;
      if (size) {
        eq.size = *size;
        out.push_back(eq);
        continue;
      }
      auto [it, first] = reference.try_emplace(root, std::pair(i, d));
      if (first)
        continue;
      eq.otherArg = it->second.first;
      eq.otherDim = it->second.second;
      out.push_back(eq);
    }
  }
  return out;
}
