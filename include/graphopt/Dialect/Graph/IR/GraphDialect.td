//===- GraphDialect.td - the graph dialect ------------------*- tablegen -*-===//
//
// The `graph` dialect: tensor-level, value-semantics ops that model the
// operators of PyTorch/ONNX graphs. Semantics are specified in
// docs/Dialects/Graph.md; constraint numbers (C1, C2, ...) cited by verifiers
// and invalid tests refer to that document.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_IR_GRAPHDIALECT_TD
#define GRAPHOPT_DIALECT_GRAPH_IR_GRAPHDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/EnumAttr.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::mlir::graphopt::graph";
  let summary = "Tensor-level operator graphs (PyTorch / ONNX level)";
  let description = [{
    Value-semantics operators on ranked tensors with static or dynamic
    dimensions. Element types: f32, f16, bf16, f64, i1, i8 ... i64, ui8 ...
    ui64, and the 8-bit floats f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ as
    storage types (data movement, compare, select, cast). Elementwise
    binary ops follow NumPy broadcasting; `graph.matmul` follows
    `torch.matmul`. See docs/Dialects/Graph.md for the specification.
  }];
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
  let useDefaultAttributePrinterParser = 0;
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// The 8-bit floats are storage types: ops that move data, compare, select
// and cast take them (compare computes in f32); arithmetic takes the
// numeric types below, so a computation casts to f32 and back.
def Graph_Float8Element
    : AnyTypeOf<[F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ],
                "f8E4M3FN, f8E5M2, f8E4M3FNUZ or f8E5M2FNUZ">;
def Graph_Element
    : AnyTypeOf<[F32, F16, BF16, F64, I1, I8, I16, I32, I64, UI8, UI16, UI32,
                 UI64, F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ],
                "f32, f16, bf16, f64, i1, i8, i16, i32, i64, ui8, ui16, ui32, "
                "ui64 or an 8-bit float (f8E4M3FN, f8E5M2, f8E4M3FNUZ, "
                "f8E5M2FNUZ)">;
def Graph_FloatElement : AnyTypeOf<[F32, F16, BF16, F64],
                                   "f32, f16, bf16 or f64">;
def Graph_NumericElement
    : AnyTypeOf<[F32, F16, BF16, F64, I8, I16, I32, I64, UI8, UI16, UI32, UI64],
                "f32, f16, bf16, f64, i8, i16, i32, i64, ui8, ui16, ui32 or "
                "ui64">;

def Graph_IntegerElement
    : AnyTypeOf<[I1, I8, I16, I32, I64, UI8, UI16, UI32, UI64],
                "i1, i8, i16, i32, i64, ui8, ui16, ui32 or ui64">;
def Graph_ShiftElement
    : AnyTypeOf<[I8, I16, I32, I64, UI8, UI16, UI32, UI64],
                "i8, i16, i32, i64, ui8, ui16, ui32 or ui64">;

def Graph_Tensor : RankedTensorOf<[Graph_Element]>;
def Graph_IntegerTensor : RankedTensorOf<[Graph_IntegerElement]>;
def Graph_ShiftTensor : RankedTensorOf<[Graph_ShiftElement]>;
def Graph_FloatTensor : RankedTensorOf<[Graph_FloatElement]>;
def Graph_NumericTensor : RankedTensorOf<[Graph_NumericElement]>;
def Graph_BoolTensor : RankedTensorOf<[I1]>;

#endif // GRAPHOPT_DIALECT_GRAPH_IR_GRAPHDIALECT_TD
