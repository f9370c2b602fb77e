//===- FusionOps.td - the fusion dialect --------------------*- tablegen -*-===//
//
// Fused kernels and fusion groups. Semantics: docs/Dialects/Fusion.md;
// constraint numbers (C1, ...) cited by verifiers and tests refer to it.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_FUSION_IR_FUSIONOPS_TD
#define GRAPHOPT_DIALECT_FUSION_IR_FUSIONOPS_TD

include "graphopt/Dialect/Graph/IR/GraphDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def Fusion_Dialect : Dialect {
  let name = "fusion";
  let cppNamespace = "::mlir::graphopt::fusion";
  let summary = "Fused kernels and fusion groups over graph tensors";
  let description = [{
    Named fused kernels that subgraph-replacement patterns target
    (`fusion.linear`, `fusion.attention`) and `fusion.group`, a region that
    holds graph ops to be code-generated as one kernel. See
    docs/Dialects/Fusion.md.
  }];
  let dependentDialects = ["::mlir::graphopt::graph::GraphDialect"];
}

class Fusion_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fusion_Dialect, mnemonic, traits>;

def Fusion_GroupKind : I32EnumAttr<"GroupKind", "fusion group kind", [
      I32EnumAttrCase<"Loop", 0, "loop">, I32EnumAttrCase<"Input", 1, "input">,
      I32EnumAttrCase<"Output", 2, "output">]> {
  let cppNamespace = "::mlir::graphopt::fusion";
}

def Fusion_Activation : I32EnumAttr<"Activation", "fused activation", [
      I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Relu", 1, "relu">,
      I32EnumAttrCase<"Gelu", 2, "gelu">,
      I32EnumAttrCase<"GeluTanh", 3, "gelu_tanh">,
      I32EnumAttrCase<"Silu", 4, "silu">,
      I32EnumAttrCase<"Sigmoid", 5, "sigmoid">,
      I32EnumAttrCase<"Tanh", 6, "tanh">]> {
  let cppNamespace = "::mlir::graphopt::fusion";
}

//===----------------------------------------------------------------------===//
// fusion.group / fusion.yield
//===----------------------------------------------------------------------===//

def Fusion_GroupOp : Fusion_Op<"group", [
    IsolatedFromAbove, SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "A set of ops code-generated as one kernel";
  let description = [{
    The region computes the results from the block arguments, which are the
    `inputs` (C1: same number and types). `kind` records why the ops were
    grouped: `loop` (elementwise chain), `input` (rooted at a reduction, such
    as softmax or layer norm), `output` (a matmul with its elementwise
    epilogue). The region is isolated from above: everything it reads is an
    input.

    ```mlir
    %r = fusion.group loop (%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
      %s = graph.add %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %t = graph.relu %s : tensor<4xf32> -> tensor<4xf32>
      fusion.yield %t : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Fusion_GroupKind:$kind, Variadic<AnyRankedTensor>:$inputs);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
      "::mlir::graphopt::fusion::GroupKind":$kind, "::mlir::ValueRange":$inputs)>];
}

def Fusion_YieldOp : Fusion_Op<"yield", [
    Pure, Terminator, HasParent<"GroupOp">, ReturnLike]> {
  let summary = "Returns the results of a fusion.group";
  let description = [{
    Its operands become the group's results (C2 of `fusion.group`: same
    number and types).

    ```mlir
    fusion.yield %t : tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

//===----------------------------------------------------------------------===//
// fusion.linear
//===----------------------------------------------------------------------===//

def Fusion_LinearOp : Fusion_Op<"linear", [Pure,
    InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "Matmul + bias + activation as one kernel (nn.Linear)";
  let description = [{
    `activation(input @ W + bias)` where `W` is `weight` if `transpose_weight`
    is absent (shape `[K, N]`) and `weight^T` if present (shape `[N, K]`,
    PyTorch's `nn.Linear` layout). `input` has shape `[..., K]`; `bias`, if
    given, has shape `[N]`; the result has shape `[..., N]`.

    ```mlir
    %y = fusion.linear %x, %w, %b transpose_weight activation = gelu
        : (tensor<8x768xf32>, tensor<3072x768xf32>, tensor<3072xf32>) -> tensor<8x3072xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$weight,
      Optional<Graph_FloatTensor>:$bias, UnitAttr:$transpose_weight,
      DefaultValuedAttr<Fusion_Activation,
                        "::mlir::graphopt::fusion::Activation::None">:$activation);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? (`transpose_weight` $transpose_weight^)?
    (`activation` `=` $activation^)? attr-dict `:`
    `(` type($input) `,` type($weight) (`,` type($bias)^)? `)` `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// fusion.conv2d
//===----------------------------------------------------------------------===//

def Fusion_Conv2DOp : Fusion_Op<"conv2d", [Pure,
    InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "Convolution + bias + activation as one kernel";
  let description = [{
    `activation(conv2d(input, weight) + bias)` with `graph.conv2d`'s
    semantics and attributes (NCHW, FCHW weight, `padding = [top, left,
    bottom, right]`, strides, dilations, groups). `fusion-form-conv` creates
    it from a convolution followed by an inference batch norm with constant
    statistics (folded into `weight` and `bias` at compile time), a bias add
    and an activation.

    ```mlir
    %y = fusion.conv2d %x, %w, %b activation = relu {padding = array<i64: 1, 1, 1, 1>}
        : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$weight,
      Optional<Graph_FloatTensor>:$bias,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups,
      DefaultValuedAttr<Fusion_Activation,
                        "::mlir::graphopt::fusion::Activation::None">:$activation);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? (`activation` `=` $activation^)? attr-dict
    `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// fusion.custom_call
//===----------------------------------------------------------------------===//

def Fusion_CustomCallOp : Fusion_Op<"custom_call", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls an external kernel (a user C/C++ function) by symbol";
  let description = [{
    Runs the user function `callee` on the operands and returns its results:
    the seed articles' "custom C++/CUDA operator", e.g. an attention kernel
    that a replacement pattern substitutes for the attention subgraph.
    The compiled code allocates the results: a dynamic result dim takes the
    size of the same dim of operand 0 (which must have the result's rank).

    Calling convention (CPU): the compiled code calls
    `void _mlir_ciface_<callee>(MemRef *in0, ..., MemRef *out0, ...)`, one
    pointer per operand then one per result, where `MemRef` is MLIR's
    strided memref descriptor for the element type and rank
    (`StridedMemRefType<T, N>` of `mlir/ExecutionEngine/CRunnerUtils.h`:
    `T *allocated, *aligned; int64_t offset, sizes[N], strides[N];`).
    Inputs are read-only; outputs are fresh, contiguous row-major buffers the
    function fills. The function is found at JIT time in the libraries given
    to `graph-run --shared-lib` (or `graphopt.compile(..., shared_libs=)`)
    or linked into an AOT executable. Side effects are assumed to be
    confined to the outputs; the op is never folded or deleted while its
    results are used.

    ```mlir
    %o = fusion.custom_call @my_attention(%q, %k, %v)
        : (tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyRankedTensor>:$inputs);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// fusion.attention
//===----------------------------------------------------------------------===//

def Fusion_AttentionOp : Fusion_Op<"attention", [Pure,
    InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "Scaled dot-product attention as one kernel";
  let description = [{
    `softmax(q @ k^T * scale + mask) @ v` over the last two dims, batch dims
    broadcast. `q`: `[..., L, D]`, `k`: `[..., S, D]`, `v`: `[..., S, Dv]`,
    result `[..., L, Dv]`. `scale` defaults to `1/sqrt(D)`. `mask` is
    optional and broadcasts to `[..., L, S]`: a float mask is added to the
    scores, an i1 mask keeps `true` positions (false ones get -inf).
    `causal` masks positions `j > i` (as `torch.nn.functional.
    scaled_dot_product_attention(is_causal=True)`).

    ```mlir
    %o = fusion.attention %q, %k, %v causal
        : (tensor<2x12x128x64xf32>, tensor<2x12x128x64xf32>, tensor<2x12x128x64xf32>) -> tensor<2x12x128x64xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$query, Graph_FloatTensor:$key,
      Graph_FloatTensor:$value, Optional<Graph_Tensor>:$mask,
      UnitAttr:$causal, OptionalAttr<F64Attr>:$scale);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`causal` $causal^)? (`scale` `=` $scale^)? attr-dict `:`
    `(` type($query) `,` type($key) `,` type($value) `)` `->` type($result)
  }];
}

#endif // GRAPHOPT_DIALECT_FUSION_IR_FUSIONOPS_TD
