"""MLIR text in the ``graph`` dialect, keyed on NumPy dtypes (no PyTorch).

The ONNX importer builds its functions with this module. It is the NumPy
counterpart of :mod:`.emitter` (which the PyTorch importers use and which
works on torch dtypes): the ONNX path must not need ``torch``, whose import
alone costs seconds. The textual syntax is the contract of
docs/Dialects/Graph.md and docs/design/graph-ops-v2.md.

Callers compute result types themselves (the importer knows the ONNX shape
semantics); the C++ verifier checks that every written type is compatible
with the type the op infers, so a wrong shape here is a compile error, never
a silent wrong result. ::

    b = Builder("main")
    x = b.add_argument("x", TType((4, 10), np.float32))
    b.set_results([b.unary("relu", x)])
    text = b.module_text()
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._mlir_text import fix_float as _fix_float, quote
from .errors import Unsupported

Dim = Optional[int]  # a static size, or None for a dynamic (`?`) dim

#: NumPy dtype -> MLIR element type: the element types the dialect shares
#: with NumPy (bf16 has no NumPy dtype).
ELEMENT_TYPES: Dict[np.dtype, str] = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.bool_): "i1",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
}
FLOAT_TYPES = (np.dtype(np.float32), np.dtype(np.float16))
INT_TYPES = (np.dtype(np.int32), np.dtype(np.int64))
BOOL = np.dtype(np.bool_)
I64 = np.dtype(np.int64)

#: Non-splat constants with more elements than this are printed in the exact
#: hex form ``dense<"0x...">`` (fast to print and to parse).
HEX_THRESHOLD = 16


def element_type(dtype) -> str:
    """The MLIR element type of a NumPy dtype; :class:`Unsupported` for
    dtypes the dialect lacks."""
    try:
        return ELEMENT_TYPES[np.dtype(dtype)]
    except (KeyError, TypeError):
        raise Unsupported(f"element type {np.dtype(dtype).name} is not "
                          "supported (supported: float32, float16, int32, "
                          "int64, bool)") from None


def is_float(dtype) -> bool:
    return np.dtype(dtype) in FLOAT_TYPES


def is_int(dtype) -> bool:
    return np.dtype(dtype) in INT_TYPES


@dataclass(frozen=True)
class TType:
    """A ranked tensor type: ``shape`` (ints, ``None`` = dynamic) and a
    NumPy ``dtype``."""

    shape: Tuple[Dim, ...]
    dtype: np.dtype

    def __post_init__(self):
        object.__setattr__(self, "shape", tuple(
            None if d is None else int(d) for d in self.shape))
        object.__setattr__(self, "dtype", np.dtype(self.dtype))

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        return all(d is not None for d in self.shape)

    def numel(self) -> Optional[int]:
        return math.prod(self.shape) if self.is_static else None

    def with_shape(self, shape: Sequence[Dim]) -> "TType":
        return TType(tuple(shape), self.dtype)

    def with_dtype(self, dtype) -> "TType":
        return TType(self.shape, dtype)

    def __str__(self) -> str:
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        return f"tensor<{dims}{element_type(self.dtype)}>"


@dataclass(eq=False)
class Value:
    """An SSA value (``name`` includes the ``%``) of type ``type``."""

    name: str
    type: TType

    @property
    def shape(self) -> Tuple[Dim, ...]:
        return self.type.shape

    @property
    def dtype(self) -> np.dtype:
        return self.type.dtype

    @property
    def rank(self) -> int:
        return self.type.rank

    def __str__(self) -> str:
        return self.name


# ---------------------------------------------------------------------------
# Literals
# ---------------------------------------------------------------------------

def format_f64(v: float) -> str:
    """An f64 literal that parses back to the same double (hex bits for
    inf/NaN)."""
    v = float(v)
    if not math.isfinite(v):
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]
    return _fix_float(repr(v))


def _element(v, dtype: np.dtype) -> str:
    if dtype == BOOL:
        return "true" if v else "false"
    if dtype.kind in "iu":
        return str(int(v))
    return _fix_float(str(dtype.type(v)))  # shortest round-trip repr


def format_dense(a: np.ndarray) -> str:
    """``dense<...>`` (without the type) for the array ``a``: one element
    for a splat, a nested list for small arrays, the exact hex form for
    larger ones and any holding inf/NaN (booleans always as lists)."""
    dtype = a.dtype
    element_type(dtype)
    if a.size == 0:
        return "dense<>"
    flat = a.reshape(-1)
    finite = bool(np.isfinite(flat).all()) if dtype.kind == "f" else True
    splat = finite and bool((flat == flat[0]).all())
    if dtype != BOOL and (not finite or (not splat and a.size > HEX_THRESHOLD)):
        return 'dense<"0x' + np.ascontiguousarray(flat).astype(
            dtype.newbyteorder("<")).tobytes().hex().upper() + '">'
    if splat:
        return f"dense<{_element(flat[0], dtype)}>"

    def nested(x):
        if x.ndim == 0:
            return _element(x[()], dtype)
        return "[" + ", ".join(nested(y) for y in x) + "]"
    return f"dense<{nested(a)}>"


def format_attr(value) -> str:
    """ints as ``i64``, floats as ``f64``, int lists as ``array<i64: ...>``."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("boolean attributes are unit attributes (flags)")
    if isinstance(value, (int, np.integer)):
        return f"{int(value)} : i64"
    if isinstance(value, (float, np.floating)):
        return f"{format_f64(value)} : f64"
    if isinstance(value, (list, tuple)):
        return "array<i64: " + ", ".join(str(int(v)) for v in value) + ">" \
            if value else "array<i64>"
    raise TypeError(f"cannot print attribute {value!r}")


def format_attr_dict(attrs: Dict[str, object]) -> str:
    """``{a = 1 : i64, flag}``: ``True`` is a unit attribute; ``None`` and
    ``False`` are left out. Empty dict: the empty string."""
    parts = []
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        parts.append(k if v is True else f"{k} = {format_attr(v)}")
    return "{" + ", ".join(parts) + "}" if parts else ""


def _ints(xs: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


# ---------------------------------------------------------------------------
# Shape helpers
# ---------------------------------------------------------------------------

def broadcast_shapes(*shapes: Sequence[Dim]) -> Tuple[Dim, ...]:
    """NumPy broadcasting with the dialect's rules for dynamic dims (a
    dynamic dim meeting a static one other than 1 takes that size)."""
    r = max((len(s) for s in shapes), default=0)
    out: List[Dim] = [1] * r
    for s in shapes:
        s = (1,) * (r - len(s)) + tuple(s)
        for i, (x, y) in enumerate(zip(out, s)):
            if x == y or y == 1:
                continue
            if x == 1:
                out[i] = y
            elif x is None:
                out[i] = y
            elif y is None:
                continue
            else:
                raise Unsupported(f"shapes {list(shapes)} are not "
                                  "broadcast-compatible")
    return tuple(out)


# ---------------------------------------------------------------------------
# The builder
# ---------------------------------------------------------------------------

_SSA_BAD = re.compile(r"[^A-Za-z0-9_$.]")
_SSA_USE = re.compile(r"%[A-Za-z0-9_$.]+")


class Builder:
    """Builds one ``func.func`` and prints the module.

    Each op method prints the op with the current location
    (:meth:`set_location`) and returns its result :class:`Value`. Constants
    are printed lazily at the top level of the function just before their
    first use (so constants that end up unused are never printed, and a
    constant first used in a loop body is defined before the loop).
    """

    def __init__(self, name: str = "main"):
        self.name = name
        self.arguments: List[Tuple[Value, Optional[str]]] = []
        self.results: List[Value] = []
        self._names: Dict[str, int] = {}
        self._regions: List[List[str]] = [[]]
        self._indent = [4]
        self._loc = ""
        self._hint = "v"
        self._pending: Dict[str, str] = {}
        self._splats: Dict[tuple, Value] = {}

    # -- names and locations ------------------------------------------------

    def set_location(self, name: str, kind: Optional[str] = None,
                     hint: Optional[str] = None) -> None:
        """Ops emitted next get ``loc("name"("kind"))`` (``loc("name")``
        without ``kind``) and SSA names derived from ``hint``."""
        self._loc = f"loc({quote(name)}({quote(kind)}))" if kind \
            else f"loc({quote(name)})"
        self._hint = hint or name

    def fresh(self, hint: Optional[str] = None) -> str:
        base = _SSA_BAD.sub("_", hint or self._hint) or "v"
        if not (base[0].isalpha() or base[0] == "_"):
            base = "v" + base
        n = self._names.get(base, 0)
        self._names[base] = n + 1
        return f"%{base}" if n == 0 else f"%{base}_{n}"

    def _emit(self, text: str, loc: bool = True) -> None:
        for name in _SSA_USE.findall(text):
            line = self._pending.pop(name, None)
            if line is not None:
                self._regions[0].append(" " * self._indent[0] + line)
        suffix = f" {self._loc}" if loc and self._loc else ""
        self._regions[-1].append(" " * self._indent[-1] + text + suffix)

    def _op(self, ty: TType, body: str) -> Value:
        v = Value(self.fresh(), ty)
        self._emit(f"{v.name} = {body}")
        return v

    # -- signature ------------------------------------------------------------

    def add_argument(self, name: str, ty: TType) -> Value:
        """A function argument named (and located) after ``name``."""
        v = Value(self.fresh(name), ty)
        self.arguments.append((v, name))
        return v

    def set_results(self, values: Sequence[Value]) -> None:
        self.results = list(values)

    def function_text(self) -> str:
        for v in self.results:
            line = self._pending.pop(v.name, None)
            if line is not None:
                self._regions[0].append(" " * self._indent[0] + line)
        args = ", ".join(f"{v.name}: {v.type} loc({quote(loc)})"
                         for v, loc in self.arguments)
        res = ", ".join(str(v.type) for v in self.results)
        if len(self.results) != 1:
            res = f"({res})"
        ret = "    return"
        if self.results:
            ret += " " + ", ".join(v.name for v in self.results) + " : " + \
                ", ".join(str(v.type) for v in self.results)
        return "\n".join([f"  func.func @{self.name}({args}) -> {res} {{"]
                         + self._regions[0] + [ret, "  }"])

    def module_text(self) -> str:
        return "module {\n" + self.function_text() + "\n}\n"

    # -- constants ------------------------------------------------------------

    def constant(self, array: np.ndarray, hint: str = "cst") -> Value:
        """``graph.constant`` holding ``array``."""
        array = np.asarray(array)
        ty = TType(array.shape, array.dtype)
        v = Value(self.fresh(hint), ty)
        loc = f" {self._loc}" if self._loc else ""
        self._pending[v.name] = \
            f"{v.name} = graph.constant {format_dense(array)} : {ty}{loc}"
        return v

    def splat(self, value, dtype, shape: Sequence[int] = ()) -> Value:
        """A constant filled with ``value`` (cached per value/dtype/shape)."""
        dtype = np.dtype(dtype)
        key = (repr(dtype.type(value).item()), dtype.str, tuple(shape))
        if key not in self._splats:
            self._splats[key] = self.constant(np.full(tuple(shape), value, dtype))
        return self._splats[key]

    # -- elementwise ------------------------------------------------------------

    def binary(self, op: str, lhs: Value, rhs: Value) -> Value:
        """``add sub mul div max min pow`` with NumPy broadcasting."""
        _same_dtype(op, lhs, rhs)
        ty = lhs.type.with_shape(broadcast_shapes(lhs.shape, rhs.shape))
        return self._op(ty, f"graph.{op} {lhs}, {rhs} : {lhs.type}, {rhs.type} -> {ty}")

    def unary(self, op: str, x: Value, attrs: Optional[Dict[str, object]] = None) -> Value:
        """``neg abs exp log sqrt rsqrt tanh sigmoid relu silu erf hardswish
        hardsigmoid leaky_relu clamp``."""
        a = format_attr_dict(attrs or {})
        a = f" {a}" if a else ""
        return self._op(x.type, f"graph.{op} {x}{a} : {x.type} -> {x.type}")

    def gelu(self, x: Value, approximate: str = "none") -> Value:
        a = " approximate = tanh" if approximate == "tanh" else ""
        return self._op(x.type, f"graph.gelu {x}{a} : {x.type} -> {x.type}")

    def compare(self, direction: str, lhs: Value, rhs: Value) -> Value:
        """``eq ne lt le gt ge`` -> i1."""
        _same_dtype("compare", lhs, rhs)
        ty = TType(broadcast_shapes(lhs.shape, rhs.shape), BOOL)
        return self._op(ty, f"graph.compare {direction}, {lhs}, {rhs} : "
                            f"{lhs.type}, {rhs.type} -> {ty}")

    def select(self, cond: Value, a: Value, b: Value) -> Value:
        _same_dtype("select", a, b)
        ty = a.type.with_shape(broadcast_shapes(cond.shape, a.shape, b.shape))
        return self._op(ty, f"graph.select {cond}, {a}, {b} : "
                            f"{cond.type}, {a.type}, {b.type} -> {ty}")

    def cast(self, x: Value, dtype) -> Value:
        target = x.type.with_dtype(dtype)
        if target == x.type:
            return x
        return self._op(target, f"graph.cast {x} : {x.type} -> {target}")

    # -- linear algebra, shapes ---------------------------------------------------

    def matmul(self, lhs: Value, rhs: Value) -> Value:
        """torch.matmul/numpy.matmul semantics (1-D operands promoted)."""
        _same_dtype("matmul", lhs, rhs)
        a, b = lhs.shape, rhs.shape
        if not a or not b:
            raise Unsupported(f"matmul of a scalar (shapes {list(a)} and {list(b)})")
        k_lhs, k_rhs = a[-1], (b[-2] if len(b) >= 2 else b[0])
        if k_lhs is not None and k_rhs is not None and k_lhs != k_rhs:
            raise Unsupported(f"the operands do not multiply: shapes {list(a)} and "
                              f"{list(b)} (contraction dims {k_lhs} and {k_rhs})")
        batch = broadcast_shapes(a[:-2], b[:-2])
        shape = batch + (a[-2:-1] if len(a) >= 2 else ()) + \
            (b[-1:] if len(b) >= 2 else ())
        ty = lhs.type.with_shape(shape)
        return self._op(ty, f"graph.matmul {lhs}, {rhs} : {lhs.type}, {rhs.type} -> {ty}")

    def transpose(self, x: Value, perm: Sequence[int]) -> Value:
        perm = [int(p) for p in perm]
        if perm == list(range(x.rank)):
            return x
        ty = x.type.with_shape([x.shape[p] for p in perm])
        return self._op(ty, f"graph.transpose {x}, {_ints(perm)} : {x.type} -> {ty}")

    def reshape(self, x: Value, shape: Sequence[int]) -> Value:
        """``graph.reshape``; ``shape`` may hold one -1."""
        shape = [int(s) for s in shape]
        out: List[Dim] = list(shape)
        if -1 in shape:
            k = shape.index(-1)
            n, rest = x.type.numel(), math.prod(s for s in shape if s != -1)
            out[k] = n // rest if n is not None and rest else None
        ty = x.type.with_shape(out)
        if ty == x.type and x.type.is_static:
            return x
        return self._op(ty, f"graph.reshape {x}, {_ints(shape)} : {x.type} -> {ty}")

    def broadcast_to(self, x: Value, shape: Sequence[Dim]) -> Value:
        """Broadcasts to ``shape`` (``None`` = keep the aligned input dim,
        printed as -1)."""
        off = len(shape) - x.rank
        out = [x.shape[i - off] if d is None else d for i, d in enumerate(shape)]
        ty = x.type.with_shape(out)
        if ty == x.type:
            return x
        attr = [-1 if d is None else d for d in shape]
        return self._op(ty, f"graph.broadcast_to {x}, {_ints(attr)} : {x.type} -> {ty}")

    def concat(self, xs: Sequence[Value], axis: int) -> Value:
        xs = list(xs)
        if len(xs) == 1:
            return xs[0]
        for v in xs[1:]:
            _same_dtype("concat", xs[0], v)
        shape: List[Dim] = []
        for d in range(xs[0].rank):
            dims = [v.shape[d] for v in xs]
            if d == axis:
                shape.append(None if None in dims else sum(dims))
            else:
                static = [s for s in dims if s is not None]
                shape.append(static[0] if static else None)
        ty = xs[0].type.with_shape(shape)
        return self._op(ty, f"graph.concat {', '.join(v.name for v in xs)} axis = {axis} : "
                            f"{', '.join(str(v.type) for v in xs)} -> {ty}")

    def slice(self, x: Value, start: Sequence[int], limit: Sequence[int],
              step: Sequence[int]) -> Value:
        shape = [(l - s + t - 1) // t for s, l, t in zip(start, limit, step)]
        ty = x.type.with_shape(shape)
        if ty == x.type and not any(start) and all(t == 1 for t in step):
            return x
        if 0 in shape:
            # An empty result is a constant. (The CPU lowering rejects an
            # empty graph.slice whose start is the dim size: its
            # tensor.extract_slice offset fails verification.)
            return self.constant(np.zeros(shape, x.dtype), hint="empty")
        return self._op(ty, f"graph.slice {x} {_ints(start)} {_ints(limit)} "
                            f"{_ints(step)} : {x.type} -> {ty}")

    def reduce(self, kind: str, x: Value, axes: Sequence[int],
               keepdims: bool = False) -> Value:
        """``sum mean max min`` over ``axes``."""
        axes = sorted(set(int(a) for a in axes))
        shape = [1 if i in axes else d for i, d in enumerate(x.shape)] if keepdims \
            else [d for i, d in enumerate(x.shape) if i not in axes]
        ty = x.type.with_shape(shape)
        kd = " keepdims" if keepdims else ""
        return self._op(ty, f"graph.reduce {kind} {x} axes = {_ints(axes)}{kd} : "
                            f"{x.type} -> {ty}")

    def softmax(self, x: Value, axis: int) -> Value:
        return self._op(x.type, f"graph.softmax {x} axis = {axis} : {x.type} -> {x.type}")

    # -- second op set ------------------------------------------------------------

    def generic(self, op: str, operands: Sequence[Value], attrs: Dict[str, object],
                result: TType) -> Value:
        """An op printed ``graph.op %a, %b {attrs} : (A, B) -> R``."""
        a = format_attr_dict(attrs)
        a = f" {a}" if a else ""
        return self._op(result, f"graph.{op} {', '.join(v.name for v in operands)}{a} : "
                                f"({', '.join(str(v.type) for v in operands)}) -> {result}")

    def with_attrs(self, op: str, x: Value, attrs: Dict[str, object],
                   result: TType) -> Value:
        """An op printed ``graph.op %x {attrs} : X -> R``."""
        a = format_attr_dict(attrs)
        a = f" {a}" if a else ""
        return self._op(result, f"graph.{op} {x}{a} : {x.type} -> {result}")

    def split(self, x: Value, axis: int, sizes: Sequence[int]) -> List[Value]:
        sizes = [int(s) for s in sizes]
        if len(sizes) == 1:
            return [x]
        types = [x.type.with_shape(x.shape[:axis] + (s,) + x.shape[axis + 1:])
                 for s in sizes]
        name = self.fresh()
        a = format_attr_dict({"axis": int(axis), "sizes": sizes})
        self._emit(f"{name}:{len(sizes)} = graph.split {x} {a} : {x.type} -> "
                   + ", ".join(str(t) for t in types))
        return [Value(f"{name}#{i}", t) for i, t in enumerate(types)]

    # -- control flow ---------------------------------------------------------------

    def loop(self, trip_count: Value, cond: Value, inits: Sequence[Value],
             body: Callable[[Value, List[Value]], Tuple[Value, Sequence[Value]]]
             ) -> List[Value]:
        """``graph.loop``: ``body(iv, carried)`` emits the body and returns
        ``(continue_condition, next_carried)``; the carried types must not
        change."""
        iv = Value(self.fresh("iv"), TType((), I64))
        args = [Value(self.fresh("carried"), v.type) for v in inits]
        self._regions.append([])
        self._indent.append(self._indent[-1] + 2)
        saved = (self._loc, self._hint)
        try:
            cont, nxt = body(iv, args)
            nxt = list(nxt)
            for a, b in zip(args, nxt):
                if a.type != b.type:
                    raise Unsupported(f"loop-carried value changes type: "
                                      f"{a.type} -> {b.type}")
            vals = [cont] + nxt
            self._emit(f"graph.yield {', '.join(v.name for v in vals)} : "
                       f"{', '.join(str(v.type) for v in vals)}", loc=False)
        finally:
            lines = self._regions.pop()
            self._indent.pop()
            self._loc, self._hint = saved
        operands = [trip_count, cond] + list(inits)
        name = self.fresh("loop")
        n = len(inits)
        head = f"{name}:{n}" if n > 1 else name
        self._emit(f"{head} = graph.loop {', '.join(v.name for v in operands)} : "
                   f"({', '.join(str(v.type) for v in operands)}) -> "
                   f"({', '.join(str(v.type) for v in inits)}) {{", loc=False)
        self._regions[-1].append(" " * self._indent[-1] + "^bb0(" + ", ".join(
            f"{v.name}: {v.type}" for v in [iv] + args) + "):")
        self._regions[-1].extend(lines)
        self._emit("}")
        if n == 1:
            return [Value(name, inits[0].type)]
        return [Value(f"{name}#{i}", v.type) for i, v in enumerate(inits)]


def _same_dtype(op: str, a: Value, b: Value) -> None:
    if a.dtype != b.dtype:
        raise Unsupported(f"graph.{op}: operand element types differ "
                          f"({a.type} vs {b.type})")
