"""PyTorch (``torch.export`` / ``torch.fx``) -> ``graph`` dialect importer.

:func:`import_torch` captures a model with ``torch.export.export`` (no
core-ATen decomposition: high-level ops such as ``aten.linear``,
``aten.conv2d``, ``aten.layer_norm``, ``aten.scaled_dot_product_attention``
and ``aten.lstm`` map directly onto ``graph`` ops), walks the FX graph and
prints an MLIR module whose ``func.func @main`` computes the model.
Without ``torch.export`` (old PyTorch), or with ``method="fx"``, the model
is captured with ``torch.fx.symbolic_trace`` instead and its calls of
modules, functions and tensor methods are normalized to the same ATen
mappings (static shapes only).

Details:

* In-place ops (``ReLU(inplace=True)``, ``x += y``) make the importer
  functionalize the program (``run_decompositions({})``, which decomposes
  nothing). Ops without a mapping but with a PyTorch decomposition are
  decomposed, and only those.
* ``nn.MultiheadAttention`` and ``nn.TransformerEncoderLayer``:
  ``torch.export`` always traces their decomposed ("slow") path, never the
  fused ``_native_multi_head_attention`` / ``_transformer_encoder_layer_fwd``
  kernels, so they import as linear/matmul/softmax (or
  ``scaled_dot_product_attention``) ops.
* ``torch.cond`` becomes ``graph.if``; ``aten.lstm``/``aten.gru`` a
  ``graph.loop`` over time.
* Ops whose inputs are all import-time constants (``torch.arange``,
  ``torch.triu(torch.ones(n, n))``, parameter slices) are evaluated in
  Python and emitted as ``graph.constant``.
"""

from __future__ import annotations

import operator
import os
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch

from .emitter import FunctionBuilder, TensorType, Value, module_text, DTYPE_TO_MLIR
from .errors import Unsupported, UnsupportedOp, UnsupportedOpsError
from .op_mapping import (POISON, Context, SymInt, bind, emit_op, is_poisoned,
                         lookup, qualified_name, to_graph_value)

__all__ = ["import_torch", "parameter_order"]

_COND = getattr(getattr(torch.ops, "higher_order", None), "cond", None)

# Frames in these directories are library code, not the model's source.
_LIBRARY_DIRS = (os.path.dirname(os.path.abspath(torch.__file__)) + os.sep,
                 os.path.dirname(os.path.abspath(__file__)) + os.sep)
_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------

def parameter_order(model) -> List[torch.Tensor]:
    """The tensors :func:`import_torch` with ``params_as_args=True`` takes
    after the user inputs, in order: ``model.named_parameters()``, then
    ``model.named_buffers()`` (duplicates, e.g. tied weights, once).
    Empty for a plain function."""
    if not isinstance(model, torch.nn.Module):
        return []
    return [t for _, t in _named_state(model)]


def import_torch(model_or_fn, example_args, *, params_as_args: bool = False,
                 dynamic_dims: Optional[Dict[int, Sequence[int]]] = None,
                 entry: str = "main", method: Optional[str] = None) -> str:
    """Imports a PyTorch model or function as MLIR text in the ``graph``
    dialect.

    Args:
        model_or_fn: an ``nn.Module`` (use ``.eval()`` for inference:
            dropout and batch norm in training mode are reported as
            unsupported) or a function of tensors.
        example_args: a tensor or a tuple of tensors; their shapes and
            dtypes become the function's argument types.
        params_as_args: by default parameters and buffers are embedded as
            ``graph.constant``. With True they become function arguments
            after the user inputs, in the order of :func:`parameter_order`
            (``named_parameters()`` then ``named_buffers()``), each with its
            qualified name as location.
        dynamic_dims: ``{input index: [dims]}``, the dims of each input that
            are dynamic (``tensor<?x...>``), e.g. ``{0: [0]}`` for a dynamic
            batch. Uses ``torch.export`` dynamic shapes; PyTorch may
            specialize (and then reject) a dim the model needs static.
        entry: the function's name.
        method: ``"export"`` (default when available) or ``"fx"``
            (``torch.fx.symbolic_trace``; static shapes only).

    Returns:
        The module as text: ``func.func @<entry>(inputs...) -> results``.
        Every op carries a location ``loc("node"("file.py":line:0))``
        pointing at the model's source line.

    Raises:
        UnsupportedOpsError: listing every unsupported op or attribute value
            in the model, before anything is emitted.
    """
    if isinstance(example_args, torch.Tensor):
        example_args = (example_args,)
    example_args = tuple(example_args)
    if method is None:
        method = "export" if hasattr(torch, "export") and \
            hasattr(torch.export, "export") else "fx"
    if method == "export":
        return _ExportImporter(model_or_fn, example_args, params_as_args,
                               dynamic_dims, entry).run()
    if method == "fx":
        if dynamic_dims:
            raise NotImplementedError("dynamic_dims needs torch.export "
                                      "(method='export')")
        from ._fx_trace import FxTraceImporter
        return FxTraceImporter(model_or_fn, example_args, params_as_args,
                               entry).run()
    raise ValueError(f"unknown import method {method!r} (use 'export' or 'fx')")


# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------

def _named_state(model: torch.nn.Module) -> List[Tuple[str, torch.Tensor]]:
    seen = set()
    out = []
    for name, t in list(model.named_parameters()) + list(model.named_buffers()):
        if id(t) in seen:
            continue
        seen.add(id(t))
        out.append((name, t))
    return out


def source_location(stack_trace: Optional[str]) -> Tuple[Optional[str], Optional[int]]:
    """The model's source line in an FX ``stack_trace``: the innermost frame
    outside PyTorch itself (so ``nn.Linear`` points at the line calling the
    layer), or the innermost frame."""
    if not stack_trace:
        return None, None
    frames = [(m["file"], int(m["line"])) for m in _FRAME.finditer(stack_trace)]
    frames = [f for f in frames if not f[0].startswith("<")]  # generated code
    if not frames:
        return None, None
    for f, line in reversed(frames):
        if not os.path.abspath(f).startswith(_LIBRARY_DIRS):
            return f, line
    return frames[-1]


def tensor_type_of(val) -> Optional[TensorType]:
    """The TensorType of an FX ``meta["val"]`` (a FakeTensor); symbolic
    sizes become dynamic dims. None for non-tensors/unknown dtypes."""
    if not isinstance(val, torch.Tensor) or val.dtype not in DTYPE_TO_MLIR:
        return None
    return TensorType(tuple(_static_or_none(d) for d in val.shape), val.dtype)


def _static_or_none(d) -> Optional[int]:
    if isinstance(d, int):
        return d
    node = getattr(d, "node", None)
    if node is not None:
        v = node.maybe_as_int() if hasattr(node, "maybe_as_int") else None
        if v is not None:
            return int(v)
    return None


def _info(name: str, val):
    """What the checks see of a node's value before emission: tensors as
    Values of their type, sizes and Python values as themselves."""
    if isinstance(val, torch.Tensor):
        ty = tensor_type_of(val)
        return Value("%" + name, ty if ty is not None else TensorType((), torch.float32))
    if isinstance(val, torch.SymInt):
        return SymInt(str(val))
    if isinstance(val, (int, float, bool, str)) or val is None:
        return val
    if isinstance(val, (list, tuple)):
        return type(val)(_info(name, v) for v in val) if not isinstance(val, torch.Size) \
            else tuple(val)
    return None


class FxGraphImporter:
    """Walks an FX graph whose calls are ATen ops (or are normalized to
    them by :meth:`resolve`) and emits one ``func.func``.

    Subclasses provide the inputs (:meth:`placeholder`), and may override
    :meth:`resolve` to normalize non-ATen calls.
    """

    #: The node kinds that are op calls.
    CALL_OPS = ("call_function",)

    def __init__(self, graph: torch.fx.Graph, entry: str):
        self.graph = graph
        self.builder = FunctionBuilder(entry)
        self.ctx = Context(self.builder)
        self.env: Dict[torch.fx.Node, Any] = {}

    # -- to be provided by subclasses ----------------------------------------

    def placeholder(self, node: torch.fx.Node):
        raise NotImplementedError

    def output_values(self, node: torch.fx.Node) -> List[Any]:
        args = node.args[0]
        return list(args) if isinstance(args, (list, tuple)) else [args]

    def resolve(self, node: torch.fx.Node, args, kwargs):
        """``(qualname, schema)`` of an ATen call, or None when the node
        is handled by :meth:`special`."""
        target = node.target
        if isinstance(target, torch._ops.OpOverload):
            return qualified_name(target._schema), target._schema
        return None

    def location(self, node: torch.fx.Node):
        return source_location(node.meta.get("stack_trace"))

    def out_types(self, node: torch.fx.Node) -> Optional[List[Optional[TensorType]]]:
        val = node.meta.get("val")
        if val is None:
            return None
        vals = val if isinstance(val, (list, tuple)) else [val]
        return [tensor_type_of(v) for v in vals]

    # -- checking --------------------------------------------------------------

    def collect_unsupported(self) -> List[UnsupportedOp]:
        """Every unsupported op/attribute in the graph, before emission."""
        errors: List[UnsupportedOp] = []
        info: Dict[torch.fx.Node, Any] = {}

        def report(node, opname, reason):
            file, line = self.location(node)
            errors.append(UnsupportedOp(opname, node.name, reason, file, line))

        for node in self.graph.nodes:
            val = node.meta.get("val")
            info[node] = _info(node.name, val)
            if node.op in ("placeholder", "output", "get_attr"):
                reason = self.check_placeholder(node) if node.op == "placeholder" else None
                if reason:
                    report(node, "input", reason)
                continue
            if node.op not in self.CALL_OPS:
                continue
            if node.target is _COND:
                errors += self._check_cond(node)
                continue
            args = torch.fx.node.map_arg(node.args, lambda n: info.get(n))
            kwargs = torch.fx.node.map_arg(node.kwargs, lambda n: info.get(n))
            reason = self.check_call(node, args, kwargs)
            if reason is None and isinstance(val, torch.Tensor) and \
                    val.dtype not in DTYPE_TO_MLIR and not self._constant_like(node):
                reason = f"produces dtype {val.dtype}, which the graph dialect lacks"
            if reason:
                report(node, self._opname(node), reason)
        return errors

    def check_placeholder(self, node) -> Optional[str]:
        return None

    def _constant_like(self, node) -> bool:
        """Whether a node's value can be computed at import time (then an
        unsupported intermediate dtype, e.g. float64, does not matter)."""
        return all(n.op == "call_function" and self._constant_like(n)
                   for n in node.all_input_nodes) if node.op == "call_function" \
            else node.op == "get_attr"

    def _opname(self, node) -> str:
        t = node.target
        if isinstance(t, torch._ops.OpOverload):
            return qualified_name(t._schema)
        return getattr(t, "__name__", str(t))

    def check_call(self, node, args, kwargs) -> Optional[str]:
        if node.target is operator.getitem or self._is_symbolic_arith(node):
            return None
        resolved = self.resolve(node, args, kwargs)
        if resolved is None:
            return "unsupported operator"
        qualname, schema = resolved
        opdef = lookup(qualname)
        if opdef is None:
            return "unsupported operator"
        if opdef.check is None:
            return None
        try:
            a = bind(schema, args, kwargs, self.out_types(node))
            return opdef.check(a)
        except Unsupported as e:
            return str(e)

    @staticmethod
    def _is_symbolic_arith(node) -> bool:
        return isinstance(node.meta.get("val"), (torch.SymInt, torch.SymFloat,
                                                 torch.SymBool)) and \
            not isinstance(node.target, torch._ops.OpOverload)

    # -- emission ----------------------------------------------------------------

    def emit(self) -> FunctionBuilder:
        """Emits every node. Problems found only now (an op the checks let
        through) are collected too: the failing node's value is poisoned,
        its users are skipped, and all errors are raised together."""
        b = self.builder
        errors: List[UnsupportedOp] = []
        for node in self.graph.nodes:
            file, line = self.location(node)
            b.set_location(node.name, file, line)
            try:
                if node.op == "placeholder":
                    self.env[node] = self.placeholder(node)
                elif node.op == "get_attr":
                    self.env[node] = self.get_attr(node)
                elif node.op == "output":
                    if not errors:
                        self.finish(node)
                else:
                    self.env[node] = self.call(node)
            except Unsupported as e:
                errors.append(UnsupportedOp(
                    self._opname(node) if node.op in self.CALL_OPS else node.op,
                    node.name, str(e), file, line))
                self.env[node] = POISON
        if errors:
            raise UnsupportedOpsError(errors)
        return b

    #: The GraphModule whose attributes get_attr nodes read (subgraphs of
    #: torch.cond); set by subclasses that have one.
    root_module: Optional[torch.nn.Module] = None

    def get_attr(self, node):
        obj = self.root_module
        if obj is None:
            raise Unsupported("get_attr is not expected in this graph")
        for part in node.target.split("."):
            obj = getattr(obj, part)
        if isinstance(obj, torch.Tensor):
            return self.ctx.tensor(obj)
        return obj

    # -- torch.cond ----------------------------------------------------------------

    def _subgraph(self, gm, node=None) -> "_SubgraphImporter":
        return _SubgraphImporter(self, gm, node)

    def _check_cond(self, node) -> List[UnsupportedOp]:
        errors = []
        for arg in node.args[1:3]:
            gm = self.get_attr(arg) if isinstance(arg, torch.fx.Node) else arg
            errors += self._subgraph(gm, node).collect_unsupported()
        return errors

    def cond(self, node, args):
        """``torch.cond(pred, true_fn, false_fn, operands)`` -> graph.if."""
        pred, true_gm, false_gm, operands = args[:4]
        operands = list(operands)
        if isinstance(pred, Value) and pred.const is not None:
            pred = bool(pred.const.reshape(-1)[0])
        if isinstance(pred, bool):
            return tuple(self._subgraph(true_gm if pred else false_gm, node)
                         .emit_values(operands))
        pred = self.ctx.to_bool(pred)
        if pred.rank:
            pred = self.ctx.reshape_dims(pred, [])
        return tuple(self.builder.if_(
            pred, lambda: self._subgraph(true_gm, node).emit_values(operands),
            lambda: self._subgraph(false_gm, node).emit_values(operands)))

    def lookup_arg(self, n):
        return self.env[n]

    def call(self, node):
        args = torch.fx.node.map_arg(node.args, self.lookup_arg)
        kwargs = torch.fx.node.map_arg(node.kwargs, self.lookup_arg)
        if is_poisoned(args) or is_poisoned(kwargs):
            return POISON
        if node.target is operator.getitem:
            return self.getitem(node, args[0], args[1])
        if node.target is _COND:
            return self.cond(node, args)
        if self._is_symbolic_arith(node):
            return self.symbolic(node, args)
        resolved = self.resolve(node, args, kwargs)
        if resolved is None:
            raise Unsupported("unsupported operator")
        qualname, schema = resolved
        if qualname == "aten.sym_size.int":
            return self.sym_size(node, args[0], args[1])
        a = bind(schema, args, kwargs, self.out_types(node))
        return emit_op(self.ctx, qualname, a)

    def getitem(self, node, container, index):
        if isinstance(container, (list, tuple)):
            return container[index]
        raise Unsupported(f"indexing a {type(container).__name__}")

    def sym_size(self, node, x: Value, dim: int):
        d = x.shape[dim]
        if d is not None:
            return d
        return SymInt(str(node.meta.get("val")), (x, dim))

    def symbolic(self, node, args):
        """Arithmetic on symbolic sizes (``operator.mul(s0, 4)``): kept
        symbolic; when it equals an input dim it gets that dim as source."""
        expr = str(node.meta.get("val"))
        for v in args:
            if isinstance(v, SymInt) and v.expr == expr:
                return v
        return SymInt(expr, self.symbol_sources.get(expr))

    symbol_sources: Dict[str, Tuple[Value, int]] = {}

    def finish(self, node):
        results = []
        for v in self.output_values(node):
            if isinstance(v, (int, float, bool)):
                v = self.ctx.tensor(v)
            elif isinstance(v, SymInt):
                v = self.ctx.sym_value(v)
            if not isinstance(v, Value):
                raise Unsupported(f"model output of type {type(v).__name__} is "
                                  "not supported (outputs must be tensors)")
            results.append(v)
        self.builder.set_results(results)


# ---------------------------------------------------------------------------
# torch.export
# ---------------------------------------------------------------------------

class _SubgraphImporter(FxGraphImporter):
    """A branch of torch.cond: a GraphModule whose placeholders are the
    cond's operands, emitted into the parent's builder."""

    def __init__(self, parent: FxGraphImporter, gm, cond_node=None):
        self.graph = gm.graph
        self.root_module = gm
        self.builder = parent.builder
        self.ctx = parent.ctx
        self.env = {}
        self.symbol_sources = parent.symbol_sources
        self.parent = parent
        self.cond_node = cond_node

    def location(self, node):
        """The node's own source line, else the torch.cond call's."""
        loc = self.parent.location(node)
        if loc[0] is None and self.cond_node is not None:
            return self.parent.location(self.cond_node)
        return loc

    def emit_values(self, operands: List[Any]) -> List[Any]:
        placeholders = [n for n in self.graph.nodes if n.op == "placeholder"]
        for n, v in zip(placeholders, operands):
            self.env[n] = v
        for node in self.graph.nodes:
            if node.op == "output":
                return self.output_values(node)
            if node.op == "placeholder":
                continue
            file, line = self.location(node)
            self.builder.set_location(node.name, file, line)
            self.env[node] = self.get_attr(node) if node.op == "get_attr" else self.call(node)
        return []

    def output_values(self, node) -> List[Any]:
        outs = node.args[0]
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        return [self.env[o] if isinstance(o, torch.fx.Node) else self.ctx.tensor(o)
                for o in outs]


class _FunctionModule(torch.nn.Module):
    """Wraps a plain function so that torch.export can capture it."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn
        # Non-strict export keeps only `forward` frames in stack traces;
        # anchoring the function keeps its lines too (private API, optional).
        anchor = getattr(torch.fx.proxy, "_register_stack_trace_anchor", None)
        if anchor is not None:
            anchor(fn)

    def forward(self, *args):
        return self.fn(*args)


def _has_mutation(graph: torch.fx.Graph) -> bool:
    return any(isinstance(n.target, torch._ops.OpOverload) and n.target._schema.is_mutable
               for n in graph.nodes if n.op == "call_function")


def _parameter_names(fn, n: int) -> Optional[List[str]]:
    """The names of ``fn``'s first ``n`` positional parameters, if it has
    them (the function's inputs are named after them in the MLIR)."""
    import inspect
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    names = [p.name for p in params
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return names[:n] if len(names) >= n else None


class _ExportImporter(FxGraphImporter):
    def __init__(self, model, example_args, params_as_args, dynamic_dims, entry):
        self.model = model if isinstance(model, torch.nn.Module) else _FunctionModule(model)
        self.example_args = example_args
        self.params_as_args = params_as_args
        self.dynamic_dims = dynamic_dims or {}
        self.entry = entry

    def _export(self):
        dynamic_shapes = None
        if self.dynamic_dims:
            for i in self.dynamic_dims:
                if not 0 <= i < len(self.example_args):
                    raise ValueError(f"dynamic_dims: no input {i}")
            specs = []
            for i, t in enumerate(self.example_args):
                dims = self.dynamic_dims.get(i) or []
                specs.append({int(d) % max(t.dim(), 1): torch.export.Dim(f"in{i}_dim{d}")
                              for d in dims} or None)
            dynamic_shapes = tuple(specs)
            if isinstance(self.model, _FunctionModule):
                dynamic_shapes = (dynamic_shapes,)
        try:
            return torch.export.export(self.model, self.example_args,
                                       dynamic_shapes=dynamic_shapes)
        except Exception as e:
            text = f"{type(e).__name__} {e}".lower()
            if "datadependent" in text or "data-dependent" in text or \
                    "data dependent" in text:
                first = str(e).strip().splitlines()[0] if str(e).strip() else ""
                raise NotImplementedError(
                    "torch.export cannot capture the model: its control flow "
                    f"depends on tensor values ({type(e).__name__}: {first}). "
                    "Script it instead (torch.jit.script(model), which "
                    "graphopt.compile and import_torchscript accept: the branch "
                    "becomes graph.if), or write it with torch.cond") from e
            raise

    def run(self) -> str:
        ep = self._export()
        if _has_mutation(ep.graph):
            # In-place ops (relu_, add_): functionalize. An empty table
            # decomposes nothing, so linear/conv2d/... stay as they are.
            ep = ep.run_decompositions({})
        super().__init__(ep.graph, self.entry)
        self.ep = ep
        self.root_module = ep.graph_module
        sig = ep.graph_signature
        self.specs = {s.arg.name: s for s in sig.input_specs
                      if hasattr(s.arg, "name")}
        errors = self.collect_unsupported()
        errors += self._mutations()
        if errors:
            decomposed = self._decompose_unsupported(errors)
            if decomposed is None:
                raise UnsupportedOpsError(errors)
            return decomposed
        return self._emit_module()

    def _decompose_unsupported(self, errors) -> Optional[str]:
        """Core-ATen-decomposes only the unsupported ops (when PyTorch has a
        decomposition for them) and imports again; None if that does not
        remove every error."""
        names = {e.op for e in errors}
        table = torch.export.default_decompositions() if hasattr(
            torch.export, "default_decompositions") else None
        if table is None:
            return None
        chosen = {k: v for k, v in table.items()
                  if isinstance(k, torch._ops.OpOverload) and
                  str(k.name()).replace("::", ".") in names}
        if not chosen:
            return None
        try:
            ep = self.ep.run_decompositions(chosen)
        except Exception:
            return None
        retry = _ExportImporter.__new__(_ExportImporter)
        retry.__dict__.update(self.__dict__)
        FxGraphImporter.__init__(retry, ep.graph, self.entry)
        retry.ep = ep
        retry.root_module = ep.graph_module
        retry.specs = {s.arg.name: s for s in ep.graph_signature.input_specs
                       if hasattr(s.arg, "name")}
        remaining = retry.collect_unsupported() + retry._mutations()
        if remaining:
            # Report what is left, unless the decompositions introduced ops
            # the user never wrote.
            if {e.op for e in remaining} <= names:
                raise UnsupportedOpsError(remaining)
            return None
        return retry._emit_module()

    def _mutations(self) -> List[UnsupportedOp]:
        errors = []
        for s in self.ep.graph_signature.output_specs:
            kind = s.kind.name
            if kind != "USER_OUTPUT":
                errors.append(UnsupportedOp(
                    "output", s.arg.name,
                    f"the model updates {getattr(s, 'target', '') or 'a tensor'} in place "
                    f"({kind.lower()}); is it in training mode? (call model.eval())"))
        return errors

    def _emit_module(self) -> str:
        self._state = dict(_named_state(self.model))
        self._param_args: Dict[str, Value] = {}
        self.symbol_sources = {}
        b = self.builder
        # User inputs first, then (with params_as_args) every parameter and
        # buffer in parameter_order(), so the signature does not depend on
        # which of them the graph uses.
        user = [n for n in self.graph.nodes if n.op == "placeholder"
                and self.specs[n.name].kind.name == "USER_INPUT"]
        names = [n.name for n in user]
        if isinstance(self.model, _FunctionModule):
            names = _parameter_names(self.model.fn, len(user)) or names
        for n, name in zip(user, names):
            ty = tensor_type_of(n.meta.get("val"))
            if ty is None:
                raise UnsupportedOpsError([UnsupportedOp(
                    "input", n.name, f"input of type {n.meta.get('val')!r} is not "
                    "supported (inputs must be f32/f16/bf16/i1/i32/i64 tensors)")])
            v = b.add_argument(name, ty)
            self.env[n] = v
            val = n.meta.get("val")
            for d, size in enumerate(val.shape):
                if ty.shape[d] is None:
                    self.symbol_sources.setdefault(str(size), (v, d))
        if self.params_as_args:
            for name, t in self._state.items():
                self._param_args[name] = b.add_argument(
                    "p_" + name.replace(".", "_"),
                    TensorType(tuple(t.shape), t.dtype), loc=name)
        self.emit()
        return module_text([b])

    # -- inputs ------------------------------------------------------------------

    def check_placeholder(self, node) -> Optional[str]:
        spec = self.specs.get(node.name)
        if spec is None:
            return None
        kind = spec.kind.name
        if kind in ("CUSTOM_OBJ", "TOKEN"):
            return f"input of kind {kind.lower()} is not supported"
        val = node.meta.get("val")
        if kind == "USER_INPUT" and not (isinstance(val, torch.Tensor) and
                                         val.dtype in DTYPE_TO_MLIR):
            return (f"input {node.name} of type {getattr(val, 'dtype', type(val).__name__)} "
                    "is not supported (inputs must be f32/f16/bf16/i1/i32/i64 tensors)")
        return None

    def placeholder(self, node):
        if node in self.env:  # user input
            return self.env[node]
        spec = self.specs[node.name]
        kind, target = spec.kind.name, spec.target
        if kind in ("PARAMETER", "BUFFER"):
            if not node.users:
                return None
            if self.params_as_args:
                arg = self._param_args.get(target)
                if arg is None:  # an alias of a deduplicated tensor
                    t = self._tensor(target)
                    arg = next((self._param_args[n] for n, s in self._state.items()
                                if s is t), None)
                if arg is None:
                    raise Unsupported(f"parameter {target} not found in the model")
                return arg
            with self.builder.location(target):
                return self.ctx.tensor(self._tensor(target))
        if kind == "CONSTANT_TENSOR":
            if not node.users:
                return None
            with self.builder.location(target):
                return to_graph_value(self.ctx, self._tensor(target))
        raise Unsupported(f"input of kind {kind.lower()} is not supported")

    def _tensor(self, target: str) -> torch.Tensor:
        if target in self.ep.state_dict:
            return self.ep.state_dict[target]
        if target in self.ep.constants:
            return self.ep.constants[target]
        return self._state[target]

    def output_values(self, node) -> List[Any]:
        """The user outputs (mutated buffers, also returned by the graph,
        are reported by :meth:`_mutations`)."""
        values = []
        for o, spec in zip(node.args[0], self.ep.graph_signature.output_specs):
            if spec.kind.name != "USER_OUTPUT":
                continue
            values.append(self.env[o] if isinstance(o, torch.fx.Node)
                          else getattr(spec.arg, "value", o))
        return values
