//===- FusionOps.cpp - fusion dialect ops ---------------------------------===//
//
// As for graph ops, result-type inference is the verifier of the fused
// kernels; constraint numbers refer to docs/Dialects/Fusion.md.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::fusion;

#include "graphopt/Dialect/Fusion/IR/FusionDialect.cpp.inc"
#include "graphopt/Dialect/Fusion/IR/FusionEnums.cpp.inc"

void FusionDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "graphopt/Dialect/Fusion/IR/FusionOps.cpp.inc"
      >();
}

namespace {
template <typename OpTy, typename... Args>
LogicalResult opError(std::optional<Location> loc, Args &&...args) {
  return graph::emitOpError<OpTy>(loc, std::forward<Args>(args)...);
}

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

std::string dimStr(int64_t d) { return graph::formatDim(d); }

bool dimsConflict(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}
} // namespace

std::optional<Activation>
mlir::graphopt::fusion::getAbsorbableActivation(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<Activation>>(op)
      .Case([](graph::ReluOp) { return Activation::Relu; })
      .Case([](graph::GeluOp g) {
        return g.getApproximate() == graph::GeluApproximation::Tanh
                   ? Activation::GeluTanh
                   : Activation::Gelu;
      })
      .Case([](graph::SiluOp) { return Activation::Silu; })
      .Case([](graph::SigmoidOp) { return Activation::Sigmoid; })
      .Case([](graph::TanhOp) { return Activation::Tanh; })
      .Default([](Operation *) { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// fusion.conv2d: graph.conv2d's constraints (C1-C5 of graph.conv2d), by
// graph.conv2d's own rule.
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Conv2DOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return graph::inferConv2DReturnTypes(loc, getOperationName(), adaptor, inferred);
}

bool Conv2DOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return graph::areCompatibleTensorTypeLists(l, r);
}

//===----------------------------------------------------------------------===//
// fusion.custom_call
//===----------------------------------------------------------------------===//

LogicalResult CustomCallOp::verify() {
  // C1: a dynamic result dim is sized like operand 0, which needs the same
  // rank.
  for (auto [i, t] : llvm::enumerate(getResultTypes())) {
    auto rt = cast<RankedTensorType>(t);
    if (rt.hasStaticShape())
      continue;
    if (getInputs().empty() ||
        cast<RankedTensorType>(getInputs()[0].getType()).getRank() !=
            rt.getRank())
      return emitOpError() << "result " << i << " has dynamic dims but "
                           << "operand 0 does not have its rank ("
                           << rt.getRank() << ") to size them";
  }
  return success();
}

LogicalResult
CustomCallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  // C2: a callee defined in the module must not be a graph function: the
  // symbol names an external kernel (a declaration is fine).
  auto fn = symbolTable.lookupNearestSymbolFrom<FunctionOpInterface>(
      *this, getCalleeAttr());
  if (fn && !fn.isExternal())
    return emitOpError() << "callee @" << getCallee()
                         << " is defined in this module; custom_call calls "
                            "external kernels only";
  return success();
}

//===----------------------------------------------------------------------===//
// fusion.group
//===----------------------------------------------------------------------===//

void GroupOp::build(OpBuilder &b, OperationState &state, TypeRange resultTypes,
                    GroupKind kind, ValueRange inputs) {
  state.addTypes(resultTypes);
  state.addOperands(inputs);
  state.getOrAddProperties<Properties>().kind =
      GroupKindAttr::get(b.getContext(), kind);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value v : inputs)
    block->addArgument(v.getType(), v.getLoc());
}

LogicalResult GroupOp::verify() {
  Block &body = getBody().front();
  // C1: one block argument per input, of its type.
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("has ")
           << getInputs().size() << " inputs but its body "
           << "takes " << body.getNumArguments() << " arguments";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getInputs(), body.getArguments()))) {
    auto [input, arg] = pair;
    if (input.getType() != arg.getType())
      return emitOpError("input ")
             << i << " has type " << input.getType() << " but body argument "
             << i << " has type " << arg.getType();
  }
  // C2: the yield matches the results.
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != getNumResults())
    return emitOpError("has ") << getNumResults() << " results but yields "
                               << yield.getValues().size() << " values";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getResultTypes(), yield.getValues()))) {
    auto [type, value] = pair;
    if (type != value.getType())
      return emitOpError("result ")
             << i << " has type " << type << " but the body yields "
             << value.getType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// fusion.linear
//===----------------------------------------------------------------------===//

LogicalResult LinearOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         LinearOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RankedTensorType x = tensorOf(adaptor.getInput());
  RankedTensorType w = tensorOf(adaptor.getWeight());
  // C1: input rank >= 1.
  if (x.getRank() < 1)
    return opError<LinearOp>(loc, "input must have rank >= 1");
  // C2: the weight is 2-D.
  if (w.getRank() != 2)
    return opError<LinearOp>(loc, "weight must be 2-D, got rank ", w.getRank());
  // C5: one element type.
  if (x.getElementType() != w.getElementType())
    return opError<LinearOp>(loc, "input and weight element types differ");
  bool transposed = adaptor.getTransposeWeight();
  int64_t kDim = transposed ? 1 : 0, nDim = transposed ? 0 : 1;
  // C3: contracting dims agree.
  if (dimsConflict(x.getShape().back(), w.getDimSize(kDim)))
    return opError<LinearOp>(loc, "contracting dimension mismatch: input dim ",
                             x.getRank() - 1, " is ",
                             dimStr(x.getShape().back()), ", weight dim ", kDim,
                             " is ", dimStr(w.getDimSize(kDim)));
  int64_t n = w.getDimSize(nDim);
  if (Value bias = adaptor.getBias()) {
    RankedTensorType b = tensorOf(bias);
    // C4: the bias is [N].
    if (b.getRank() != 1 || dimsConflict(b.getDimSize(0), n))
      return opError<LinearOp>(loc, "bias must have shape [", dimStr(n),
                               "], got rank ", b.getRank(), " with dim 0 ",
                               b.getRank() ? dimStr(b.getDimSize(0)) : "-");
    if (b.getElementType() != x.getElementType())
      return opError<LinearOp>(loc, "bias element type differs from input");
  }
  SmallVector<int64_t> shape(x.getShape().drop_back());
  shape.push_back(n);
  inferred.push_back(RankedTensorType::get(shape, x.getElementType()));
  return success();
}

bool LinearOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return graph::areCompatibleTensorTypeLists(l, r);
}

//===----------------------------------------------------------------------===//
// fusion.attention
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            AttentionOp::Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  RankedTensorType q = tensorOf(adaptor.getQuery());
  RankedTensorType k = tensorOf(adaptor.getKey());
  RankedTensorType v = tensorOf(adaptor.getValue());
  // C1: ranks >= 2.
  for (auto [name, t] : {std::pair<StringRef, RankedTensorType>{"query", q},
                         {"key", k},
                         {"value", v}})
    if (t.getRank() < 2)
      return opError<AttentionOp>(loc, name, " must have rank >= 2, got ",
                                  t.getRank());
  // C2: one element type.
  if (q.getElementType() != k.getElementType() ||
      q.getElementType() != v.getElementType())
    return opError<AttentionOp>(loc,
                                "query, key and value element types differ");
  // C3: query and key share the head dim D.
  if (dimsConflict(q.getShape().back(), k.getShape().back()))
    return opError<AttentionOp>(
        loc, "head dimension mismatch: query dim ", q.getRank() - 1, " is ",
        dimStr(q.getShape().back()), ", key dim ", k.getRank() - 1, " is ",
        dimStr(k.getShape().back()));
  // C4: key and value share the sequence length S.
  int64_t ks = k.getDimSize(k.getRank() - 2),
          vs = v.getDimSize(v.getRank() - 2);
  if (dimsConflict(ks, vs))
    return opError<AttentionOp>(loc, "key length ", dimStr(ks),
                                " differs from value length ", dimStr(vs));
  // C5: batch dims broadcast.
  SmallVector<int64_t> qk, batch;
  if (graph::broadcastShapes(q.getShape().drop_back(2),
                             k.getShape().drop_back(2), qk) ||
      graph::broadcastShapes(qk, v.getShape().drop_back(2), batch))
    return opError<AttentionOp>(loc, "batch dims of query, key and value do "
                                     "not broadcast");
  int64_t l = q.getDimSize(q.getRank() - 2);
  if (Value mask = adaptor.getMask()) {
    RankedTensorType m = tensorOf(mask);
    // C6: the mask is i1 or of the query's element type.
    if (!m.getElementType().isInteger(1) &&
        m.getElementType() != q.getElementType())
      return opError<AttentionOp>(loc, "mask must be i1 or of the query's "
                                       "element type");
    // C7: the mask broadcasts to [..., L, S].
    SmallVector<int64_t> scores(batch), out;
    scores.append({l, ks});
    if (graph::broadcastShapes(m.getShape(), scores, out) ||
        out.size() != scores.size())
      return opError<AttentionOp>(loc, "mask does not broadcast to the "
                                       "scores' shape");
  }
  // C8: a positive scale.
  if (std::optional<APFloat> s = adaptor.getScale();
      s && !(s->convertToDouble() > 0))
    return opError<AttentionOp>(loc, "scale must be positive, got ",
                                s->convertToDouble());
  SmallVector<int64_t> shape(batch);
  shape.append({l, v.getShape().back()});
  inferred.push_back(RankedTensorType::get(shape, q.getElementType()));
  return success();
}

bool AttentionOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return graph::areCompatibleTensorTypeLists(l, r);
}

#define GET_OP_CLASSES
#include "graphopt/Dialect/Fusion/IR/FusionOps.cpp.inc"
