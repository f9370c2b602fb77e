"""The one builder of MLIR text in the ``graph`` dialect, for every importer.

The importers do not link against MLIR: they print the module as text, which
``graph-opt``/``libGraphOpt.so`` parse and verify. This module knows the
textual syntax of every ``graph`` op (docs/Dialects/Graph.md and
docs/design/graph-ops-v2.md) and infers result types the way the C++ ops do,
so that callers only say *what* to compute::

    b = FunctionBuilder("main")                       # NumPy dtypes
    x = b.add_argument("x", TensorType((4, 10), np.float32), loc="x")
    b.set_results([b.unary("relu", x)])
    text = b.module_text()

It is keyed on MLIR element types: a frontend's dtypes reach it through a
:class:`DTypes` adapter, which names the MLIR element type of each dtype and
turns the frontend's constants into arrays. NumPy's adapter is here (the
ONNX importer uses NumPy dtypes, and must not need PyTorch, whose import
alone costs seconds); PyTorch's is in :mod:`.pytorch.dtypes`, registered when that
module is imported. :class:`TensorType` and :class:`Value` keep the
frontend's dtype objects, so each importer compares the dtypes it knows.

Every op is printed with the builder's current location
(:meth:`FunctionBuilder.set_location`): ``loc("name"("file":line:0))`` for
source positions (PyTorch) or ``loc("name"("kind"))`` for a node and its op
type (ONNX).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import re
import struct
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ._mlir_text import fix_float as _fix_float, pool_out, quote
from .errors import Unsupported

Dim = Optional[int]  # a static size, or None for a dynamic (`?`) dim

#: Non-splat constants with more elements than this are printed in the exact
#: hex form ``dense<"0x...">`` (fast to print and to parse).
HEX_THRESHOLD = 16

#: The 8-bit floats (ml_dtypes' names -> MLIR's).
FLOAT8_ELEMENTS = {"float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2",
                   "float8_e4m3fnuz": "f8E4M3FNUZ", "float8_e5m2fnuz": "f8E5M2FNUZ"}
FLOAT_ELEMENTS = ("f32", "f16", "bf16", "f64") + tuple(FLOAT8_ELEMENTS.values())
#: The 2- and 4-bit integers (ml_dtypes' names): carried one value per byte,
#: as i8 / ui8 tensors whose values are in the narrow type's range (the
#: ONNX importer's Cast, CastLike, QuantizeLinear and DequantizeLinear).
SUBBYTE_ELEMENTS = {"int4": "i8", "int2": "i8", "uint4": "ui8", "uint2": "ui8"}


# ---------------------------------------------------------------------------
# Element types: one adapter per frontend
# ---------------------------------------------------------------------------

class DTypes:
    """A frontend's element types, as the builder sees them. Subclasses set
    ``bool``, ``i64`` and ``f32`` (the frontend's dtypes for i1, i64 and
    f32) and define
    :meth:`element_type` and :meth:`array`."""

    bool: Any = None
    i64: Any = None
    f32: Any = None

    def element_type(self, dtype) -> str:
        """The MLIR element type of ``dtype``; :class:`Unsupported` for
        dtypes the dialect lacks."""
        raise NotImplementedError

    def normalize(self, dtype):
        """The canonical form of ``dtype`` (what TensorType stores)."""
        return dtype

    def is_float(self, dtype) -> bool:
        return self.element_type(dtype) in FLOAT_ELEMENTS

    def array(self, value) -> Tuple[np.ndarray, Any, str]:
        """A constant of the frontend as (NumPy array of its values, its
        dtype, MLIR element type). bf16 has no NumPy dtype: its values come
        as float32 (exact)."""
        raise NotImplementedError

    def full(self, shape: Sequence[int], value, dtype):
        """A constant of the frontend: ``shape`` filled with ``value``."""
        raise NotImplementedError

    def arange(self, n: int, dtype):
        """A constant of the frontend: ``[0, n)`` of ``dtype``."""
        return np.arange(n).astype(self.normalize(dtype))

    def from_numpy(self, array: np.ndarray, dtype):
        """A constant of the frontend: ``array``'s values as ``dtype``."""
        return np.ascontiguousarray(np.asarray(array).astype(self.normalize(dtype)))

    def key(self, value, dtype) -> tuple:
        """A hashable key for the scalar ``value`` of ``dtype`` (caching)."""
        return (repr(float(value)) if self.is_float(dtype) else int(value),
                self.normalize(dtype))


class NumpyDTypes(DTypes):
    """NumPy dtypes (the ONNX importer's)."""

    ELEMENTS: Dict[np.dtype, str] = {
        np.dtype(np.float32): "f32",
        np.dtype(np.float16): "f16",
        np.dtype(np.float64): "f64",
        np.dtype(np.bool_): "i1",
        np.dtype(np.int8): "i8",
        np.dtype(np.int16): "i16",
        np.dtype(np.int32): "i32",
        np.dtype(np.int64): "i64",
        np.dtype(np.uint8): "ui8",
        np.dtype(np.uint16): "ui16",
        np.dtype(np.uint32): "ui32",
        np.dtype(np.uint64): "ui64",
    }
    bool = np.dtype(np.bool_)
    i64 = np.dtype(np.int64)
    f32 = np.dtype(np.float32)

    def element_type(self, dtype) -> str:
        try:
            name = np.dtype(dtype).name
            if name == "bfloat16":
                return "bf16"  # ml_dtypes' bfloat16
            if name in FLOAT8_ELEMENTS:
                return FLOAT8_ELEMENTS[name]
            if name in SUBBYTE_ELEMENTS:
                return SUBBYTE_ELEMENTS[name]
            return self.ELEMENTS[np.dtype(dtype)]
        except (KeyError, TypeError):
            raise Unsupported(f"element type {np.dtype(dtype).name} is not "
                              "supported (supported: float32, float16, bfloat16, "
                              "float64, int8 ... int64, uint8 ... uint64, bool)") from None

    def normalize(self, dtype):
        return np.dtype(dtype)

    def array(self, value):
        a = np.asarray(value)
        element = self.element_type(a.dtype)
        if a.dtype.name in SUBBYTE_ELEMENTS:
            # ml_dtypes stores a 4-bit value in the low bits of its byte:
            # the values as bytes (the dtype stays the narrow one).
            return a.astype(np.int8 if element == "i8" else np.uint8), a.dtype, element
        return a, a.dtype, element

    def full(self, shape, value, dtype):
        return np.full(tuple(shape), value, np.dtype(dtype))


NUMPY = NumpyDTypes()
_ADAPTERS: Dict[type, DTypes] = {}


def register_dtypes(dtype_class: type, adapter: DTypes) -> None:
    """Dtypes of class ``dtype_class`` (e.g. ``torch.dtype``) use ``adapter``;
    any other dtype is read as a NumPy dtype."""
    _ADAPTERS[dtype_class] = adapter


def dtypes_of(dtype) -> DTypes:
    return _ADAPTERS.get(type(dtype), NUMPY)


def element_type(dtype) -> str:
    """The MLIR element type of a dtype of any registered frontend."""
    return dtypes_of(dtype).element_type(dtype)


def is_float(dtype) -> bool:
    return dtypes_of(dtype).is_float(dtype)


# ---------------------------------------------------------------------------
# Types and values
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class TensorType:
    """A ranked tensor type: ``shape`` (ints, ``None`` = dynamic) and a
    frontend dtype."""

    shape: Tuple[Dim, ...]
    dtype: Any

    def __post_init__(self):
        object.__setattr__(self, "shape", tuple(
            None if d is None else int(d) for d in self.shape))
        object.__setattr__(self, "dtype", dtypes_of(self.dtype).normalize(self.dtype))

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        return all(d is not None for d in self.shape)

    def numel(self) -> Optional[int]:
        """The element count, or None when a dim is dynamic."""
        return math.prod(self.shape) if self.is_static else None

    def with_shape(self, shape: Sequence[Dim]) -> "TensorType":
        return TensorType(tuple(shape), self.dtype)

    def with_dtype(self, dtype) -> "TensorType":
        return TensorType(self.shape, dtype)

    def __str__(self) -> str:
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        return f"tensor<{dims}{element_type(self.dtype)}>"


def join_types(a: TensorType, b: TensorType) -> TensorType:
    """The most static type compatible with both (dims that differ become
    dynamic). The dtypes must be equal."""
    if a.dtype != b.dtype or a.rank != b.rank:
        raise Unsupported(f"values of types {a} and {b} cannot be merged "
                          "(different rank or dtype)")
    return a.with_shape([x if x == y else None for x, y in zip(a.shape, b.shape)])


@dataclass(eq=False)
class Value:
    """An SSA value: a tensor of type ``type`` named ``name`` (with the %).

    ``weak`` marks a rank-0 tensor that stands for a Python scalar; type
    promotion treats it like a scalar (``x_f16 * 2.0`` stays f16). ``const``
    is the frontend's constant when known at import time.
    """

    name: str
    type: TensorType
    weak: bool = False
    const: Any = field(default=None, repr=False)

    @property
    def shape(self) -> Tuple[Dim, ...]:
        return self.type.shape

    @property
    def dtype(self):
        return self.type.dtype

    @property
    def rank(self) -> int:
        return self.type.rank

    def __str__(self) -> str:
        return self.name


# ---------------------------------------------------------------------------
# Literals: locations, floats, dense constants, attributes
# ---------------------------------------------------------------------------

def format_location(name: str, file: Optional[str] = None,
                    line: Optional[int] = None, kind: Optional[str] = None) -> str:
    """``loc("name"("file":line:0))``, ``loc("name"("kind"))``, or
    ``loc("name")``."""
    if file:
        return f"loc({quote(name)}({quote(file)}:{int(line or 0)}:0))"
    if kind:
        return f"loc({quote(name)}({quote(kind)}))"
    return f"loc({quote(name)})"


def format_float(v: float) -> str:
    """A float attribute/literal MLIR parses back to the same double:
    ``1.0``, ``1.0e-05`` (MLIR needs the ``.``), and hex bit patterns for
    inf and NaN."""
    v = float(v)
    if not math.isfinite(v):
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]
    return _fix_float(repr(v))


def _element_literal(v, element: str) -> str:
    if element == "i1":
        return "true" if v else "false"
    if element in ("i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64"):
        return str(int(v))
    if element == "f32":
        return _fix_float(str(np.float32(v)))
    if element == "f16":
        return _fix_float(str(np.float16(v)))
    return format_float(v)  # bf16 (the exact value) and f64


def _bits(flat: np.ndarray, element: str) -> np.ndarray:
    """The little-endian bit patterns of the elements (bf16 from the upper
    half of its exact float32 values)."""
    if element == "bf16":
        return (np.ascontiguousarray(flat, np.float32).view(np.uint32) >> 16).astype("<u2")
    # No copy when the array is contiguous and little-endian already.
    le = np.ascontiguousarray(flat, dtype=flat.dtype.newbyteorder("<"))
    return le.view(f"<u{le.dtype.itemsize}")


def _hex_dense(bits: np.ndarray) -> str:
    """``dense<"0x...">`` of the raw little-endian element bits ``bits``."""
    return 'dense<"0x' + bits.tobytes().hex() + '">'


def format_dense(a: np.ndarray, element: Optional[str] = None) -> str:
    """The ``dense<...>`` attribute (without its type) for the array ``a``
    of MLIR element type ``element`` (by default, ``a``'s NumPy dtype's).

    Splats (bitwise: -0.0 and NaNs stay exact) print one element, small
    arrays a nested list, larger ones and any holding inf/NaN the exact hex
    form ``dense<"0x...">`` (raw little-endian bytes in lower-case hex, which
    MLIR parses as well as upper case: upper-casing 100 MB of weights costs
    0.8 s; one element is a splat). Booleans always use the list form (i1 is bit-packed in MLIR's
    hex form).
    """
    a = np.asarray(a)
    element = element or NUMPY.element_type(a.dtype)
    if a.size == 0:
        return "dense<>"
    flat = a.reshape(-1)
    bits = _bits(flat, element)
    splat = bool((bits == bits[0]).all())
    if element == "i1":
        if splat:
            return f"dense<{_element_literal(bool(flat[0]), element)}>"
    else:
        finite = bool(np.isfinite(flat).all()) if element in FLOAT_ELEMENTS else True
        if splat and finite:
            return f"dense<{_element_literal(flat[0], element)}>"
        if splat:
            return _hex_dense(bits[:1])
        if a.size > HEX_THRESHOLD or not finite:
            return _hex_dense(bits)

    def nested(x):
        if x.ndim == 0:
            return _element_literal(x[()], element)
        return "[" + ", ".join(nested(y) for y in x) + "]"
    return f"dense<{nested(a)}>"


#: Under :func:`out_of_band_constants`, non-splat constants of at least this
#: many bytes are printed as ``dense_resource<NAME>`` with their data kept
#: aside.
OUT_OF_BAND_BYTES = 1024

_RESOURCE_RE = re.compile(r"dense_resource<(graphopt_const_[0-9]+)>")


class ConstantData:
    """The data of the ``dense_resource<NAME>`` constants of a module printed
    under :func:`out_of_band_constants`.

    ``raw`` maps each NAME to its raw little-endian elements (a NumPy array:
    a view of the frontend's tensor where it is contiguous, so the weights
    are not copied); ``graphopt.Program(text, constants=data.raw)`` passes
    them to the compiler as they are. :meth:`inline` gives the
    self-contained text (every constant printed ``dense<...>``), which is
    what any other MLIR tool needs.
    """

    def __init__(self):
        self.raw: Dict[str, np.ndarray] = {}
        self._source: Dict[str, Tuple[np.ndarray, str]] = {}

    def add(self, array: np.ndarray, element: str) -> Optional[str]:
        """``dense_resource<NAME>`` for ``array`` (of MLIR element type
        ``element``), or None when it is printed in the text (booleans,
        splats, fewer than :data:`OUT_OF_BAND_BYTES` bytes)."""
        if element == "i1" or array.nbytes < OUT_OF_BAND_BYTES:
            return None
        bits = _bits(array.reshape(-1), element)
        if bool((bits == bits[0]).all()):
            return None  # a splat: one element in the text
        name = f"graphopt_const_{len(self.raw)}"
        self.raw[name] = bits
        self._source[name] = (array, element)
        return f"dense_resource<{name}>"

    def inline(self, text: str) -> str:
        """``text`` with this store's ``dense_resource<NAME>`` constants
        printed as ``dense<...>`` attributes (the values as they are now: the
        arrays may be views of the model's tensors)."""
        if not self.raw:
            return text

        def dense(m):
            source = self._source.get(m.group(1))
            if source:
                return format_dense(*source)
            bits = self.raw.get(m.group(1))
            if bits is not None:  # data without its array (graphopt.import_cache)
                return _hex_dense(bits)
            return m.group(0)
        return _RESOURCE_RE.sub(dense, text)


_OUT_OF_BAND: contextvars.ContextVar = contextvars.ContextVar(
    "graphopt_out_of_band_constants", default=None)


@contextlib.contextmanager
def out_of_band_constants():
    """Within this block, builders print large constants as
    ``dense_resource<NAME>`` and keep their data in the yielded
    :class:`ConstantData` instead of printing hex text (for 340 MB of
    weights, ~1.7 s to print, more to join and parse, and 2-3 copies of the
    weights in memory)."""
    store = ConstantData()
    token = _OUT_OF_BAND.set(store)
    try:
        yield store
    finally:
        _OUT_OF_BAND.reset(token)


class F64Array(list):
    """A list attribute printed as ``array<f64: ...>`` (plain lists print as
    ``array<i64: ...>``)."""


def format_attr(value) -> str:
    """An attribute value: ints as ``i64``, floats as ``f64``, int lists as
    ``array<i64: ...>``, strings quoted."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("bool attributes are unit attributes; pass them as flags")
    if isinstance(value, (int, np.integer)):
        return f"{int(value)} : i64"
    if isinstance(value, (float, np.floating)):
        return f"{format_float(value)} : f64"
    if isinstance(value, F64Array):
        if not value:
            return "array<f64>"
        return "array<f64: " + ", ".join(format_float(v) for v in value) + ">"
    if isinstance(value, (list, tuple)):
        if not value:
            return "array<i64>"
        return "array<i64: " + ", ".join(str(int(v)) for v in value) + ">"
    if isinstance(value, str):
        return quote(value)
    raise TypeError(f"cannot print attribute {value!r}")


def format_attr_dict(attrs: Dict[str, object]) -> str:
    """``{a = 1 : i64, flag}``: ``True`` values are unit attributes, ``None``
    and ``False`` values are omitted. Empty: the empty string."""
    parts = []
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        parts.append(k if v is True else f"{k} = {format_attr(v)}")
    return "{" + ", ".join(parts) + "}" if parts else ""


def _ints(xs: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


# ---------------------------------------------------------------------------
# Shape inference helpers (mirroring the C++ ops' inferReturnTypes)
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
            if x == 1 or x is None:
                out[i] = y
            elif y is None:
                continue
            else:
                raise Unsupported(f"shapes {[list(t) for t in shapes]} are not "
                                  "broadcast-compatible")
    return tuple(out)


# ---------------------------------------------------------------------------
# The function builder
# ---------------------------------------------------------------------------

class _Region:
    """The lines of one region."""

    def __init__(self, indent: int):
        self.lines: List[str] = []
        self.indent = indent


_SSA_BAD = re.compile(r"[^A-Za-z0-9_$.-]")
_SSA_USE = re.compile(r"%[A-Za-z0-9_$.#-]+")


class FunctionBuilder:
    """Builds one ``func.func`` in the ``graph`` dialect.

    Every op method infers the result type, prints the op with the current
    location and returns the result :class:`Value` (a list for multi-result
    ops). Names are taken from the current name hint (:meth:`set_location`)
    and made unique.

    Constants are emitted lazily, at the top level of the function just
    before their first use, so constants that end up unused (folded away)
    are never printed and constants first used inside a region are visible
    after it too.
    """

    def __init__(self, name: str = "main", dtypes: DTypes = NUMPY):
        self.name = name
        self.dtypes = dtypes
        self.arguments: List[Tuple[Value, Optional[str]]] = []
        self.results: List[Value] = []
        self._names: Dict[str, int] = {}
        self._used: set = set()
        # The function is printed inside `module {`: its body at 4 spaces.
        self._regions: List[_Region] = [_Region(indent=4)]
        self._loc: Optional[str] = None
        self._hint = "v"
        self._pending: Dict[str, str] = {}   # constant name -> its line
        self._scalars: Dict[tuple, Value] = {}

    # -- names and locations ------------------------------------------------

    def set_location(self, name: str, file: Optional[str] = None,
                     line: Optional[int] = None, *, kind: Optional[str] = None,
                     hint: Optional[str] = None) -> None:
        """Location (and SSA name hint: ``hint``, else ``name``) for the ops
        emitted next: a source position (``file``, ``line``), or the kind of
        thing ``name`` names (an ONNX node's op type)."""
        self._loc = format_location(name, file, line, kind)
        self._hint = hint or name

    @contextlib.contextmanager
    def location(self, name: str, file: Optional[str] = None,
                 line: Optional[int] = None):
        """Context manager form of :meth:`set_location` that restores the
        previous location afterwards."""
        saved = (self._loc, self._hint)
        self.set_location(name, file, line)
        try:
            yield
        finally:
            self._loc, self._hint = saved

    def fresh(self, hint: Optional[str] = None) -> str:
        """A new unique SSA name (with the %) derived from ``hint``."""
        base = _SSA_BAD.sub("_", hint or self._hint) or "v"
        if not (base[0].isalpha() or base[0] == "_"):
            base = "v" + base
        while True:
            n = self._names.get(base, 0)
            self._names[base] = n + 1
            name = f"%{base}" if n == 0 else f"%{base}.{n}"
            if name not in self._used:
                self._used.add(name)
                return name

    def _emit(self, text: str, loc: bool = True) -> None:
        self._materialize(_SSA_USE.findall(text))
        region = self._regions[-1]
        suffix = f" {self._loc}" if loc and self._loc else ""
        for line in text.split("\n"):
            region.lines.append(" " * region.indent + line)
        region.lines[-1] += suffix

    def _materialize(self, names: Iterable[str]) -> None:
        """Prints the pending constants among ``names`` at the top level."""
        top = self._regions[0]
        for n in names:
            line = self._pending.pop(n.split("#")[0], None)
            if line is not None:
                top.lines.append(" " * top.indent + line)

    def _op(self, result_type: TensorType, body: str, *, weak: bool = False,
            const=None) -> Value:
        v = Value(self.fresh(), result_type, weak=weak, const=const)
        self._emit(f"{v.name} = {body}")
        return v

    # -- function signature ---------------------------------------------------

    def add_argument(self, name: str, type: TensorType,
                     loc: Optional[str] = None) -> Value:
        """Appends a function argument named after ``name``; ``loc`` is an
        optional location name (a parameter's qualified name, an ONNX input)."""
        v = Value(self.fresh(name), type)
        self.arguments.append((v, loc))
        return v

    def set_results(self, values: Sequence[Value]) -> None:
        self.results = list(values)

    def text(self) -> str:
        """The printed ``func.func`` (indented to sit in a ``module``)."""
        return "\n".join(self.text_lines())

    def text_lines(self) -> List[str]:
        """The lines of :meth:`text` (a module of large constants is joined
        once, not per function and again per module: BERT-12's 680 MB of
        text took 2.5 s more that way)."""
        args = []
        for v, loc in self.arguments:
            a = f"{v.name}: {v.type}"
            if loc:
                a += " " + format_location(loc)
            args.append(a)
        self._materialize(v.name for v in self.results)
        res = ", ".join(str(v.type) for v in self.results)
        if len(self.results) != 1:
            res = f"({res})"
        lines = [f"  func.func @{self.name}({', '.join(args)}) -> {res} {{"]
        lines += self._regions[0].lines
        ret = "    return"
        if self.results:
            ret += " " + ", ".join(v.name for v in self.results) + " : " + \
                ", ".join(str(v.type) for v in self.results)
        lines.append(ret)
        lines.append("  }")
        return lines

    def module_text(self) -> str:
        """A module holding this function alone."""
        return module_text([self])

    # -- constants --------------------------------------------------------------

    def constant(self, value, *, weak: bool = False, hint: Optional[str] = None) -> Value:
        """``graph.constant`` holding ``value`` (a constant of the frontend:
        a NumPy array, a torch tensor)."""
        array, dtype, element = dtypes_of_value(self.dtypes, value)
        ty = TensorType(tuple(array.shape), dtype)
        v = Value(self.fresh(hint or "cst"), ty, weak=weak, const=value)
        loc = f" {self._loc}" if self._loc else ""
        store = _OUT_OF_BAND.get()
        attr = store.add(array, element) if store is not None else None
        self._pending[v.name] = \
            f"{v.name} = graph.constant {attr or format_dense(array, element)} : {ty}{loc}"
        return v

    def scalar(self, value, dtype, *, weak: bool = True) -> Value:
        """A rank-0 constant (cached: each scalar is emitted once)."""
        return self.splat(value, dtype, (), weak=weak)

    def splat(self, value, dtype, shape: Sequence[int] = (), *,
              weak: bool = False) -> Value:
        """A constant of ``shape`` filled with ``value`` (cached per value,
        dtype, shape and weakness)."""
        key = self.dtypes.key(value, dtype) + (tuple(shape), weak)
        if key not in self._scalars:
            self._scalars[key] = self.constant(
                self.dtypes.full(shape, value, dtype), weak=weak, hint="cst")
        return self._scalars[key]

    # -- elementwise ------------------------------------------------------------

    def binary(self, op: str, lhs: Value, rhs: Value) -> Value:
        """``add sub mul div max min pow rem``, and on integer (or bool)
        tensors ``bitwise_and bitwise_or bitwise_xor shift_left shift_right``
        (operands of one dtype, broadcast)."""
        _same_dtype(op, lhs, rhs)
        ty = lhs.type.with_shape(broadcast_shapes(lhs.shape, rhs.shape))
        return self._op(ty, f"graph.{op} {lhs}, {rhs} : {lhs.type}, {rhs.type} -> {ty}",
                        weak=lhs.weak and rhs.weak)

    def python_mod(self, lhs: Value, rhs: Value) -> Value:
        """Python's ``%`` (numpy.mod, torch.remainder, ONNX Mod with fmod
        0): ``graph.rem`` (the sign of ``lhs``), plus ``rhs`` where that is
        nonzero and its sign differs from ``rhs``'s."""
        r = self.binary("rem", lhs, rhs)
        zero = self.splat(0, lhs.dtype)
        differ = self.compare("ne", self.compare("lt", r, zero), self.compare("lt", rhs, zero))
        fix = self.select(self.compare("ne", r, zero), differ, self.splat(False, self.dtypes.bool))
        return self.select(fix, self.binary("add", r, rhs), r)

    def unary(self, op: str, x: Value, attrs: Optional[Dict[str, object]] = None) -> Value:
        """Elementwise unary op: ``neg abs exp log sqrt rsqrt tanh sigmoid
        relu silu erf hardswish hardsigmoid sin cos tan asin acos atan sinh
        cosh asinh acosh atanh leaky_relu clamp`` (the last two with
        attributes)."""
        a = format_attr_dict(attrs or {})
        a = f" {a}" if a else ""
        return self._op(x.type, f"graph.{op} {x}{a} : {x.type} -> {x.type}",
                        weak=x.weak)

    def gelu(self, x: Value, approximate: str = "none") -> Value:
        a = " approximate = tanh" if approximate == "tanh" else ""
        return self._op(x.type, f"graph.gelu {x}{a} : {x.type} -> {x.type}")

    def compare(self, direction: str, lhs: Value, rhs: Value) -> Value:
        """``eq ne lt le gt ge``; an i1 result."""
        _same_dtype("compare", lhs, rhs)
        ty = TensorType(broadcast_shapes(lhs.shape, rhs.shape), self.dtypes.bool)
        return self._op(ty, f"graph.compare {direction}, {lhs}, {rhs} : "
                            f"{lhs.type}, {rhs.type} -> {ty}",
                        weak=lhs.weak and rhs.weak)

    def select(self, cond: Value, on_true: Value, on_false: Value) -> Value:
        _same_dtype("select", on_true, on_false)
        shape = broadcast_shapes(cond.shape, on_true.shape, on_false.shape)
        ty = on_true.type.with_shape(shape)
        return self._op(ty, f"graph.select {cond}, {on_true}, {on_false} : "
                            f"{cond.type}, {on_true.type}, {on_false.type} -> {ty}",
                        weak=on_true.weak and on_false.weak)

    def cast(self, x: Value, dtype=None, *, type: Optional[TensorType] = None) -> Value:
        """Converts ``x`` to ``dtype`` (no-op when equal), or to the exact
        ``type`` (same dtype and a compatible, e.g. less static, shape: the
        dialect's way to widen a type)."""
        target = type or x.type.with_dtype(dtype)
        if target == x.type:
            return x
        return self._op(target, f"graph.cast {x} : {x.type} -> {target}", weak=x.weak)

    # -- linear algebra, shapes ---------------------------------------------------

    def matmul(self, lhs: Value, rhs: Value) -> Value:
        """torch.matmul/numpy.matmul semantics (1-D operands promoted)."""
        _same_dtype("matmul", lhs, rhs)
        a, b = lhs.shape, rhs.shape
        if not a or not b:
            raise Unsupported(f"matmul operands must have rank >= 1 (shapes {list(a)} "
                              f"and {list(b)})")
        k_lhs, k_rhs = a[-1], (b[-2] if len(b) >= 2 else b[0])
        if k_lhs is not None and k_rhs is not None and k_lhs != k_rhs:
            raise Unsupported(f"the operands do not multiply: shapes {list(a)} and "
                              f"{list(b)} (contraction dims {k_lhs} and {k_rhs})")
        batch = broadcast_shapes(a[:-2], b[:-2])
        shape = batch + (a[-2:-1] if len(a) >= 2 else ()) + (b[-1:] if len(b) >= 2 else ())
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
        if shape.count(-1) > 1:
            raise Unsupported(
                f"cannot reshape {x.type} to {shape}: more than one dynamic "
                "dimension (graph.reshape takes at most one -1)")
        out: List[Dim] = list(shape)
        if -1 in shape:
            k = shape.index(-1)
            n, rest = x.type.numel(), math.prod(s for s in shape if s != -1)
            out[k] = n // rest if n is not None and rest else None
        ty = x.type.with_shape(out)
        if ty == x.type and x.type.is_static:
            return x
        return self._op(ty, f"graph.reshape {x}, {_ints(shape)} : {x.type} -> {ty}",
                        weak=x.weak)

    def reshape_to(self, x: Value, shape: Sequence[Dim]) -> Value:
        """Reshapes to a shape given with ``None`` for dynamic dims (which
        become the -1 entry; at most one may be dynamic unless the dims
        carry over from the input unchanged)."""
        shape = list(shape)
        if list(x.shape) == shape:
            return x
        return self.reshape(x, [-1 if d is None else d for d in shape])

    def broadcast_to(self, x: Value, shape: Sequence[Dim]) -> Value:
        """``graph.broadcast_to``; a -1 or ``None`` entry keeps the aligned
        input dim (printed as -1)."""
        shape = [-1 if s is None else int(s) for s in shape]
        off = len(shape) - x.rank
        if off < 0:
            raise Unsupported(f"cannot broadcast {x.type} to fewer dims {shape}")
        out: List[Dim] = []
        for i, s in enumerate(shape):
            if s == -1:
                if i < off:
                    raise Unsupported(f"broadcast shape {shape}: -1 at a new "
                                      "leading dim")
                out.append(x.shape[i - off])
            else:
                out.append(s)
        ty = x.type.with_shape(out)
        if ty == x.type and x.type.is_static:
            return x
        return self._op(ty, f"graph.broadcast_to {x}, {_ints(shape)} : {x.type} -> {ty}")

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
        if ty == x.type and all(s == 0 for s in start) and all(t == 1 for t in step):
            return x
        if 0 in shape:
            # An empty result is a constant. (The CPU lowering rejects an
            # empty graph.slice whose start is the dim size: its
            # tensor.extract_slice offset fails verification.)
            return self.constant(self.dtypes.full(shape, 0, x.dtype), hint="empty")
        return self._op(ty, f"graph.slice {x} {_ints(start)} {_ints(limit)} "
                            f"{_ints(step)} : {x.type} -> {ty}")

    def reduce(self, kind: str, x: Value, axes: Sequence[int],
               keepdims: bool = False) -> Value:
        """``sum``, ``mean``, ``max`` or ``min`` over ``axes``."""
        axes = sorted(set(int(a) for a in axes))
        shape = [1 if i in axes else d for i, d in enumerate(x.shape)] if keepdims \
            else [d for i, d in enumerate(x.shape) if i not in axes]
        ty = x.type.with_shape(shape)
        kd = " keepdims" if keepdims else ""
        return self._op(ty, f"graph.reduce {kind} {x} axes = {_ints(axes)}{kd} : "
                            f"{x.type} -> {ty}")

    def softmax(self, x: Value, axis: int) -> Value:
        return self._op(x.type, f"graph.softmax {x} axis = {axis} : {x.type} -> {x.type}")

    # -- second op set (docs/design/graph-ops-v2.md) ------------------------------

    def generic(self, op: str, operands: Sequence[Value], attrs: Dict[str, object],
                result: TensorType) -> Value:
        """An op printed ``graph.op %a, %b {attrs} : (A, B) -> R``."""
        a = format_attr_dict(attrs)
        a = f" {a}" if a else ""
        ops = ", ".join(v.name for v in operands)
        tys = ", ".join(str(v.type) for v in operands)
        return self._op(result, f"graph.{op} {ops}{a} : ({tys}) -> {result}")

    def with_attrs(self, op: str, x: Value, attrs: Dict[str, object],
                   result: TensorType) -> Value:
        """An op printed ``graph.op %x {attrs} : X -> R``."""
        a = format_attr_dict(attrs)
        a = f" {a}" if a else ""
        return self._op(result, f"graph.{op} {x}{a} : {x.type} -> {result}")

    def conv2d(self, x: Value, w: Value, b: Optional[Value], *, strides, padding,
               dilations, groups: int) -> Value:
        """NCHW/FCHW convolution; ``padding`` is [top, left, bottom, right]."""
        n, _, h, wd = x.shape
        f, _, kh, kw = w.shape
        if kh is None or kw is None:
            raise Unsupported("conv2d needs a static kernel size")
        oh = pool_out(h, kh, strides[0], padding[0], padding[2], dilations[0], False)
        ow = pool_out(wd, kw, strides[1], padding[1], padding[3], dilations[1], False)
        ty = x.type.with_shape([n, f, oh, ow])
        attrs = {"strides": list(strides), "padding": list(padding),
                 "dilations": list(dilations), "groups": int(groups)}
        return self.generic("conv2d", [x, w] + ([b] if b is not None else []), attrs, ty)

    def conv_transpose2d(self, x: Value, w: Value, b: Optional[Value], *, strides,
                         padding, output_padding, dilations, groups: int) -> Value:
        """Transposed convolution (ConvTranspose, conv_transpose2d): ``x``
        NCHW, ``w`` ``[C, F / groups, KH, KW]``, ``padding`` [top, left,
        bottom, right] cropped from the full output, ``output_padding``
        [h, w] added at the bottom/right. The output is
        ``(H - 1) * stride - top - bottom + dilation * (KH - 1) +
        output_padding + 1``.

        A kernel equal to its stride with no padding, dilation or groups
        (U-Net's up-convolutions): one 1x1 convolution to ``F * KH * KW``
        channels, each pixel's ``KH x KW`` block moved into place by a
        reshape and transpose. Otherwise the convolution it is the gradient
        of: the input with ``stride - 1`` zeros between pixels, padded by
        ``dilation * (K - 1) - pad``, convolved at stride 1 with the kernel
        flipped and its channel dims swapped per group (the zeros cost
        ``stride^2`` more multiplications). Constant weights are rearranged
        at import time."""
        n, c, h, wd = x.shape
        cg, fg, kh, kw = w.shape
        if None in (c, h, wd, cg, fg, kh, kw):
            raise Unsupported("conv_transpose2d needs static channel, spatial and kernel dims")
        if c != cg or c % groups:
            raise Unsupported(f"invalid model: the weight {list(w.shape)} does not match "
                              f"{c} input channels in {groups} groups")
        sh, sw = strides
        dh, dw = dilations
        top, left, bottom, right = padding
        oph, opw = output_padding
        f = fg * groups
        oh = (h - 1) * sh - top - bottom + dh * (kh - 1) + oph + 1
        ow = (wd - 1) * sw - left - right + dw * (kw - 1) + opw + 1
        if oh < 1 or ow < 1:
            raise Unsupported(f"invalid model: a transposed convolution output of {oh}x{ow}")
        wc = getattr(w, "const", None)
        wc = None if wc is None else np.asarray(
            wc.detach().cpu().numpy() if hasattr(wc, "detach") else wc)

        def weight(array_fn, graph_fn):
            return self.constant(np.ascontiguousarray(array_fn(wc)).astype(wc.dtype)) \
                if wc is not None else graph_fn(w)

        if ((kh, kw) == (sh, sw) and not any(padding) and (oph, opw) == (0, 0)
                and (dh, dw) == (1, 1) and groups == 1):
            # [C, F, KH, KW] -> [F * KH * KW, C, 1, 1]
            w1 = weight(lambda a: a.transpose(1, 2, 3, 0).reshape(f * kh * kw, c, 1, 1),
                        lambda v: self.reshape(self.transpose(v, [1, 2, 3, 0]),
                                               [f * kh * kw, c, 1, 1]))
            z = self.conv2d(x, w1, None, strides=[1, 1], padding=[0, 0, 0, 0],
                            dilations=[1, 1], groups=1)
            z = self.reshape(z, [n if n is not None else -1, f, kh, kw, h, wd])
            z = self.transpose(z, [0, 1, 4, 2, 5, 3])
            y = self.reshape(z, [n if n is not None else -1, f, oh, ow])
            if b is not None:
                y = self.binary("add", y, self.reshape(b, [f, 1, 1]))
            return y
        # The flipped kernel, [G, C/G, F/G, KH, KW] -> [F, C/G, KH, KW].
        def flip(v):
            rev = lambda k: self.constant(np.arange(k - 1, -1, -1, dtype=np.int64))
            v = self.gather(self.gather(v, rev(kh), 2), rev(kw), 3)
            v = self.reshape(v, [groups, c // groups, fg, kh, kw])
            return self.reshape(self.transpose(v, [0, 2, 1, 3, 4]), [f, c // groups, kh, kw])
        w2 = weight(lambda a: a[:, :, ::-1, ::-1].reshape(groups, c // groups, fg, kh, kw)
                    .transpose(0, 2, 1, 3, 4).reshape(f, c // groups, kh, kw), flip)
        xs = x
        lo = [dh * (kh - 1) - top, dw * (kw - 1) - left]
        hi = [dh * (kh - 1) - bottom + oph, dw * (kw - 1) - right + opw]
        if (sh, sw) != (1, 1) and n is not None:
            return self._conv_transpose_phases(x, w2, b, wc is not None, (sh, sw),
                                               (dh, dw), lo, (oh, ow), groups)
        if (sh, sw) != (1, 1):
            # Zeros between pixels: [N, C, H, 1, W, 1] padded to
            # [N, C, H, sh, W, sw] and flattened; the stride - 1 zeros this
            # leaves after the last pixel count as bottom/right padding.
            nn_ = n if n is not None else -1
            xs = self.reshape(x, [nn_, c, h, 1, wd, 1])
            xs = self.pad(xs, [0] * 6, [0, 0, 0, sh - 1, 0, sw - 1], 0.0)
            xs = self.reshape(xs, [nn_, c, h * sh, wd * sw])
            hi = [hi[0] - (sh - 1), hi[1] - (sw - 1)]
        if min(lo + hi) < 0:  # more padding than the kernel covers: crop
            if n is None:
                raise Unsupported("conv_transpose2d padding beyond the kernel with a "
                                  "dynamic batch")
            hs, ws = xs.shape[2], xs.shape[3]
            xs = self.slice(xs, [0, 0, max(-lo[0], 0), max(-lo[1], 0)],
                            [n, c, hs - max(-hi[0], 0), ws - max(-hi[1], 0)], [1] * 4)
            lo, hi = [max(v, 0) for v in lo], [max(v, 0) for v in hi]
        return self.conv2d(xs, w2, b, strides=[1, 1], padding=[lo[0], lo[1], hi[0], hi[1]],
                           dilations=[dh, dw], groups=groups)

    def _conv_transpose_phases(self, x: Value, w2: Value, b: Optional[Value],
                               const_weight: bool, strides, dilations, lo, out,
                               groups: int) -> Value:
        """A strided transposed convolution as ``sh * sw`` stride-1
        convolutions, one per output phase (output pixel ``(s q + r)``),
        each with the taps of the flipped kernel ``w2`` that meet input
        pixels at that phase (no multiplications by inserted zeros), the
        phases then interleaved. In the zero-inserted form, output ``o``
        reads input ``(o + t d - lo) / s`` through tap ``t`` when that
        divides; for ``o = s q + r`` the taps are ``t`` with
        ``(r + t d - lo) % s == 0``, input ``q + e_t``, the ``e_t`` spaced
        ``d / gcd(s, d)`` apart: a stride-1 convolution at that dilation
        over the input shifted by ``e_first``."""
        n, c, h, wd = x.shape
        f = w2.shape[0]
        sizes = (h, wd)

        def plan(dim):
            s, d, size, o = strides[dim], dilations[dim], sizes[dim], out[dim]
            k = w2.shape[2 + dim]
            g = math.gcd(s, d)
            phases = []
            for r in range(s):
                count = len(range(r, o, s))
                taps = [t for t in range(k) if (r + t * d - lo[dim]) % s == 0]
                if not taps:
                    phases.append((count, None))
                    continue
                first = (r + taps[0] * d - lo[dim]) // s
                span = count + (len(taps) - 1) * (d // g)
                phases.append((count, (taps, d // g, -first, span - size + first)))
            return phases

        rows, cols = plan(0), plan(1)
        qh, qw = rows[0][0], cols[0][0]  # phase 0 has the most pixels
        wc = w2.const if const_weight else None
        wc = None if wc is None else np.asarray(
            wc.detach().cpu().numpy() if hasattr(wc, "detach") else wc)
        dtype = x.type.dtype
        blocks = []
        for ch, rp in rows:
            line = []
            for cw, cp in cols:
                if rp is None or cp is None:
                    y = self.splat(0.0, dtype, [n, f, ch, cw])
                    if b is not None:
                        y = self.binary("add", y, self.reshape(b, [f, 1, 1]))
                else:
                    (th, dil_h, lo_h, hi_h), (tw, dil_w, lo_w, hi_w) = rp, cp
                    if wc is not None:
                        v = self.constant(np.ascontiguousarray(wc[:, :, th][:, :, :, tw]))
                    else:
                        idx = lambda t: self.constant(np.array(t, dtype=np.int64))
                        v = self.gather(self.gather(w2, idx(th), 2), idx(tw), 3)
                    xi = x
                    if min(lo_h, lo_w, hi_h, hi_w) < 0:
                        xi = self.slice(x, [0, 0, max(-lo_h, 0), max(-lo_w, 0)],
                                        [n, c, h - max(-hi_h, 0), wd - max(-hi_w, 0)],
                                        [1] * 4)
                    y = self.conv2d(xi, v, b, strides=[1, 1],
                                    padding=[max(lo_h, 0), max(lo_w, 0),
                                             max(hi_h, 0), max(hi_w, 0)],
                                    dilations=[dil_h, dil_w], groups=groups)
                if (ch, cw) != (qh, qw):
                    y = self.pad(y, [0] * 4, [0, 0, qh - ch, qw - cw], 0.0)
                line.append(self.reshape(y, [n, f, 1, 1, qh, qw]))
            blocks.append(self.concat(line, 3))
        y = self.concat(blocks, 2)  # [N, F, sh, sw, Qh, Qw]
        y = self.reshape(self.transpose(y, [0, 1, 4, 2, 5, 3]),
                         [n, f, qh * strides[0], qw * strides[1]])
        if (qh * strides[0], qw * strides[1]) != tuple(out):
            y = self.slice(y, [0] * 4, [n, f, out[0], out[1]], [1] * 4)
        return y

    def pool2d(self, kind: str, x: Value, *, kernel, strides, padding,
               dilations=(1, 1), ceil_mode=False, count_include_pad=None) -> Value:
        """``max_pool2d`` or ``avg_pool2d`` on NCHW."""
        n, c, h, w = x.shape
        oh = pool_out(h, kernel[0], strides[0], padding[0], padding[2], dilations[0], ceil_mode)
        ow = pool_out(w, kernel[1], strides[1], padding[1], padding[3], dilations[1], ceil_mode)
        attrs = {"kernel": list(kernel), "strides": list(strides),
                 "padding": list(padding)}
        if kind == "max_pool2d":
            attrs["dilations"] = list(dilations)
        attrs["ceil_mode"] = bool(ceil_mode)
        if kind == "avg_pool2d":
            attrs["count_include_pad"] = bool(count_include_pad)
        return self.generic(kind, [x], attrs, x.type.with_shape([n, c, oh, ow]))

    def adaptive_avg_pool2d(self, x: Value, output_size) -> Value:
        ty = x.type.with_shape(list(x.shape[:-2]) + list(output_size))
        return self.generic("adaptive_avg_pool2d", [x],
                            {"output_size": list(output_size)}, ty)

    def resize(self, x: Value, sizes, scales, attrs: Dict[str, object]) -> Value:
        """``graph.resize`` to ``sizes`` (-1: the dim kept), ``scales`` the
        per-dim factors of the coordinate formula; ``attrs`` the rest."""
        ty = x.type.with_shape([d if s == -1 else s for d, s in zip(x.shape, sizes)])
        return self.with_attrs("resize", x, {"sizes": list(sizes),
                                             "scales": F64Array(scales), **attrs}, ty)

    def batch_norm(self, x, mean, var, weight, bias, epsilon: float) -> Value:
        return self.generic("batch_norm", [x, mean, var, weight, bias],
                            {"epsilon": float(epsilon)}, x.type)

    def layer_norm(self, x, weight, bias, epsilon: float) -> Value:
        return self.generic("layer_norm", [x, weight, bias],
                            {"epsilon": float(epsilon)}, x.type)

    def gather(self, x: Value, indices: Value, axis: int) -> Value:
        """``x`` indexed along ``axis`` by ``indices`` (a rank-0 index
        removes the axis)."""
        shape = x.shape[:axis] + indices.shape + x.shape[axis + 1:]
        return self.generic("gather", [x, indices], {"axis": int(axis)},
                            x.type.with_shape(shape))

    def gather_elements(self, x: Value, indices: Value, axis: int) -> Value:
        """``x`` at ``indices`` along ``axis``, element by element
        (``torch.gather``, ``numpy.take_along_axis``)."""
        return self.generic("gather_elements", [x, indices], {"axis": int(axis)},
                            x.type.with_shape(indices.shape))

    def scatter(self, data: Value, indices: Value, updates: Value, axis: int,
                reduction: str = "none") -> Value:
        """``data`` with ``updates`` written at ``indices`` along ``axis``
        (``none``) or combined with what is there (``add``, ``mul``, ``max``,
        ``min``); ``indices`` and ``updates`` have one shape."""
        return self._op(data.type,
                        f"graph.scatter {reduction} {data}, {indices}, {updates} "
                        f"{{axis = {int(axis)} : i64}} : ({data.type}, {indices.type}, "
                        f"{updates.type}) -> {data.type}")

    def pad(self, x: Value, low: Sequence[int], high: Sequence[int], value: float) -> Value:
        shape = [None if d is None else d + lo + hi
                 for d, lo, hi in zip(x.shape, low, high)]
        ty = x.type.with_shape(shape)
        a = format_attr_dict({"low": list(low), "high": list(high),
                              "value": float(value)})
        return self._op(ty, f"graph.pad {x} {a} : {x.type} -> {ty}")

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

    def argmax(self, x: Value, axis: int, keepdims: bool = False) -> Value:
        shape = list(x.shape)
        if keepdims:
            shape[axis] = 1
        else:
            del shape[axis]
        ty = TensorType(tuple(shape), self.dtypes.i64)
        a = format_attr_dict({"axis": int(axis), "keepdims": keepdims})
        return self._op(ty, f"graph.argmax {x} {a} : {x.type} -> {ty}")

    def topk(self, x: Value, k: int, axis: int, largest: bool = True):
        """The ``k`` largest (or smallest) elements along ``axis`` and their
        i64 indices, sorted (torch.topk, ONNX TopK): ``k`` rounds of
        ``graph.argmax`` and a max reduction, each masking the element it
        took. Ties go to the lower index; a NaN counts as the largest. The
        work is ``k`` passes over ``x`` (meant for the small ``k`` of
        detection heads and beam search, not for sorting)."""
        d = x.shape[axis]
        if d is None:
            raise Unsupported("topk along a dynamic dim")
        if not 1 <= k <= d:
            raise Unsupported(f"topk k = {k} for a dim of {d} (1 <= k <= {d} supported)")
        element = self.dtypes.element_type(x.dtype)
        if self.dtypes.is_float(x.dtype):
            flip = lambda v: self.unary("neg", v)
            fill = self.splat(float("-inf"), x.dtype)
        elif element.startswith(("i", "ui")) and element.lstrip("ui").isdigit():
            # -x - 1 reverses the order of signed and unsigned integers alike
            # (wrapping), without -x's overflow at the minimum.
            one = self.splat(1, x.dtype)
            flip = lambda v: self.binary("sub", self.unary("neg", v), one)
            bits = int(element.lstrip("ui"))
            fill = self.splat(0 if element.startswith("ui") else -(2 ** (bits - 1)), x.dtype)
        else:
            raise Unsupported(f"topk of {element}")
        work = x if largest else flip(x)
        shape = [1] * x.rank
        shape[axis] = d
        iota = self.constant(self.dtypes.arange(d, self.dtypes.i64).reshape(shape),
                             hint="iota")
        values, indices = [], []
        for i in range(k):
            idx = self.argmax(work, axis, keepdims=True)
            values.append(self.reduce("max", work, [axis], keepdims=True))
            indices.append(idx)
            if i + 1 < k:
                work = self.select(self.compare("eq", iota, idx), fill, work)
        v, ix = self.concat(values, axis), self.concat(indices, axis)
        return (v if largest else flip(v)), ix

    def cumsum(self, x: Value, axis: int) -> Value:
        a = format_attr_dict({"axis": int(axis)})
        return self._op(x.type, f"graph.cumsum {x} {a} : {x.type} -> {x.type}")

    def cumprod(self, x: Value, axis: int) -> Value:
        a = format_attr_dict({"axis": int(axis)})
        return self._op(x.type, f"graph.cumprod {x} {a} : {x.type} -> {x.type}")

    def scaled_dot_product_attention(self, q, k, v, mask=None, *, scale=None,
                                     is_causal=False) -> Value:
        ty = q.type.with_shape(q.shape[:-1] + v.shape[-1:])
        attrs = {"scale": None if scale is None else float(scale),
                 "is_causal": bool(is_causal)}
        return self.generic("scaled_dot_product_attention",
                            [q, k, v] + ([mask] if mask is not None else []),
                            attrs, ty)

    def dynamic_update_slice(self, dest: Value, update: Value, index: Value,
                             axis: int) -> Value:
        return self.generic("dynamic_update_slice", [dest, update, index],
                            {"axis": int(axis)}, dest.type)

    # -- control flow -------------------------------------------------------------

    @contextlib.contextmanager
    def _region(self, region: _Region):
        self._regions.append(region)
        try:
            yield region
        finally:
            self._regions.pop()

    def _new_region(self) -> _Region:
        return _Region(indent=self._regions[-1].indent + 2)

    def _yield(self, values: Sequence[Value]) -> None:
        if values:
            self._emit(f"graph.yield {', '.join(v.name for v in values)} : "
                       f"{', '.join(str(v.type) for v in values)}", loc=False)
        else:
            self._emit("graph.yield", loc=False)

    def _is_bool_scalar(self, v: Value) -> bool:
        return v.rank == 0 and element_type(v.dtype) == "i1"

    def if_(self, cond: Value, then_fn: Callable[[], Sequence[Value]],
            else_fn: Callable[[], Sequence[Value]]) -> List[Value]:
        """``graph.if``: each function emits its branch and returns the
        values to yield. Result types are the join of both branches' types
        (a branch value of a more static type is widened with a cast)."""
        if not self._is_bool_scalar(cond):
            raise Unsupported(f"if condition must be tensor<i1>, got {cond.type}")
        saved_loc = (self._loc, self._hint)
        then_r, else_r = self._new_region(), self._new_region()
        with self._region(then_r):
            then_vals = list(then_fn())
        self._loc, self._hint = saved_loc
        with self._region(else_r):
            else_vals = list(else_fn())
        self._loc, self._hint = saved_loc
        if len(then_vals) != len(else_vals):
            raise Unsupported("if branches yield different numbers of values")
        types = [join_types(a.type, b.type) for a, b in zip(then_vals, else_vals)]
        for region, vals in ((then_r, then_vals), (else_r, else_vals)):
            with self._region(region):
                self._yield([self.cast(v, type=t) for v, t in zip(vals, types)])
        name = self.fresh()
        res = ", ".join(str(t) for t in types)
        head = f"{name}:{len(types)}" if len(types) > 1 else name
        self._emit(f"{head} = graph.if {cond} : {cond.type} -> {res} {{", loc=False)
        self._regions[-1].lines += then_r.lines
        self._emit("} else {", loc=False)
        self._regions[-1].lines += else_r.lines
        self._emit("}")
        weak = [a.weak and b.weak for a, b in zip(then_vals, else_vals)]
        if len(types) == 1:
            return [Value(name, types[0], weak=weak[0])]
        return [Value(f"{name}#{i}", t, weak=w) for i, (t, w) in enumerate(zip(types, weak))]

    def loop(self, trip_count: Value, cond: Value, init: Sequence[Value],
             body_fn: Callable[[Value, List[Value]], Tuple[Value, Sequence[Value]]],
             iv_hint: str = "iv", carried_hints: Optional[Sequence[str]] = None) -> List[Value]:
        """``graph.loop`` (ONNX Loop / prim::Loop semantics).

        ``body_fn(iv, carried)`` emits the body and returns ``(continue_cond,
        next_carried)``. When a carried value's type changes across an
        iteration (a dim that grows), the carried type is widened to the
        join and the body is emitted again.
        """
        if not init:
            raise Unsupported("a loop needs at least one loop-carried tensor")
        types = [v.type for v in init]
        saved_loc = (self._loc, self._hint)
        hints = list(carried_hints or ["arg"] * len(init))
        for _attempt in range(4):
            region = self._new_region()
            iv = Value(self.fresh(iv_hint), TensorType((), self.dtypes.i64), weak=True)
            args = [Value(self.fresh(h), t, weak=v.weak)
                    for h, t, v in zip(hints, types, init)]
            with self._region(region):
                cont, nxt = body_fn(iv, args)
                nxt = list(nxt)
            self._loc, self._hint = saved_loc
            if len(nxt) != len(types):
                raise Unsupported("loop body yields a different number of values")
            joined = [join_types(t, v.type) for t, v in zip(types, nxt)]
            if joined == types:
                break
            types = joined
        else:
            raise Unsupported("loop-carried types do not converge")
        if not self._is_bool_scalar(cont):
            raise Unsupported(f"loop condition must be tensor<i1>, got {cont.type}")
        with self._region(region):
            self._yield([cont] + [self.cast(v, type=t) for v, t in zip(nxt, types)])
        init = [self.cast(v, type=t) for v, t in zip(init, types)]
        operands = [trip_count, cond] + init
        name = self.fresh()
        head = f"{name}:{len(types)}" if len(types) > 1 else name
        self._emit(f"{head} = graph.loop {', '.join(v.name for v in operands)} : "
                   f"({', '.join(str(v.type) for v in operands)}) -> "
                   f"({', '.join(str(t) for t in types)}) {{", loc=False)
        self._regions[-1].lines.append(
            " " * self._regions[-1].indent + "^bb0(" +
            ", ".join(f"{v.name}: {v.type}" for v in [iv] + args) + "):")
        self._regions[-1].lines += region.lines
        self._emit("}")
        if len(types) == 1:
            return [Value(name, types[0], weak=init[0].weak)]
        return [Value(f"{name}#{i}", t, weak=v.weak)
                for i, (t, v) in enumerate(zip(types, init))]


def dtypes_of_value(default: DTypes, value) -> Tuple[np.ndarray, Any, str]:
    """(array, frontend dtype, MLIR element type) of a constant: through the
    builder's adapter (``default``), NumPy arrays always through NumPy's."""
    if isinstance(value, (np.ndarray, np.generic)):
        return NUMPY.array(value)
    return default.array(value)


def _same_dtype(op: str, a: Value, b: Value) -> None:
    if a.dtype != b.dtype:
        raise Unsupported(f"graph.{op}: operand element types differ "
                          f"({a.type} vs {b.type})")


def module_text(functions: Iterable[FunctionBuilder]) -> str:
    """A ``module { ... }`` holding the functions."""
    lines = ["module {"]
    for f in functions:
        lines += f.text_lines()
    lines.append("}\n")
    return "\n".join(lines)
