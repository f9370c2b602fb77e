"""The ``torch.fx.symbolic_trace`` path of :func:`~.fx.import_torch`.

For PyTorch without ``torch.export`` (or ``method="fx"``). Symbolic tracing
keeps the model's own calls: ``call_module`` (``nn.Linear``...),
``call_function`` (``torch.relu``, ``F.gelu``, ``operator.add``) and
``call_method`` (``x.view(...)``). Each is normalized to an ATen op and its
schema arguments, then emitted through the shared mappings
(:mod:`.aten`). The graph is also run once on the example inputs:
shapes, dtypes and every non-tensor value (``x.size(0)``, ``x.shape``) are
taken from that run, so imports are static-shape.
"""

from __future__ import annotations

import inspect
import operator
from typing import Any, Callable, Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

from .dtypes import TensorType, Value, module_text
from ..errors import Unsupported, UnsupportedOpsError
from .aten import (POISON, bind, emit_op, is_poisoned, lookup,
                         qualified_name, to_graph_value)
from .fx_graph import FxGraphImporter, _named_state, source_location

# Python-only parameters of torch.nn.functional that ATen ops do not take.
_DROPPED = {"inplace", "_stacklevel", "return_indices"}

_OPERATORS = {
    operator.add: "add", operator.iadd: "add", operator.sub: "sub",
    operator.isub: "sub", operator.mul: "mul", operator.imul: "mul",
    operator.truediv: "div", operator.itruediv: "div",
    operator.floordiv: "floor_divide", operator.mod: "remainder",
    operator.pow: "pow", operator.matmul: "matmul", operator.neg: "neg",
    operator.gt: "gt", operator.lt: "lt", operator.ge: "ge", operator.le: "le",
    operator.eq: "eq", operator.ne: "ne", operator.and_: "bitwise_and",
    operator.or_: "bitwise_or", operator.xor: "bitwise_xor",
    operator.invert: "bitwise_not", operator.abs: "abs",
}

# Functions whose arguments differ from the ATen op's.
_FUNCTION_ALIASES: Dict[Callable, Callable[[tuple, dict], Tuple[str, tuple, dict]]] = {
    F.embedding: lambda a, k: ("embedding", (k.get("weight", a[1] if len(a) > 1 else None),
                                             a[0]), {}),
    F.batch_norm: lambda a, k: ("batch_norm", _batch_norm_args(a, k), {}),
}

_DTYPE_METHODS = {"float": torch.float32, "half": torch.float16,
                  "bfloat16": torch.bfloat16, "int": torch.int32,
                  "long": torch.int64, "bool": torch.bool, "double": torch.float64}

_VARARG_METHODS = {"view", "reshape", "permute", "expand", "repeat", "tile"}


def _batch_norm_args(a, k):
    names = ["input", "running_mean", "running_var", "weight", "bias",
             "training", "momentum", "eps"]
    defaults = {"weight": None, "bias": None, "training": False,
                "momentum": 0.1, "eps": 1e-5}
    v = dict(defaults)
    v.update(dict(zip(names, a)))
    v.update(k)
    return (v["input"], v["weight"], v["bias"], v["running_mean"], v["running_var"],
            v["training"], v["momentum"], v["eps"], False)


# ---------------------------------------------------------------------------
# Overload resolution
# ---------------------------------------------------------------------------

def _is_tensor(x) -> bool:
    return isinstance(x, Value)


def _accepts(ty: str, v, name: str = "") -> bool:
    """Whether schema type ``ty`` (``str(torch.Type)``) of argument ``name``
    accepts value ``v`` (tensors are Values or constant torch tensors)."""
    if ty.startswith("Optional["):
        return v is None or _accepts(ty[9:-1], v, name)
    if ty.startswith("List[") or ty.endswith("[]"):
        inner = ty[5:-1] if ty.startswith("List[") else ty[:-2]
        if isinstance(v, (list, tuple)):
            return all(_accepts(inner, x) for x in v)
        return inner in ("int", "SymInt") and isinstance(v, int) and not isinstance(v, bool)
    if ty == "Tensor":
        return _is_tensor(v) or isinstance(v, torch.Tensor)
    if ty in ("int", "SymInt"):
        if isinstance(v, (torch.dtype, torch.memory_format, torch.layout)):
            # ScalarType/MemoryFormat/Layout print as int in schemas.
            return name in ("dtype", "memory_format", "layout")
        return isinstance(v, int) and not isinstance(v, bool)
    if ty == "float":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if ty == "bool":
        return isinstance(v, bool)
    if ty in ("number", "Scalar"):
        return isinstance(v, (int, float, bool))
    if ty == "str":
        return isinstance(v, str)
    if ty == "Device":
        return isinstance(v, (str, torch.device))
    if ty == "ScalarType":
        return isinstance(v, torch.dtype)
    return False


def _match(schema, args, kwargs) -> bool:
    params = list(schema.arguments)
    positional = [p for p in params if not p.kwarg_only]
    if len(args) > len(positional):
        return False
    given = {p.name: v for p, v in zip(positional, args)}
    for k, v in kwargs.items():
        if k not in {p.name for p in params} or k in given:
            return False
        given[k] = v
    for p in params:
        if p.name in given:
            if not _accepts(str(p.type), given[p.name], p.name):
                return False
        elif not p.has_default_value():
            return False
    return True


_PREFERRED = ("Tensor", "default", "self", "Scalar", "dim", "int", "dim_IntList",
              "using_ints", "padding")


def resolve_aten(name: str, args, kwargs):
    """The ``(qualname, schema, kwargs)`` of the ``aten.<name>`` overload
    accepting these arguments (Values for tensors), or None. ``input`` is
    renamed to the schema's first argument when needed."""
    packet = getattr(torch.ops.aten, name, None)
    if packet is None:
        return None
    overloads = sorted(packet.overloads(),
                       key=lambda o: _PREFERRED.index(o) if o in _PREFERRED else 99)
    for o in overloads:
        schema = getattr(packet, o)._schema
        kw = dict(kwargs)
        first = schema.arguments[0].name if schema.arguments else None
        if "input" in kw and first != "input" and first not in kw:
            kw[first] = kw.pop("input")
        if "self" in kw and first != "self" and first not in kw:
            kw[first] = kw.pop("self")
        if _match(schema, args, kw):
            return qualified_name(schema), schema, kw
    return None


# ---------------------------------------------------------------------------
# Modules
# ---------------------------------------------------------------------------

def _pair(v):
    return list(v) if isinstance(v, (list, tuple)) else [v, v]


def _module_call(mod: nn.Module, args, kwargs,
                 param) -> Tuple[str, tuple, dict, Optional[Callable]]:
    """``(aten name, args, kwargs, post)`` for a leaf module call; ``param``
    gives the Value of one of the module's tensors. ``post`` restructures
    the op's result into the module's (LSTM: ``(out, (h, c))``)."""
    x = args[0] if args else kwargs.get("input")
    t = type(mod)
    if t is nn.Linear:
        return "linear", (x, param("weight"), param("bias")), {}, None
    if t in (nn.Conv1d, nn.Conv2d):
        if mod.padding_mode != "zeros":
            raise Unsupported(f"padding mode {mod.padding_mode!r} is not supported "
                              "(only 'zeros')")
        pad = mod.padding if isinstance(mod.padding, str) else list(mod.padding)
        return ("conv2d" if t is nn.Conv2d else "conv1d",
                (x, param("weight"), param("bias"), list(mod.stride), pad,
                 list(mod.dilation), mod.groups), {}, None)
    if t in (nn.BatchNorm1d, nn.BatchNorm2d):
        training = mod.training or mod.running_mean is None
        return ("batch_norm", (x, param("weight"), param("bias"), param("running_mean"),
                               param("running_var"), training, mod.momentum or 0.0,
                               mod.eps, False), {}, None)
    if t is nn.LayerNorm:
        return ("layer_norm", (x, list(mod.normalized_shape), param("weight"),
                               param("bias"), mod.eps), {}, None)
    if t is nn.GroupNorm:
        return ("group_norm", (x, mod.num_groups, param("weight"), param("bias"),
                               mod.eps), {}, None)
    if t is nn.Embedding:
        return "embedding", (param("weight"), x), {}, None
    simple = {nn.ReLU: "relu", nn.SiLU: "silu", nn.Sigmoid: "sigmoid", nn.Tanh: "tanh",
              nn.Hardswish: "hardswish", nn.Hardsigmoid: "hardsigmoid", nn.Mish: "mish",
              nn.Identity: "alias"}
    if t in simple:
        return simple[t], (x,), {}, None
    if t is nn.ReLU6:
        return "hardtanh", (x, 0.0, 6.0), {}, None
    if t is nn.Hardtanh:
        return "hardtanh", (x, mod.min_val, mod.max_val), {}, None
    if t is nn.GELU:
        return "gelu", (x,), {"approximate": mod.approximate}, None
    if t is nn.LeakyReLU:
        return "leaky_relu", (x, mod.negative_slope), {}, None
    if t is nn.ELU:
        return "elu", (x, mod.alpha), {}, None
    if t is nn.Softplus:
        return "softplus", (x, mod.beta, mod.threshold), {}, None
    if t is nn.PReLU:
        return "prelu", (x, param("weight")), {}, None
    if t in (nn.Dropout, nn.Dropout1d, nn.Dropout2d, nn.AlphaDropout):
        return "dropout", (x, mod.p, mod.training), {}, None
    if t is nn.Flatten:
        return "flatten", (x, mod.start_dim, mod.end_dim), {}, None
    if t is nn.Unflatten:
        return "unflatten", (x, mod.dim, list(mod.unflattened_size)), {}, None
    if t in (nn.Softmax, nn.LogSoftmax):
        if mod.dim is None:
            raise Unsupported("Softmax without dim is not supported")
        return ("softmax" if t is nn.Softmax else "log_softmax", (x, mod.dim), {}, None)
    if t is nn.MaxPool2d:
        if mod.return_indices:
            raise Unsupported("max pooling with return_indices is not supported")
        return ("max_pool2d", (x, _pair(mod.kernel_size),
                               _pair(mod.stride if mod.stride is not None else mod.kernel_size),
                               _pair(mod.padding), _pair(mod.dilation), mod.ceil_mode), {}, None)
    if t is nn.AvgPool2d:
        return ("avg_pool2d", (x, _pair(mod.kernel_size),
                               _pair(mod.stride if mod.stride is not None else mod.kernel_size),
                               _pair(mod.padding), mod.ceil_mode, mod.count_include_pad,
                               mod.divisor_override), {}, None)
    if t is nn.AdaptiveAvgPool2d:
        return "adaptive_avg_pool2d", (x, _pair(mod.output_size)), {}, None
    if t in (nn.LSTM, nn.GRU):
        if mod.proj_size if t is nn.LSTM else False:
            raise Unsupported("LSTM projections (proj_size > 0) are not supported")
        hx = args[1] if len(args) > 1 else kwargs.get("hx")
        if hx is None:
            batch = x.shape[0 if mod.batch_first else 1] if x.rank == 3 else None
            shape = [mod.num_layers * (2 if mod.bidirectional else 1)] + \
                ([batch] if batch is not None else []) + [mod.hidden_size]
            hx = torch.zeros(shape, dtype=x.dtype)
            hx = [hx, hx] if t is nn.LSTM else hx
        weights = [param(n) for n in mod._flat_weights_names]
        rest = (mod.bias, mod.num_layers, float(mod.dropout), mod.training,
                mod.bidirectional, mod.batch_first)
        if t is nn.LSTM:
            hx = list(hx)
            return ("lstm", (x, hx, weights) + rest, {},
                    lambda r: (r[0], (r[1], r[2])))
        return "gru", (x, hx, weights) + rest, {}, lambda r: (r[0], r[1])
    raise Unsupported(f"module {t.__name__} is not supported by the torch.fx "
                      "import path (use torch.export: method='export')")


# ---------------------------------------------------------------------------
# The importer
# ---------------------------------------------------------------------------

class _Recorder(torch.fx.Interpreter):
    """Runs the traced graph and keeps every node's value."""

    def __init__(self, gm):
        super().__init__(gm)
        self.values: Dict[torch.fx.Node, Any] = {}

    def run_node(self, n):
        v = super().run_node(n)
        self.values[n] = v
        return v


def _contains_tensor(x) -> bool:
    if isinstance(x, torch.Tensor):
        return True
    if isinstance(x, (list, tuple)):
        return any(_contains_tensor(v) for v in x)
    if isinstance(x, dict):
        return any(_contains_tensor(v) for v in x.values())
    return False


def _runtime(x) -> bool:
    """Whether an argument holds a tensor only known at run time."""
    if isinstance(x, Value):
        return x.const is None
    if isinstance(x, (list, tuple)):
        return any(_runtime(v) for v in x)
    if isinstance(x, dict):
        return any(_runtime(v) for v in x.values())
    return False


class FxTraceImporter(FxGraphImporter):
    CALL_OPS = ("call_function", "call_method", "call_module")

    def __init__(self, model, example_args, params_as_args, entry):
        self.model = model
        self.example_args = example_args
        self.params_as_args = params_as_args
        self.entry = entry

    def run(self) -> str:
        tracer = torch.fx.Tracer()
        tracer.record_stack_traces = True
        root = self.model
        graph = tracer.trace(root)
        gm = torch.fx.GraphModule(tracer.root, graph)
        rec = _Recorder(gm)
        with torch.no_grad():
            rec.run(*self.example_args)
        self.gm = gm
        self.values = rec.values
        for n, v in rec.values.items():
            n.meta["val"] = v
        super().__init__(gm.graph, self.entry)
        errors = self.collect_unsupported()
        if errors:
            raise UnsupportedOpsError(errors)
        self._state = dict(_named_state(root)) if isinstance(root, nn.Module) else {}
        self._by_id = {id(t): name for name, t in self._state.items()}
        self._params: Dict[str, Value] = {}
        b = self.builder
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        for n, ex in zip(placeholders, self.example_args):
            self.env[n] = b.add_argument(n.name, TensorType(tuple(ex.shape), ex.dtype))
        if self.params_as_args:
            for name, t in self._state.items():
                self._params[name] = b.add_argument(
                    "p_" + name.replace(".", "_"), TensorType(tuple(t.shape), t.dtype),
                    loc=name)
        self.emit()
        return module_text([b])

    def location(self, node):
        return source_location(node.stack_trace or node.meta.get("stack_trace"))

    def check_placeholder(self, node):
        v = node.meta.get("val")
        if not isinstance(v, torch.Tensor):
            return f"input {node.name} is not a tensor"
        return None

    def placeholder(self, node):
        return self.env[node]

    def _tensor_value(self, t: torch.Tensor, name: Optional[str]) -> Value:
        """A parameter/buffer/constant tensor as a Value."""
        qual = name if name in self._state else self._by_id.get(id(t))
        if qual is not None and self.params_as_args:
            return self._params[qual]
        if qual is not None and qual in self._params:
            return self._params[qual]
        with self.builder.location(qual or name or "constant"):
            v = to_graph_value(self.ctx, t)
        if qual is not None:
            self._params[qual] = v
        return v

    def get_attr(self, node):
        obj = self.gm
        for part in node.target.split("."):
            obj = getattr(obj, part)
        if isinstance(obj, torch.Tensor):
            return self._tensor_value(obj, node.target)
        return obj

    def _opname(self, node) -> str:
        if node.op == "call_module":
            return type(self.gm.get_submodule(node.target)).__name__
        if node.op == "call_method":
            return f"Tensor.{node.target}"
        return getattr(node.target, "__name__", str(node.target))

    # -- normalization --------------------------------------------------------

    def normalize(self, node, args, kwargs, emit: bool = True):
        """``(qualname, schema, args, kwargs, post)`` of the ATen op a node
        calls; module tensors become Values (typed placeholders when not
        ``emit``). Raises Unsupported."""
        post = None
        if node.op == "call_module":
            mod = self.gm.get_submodule(node.target)

            def param(name):
                t = getattr(mod, name)
                if t is None:
                    return None
                if emit:
                    return self._tensor_value(t, f"{node.target}.{name}")
                return Value("%" + name, TensorType(tuple(t.shape), t.dtype))
            name, args, kwargs, post = _module_call(mod, args, kwargs, param)
        elif node.op == "call_method":
            name = node.target
            if name in _DTYPE_METHODS:
                name, args, kwargs = "to", (args[0], _DTYPE_METHODS[name]), {}
            elif name in _VARARG_METHODS and len(args) > 1 and \
                    not isinstance(args[1], (list, tuple)):
                args = (args[0], list(args[1:]))
            elif name == "type_as":
                name = "type_as"
            elif name == "to":
                dtypes = [a for a in list(args[1:]) + list(kwargs.values())
                          if isinstance(a, torch.dtype)]
                others = [a for a in args[1:] if isinstance(a, Value)]
                if others:
                    name, args, kwargs = "type_as", (args[0], others[0]), {}
                elif dtypes:
                    args, kwargs = (args[0], dtypes[0]), {}
                else:
                    name, args, kwargs = "alias", (args[0],), {}
        else:
            fn = node.target
            if fn in _OPERATORS:
                name = _OPERATORS[fn]
                if len(args) == 2 and not isinstance(args[0], Value) and \
                        isinstance(args[1], Value):  # 1 / x: the number as a tensor
                    args = (self._scalar(args[0], emit), args[1])
            elif fn in _FUNCTION_ALIASES:
                name, args, kwargs = _FUNCTION_ALIASES[fn](args, kwargs)
            else:
                name = getattr(fn, "__name__", None)
                if name is None:
                    raise Unsupported("unsupported function")
                args, kwargs = _drop_python_only(fn, args, kwargs)
                if name in ("split",) and len(args) > 1 and isinstance(args[1], (list, tuple)):
                    name = "split_with_sizes"
        if name == "split" and len(args) > 1 and isinstance(args[1], (list, tuple)):
            name = "split_with_sizes"
        resolved = resolve_aten(name, tuple(args), dict(kwargs))
        if resolved is None:
            raise Unsupported("unsupported operator" if getattr(torch.ops.aten, name, None)
                              is None else f"no overload of aten.{name} takes these arguments")
        qualname, schema, kwargs = resolved
        if lookup(qualname) is None:
            raise Unsupported("unsupported operator")
        return qualname, schema, tuple(args), kwargs, post

    def _scalar(self, x, emit: bool) -> Value:
        """A Python number as a weak rank-0 tensor (a typed placeholder when
        not emitting)."""
        if emit:
            return self.ctx.tensor(x)
        from .aten import _python_dtype
        return Value("%cst", TensorType((), _python_dtype(x)), weak=True)

    # -- checking and emission -----------------------------------------------

    def check_call(self, node, args, kwargs) -> Optional[str]:
        if node.op not in ("call_function", "call_method", "call_module"):
            return None
        value = self.values.get(node)
        if not _contains_tensor(value):
            return None  # a size or other Python value: taken from the run
        if node.target is operator.getitem and not isinstance(args[0], Value):
            return None
        if node.target is operator.getitem:
            return _check_index(args[1])
        try:
            qualname, schema, a, kw, _ = self.normalize(node, args, kwargs, emit=False)
            opdef = lookup(qualname)
            return opdef.check(bind(schema, a, kw)) if opdef.check else None
        except Unsupported as e:
            return str(e)

    def call(self, node):
        value = self.values.get(node)
        if not _contains_tensor(value):
            return value  # sizes, shapes, Python arithmetic: static here
        args = torch.fx.node.map_arg(node.args, self.lookup_arg)
        kwargs = torch.fx.node.map_arg(node.kwargs, self.lookup_arg)
        if is_poisoned(args) or is_poisoned(kwargs):
            return POISON
        if node.target is operator.getitem:
            if isinstance(args[0], Value):
                return _tensor_getitem(self.ctx, args[0], args[1])
            return args[0][args[1]]
        if not _runtime(args) and not _runtime(kwargs) and node.op != "call_module":
            return to_graph_value(self.ctx, value)  # computed from constants
        qualname, schema, a, kw, post = self.normalize(node, args, kwargs)
        result = emit_op(self.ctx, qualname, bind(schema, a, kw))
        return post(result) if post else result

    def output_values(self, node):
        out = node.args[0]
        return _flatten(self.env_value(out))

    def env_value(self, x):
        return torch.fx.node.map_arg(x, self.lookup_arg)


def _flatten(x) -> List[Any]:
    if isinstance(x, (list, tuple)):
        return [v for e in x for v in _flatten(e)]
    if isinstance(x, dict):
        return [v for e in x.values() for v in _flatten(e)]
    return [x]


# Python parameter names that differ from the ATen schema's.
_RENAMED = {"training": "train"}


def _drop_python_only(fn, args, kwargs):
    """The arguments of a ``torch.nn.functional`` function by name, without
    its Python-only parameters (``inplace``...), so that they bind to the
    ATen schema. Builtins (no Python signature) pass their arguments as
    the schema lays them out."""
    try:
        sig = inspect.signature(fn)
        bound = sig.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    out = {}
    for name, v in bound.arguments.items():
        p = sig.parameters[name]
        if name in _DROPPED:
            if name == "return_indices" and v:
                raise Unsupported("return_indices is not supported")
            continue
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            return args, kwargs
        out[_RENAMED.get(name, name)] = v
    return (), out


# ---------------------------------------------------------------------------
# Tensor indexing: x[0], x[:, 1:3], x[..., None], x[idx]
# ---------------------------------------------------------------------------

def _check_index(index) -> Optional[str]:
    items = index if isinstance(index, tuple) else (index,)
    tensors = [i for i in items if isinstance(i, Value)]
    if len(tensors) > 1:
        return "indexing with more than one index tensor is not supported"
    if tensors and tensors[0].dtype == torch.bool:
        return "boolean-mask indexing has a data-dependent shape"
    return None


def _tensor_getitem(ctx, x: Value, index) -> Value:
    """Python indexing of a tensor with ints, slices, None, Ellipsis and at
    most one index tensor, as select/slice/reshape/gather ops."""
    items = list(index) if isinstance(index, tuple) else [index]
    n_real = sum(1 for i in items if i is not None and i is not Ellipsis)
    if Ellipsis in items:
        k = items.index(Ellipsis)
        items[k:k + 1] = [slice(None)] * (x.rank - n_real)
    dim = 0
    for it in items:
        if it is None:
            x = ctx.reshape_dims(x, list(x.shape[:dim]) + [1] + list(x.shape[dim:]))
            dim += 1
        elif isinstance(it, bool):
            raise Unsupported("boolean index")
        elif isinstance(it, int):
            x = ctx.take(x, dim, it)
        elif isinstance(it, slice):
            n = x.shape[dim]
            if n is not None:
                start, stop, step = it.indices(n)
                if step < 1:
                    raise Unsupported("negative slice steps are not supported")
                x = ctx.slice_axis(x, dim, start, max(start, stop), step)
            elif not (it.start in (None, 0) and it.stop is None and it.step in (None, 1)):
                raise Unsupported("slicing a dynamic dim is only supported as a full slice")
            dim += 1
        elif isinstance(it, Value):
            if it.dtype == torch.bool:
                raise Unsupported("boolean-mask indexing has a data-dependent shape")
            x = ctx.b.gather(x, it, dim)
            dim += it.rank
        else:
            raise Unsupported(f"index of type {type(it).__name__}")
    return x
