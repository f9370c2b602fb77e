"""ATen op -> ``graph`` dialect mappings, shared by both PyTorch importers:
the registry, argument binding, type promotion and the emission context.
The mappings themselves are in this package's family modules.

Each mapping is a function ``fn(ctx, a)`` registered with :func:`op` under
ATen names (``"aten.add.Tensor"``, or ``"aten.add"`` for every overload).
``a`` holds the op's arguments bound to the ATen schema by name (``a.self``,
``a.other``, ``a.alpha``, defaults filled in), whether they came from an FX
node (``torch.export``) or a TorchScript node: the importers only translate
their graphs into calls of these functions.

Argument values are :class:`~..dtypes.Value` for tensors (and for run-time
TorchScript scalars, as rank-0 "weak" tensors), Python numbers, lists,
``None``, dtypes, strings, or :class:`SymInt` for a dynamic size under
``torch.export``. A mapping returns a ``Value``, a Python value, or a
tuple/list of them for multi-result ops. It raises
:class:`~.errors.Unsupported` for what it cannot express; a ``check``
function registered with it finds such cases before anything is emitted so
that the importers can report every problem of a model at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch

from ...errors import Unsupported
from ..dtypes import DTYPE_TO_MLIR, FunctionBuilder, TensorType, Value, is_float

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
# Calling a mapping: evaluate in Python when the inputs are constants
# ---------------------------------------------------------------------------

class _NotConstant(Exception):
    pass


def constant_dtype(dtype: torch.dtype) -> torch.dtype:
    """The dtype a folded constant is emitted with: its own."""
    return dtype


def to_graph_value(ctx: Context, out):
    """Converts the Python result of an evaluated op: tensors become
    ``graph.constant`` Values, containers are converted elementwise."""
    if isinstance(out, torch.Tensor):
        dt = constant_dtype(out.dtype)
        if dt not in DTYPE_TO_MLIR:
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
