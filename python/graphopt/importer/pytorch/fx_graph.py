"""The FX graph walk shared by both ``torch.fx`` paths of
:func:`~.fx.import_torch`: :class:`FxGraphImporter` (and the
``torch.cond`` subgraphs) turns an FX graph's nodes into calls of the ATen
mappings (:mod:`.aten`); :mod:`.fx` drives it for ``torch.export`` and
:mod:`.fx_trace` for ``torch.fx.symbolic_trace``.
"""

from __future__ import annotations

import operator
import os
import re
from typing import Any, Dict, List, Optional, Tuple

import torch

from ..errors import Unsupported, UnsupportedOp, UnsupportedOpsError
from .aten import (POISON, Context, SymInt, bind, emit_op, is_poisoned, lookup,
                   qualified_name)
from .dtypes import DTYPE_TO_MLIR, FunctionBuilder, TensorType, Value


_COND = getattr(getattr(torch.ops, "higher_order", None), "cond", None)

# Frames in these directories are library code, not the model's source.
_LIBRARY_DIRS = (os.path.dirname(os.path.abspath(torch.__file__)) + os.sep,
                 os.path.dirname(os.path.abspath(__file__)) + os.sep)
_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')


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
