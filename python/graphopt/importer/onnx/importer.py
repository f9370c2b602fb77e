"""ONNX models -> MLIR in the ``graph`` dialect.

    text = import_onnx("model.onnx")                    # a path, bytes or ModelProto
    text = import_onnx(model, dim_values={"batch": 1})  # fix named dynamic dims
    program = graphopt.Program(text)                    # JIT-compile, run on NumPy

What is imported:

* ONNX opsets 13 to 28 (:data:`~.ops.MIN_OPSET`, ``MAX_OPSET``) of the
  default domain (older models are converted to opset 13 with
  ``onnx.version_converter`` first); models with local functions are
  inlined first.
* Graph inputs become function arguments, in order; a dimension with a
  ``dim_param`` (or none) becomes a dynamic (``?``) dimension unless
  ``dim_values`` / ``input_shapes`` fix it. Initializers (also ones listed
  as inputs) and ``Constant`` nodes become constants; external data files
  are loaded (relative to the model's directory).
* Every op is emitted with the location ``loc("<node name>"("<op type>"))``
  (a missing node name is replaced by ``<op type>_<index>``).
* Shape computations (``Shape -> Gather -> Concat -> Reshape`` and the
  like) are evaluated at import time; a shape entry that depends on a
  dynamic dimension stays unknown and becomes the ``-1`` of a reshape.

Everything unsupported -- an op, an op version, an attribute value, an
element type (double, int8, uint8, strings, ...), a value the ``graph``
dialect needs as a static attribute but that is only known at run time --
is collected over the whole graph and raised at once as
:class:`~.errors.UnsupportedOpsError`, one line per problem with the node's
name and op type. Nothing is reported as supported that would compute a
different result.

The op coverage is :data:`~.ops.REGISTRY`; :func:`support_table`
(``python -m graphopt onnx-support``) prints it as the
table of docs/ONNXSupport.md.
"""

from __future__ import annotations

import os
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from ..errors import Unsupported, UnsupportedOp, UnsupportedOpsError
from ..mlir_builder import FunctionBuilder as Builder, TensorType as TType, Value
from .ops import (MAX_OPSET, MIN_OPSET, NUMPY_TO_ONNX, ONNX_TO_NUMPY, REGISTRY, Node,
                  OpSpec, Sym, Tensor, dtype_name, is_dim, onnx_type_name, shape_text)

if TYPE_CHECKING:
    import onnx

__all__ = ["import_onnx", "support_table", "INTERNAL_ERROR"]

#: Reasons of errors that are importer bugs (not user-facing limitations)
#: start with this prefix.
INTERNAL_ERROR = "internal error"

ModelLike = Union[str, os.PathLike, bytes, "onnx.ModelProto"]


def import_onnx(model: ModelLike, *, entry: str = "main",
                dim_values: Optional[Mapping[str, int]] = None,
                input_shapes: Optional[Mapping[str, Sequence[int]]] = None,
                constants: Optional[Mapping[str, np.ndarray]] = None,
                base_dir: Optional[Union[str, os.PathLike]] = None) -> str:
    """Imports an ONNX model and returns MLIR text (a module holding
    ``func.func @<entry>``).

    Args:
        model: a path to a ``.onnx`` file, the serialized bytes, or an
            ``onnx.ModelProto``.
        entry: the name of the MLIR function.
        dim_values: sizes for named dynamic dimensions (``dim_param``),
            e.g. ``{"batch": 1}``; the others stay dynamic.
        input_shapes: full static shapes for inputs, by input name.
        constants: values for inputs, by name: such an input becomes a
            constant (and not an argument), like an initializer. Inputs the
            graph dialect needs as static attributes (shapes, axes, pads)
            can be bound this way.
        base_dir: where external data files are, for a ``ModelProto``
            whose tensors are still external (a path loads them itself).

    Raises:
        UnsupportedOpsError: listing every unsupported op, attribute value,
            element type or dynamic shape of the model.
    """
    proto, source = _load(model, base_dir)
    return _Importer(proto, source, entry, dict(dim_values or {}),
                     {k: list(v) for k, v in (input_shapes or {}).items()},
                     dict(constants or {})).run()


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------

def _load(model: ModelLike, base_dir):
    import onnx
    from onnx import external_data_helper
    if isinstance(model, (str, os.PathLike)):
        path = Path(model)
        if not path.is_file():
            raise FileNotFoundError(f"no such ONNX model: {path}")
        try:
            proto = onnx.load(str(path), load_external_data=True)
        except Exception as e:  # a truncated file, missing external data, ...
            raise ValueError(f"{path}: cannot load the ONNX model: {e}") from e
        return proto, path.name
    if isinstance(model, (bytes, bytearray)):
        try:
            return onnx.load_from_string(bytes(model)), "<model>"
        except Exception as e:  # truncated or corrupt bytes
            raise ValueError(f"<model>: cannot load the ONNX model: {e}") from e
    if isinstance(model, onnx.ModelProto):
        if any(external_data_helper.uses_external_data(t)
               for t in external_data_helper._get_all_tensors(model)):
            if base_dir is None:
                raise ValueError(
                    "the model's tensors are stored in external data files: "
                    "pass the model's path, or base_dir=<its directory>")
            model = onnx.ModelProto.FromString(model.SerializeToString())
            external_data_helper.load_external_data_for_model(model, str(base_dir))
        return model, model.graph.name or "<model>"
    raise TypeError(f"import_onnx: expected a path, bytes or onnx.ModelProto, "
                    f"got {type(model).__name__}")


# ---------------------------------------------------------------------------
# The importer
# ---------------------------------------------------------------------------

class _Importer:
    def __init__(self, model, source: str, entry: str,
                 dim_values: Dict[str, int], input_shapes: Dict[str, list],
                 constants: Optional[Dict[str, np.ndarray]] = None):
        import onnx
        self.onnx = onnx
        self.source = source
        self.constants = constants or {}
        self.dim_values = dim_values
        self.input_shapes = input_shapes
        self.errors: List[UnsupportedOp] = []
        self.builder = Builder(entry)
        self.tensors: Dict[str, Tensor] = {}
        self._schemas: Dict[str, object] = {}
        self.opset = None
        #: The model's opset of each other domain ("ai.onnx.preview": 1).
        self.domain_opsets: Dict[str, int] = {}
        for imp in model.opset_import:
            if _domain(imp.domain):
                self.domain_opsets[imp.domain] = imp.version
            else:
                self.opset = imp.version
        if model.functions:
            from onnx import inliner
            model = inliner.inline_local_functions(model)
        self.model = model
        self._ir_version = model.ir_version
        # Filled by run() once the graph's structure is checked: ONNX's shape
        # inference crashes the process on some malformed graphs (an EyeLike
        # whose input is undefined or missing: a segfault in onnx 1.2x).
        self.inferred: Dict[str, tuple] = {}
        self.inference_error = None
        # What the model itself declares (graph outputs, value_info), before
        # inference: a conflict with one of these is the model's, not ours.
        self.declared = {vi.name for vi in list(model.graph.output) + list(model.graph.value_info)
                         if vi.type.HasField("tensor_type")}

    # -- errors ---------------------------------------------------------------

    def error(self, op: str, node: str, reason: str, index: int = 0) -> None:
        self.errors.append(UnsupportedOp(op=op, node=node, reason=reason,
                                         file=self.source, line=index))

    # -- type information -----------------------------------------------------

    def _infer_types(self, model) -> Dict[str, tuple]:
        """ONNX shape inference: value name -> (element type, dims or None),
        used to check nodes that are not emitted (downstream of a problem)
        and to cross-check the shapes the importer computes."""
        # Strict first: a model whose own types and shapes contradict each
        # other (an input of the wrong type, dims that do not unify) is
        # refused with ONNX's message (run() raises it) instead of imported.
        self.inference_error = None
        try:
            inferred = self.onnx.shape_inference.infer_shapes(
                model, check_type=True, strict_mode=True, data_prop=True)
        except Exception as e:
            first = _first_line(e)
            # An error inside a function op's expanded body (two op_types
            # deep) is ONNX's own: its MeanVarianceNormalization body fails
            # strict inference on a valid model. Those are not refused.
            if first.count("(op_type:") < 2:
                self.inference_error = first[:400]
            try:
                inferred = self.onnx.shape_inference.infer_shapes(
                    model, check_type=False, strict_mode=False, data_prop=True)
            except Exception:
                inferred = model
        out = {}
        g = inferred.graph
        for vi in list(g.value_info) + list(g.input) + list(g.output):
            if not vi.type.HasField("tensor_type"):
                continue
            tt = vi.type.tensor_type
            dims = None
            if tt.HasField("shape"):
                dims = [d.dim_value if d.HasField("dim_value") else
                        (d.dim_param or None) for d in tt.shape.dim]
            out[vi.name] = (tt.elem_type, dims)
        return out

    def _checker_error(self) -> Optional[str]:
        """The first line of ONNX's full check of the model (strict shape
        inference included), or None when the model passes it."""
        if not hasattr(self, "_checked"):
            self._checked = None
            try:
                self.onnx.checker.check_model(self.model, full_check=True)
            except Exception as e:
                self._checked = _first_line(e)[:300]
        return self._checked

    def schema(self, proto):
        domain = _domain(proto.domain)
        key = (domain, proto.op_type)
        if key not in self._schemas:
            version = self.domain_opsets.get(domain, 1) if domain else self.opset
            self._schemas[key] = self.onnx.defs.get_schema(proto.op_type, version, domain)
        return self._schemas[key]

    # -- values -----------------------------------------------------------------

    def sym_dims(self, name: str, ty: TType) -> list:
        """``ty``'s dims with a :class:`Sym` for each dynamic one."""
        info = self.inferred.get(name)
        dims = info[1] if info and info[1] is not None and len(info[1]) == ty.rank else None
        out = []
        for axis, d in enumerate(ty.shape):
            if d is not None:
                out.append(d)
            elif dims is not None and isinstance(dims[axis], str):
                out.append(Sym(dims[axis]))
            else:
                out.append(Sym(f"{name}[{axis}]"))
        return out

    def materialize(self, t: Tensor, name: str) -> Value:
        """The SSA value of ``t``, printing its constant on first use."""
        if t.value is not None:
            return t.value
        if t.const is None:
            raise Unsupported(f"{INTERNAL_ERROR}: '{name}' has no value")
        if t.is_partial:
            raise Unsupported(
                f"'{name}' depends on a dynamic dimension at run time (the "
                "graph dialect has no shape-of op); give the inputs static "
                "shapes (import_onnx(..., dim_values=...))")
        t.value = self.builder.constant(np.ascontiguousarray(t.const).reshape(t.const.shape))
        return t.value

    # -- the graph --------------------------------------------------------------

    def run(self) -> str:
        g = self.model.graph
        unknown = sorted(set(self.constants) - {i.name for i in g.input})
        if unknown:
            raise ValueError(f"constants: the model has no input named {unknown[0]!r}")
        if self.opset is None and all(_domain(n.domain) for n in g.node):
            self.opset = MAX_OPSET  # no default-domain op: each node is reported
        if self.opset is not None and self.opset < MIN_OPSET:
            g = self._upgrade_opset(g)
        if self.opset is None or not MIN_OPSET <= self.opset:
            self.error("<model>", g.name or "<graph>",
                       f"opset {self.opset} is not supported (supported: "
                       f"{MIN_OPSET} to {MAX_OPSET}); convert the model with "
                       "onnx.version_converter.convert_version(model, 13)")
            raise UnsupportedOpsError(self.errors)
        known = self.onnx.defs.onnx_opset_version()
        if self.opset > known:
            # Schemas would silently resolve to the newest version known.
            raise ValueError(f"{self.source}: opset {self.opset} does not exist "
                             f"(the installed onnx package knows opsets up to "
                             f"{known}; graphopt supports {MIN_OPSET} to {MAX_OPSET})")
        self._check_structure(g)
        ir = self._ir_version
        if ir > self.onnx.IR_VERSION or ir < 3:
            raise ValueError(f"{self.source}: IR version {ir} is not valid here (the "
                             f"installed onnx package reads IR versions 3 to "
                             f"{self.onnx.IR_VERSION}; opsets came with version 3)")
        self.inferred = self._infer_types(self.model)
        self._initializers(g)
        self._inputs(g)
        for index, proto in enumerate(g.node, start=1):
            self._node(index, proto)
        results = []
        for out in g.output:
            t = self.tensors.get(out.name)
            if t is None:
                continue  # its producer was reported
            self.builder.set_location(out.name, kind="output", hint=out.name)
            try:
                v = self.materialize(t, out.name)
            except Unsupported as e:
                self.error("<output>", out.name, str(e))
                continue
            declared = out.type.tensor_type.elem_type if out.type.HasField("tensor_type") else 0
            if declared and ONNX_TO_NUMPY.get(declared) != v.dtype:
                self.error("<output>", out.name,
                           f"{INTERNAL_ERROR}: the output is {dtype_name(v.dtype)} but "
                           f"declared {onnx_type_name(declared)}")
            results.append(v)
        if self.errors:
            raise UnsupportedOpsError(self.errors)
        if self.inference_error:
            # Every node imported, but ONNX's strict inference refuses the
            # model (an input of a type its op does not take, dims that do
            # not unify): the program would be one ONNX does not define.
            raise ValueError(f"{self.source}: the model is invalid: ONNX shape "
                             f"inference: {self.inference_error}")
        self.builder.set_results(results)
        return self.builder.module_text()

    def _upgrade_opset(self, g):
        """A model of an opset older than MIN_OPSET, converted to MIN_OPSET
        with ``onnx.version_converter`` (what the error used to ask the user
        to do), after the structural checks (the converter, like shape
        inference, may crash on a malformed graph). When the converter
        fails, the opset stays and the model is reported with its reason.
        Returns the graph to import."""
        self._check_structure(g)
        if self.opset < 9 and any(node.op_type == "Scan" for node in g.node):
            # Scan-8 has a batch axis and sequence_lens; the converter keeps
            # the graph's inputs as they are, so the converted model's
            # signature no longer fits its data.
            self.error("<model>", g.name or "<graph>",
                       f"opset {self.opset} is not supported (supported: {MIN_OPSET} to "
                       f"{MAX_OPSET}), and its Scan (version 8: a batch axis) does not "
                       "convert to opset 13")
            raise UnsupportedOpsError(self.errors)
        from onnx import version_converter
        try:
            converted = version_converter.convert_version(self.model, MIN_OPSET)
        except Exception as e:
            self.error("<model>", g.name or "<graph>",
                       f"opset {self.opset} is not supported (supported: {MIN_OPSET} "
                       f"to {MAX_OPSET}) and onnx.version_converter cannot convert "
                       f"it: {_first_line(e)[:200]}")
            raise UnsupportedOpsError(self.errors) from None
        self.model, self.opset, self._schemas = converted, MIN_OPSET, {}
        return converted.graph

    def _check_structure(self, g) -> None:
        """A graph that is not a program: no outputs (an empty or non-ONNX
        file parses as an empty model), a value used before anything
        defines it (ONNX graphs are topologically sorted), a node with more
        or fewer inputs than its op takes, or a required input left empty."""
        if not g.output:
            raise ValueError(f"{self.source}: the model's graph has no outputs "
                             "(an empty file, or not an ONNX model?)")
        defined = {i.name for i in g.input} | {i.name for i in g.initializer} | \
            {i.values.name for i in g.sparse_initializer} | set(self.constants)
        problems = []
        from onnx.defs import OpSchema
        for index, proto in enumerate(g.node, start=1):
            label = proto.name or f"{proto.op_type}_{index}"
            try:
                schema = None if _domain(proto.domain) else self.schema(proto)
            except Exception:
                schema = None  # an unknown op: reported when the node is imported
            if schema is not None:
                n = len(proto.input)
                if n < schema.min_input or n > schema.max_input:
                    takes = str(schema.min_input) if schema.max_input == schema.min_input \
                        else f"{schema.min_input} to {schema.max_input}"
                    problems.append(f"node '{label}' ({proto.op_type}): {n} input{'s' * (n != 1)}; the op "
                                    f"takes {takes}")
                # onnx's Split inference indexes past its output list when
                # num_outputs disagrees with it (an assertion abort).
                num_outputs = [a.i for a in proto.attribute if a.name == "num_outputs"]
                if proto.op_type == "Split" and num_outputs and \
                        num_outputs[0] != len(proto.output):
                    problems.append(f"node '{label}' ({proto.op_type}): num_outputs is "
                                    f"{num_outputs[0]} but the node has {len(proto.output)} "
                                    "outputs")
                for k, name in enumerate(proto.input):
                    formal = _formal_input(schema, k)
                    if not name and formal is not None and \
                            formal.option != OpSchema.FormalParameterOption.Optional:
                        problems.append(f"node '{label}' ({proto.op_type}): input {k} "
                                        f"('{formal.name}') is required but left empty")
            for k, name in enumerate(proto.input):
                if name and name not in defined:
                    problems.append(f"node '{label}' ({proto.op_type}): input {k} "
                                    f"'{name}' is not defined by a graph input, an "
                                    "initializer or an earlier node")
            defined.update(name for name in proto.output if name)
        for out in g.output:
            if out.name not in defined:
                problems.append(f"graph output '{out.name}' is not produced by any "
                                "node, input or initializer")
        if problems:
            raise ValueError(f"{self.source}: the model is invalid: " + "; ".join(problems))

    def import_subgraph(self, g, inputs: List[Value], what: str) -> List[Value]:
        """The body of a control-flow node (If's branches, Loop's body): ``g``'s
        inputs bound to ``inputs``, its initializers as constants, its nodes
        imported into the builder's current region; returns the values of
        ``g``'s outputs. Names of the enclosing graph stay visible (ONNX's
        outer scope); names ``g`` defines do not leak out, and outer
        constants materialized inside the region are not reused outside it.
        Raises Unsupported when a node of ``g`` is (the node's own error is
        recorded too)."""
        saved = dict(self.tensors)
        values = {id(t): t.value for t in saved.values()}
        errors = len(self.errors)
        try:
            if len(g.input) != len(inputs):
                raise Unsupported(f"invalid model: the {what} takes {len(g.input)} "
                                  f"inputs, {len(inputs)} given")
            for inp, v in zip(g.input, inputs):
                self.tensors[inp.name] = Tensor(v.type, value=v)
            self._initializers(g)
            for index, proto in enumerate(g.node, start=1):
                self._node(index, proto)
            if len(self.errors) > errors:
                raise Unsupported(f"the {what} has unsupported nodes (listed)")
            outs = []
            for out in g.output:
                t = self.tensors.get(out.name)
                if t is None:
                    raise Unsupported(f"invalid model: {what} output '{out.name}' "
                                      "is not produced")
                outs.append(self.materialize(t, out.name))
            return outs
        finally:
            for t in saved.values():
                t.value = values[id(t)]
            self.tensors = saved

    def _initializers(self, g) -> None:
        from onnx import numpy_helper
        for init in g.initializer:
            arr = numpy_helper.to_array(init)
            self.tensors[init.name] = Tensor(TType(arr.shape, arr.dtype), const=arr)
        for sp in g.sparse_initializer:
            self.error("<initializer>", sp.values.name, "sparse initializers are not supported")

    def _inputs(self, g) -> None:
        for inp in g.input:
            if inp.name in self.constants:
                arr = np.asarray(self.constants[inp.name])
                tt = inp.type.tensor_type if inp.type.HasField("tensor_type") else None
                if tt is not None and tt.HasField("shape") and all(
                        d.HasField("dim_value") for d in tt.shape.dim):
                    declared = [d.dim_value for d in tt.shape.dim]
                    if list(arr.shape) != declared:
                        # Reported; the nodes that use it are not imported
                        # (ONNX's inference, which the importer's types are
                        # checked against, follows the declaration).
                        self.error("<input>", inp.name,
                                   f"the value bound to input '{inp.name}' has shape "
                                   f"{list(arr.shape)}; the model declares {declared}")
                        continue
                self.tensors[inp.name] = Tensor(TType(arr.shape, arr.dtype), const=arr)
                continue
            if inp.name in self.tensors:
                continue  # an initializer listed as an input: a constant
            kind = inp.type.WhichOneof("value")
            if kind != "tensor_type":
                self.error("<input>", inp.name, f"{kind or 'untyped'} inputs are not supported")
                continue
            tt = inp.type.tensor_type
            if tt.elem_type not in ONNX_TO_NUMPY:
                self.error("<input>", inp.name, f"element type {onnx_type_name(tt.elem_type)} "
                           "is not supported (supported: float, float16, bfloat16, double, "
                           "int8 ... int64, uint8 ... uint64, bool, float8e4m3fn, "
                           "float8e4m3fnuz, float8e5m2, float8e5m2fnuz, int4, uint4, "
                           "int2, uint2)")
                continue
            if not tt.HasField("shape"):
                self.error("<input>", inp.name, "an input of unknown rank is not supported")
                continue
            dims = []
            for d in tt.shape.dim:
                if d.HasField("dim_value"):
                    dims.append(d.dim_value)
                elif d.HasField("dim_param") and d.dim_param in self.dim_values:
                    dims.append(int(self.dim_values[d.dim_param]))
                else:
                    dims.append(None)
            if inp.name in self.input_shapes:
                given = self.input_shapes[inp.name]
                if len(given) != len(dims) or any(
                        d is not None and d != s for d, s in zip(dims, given)):
                    raise ValueError(f"input_shapes: {given} does not match input "
                                     f"'{inp.name}' of shape {dims}")
                dims = list(given)
            ty = TType(dims, ONNX_TO_NUMPY[tt.elem_type])
            self.tensors[inp.name] = Tensor(ty, value=self.builder.add_argument(inp.name, ty, loc=inp.name))

    # -- nodes ------------------------------------------------------------------

    def _elem_type(self, name: str):
        """The element type of a value (an ONNX type code) as ONNX sees it
        (shape inference), else as imported; None if unknown."""
        info = self.inferred.get(name)
        if info and info[0]:
            return info[0]
        t = self.tensors.get(name)
        return NUMPY_TO_ONNX.get(t.type.dtype) if t is not None else None

    def _check_schema(self, proto) -> List[str]:
        """What ONNX's schema of the op requires of any node's types,
        checked for every op alike: each input of a type the op takes, the
        inputs that share a type constraint of one element type, and 0/1
        flags. (The number of inputs and required inputs are checked with the
        graph's structure, before shape inference.)"""
        from onnx.defs import OpSchema
        schema = self.schema(proto)
        reasons = []
        by_constraint: Dict[str, List[tuple]] = {}
        allowed_types = {c.type_param_str: set(c.allowed_type_strs)
                         for c in schema.type_constraints}
        for i, name in enumerate(proto.input):
            formal = _formal_input(schema, i)
            if formal is None:
                continue
            variadic = formal.option == OpSchema.FormalParameterOption.Variadic
            code = self._elem_type(name) if name else None
            if not code:
                continue
            allowed = allowed_types.get(formal.type_str, {formal.type_str})
            actual = f"tensor({onnx_type_name(code)})"
            if allowed and actual not in allowed and not any(
                    a.startswith(("seq(", "optional(")) for a in allowed):
                reasons.append(f"input {i} ('{name}') is {actual}; the op takes "
                               + ", ".join(sorted(allowed)))
            if variadic and not formal.is_homogeneous:
                continue
            by_constraint.setdefault(formal.type_str, []).append((i, name, code))
        for constraint, uses in by_constraint.items():
            if len({code for _, _, code in uses}) > 1:
                shown = ", ".join(f"input {i} ('{name}') {onnx_type_name(code)}"
                                  for i, name, code in uses)
                reasons.append(f"inputs of type {constraint} must have one element type: {shown}")
        for a in proto.attribute:
            declared = schema.attributes.get(a.name)
            if a.type == a.UNDEFINED:
                reasons.append(f"attribute {a.name} has no type")
            elif declared is not None and declared.type != a.type:
                reasons.append(f"attribute {a.name} is {_attr_type_name(a.type)}; the "
                               f"op takes {_attr_type_name(declared.type)}")
            elif a.name in _FLAG_ATTRIBUTES and a.type == a.INT and a.i not in (0, 1):
                reasons.append(f"attribute {a.name} is {a.i}; it must be 0 or 1")
        return reasons

    def _check(self, proto, node: Node, spec: OpSpec) -> List[str]:
        """The node's static problems: attributes, element types, outputs.
        Only attributes, the ONNX schema and types are looked at, so nodes
        whose inputs were not imported (downstream of a problem) are checked
        too."""
        reasons = self._check_schema(proto)
        for a in proto.attribute:
            rule = spec.attrs.get(a.name)
            if rule is None:
                reasons.append(f"attribute '{a.name}' is not supported")
            elif rule.check is not None:
                why = rule.check(node.attr(a.name), node)
                if why:
                    reasons.append(f"attribute {a.name}: {why}")
        if spec.check is not None:
            why = spec.check(node)
            if why:
                reasons.append(why)
        for i in spec.typed:
            if i >= len(proto.input) or not proto.input[i]:
                continue
            name = proto.input[i]
            t = self.tensors.get(name)
            if t is not None:
                ok = t.type.dtype in spec.dtypes
                shown = dtype_name(t.type.dtype) if t.type.dtype in ONNX_TO_NUMPY.values() \
                    else _numpy_onnx_name(t.type.dtype)
            elif name in self.inferred:
                code = self.inferred[name][0]
                ok = ONNX_TO_NUMPY.get(code) in spec.dtypes
                shown = onnx_type_name(code)
            else:
                continue
            if not ok:
                allowed = ", ".join(dtype_name(d) for d in spec.dtypes) or "none"
                reasons.append(f"input {i} ('{name}') has element type {shown} "
                               f"(supported: {allowed})")
        if not reasons:
            for name in proto.output:
                info = self.inferred.get(name)
                if name and info and info[0] and info[0] not in ONNX_TO_NUMPY:
                    reasons.append(f"output '{name}' has element type "
                                   f"{onnx_type_name(info[0])}, which is not supported")
        return reasons

    def _node(self, index: int, proto) -> None:
        label = proto.name or f"{proto.op_type}_{index}"
        op = proto.op_type
        self.builder.set_location(label, kind=op, hint=op.lower())

        def fail(reason: str) -> None:
            self.error(op, label, reason, index)

        spec = REGISTRY.get(op)
        domain = _domain(proto.domain)
        if domain and (spec is None or spec.domain != domain):
            return fail(f"op domain '{proto.domain}' is not supported (only the "
                        f"default ONNX domain is, and the ops of {_other_domains()})")
        if spec is None or spec.domain != domain:
            return fail("op is not supported")
        try:
            version = self.schema(proto).since_version
        except Exception:
            return fail(f"op is not defined in opset {self.opset}")
        if version > MAX_OPSET:
            return fail(f"version {version} of the op is newer than the importer "
                        f"knows (it was checked against opsets up to {MAX_OPSET})")
        available = all(name == "" or name in self.tensors for name in proto.input)
        node = Node(self, proto, spec, version, label)
        try:
            reasons = self._check(proto, node, spec)
        except Unsupported as e:
            reasons = [str(e)]
        if reasons or not available:
            for r in reasons:
                fail(r)
            return  # outputs stay undefined: their users are checked only statically
        try:
            outputs = self._evaluate(node, spec)
        except Unsupported as e:
            return fail(str(e))
        except Exception as e:  # an importer bug: report it, never crash
            if os.environ.get("GRAPHOPT_DEBUG"):
                raise
            invalid = self._checker_error()
            if invalid:  # the model is not valid ONNX: say that instead
                return fail(f"the model is invalid: {invalid}")
            return fail(f"{INTERNAL_ERROR}: {type(e).__name__}: {e} "
                        f"({traceback.extract_tb(e.__traceback__)[-1].lineno})")
        for k, name in enumerate(proto.output):
            if name:
                self.tensors[name] = outputs[k]

    def _evaluate(self, node: Node, spec: OpSpec) -> List[Optional[Tensor]]:
        """Folds the node when its inputs are known, else emits it."""
        proto = node.proto
        outs = None
        if spec.fold is not None:
            ins = [self.tensors[n].const if n else None for n in proto.input]
            needed = range(len(ins)) if spec.fold_inputs is None else spec.fold_inputs
            if all(ins[i] is not None for i in needed if i < len(ins) and proto.input[i]):
                try:
                    outs = spec.fold(node, ins)
                except (Unsupported, ValueError, IndexError, TypeError, ZeroDivisionError):
                    outs = None
        if outs is None:
            outs = list(spec.emit(node))
        result: List[Optional[Tensor]] = []
        for k, name in enumerate(proto.output):
            out = outs[k] if k < len(outs) else None
            if not name:
                result.append(None)
                continue
            if out is None:
                raise Unsupported(f"output {k} ('{name}') is not supported")
            t = _as_tensor(out)
            self._cross_check(name, t)
            result.append(t)
        return result

    def _cross_check(self, name: str, t: Tensor) -> None:
        """The importer's type must agree with ONNX shape inference. Where
        the model declares the value's type itself (a graph output or a
        value_info entry), ONNX's non-strict inference keeps that declaration
        even when the node's inputs give another type: then the model is
        inconsistent, and the error says so instead of blaming the importer."""
        info = self.inferred.get(name)
        if not info:
            return
        code, dims = info
        if name in self.declared:
            blame, verb = ("the model is inconsistent: ", "declared as")
            tail = ", from the node's inputs"
        else:
            blame, verb, tail = (f"{INTERNAL_ERROR}: ", "ONNX infers", "")
        if code and code in ONNX_TO_NUMPY and ONNX_TO_NUMPY[code] != t.type.dtype \
                and t.type.dtype in ONNX_TO_NUMPY.values():
            raise Unsupported(f"{blame}'{name}' is {dtype_name(t.type.dtype)}{tail}, "
                              f"{verb} {onnx_type_name(code)}")
        if dims is not None:
            ours = t.type.shape
            if len(dims) != len(ours) or any(
                    isinstance(a, int) and b is not None and a != b
                    for a, b in zip(dims, ours)):
                raise Unsupported(
                    f"{blame}'{name}' has shape {shape_text(ours)}{tail}, {verb} "
                    f"{shape_text(dims)}")


def _attr_type_name(code: int) -> str:
    import onnx
    try:
        return onnx.AttributeProto.AttributeType.Name(code).lower()
    except ValueError:
        return f"type {code}"


#: Integer attributes that ONNX defines as flags (0 or 1).
_FLAG_ATTRIBUTES = frozenset({
    "keepdims", "fmod", "select_last_index", "noop_with_empty_axes", "ceil_mode",
    "count_include_pad", "transA", "transB", "exclusive", "reverse", "upper",
    "largest", "sorted", "center_point_box", "detect_negative", "detect_positive",
    "input_forget", "layout", "is_causal", "training_mode", "allowzero",
    "stash_type_is_float", "periodic", "onesided", "inverse"})


def _first_line(e: Exception) -> str:
    """The first non-blank line of an exception's message (ONNX's checker
    and shape inference print their context on the lines after it)."""
    lines = [l.strip() for l in str(e).splitlines() if l.strip()]
    return lines[0] if lines else type(e).__name__


def _formal_input(schema, i: int):
    """The schema's formal parameter of input ``i`` (a variadic last one
    covers the rest), or None for an op without inputs."""
    return schema.inputs[min(i, len(schema.inputs) - 1)] if schema.inputs else None


def _numpy_onnx_name(dtype: np.dtype) -> str:
    try:
        from onnx import helper
        return onnx_type_name(helper.np_dtype_to_tensor_dtype(dtype))
    except Exception:
        return str(dtype)


def _as_tensor(out) -> Tensor:
    if isinstance(out, Tensor):
        return out
    if isinstance(out, Value):
        return Tensor(out.type, value=out)
    arr = np.asarray(out)
    if arr.dtype == object and all(is_dim(v) for v in arr.reshape(-1)):
        arr = arr.astype(np.int64)
    dtype = np.dtype(np.int64) if arr.dtype == object else arr.dtype
    return Tensor(TType(arr.shape, dtype), const=arr)


# ---------------------------------------------------------------------------
# The support table
# ---------------------------------------------------------------------------

def _domain(name: str) -> str:
    """An ONNX domain's name, "" for the default one (also spelled
    "ai.onnx")."""
    return "" if name == "ai.onnx" else name


def _other_domains() -> str:
    """The ops the registry takes from domains other than the default one,
    by domain: "'ai.onnx.preview' (FlexAttention) and ..."."""
    by_domain: Dict[str, List[str]] = {}
    for spec in REGISTRY.values():
        if spec.domain:
            by_domain.setdefault(spec.domain, []).append(spec.op_type)
    return " and ".join(f"'{d}' ({', '.join(sorted(ops))})"
                        for d, ops in sorted(by_domain.items()))


def _versions(op: str, domain: str = "") -> str:
    """The op versions in effect from opset MIN_OPSET to MAX_OPSET (of
    another domain: every version, with the domain's name)."""
    import onnx.defs
    if domain:
        return ", ".join(f"{domain} {v}" for v in sorted(
            {s.since_version for s in onnx.defs.get_all_schemas_with_history()
             if s.name == op and s.domain == domain}))
    vs = sorted({s.since_version for s in onnx.defs.get_all_schemas_with_history()
                 if s.name == op and not _domain(s.domain)})
    start = max([v for v in vs if v <= MIN_OPSET], default=None)
    kept = [v for v in vs if (start is None or v >= start) and v <= MAX_OPSET]
    return ", ".join(str(v) for v in kept)


def support_table() -> str:
    """docs/ONNXSupport.md: generated from :data:`REGISTRY`."""
    lines = [
        "# ONNX support",
        "",
        "<!-- Generated by `python3 -m graphopt onnx-support` from the "
        "importer's op registry "
        "(python/graphopt/importer/onnx/ops/); do not edit. -->",
        "",
        f"`graphopt.import_onnx` reads ONNX opsets {MIN_OPSET} to {MAX_OPSET} "
        f"(default domain), and the ops of {_other_domains()}. "
        "Supported element types are float (f32), float16, "
        "bfloat16 (computed in f32, rounded where stored), double, int8 ... "
        "int64, uint8 ... uint64 and bool, and the float8 types and the 2- and "
        "4-bit integers (int4, uint4, int2, uint2) in Cast, CastLike, "
        "QuantizeLinear and DequantizeLinear; a 2- or 4-bit tensor is carried "
        "one value per byte, as int8 (int4, int2) or uint8 (uint4, uint2), so "
        "a program's input or output of such a type is an int8/uint8 array of "
        "its values (NumPy: `a.astype(np.int8)` of an ml_dtypes array); "
        "float8e8m0, float4e2m1, strings, sequences and optionals are reported as "
        "unsupported, as is every op, attribute and attribute value not listed "
        "here. Inputs whose values the graph dialect needs as static "
        "attributes (shapes, axes, pads, ...) must be constants or computable "
        "at import time. Every problem of a model is reported at once, with "
        "the node's name.",
        "",
        "Versions: the op versions (`since_version`) accepted. Types: the "
        "element types of the inputs named by the ONNX type constraint (other "
        "inputs, such as shapes and indices, have their own). Attributes: "
        "the supported attributes with their supported values (any attribute "
        "not listed is rejected).",
        "",
        f"{len(REGISTRY)} ops.",
        "",
        "| Op | Versions | Types | Attributes | Maps to, limitations |",
        "| --- | --- | --- | --- | --- |",
    ]
    for op in sorted(REGISTRY):
        spec = REGISTRY[op]
        types = ", ".join(dtype_name(d) for d in spec.dtypes) or "-"
        attrs = "<br>".join(f"`{k}`: {v.doc}" for k, v in sorted(spec.attrs.items())) or "-"
        doc = spec.doc.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {op} | {_versions(op, spec.domain)} | {types} | {attrs.replace('|', chr(92) + '|')} "
                     f"| {doc} |")
    return "\n".join(lines) + "\n"
