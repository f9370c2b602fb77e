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

#include <cmath>

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

/// opError for rules shared by ops of several dialects (graph.conv2d's
/// with fusion.conv2d): the op's name given at run time.
template <typename... Args>
LogicalResult namedOpError(std::optional<Location> loc, StringRef opName,
                           Args &&...args) {
  return emitOptionalError(loc, "'", opName, "' op ",
                           std::forward<Args>(args)...);
}

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// C1 of the elementwise ops: operands share one element type.
LogicalResult checkSameElementTypeNamed(std::optional<Location> loc,
                                        StringRef opName, Type lhs, Type rhs,
                                        StringRef lhsName, StringRef rhsName) {
  if (lhs == rhs)
    return success();
  std::string a, b;
  llvm::raw_string_ostream(a) << lhs;
  llvm::raw_string_ostream(b) << rhs;
  return namedOpError(loc, opName, "element types differ: ", lhsName, " is ",
                      a, ", ", rhsName, " is ", b);
}
template <typename OpTy>
LogicalResult checkSameElementType(std::optional<Location> loc, Type lhs,
                                   Type rhs, StringRef lhsName = "lhs",
                                   StringRef rhsName = "rhs") {
  return checkSameElementTypeNamed(loc, OpTy::getOperationName(), lhs, rhs,
                                   lhsName, rhsName);
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
GRAPH_BINARY_INFER(RemOp)
GRAPH_BINARY_INFER(BitwiseAndOp)
GRAPH_BINARY_INFER(BitwiseOrOp)
GRAPH_BINARY_INFER(BitwiseXorOp)
GRAPH_BINARY_INFER(ShiftLeftOp)
GRAPH_BINARY_INFER(ShiftRightOp)

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
GRAPH_UNARY_INFER(ErfOp)
GRAPH_UNARY_INFER(SinOp)
GRAPH_UNARY_INFER(CosOp)
GRAPH_UNARY_INFER(TanOp)
GRAPH_UNARY_INFER(AsinOp)
GRAPH_UNARY_INFER(AcosOp)
GRAPH_UNARY_INFER(AtanOp)
GRAPH_UNARY_INFER(SinhOp)
GRAPH_UNARY_INFER(CoshOp)
GRAPH_UNARY_INFER(AsinhOp)
GRAPH_UNARY_INFER(AcoshOp)
GRAPH_UNARY_INFER(AtanhOp)
GRAPH_UNARY_INFER(FloorOp)
GRAPH_UNARY_INFER(CeilOp)
GRAPH_UNARY_INFER(RoundOp)
GRAPH_UNARY_INFER(HardSwishOp)
GRAPH_UNARY_INFER(HardSigmoidOp)
GRAPH_UNARY_INFER(LeakyReluOp)

LogicalResult ClampOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        ClampOp::Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  // C1: at least one bound; C2: min <= max.
  auto mn = adaptor.getMinAttr(), mx = adaptor.getMaxAttr();
  if (!mn && !mx)
    return opError<ClampOp>(loc, "needs a min or a max bound");
  if (mn && mx && mn.getValueAsDouble() > mx.getValueAsDouble())
    return opError<ClampOp>(loc, "min ", mn.getValueAsDouble(),
                            " is greater than max ", mx.getValueAsDouble());
  inferred.push_back(adaptor.getInput().getType());
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(ClampOp)

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
// graph.bitcast
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          BitcastOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  // As graph.cast: the shape is the input's, the element type the written
  // one.
  inferred.push_back(adaptor.getInput().getType());
  return success();
}

// (C1) the same shape.
bool BitcastOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return CastOp::isCompatibleReturnTypes(l, r);
}

LogicalResult BitcastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getType());
  // (C2) the same bit width, or i1 to an 8-bit integer.
  unsigned a = in.getElementType().getIntOrFloatBitWidth();
  unsigned b = out.getElementType().getIntOrFloatBitWidth();
  if (a != b && !(a == 1 && b == 8 && out.getElementType().isInteger()))
    return emitOpError() << "bitcast from " << in.getElementType() << " (" << a
                         << " bits) to " << out.getElementType() << " (" << b
                         << " bits): the widths must be equal (or i1 to "
                         << "an 8-bit integer)";
  return success();
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

//===----------------------------------------------------------------------===//
// Neural-network ops
//===----------------------------------------------------------------------===//

namespace {
/// Checks that `list` has `n` entries, each >= `minValue`.
LogicalResult checkListNamed(std::optional<Location> loc, StringRef opName,
                             StringRef name, ArrayRef<int64_t> list, size_t n,
                             int64_t minValue) {
  if (list.size() != n)
    return namedOpError(loc, opName, name, " has ", list.size(),
                        " entries, expected ", n);
  for (auto [i, v] : llvm::enumerate(list))
    if (v < minValue)
      return namedOpError(loc, opName, name, " entry ", i, " is ", v,
                          ", must be >= ", minValue);
  return success();
}
template <typename OpTy>
LogicalResult checkList(std::optional<Location> loc, StringRef name,
                        ArrayRef<int64_t> list, size_t n, int64_t minValue) {
  return checkListNamed(loc, OpTy::getOperationName(), name, list, n,
                        minValue);
}

/// Shape inference shared by the pooling ops.
template <typename OpTy>
LogicalResult inferPool(std::optional<Location> loc, RankedTensorType t,
                        ArrayRef<int64_t> kernel,
                        std::optional<ArrayRef<int64_t>> stridesOpt,
                        ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations,
                        bool ceilMode, SmallVectorImpl<Type> &inferred) {
  // C1: rank-4 NCHW input.
  if (t.getRank() != 4)
    return opError<OpTy>(loc, "input must be rank 4 (NCHW), got rank ",
                         t.getRank());
  // C2: kernel, strides, dilations: 2 entries >= 1; padding 4 entries >= 0.
  ArrayRef<int64_t> strides = stridesOpt ? *stridesOpt : kernel;
  if (failed(checkList<OpTy>(loc, "kernel", kernel, 2, 1)) ||
      failed(checkList<OpTy>(loc, "strides", strides, 2, 1)) ||
      failed(checkList<OpTy>(loc, "dilations", dilations, 2, 1)) ||
      failed(checkList<OpTy>(loc, "padding", padding, 4, 0)))
    return failure();
  SmallVector<int64_t> shape = {t.getDimSize(0), t.getDimSize(1)};
  for (int d = 0; d < 2; ++d) {
    // C3: padding at most half the kernel (PyTorch's rule); the window fits.
    int64_t span = dilations[d] * (kernel[d] - 1) + 1;
    if (padding[d] >= span || padding[d + 2] >= span)
      return opError<OpTy>(loc, "padding of dim ", d + 2,
                           " must be smaller than the window (", span, ")");
    auto o = slidingWindowOutputSize(t.getDimSize(d + 2), padding[d], padding[d + 2],
                              kernel[d], strides[d], dilations[d], ceilMode);
    if (!o)
      return opError<OpTy>(loc, "window of ", span, " does not fit in dim ",
                           d + 2, " of size ", t.getDimSize(d + 2),
                           " with padding ", padding[d], " + ", padding[d + 2]);
    shape.push_back(*o);
  }
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
} // namespace

/// Output size of a sliding window; kDynamic for a dynamic input size.
/// `ceilMode` uses PyTorch's rule. Fails (returns nullopt) when the window
/// does not fit even once.
std::optional<int64_t> mlir::graphopt::graph::slidingWindowOutputSize(int64_t in, int64_t padBefore,
                                        int64_t padAfter, int64_t kernel,
                                        int64_t stride, int64_t dilation,
                                        bool ceilMode) {
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  int64_t span = dilation * (kernel - 1) + 1;
  int64_t padded = in + padBefore + padAfter;
  if (padded < span)
    return std::nullopt;
  int64_t numer = padded - span;
  int64_t out = (ceilMode ? (numer + stride - 1) / stride : numer / stride) + 1;
  // The last window must start inside the input or the leading padding.
  if (ceilMode && (out - 1) * stride >= in + padBefore)
    --out;
  return out;
}

FailureOr<RankedTensorType> mlir::graphopt::graph::inferConv2DResultType(
    std::optional<Location> loc, StringRef opName, RankedTensorType x,
    RankedTensorType w, RankedTensorType bt, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations, int64_t groups) {
  // C1: rank-4 input and weight, one element type.
  if (x.getRank() != 4)
    return namedOpError(loc, opName, "input must be rank 4 (NCHW), got rank ",
                        x.getRank());
  if (w.getRank() != 4)
    return namedOpError(loc, opName,
                        "weight must be rank 4 (FCHW), got rank ", w.getRank());
  if (failed(checkSameElementTypeNamed(loc, opName, x.getElementType(),
                                       w.getElementType(), "input", "weight")))
    return failure();
  // C2: attribute lists.
  if (failed(checkListNamed(loc, opName, "strides", strides, 2, 1)) ||
      failed(checkListNamed(loc, opName, "dilations", dilations, 2, 1)) ||
      failed(checkListNamed(loc, opName, "padding", padding, 4, 0)))
    return failure();
  if (groups < 1)
    return namedOpError(loc, opName, "groups is ", groups, ", must be >= 1");
  // C3: channels: C == groups * weight dim 1; groups divides F.
  int64_t c = x.getDimSize(1), f = w.getDimSize(0), wc = w.getDimSize(1);
  if (!ShapedType::isDynamic(c) && !ShapedType::isDynamic(wc) &&
      c != wc * groups)
    return namedOpError(loc, opName, "input has ", c,
                        " channels (dim 1), but weight dim 1 is ", wc,
                        " with groups = ", groups, " (expected ",
                        c / std::max<int64_t>(groups, 1), ")");
  if (!ShapedType::isDynamic(f) && f % groups != 0)
    return namedOpError(loc, opName, "weight dim 0 (", f,
                        " output channels) is not a multiple of groups = ",
                        groups);
  // C4: bias is [F].
  if (bt) {
    if (bt.getRank() != 1 ||
        (!ShapedType::isDynamic(f) && !bt.isDynamicDim(0) &&
         bt.getDimSize(0) != f))
      return namedOpError(loc, opName, "bias must be [", dimStr(f),
                          "] (weight dim 0), got ", shapeStr(bt.getShape()));
    if (failed(checkSameElementTypeNamed(loc, opName, x.getElementType(),
                                         bt.getElementType(), "input",
                                         "bias")))
      return failure();
  }
  SmallVector<int64_t> shape = {x.getDimSize(0), f};
  for (int d = 0; d < 2; ++d) {
    int64_t k = w.getDimSize(d + 2);
    if (ShapedType::isDynamic(k)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    // C5: the kernel is not empty and fits in the padded input.
    if (k < 1)
      return namedOpError(loc, opName, "kernel dim ", d + 2, " (weight dim ",
                          d + 2, ") is ", k, ", must be >= 1");
    auto o = slidingWindowOutputSize(x.getDimSize(d + 2), padding[d],
                                     padding[d + 2], k, strides[d],
                                     dilations[d], false);
    if (!o)
      return namedOpError(loc, opName, "kernel dim ", d + 2, " (", k,
                          ", dilation ", dilations[d],
                          ") does not fit in input dim ", d + 2, " (",
                          x.getDimSize(d + 2), " plus padding ", padding[d],
                          " + ", padding[d + 2], ")");
    shape.push_back(*o);
  }
  return RankedTensorType::get(shape, x.getElementType());
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Conv2DOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return inferConv2DReturnTypes(loc, getOperationName(), adaptor, inferred);
}
GRAPH_COMPATIBLE_RETURN_TYPES(Conv2DOp)

LogicalResult MaxPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            MaxPool2DOp::Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  std::optional<ArrayRef<int64_t>> strides;
  if (auto s = adaptor.getStridesAttr())
    strides = s.asArrayRef();
  return inferPool<MaxPool2DOp>(loc, tensorOf(adaptor.getInput()),
                                adaptor.getKernel(), strides,
                                adaptor.getPadding(), adaptor.getDilations(),
                                adaptor.getCeilMode(), inferred);
}
GRAPH_COMPATIBLE_RETURN_TYPES(MaxPool2DOp)

LogicalResult AvgPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            AvgPool2DOp::Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  std::optional<ArrayRef<int64_t>> strides;
  if (auto s = adaptor.getStridesAttr())
    strides = s.asArrayRef();
  int64_t ones[2] = {1, 1};
  return inferPool<AvgPool2DOp>(loc, tensorOf(adaptor.getInput()),
                                adaptor.getKernel(), strides,
                                adaptor.getPadding(), ones,
                                adaptor.getCeilMode(), inferred);
}
GRAPH_COMPATIBLE_RETURN_TYPES(AvgPool2DOp)

LogicalResult AdaptiveAvgPool2DOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc,
    AdaptiveAvgPool2DOp::Adaptor adaptor, SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  ArrayRef<int64_t> out = adaptor.getOutputSize();
  // C1: rank 4; C2: output_size has 2 entries >= 1.
  if (t.getRank() != 4)
    return opError<AdaptiveAvgPool2DOp>(
        loc, "input must be rank 4 (NCHW), got rank ", t.getRank());
  if (failed(checkList<AdaptiveAvgPool2DOp>(loc, "output_size", out, 2, 1)))
    return failure();
  // C3: static H and W unless the output is 1x1.
  bool global = out[0] == 1 && out[1] == 1;
  if (!global && (t.isDynamicDim(2) || t.isDynamicDim(3)))
    return opError<AdaptiveAvgPool2DOp>(
        loc, "needs static H and W for output size ", listStr(out),
        ", got ", shapeStr(t.getShape()));
  inferred.push_back(RankedTensorType::get(
      {t.getDimSize(0), t.getDimSize(1), out[0], out[1]}, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(AdaptiveAvgPool2DOp)

LogicalResult ResizeOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         ResizeOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  int64_t rank = t.getRank();
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  ArrayRef<double> scales = adaptor.getScales();
  StringRef mode = adaptor.getMode();
  StringRef ctm = adaptor.getCoordinateTransformationMode();
  StringRef nearest = adaptor.getNearestMode();
  // C1: one size and one scale per dim.
  if (static_cast<int64_t>(sizes.size()) != rank ||
      static_cast<int64_t>(scales.size()) != rank)
    return opError<ResizeOp>(loc, "needs one size and one scale per dim of ",
                             shapeStr(t.getShape()), ", got ", sizes.size(),
                             " and ", scales.size());
  // C2: known modes.
  if (!llvm::is_contained({"nearest", "linear", "cubic"}, mode))
    return opError<ResizeOp>(loc, "mode '", mode.str(),
                             "' is not nearest, linear or cubic");
  if (!llvm::is_contained({"half_pixel", "half_pixel_symmetric",
                           "pytorch_half_pixel", "align_corners", "asymmetric",
                           "tf_crop_and_resize"},
                          ctm))
    return opError<ResizeOp>(loc, "coordinate_transformation_mode '", ctm.str(),
                             "' is not known");
  if (!llvm::is_contained(
          {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"},
          nearest))
    return opError<ResizeOp>(loc, "nearest_mode '", nearest.str(),
                             "' is not known");
  // C3: linear and cubic interpolate floats; antialias filters them.
  if (mode != "nearest" && !isa<FloatType>(t.getElementType()))
    return opError<ResizeOp>(loc, mode.str(),
                             " interpolation needs a float element type");
  if (adaptor.getAntialias() && mode == "nearest")
    return opError<ResizeOp>(loc, "antialias needs linear or cubic mode");
  // C4: roi with tf_crop_and_resize only, two entries per dim.
  std::optional<ArrayRef<double>> roi = adaptor.getRoi();
  if ((ctm == "tf_crop_and_resize") != roi.has_value())
    return opError<ResizeOp>(loc,
                             "roi is given exactly with tf_crop_and_resize");
  if (roi && static_cast<int64_t>(roi->size()) != 2 * rank)
    return opError<ResizeOp>(loc, "roi needs ", 2 * rank, " entries, got ",
                             roi->size());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    // C5: a kept dim (-1) is not rescaled; a resized dim is static, its
    // size >= 1 and its scale > 0.
    if (!(scales[d] > 0) || !std::isfinite(scales[d]))
      return opError<ResizeOp>(loc, "scale ", d, " is ", scales[d],
                               ", must be > 0");
    if (sizes[d] == -1) {
      if (scales[d] != 1.0)
        return opError<ResizeOp>(
            loc, "dim ", d, " is kept (size -1) but its scale is ", scales[d]);
      if (roi && ((*roi)[d] != 0.0 || (*roi)[rank + d] != 1.0))
        return opError<ResizeOp>(loc, "dim ", d,
                                 " is kept (size -1) but its roi is [",
                                 (*roi)[d], ", ", (*roi)[rank + d], "]");
      shape.push_back(t.getDimSize(d));
      continue;
    }
    if (sizes[d] < 1)
      return opError<ResizeOp>(loc, "size ", d, " is ", sizes[d],
                               ", must be >= 1 (or -1: kept)");
    if (t.isDynamicDim(d))
      return opError<ResizeOp>(loc, "resizes dim ", d, ", which is dynamic in ",
                               shapeStr(t.getShape()));
    shape.push_back(sizes[d]);
  }
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(ResizeOp)

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            BatchNormOp::Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType x = tensorOf(adaptor.getInput());
  // C1: input rank >= 2.
  if (x.getRank() < 2)
    return opError<BatchNormOp>(loc, "input must have rank >= 2, got rank ",
                                x.getRank());
  int64_t c = x.getDimSize(1);
  // C2: the statistics are [C] of the input's element type.
  for (auto [name, v] : {std::pair<StringRef, Value>{"mean", adaptor.getMean()},
                         {"variance", adaptor.getVariance()},
                         {"weight", adaptor.getWeight()},
                         {"bias", adaptor.getBias()}}) {
    RankedTensorType t = tensorOf(v);
    if (t.getRank() != 1 || (!ShapedType::isDynamic(c) && !t.isDynamicDim(0) &&
                             t.getDimSize(0) != c))
      return opError<BatchNormOp>(loc, name, " must be [", dimStr(c),
                                  "] (input dim 1), got ",
                                  shapeStr(t.getShape()));
    if (failed(checkSameElementType<BatchNormOp>(
            loc, x.getElementType(), t.getElementType(), "input", name)))
      return failure();
  }
  // C3: epsilon >= 0.
  if (adaptor.getEpsilon().convertToDouble() < 0)
    return opError<BatchNormOp>(loc, "epsilon must be >= 0");
  inferred.push_back(x);
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(BatchNormOp)

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            LayerNormOp::Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType x = tensorOf(adaptor.getInput());
  RankedTensorType w = tensorOf(adaptor.getWeight());
  RankedTensorType b = tensorOf(adaptor.getBias());
  // C1: weight and bias have one shape, of rank 1..input rank.
  if (w.getRank() < 1 || w.getRank() > x.getRank())
    return opError<LayerNormOp>(loc, "weight rank ", w.getRank(),
                                " must be in [1, ", x.getRank(),
                                "] (the input rank)");
  if (!areCompatibleTensorTypes(w, b))
    return opError<LayerNormOp>(loc, "weight ", shapeStr(w.getShape()),
                                " and bias ", shapeStr(b.getShape()),
                                " must have the same shape and type");
  if (failed(checkSameElementType<LayerNormOp>(
          loc, x.getElementType(), w.getElementType(), "input", "weight")))
    return failure();
  // C2: the normalized shape is the input's trailing dims.
  int64_t off = x.getRank() - w.getRank();
  for (int64_t d = 0; d < w.getRank(); ++d) {
    int64_t a = x.getDimSize(off + d), e = w.getDimSize(d);
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(e) && a != e)
      return opError<LayerNormOp>(loc, "weight dim ", d, " is ", e,
                                  ", input dim ", off + d, " is ", a,
                                  " (normalized shape ",
                                  shapeStr(w.getShape()), ", input ",
                                  shapeStr(x.getShape()), ")");
  }
  if (adaptor.getEpsilon().convertToDouble() < 0)
    return opError<LayerNormOp>(loc, "epsilon must be >= 0");
  inferred.push_back(x);
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(LayerNormOp)

LogicalResult ScaledDotProductAttentionOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc,
    ScaledDotProductAttentionOp::Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  using Op = ScaledDotProductAttentionOp;
  RankedTensorType q = tensorOf(adaptor.getQuery()),
                   k = tensorOf(adaptor.getKey()),
                   v = tensorOf(adaptor.getValue());
  // C1: q, k, v have rank >= 2 and one element type.
  for (auto [name, t] : {std::pair<StringRef, RankedTensorType>{"query", q},
                         {"key", k},
                         {"value", v}})
    if (t.getRank() < 2)
      return opError<Op>(loc, name, " must have rank >= 2, got rank ",
                         t.getRank());
  if (failed(checkSameElementType<Op>(loc, q.getElementType(),
                                      k.getElementType(), "query", "key")) ||
      failed(checkSameElementType<Op>(loc, q.getElementType(),
                                      v.getElementType(), "query", "value")))
    return failure();
  auto dim = [](RankedTensorType t, int64_t fromEnd) {
    return t.getDimSize(t.getRank() - fromEnd);
  };
  auto mismatch = [](int64_t a, int64_t b) {
    return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
  };
  // C2: q and k share the embedding dim E; k and v the sequence dim S.
  if (mismatch(dim(q, 1), dim(k, 1)))
    return opError<Op>(loc, "query embedding dim is ", dim(q, 1),
                       " but key embedding dim is ", dim(k, 1));
  if (mismatch(dim(k, 2), dim(v, 2)))
    return opError<Op>(loc, "key has ", dim(k, 2), " positions (dim ",
                       k.getRank() - 2, ") but value has ", dim(v, 2));
  // C3: batch dims broadcast.
  SmallVector<int64_t> batch, kv;
  if (failed(broadcastOrError<Op>(loc, q.getShape().drop_back(2),
                                  k.getShape().drop_back(2), kv, "query batch",
                                  "key batch")) ||
      failed(broadcastOrError<Op>(loc, kv, v.getShape().drop_back(2), batch,
                                  "query/key batch", "value batch")))
    return failure();
  // C4: the mask broadcasts to [..., L, S]; it is i1 or the query's type.
  SmallVector<int64_t> scores(batch);
  scores.push_back(dim(q, 2));
  scores.push_back(dim(k, 2));
  if (Value m = adaptor.getMask()) {
    RankedTensorType mt = tensorOf(m);
    if (!mt.getElementType().isInteger(1) &&
        mt.getElementType() != q.getElementType())
      return opError<Op>(loc, "mask must be i1 or the query's element type");
    SmallVector<int64_t> out;
    if (failed(broadcastOrError<Op>(loc, mt.getShape(), scores, out, "mask",
                                    "scores")))
      return failure();
    if (out.size() != scores.size())
      return opError<Op>(loc, "mask has rank ", mt.getRank(),
                         ", more than the scores' rank ", scores.size());
  }
  // C5: is_causal needs static L and S.
  if (adaptor.getIsCausal() &&
      (ShapedType::isDynamic(dim(q, 2)) || ShapedType::isDynamic(dim(k, 2))))
    return opError<Op>(loc, "is_causal needs static sequence lengths, got L = ",
                       dimStr(dim(q, 2)), ", S = ", dimStr(dim(k, 2)));
  SmallVector<int64_t> shape(batch);
  shape.push_back(dim(q, 2));
  shape.push_back(dim(v, 1));
  inferred.push_back(RankedTensorType::get(shape, q.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(ScaledDotProductAttentionOp)

//===----------------------------------------------------------------------===//
// Indexing, padding, splitting, scans
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         GatherOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  RankedTensorType idx = tensorOf(adaptor.getIndices());
  int64_t axis = adaptor.getAxis();
  // C1: axis in range.
  if (axis < 0 || axis >= t.getRank())
    return opError<GatherOp>(loc, "axis ", axis, " is outside [0, ",
                             t.getRank(), ")");
  SmallVector<int64_t> shape(t.getShape().take_front(axis));
  llvm::append_range(shape, idx.getShape());
  llvm::append_range(shape, t.getShape().drop_front(axis + 1));
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(GatherOp)

LogicalResult
GatherElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                   GatherElementsOp::Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  using Op = GatherElementsOp;
  RankedTensorType t = tensorOf(adaptor.getInput());
  RankedTensorType idx = tensorOf(adaptor.getIndices());
  int64_t axis = adaptor.getAxis(), rank = t.getRank();
  // C1: axis in range.
  if (axis < 0 || axis >= rank)
    return opError<Op>(loc, "axis ", axis, " is outside [0, ", rank, ")");
  // C2: one rank; C3: indices no larger than input in the other dims.
  if (idx.getRank() != rank)
    return opError<Op>(loc, "indices have rank ", idx.getRank(),
                       " but input has rank ", rank);
  for (int64_t i = 0; i < rank; ++i) {
    int64_t a = idx.getDimSize(i), n = t.getDimSize(i);
    if (i != axis && !ShapedType::isDynamic(a) && !ShapedType::isDynamic(n) &&
        a > n)
      return opError<Op>(loc, "indices dim ", i, " is ", a,
                         ", larger than input's ", n);
  }
  // C4: an empty axis has nothing to select (static sizes).
  if (t.getDimSize(axis) == 0 && idx.getDimSize(axis) > 0)
    return opError<Op>(loc, "input dim ", axis,
                       " (the axis) is empty but indices select ",
                       idx.getDimSize(axis), " elements along it");
  inferred.push_back(RankedTensorType::get(idx.getShape(), t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(GatherElementsOp)

LogicalResult ScatterOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          ScatterOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  RankedTensorType d = tensorOf(adaptor.getData());
  RankedTensorType idx = tensorOf(adaptor.getIndices());
  RankedTensorType u = tensorOf(adaptor.getUpdates());
  int64_t axis = adaptor.getAxis(), rank = d.getRank();
  // C1: axis in range (data of rank 0 has none).
  if (axis < 0 || axis >= rank)
    return opError<ScatterOp>(loc, "axis ", axis, " is outside [0, ", rank,
                              ")");
  // C2: one rank; indices and updates one shape.
  if (idx.getRank() != rank || u.getRank() != rank)
    return opError<ScatterOp>(loc,
                              "data, indices and updates must have one "
                              "rank, got ",
                              rank, ", ", idx.getRank(), " and ", u.getRank());
  if (failed(checkSameElementTypeNamed(loc, ScatterOp::getOperationName(),
                                       d.getElementType(), u.getElementType(),
                                       "data", "updates")))
    return failure();
  for (int64_t i = 0; i < rank; ++i) {
    int64_t a = idx.getDimSize(i), b = u.getDimSize(i), n = d.getDimSize(i);
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
      return opError<ScatterOp>(loc, "indices have shape ",
                                shapeStr(idx.getShape()), " but updates ",
                                shapeStr(u.getShape()), " (dim ", i, ")");
    // C3: no larger than data in the other dims.
    if (i != axis && !ShapedType::isDynamic(a) && !ShapedType::isDynamic(n) &&
        a > n)
      return opError<ScatterOp>(loc, "indices dim ", i, " is ", a,
                                ", larger than data's ", n);
  }
  // C4: i1 data takes only none, max and min (or and and).
  ScatterReduction r = adaptor.getReduction();
  if (d.getElementType().isInteger(1) &&
      (r == ScatterReduction::Add || r == ScatterReduction::Mul))
    return opError<ScatterOp>(loc, "reduction ", stringifyScatterReduction(r),
                              " is not defined for i1 data");
  inferred.push_back(d);
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(ScatterOp)

LogicalResult DynamicUpdateSliceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc,
    DynamicUpdateSliceOp::Adaptor adaptor, SmallVectorImpl<Type> &inferred) {
  using Op = DynamicUpdateSliceOp;
  RankedTensorType d = tensorOf(adaptor.getDest());
  RankedTensorType u = tensorOf(adaptor.getUpdate());
  int64_t axis = adaptor.getAxis();
  // C1: axis in range.
  if (axis < 0 || axis >= d.getRank())
    return opError<Op>(loc, "axis ", axis, " is outside [0, ", d.getRank(),
                       ")");
  // C2: update is dest without the axis, same element type.
  if (failed(checkSameElementType<Op>(loc, d.getElementType(),
                                      u.getElementType(), "dest", "update")))
    return failure();
  SmallVector<int64_t> expected(d.getShape());
  expected.erase(expected.begin() + axis);
  if (!areCompatibleTensorTypes(
          u, RankedTensorType::get(expected, u.getElementType())))
    return opError<Op>(loc, "update shape ", shapeStr(u.getShape()),
                       " must be dest's shape without dim ", axis, ": ",
                       shapeStr(expected));
  inferred.push_back(d);
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(DynamicUpdateSliceOp)

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      PadOp::Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  // C1: low and high: one entry >= 0 per dim.
  if (failed(checkList<PadOp>(loc, "low", adaptor.getLow(), t.getRank(), 0)) ||
      failed(checkList<PadOp>(loc, "high", adaptor.getHigh(), t.getRank(), 0)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < t.getRank(); ++d)
    shape.push_back(t.isDynamicDim(d) ? ShapedType::kDynamic
                                      : t.getDimSize(d) + adaptor.getLow()[d] +
                                            adaptor.getHigh()[d]);
  inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(PadOp)

LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        SplitOp::Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  int64_t axis = adaptor.getAxis();
  // C1: axis in range; C2: sizes >= 0 summing to the static dim.
  if (axis < 0 || axis >= t.getRank())
    return opError<SplitOp>(loc, "axis ", axis, " is outside [0, ",
                            t.getRank(), ")");
  int64_t total = 0;
  for (auto [i, s] : llvm::enumerate(adaptor.getSizes())) {
    if (s < 0)
      return opError<SplitOp>(loc, "size ", i, " is ", s, ", must be >= 0");
    total += s;
  }
  if (!t.isDynamicDim(axis) && total != t.getDimSize(axis))
    return opError<SplitOp>(loc, "sizes ", listStr(adaptor.getSizes()),
                            " sum to ", total, ", but dim ", axis, " is ",
                            t.getDimSize(axis));
  for (int64_t s : adaptor.getSizes()) {
    SmallVector<int64_t> shape(t.getShape());
    shape[axis] = s;
    inferred.push_back(RankedTensorType::get(shape, t.getElementType()));
  }
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(SplitOp)

LogicalResult ArgMaxOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location> loc,
                                         ArgMaxOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  int64_t axis = adaptor.getAxis();
  // C1: axis in range.
  if (axis < 0 || axis >= t.getRank())
    return opError<ArgMaxOp>(loc, "axis ", axis, " is outside [0, ",
                             t.getRank(), ")");
  SmallVector<int64_t> shape(t.getShape());
  if (adaptor.getKeepdims())
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  inferred.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 64)));
  return success();
}
GRAPH_COMPATIBLE_RETURN_TYPES(ArgMaxOp)

/// The prefix scans (cumsum, cumprod): the input's type, the axis in range.
template <typename ScanOp>
static LogicalResult inferScanType(std::optional<Location> loc,
                                   typename ScanOp::Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  RankedTensorType t = tensorOf(adaptor.getInput());
  int64_t axis = adaptor.getAxis();
  // C1: axis in range.
  if (axis < 0 || axis >= t.getRank())
    return opError<ScanOp>(loc, "axis ", axis, " is outside [0, ", t.getRank(),
                           ")");
  inferred.push_back(t);
  return success();
}

LogicalResult CumSumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         CumSumOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return inferScanType<CumSumOp>(loc, adaptor, inferred);
}
GRAPH_COMPATIBLE_RETURN_TYPES(CumSumOp)

LogicalResult CumProdOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          CumProdOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  return inferScanType<CumProdOp>(loc, adaptor, inferred);
}
GRAPH_COMPATIBLE_RETURN_TYPES(CumProdOp)

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

namespace {
/// Checks that the values yielded by `block`'s terminator are compatible with
/// `types`.
LogicalResult checkYield(Operation *op, Block &block, TypeRange types,
                         StringRef regionName, size_t skip = 0) {
  auto yield = cast<YieldOp>(block.getTerminator());
  TypeRange yielded = TypeRange(yield.getValues()).drop_front(skip);
  if (yielded.size() != types.size())
    return op->emitOpError()
           << regionName << " yields " << yielded.size() << " value"
           << (yielded.size() == 1 ? "" : "s") << ", expected " << types.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(yielded, types))) {
    auto [got, want] = pair;
    if (!areCompatibleTensorTypes(got, want))
      return op->emitOpError()
             << regionName << " yields " << got << " as value " << i + skip
             << ", incompatible with " << want;
  }
  return success();
}
} // namespace

LogicalResult IfOp::verify() {
  if (failed(checkYield(*this, getThenRegion().front(), getResultTypes(),
                        "the then region")) ||
      failed(checkYield(*this, getElseRegion().front(), getResultTypes(),
                        "the else region")))
    return failure();
  return success();
}

namespace {
/// graph.if on a constant condition inlines the chosen region.
struct FoldConstantIf : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr cond;
    if (!matchPattern(op.getCondition(), m_Constant(&cond)))
      return failure();
    Region &region = cond.getSplatValue<bool>() ? op.getThenRegion()
                                                : op.getElseRegion();
    Block &block = region.front();
    auto yield = cast<YieldOp>(block.getTerminator());
    SmallVector<Value> results;
    SmallVector<Operation *> casts;
    for (auto [v, r] : llvm::zip(yield.getValues(), op.getResults())) {
      Value out = v;
      if (v.getType() != r.getType()) {
        casts.push_back(CastOp::create(rewriter, op.getLoc(), r.getType(), v));
        out = casts.back()->getResult(0);
      }
      results.push_back(out);
    }
    rewriter.inlineBlockBefore(&block, op);
    rewriter.eraseOp(yield);
    // The casts made here were created before inlining; move them after the
    // inlined ops (only those: a yielded value may be a cast defined before
    // the graph.if, whose users between it and the graph.if it must
    // still dominate).
    for (Operation *cast : casts)
      rewriter.moveOpBefore(cast, op);
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void IfOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                       MLIRContext *ctx) {
  results.add<FoldConstantIf>(ctx);
}

void LoopOp::build(OpBuilder &b, OperationState &state, Value tripCount,
                   Value condition, ValueRange inits) {
  state.addOperands(tripCount);
  state.addOperands(condition);
  state.addOperands(inits);
  state.addTypes(TypeRange(inits));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  block->addArgument(tripCount.getType(), state.location);
  for (Value v : inits)
    block->addArgument(v.getType(), state.location);
}

LogicalResult LoopOp::verify() {
  // C1: the carried operands are compatible with the results (the carried
  // types; shape refinement may make an operand more static).
  if (!areCompatibleTensorTypeLists(getResultTypes(), getInits().getTypes()))
    return emitOpError() << "carried operand types must be compatible with "
                            "the result types";
  // C2: body arguments are the iteration number and the carried values.
  Block &body = getBody().front();
  auto i64 = RankedTensorType::get({}, IntegerType::get(getContext(), 64));
  if (body.getNumArguments() != getInits().size() + 1 ||
      body.getArgument(0).getType() != i64)
    return emitOpError() << "body must take a tensor<i64> iteration number "
                            "followed by the "
                         << getInits().size() << " carried values";
  for (auto [i, pair] : llvm::enumerate(
           llvm::zip(body.getArguments().drop_front(), getResultTypes()))) {
    auto [arg, type] = pair;
    if (arg.getType() != type)
      return emitOpError() << "body argument " << i + 1 << " has type "
                           << arg.getType() << ", but the carried type "
                           << "(result " << i << ") is " << type;
  }
  // C3: the body yields an i1 condition and the next carried values.
  auto yield = cast<YieldOp>(body.getTerminator());
  auto i1 = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (yield.getValues().empty() || yield.getValues()[0].getType() != i1)
    return emitOpError() << "body must yield a tensor<i1> condition first";
  return checkYield(*this, body, getResultTypes(), "the body", 1);
}

#define GET_OP_CLASSES
#include "graphopt/Dialect/Graph/IR/GraphOps.cpp.inc"

//===----------------------------------------------------------------------===//
// graph.constant
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  auto t = dyn_cast<RankedTensorType>(getType());
  if (!t || !t.hasStaticShape())
    return emitOpError() << "needs a static shape, got " << getType();
  // Bytes, with overflow checked: 1 TiB at most.
  constexpr uint64_t kLimit = uint64_t(1) << 40;
  uint64_t bits = std::max<uint64_t>(1, t.getElementTypeBitWidth()), bytes;
  uint64_t elements = 1;
  bool overflow = false;
  for (int64_t d : t.getShape())
    overflow |= __builtin_mul_overflow(elements, uint64_t(d), &elements);
  overflow |= __builtin_mul_overflow(elements, bits, &bytes);
  bytes = (bytes + 7) / 8;
  if (overflow || bytes > kLimit)
    return emitOpError() << "is too large: " << t << " has "
                         << (overflow ? std::string("more than 2^64")
                                      : std::to_string(elements))
                         << " elements; constants are limited to 1 TiB";
  return success();
}
