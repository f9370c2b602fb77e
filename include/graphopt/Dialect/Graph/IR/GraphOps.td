//===- GraphOps.td - graph dialect ops ----------------------*- tablegen -*-===//
//
// Every op infers its result type (InferTypeOpInterface). A written result
// type may be less static than the inferred one (and vice versa): the two must
// be *compatible* (same rank and element type, static dims equal). That is
// what lets `graph-refine-shapes` tighten types in place.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_IR_GRAPHOPS_TD
#define GRAPHOPT_DIALECT_GRAPH_IR_GRAPHOPS_TD

include "graphopt/Dialect/Graph/IR/GraphDialect.td"
include "graphopt/Dialect/Graph/IR/GraphEnums.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic,
         !listconcat(traits, [Pure, InferTypeOpAdaptorWithIsCompatible])>;

//===----------------------------------------------------------------------===//
// graph.constant
//===----------------------------------------------------------------------===//

def Graph_ConstantOp : Op<Graph_Dialect, "constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant tensor";
  let description = [{
    Produces a tensor whose value is the `value` attribute. The result type is
    the attribute's type and must be static.

    ```mlir
    %w = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops (NumPy broadcasting)
//===----------------------------------------------------------------------===//

class Graph_BinaryOp<string mnemonic, Type operandType, string example,
                     list<Trait> traits = [], string notes = "">
    : Graph_Op<mnemonic, traits> {
  let summary = "Elementwise `" # mnemonic # "` with NumPy broadcasting";
  let description = [{
    Applies the operation elementwise to `lhs` and `rhs` after broadcasting
    both to a common shape with NumPy rules: shapes are aligned at their
    trailing dimension; a pair of dimensions must be equal or one of them 1.
    Both operands and the result have the same element type.
  }] # notes # [{

    ```mlir
  }] # example # [{
    ```
  }];
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def Graph_AddOp : Graph_BinaryOp<"add", Graph_NumericTensor,
    "%r = graph.add %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>",
    [Commutative]> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}
def Graph_SubOp : Graph_BinaryOp<"sub", Graph_NumericTensor,
    "%r = graph.sub %a, %b : tensor<4x3xf32>, tensor<4x1xf32> -> tensor<4x3xf32>"> {
  let hasFolder = 1;
}
def Graph_MulOp : Graph_BinaryOp<"mul", Graph_NumericTensor,
    "%r = graph.mul %a, %b : tensor<2x3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>",
    [Commutative]> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}
def Graph_DivOp : Graph_BinaryOp<"div", Graph_NumericTensor,
    "%r = graph.div %a, %b : tensor<8xf32>, tensor<1xf32> -> tensor<8xf32>",
    [], [{
    Integer division truncates toward zero. It never traps: `x / 0` is 0 and
    `INT_MIN / -1` wraps to `INT_MIN`.
  }]> {
  let hasFolder = 1;
}
def Graph_MaxOp : Graph_BinaryOp<"max", Graph_NumericTensor,
    "%r = graph.max %a, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>",
    [Commutative], [{
    For floats, NaN in either operand gives NaN (torch.maximum semantics).
  }]> {
  let hasFolder = 1;
}
def Graph_MinOp : Graph_BinaryOp<"min", Graph_NumericTensor,
    "%r = graph.min %a, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>",
    [Commutative], [{
    For floats, NaN in either operand gives NaN (torch.minimum semantics).
  }]> {
  let hasFolder = 1;
}
def Graph_PowOp : Graph_BinaryOp<"pow", Graph_FloatTensor,
    "%r = graph.pow %a, %b : tensor<8xf32>, tensor<f32> -> tensor<8xf32>"> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

class Graph_UnaryOp<string mnemonic, Type operandType, string formula,
                    list<Trait> traits = []>
    : Graph_Op<mnemonic, traits> {
  let summary = "Elementwise " # formula;
  let description = [{
    Computes }] # formula # [{ for every element. The result has the type of
    the operand.

    ```mlir
    %r = graph.}] # mnemonic # [{ %x : tensor<2x?xf32> -> tensor<2x?xf32>
    ```
  }];
  let arguments = (ins operandType:$input);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Graph_NegOp : Graph_UnaryOp<"neg", Graph_NumericTensor, "`-x`"> {
  let hasCanonicalizer = 1;
}
def Graph_AbsOp : Graph_UnaryOp<"abs", Graph_NumericTensor, "`|x|`">;
def Graph_ExpOp : Graph_UnaryOp<"exp", Graph_FloatTensor, "`e^x`">;
def Graph_LogOp : Graph_UnaryOp<"log", Graph_FloatTensor,
                                "the natural logarithm `ln(x)`">;
def Graph_SqrtOp : Graph_UnaryOp<"sqrt", Graph_FloatTensor, "`sqrt(x)`">;
def Graph_RsqrtOp : Graph_UnaryOp<"rsqrt", Graph_FloatTensor, "`1/sqrt(x)`">;
def Graph_TanhOp : Graph_UnaryOp<"tanh", Graph_FloatTensor, "`tanh(x)`">;
def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid", Graph_FloatTensor,
                                    "`1/(1+e^-x)`">;
def Graph_ReluOp : Graph_UnaryOp<"relu", Graph_NumericTensor, "`max(x, 0)`">;
def Graph_SiluOp : Graph_UnaryOp<"silu", Graph_FloatTensor,
                                 "`x * sigmoid(x)`">;

def Graph_GeluOp : Graph_Op<"gelu"> {
  let summary = "Elementwise GELU, exact (erf) or tanh approximation";
  let description = [{
    `approximate = none` (the default) computes `x/2 * (1 + erf(x/sqrt(2)))`;
    `approximate = tanh` computes
    `x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`, as `torch.nn.GELU`.

    ```mlir
    %r = graph.gelu %x : tensor<4xf32> -> tensor<4xf32>
    %t = graph.gelu %x approximate = tanh : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input,
      DefaultValuedAttr<Graph_GeluApproximation,
                        "::mlir::graphopt::graph::GeluApproximation::None">:$approximate);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`approximate` `=` $approximate^)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// graph.compare, graph.select, graph.cast
//===----------------------------------------------------------------------===//

def Graph_CompareOp : Graph_Op<"compare"> {
  let summary = "Elementwise comparison with broadcasting, giving i1";
  let description = [{
    Compares `lhs` and `rhs` elementwise after NumPy broadcasting. Float
    comparisons are ordered: any comparison with NaN is false, except `ne`,
    which is true.

    ```mlir
    %m = graph.compare gt, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Graph_CompareDirection:$direction,
                       Graph_Tensor:$lhs, Graph_Tensor:$rhs);
  let results = (outs Graph_BoolTensor:$result);
  let assemblyFormat = [{
    $direction `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasFolder = 1;
}

def Graph_SelectOp : Graph_Op<"select"> {
  let summary = "Elementwise choice between two tensors (torch.where)";
  let description = [{
    `result[i] = condition[i] ? on_true[i] : on_false[i]`, after broadcasting
    all three operands to a common shape.

    ```mlir
    %r = graph.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_BoolTensor:$condition, Graph_Tensor:$on_true,
                       Graph_Tensor:$on_false);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:` type($condition) `,`
    type($on_true) `,` type($on_false) `->` type($result)
  }];
  let hasFolder = 1;
}

def Graph_CastOp : Graph_Op<"cast"> {
  let summary = "Elementwise element-type conversion";
  let description = [{
    Converts every element to the result element type with C++/PyTorch
    semantics: float to int truncates toward zero; to i1 tests `!= 0`;
    i1 to a number gives 0 or 1; integer widening sign-extends.

    ```mlir
    %r = graph.cast %x : tensor<2x3xf32> -> tensor<2x3xf16>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$input, "::mlir::Type":$elementType)>];
}

//===----------------------------------------------------------------------===//
// graph.matmul
//===----------------------------------------------------------------------===//

def Graph_MatMulOp : Graph_Op<"matmul"> {
  let summary = "Matrix product with torch.matmul semantics";
  let description = [{
    1-D x 1-D is a dot product (rank-0 result); a 1-D `lhs` is treated as a
    row vector and a 1-D `rhs` as a column vector, the added dimension being
    removed from the result; operands of rank >= 2 multiply their last two
    dimensions and broadcast the leading (batch) dimensions NumPy-style.

    ```mlir
    %c = graph.matmul %a, %b : tensor<8x128x64xf32>, tensor<64x32xf32> -> tensor<8x128x32xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$lhs, Graph_NumericTensor:$rhs);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  }

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Graph_TransposeOp : Graph_Op<"transpose"> {
  let summary = "Permutes the dimensions of a tensor";
  let description = [{
    `result.shape[i] = input.shape[permutation[i]]`.

    ```mlir
    %t = graph.transpose %x, [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $permutation attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_ReshapeOp : Graph_Op<"reshape"> {
  let summary = "Reinterprets a tensor with a new shape (row-major order)";
  let description = [{
    The target shape is the `shape` attribute; one entry may be -1, meaning
    "whatever makes the element count match" (torch.reshape). Elements keep
    their row-major order.

    ```mlir
    %r = graph.reshape %x, [3, -1] : tensor<2x6xf32> -> tensor<3x4xf32>
    %d = graph.reshape %y, [-1, 64] : tensor<?x8x8xf32> -> tensor<?x64xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $shape attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_BroadcastToOp : Graph_Op<"broadcast_to"> {
  let summary = "Broadcasts a tensor to a shape (NumPy rules)";
  let description = [{
    Aligns `input` with `shape` at the trailing dimension; each input
    dimension must be 1 or equal to the target dimension. A target entry of -1
    keeps the input's dimension (torch.expand).

    ```mlir
    %b = graph.broadcast_to %x, [4, 3] : tensor<3xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $shape attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_ConcatOp : Graph_Op<"concat"> {
  let summary = "Joins tensors along an axis";
  let description = [{
    All operands have the same rank and element type and agree in every
    dimension except `axis`, along which the result is their concatenation.

    ```mlir
    %c = graph.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x5xf32> -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Graph_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` type($inputs) `->` type($result)
  }];
  let hasFolder = 1;
}

def Graph_SliceOp : Graph_Op<"slice"> {
  let summary = "Extracts a strided slice (Python start:limit:step per dim)";
  let description = [{
    For every dimension `d`, takes indices `start[d], start[d] + step[d], ...`
    below `limit[d]`. `0 <= start <= limit`, `step >= 1`, and `limit` is at
    most the dimension size when that is static; a dynamic dimension must be
    at least `limit` at run time.

    ```mlir
    %s = graph.slice %x [0, 1] [4, 7] [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$start,
                       DenseI64ArrayAttr:$limit, DenseI64ArrayAttr:$step);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $input $start $limit $step attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Graph_ReduceOp : Graph_Op<"reduce"> {
  let summary = "Reduces a tensor over a list of axes (sum, mean, max, min)";
  let description = [{
    Reduces `input` over `axes` (distinct, in `[0, rank)`). With `keepdims`
    the reduced dimensions stay as size 1, otherwise they are removed. `mean`
    requires a float element type. An empty `axes` list is the identity.

    ```mlir
    %s = graph.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
    %m = graph.reduce max %x axes = [0, 1] keepdims : tensor<4x8xf32> -> tensor<1x1xf32>
    ```
  }];
  let arguments = (ins Graph_ReduceKind:$kind, Graph_NumericTensor:$input,
                       DenseI64ArrayAttr:$axes, UnitAttr:$keepdims);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = [{
    $kind $input `axes` `=` $axes (`keepdims` $keepdims^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def Graph_SoftmaxOp : Graph_Op<"softmax"> {
  let summary = "Softmax along an axis";
  let description = [{
    `exp(x - max(x)) / sum(exp(x - max(x)))` along `axis`, computed in the
    numerically stable form.

    ```mlir
    %p = graph.softmax %x axis = 1 : tensor<4x10xf32> -> tensor<4x10xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, I64Attr:$axis);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis attr-dict `:` type($input) `->` type($result)
  }];
}

#endif // GRAPHOPT_DIALECT_GRAPH_IR_GRAPHOPS_TD
