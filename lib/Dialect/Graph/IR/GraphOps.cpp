//===- GraphOps.cpp - graph dialect ops: inference and verification -------===//
//
// Result-type inference doubles as the verifier: every op's constraints
// (numbered as in docs/Dialects/Graph.md) are checked in inferReturnTypes,
// which the InferTypeOpInterface verifier calls with the op's location.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::graphopt::graph;

#include "graphopt/Dialect/Graph/IR/GraphDialect.cpp.inc"
#include "graphopt/Dialect/Graph/IR/GraphEnums.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "graphopt/Dialect/Graph/IR/GraphOps.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

namespace {
std::string dimStr(int64_t d) { return formatDim(d); }

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + dimStr(d);
  return s + "]";
}

/// An attribute list as written: "[3, -1]".
std::string listStr(ArrayRef<int64_t> list) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(list))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

template <typename OpTy, typename... Args>
LogicalResult opError(std::optional<Location> loc, Args &&...args) {
  return mlir::graphopt::graph::emitOpError<OpTy>(loc,
                                                  std::forward<Args>(args)...);
}

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// C1 of the elementwise ops: operands share one element type.
template <typename OpTy>
LogicalResult checkSameElementType(std::optional<Location> loc, Type lhs,
                                   Type rhs, StringRef lhsName = "lhs",
                                   StringRef rhsName = "rhs") {
  if (lhs == rhs)
    return success();
  std::string a, b;
  llvm::raw_string_ostream(a) << lhs;
  llvm::raw_string_ostream(b) << rhs;
  return opError<OpTy>(loc, "element types differ: ", lhsName, " is ", a, ", ",
                       rhsName, " is ", b);
}

/// C2 of the elementwise ops: NumPy broadcasting.
template <typename OpTy>
LogicalResult
broadcastOrError(std::optional<Location> loc, ArrayRef<int64_t> lhs,
                 ArrayRef<int64_t> rhs, SmallVectorImpl<int64_t> &result,
                 StringRef lhsName = "lhs", StringRef rhsName = "rhs") {
  std::optional<int64_t> bad = broadcastShapes(lhs, rhs, result);
  if (!bad)
    return success();
  int64_t rank = result.size();
  int64_t li = *bad - (rank - (int64_t)lhs.size());
  int64_t ri = *bad - (rank - (int64_t)rhs.size());
  return opError<OpTy>(loc, "operands are not broadcast-compatible: ", lhsName,
                       " dim ", li, " is ", dimStr(lhs[li]), ", ", rhsName,
                       " dim ", ri, " is ", dimStr(rhs[ri]), " (shapes ",
                       shapeStr(lhs), " and ", shapeStr(rhs), ")");
}

template <typename OpTy>
LogicalResult inferBinary(std::optional<Location> loc, Value lhs, Value rhs,
                          Type resultElement, SmallVectorImpl<Type> &inferred) {
  RankedTensorType l = tensorOf(lhs), r = tensorOf(rhs);
  // C1: same element type.
  if (failed(checkSameElementType<OpTy>(loc, l.getElementType(),
                                        r.getElementType())))
    return failure();
  // C2: broadcast-compatible shapes.
  SmallVector<int64_t> shape;
  if (failed(broadcastOrError<OpTy>(loc, l.getShape(), r.getShape(), shape)))
    return failure();
  inferred.push_back(RankedTensorType::get(
      shape, resultElement ? resultElement : l.getElementType()));
  return success();
}
} // namespace

std::optional<int64_t>
mlir::graphopt::graph::broadcastShapes(ArrayRef<int64_t> lhs,
                                       ArrayRef<int64_t> rhs,
                                       SmallVectorImpl<int64_t> &result) {
  int64_t rank = std::max(lhs.size(), rhs.size());
  result.assign(rank, 1);
  for (int64_t i = 0; i < rank; ++i) {
    int64_t li = i - (rank - (int64_t)lhs.size());
    int64_t ri = i - (rank - (int64_t)rhs.size());
    int64_t a = li >= 0 ? lhs[li] : 1;
    int64_t b = ri >= 0 ? rhs[ri] : 1;
    if (a == b || b == 1)
      result[i] = a;
    else if (a == 1)
      result[i] = b;
    else if (ShapedType::isDynamic(a))
      result[i] = b;
    else if (ShapedType::isDynamic(b))
      result[i] = a;
    else
      return i;
  }
  return std::nullopt;
}

bool mlir::graphopt::graph::areCompatibleTensorTypes(Type a, Type b) {
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (!ta || !tb || ta.getElementType() != tb.getElementType() ||
      ta.getRank() != tb.getRank())
    return false;
  for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return false;
  return true;
}

LogicalResult mlir::graphopt::graph::inferResultTypes(
    Operation *op, SmallVectorImpl<RankedTensorType> &types) {
  auto infer = dyn_cast<InferTypeOpInterface>(op);
  if (!infer || !llvm::all_of(op->getResultTypes(),
                              [](Type t) { return isa<RankedTensorType>(t); }))
    return failure();
  SmallVector<Type> inferred;
  if (failed(infer.inferReturnTypes(
          op->getContext(), std::nullopt, op->getOperands(),
          op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
          op->getRegions(), inferred)))
    return failure();
  for (auto [result, type] : llvm::zip(op->getResults(), inferred)) {
    auto written = cast<RankedTensorType>(result.getType());
    types.push_back(
        cast<RankedTensorType>(type).clone(written.getElementType()));
  }
  return success();
}

std::string mlir::graphopt::graph::formatDim(int64_t d) {
  return ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
}

bool mlir::graphopt::graph::areCompatibleTensorTypeLists(TypeRange l,
                                                         TypeRange r) {
  if (l.size() != r.size())
    return false;
  for (auto [a, b] : llvm::zip(l, r))
    if (!areCompatibleTensorTypes(a, b))
      return false;
  return true;
}

#define GRAPH_COMPATIBLE_RETURN_TYPES(OP)                                      \
  bool OP::isCompatibleReturnTypes(TypeRange l, TypeRange r) {                 \
    return areCompatibleTensorTypeLists(l, r);                                 \
  }

//===----------------------------------------------------------------------===//
// Elementwise binary and unary ops
//===----------------------------------------------------------------------===//

#define GRAPH_BINARY_INFER(OP)                                                 \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, OP::Adaptor adaptor,         \
      SmallVectorImpl<Type> &inferred) {                                       \
    return inferBinary<OP>(loc, adaptor.getLhs(), adaptor.getRhs(), Type(),    \
                           inferred);                                          \
  }                                                                            \
  GRAPH_COMPATIBLE_RETURN_TYPES(OP)

GRAPH_BINARY_INFER(AddOp)
GRAPH_BINARY_INFER(SubOp)
GRAPH_BINARY_INFER(MulOp)
GRAPH_BINARY_INFER(DivOp)
GRAPH_BINARY_INFER(MaxOp)
GRAPH_BINARY_INFER(MinOp)
GRAPH_BINARY_INFER(PowOp)

#define GRAPH_UNARY_INFER(OP)                                                  \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location>,   \
                                     OP::Adaptor adaptor,                      \
                                     SmallVectorImpl<Type> &inferred) {        \
    inferred.push_back(adaptor.getInput().getType());                          \
    return success();                                                          \
  }                                                                            \
  GRAPH_COMPATIBLE_RETURN_TYPES(OP)

GRAPH_UNARY_INFER(NegOp)
GRAPH_UNARY_INFER(AbsOp)
GRAPH_UNARY_INFER(ExpOp)
GRAPH_UNARY_INFER(LogOp)
GRAPH_UNARY_INFER(SqrtOp)
GRAPH_UNARY_INFER(RsqrtOp)
GRAPH_UNARY_INFER(TanhOp)
GRAPH_UNARY_INFER(SigmoidOp)
GRAPH_UNARY_INFER(ReluOp)
GRAPH_UNARY_INFER(SiluOp)
GRAPH_UNARY_INFER(GeluOp)

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          SoftmaxOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  int64_t rank = tensorOf(adaptor.getInput()).getRank();
  int64_t axis = adaptor.getAxis();
  // C1: axis in range.
  if (axis < 0 || axis >= rank)
    return opError<SoftmaxOp>(loc, "axis ", axis, " is outside [0, ", rank,
                              ")");
  inferred.push_back(adaptor.getInput().getType());
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(SoftmaxOp)

LogicalResult CompareOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location> loc,
                                          CompareOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  return inferBinary<CompareOp>(loc, adaptor.getLhs(), adaptor.getRhs(),
                                IntegerType::get(ctx, 1), inferred);
}
GRAPH_COMPATIBLE_RETURN_TYPES(CompareOp)

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         SelectOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType c = tensorOf(adaptor.getCondition());
  RankedTensorType t = tensorOf(adaptor.getOnTrue());
  RankedTensorType f = tensorOf(adaptor.getOnFalse());
  // C2: the two value operands share an element type.
  if (failed(checkSameElementType<SelectOp>(
          loc, t.getElementType(), f.getElementType(), "on_true", "on_false")))
    return failure();
  // C3: all three operands broadcast to one shape.
  SmallVector<int64_t> tf, shape;
  if (failed(broadcastOrError<SelectOp>(loc, t.getShape(), f.getShape(), tf,
                                        "on_true", "on_false")) ||
      failed(broadcastOrError<SelectOp>(loc, c.getShape(), tf, shape,
                                        "condition", "broadcast value")))
    return failure();
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(SelectOp)

//===----------------------------------------------------------------------===//
// graph.cast: the result element type is not inferable from the operands,
// so the written result type is authoritative for it; only the shape is
// inferred (C1: same shape).
//===----------------------------------------------------------------------===//

void CastOp::build(OpBuilder &b, OperationState &state, Value input,
                   Type elementType) {
  auto t = tensorOf(input);
  build(b, state, RankedTensorType::get(t.getShape(), elementType), input);
}

LogicalResult CastOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       CastOp::Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  // The element type comes from the op's own result when it exists; an
  // unresolved inference (no result type known) keeps the input's.
  inferred.push_back(adaptor.getInput().getType());
  return success();
}

bool CastOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  if (l.size() != 1 || r.size() != 1)
    return false;
  auto a = dyn_cast<RankedTensorType>(l[0]);
  auto b = dyn_cast<RankedTensorType>(r[0]);
  return a && b && areCompatibleTensorTypes(a, b.clone(a.getElementType()));
}

//===----------------------------------------------------------------------===//
// graph.matmul
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         MatMulOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType l = tensorOf(adaptor.getLhs()),
                   r = tensorOf(adaptor.getRhs());
  // C1: operands have rank >= 1.
  if (l.getRank() == 0 || r.getRank() == 0)
    return opError<MatMulOp>(loc, "operands must have rank >= 1, got lhs rank ",
                             l.getRank(), " and rhs rank ", r.getRank());
  // C4: same element type.
  if (failed(checkSameElementType<MatMulOp>(loc, l.getElementType(),
                                            r.getElementType())))
    return failure();
  ArrayRef<int64_t> ls = l.getShape(), rs = r.getShape();
  int64_t lk = l.getRank() - 1;
  int64_t rk = r.getRank() == 1 ? 0 : r.getRank() - 2;
  // C2: contracting dims agree.
  if (!ShapedType::isDynamic(ls[lk]) && !ShapedType::isDynamic(rs[rk]) &&
      ls[lk] != rs[rk])
    return opError<MatMulOp>(loc, "contracting dimension mismatch: lhs dim ",
                             lk, " is ", ls[lk], ", rhs dim ", rk, " is ",
                             rs[rk]);
  // C3: batch dims broadcast.
  ArrayRef<int64_t> lb =
      l.getRank() > 2 ? ls.drop_back(2) : ArrayRef<int64_t>();
  ArrayRef<int64_t> rb =
      r.getRank() > 2 ? rs.drop_back(2) : ArrayRef<int64_t>();
  SmallVector<int64_t> shape;
  if (failed(broadcastOrError<MatMulOp>(loc, lb, rb, shape, "lhs batch",
                                        "rhs batch")))
    return failure();
  if (l.getRank() >= 2)
    shape.push_back(ls[l.getRank() - 2]);
  if (r.getRank() >= 2)
    shape.push_back(rs.back());
  inferred.push_back(RankedTensorType::get(shape, l.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(MatMulOp)

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            TransposeOp::Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  // C1: a permutation of [0, rank).
  if ((int64_t)perm.size() != t.getRank())
    return opError<TransposeOp>(loc, "permutation has ", perm.size(),
                                " entries, but the input has rank ",
                                t.getRank());
  llvm::SmallBitVector seen(perm.size());
  SmallVector<int64_t> shape;
  for (auto [i, p] : llvm::enumerate(perm)) {
    if (p < 0 || p >= t.getRank())
      return opError<TransposeOp>(loc, "permutation entry ", i, " is ", p,
                                  ", outside [0, ", t.getRank(), ")");
    if (seen.test(p))
      return opError<TransposeOp>(loc, "permutation entry ", i, " repeats ", p);
    seen.set(p);
    shape.push_back(t.getDimSize(p));
  }
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(TransposeOp)

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          ReshapeOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  ArrayRef<int64_t> target = adaptor.getShape();
  int64_t inferIndex = -1, known = 1;
  for (auto [i, d] : llvm::enumerate(target)) {
    if (d == -1) {
      // C1: at most one -1.
      if (inferIndex >= 0)
        return opError<ReshapeOp>(loc, "shape entries ", inferIndex, " and ", i,
                                  " are both -1; at most one may be");
      inferIndex = i;
      continue;
    }
    // C2: other entries are >= 0.
    if (d < 0)
      return opError<ReshapeOp>(loc, "shape entry ", i, " is ", d,
                                "; entries must be >= 0 or -1");
    // C2: and their product fits in int64.
    if (llvm::MulOverflow(known, d, known))
      return opError<ReshapeOp>(loc, "shape ", listStr(target),
                                " has more than 2^63 elements");
  }
  // C3: a -1 entry needs the other entries to have a nonzero product.
  if (inferIndex >= 0 && known == 0)
    return opError<ReshapeOp>(loc, "cannot infer the -1 entry of shape ",
                              listStr(target),
                              ": the other entries multiply to 0");
  SmallVector<int64_t> shape(target);
  if (t.hasStaticShape()) {
    int64_t n = t.getNumElements();
    if (inferIndex >= 0) {
      // C3: the element count divides evenly.
      if (n % known != 0)
        return opError<ReshapeOp>(loc, "cannot reshape ", n,
                                  " elements to shape ", listStr(target), ": ",
                                  n, " is not a multiple of ", known);
      shape[inferIndex] = n / known;
    } else if (n != known) {
      // C3: element counts agree.
      return opError<ReshapeOp>(
          loc, "element count mismatch: input ", shapeStr(t.getShape()),
          " has ", n, " elements, shape ", listStr(target), " has ", known);
    }
  } else if (inferIndex >= 0) {
    shape[inferIndex] = ShapedType::kDynamic;
  }
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(ReshapeOp)

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              BroadcastToOp::Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  ArrayRef<int64_t> target = adaptor.getShape();
  // C1: the target rank is at least the input rank.
  if ((int64_t)target.size() < t.getRank())
    return opError<BroadcastToOp>(loc, "target rank ", target.size(),
                                  " is smaller than the input rank ",
                                  t.getRank());
  int64_t offset = target.size() - t.getRank();
  SmallVector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(target)) {
    int64_t ii = (int64_t)i - offset;
    int64_t in = ii >= 0 ? t.getDimSize(ii) : 1;
    if (d == -1) {
      // C2: -1 keeps an existing input dim.
      if (ii < 0)
        return opError<BroadcastToOp>(loc, "shape entry ", i,
                                      " is -1 but there is no input dim there");
      shape.push_back(in);
      continue;
    }
    if (d < 0)
      return opError<BroadcastToOp>(loc, "shape entry ", i, " is ", d,
                                    "; entries must be >= 0 or -1");
    // C3: each input dim is 1 or equal to the target dim.
    if (in != 1 && !ShapedType::isDynamic(in) && in != d)
      return opError<BroadcastToOp>(loc, "input dim ", ii, " is ", in,
                                    ", cannot broadcast to ", d,
                                    " (target dim ", i, ")");
    shape.push_back(d);
  }
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(BroadcastToOp)

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         ConcatOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  ValueRange inputs = adaptor.getInputs();
  // C1: at least one operand.
  if (inputs.empty())
    return opError<ConcatOp>(loc, "needs at least one operand");
  RankedTensorType first = tensorOf(inputs[0]);
  int64_t rank = first.getRank(), axis = (int64_t)adaptor.getAxis();
  // C3: axis in range.
  if (axis < 0 || axis >= rank)
    return opError<ConcatOp>(loc, "axis ", axis, " is outside [0, ", rank, ")");
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, v] : llvm::enumerate(inputs.drop_front())) {
    RankedTensorType t = tensorOf(v);
    int64_t idx = i + 1;
    // C5: same element type.
    if (t.getElementType() != first.getElementType())
      return checkSameElementType<ConcatOp>(loc, first.getElementType(),
                                            t.getElementType(), "operand 0",
                                            "operand " + std::to_string(idx));
    // C2: same rank.
    if (t.getRank() != rank)
      return opError<ConcatOp>(loc, "operand ", idx, " has rank ", t.getRank(),
                               ", operand 0 has rank ", rank);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t a = shape[d], b = t.getDimSize(d);
      if (d == axis) {
        shape[d] = (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
                       ? ShapedType::kDynamic
                       : a + b;
        continue;
      }
      // C4: non-axis dims agree.
      if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
        return opError<ConcatOp>(loc, "operand ", idx, " dim ", d, " is ", b,
                                 ", operand 0 dim ", d, " is ", a);
      if (ShapedType::isDynamic(a))
        shape[d] = b;
    }
  }
  inferred.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(ConcatOp)

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        SliceOp::Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  ArrayRef<int64_t> start = adaptor.getStart(), limit = adaptor.getLimit(),
                    step = adaptor.getStep();
  // C1: one entry per dim in each list.
  for (auto [name, list] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"start", start},
        {"limit", limit},
        {"step", step}})
    if ((int64_t)list.size() != t.getRank())
      return opError<SliceOp>(loc, name, " has ", list.size(),
                              " entries, but the input has rank ", t.getRank());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    // C2: 0 <= start <= limit, step >= 1.
    if (start[d] < 0 || start[d] > limit[d] || step[d] < 1)
      return opError<SliceOp>(loc, "dim ", d,
                              ": need 0 <= start <= limit and "
                              "step >= 1, got start ",
                              start[d], ", limit ", limit[d], ", step ",
                              step[d]);
    // C3: limit within a static dim.
    int64_t size = t.getDimSize(d);
    if (!ShapedType::isDynamic(size) && limit[d] > size)
      return opError<SliceOp>(loc, "dim ", d, ": limit ", limit[d],
                              " is past the dim size ", size);
    // ceil((limit - start) / step), without overflow for huge steps.
    int64_t extent = limit[d] - start[d];
    shape.push_back(extent == 0 ? 0 : (extent - 1) / step[d] + 1);
  }
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(SliceOp)

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         ReduceOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  llvm::SmallBitVector reduced(t.getRank());
  for (auto [i, a] : llvm::enumerate(adaptor.getAxes())) {
    // C1: axes in range and distinct.
    if (a < 0 || a >= t.getRank())
      return opError<ReduceOp>(loc, "axis ", a, " (entry ", i,
                               ") is outside [0, ", t.getRank(), ")");
    if (reduced.test(a))
      return opError<ReduceOp>(loc, "axis ", a, " is listed twice");
    reduced.set(a);
  }
  // C2: mean needs floats.
  if (adaptor.getKind() == ReduceKind::Mean &&
      !isa<FloatType>(t.getElementType()))
    return opError<ReduceOp>(loc, "mean needs a float element type");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    if (!reduced.test(d))
      shape.push_back(t.getDimSize(d));
    else if (adaptor.getKeepdims())
      shape.push_back(1);
  }
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(ReduceOp)

#define GET_OP_CLASSES
#include "graphopt/Dialect/Graph/IR/GraphOps.cpp.inc"
