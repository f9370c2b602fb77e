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
    the attribute's type and must be static, and its size at most 1 TiB (a
    splat can name any shape; code generation materializes it).

    ```mlir
    %w = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
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
def Graph_RemOp : Graph_BinaryOp<"rem", Graph_NumericTensor,
    "%r = graph.rem %a, %b : tensor<8xf32>, tensor<f32> -> tensor<8xf32>",
    [], [{
    The remainder of the division truncated toward zero, with the sign of
    `lhs`: C's `fmod`, `torch.fmod`, ONNX `Mod` with `fmod = 1` (Python's
    `%` is this plus `rhs` where the result is nonzero and the signs
    differ). For floats `x rem 0` is NaN, as `fmod`. For integers it never
    traps and keeps `lhs = rhs * (lhs / rhs) + lhs rem rhs` with
    `graph.div`'s rules: `x rem 0 = x`, `INT_MIN rem -1 = 0`.
  }]>;
def Graph_PowOp : Graph_BinaryOp<"pow", Graph_FloatTensor,
    "%r = graph.pow %a, %b : tensor<8xf32>, tensor<f32> -> tensor<8xf32>"> {
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_BitwiseAndOp : Graph_BinaryOp<"bitwise_and", Graph_IntegerTensor,
    "%r = graph.bitwise_and %a, %b : tensor<8xi32>, tensor<8xi32> -> tensor<8xi32>",
    [Commutative], [{
    Bitwise AND of the two's-complement (or unsigned) representations; on
    `i1` the logical AND.
  }]>;
def Graph_BitwiseOrOp : Graph_BinaryOp<"bitwise_or", Graph_IntegerTensor,
    "%r = graph.bitwise_or %a, %b : tensor<8xui8>, tensor<ui8> -> tensor<8xui8>",
    [Commutative], [{
    Bitwise OR; on `i1` the logical OR.
  }]>;
def Graph_BitwiseXorOp : Graph_BinaryOp<"bitwise_xor", Graph_IntegerTensor,
    "%r = graph.bitwise_xor %a, %b : tensor<8xi64>, tensor<8xi64> -> tensor<8xi64>",
    [Commutative], [{
    Bitwise exclusive OR; on `i1` the logical XOR.
  }]>;
def Graph_ShiftLeftOp : Graph_BinaryOp<"shift_left", Graph_ShiftTensor,
    "%r = graph.shift_left %x, %n : tensor<8xi32>, tensor<8xi32> -> tensor<8xi32>",
    [], [{
    `lhs` shifted left by `rhs` bits, zeros shifted in, bits shifted past
    the top (the sign bit included) discarded. A shift amount that is
    negative or at least the bit width gives 0 (ONNX `BitShift` since
    opset 28; C leaves it undefined).
  }]>;
def Graph_ShiftRightOp : Graph_BinaryOp<"shift_right", Graph_ShiftTensor,
    "%r = graph.shift_right %x, %n : tensor<8xui16>, tensor<8xui16> -> tensor<8xui16>",
    [], [{
    `lhs` shifted right by `rhs` bits: arithmetic (copies of the sign bit
    shifted in) for signed types, logical (zeros) for unsigned ones. A shift
    amount that is negative or at least the bit width gives what the sign
    extension alone gives: -1 for a negative signed `lhs`, else 0 (ONNX
    `BitShift` since opset 28).
  }]>;

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
def Graph_ErfOp : Graph_UnaryOp<"erf", Graph_FloatTensor,
                                "the error function `erf(x)`">;

// Trigonometric and hyperbolic functions and their inverses: libm's on the
// CPU, libdevice's on CUDA.
def Graph_SinOp : Graph_UnaryOp<"sin", Graph_FloatTensor,
    "`sin(x)`">;
def Graph_CosOp : Graph_UnaryOp<"cos", Graph_FloatTensor,
    "`cos(x)`">;
def Graph_TanOp : Graph_UnaryOp<"tan", Graph_FloatTensor,
    "`tan(x)`">;
def Graph_AsinOp : Graph_UnaryOp<"asin", Graph_FloatTensor,
    "`asin(x)` (NaN outside [-1, 1])">;
def Graph_AcosOp : Graph_UnaryOp<"acos", Graph_FloatTensor,
    "`acos(x)` (NaN outside [-1, 1])">;
def Graph_AtanOp : Graph_UnaryOp<"atan", Graph_FloatTensor,
    "`atan(x)`">;
def Graph_SinhOp : Graph_UnaryOp<"sinh", Graph_FloatTensor,
    "`sinh(x)`">;
def Graph_CoshOp : Graph_UnaryOp<"cosh", Graph_FloatTensor,
    "`cosh(x)`">;
def Graph_AsinhOp : Graph_UnaryOp<"asinh", Graph_FloatTensor,
    "`asinh(x)`">;
def Graph_AcoshOp : Graph_UnaryOp<"acosh", Graph_FloatTensor,
    "`acosh(x)` (NaN below 1)">;
def Graph_AtanhOp : Graph_UnaryOp<"atanh", Graph_FloatTensor,
    "`atanh(x)` (NaN outside [-1, 1], +-inf at +-1)">;

// Rounding to integral values (the result stays a float): one instruction
// each on x86 (roundps / vrndscaleps) and NVIDIA GPUs (cvt.rmi/rpi/rni).
def Graph_FloorOp : Graph_UnaryOp<"floor", Graph_FloatTensor,
    "`floor(x)`, the largest integral value not above x (-0.0, NaN and "
    "+-inf stay)">;
def Graph_CeilOp : Graph_UnaryOp<"ceil", Graph_FloatTensor,
    "`ceil(x)`, the smallest integral value not below x (-0.0, NaN and "
    "+-inf stay; ceil(-0.5) is -0.0)">;
def Graph_RoundOp : Graph_UnaryOp<"round", Graph_FloatTensor,
    "`round(x)`, the nearest integral value, ties to even (NumPy's "
    "`round`, ONNX `Round`, `torch.round`; round(-0.5) is -0.0)">;
def Graph_HardSwishOp : Graph_UnaryOp<"hardswish", Graph_FloatTensor,
                                      "`x * min(max(x + 3, 0), 6) / 6`">;
def Graph_HardSigmoidOp : Graph_UnaryOp<"hardsigmoid", Graph_FloatTensor,
                                        "`min(max(x / 6 + 1/2, 0), 1)`">;

def Graph_LeakyReluOp : Graph_Op<"leaky_relu"> {
  let summary = "Elementwise leaky ReLU: `x if x >= 0 else alpha * x`";
  let description = [{
    As `torch.nn.LeakyReLU(negative_slope=alpha)`; NaN stays NaN.

    ```mlir
    %k = graph.leaky_relu %x {alpha = 0.01 : f64} : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input,
                       DefaultValuedAttr<F64Attr, "0.01">:$alpha);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Graph_ClampOp : Graph_Op<"clamp"> {
  let summary = "Elementwise clamp to `[min, max]`";
  let description = [{
    `min(max(x, min), max)` with either bound optional (at least one given),
    as `torch.clamp`; NaN stays NaN. The bounds are `f64` attributes; for
    integer tensors they are rounded toward the range (`ceil(min)`,
    `floor(max)`) and saturated to the element type.

    ```mlir
    %c = graph.clamp %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$input, OptionalAttr<F64Attr>:$min,
                       OptionalAttr<F64Attr>:$max);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

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
// graph.bitcast
//===----------------------------------------------------------------------===//

def Graph_BitcastOp : Graph_Op<"bitcast"> {
  let summary = "Elementwise reinterpretation of the bits as another type";
  let description = [{
    Each element's bits read as the result element type, of the same bit
    width (ONNX's BitCast). An i1 element, stored as a byte, becomes an
    8-bit integer 0 or 1.

    ```mlir
    %r = graph.bitcast %x : tensor<4xf32> -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
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

//===----------------------------------------------------------------------===//
// Neural-network ops (NCHW)
//===----------------------------------------------------------------------===//

def Graph_Conv2DOp : Graph_Op<"conv2d"> {
  let summary = "2-D convolution, NCHW input, FCHW weight, optional bias";
  let description = [{
    `input` is `[N, C, H, W]`, `weight` is `[F, C / groups, KH, KW]`, `bias`
    (optional) is `[F]`; the result is `[N, F, OH, OW]` with
    `OH = (H + top + bottom - dilation_h * (KH - 1) - 1) / stride_h + 1` and
    likewise for `OW`. `padding` is `[top, left, bottom, right]` (zeros).
    `groups` divides both `C` and `F`; `groups = C = F` is a depthwise
    convolution. Same semantics as `torch.nn.functional.conv2d` (with
    symmetric padding) and ONNX `Conv` (any padding).

    ```mlir
    %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
        : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$weight,
      Optional<Graph_FloatTensor>:$bias,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

class Graph_Pool2DOp<string mnemonic, string summaryText, string extra>
    : Graph_Op<mnemonic> {
  let summary = summaryText;
  let description = [{
    Pools `[N, C, H, W]` over `kernel` windows moved by `strides` (default:
    the kernel), with `padding = [top, left, bottom, right]` (default 0) and
    `dilations` (default 1). The output size is
    `floor((H + top + bottom - dilation * (KH - 1) - 1) / stride) + 1`, or with
    `ceil_mode` the ceiling, less one if the last window would start in the
    bottom padding (PyTorch's rule).
  }] # extra;
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_MaxPool2DOp : Graph_Pool2DOp<"max_pool2d",
    "2-D max pooling (NCHW)", [{
    Padding never wins the max.

    ```mlir
    %p = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
        : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
    ```
  }]> {
  let arguments = (ins Graph_NumericTensor:$input, DenseI64ArrayAttr:$kernel,
      OptionalAttr<DenseI64ArrayAttr>:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      UnitAttr:$ceil_mode);
}

def Graph_AvgPool2DOp : Graph_Pool2DOp<"avg_pool2d",
    "2-D average pooling (NCHW)", [{
    Each output is the window's sum divided by the number of window elements
    inside the input, or, with `count_include_pad`, inside the padded input
    (PyTorch's `count_include_pad=True`, ONNX's `count_include_pad=1`).
    Float element types only.

    ```mlir
    %a = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, count_include_pad}
        : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
    ```
  }]> {
  let arguments = (ins Graph_FloatTensor:$input, DenseI64ArrayAttr:$kernel,
      OptionalAttr<DenseI64ArrayAttr>:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      UnitAttr:$ceil_mode, UnitAttr:$count_include_pad);
}

def Graph_AdaptiveAvgPool2DOp : Graph_Op<"adaptive_avg_pool2d"> {
  let summary = "Adaptive 2-D average pooling to a fixed output size (NCHW)";
  let description = [{
    Output cell `(i, j)` averages input rows `[floor(i*H/OH), ceil((i+1)*H/OH))`
    and the matching columns, as `torch.nn.AdaptiveAvgPool2d`. `H` and `W`
    must be static unless `output_size` is `[1, 1]` (global average pooling).

    ```mlir
    %g = graph.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>}
        : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input,
                       DenseI64ArrayAttr:$output_size);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_ResizeOp : Graph_Op<"resize"> {
  let summary = "Resamples a tensor to new sizes (nearest, linear, cubic; ONNX Resize)";
  let description = [{
    Dim `d` of the result has `sizes[d]` elements (`-1`: the input's dim,
    unchanged; then `scales[d]` must be 1). Every resized dim is resampled
    on its own (the interpolation is separable), in dim order, with ONNX
    `Resize`'s rules (opset 19; `onnx.reference`'s separable form): output
    index `x` maps to the input coordinate
    `x_in = f(x, scales[d], H, sizes[d])` given by
    `coordinate_transformation_mode` (`half_pixel`, `half_pixel_symmetric`,
    `pytorch_half_pixel`, `align_corners`, `asymmetric`, or
    `tf_crop_and_resize` with `roi = [starts..., ends...]`, one pair per dim,
    and `extrapolation_value` for coordinates outside the input). `mode`:

    - `nearest`: the input element at `x_in` rounded by `nearest_mode`
      (`round_prefer_floor`, `round_prefer_ceil`, `floor`, `ceil`);
    - `linear`: the two neighbours, weights `1 - r` and `r`;
    - `cubic`: four neighbours, Keys' cubic with `cubic_coeff_a` (-0.75 as
      PyTorch's bicubic; -0.5 as TensorFlow's); `exclude_outside` gives
      neighbours outside the input weight 0 and renormalizes.

    Neighbours outside the input take the nearest edge element. `antialias`
    (linear and cubic): when downsampling, the filter is widened by
    `1 / scale` (a low-pass filter, as PIL). `scales[d]` is the factor in the
    coordinate formula (ONNX: the given scale, or `sizes[d] / H`; PyTorch's
    `interpolate` with `scale_factor`: that factor). Linear and cubic need a
    float element type; weights are rounded to it. Resized dims must be
    static. A composite: `graph-decompose` turns it into `graph.gather` ops
    with constant indices and weighted sums.

    ```mlir
    %y = graph.resize %x {mode = "linear", sizes = array<i64: -1, -1, 64, 64>,
                          scales = array<f64: 1.0, 1.0, 2.0, 2.0>}
        : tensor<1x3x32x32xf32> -> tensor<1x3x64x64xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$sizes,
      DenseF64ArrayAttr:$scales,
      DefaultValuedStrAttr<StrAttr, "nearest">:$mode,
      DefaultValuedStrAttr<StrAttr, "half_pixel">:$coordinate_transformation_mode,
      DefaultValuedStrAttr<StrAttr, "round_prefer_floor">:$nearest_mode,
      DefaultValuedAttr<F64Attr, "-0.75">:$cubic_coeff_a,
      UnitAttr:$exclude_outside, UnitAttr:$antialias,
      OptionalAttr<DenseF64ArrayAttr>:$roi,
      DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Graph_BatchNormOp : Graph_Op<"batch_norm"> {
  let summary = "Inference batch normalization over axis 1";
  let description = [{
    `(x - mean) / sqrt(var + epsilon) * weight + bias`, with the rank-1
    operands (size C) broadcast along axis 1 of `input` (rank >= 2). A
    composite: `graph-decompose` rewrites it to elementwise ops, which
    constant folding collapses to one multiply-add when the statistics are
    constants.

    ```mlir
    %n = graph.batch_norm %x, %mean, %var, %w, %b {epsilon = 1.0e-05 : f64}
        : (tensor<1x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$mean,
      Graph_FloatTensor:$variance, Graph_FloatTensor:$weight,
      Graph_FloatTensor:$bias, DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Graph_LayerNormOp : Graph_Op<"layer_norm"> {
  let summary = "Layer normalization over the trailing dims";
  let description = [{
    Normalizes over the trailing `weight.rank` dims of `input` (biased
    variance), then scales by `weight` and adds `bias`, which both have the
    normalized shape: `torch.nn.LayerNorm`, ONNX `LayerNormalization` with
    `axis = -weight.rank`. A composite: `graph-decompose` rewrites it to
    reductions and elementwise ops.

    ```mlir
    %l = graph.layer_norm %x, %w, %b {epsilon = 1.0e-05 : f64}
        : (tensor<2x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<2x128x768xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$weight,
      Graph_FloatTensor:$bias, DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Graph_ScaledDotProductAttentionOp
    : Graph_Op<"scaled_dot_product_attention"> {
  let summary = "softmax(q k^T * scale + mask) v";
  let description = [{
    `query` is `[..., L, E]`, `key` `[..., S, E]`, `value` `[..., S, Ev]`
    (leading dims broadcast); the result is `[..., L, Ev]`. `mask`
    (optional) broadcasts to `[..., L, S]`: an i1 mask keeps the scores where
    it is true (others become -inf), a float mask is added to the scores.
    `scale` defaults to `1/sqrt(E)`. `is_causal` masks key positions `j > i`
    (L and S static). Semantics of
    `torch.nn.functional.scaled_dot_product_attention`. A composite:
    `graph-decompose` rewrites it to matmul, softmax and elementwise ops;
    fusion passes may instead map it to `fusion.attention`.

    ```mlir
    %o = graph.scaled_dot_product_attention %q, %k, %v {is_causal}
        : (tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>) -> tensor<1x12x128x64xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$query, Graph_FloatTensor:$key,
      Graph_FloatTensor:$value, Optional<Graph_Tensor>:$mask,
      OptionalAttr<F64Attr>:$scale, UnitAttr:$is_causal);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Indexing, padding, splitting, scans
//===----------------------------------------------------------------------===//

def Graph_GatherOp : Graph_Op<"gather"> {
  let summary = "Selects slices along an axis by index (index_select, embedding)";
  let description = [{
    `result.shape = input.shape[:axis] + indices.shape + input.shape[axis+1:]`
    and `result[..., i..., ...] = input[..., indices[i...], ...]`. Indices are
    i32 or i64; a negative index counts from the end (Python), and an index
    still outside the dim is clamped into it, so a bad index never reads out
    of bounds. A rank-0 index removes the axis (`x[i]`).

    ```mlir
    %e = graph.gather %table, %ids {axis = 0 : i64} : (tensor<1000x64xf32>, tensor<2x16xi64>) -> tensor<2x16x64xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input,
                       RankedTensorOf<[I32, I64]>:$indices, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Graph_DynamicUpdateSliceOp : Graph_Op<"dynamic_update_slice"> {
  let summary = "Replaces the slice at a run-time index along an axis";
  let description = [{
    The result is `dest` with `dest[..., index, ...]` (position `index` along
    `axis`) replaced by `update`, whose shape is `dest`'s without `axis`.
    `index` is a rank-0 i64 tensor; negative counts from the end and the
    result is clamped into the dim. Loop bodies use it, with `graph.gather`
    of a rank-0 index, to read and write time steps.

    ```mlir
    %d = graph.dynamic_update_slice %dest, %u, %t {axis = 0 : i64}
        : (tensor<32x1x256xf32>, tensor<1x256xf32>, tensor<i64>) -> tensor<32x1x256xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$dest, Graph_Tensor:$update,
                       0DTensorOf<[I64]>:$index, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Graph_GatherElementsOp : Graph_Op<"gather_elements"> {
  let summary = "Selects elements along an axis by index (GatherElements, torch.gather)";
  let description = [{
    `result[p] = input[p with p[axis] replaced by indices[p]]`: the result
    has the shape of `indices`, which has `input`'s rank and no larger dims
    than `input` other than `axis`. Indices are i32 or i64; a negative index
    counts from the end, and one still outside the dim is clamped into it,
    so a bad index never reads out of bounds.

    ```mlir
    %r = graph.gather_elements %x, %idx {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input,
                       RankedTensorOf<[I32, I64]>:$indices, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Graph_ScatterOp : Graph_Op<"scatter"> {
  let summary = "Writes updates into a copy of a tensor at indices along an axis (ScatterElements, torch.scatter)";
  let description = [{
    The result is `data` with, for every position `p` of `indices`,
    `result[p with p[axis] replaced by indices[p]] = updates[p]` (reduction
    `none`), or combined with the element already there (`add`, `mul`,
    `max`, `min`). `data`, `indices` and `updates` have one rank;
    `indices` and `updates` one shape, no larger than `data`'s in the dims
    other than `axis`. Indices are i32 or i64; a negative index counts from
    the end and an index still outside the dim is clamped into it, so a bad
    index never writes out of bounds. Updates are applied in row-major
    order of `p`: with duplicate indices and `none` the last one wins
    (ONNX leaves this undefined, PyTorch unspecified). `max` and `min`
    propagate NaN.

    ```mlir
    %r = graph.scatter add %data, %idx, %upd {axis = 1 : i64}
        : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
    ```
  }];
  let arguments = (ins Graph_ScatterReduction:$reduction, Graph_Tensor:$data,
                       RankedTensorOf<[I32, I64]>:$indices,
                       Graph_Tensor:$updates, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $reduction $data `,` $indices `,` $updates attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_PadOp : Graph_Op<"pad"> {
  let summary = "Pads with a constant";
  let description = [{
    Adds `low[d]` elements before and `high[d]` after dim `d` (both >= 0),
    filled with `value` (default 0; converted to the element type).

    ```mlir
    %p = graph.pad %x {low = array<i64: 0, 1>, high = array<i64: 0, 2>} : tensor<2x3xf32> -> tensor<2x6xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high,
                       DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Graph_SplitOp : Graph_Op<"split"> {
  let summary = "Splits a tensor along an axis into pieces of given sizes";
  let description = [{
    Result `i` is the slice of `sizes[i]` elements along `axis` that follows
    the previous pieces; the sizes are >= 0 and sum to the dim when it is
    static. A composite: `graph-decompose` turns it into `graph.slice` ops.

    ```mlir
    %a, %b = graph.split %x {axis = 1 : i64, sizes = array<i64: 2, 4>} : tensor<3x6xf32> -> tensor<3x2xf32>, tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<Graph_Tensor>:$results);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($results)";
}

def Graph_ArgMaxOp : Graph_Op<"argmax"> {
  let summary = "Index of the maximum along an axis";
  let description = [{
    The i64 index of the largest element along `axis`; the first one on
    ties; a NaN counts as the maximum (torch.argmax). With `keepdims` the
    axis stays as size 1.

    ```mlir
    %i = graph.argmax %x {axis = 1 : i64} : tensor<4x10xf32> -> tensor<4xi64>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$input, I64Attr:$axis,
                       UnitAttr:$keepdims);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

// Inclusive prefix scans: one operand, an axis, the result of its type.
class Graph_ScanOp<string mnemonic> : Graph_Op<mnemonic> {
  let arguments = (ins Graph_NumericTensor:$input, I64Attr:$axis);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Graph_CumSumOp : Graph_ScanOp<"cumsum"> {
  let summary = "Inclusive prefix sum along an axis";
  let description = [{
    `result[..., i, ...] = sum(input[..., 0..i, ...])` along `axis`.

    ```mlir
    %c = graph.cumsum %x {axis = 1 : i64} : tensor<4x10xf32> -> tensor<4x10xf32>
    ```
  }];
}

def Graph_CumProdOp : Graph_ScanOp<"cumprod"> {
  let summary = "Inclusive prefix product along an axis";
  let description = [{
    `result[..., i, ...] = product(input[..., 0..i, ...])` along `axis`,
    multiplied in order from index 0 (f16/bf16 in f32, rounded at each
    step as the stored result is; integers wrap).

    ```mlir
    %c = graph.cumprod %x {axis = 1 : i64} : tensor<4x10xf32> -> tensor<4x10xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def Graph_IfOp : Op<Graph_Dialect, "if", [
    RecursiveMemoryEffects, NoRegionArguments,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Runs one of two regions on a rank-0 i1 condition";
  let description = [{
    Runs `then` when `condition` (a rank-0 i1 tensor) is true, `else`
    otherwise; the results are the values the region yields, which must be
    compatible with the result types. Regions may use values defined above
    (TorchScript `prim::If`, ONNX `If`).

    ```mlir
    %r = graph.if %c : tensor<i1> -> tensor<4xf32> {
      graph.yield %a : tensor<4xf32>
    } else {
      graph.yield %b : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins 0DTensorOf<[I1]>:$condition);
  let results = (outs Variadic<Graph_Tensor>:$results);
  let regions = (region SizedRegion<1>:$then_region,
                        SizedRegion<1>:$else_region);
  let assemblyFormat = [{
    $condition `:` type($condition) (`->` type($results)^)? $then_region
    `else` $else_region attr-dict
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Graph_LoopOp : Op<Graph_Dialect, "loop", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "A loop with a trip count, a condition and carried values";
  let description = [{
    ONNX `Loop` / TorchScript `prim::Loop` semantics. Operands: `trip_count`
    (rank-0 i64), the initial `condition` (rank-0 i1), then the carried
    values. The body's block arguments are the iteration number (rank-0 i64,
    counting from 0) and the carried values; it yields the next condition
    followed by the next carried values. The body runs while
    `iteration < trip_count` and the condition is true; the results are the
    last carried values. The result types are the carried types: the body's
    arguments have them, and the carried operands are compatible with them. A `for` loop has a
    true condition; a `while` loop a trip count of INT64_MAX.

    ```mlir
    %r = graph.loop %n, %true, %x0 : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%i: tensor<i64>, %x: tensor<4xf32>):
      %y = graph.mul %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      graph.yield %true, %y : tensor<i1>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins 0DTensorOf<[I64]>:$trip_count,
                       0DTensorOf<[I1]>:$condition,
                       Variadic<Graph_Tensor>:$inits);
  let results = (outs Variadic<Graph_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    operands attr-dict `:` functional-type(operands, results) $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$tripCount,
      "::mlir::Value":$condition, "::mlir::ValueRange":$inits)>];
}

def Graph_YieldOp : Op<Graph_Dialect, "yield", [
    Pure, Terminator, ParentOneOf<["IfOp", "LoopOp"]>]> {
  let summary = "Yields values from a graph.if or graph.loop region";
  let description = [{
    ```mlir
    graph.yield %a, %b : tensor<4xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<Graph_Tensor>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // GRAPHOPT_DIALECT_GRAPH_IR_GRAPHOPS_TD
