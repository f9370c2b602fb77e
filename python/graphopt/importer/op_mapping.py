"""ATen op -> ``graph`` dialect mappings, shared by both importers.

Each mapping is a function ``fn(ctx, a)`` registered with :func:`op` under
ATen names (``"aten.add.Tensor"``, or ``"aten.add"`` for every overload).
``a`` holds the op's arguments bound to the ATen schema by name (``a.self``,
``a.other``, ``a.alpha``, defaults filled in), whether they came from an FX
node (``torch.export``) or a TorchScript node: the importers only translate
their graphs into calls of these functions.

Argument values are :class:`~.emitter.Value` for tensors (and for run-time
TorchScript scalars, as rank-0 "weak" tensors), Python numbers, lists,
``None``, dtypes, strings, or :class:`SymInt` for a dynamic size under
``torch.export``. A mapping returns a ``Value``, a Python value, or a
tuple/list of them for multi-result ops. It raises
:class:`~.errors.Unsupported` for what it cannot express; a ``check``
function registered with it finds such cases before anything is emitted so
that the importers can report every problem of a model at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch

from .emitter import (INT_DTYPES, FunctionBuilder, TensorType,
                      Value, is_float, mlir_element_type)
from .errors import Unsupported

# c10::ScalarType codes, as TorchScript passes dtypes.
_SCALAR_TYPES = {
    0: torch.uint8, 1: torch.int8, 2: torch.int16, 3: torch.int32,
    4: torch.int64, 5: torch.float16, 6: torch.float32, 7: torch.float64,
    9: torch.complex64, 10: torch.complex128, 11: torch.bool,
    15: torch.bfloat16,
}

#: Output numel up to which ops on import-time constants are evaluated in
#: Python (creation ops such as ``arange`` are always evaluated).
FOLD_LIMIT = 1 << 16


# ---------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------

@dataclass
class OpDef:
    """A registered mapping."""

    fn: Callable[["Context", "Args"], Any]
    #: ``check(a) -> reason or None``: finds unsupported attribute values.
    #: The importers run it over the whole graph before emitting (and
    #: :func:`emit_op` again before each emission). Tensor arguments are
    #: Values whose type may be None (not known at that point).
    check: Optional[Callable[["Args"], Optional[str]]] = None
    #: Whether the op may be evaluated in Python when its inputs are
    #: constants (false for ops whose result is not a pure function).
    foldable: bool = True


_REGISTRY: Dict[str, OpDef] = {}


def op(*names: str, check=None, foldable: bool = True):
    """Registers a mapping under ATen names: ``"aten.add.Tensor"`` (one
    overload) or ``"aten.add"`` (all overloads not registered separately)."""
    def deco(fn):
        for n in names:
            assert n not in _REGISTRY, f"{n} registered twice"
            _REGISTRY[n] = OpDef(fn, check, foldable)
        return fn
    return deco


def lookup(qualname: str) -> Optional[OpDef]:
    """The mapping for ``aten.name.overload``, falling back to ``aten.name``."""
    if qualname in _REGISTRY:
        return _REGISTRY[qualname]
    packet = qualname.rsplit(".", 1)[0] if qualname.count(".") >= 2 else qualname
    return _REGISTRY.get(packet)


def supported_ops() -> List[str]:
    """The registered ATen names, sorted."""
    return sorted(_REGISTRY)


def qualified_name(schema) -> str:
    """``aten.add.Tensor`` for a ``torch._C.FunctionSchema``."""
    return f"{schema.name.replace('::', '.')}.{schema.overload_name or 'default'}"


def resolve_overload(qualname: str):
    """The ``torch.ops`` OpOverload for ``aten.add.Tensor``."""
    ns, name, overload = qualname.split(".", 2)
    return getattr(getattr(getattr(torch.ops, ns), name), overload)


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------

class Args:
    """Op arguments by schema name: ``a.self``, ``a.get("dim", 0)``."""

    def __init__(self, values: Dict[str, Any], schema=None,
                 out_types: Optional[List[Optional[TensorType]]] = None):
        self._values = values
        self.schema = schema
        #: The result types the source graph states (FX ``meta["val"]``),
        #: when known; used where arguments alone are not enough (a view
        #: with several symbolic sizes).
        self.out_types = out_types

    def __getattr__(self, name: str):
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(f"op has no argument {name!r}") from None

    def get(self, name: str, default=None):
        v = self._values.get(name, default)
        return default if v is None else v

    def __contains__(self, name: str) -> bool:
        return name in self._values

    def items(self):
        return self._values.items()

    def first(self, *names: str):
        """The first of ``names`` the schema has (ops name the same thing
        differently across overloads: ``self`` vs ``a``)."""
        for n in names:
            if n in self._values:
                return self._values[n]
        raise AttributeError(f"op has none of the arguments {names}")


def bind(schema, args: Sequence[Any], kwargs: Dict[str, Any],
         out_types: Optional[List[Optional[TensorType]]] = None) -> Args:
    """Binds positional and keyword arguments to ``schema``'s argument
    names, filling defaults. TorchScript passes every argument positionally,
    FX passes keyword-only ones as kwargs; both work."""
    values: Dict[str, Any] = {}
    params = list(schema.arguments)
    if len(args) > len(params):
        raise Unsupported(f"too many arguments for {schema.name}")
    for p, v in zip(params, args):
        values[p.name] = v
    for k, v in kwargs.items():
        values[k] = v
    for p in params:
        if p.name not in values:
            values[p.name] = p.default_value if p.has_default_value() else None
    return Args(values, schema, out_types)


# ---------------------------------------------------------------------------
# Symbolic sizes
# ---------------------------------------------------------------------------

@dataclass(eq=False)
class SymInt:
    """A run-time integer known only symbolically: a dynamic dim size
    (``torch.export`` SymInt). ``source`` is ``(value, axis)`` when it is
    the size of a dim of an imported tensor."""

    expr: str
    source: Optional[Tuple[Value, int]] = None

    def __repr__(self) -> str:
        return f"SymInt({self.expr})"


def is_static_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# ---------------------------------------------------------------------------
# Type promotion (torch semantics)
# ---------------------------------------------------------------------------

def _category(dtype: torch.dtype) -> int:
    if dtype == torch.bool:
        return 0
    if dtype.is_floating_point:
        return 2
    return 1


def _python_dtype(x) -> torch.dtype:
    if isinstance(x, bool):
        return torch.bool
    if isinstance(x, (int, SymInt)):
        return torch.int64
    if isinstance(x, float):
        return torch.get_default_dtype()
    raise Unsupported(f"expected a tensor or a number, got {x!r}")


def result_dtype(*xs, int_to_float: bool = False) -> torch.dtype:
    """torch's result dtype for an elementwise op on ``xs`` (Values and
    Python numbers): dimensioned tensors outrank zero-dim tensors, which
    outrank scalars, unless a lower rank has a higher category
    (bool < int < float). ``int_to_float`` makes an integral result the
    default float dtype (true division, ``exp`` of ints)."""
    levels: List[Optional[torch.dtype]] = [None, None, None]
    for x in xs:
        if x is None:
            continue
        if isinstance(x, Value):
            lvl = 2 if x.weak else (1 if x.rank == 0 else 0)
            dt = x.dtype
            if x.weak:  # a scalar: only its category matters
                dt = {0: torch.bool, 1: torch.int64,
                      2: torch.get_default_dtype()}[_category(dt)]
        else:
            lvl, dt = 2, _python_dtype(x)
        levels[lvl] = dt if levels[lvl] is None else torch.promote_types(levels[lvl], dt)
    result = None
    for dt in levels:
        if dt is None:
            continue
        if result is None or _category(dt) > _category(result):
            result = dt
    if result is None:
        raise Unsupported("no operands")
    if int_to_float and not result.is_floating_point:
        result = torch.get_default_dtype()
    return result


# ---------------------------------------------------------------------------
# The emission context
# ---------------------------------------------------------------------------

class Context:
    """What mappings use to emit ops: the builder ``b`` and conversions of
    argument values."""

    def __init__(self, builder: FunctionBuilder):
        self.b = builder

    # -- argument conversions ----------------------------------------------

    def tensor(self, x, dtype: Optional[torch.dtype] = None) -> Value:
        """``x`` as a tensor Value of ``dtype`` (cast if needed). Python
        numbers become rank-0 constants; a SymInt its run-time value."""
        if isinstance(x, Value):
            return self.b.cast(x, dtype) if dtype is not None else x
        if isinstance(x, SymInt):
            return self.b.cast(self.sym_value(x), dtype or torch.int64)
        if isinstance(x, torch.Tensor):
            v = to_graph_value(self, x)
            return self.b.cast(v, dtype) if dtype is not None else v
        if isinstance(x, (bool, int, float)):
            dt = dtype or _python_dtype(x)
            if dt == torch.bool:
                x = bool(x)
            elif not dt.is_floating_point:
                if isinstance(x, float) and not x.is_integer():
                    raise Unsupported(f"cannot represent {x} as {dt}")
                x = int(x)
            return self.b.scalar(x, dt)
        if x is None:
            raise Unsupported("a required tensor is not available (None, or an "
                              "unsupported secondary result of an op)")
        raise Unsupported(f"expected a tensor, got {type(x).__name__}")

    def int_(self, x, what: str = "argument") -> int:
        """A compile-time int (a static size); raises Unsupported for a
        run-time value."""
        if isinstance(x, Value) and x.const is not None and x.rank == 0:
            return int(x.const.item())
        if is_static_int(x) or isinstance(x, bool):
            return int(x)
        raise Unsupported(f"{what} must be a compile-time constant int, got "
                          f"a run-time value")

    def ints(self, xs, n: Optional[int] = None, what: str = "argument") -> List[int]:
        """A list of compile-time ints (an int is repeated ``n`` times)."""
        if not isinstance(xs, (list, tuple)):
            xs = [xs] * (n or 1)
        out = [self.int_(x, what) for x in xs]
        if n is not None and len(out) == 1 and n > 1:
            out = out * n
        return out

    def float_(self, x, what: str = "argument") -> float:
        if isinstance(x, Value) and x.const is not None and x.rank == 0:
            return float(x.const.item())
        if isinstance(x, (bool, int, float)):
            return float(x)
        raise Unsupported(f"{what} must be a compile-time constant number")

    @staticmethod
    def dtype(x) -> Optional[torch.dtype]:
        """A dtype argument (TorchScript passes ScalarType codes)."""
        if x is None or isinstance(x, torch.dtype):
            return x
        if is_static_int(x) and x in _SCALAR_TYPES:
            return _SCALAR_TYPES[x]
        raise Unsupported(f"unknown dtype {x!r}")

    # -- sizes ----------------------------------------------------------------

    def sym_value(self, s: SymInt) -> Value:
        """The run-time value of a dynamic size as a rank-0 i64 tensor."""
        if s.source is None:
            raise Unsupported(f"the symbolic size {s.expr} is not a dim of an "
                              "input; it cannot be computed at run time")
        return self.dim_size(*s.source)

    def dim_size(self, x: Value, axis: int) -> Value:
        """``x.shape[axis]`` as a rank-0 i64 tensor (a constant when static;
        otherwise counted at run time with a reduction)."""
        if x.shape[axis] is not None:
            return self.b.scalar(x.shape[axis], torch.int64)
        b = self.b
        ones = b.select(b.scalar(True, torch.bool), b.scalar(1, torch.int64),
                        b.cast(x, torch.int64))
        others = [i for i in range(x.rank) if i != axis]
        vec = b.reduce("max", ones, others) if others else ones
        return b.reduce("sum", vec, [0])

    def full(self, shape: Sequence, value, dtype: torch.dtype) -> Value:
        """A tensor of ``shape`` filled with ``value``: a constant when the
        shape is static; a dynamic dim (SymInt with a source) is taken from
        its source tensor."""
        static = [d if is_static_int(d) else 1 for d in shape]
        base = self.b.constant(torch.full(static, value, dtype=dtype))
        for k, d in enumerate(shape):
            if is_static_int(d):
                continue
            if not isinstance(d, SymInt) or d.source is None:
                raise Unsupported(f"size {d!r} must be a constant or a dim of "
                                  "an input")
            src, axis = d.source
            others = [i for i in range(src.rank) if i != axis]
            vec = src if src.dtype != torch.bool else self.b.cast(src, torch.int32)
            vec = self.b.reduce("max", vec, others) if others else vec
            shaped = self.b.reshape(vec, [-1 if i == k else 1 for i in range(len(shape))])
            # Values come from `base`; `shaped` only contributes its size.
            base = self.b.select(self.b.scalar(False, torch.bool),
                                 self.b.cast(shaped, dtype), base)
        return base

    # -- common emission helpers ---------------------------------------------

    def promote(self, *xs, int_to_float: bool = False,
                dtype: Optional[torch.dtype] = None) -> List[Value]:
        """``xs`` as Values of their common (torch-promoted) dtype."""
        dt = dtype or result_dtype(*xs, int_to_float=int_to_float)
        return [self.tensor(x, dt) for x in xs]

    def same_dtype(self, what: str, *xs) -> List[Value]:
        """``xs`` as Values, which must share one dtype: torch's matrix
        products do not promote (eager raises), so neither do we."""
        vals = [self.tensor(x) for x in xs]
        dtypes = {v.dtype for v in vals}
        if len(dtypes) > 1:
            names = " and ".join(str(v.dtype).replace("torch.", "") for v in vals)
            raise Unsupported(f"{what} of {names}: the operands must have the "
                              "same dtype (as in eager PyTorch); cast one of them")
        return vals

    def to_float(self, x: Value) -> Value:
        """Integral tensors as the default float dtype (what torch's float
        functions do with them)."""
        return x if is_float(x.dtype) else self.b.cast(x, torch.get_default_dtype())

    def to_bool(self, x) -> Value:
        x = self.tensor(x)
        if x.dtype == torch.bool:
            return x
        return self.b.compare("ne", x, self.b.scalar(0, x.dtype))

    def reshape_dims(self, x: Value, dims: Sequence) -> Value:
        """Reshape to ``dims`` (ints, None for a dynamic dim)."""
        return self.b.reshape_to(x, [d if is_static_int(d) else None for d in dims])

    def take(self, x: Value, axis: int, index: int) -> Value:
        """``x`` indexed by an int along ``axis`` (the axis is removed)."""
        n = x.shape[axis]
        if n is not None:
            index = index + n if index < 0 else index
            if not 0 <= index < n:
                raise Unsupported(f"index {index} is out of range for size {n}")
        elif index < 0:
            raise Unsupported("negative index into a dynamic dim")
        if x.type.is_static:
            start = [0] * x.rank
            limit = list(x.shape)
            start[axis], limit[axis] = index, index + 1
            s = self.b.slice(x, start, limit, [1] * x.rank)
            return self.b.reshape(s, [d for i, d in enumerate(x.shape) if i != axis])
        return self.b.gather(x, self.b.scalar(index, torch.int64, weak=False), axis)

    def slice_axis(self, x: Value, axis: int, start: int, end: int, step: int = 1) -> Value:
        """``x[..., start:end:step, ...]`` along ``axis`` with normalized,
        in-range bounds."""
        n = x.shape[axis]
        if n is not None and start == 0 and end >= n and step == 1:
            return x
        if all(d is not None for i, d in enumerate(x.shape) if i != axis) and n is not None:
            st = [0] * x.rank
            lim = list(x.shape)
            sp = [1] * x.rank
            st[axis], lim[axis], sp[axis] = start, max(start, end), step
            return self.b.slice(x, st, lim, sp)
        if n is None:
            raise Unsupported("slicing a dynamic dim is only supported as a "
                              "full slice")
        idx = self.b.constant(torch.arange(start, max(start, end), step, dtype=torch.int64))
        return self.b.gather(x, idx, axis)

    def reduce_all_axes(self, x: Value, dims, keepdim: bool) -> List[int]:
        if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
            return list(range(x.rank))
        return [norm_dim(d, x.rank) for d in self.ints(dims, what="dim")]


def norm_dim(d: int, rank: int) -> int:
    """A possibly negative dim index in ``[0, rank)``."""
    d = int(d)
    r = max(rank, 1)
    if not -r <= d < r:
        raise Unsupported(f"dim {d} is out of range for rank {rank}")
    return d + r if d < 0 else d


def _t(a: Args):
    """The main tensor argument, whatever the overload calls it."""
    return a.first("self", "input", "a")


# ---------------------------------------------------------------------------
# Identities, no-ops
# ---------------------------------------------------------------------------

def _check_eval(flag_name: str, what: str):
    def check(a: Args) -> Optional[str]:
        if a.get(flag_name) is True:
            return f"{what} in training mode is not supported (call model.eval())"
        return None
    return check


@op("aten.contiguous", "aten.clone", "aten.alias", "aten.detach", "aten.detach_",
    "aten.lift_fresh_copy", "aten.lift_fresh", "aten.lift", "aten.resolve_conj",
    "aten.resolve_neg", "aten.positive")
def _identity(ctx, a):
    return _t(a)


@op("aten.dropout", "aten.feature_dropout", "aten.alpha_dropout",
    "aten.feature_alpha_dropout", check=_check_eval("train", "dropout"))
def _dropout(ctx, a):
    return a.input


@op("aten._assert_tensor_metadata", "aten._assert_scalar", "aten._assert_async",
    "aten.sym_constrain_range_for_size", "aten.sym_constrain_range",
    "aten._functional_assert_async")
def _no_op(ctx, a):
    return None


# ---------------------------------------------------------------------------
# Elementwise arithmetic
# ---------------------------------------------------------------------------

def _scaled(ctx, x, alpha):
    """``x * alpha`` (alpha a Python number or run-time scalar)."""
    if alpha is None or (not isinstance(alpha, Value) and alpha == 1):
        return x
    if not isinstance(x, Value) and not isinstance(alpha, Value):
        return x * alpha
    xv, av = ctx.promote(x, alpha)
    return ctx.b.binary("mul", xv, av)


def _lhs_rhs(a: Args):
    if "other" in a:
        return _t(a), a.other
    return a.first("self", "a"), a.first("b")


@op("aten.add")
def _add(ctx, a):
    x, y = _lhs_rhs(a)
    lhs, rhs = ctx.promote(x, _scaled(ctx, y, a.get("alpha")))
    return ctx.b.binary("add", lhs, rhs)


@op("aten.sub")
def _sub(ctx, a):
    x, y = _lhs_rhs(a)
    lhs, rhs = ctx.promote(x, _scaled(ctx, y, a.get("alpha")))
    return ctx.b.binary("sub", lhs, rhs)


@op("aten.rsub")
def _rsub(ctx, a):
    lhs, rhs = ctx.promote(a.other, _scaled(ctx, a.self, a.get("alpha")))
    return ctx.b.binary("sub", lhs, rhs)


@op("aten.mul")
def _mul(ctx, a):
    x, y = _lhs_rhs(a)
    dt = result_dtype(x, y)
    if dt == torch.bool:  # logical and
        return ctx.b.select(ctx.to_bool(x), ctx.to_bool(y), ctx.b.scalar(False, torch.bool))
    return ctx.b.binary("mul", *ctx.promote(x, y, dtype=dt))


def _check_div(a: Args) -> Optional[str]:
    mode = a.get("rounding_mode")
    if mode is None:
        return None
    if mode not in ("trunc", "floor"):
        return f"rounding_mode {mode!r} is not supported"
    for x in (_lhs_rhs(a)):
        if isinstance(x, Value) and x.type is not None and is_float(x.dtype):
            return f"division with rounding_mode={mode!r} of float tensors is not supported"
        if isinstance(x, float):
            return f"division with rounding_mode={mode!r} of float values is not supported"
    return None


@op("aten.div", "aten.true_divide", check=_check_div)
def _div(ctx, a):
    x, y = _lhs_rhs(a)
    mode = a.get("rounding_mode")
    if mode is None:
        return ctx.b.binary("div", *ctx.promote(x, y, int_to_float=True))
    lhs, rhs = ctx.promote(x, y)
    if is_float(lhs.dtype):
        raise Unsupported(f"division with rounding_mode={mode!r} of float tensors "
                          "is not supported")
    return ctx.b.binary("div", lhs, rhs) if mode == "trunc" else _floor_div_int(ctx, lhs, rhs)


def _floor_div_int(ctx, lhs: Value, rhs: Value) -> Value:
    """Integer floor division from the dialect's truncating division."""
    b = ctx.b
    q = b.binary("div", lhs, rhs)
    r = b.binary("sub", lhs, b.binary("mul", q, rhs))
    zero = b.scalar(0, lhs.dtype)
    inexact = b.compare("ne", r, zero)
    signs_differ = b.compare("ne", b.compare("lt", r, zero), b.compare("lt", rhs, zero))
    adjust = b.select(inexact, signs_differ, b.scalar(False, torch.bool))
    return b.binary("sub", q, b.cast(adjust, lhs.dtype))


@op("aten.floor_divide", "aten.floordiv", check=lambda a: _check_div(
    Args({**dict(a.items()), "rounding_mode": "floor"})))
def _floor_divide(ctx, a):
    x, y = _lhs_rhs(a)
    lhs, rhs = ctx.promote(x, y)
    if is_float(lhs.dtype):
        raise Unsupported("floor division of float tensors is not supported")
    return _floor_div_int(ctx, lhs, rhs)


@op("aten.remainder", "aten.fmod")
def _remainder(ctx, a):
    """Integer ``a % b`` (Python's sign convention for remainder, C's for
    fmod)."""
    x, y = _lhs_rhs(a)
    lhs, rhs = ctx.promote(x, y)
    if is_float(lhs.dtype):
        raise Unsupported("remainder of float values is not supported")
    b = ctx.b
    q = _floor_div_int(ctx, lhs, rhs) if a.schema is None or \
        "remainder" in a.schema.name else b.binary("div", lhs, rhs)
    return b.binary("sub", lhs, b.binary("mul", q, rhs))


@op("aten.neg")
def _neg(ctx, a):
    x = ctx.tensor(_t(a))
    if x.dtype == torch.bool:
        raise Unsupported("negation of a bool tensor")
    return ctx.b.unary("neg", x)


@op("aten.abs")
def _abs(ctx, a):
    return ctx.b.unary("abs", ctx.tensor(_t(a)))


@op("aten.reciprocal")
def _reciprocal(ctx, a):
    x = ctx.to_float(ctx.tensor(_t(a)))
    return ctx.b.binary("div", ctx.b.scalar(1.0, x.dtype), x)


@op("aten.square")
def _square(ctx, a):
    x = ctx.tensor(_t(a))
    if x.dtype == torch.bool:
        x = ctx.b.cast(x, torch.int64)
    return ctx.b.binary("mul", x, x)


def _float_unary(name: str):
    def fn(ctx, a):
        return ctx.b.unary(name, ctx.to_float(ctx.tensor(_t(a))))
    return fn


for _name in ("exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "erf",
              "hardswish", "hardsigmoid", "silu"):
    op(f"aten.{_name}")(_float_unary(_name))


@op("aten.elu", "aten.celu", "aten.selu")
def _elu(ctx, a):
    """elu: x > 0 ? scale * x : scale * alpha * (exp(x / input_scale) - 1)."""
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    name = a.schema.name.split("::")[-1]
    if name == "selu":
        alpha, scale, in_scale = 1.6732632423543772, 1.0507009873554805, 1.0
    else:
        alpha = ctx.float_(a.get("alpha", 1.0), "alpha")
        scale = ctx.float_(a.get("scale", 1.0), "scale")
        in_scale = ctx.float_(a.get("input_scale", 1.0), "input_scale")
        if name == "celu":
            in_scale = 1.0 / alpha
    s = lambda v: b.scalar(v, x.dtype)
    xs = b.binary("mul", x, s(in_scale)) if in_scale != 1.0 else x
    neg = b.binary("mul", b.binary("sub", b.unary("exp", xs), s(1.0)), s(alpha))
    y = b.select(b.compare("gt", x, s(0.0)), x, neg)
    return b.binary("mul", y, s(scale)) if scale != 1.0 else y


def _softplus_value(ctx, x: Value, beta: float, threshold: float) -> Value:
    b = ctx.b
    s = lambda v: b.scalar(v, x.dtype)
    bx = b.binary("mul", x, s(beta)) if beta != 1.0 else x
    # log(1 + exp(bx)) = max(bx, 0) + log(1 + exp(-|bx|)), without overflow.
    tail = b.unary("exp", b.unary("neg", b.unary("abs", bx)))
    soft = b.binary("add", b.unary("relu", bx),
                    b.unary("log", b.binary("add", s(1.0), tail)))
    if beta != 1.0:
        soft = b.binary("div", soft, s(beta))
    return b.select(b.compare("gt", bx, s(threshold)), x, soft)


@op("aten.softplus")
def _softplus(ctx, a):
    x = ctx.to_float(ctx.tensor(a.self))
    return _softplus_value(ctx, x, ctx.float_(a.get("beta", 1.0), "beta"),
                           ctx.float_(a.get("threshold", 20.0), "threshold"))


@op("aten.mish")
def _mish(ctx, a):
    x = ctx.to_float(ctx.tensor(a.self))
    return ctx.b.binary("mul", x, ctx.b.unary("tanh", _softplus_value(ctx, x, 1.0, 20.0)))


@op("aten.prelu", "aten._prelu_kernel")
def _prelu(ctx, a):
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    w = ctx.tensor(a.weight, x.dtype)
    if w.rank == 1 and w.shape[0] != 1 and x.rank >= 2:
        w = b.reshape(w, [w.shape[0]] + [1] * (x.rank - 2))  # per channel (dim 1)
    return b.select(b.compare("gt", x, b.scalar(0.0, x.dtype)), x, b.binary("mul", w, x))


@op("aten.addcmul", "aten.addcdiv")
def _addcmul(ctx, a):
    kind = "mul" if a.schema.name.endswith("addcmul") else "div"
    x, t1, t2 = ctx.promote(a.self, a.tensor1, a.tensor2,
                            int_to_float=kind == "div")
    prod = ctx.b.binary(kind, t1, t2)
    return ctx.b.binary("add", x, _scaled(ctx, prod, a.get("value", 1)))


@op("aten.lerp")
def _lerp(ctx, a):
    x, end = ctx.promote(a.self, a.end)
    w = ctx.tensor(a.weight, x.dtype)
    return ctx.b.binary("add", x, ctx.b.binary("mul", w, ctx.b.binary("sub", end, x)))


@op("aten.relu")
def _relu(ctx, a):
    return ctx.b.unary("relu", ctx.tensor(_t(a)))


@op("aten.gelu", check=lambda a: None if a.get("approximate", "none") in ("none", "tanh")
    else f"gelu approximate={a.approximate!r} is not supported")
def _gelu(ctx, a):
    return ctx.b.gelu(ctx.to_float(ctx.tensor(a.self)), a.get("approximate", "none"))


@op("aten.leaky_relu")
def _leaky_relu(ctx, a):
    slope = ctx.float_(a.get("negative_slope", 0.01), "negative_slope")
    return ctx.b.unary("leaky_relu", ctx.to_float(ctx.tensor(a.self)), {"alpha": slope})


def _clamp(ctx, x: Value, lo, hi) -> Value:
    """clamp with constant or tensor bounds."""
    b = ctx.b
    const = lambda v: v is None or isinstance(v, (int, float)) or (
        isinstance(v, Value) and v.const is not None and v.rank == 0)
    if const(lo) and const(hi):
        lo_f = None if lo is None else ctx.float_(lo)
        hi_f = None if hi is None else ctx.float_(hi)
        if lo_f is None and hi_f is None:
            return x
        if not is_float(x.dtype) and any(
                v is not None and not float(v).is_integer() for v in (lo_f, hi_f)):
            x = ctx.to_float(x)
        return b.unary("clamp", x, {"min": lo_f, "max": hi_f})
    dt = result_dtype(x, *(v for v in (lo, hi) if v is not None))
    x = ctx.tensor(x, dt)
    if lo is not None:
        x = b.binary("max", x, ctx.tensor(lo, dt))
    if hi is not None:
        x = b.binary("min", x, ctx.tensor(hi, dt))
    return x


@op("aten.clamp", "aten.clip")
def _clamp_op(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), a.get("min"), a.get("max"))


@op("aten.clamp_min")
def _clamp_min(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), a.min, None)


@op("aten.clamp_max")
def _clamp_max(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), None, a.max)


@op("aten.hardtanh")
def _hardtanh(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), a.get("min_val", -1.0), a.get("max_val", 1.0))


@op("aten.relu6")
def _relu6(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), 0.0, 6.0)


def _pow_int_check(a: Args) -> Optional[str]:
    x = a.get("self")
    e = a.get("exponent")
    if isinstance(x, Value) and x.type is not None and not is_float(x.dtype) \
            and not (isinstance(e, (int, float)) and e in (1, 2)) and \
            not (isinstance(e, Value) and e.type is not None and is_float(e.dtype)) \
            and not isinstance(e, float):
        return "integer pow is not supported (graph.pow takes floats)"
    return None


@op("aten.pow", check=_pow_int_check)
def _pow(ctx, a):
    b = ctx.b
    x, e = a.self, a.exponent
    if isinstance(x, Value) and isinstance(e, (int, float)) and not isinstance(e, bool):
        dt = result_dtype(x, e)
        x = ctx.tensor(x, dt)
        if e == 1:
            return x
        if e == 2:
            return b.binary("mul", x, x)
        if e == 0.5 and is_float(dt):
            return b.unary("sqrt", x)
        if e == -0.5 and is_float(dt):
            return b.unary("rsqrt", x)
    lhs, rhs = ctx.promote(x, e)
    if not is_float(lhs.dtype):
        raise Unsupported("integer pow is not supported (graph.pow takes floats)")
    return b.binary("pow", lhs, rhs)


@op("aten.maximum", "aten.max.other", "aten.fmax")
def _maximum(ctx, a):
    return ctx.b.binary("max", *ctx.promote(a.self, a.other))


@op("aten.minimum", "aten.min.other", "aten.fmin")
def _minimum(ctx, a):
    return ctx.b.binary("min", *ctx.promote(a.self, a.other))


# ---------------------------------------------------------------------------
# Comparisons and logic
# ---------------------------------------------------------------------------

def _compare(direction: str):
    def fn(ctx, a):
        x, y = _lhs_rhs(a)
        lhs, rhs = ctx.promote(x, y)
        return ctx.b.compare(direction, lhs, rhs)
    return fn


for _name, _dir in (("eq", "eq"), ("ne", "ne"), ("lt", "lt"), ("le", "le"),
                    ("gt", "gt"), ("ge", "ge"), ("greater", "gt"), ("less", "lt"),
                    ("greater_equal", "ge"), ("less_equal", "le"),
                    ("not_equal", "ne")):
    op(f"aten.{_name}")(_compare(_dir))


@op("aten.logical_not", "aten.__not__")
def _logical_not(ctx, a):
    x = ctx.tensor(a.first("self", "a"))
    return ctx.b.compare("eq", x, ctx.b.scalar(0 if x.dtype != torch.bool else False, x.dtype))


def _logical(kind: str, bitwise: bool):
    """``and``/``or``/``xor`` of bool tensors (the bitwise forms only for
    bools, where they are the logical ones)."""
    def fn(ctx, a):
        x, y = _lhs_rhs(a)
        if bitwise and result_dtype(x, y) != torch.bool:
            raise Unsupported("bitwise ops on integer tensors are not supported")
        p, q = ctx.to_bool(x), ctx.to_bool(y)
        if kind == "and":
            return ctx.b.select(p, q, ctx.b.scalar(False, torch.bool))
        if kind == "or":
            return ctx.b.select(p, ctx.b.scalar(True, torch.bool), q)
        return ctx.b.compare("ne", p, q)
    return fn


for _name in ("and", "or", "xor"):
    op(f"aten.logical_{_name}")(_logical(_name, bitwise=False))
    op(f"aten.bitwise_{_name}", f"aten.__{_name}__")(_logical(_name, bitwise=True))


@op("aten.bitwise_not")
def _bitwise_not(ctx, a):
    x = ctx.tensor(a.self)
    if x.dtype == torch.bool:
        return ctx.b.compare("eq", x, ctx.b.scalar(False, torch.bool))
    # ~x == -x - 1 in two's complement.
    return ctx.b.binary("sub", ctx.b.unary("neg", x), ctx.b.scalar(1, x.dtype))


@op("aten.where")
def _where(ctx, a):
    if "other" not in a:
        raise Unsupported("where(condition) (nonzero) has a data-dependent shape")
    on_true, on_false = ctx.promote(a.self, a.other)
    return ctx.b.select(ctx.to_bool(a.condition), on_true, on_false)


@op("aten.masked_fill")
def _masked_fill(ctx, a):
    x = ctx.tensor(a.self)
    return ctx.b.select(ctx.to_bool(a.mask), ctx.tensor(a.value, x.dtype), x)


# ---------------------------------------------------------------------------
# Casts
# ---------------------------------------------------------------------------

@op("aten.to", "aten._to_copy", "aten.type_as", "aten._cast_Float")
def _to(ctx, a):
    x = ctx.tensor(_t(a))
    dtype = ctx.dtype(a.get("dtype"))
    if dtype is None and isinstance(a.get("other"), Value):
        dtype = a.other.dtype
    if dtype is None:
        return x
    mlir_element_type(dtype)
    return ctx.b.cast(x, dtype)


# ---------------------------------------------------------------------------
# Matrix products
# ---------------------------------------------------------------------------

@op("aten.matmul", "aten.mm", "aten.bmm")
def _matmul(ctx, a):
    lhs, rhs = ctx.same_dtype("matmul", a.self, a.first("other", "mat2"))
    return ctx.b.matmul(lhs, rhs)


@op("aten.linear")
def _linear(ctx, a):
    x, w = ctx.same_dtype("linear", a.input, a.weight)
    wt = ctx.b.transpose(w, [1, 0]) if w.rank == 2 else w
    y = ctx.b.matmul(x, wt)
    if a.get("bias") is not None:
        y = ctx.b.binary("add", y, ctx.tensor(a.bias, y.dtype))
    return y


@op("aten.addmm")
def _addmm(ctx, a):
    m1, m2 = ctx.same_dtype("addmm", a.mat1, a.mat2)
    y = _scaled(ctx, ctx.b.matmul(m1, m2), a.get("alpha", 1))
    bias = _scaled(ctx, ctx.tensor(a.self, y.dtype), a.get("beta", 1))
    return ctx.b.binary("add", y, bias)


@op("aten.t", "aten.numpy_T")
def _t_op(ctx, a):
    x = ctx.tensor(a.self)
    return x if x.rank < 2 else ctx.b.transpose(x, list(range(x.rank))[::-1])


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------

def _size_list(ctx, x: Value, sizes) -> List[Optional[int]]:
    """A view/reshape size list: ints (one may be -1); symbolic entries
    become dynamic (None)."""
    out = []
    for s in sizes:
        if isinstance(s, SymInt) or (isinstance(s, Value) and s.const is None):
            out.append(None)
        else:
            out.append(ctx.int_(s, "size"))
    return out


def _view_target(a: Args) -> Optional[List[Optional[int]]]:
    """The result shape the source graph states, if it has at most one
    dynamic dim (then it is a valid graph.reshape target)."""
    if a.out_types and a.out_types[0] is not None:
        shape = list(a.out_types[0].shape)
        if shape.count(None) <= 1:
            return shape
    return None


def _check_view(a: Args) -> Optional[str]:
    sizes = a.get("size", a.get("shape"))
    if isinstance(sizes, (list, tuple)) and _view_target(a) is None:
        n = sum(1 for s in sizes if not is_static_int(s) or s == -1)
        if n > 1:
            return ("reshape with more than one dynamic or -1 size "
                    f"({sizes}) is not supported: graph.reshape takes one -1")
    return None


@op("aten.view", "aten.reshape", "aten._unsafe_view", "aten._reshape_alias",
    check=_check_view)
def _view(ctx, a):
    x = ctx.tensor(a.self)
    sizes = a.get("size", a.get("shape"))
    if not isinstance(sizes, (list, tuple)):
        raise Unsupported("view with a dtype argument is not supported")
    dims = _size_list(ctx, x, sizes)
    if sum(1 for d in dims if d is None or d == -1) > 1 and _view_target(a):
        dims = _view_target(a)
    return ctx.b.reshape(x, [-1 if d is None else d for d in dims])


@op("aten.view_as", "aten.reshape_as")
def _view_as(ctx, a):
    return ctx.reshape_dims(ctx.tensor(a.self), a.other.shape)


@op("aten.flatten")
def _flatten(ctx, a):
    x = ctx.tensor(a.self)
    if x.rank == 0:
        return ctx.b.reshape(x, [1])
    s = norm_dim(a.get("start_dim", 0), x.rank)
    e = norm_dim(a.get("end_dim", -1), x.rank)
    mid = x.shape[s:e + 1]
    n = None if None in mid else math.prod(mid)
    return ctx.reshape_dims(x, list(x.shape[:s]) + [n] + list(x.shape[e + 1:]))


@op("aten.unflatten")
def _unflatten(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(a.dim, x.rank)
    sizes = ctx.ints(a.sizes, what="sizes")
    if -1 in sizes:
        n, rest = x.shape[d], math.prod(s for s in sizes if s != -1)
        sizes[sizes.index(-1)] = None if n is None else n // rest
    return ctx.reshape_dims(x, list(x.shape[:d]) + sizes + list(x.shape[d + 1:]))


@op("aten.squeeze")
def _squeeze(ctx, a):
    x = ctx.tensor(a.self)
    dims = a.get("dim")
    if dims is None:
        dims = list(range(x.rank))
    elif not isinstance(dims, (list, tuple)):
        dims = [dims]
    dims = {norm_dim(ctx.int_(d, "dim"), x.rank) for d in dims}
    keep = [s for i, s in enumerate(x.shape) if not (i in dims and s == 1)]
    return ctx.reshape_dims(x, keep)


@op("aten.unsqueeze")
def _unsqueeze(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.dim, "dim"), x.rank + 1)
    return ctx.reshape_dims(x, list(x.shape[:d]) + [1] + list(x.shape[d:]))


@op("aten.permute")
def _permute(ctx, a):
    x = ctx.tensor(a.self)
    return ctx.b.transpose(x, [norm_dim(d, x.rank) for d in ctx.ints(a.dims, what="dims")])


@op("aten.transpose", "aten.swapaxes", "aten.swapdims")
def _transpose(ctx, a):
    x = ctx.tensor(a.self)
    if x.rank < 2:
        return x
    i = norm_dim(ctx.int_(a.first("dim0", "axis0")), x.rank)
    j = norm_dim(ctx.int_(a.first("dim1", "axis1")), x.rank)
    perm = list(range(x.rank))
    perm[i], perm[j] = perm[j], perm[i]
    return ctx.b.transpose(x, perm)


def _broadcast(ctx, x: Value, sizes) -> Value:
    off = len(sizes) - x.rank
    shape = []
    for i, s in enumerate(sizes):
        aligned = x.shape[i - off] if i >= off else 1
        if isinstance(s, SymInt) or (isinstance(s, Value) and s.const is None):
            if i < off or aligned == 1:
                raise Unsupported("expanding to a dynamic size is only supported "
                                  "along a dim that is already dynamic")
            shape.append(-1)
        else:
            s = ctx.int_(s, "size")
            shape.append(-1 if (s == -1 or (aligned is None and i >= off)) else s)
    return ctx.b.broadcast_to(x, shape)


@op("aten.expand", "aten.broadcast_to")
def _expand(ctx, a):
    return _broadcast(ctx, ctx.tensor(a.self), a.size)


@op("aten.expand_as")
def _expand_as(ctx, a):
    other = ctx.tensor(a.other)
    x = ctx.tensor(a.self)
    off = other.rank - x.rank
    sizes = []
    for i, d in enumerate(other.shape):
        if d is None:
            if i < off or x.shape[i - off] == 1:
                raise Unsupported("expand_as to a dynamic dim")
            sizes.append(-1)
        else:
            sizes.append(d)
    return ctx.b.broadcast_to(x, sizes)


@op("aten.repeat")
def _repeat(ctx, a):
    x = ctx.tensor(a.self)
    reps = ctx.ints(a.repeats, what="repeats")
    x = ctx.reshape_dims(x, [1] * (len(reps) - x.rank) + list(x.shape))
    if None in x.shape:
        raise Unsupported("repeat of a tensor with dynamic dims")
    # [d0, d1] -> [r0, d0, r1, d1] by broadcasting, then merge the pairs.
    inter = []
    for r, d in zip(reps, x.shape):
        inter += [1, d]
    y = ctx.b.reshape(x, inter)
    target = []
    for r, d in zip(reps, x.shape):
        target += [r, d]
    y = ctx.b.broadcast_to(y, target)
    return ctx.b.reshape(y, [r * d for r, d in zip(reps, x.shape)])


@op("aten.cat", "aten.concat", "aten.concatenate")
def _cat(ctx, a):
    xs = [ctx.tensor(t) for t in a.tensors]
    # torch skips legacy empty 1-D tensors in cat.
    xs = [t for t in xs if not (t.rank == 1 and t.shape[0] == 0)] or xs[:1]
    xs = ctx.promote(*xs)
    return ctx.b.concat(xs, norm_dim(ctx.int_(a.get("dim", 0), "dim"), xs[0].rank))


@op("aten.stack")
def _stack(ctx, a):
    xs = ctx.promote(*[ctx.tensor(t) for t in a.tensors])
    d = norm_dim(ctx.int_(a.get("dim", 0), "dim"), xs[0].rank + 1)
    xs = [ctx.reshape_dims(t, list(t.shape[:d]) + [1] + list(t.shape[d:])) for t in xs]
    return ctx.b.concat(xs, d)


def _split_sizes(ctx, x: Value, d: int, sizes: List[int]) -> List[Value]:
    if x.shape[d] is None:
        raise Unsupported("splitting a dynamic dim is not supported")
    return ctx.b.split(x, d, sizes)


@op("aten.split", "aten.split_with_sizes", "aten.split_copy",
    "aten.split_with_sizes_copy")
def _split(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.get("dim", 0), "dim"), x.rank)
    size = a.get("split_size", a.get("split_sizes", a.get("split_size_or_sizes")))
    if isinstance(size, (list, tuple)):
        sizes = ctx.ints(size, what="split sizes")
    else:
        n, s = x.shape[d], ctx.int_(size, "split size")
        if n is None:
            raise Unsupported("splitting a dynamic dim is not supported")
        sizes = [s] * (n // s) + ([n % s] if n % s else [])
    return list(_split_sizes(ctx, x, d, sizes))


@op("aten.chunk")
def _chunk(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.get("dim", 0), "dim"), x.rank)
    n, chunks = x.shape[d], ctx.int_(a.chunks, "chunks")
    if n is None:
        raise Unsupported("chunk of a dynamic dim is not supported")
    size = -(-n // chunks)
    sizes = [size] * (n // size) + ([n % size] if n % size else [])
    return list(_split_sizes(ctx, x, d, sizes))


@op("aten.unbind")
def _unbind(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.get("dim", 0), "dim"), x.rank)
    if x.shape[d] is None:
        raise Unsupported("unbind of a dynamic dim is not supported")
    return [ctx.take(x, d, i) for i in range(x.shape[d])]


_BIG = 1 << 62


def _norm_bound(v, n: Optional[int], default: int) -> Optional[int]:
    if v is None:
        return default
    if isinstance(v, SymInt):
        return None  # only a full slice of a dynamic dim is supported
    v = int(v)
    if n is None:
        return v if v >= 0 else None
    if v < 0:
        v += n
    return min(max(v, 0), n)


@op("aten.slice", "aten.slice_copy")
def _slice(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.get("dim", 0), "dim"), x.rank)
    n = x.shape[d]
    step = ctx.int_(a.get("step", 1), "step")
    start = _norm_bound(a.get("start"), n, 0)
    end = a.get("end")
    if isinstance(end, SymInt) and n is None and end.source is not None \
            and end.source[0].shape[end.source[1]] is None:
        end = None  # x[:, :x.size(1)]-style full slice of a dynamic dim
    end = _norm_bound(end, n, _BIG if n is None else n)
    if start is None or end is None:
        raise Unsupported("slice bounds must be constants (negative bounds need "
                          "a static dim)")
    if n is None:
        if start == 0 and step == 1 and end >= _BIG // 2:
            return x
        raise Unsupported("slicing a dynamic dim is only supported as a full slice")
    return ctx.slice_axis(x, d, start, max(start, end), step)


@op("aten.narrow", "aten.narrow_copy")
def _narrow(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.dim, "dim"), x.rank)
    start = ctx.int_(a.start, "start")
    if start < 0:
        if x.shape[d] is None:
            raise Unsupported("negative narrow start on a dynamic dim")
        start += x.shape[d]
    return ctx.slice_axis(x, d, start, start + ctx.int_(a.length, "length"))


@op("aten.select", "aten.select_copy")
def _select(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.dim, "dim"), x.rank)
    idx = a.index
    if isinstance(idx, Value) and idx.const is None:
        return ctx.b.gather(x, ctx.tensor(idx, torch.int64), d)
    return ctx.take(x, d, ctx.int_(idx, "index"))


@op("aten.index_select")
def _index_select(ctx, a):
    x = ctx.tensor(a.self)
    idx = ctx.tensor(a.index)
    if idx.dtype not in INT_DTYPES:
        raise Unsupported(f"index_select with {idx.dtype} indices")
    return ctx.b.gather(x, idx, norm_dim(ctx.int_(a.dim, "dim"), x.rank))


@op("aten.embedding")
def _embedding(ctx, a):
    idx = ctx.tensor(a.indices)
    if idx.dtype not in INT_DTYPES:
        raise Unsupported(f"embedding with {idx.dtype} indices")
    return ctx.b.gather(ctx.tensor(a.weight), idx, 0)


def _check_index(a: Args) -> Optional[str]:
    idx = [i for i in (a.get("indices") or []) if i is not None]
    if len(idx) != 1:
        return "advanced indexing with more than one index tensor is not supported"
    i = idx[0]
    if isinstance(i, Value) and i.type is not None and i.dtype == torch.bool:
        return "boolean-mask indexing has a data-dependent shape"
    return None


@op("aten.index", check=_check_index)
def _index(ctx, a):
    x = ctx.tensor(a.self)
    indices = list(a.indices)
    k = next(i for i, t in enumerate(indices) if t is not None)
    idx = ctx.tensor(indices[k])
    if idx.dtype == torch.bool:
        raise Unsupported("boolean-mask indexing has a data-dependent shape")
    return ctx.b.gather(x, ctx.tensor(idx), k)


# ---------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------

def _sum_input(ctx, x: Value, dtype) -> Value:
    dtype = ctx.dtype(dtype)
    if dtype is not None:
        return ctx.b.cast(x, dtype)
    return x if is_float(x.dtype) or x.dtype == torch.int64 else ctx.b.cast(x, torch.int64)


@op("aten.sum")
def _sum(ctx, a):
    x = _sum_input(ctx, ctx.tensor(a.self), a.get("dtype"))
    keep = bool(a.get("keepdim", False))
    return ctx.b.reduce("sum", x, ctx.reduce_all_axes(x, a.get("dim"), keep), keep)


@op("aten.mean")
def _mean(ctx, a):
    x = ctx.tensor(a.self)
    dt = ctx.dtype(a.get("dtype"))
    x = ctx.b.cast(x, dt) if dt is not None else x
    if not is_float(x.dtype):
        raise Unsupported("mean of an integer tensor")
    keep = bool(a.get("keepdim", False))
    return ctx.b.reduce("mean", x, ctx.reduce_all_axes(x, a.get("dim"), keep), keep)


def _minmax_reduce(kind: str):
    def fn(ctx, a):
        x = ctx.tensor(a.self)
        if x.dtype == torch.bool:
            return ctx.b.cast(fn_inner(ctx, ctx.b.cast(x, torch.int32), a), torch.bool)
        return fn_inner(ctx, x, a)

    def fn_inner(ctx, x, a):
        keep = bool(a.get("keepdim", False))
        return ctx.b.reduce(kind, x, ctx.reduce_all_axes(x, a.get("dim"), keep), keep)
    return fn


op("aten.amax", "aten.max.default")(_minmax_reduce("max"))
op("aten.amin", "aten.min.default")(_minmax_reduce("min"))


def _argmax(ctx, x: Value, dim, keepdim: bool, largest: bool = True) -> Value:
    b = ctx.b
    if x.dtype == torch.bool:
        x = b.cast(x, torch.int32)
    if not largest:
        x = b.unary("neg", x)
    if dim is None:
        flat = ctx.reshape_dims(x, [None if None in x.shape else math.prod(x.shape)])
        r = b.argmax(flat, 0)
        return ctx.b.reshape(r, [1] * x.rank) if keepdim else r
    return b.argmax(x, norm_dim(ctx.int_(dim, "dim"), x.rank), keepdim)


@op("aten.argmax")
def _argmax_op(ctx, a):
    return _argmax(ctx, ctx.tensor(a.self), a.get("dim"), bool(a.get("keepdim", False)))


@op("aten.argmin")
def _argmin_op(ctx, a):
    return _argmax(ctx, ctx.tensor(a.self), a.get("dim"), bool(a.get("keepdim", False)),
                   largest=False)


@op("aten.max.dim")
def _max_dim(ctx, a):
    x = ctx.tensor(a.self)
    d, keep = norm_dim(ctx.int_(a.dim, "dim"), x.rank), bool(a.get("keepdim", False))
    return (ctx.b.reduce("max", x, [d], keep), _argmax(ctx, x, d, keep))


@op("aten.min.dim")
def _min_dim(ctx, a):
    x = ctx.tensor(a.self)
    d, keep = norm_dim(ctx.int_(a.dim, "dim"), x.rank), bool(a.get("keepdim", False))
    return (ctx.b.reduce("min", x, [d], keep), _argmax(ctx, x, d, keep, largest=False))


def _any_all(kind: str):
    def fn(ctx, a):
        x = ctx.b.cast(ctx.to_bool(a.self), torch.int32)
        keep = bool(a.get("keepdim", False))
        dims = a.get("dim")
        axes = ctx.reduce_all_axes(x, dims, keep)
        return ctx.b.cast(ctx.b.reduce(kind, x, axes, keep), torch.bool)
    return fn


op("aten.any")(_any_all("max"))
op("aten.all")(_any_all("min"))


#: prod over at most this many elements per output is unrolled into muls.
_PROD_LIMIT = 64


@op("aten.prod")
def _prod(ctx, a):
    """prod as a tree of multiplications of the slices along each reduced
    axis (graph.reduce has no product)."""
    b = ctx.b
    x = _sum_input(ctx, ctx.tensor(a.self), a.get("dtype"))
    keep = bool(a.get("keepdim", False))
    axes = ctx.reduce_all_axes(x, a.get("dim"), keep)
    sizes = [x.shape[d] for d in axes]
    if None in sizes or math.prod(sizes) > _PROD_LIMIT:
        raise Unsupported(f"prod over more than {_PROD_LIMIT} elements (or a dynamic "
                          "dim) is not supported")
    for d in axes:
        parts = [ctx.slice_axis(x, d, i, i + 1) for i in range(x.shape[d])]
        while len(parts) > 1:
            parts = [b.binary("mul", parts[i], parts[i + 1]) if i + 1 < len(parts)
                     else parts[i] for i in range(0, len(parts), 2)]
        x = parts[0] if parts else ctx.full(
            [1 if i == d else s for i, s in enumerate(x.shape)], 1, x.dtype)
    return x if keep else ctx.reshape_dims(
        x, [s for i, s in enumerate(x.shape) if i not in axes])


@op("aten.cumsum")
def _cumsum(ctx, a):
    x = _sum_input(ctx, ctx.tensor(a.self), a.get("dtype"))
    return ctx.b.cumsum(x, norm_dim(ctx.int_(a.dim, "dim"), x.rank))


def _var(ctx, a, sqrt: bool) -> Value:
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    keep = bool(a.get("keepdim", False))
    axes = ctx.reduce_all_axes(x, a.get("dim"), keep)
    if "correction" in a:
        corr = a.get("correction", 1)
        corr = 1 if corr is None else ctx.float_(corr, "correction")
    else:
        corr = 1.0 if a.get("unbiased", True) else 0.0
    dims = [x.shape[i] for i in axes]
    if None in dims:
        raise Unsupported("var/std over a dynamic dim")
    n = math.prod(dims)
    mean = b.reduce("mean", x, axes, True)
    d = b.binary("sub", x, mean)
    s = b.reduce("sum", b.binary("mul", d, d), axes, keep)
    v = b.binary("div", s, b.scalar(float(max(n - corr, 0)), x.dtype))
    return b.unary("sqrt", v) if sqrt else v


op("aten.var")(lambda ctx, a: _var(ctx, a, False))
op("aten.std")(lambda ctx, a: _var(ctx, a, True))


@op("aten.logsumexp")
def _logsumexp(ctx, a):
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    keep = bool(a.get("keepdim", False))
    axes = ctx.reduce_all_axes(x, a.get("dim"), keep)
    m = b.reduce("max", x, axes, True)
    s = b.reduce("sum", b.unary("exp", b.binary("sub", x, m)), axes, True)
    r = b.binary("add", b.unary("log", s), m)
    return r if keep else ctx.reshape_dims(r, [d for i, d in enumerate(r.shape) if i not in axes])


# ---------------------------------------------------------------------------
# Softmax
# ---------------------------------------------------------------------------

def _softmax_input(ctx, a) -> Tuple[Value, int]:
    x = ctx.tensor(a.self)
    dt = ctx.dtype(a.get("dtype"))
    if dt is not None:
        x = ctx.b.cast(x, dt)
    elif a.get("half_to_float"):
        x = ctx.b.cast(x, torch.float32)
    x = ctx.to_float(x)
    return x, norm_dim(ctx.int_(a.dim, "dim"), x.rank)


@op("aten.softmax", "aten._softmax", "aten.special_softmax")
def _softmax(ctx, a):
    x, d = _softmax_input(ctx, a)
    if x.rank == 0:
        return ctx.b.scalar(1.0, x.dtype)
    return ctx.b.softmax(x, d)


@op("aten.log_softmax", "aten._log_softmax", "aten.special_log_softmax")
def _log_softmax(ctx, a):
    # x - max - log(sum(exp(x - max))), as stable as torch's kernel.
    b = ctx.b
    x, d = _softmax_input(ctx, a)
    shifted = b.binary("sub", x, b.reduce("max", x, [d], True))
    lse = b.unary("log", b.reduce("sum", b.unary("exp", shifted), [d], True))
    return b.binary("sub", shifted, lse)


# ---------------------------------------------------------------------------
# Normalization
# ---------------------------------------------------------------------------

@op("aten.layer_norm")
def _layer_norm(ctx, a):
    x = ctx.to_float(ctx.tensor(a.input))
    shape = ctx.ints(a.normalized_shape, what="normalized_shape")
    w = a.get("weight")
    bias = a.get("bias")
    w = ctx.tensor(w, x.dtype) if w is not None else \
        ctx.b.constant(torch.ones(shape, dtype=x.dtype))
    bias = ctx.tensor(bias, x.dtype) if bias is not None else \
        ctx.b.constant(torch.zeros(shape, dtype=x.dtype))
    return ctx.b.layer_norm(x, w, bias, ctx.float_(a.get("eps", 1e-5), "eps"))


@op("aten.native_layer_norm")
def _native_layer_norm(ctx, a):
    return (_layer_norm(ctx, a), None, None)


def _check_batch_norm(a: Args) -> Optional[str]:
    if a.get("training") is True:
        return "batch_norm in training mode is not supported (call model.eval())"
    if a.get("running_mean", 0) is None or a.get("running_var", 0) is None:
        return "batch_norm without running statistics is not supported"
    return None


def _batch_norm(ctx, a) -> Value:
    x = ctx.to_float(ctx.tensor(a.input))
    mean = ctx.tensor(a.running_mean, x.dtype)
    var = ctx.tensor(a.running_var, x.dtype)
    n = mean.shape[0]
    w = a.get("weight")
    bias = a.get("bias")
    w = ctx.tensor(w, x.dtype) if w is not None else ctx.b.constant(torch.ones(n, dtype=x.dtype))
    bias = ctx.tensor(bias, x.dtype) if bias is not None else \
        ctx.b.constant(torch.zeros(n, dtype=x.dtype))
    return ctx.b.batch_norm(x, mean, var, w, bias, ctx.float_(a.get("eps", 1e-5), "eps"))


@op("aten.batch_norm", "aten._native_batch_norm_legit_no_training",
    "aten._batch_norm_impl_index", check=_check_batch_norm)
def _batch_norm_op(ctx, a):
    y = _batch_norm(ctx, a)
    return y if a.schema is None or len(a.schema.returns) == 1 else \
        (y,) + (None,) * (len(a.schema.returns) - 1)


@op("aten.instance_norm", "aten.group_norm")
def _group_norm(ctx, a):
    """group_norm / instance_norm (without running stats), decomposed:
    normalize [N, G, -1] groups, then the per-channel affine."""
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.input))
    n, c = x.shape[0], x.shape[1]
    if c is None or None in x.shape[2:]:
        raise Unsupported("group_norm needs static channel and spatial dims")
    if "num_groups" in a:
        g = ctx.int_(a.num_groups, "num_groups")
    else:
        if a.get("use_input_stats") is False:
            raise Unsupported("instance_norm with running stats is not supported")
        g = c
    eps = ctx.float_(a.get("eps", 1e-5), "eps")
    y = ctx.reshape_dims(x, [n, g, math.prod(x.shape[1:]) // g])
    mean = b.reduce("mean", y, [2], True)
    d = b.binary("sub", y, mean)
    var = b.reduce("mean", b.binary("mul", d, d), [2], True)
    y = b.binary("mul", d, b.unary("rsqrt", b.binary("add", var, b.scalar(eps, x.dtype))))
    y = ctx.reshape_dims(y, list(x.shape))
    bshape = [c] + [1] * (x.rank - 2)
    if a.get("weight") is not None:
        y = b.binary("mul", y, b.reshape(ctx.tensor(a.weight, x.dtype), bshape))
    if a.get("bias") is not None:
        y = b.binary("add", y, b.reshape(ctx.tensor(a.bias, x.dtype), bshape))
    return y


# ---------------------------------------------------------------------------
# Convolution and pooling
# ---------------------------------------------------------------------------

def _check_conv(a: Args) -> Optional[str]:
    if a.get("transposed") is True:
        return "transposed convolution is not supported"
    pad = a.get("padding")
    if isinstance(pad, str) and pad not in ("same", "valid"):
        return f"padding={pad!r} is not supported"
    w = a.get("weight")
    if isinstance(w, Value) and w.type is not None and w.rank not in (3, 4):
        return f"{w.rank - 2}-d convolution is not supported (conv1d and conv2d are)"
    return None


def _conv(ctx, a) -> Value:
    b = ctx.b
    x, w = ctx.promote(a.input, a.weight)
    x = ctx.to_float(x)
    w = ctx.tensor(w, x.dtype)
    bias = a.get("bias")
    bias = ctx.tensor(bias, x.dtype) if bias is not None else None
    spatial = w.rank - 2
    if spatial not in (1, 2):
        raise Unsupported(f"{spatial}-d convolution is not supported")
    unbatched = x.rank == spatial + 1
    if unbatched:
        x = ctx.reshape_dims(x, [1] + list(x.shape))
    stride = ctx.ints(a.get("stride", 1), spatial, "stride")
    dilation = ctx.ints(a.get("dilation", 1), spatial, "dilation")
    groups = ctx.int_(a.get("groups", 1), "groups")
    pad = a.get("padding", 0)
    kernel = list(w.shape[2:])
    if isinstance(pad, str):
        if pad == "valid":
            lo = hi = [0] * spatial
        elif pad == "same":
            total = [d * (k - 1) for d, k in zip(dilation, kernel)]
            lo = [t // 2 for t in total]
            hi = [t - l for t, l in zip(total, lo)]
        else:
            raise Unsupported(f"padding={pad!r} is not supported")
    else:
        lo = hi = ctx.ints(pad, spatial, "padding")
    if a.get("transposed") is True:
        raise Unsupported("transposed convolution is not supported")
    if spatial == 1:  # conv1d as a conv2d over [N, C, 1, L]
        x = ctx.reshape_dims(x, list(x.shape[:2]) + [1, x.shape[2]])
        w = ctx.reshape_dims(w, list(w.shape[:2]) + [1, w.shape[2]])
        stride, dilation = [1] + stride, [1] + dilation
        lo, hi = [0] + list(lo), [0] + list(hi)
    y = b.conv2d(x, w, bias, strides=stride, padding=[lo[0], lo[1], hi[0], hi[1]],
                 dilations=dilation, groups=groups)
    if spatial == 1:
        y = ctx.reshape_dims(y, [y.shape[0], y.shape[1], y.shape[3]])
    if unbatched:
        y = ctx.reshape_dims(y, list(y.shape[1:]))
    return y


op("aten.conv2d", "aten.conv1d", "aten.convolution", "aten._convolution",
   "aten._convolution_mode", check=_check_conv)(_conv)


def _pool_params(ctx, a, x: Value):
    kernel = ctx.ints(a.kernel_size, 2, "kernel_size")
    stride = a.get("stride")
    stride = kernel if stride is None or (isinstance(stride, (list, tuple)) and not stride) \
        else ctx.ints(stride, 2, "stride")
    pad = ctx.ints(a.get("padding", 0), 2, "padding")
    return kernel, stride, [pad[0], pad[1], pad[0], pad[1]]


def _pool_input(ctx, x: Value, rank: int = 4):
    if x.rank == 3:
        return ctx.reshape_dims(x, [1] + list(x.shape)), True
    return x, False


@op("aten.max_pool2d", "aten.max_pool2d_with_indices")
def _max_pool2d(ctx, a):
    x, unbatched = _pool_input(ctx, ctx.tensor(a.self))
    kernel, stride, pad = _pool_params(ctx, a, x)
    y = ctx.b.pool2d("max_pool2d", x, kernel=kernel, strides=stride, padding=pad,
                     dilations=ctx.ints(a.get("dilation", 1), 2, "dilation"),
                     ceil_mode=bool(a.get("ceil_mode", False)))
    if unbatched:
        y = ctx.reshape_dims(y, list(y.shape[1:]))
    return (y, None) if len(a.schema.returns) == 2 else y


@op("aten.avg_pool2d", check=lambda a: "avg_pool2d divisor_override is not supported"
    if a.get("divisor_override") is not None else None)
def _avg_pool2d(ctx, a):
    x, unbatched = _pool_input(ctx, ctx.to_float(ctx.tensor(a.self)))
    kernel, stride, pad = _pool_params(ctx, a, x)
    cip = a.get("count_include_pad", True)
    y = ctx.b.pool2d("avg_pool2d", x, kernel=kernel, strides=stride, padding=pad,
                     ceil_mode=bool(a.get("ceil_mode", False)),
                     count_include_pad=True if cip is None else bool(cip))
    return ctx.reshape_dims(y, list(y.shape[1:])) if unbatched else y


@op("aten.adaptive_avg_pool2d", "aten._adaptive_avg_pool2d")
def _adaptive_avg_pool2d(ctx, a):
    x, unbatched = _pool_input(ctx, ctx.to_float(ctx.tensor(a.self)))
    size = a.output_size
    size = [size, size] if not isinstance(size, (list, tuple)) else list(size)
    size = [x.shape[2 + i] if s is None else ctx.int_(s, "output_size")
            for i, s in enumerate(size)]
    if size == [1, 1]:
        y = ctx.b.reduce("mean", x, [2, 3], True)  # global pooling
    else:
        y = ctx.b.adaptive_avg_pool2d(x, size)
    return ctx.reshape_dims(y, list(y.shape[1:])) if unbatched else y


# ---------------------------------------------------------------------------
# Padding
# ---------------------------------------------------------------------------

def _check_pad(a: Args) -> Optional[str]:
    mode = a.get("mode", "constant")
    if mode != "constant":
        return f"padding mode {mode!r} is not supported (only 'constant')"
    pad = a.get("pad")
    if isinstance(pad, (list, tuple)) and any(is_static_int(p) and p < 0 for p in pad):
        return "negative padding is not supported"
    return None


@op("aten.pad", "aten.constant_pad_nd", check=_check_pad)
def _pad(ctx, a):
    x = ctx.tensor(a.self)
    if a.get("mode", "constant") != "constant":
        raise Unsupported(f"padding mode {a.mode!r} is not supported")
    pad = ctx.ints(a.pad, what="pad")
    if len(pad) % 2 or len(pad) // 2 > x.rank:
        raise Unsupported(f"bad pad list {pad}")
    low, high = [0] * x.rank, [0] * x.rank
    for i in range(len(pad) // 2):  # pairs start at the last dim
        low[x.rank - 1 - i], high[x.rank - 1 - i] = pad[2 * i], pad[2 * i + 1]
    if any(p < 0 for p in pad):
        raise Unsupported("negative padding is not supported")
    if not any(pad):
        return x
    value = a.get("value", 0.0)
    return ctx.b.pad(x, low, high, ctx.float_(0.0 if value is None else value, "value"))


# ---------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------

def _check_sdpa(a: Args) -> Optional[str]:
    p = a.get("dropout_p", 0.0)
    if isinstance(p, (int, float)) and p != 0:
        return "scaled_dot_product_attention with dropout_p != 0 is not supported"
    if a.get("enable_gqa") is True:
        return "scaled_dot_product_attention with enable_gqa is not supported"
    return None


@op("aten.scaled_dot_product_attention", check=_check_sdpa)
def _sdpa(ctx, a):
    q, k, v = ctx.promote(a.query, a.key, a.value)
    q, k, v = (ctx.to_float(t) for t in (q, k, v))
    mask = a.get("attn_mask")
    if mask is not None:
        mask = ctx.tensor(mask)
        if mask.dtype != torch.bool:
            mask = ctx.b.cast(mask, q.dtype)
    scale = a.get("scale")
    return ctx.b.scaled_dot_product_attention(
        q, k, v, mask, scale=None if scale is None else ctx.float_(scale, "scale"),
        is_causal=bool(a.get("is_causal", False)))


# ---------------------------------------------------------------------------
# Recurrent layers: a graph.loop over time
# ---------------------------------------------------------------------------

def _check_rnn(a: Args) -> Optional[str]:
    if a.get("bidirectional") is True:
        return "bidirectional RNNs are not supported"
    if a.get("train") is True and a.get("dropout", 0) not in (0, 0.0):
        return "RNN dropout in training mode is not supported (call model.eval())"
    params = a.get("params")
    layers = a.get("num_layers")
    if isinstance(params, (list, tuple)) and is_static_int(layers) and layers > 0:
        per = len(params) // layers
        if per not in (2, 4):
            return "LSTM projections (proj_size > 0) are not supported"
    return None


def _rnn(ctx, a, kind: str):
    """aten.lstm.input / aten.gru.input, unidirectional, any num_layers.

    Per layer: the input projection of every time step is one matmul before
    the loop; the loop carries h (and c) and the output sequence, reads
    step t with graph.gather (rank-0 index) and writes it with
    graph.dynamic_update_slice.
    """
    b = ctx.b
    if a.bidirectional:
        raise Unsupported("bidirectional RNNs are not supported")
    x = ctx.to_float(ctx.tensor(a.input))
    dt = x.dtype
    layers = ctx.int_(a.num_layers, "num_layers")
    params = [ctx.tensor(p, dt) for p in a.params]
    has_bias = bool(a.has_biases)
    per = 4 if has_bias else 2
    if len(params) != per * layers:
        raise Unsupported("LSTM projections (proj_size > 0) are not supported")
    batch_first = bool(a.batch_first)
    unbatched = x.rank == 2
    if unbatched:  # [T, I] -> [T, 1, I]
        x = ctx.reshape_dims(x, [x.shape[0], 1, x.shape[1]])
    elif batch_first:
        x = b.transpose(x, [1, 0, 2])
    hx = list(a.hx) if kind == "lstm" else [a.hx]
    states0 = []
    for h in hx:
        h = ctx.tensor(h, dt)
        if unbatched:
            h = ctx.reshape_dims(h, [h.shape[0], 1, h.shape[1]])
        states0.append(h)
    gates = 4 if kind == "lstm" else 3
    seq_len = x.shape[0]
    trip = b.scalar(seq_len, torch.int64, weak=False) if seq_len is not None \
        else ctx.dim_size(x, 0)
    true = b.scalar(True, torch.bool, weak=False)
    finals: List[List[Value]] = [[] for _ in states0]
    for layer in range(layers):
        w_ih, w_hh = params[per * layer], params[per * layer + 1]
        hidden = w_hh.shape[1]
        xw = b.matmul(x, b.transpose(w_ih, [1, 0]))          # [T, B, G*H]
        if has_bias:
            xw = b.binary("add", xw, params[per * layer + 2])
        b_hh = params[per * layer + 3] if has_bias else None
        w_hh_t = b.transpose(w_hh, [1, 0])
        init = [ctx.take(s, 0, layer) for s in states0]       # [B, H] each
        out0 = ctx.full([_dim_or_sym(x, 0), _dim_or_sym(x, 1), hidden], 0.0, dt)

        def body(t, carried, xw=xw, w_hh_t=w_hh_t, b_hh=b_hh, hidden=hidden):
            h = carried[0]
            xt = b.gather(xw, t, 0)                             # [B, G*H]
            hw = b.matmul(h, w_hh_t)
            if kind == "lstm":
                c = carried[1]
                g = b.binary("add", xt, hw)
                if b_hh is not None:
                    g = b.binary("add", g, b_hh)
                i, f, gg, o = b.split(g, 1, [hidden] * gates)
                i, f, o = b.unary("sigmoid", i), b.unary("sigmoid", f), b.unary("sigmoid", o)
                c2 = b.binary("add", b.binary("mul", f, c), b.binary("mul", i, b.unary("tanh", gg)))
                h2 = b.binary("mul", o, b.unary("tanh", c2))
                new_states = [h2, c2]
            else:
                if b_hh is not None:
                    hw = b.binary("add", hw, b_hh)
                xr, xz, xn = b.split(xt, 1, [hidden] * gates)
                hr, hz, hn = b.split(hw, 1, [hidden] * gates)
                r = b.unary("sigmoid", b.binary("add", xr, hr))
                z = b.unary("sigmoid", b.binary("add", xz, hz))
                n = b.unary("tanh", b.binary("add", xn, b.binary("mul", r, hn)))
                # h' = (1 - z) * n + z * h = n + z * (h - n)
                h2 = b.binary("add", n, b.binary("mul", z, b.binary("sub", h, n)))
                new_states = [h2]
            out = b.dynamic_update_slice(carried[-1], h2, t, 0)
            return true, new_states + [out]

        hints = ["h", "c"][:len(init)] + ["out"]
        results = b.loop(trip, true, init + [out0], body, iv_hint="t", carried_hints=hints)
        for k, s in enumerate(results[:-1]):
            finals[k].append(s)
        x = results[-1]
    out = x
    if unbatched:
        out = ctx.reshape_dims(out, [out.shape[0], out.shape[2]])
    elif batch_first:
        out = b.transpose(out, [1, 0, 2])
    states = []
    for per_layer in finals:
        stacked = b.concat([ctx.reshape_dims(s, [1] + list(s.shape)) for s in per_layer], 0)
        if unbatched:
            stacked = ctx.reshape_dims(stacked, [stacked.shape[0], stacked.shape[2]])
        states.append(stacked)
    return tuple([out] + states)


def _dim_or_sym(x: Value, axis: int):
    d = x.shape[axis]
    return d if d is not None else SymInt(f"dim{axis}", (x, axis))


op("aten.lstm.input", check=_check_rnn)(lambda ctx, a: _rnn(ctx, a, "lstm"))
op("aten.gru.input", check=_check_rnn)(lambda ctx, a: _rnn(ctx, a, "gru"))


# ---------------------------------------------------------------------------
# Creation ops (evaluated in Python; these mappings handle dynamic sizes)
# ---------------------------------------------------------------------------

def _creation_dtype(ctx, a, default: torch.dtype) -> torch.dtype:
    dt = ctx.dtype(a.get("dtype"))
    return dt or default


def _fill_value(a, name="fill_value"):
    v = a.get(name)
    if isinstance(v, Value):
        raise Unsupported("creation op with a run-time fill value")
    return v


@op("aten.zeros", "aten.ones", "aten.full", "aten.empty", "aten.new_zeros",
    "aten.new_ones", "aten.new_full", "aten.new_empty")
def _full(ctx, a):
    name = a.schema.name.split("::")[-1]
    if name in ("zeros", "new_zeros", "empty", "new_empty"):
        value = 0
    elif name in ("ones", "new_ones"):
        value = 1
    else:
        value = _fill_value(a)
    default = a.self.dtype if isinstance(a.get("self"), Value) else (
        torch.get_default_dtype() if name != "full" or isinstance(value, float)
        else _python_dtype(value))
    size = a.size if isinstance(a.size, (list, tuple)) else [a.size]
    return ctx.full(list(size), value, _creation_dtype(ctx, a, default))


@op("aten.zeros_like", "aten.ones_like", "aten.full_like", "aten.empty_like")
def _full_like(ctx, a):
    x = ctx.tensor(a.self)
    name = a.schema.name.split("::")[-1]
    value = {"zeros_like": 0, "empty_like": 0, "ones_like": 1}.get(name)
    if value is None:
        value = _fill_value(a)
    dt = _creation_dtype(ctx, a, x.dtype)
    if x.type.is_static:
        return ctx.b.constant(torch.full(x.shape, value, dtype=dt))
    # Same shape as x, values from the scalar.
    return ctx.b.select(ctx.b.scalar(False, torch.bool), ctx.b.cast(x, dt),
                        ctx.b.scalar(value, dt))


@op("aten.triu", "aten.tril")
def _triu(ctx, a):
    x = ctx.tensor(a.self)
    rows, cols = x.shape[-2], x.shape[-1]
    if rows is None or cols is None:
        raise Unsupported("triu/tril of a matrix with dynamic dims")
    k = ctx.int_(a.get("diagonal", 0), "diagonal")
    ones = torch.ones(rows, cols, dtype=torch.bool)
    mask = torch.triu(ones, k) if a.schema.name.endswith("triu") else torch.tril(ones, k)
    zero = ctx.b.scalar(False if x.dtype == torch.bool else 0, x.dtype)
    return ctx.b.select(ctx.b.constant(mask), x, zero)


# Creation ops that are only ever evaluated in Python (they have no tensor
# inputs, so their arguments are constants unless a size is symbolic).
@op("aten.arange", "aten.scalar_tensor", "aten.eye", "aten.linspace",
    "aten.tensor", "aten.zeros.names", "aten.as_tensor")
def _python_only(ctx, a):
    raise Unsupported("needs compile-time constant arguments (it is evaluated "
                      "at import time)")


@op("aten.zero")
def _zero(ctx, a):
    x = ctx.tensor(a.self)
    return ctx.b.select(ctx.b.scalar(True, torch.bool),
                        ctx.b.scalar(False if x.dtype == torch.bool else 0, x.dtype), x)


@op("aten.fill")
def _fill(ctx, a):
    x = ctx.tensor(a.self)
    v = ctx.tensor(a.value, x.dtype)
    return ctx.b.select(ctx.b.scalar(True, torch.bool), v, x)


# ---------------------------------------------------------------------------
# Sizes and scalars (TorchScript's int/float/bool values, export SymInts)
# ---------------------------------------------------------------------------

@op("aten.size", "aten.sym_size")
def _size(ctx, a):
    x = ctx.tensor(a.self)
    if a.get("dim") is None:
        return [d if d is not None else SymInt(f"dim{i}", (x, i)) for i, d in enumerate(x.shape)]
    d = norm_dim(ctx.int_(a.dim, "dim"), x.rank)
    if x.shape[d] is not None:
        return x.shape[d]
    v = ctx.dim_size(x, d)
    v.weak = True
    return v


@op("aten.dim")
def _dim(ctx, a):
    return ctx.tensor(a.self).rank


@op("aten.is_floating_point")
def _is_floating_point(ctx, a):
    return is_float(ctx.tensor(a.self).dtype)


@op("aten.numel", "aten.sym_numel")
def _numel(ctx, a):
    x = ctx.tensor(a.self)
    if x.type.is_static:
        return math.prod(x.shape)
    raise Unsupported("numel of a tensor with dynamic dims")


@op("aten.Int", "aten.Float", "aten.Bool", "aten.ScalarImplicit", "aten.item",
    "aten._local_scalar_dense")
def _scalar_of(ctx, a):
    """A tensor (or number) as a TorchScript scalar: a weak rank-0 tensor."""
    name = a.schema.name.split("::")[-1]
    x = a.first("a", "self", "input")
    target = {"Int": torch.int64, "Float": torch.float32, "Bool": torch.bool}.get(name)
    if not isinstance(x, Value):
        return {"Int": int, "Float": float, "Bool": bool}.get(name, lambda v: v)(x)
    if x.type.numel() != 1:
        raise Unsupported(f"{name} of a tensor with {x.type} elements")
    v = ctx.reshape_dims(x, []) if x.rank else x
    if target is not None and target != v.dtype:
        if target == torch.bool:
            v = ctx.to_bool(v)
        else:
            v = ctx.b.cast(v, target)
    # A new Value: the caller's tensor must not become weak.
    return Value(v.name, v.type, weak=True, const=v.const)


@op("aten.NumToTensor", "prim.NumToTensor")
def _num_to_tensor(ctx, a):
    x = a.first("a", "self")
    v = ctx.tensor(x)
    return Value(v.name, v.type, False, v.const)


# ---------------------------------------------------------------------------
# Calling a mapping: evaluate in Python when the inputs are constants
# ---------------------------------------------------------------------------

class _NotConstant(Exception):
    pass


def constant_dtype(dtype: torch.dtype) -> torch.dtype:
    """The dtype a folded constant is emitted with: float64 constants become
    the default float dtype and small integer types int32 (the dialect has
    no f64/i8/i16; for constants mixed with tensors torch's promotion gives
    the same result dtype)."""
    if dtype == torch.float64:
        return torch.get_default_dtype()
    if dtype in (torch.int8, torch.uint8, torch.int16):
        return torch.int32
    return dtype


def to_graph_value(ctx: Context, out):
    """Converts the Python result of an evaluated op: tensors become
    ``graph.constant`` Values, containers are converted elementwise."""
    if isinstance(out, torch.Tensor):
        dt = constant_dtype(out.dtype)
        if dt not in (torch.float32, torch.float16, torch.bfloat16, torch.bool,
                      torch.int32, torch.int64):
            raise Unsupported(f"constant of dtype {out.dtype} is not supported")
        return ctx.b.constant(out.to(dt))
    if isinstance(out, (list, tuple)):
        return type(out)(to_graph_value(ctx, o) for o in out)
    return out


def try_fold(ctx: Context, qualname: str, a: Args):
    """Evaluates the op with torch when every tensor argument is an
    import-time constant. Returns ``(True, result)`` or ``(False, None)``."""
    opdef = lookup(qualname)
    if opdef is None or not opdef.foldable or a.schema is None:
        return False, None
    has_tensor = False

    def conv(v):
        nonlocal has_tensor
        if isinstance(v, Value):
            if v.const is None:
                raise _NotConstant
            has_tensor = True
            return v.const
        if isinstance(v, SymInt):
            raise _NotConstant
        if isinstance(v, (list, tuple)):
            return type(v)(conv(x) for x in v)
        return v
    try:
        values = {k: conv(v) for k, v in a.items()}
    except _NotConstant:
        return False, None
    try:
        fn = resolve_overload(qualname)
    except AttributeError:
        return False, None
    args = [values[p.name] for p in a.schema.arguments if not p.kwarg_only]
    kwargs = {p.name: values[p.name] for p in a.schema.arguments if p.kwarg_only}
    try:
        with torch.no_grad():
            out = fn(*args, **kwargs)
    except Exception:  # leave it to the mapping (which reports properly)
        return False, None
    flat = out if isinstance(out, (list, tuple)) else [out]
    if has_tensor and any(isinstance(t, torch.Tensor) and t.numel() > FOLD_LIMIT
                          for t in flat):
        return False, None
    return True, to_graph_value(ctx, out)


def emit_op(ctx: Context, qualname: str, a: Args):
    """Emits ATen op ``qualname`` with bound arguments ``a`` (folding it
    when its inputs are constants). Raises :class:`Unsupported`."""
    opdef = lookup(qualname)
    if opdef is None:
        raise Unsupported("unsupported operator")
    if opdef.check is not None:
        reason = opdef.check(a)
        if reason:
            raise Unsupported(reason)
    folded, result = try_fold(ctx, qualname, a)
    if folded:
        return result
    return opdef.fn(ctx, a)


class _Poison:
    """The value of a node that could not be imported. The importers keep
    going after an unsupported op to report every problem at once; ops
    consuming a poisoned value are skipped silently."""

    def __repr__(self) -> str:
        return "<unsupported>"


POISON = _Poison()


def is_poisoned(x) -> bool:
    if x is POISON:
        return True
    if isinstance(x, (list, tuple)):
        return any(is_poisoned(v) for v in x)
    if isinstance(x, dict):
        return any(is_poisoned(v) for v in x.values())
    return False
