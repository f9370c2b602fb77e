//===- GraphEnums.td - graph dialect enums ------------------*- tablegen -*-===//
//
// Kept apart from GraphDialect.td so that other dialects can use the graph
// type constraints without re-generating these enums.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_IR_GRAPHENUMS_TD
#define GRAPHOPT_DIALECT_GRAPH_IR_GRAPHENUMS_TD

include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Graph_CompareDirection : I32EnumAttr<"CompareDirection",
    "comparison direction", [
      I32EnumAttrCase<"EQ", 0, "eq">, I32EnumAttrCase<"NE", 1, "ne">,
      I32EnumAttrCase<"LT", 2, "lt">, I32EnumAttrCase<"LE", 3, "le">,
      I32EnumAttrCase<"GT", 4, "gt">, I32EnumAttrCase<"GE", 5, "ge">]> {
  let cppNamespace = "::mlir::graphopt::graph";
}

def Graph_ReduceKind : I32EnumAttr<"ReduceKind", "reduction kind", [
      I32EnumAttrCase<"Sum", 0, "sum">, I32EnumAttrCase<"Mean", 1, "mean">,
      I32EnumAttrCase<"Max", 2, "max">, I32EnumAttrCase<"Min", 3, "min">]> {
  let cppNamespace = "::mlir::graphopt::graph";
}

def Graph_GeluApproximation : I32EnumAttr<"GeluApproximation",
    "gelu approximation", [
      I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Tanh", 1, "tanh">]> {
  let cppNamespace = "::mlir::graphopt::graph";
}

def Graph_ScatterReduction : I32EnumAttr<"ScatterReduction",
    "how graph.scatter combines an update with the element it lands on", [
      I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Add", 1, "add">,
      I32EnumAttrCase<"Mul", 2, "mul">, I32EnumAttrCase<"Max", 3, "max">,
      I32EnumAttrCase<"Min", 4, "min">]> {
  let cppNamespace = "::mlir::graphopt::graph";
}

#endif // GRAPHOPT_DIALECT_GRAPH_IR_GRAPHENUMS_TD
