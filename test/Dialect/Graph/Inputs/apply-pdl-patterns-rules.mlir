// A PDL module written by hand, loaded in process (no mlir-pdll): x * 2
// becomes x + x. It calls graphopt's native constraint SplatEquals.
pdl.pattern @MulByTwo : benefit(1) {
  %types = pdl.types
  %constant = pdl.operation "graph.constant" -> (%types : !pdl.range<type>)
  %two = pdl.result 0 of %constant
  %number = pdl.attribute = 2.0 : f64
  pdl.apply_native_constraint "SplatEquals"(%two, %number : !pdl.value, !pdl.attribute)
  %x = pdl.operand
  %type = pdl.type
  %root = pdl.operation "graph.mul"(%x, %two : !pdl.value, !pdl.value) -> (%type : !pdl.type)
  pdl.rewrite %root {
    %sum = pdl.operation "graph.add"(%x, %x : !pdl.value, !pdl.value) -> (%type : !pdl.type)
    pdl.replace %root with %sum
  }
}
