"""The ONNX op registry: every supported ONNX op, how it maps to the
``graph`` dialect, and what it supports.

One table drives the importer, its error reports and the generated support
table (docs/ONNXSupport.md): :data:`REGISTRY` maps an ONNX ``op_type`` to an
:class:`OpSpec` holding

* ``emit``: the function that emits the op (``emit(node) -> outputs``);
* ``dtypes``: the element types accepted for the inputs in ``typed``;
* ``attrs``: the supported attributes, each with its limits (an attribute
  not listed is reported as unsupported);
* ``fold``: optionally, a NumPy evaluation used when every input is known
  at import time (shape computations: ``Shape -> Gather -> Concat ->
  Reshape`` become constants, which the ``graph`` dialect's static shape
  attributes need);
* ``doc``: how it maps and its limitations.

An op is registered with :func:`register`. An emit function reads its
inputs and attributes through :class:`Node` and raises
:class:`~.errors.Unsupported` for anything it cannot express exactly; the
importer turns that into an entry of the model's error report.

Values known at import time are NumPy arrays. A shape that involves a
dynamic dimension is a *partial* value: an ``object`` array of ints whose
unknown entries are :class:`Sym` (always int64 data). The shape ops
propagate them, so that a reshape target with one unknown entry becomes a
``-1``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .errors import Unsupported
from ._mlir_text import pool_out
from .mlir_builder import NUMPY, TensorType as TType, Value, is_float
from .mlir_builder import FunctionBuilder as Builder

BOOL, I64 = NUMPY.bool, NUMPY.i64

# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------

# ONNX TensorProto.DataType codes of the element types the dialect has.
_ONNX_FLOAT, _ONNX_INT32, _ONNX_INT64, _ONNX_BOOL, _ONNX_FLOAT16 = 1, 6, 7, 9, 10

#: ONNX element type code -> NumPy dtype, for the supported element types.
ONNX_TO_NUMPY: Dict[int, np.dtype] = {
    _ONNX_FLOAT: np.dtype(np.float32),
    _ONNX_FLOAT16: np.dtype(np.float16),
    _ONNX_INT32: np.dtype(np.int32),
    _ONNX_INT64: np.dtype(np.int64),
    _ONNX_BOOL: np.dtype(np.bool_),
}
NUMPY_TO_ONNX = {v: k for k, v in ONNX_TO_NUMPY.items()}

#: Display names (ONNX's own, lower case) of the supported element types.
DTYPE_NAMES = {np.dtype(np.float32): "float", np.dtype(np.float16): "float16",
               np.dtype(np.int32): "int32", np.dtype(np.int64): "int64",
               np.dtype(np.bool_): "bool"}

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
I32 = np.dtype(np.int32)

FLOATS = (F32, F16)
INTS = (I32, I64)
NUMERIC = FLOATS + INTS
ANY = NUMERIC + (BOOL,)


def _shape_text(shape) -> str:
    return "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"


def onnx_type_name(code: int) -> str:
    """``float``, ``double``, ``uint8``, ... for an ONNX element type."""
    import onnx
    try:
        return onnx.TensorProto.DataType.Name(code).lower()
    except ValueError:
        return f"type {code}"


def numpy_dtype(code: int) -> np.dtype:
    """The NumPy dtype of a supported ONNX element type code."""
    try:
        return ONNX_TO_NUMPY[code]
    except KeyError:
        raise Unsupported(f"element type {onnx_type_name(code)} is not "
                          "supported (supported: float, float16, int32, "
                          "int64, bool)") from None


def dtype_name(dtype: np.dtype) -> str:
    return DTYPE_NAMES.get(np.dtype(dtype), np.dtype(dtype).name)


# ---------------------------------------------------------------------------
# Import-time values
# ---------------------------------------------------------------------------

@dataclass(eq=False)
class Tensor:
    """An ONNX value during import: an SSA ``value``, a ``const`` known at
    import time, or both (a constant is materialized on first use).

    ``const`` with dtype ``object`` is a partial int64 value: its
    :class:`Sym` entries depend on a dynamic dimension.
    """

    type: TType
    value: Optional[Value] = None
    const: Optional[np.ndarray] = None

    @property
    def is_partial(self) -> bool:
        return self.const is not None and self.const.dtype == object


class Sym:
    """An unknown dimension size in a partial value. Sizes from the same
    named dynamic dimension (``dim_param``) are equal; anonymous ones are
    equal only to themselves."""

    __slots__ = ("name",)
    _count = 0

    def __init__(self, name: Optional[str] = None):
        if name is None:
            Sym._count += 1
            name = f"?{Sym._count}"
        self.name = name

    def __eq__(self, other):
        return isinstance(other, Sym) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return self.name


def is_dim(v) -> bool:
    """Whether a partial-value entry is a known integer."""
    return isinstance(v, (int, np.integer))


def is_known(a: Optional[np.ndarray]) -> bool:
    """Whether ``a`` is a fully known constant (not partial)."""
    return a is not None and a.dtype != object


def partial_entries(a: np.ndarray) -> list:
    """The entries of a known or partial int array: ints and :class:`Sym`."""
    return [int(v) if is_dim(v) else v for v in a.reshape(-1)]


def make_partial(values: Sequence, shape=None) -> np.ndarray:
    """An int64 value from ``values`` (ints, or :class:`Sym` / None for
    unknown entries): an int64 array when every entry is known, else an
    ``object`` array."""
    values = [int(v) if is_dim(v) else (v if isinstance(v, Sym) else Sym())
              for v in values]
    if all(is_dim(v) for v in values):
        arr = np.array(values, dtype=np.int64)
    else:
        arr = np.empty(len(values), dtype=object)
        arr[:] = values
    return arr.reshape(shape if shape is not None else (len(values),))


# ---------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Attr:
    """A supported attribute: ``doc`` says which values are supported;
    ``check(value, node)`` returns the reason a value is not (or None)."""

    doc: str = "any"
    check: Optional[Callable[[object, "Node"], Optional[str]]] = None


def one_of(*allowed) -> Attr:
    """An attribute supported for the listed values only."""
    def check(v, _node):
        if v not in allowed:
            return f"value {v!r} is not supported (supported: " + \
                ", ".join(repr(a) for a in allowed) + ")"
        return None
    return Attr(" or ".join(repr(a) for a in allowed), check)


ANY_VALUE = Attr()
IGNORED = Attr("any (ignored: no effect on inference)")

#: Emit functions return one entry per ONNX output: a Value, a Tensor, a
#: NumPy array (a constant), or None for an output that is not requested.
Output = Union[Value, Tensor, np.ndarray, None]


@dataclass(frozen=True)
class OpSpec:
    """What the importer supports of one ONNX op (see the module doc)."""

    op_type: str
    emit: Callable[["Node"], Sequence[Output]]
    dtypes: Tuple[np.dtype, ...]
    typed: Tuple[int, ...]
    attrs: Dict[str, Attr]
    doc: str
    fold: Optional[Callable[["Node", List[Optional[np.ndarray]]],
                            Optional[List[np.ndarray]]]] = None
    #: Checks on the attributes jointly, before emission (reason or None).
    check: Optional[Callable[["Node"], Optional[str]]] = None
    #: The inputs that must be known for ``fold`` (None: every input).
    fold_inputs: Optional[Tuple[int, ...]] = None


REGISTRY: Dict[str, OpSpec] = {}

#: The ONNX opsets the importer accepts: 13 up to the newest it was checked
#: against. A newer op version (in a newer opset) is reported unsupported.
MIN_OPSET = 13
MAX_OPSET = 28

#: ``typed`` for ops whose every input has the op's element type.
ALL = tuple(range(32))


def register(*op_types: str, dtypes: Sequence[np.dtype], typed=(0,),
             attrs: Optional[Dict[str, Attr]] = None, doc: str = "",
             fold=None, check=None, fold_inputs=None):
    """Registers the decorated emit function for ``op_types``."""
    def deco(fn):
        for t in op_types:
            assert t not in REGISTRY, f"{t} registered twice"
            REGISTRY[t] = OpSpec(t, fn, tuple(np.dtype(d) for d in dtypes),
                                 tuple(typed), dict(attrs or {}),
                                 doc.strip(), fold, check, fold_inputs)
        return fn
    return deco


# ---------------------------------------------------------------------------
# The node context
# ---------------------------------------------------------------------------

_NO_DEFAULT = object()


class Node:
    """One ONNX node being imported: its inputs, attributes and the
    builder. ``imp`` is the importer (values by name)."""

    def __init__(self, imp, proto, spec: OpSpec, version: int, label: str):
        self.imp = imp
        self.b: Builder = imp.builder
        self.proto = proto
        self.spec = spec
        self.version = version
        self.op_type = proto.op_type
        self.label = label  # the node's name, or a generated one

    # -- inputs -------------------------------------------------------------

    def has(self, i: int) -> bool:
        """Whether optional input ``i`` is given."""
        return i < len(self.proto.input) and self.proto.input[i] != ""

    @property
    def num_inputs(self) -> int:
        return len(self.proto.input)

    def tensor(self, i: int) -> Tensor:
        if not self.has(i):
            raise Unsupported(f"input {i} is required")
        return self.imp.tensors[self.proto.input[i]]

    def type(self, i: int) -> TType:
        return self.tensor(i).type

    def require_ranks(self, ranks: Dict[int, int]) -> None:
        """Raises when a given input ``i`` does not have rank ``ranks[i]``
        (shapes ONNX's schema fixes but its checker does not verify)."""
        for i, rank in ranks.items():
            if self.has(i) and self.type(i).rank != rank:
                raise Unsupported(
                    f"invalid model: input {i} ('{self.proto.input[i]}') must have "
                    f"rank {rank}, got shape {_shape_text(self.type(i).shape)}")

    def value(self, i: int) -> Value:
        """Input ``i`` as an SSA value (materializing a constant)."""
        return self.imp.materialize(self.tensor(i), self.proto.input[i])

    def values(self) -> List[Value]:
        return [self.value(i) for i in range(self.num_inputs) if self.has(i)]

    def maybe_const(self, i: int) -> Optional[np.ndarray]:
        """Input ``i`` when fully known at import time, else None."""
        if not self.has(i):
            return None
        c = self.tensor(i).const
        return c if is_known(c) else None

    def sym_dims(self, i: int) -> list:
        """The dims of input ``i``: ints, and a :class:`Sym` for each
        dynamic dim (named after its ``dim_param`` when ONNX shape inference
        knows it)."""
        return self.imp.sym_dims(self.proto.input[i], self.type(i))

    def const(self, i: int, what: str) -> np.ndarray:
        """Input ``i``, which must be known at import time (``what`` names
        it in the error)."""
        t = self.tensor(i)
        if t.const is None:
            raise Unsupported(
                f"input {i} ({what}, '{self.proto.input[i]}') must be a "
                "constant or computable at import time: the graph dialect "
                "takes it as a static attribute")
        if t.is_partial:
            raise Unsupported(
                f"input {i} ({what}, '{self.proto.input[i]}') depends on a "
                "dynamic dimension; give the input static shapes "
                "(import_onnx(..., dim_values=...))")
        return t.const

    def ints(self, i: int, what: str) -> List[int]:
        """Input ``i`` as a list of ints: a constant 1-D tensor (shapes,
        axes, pads, starts, ...), or a scalar where ONNX allows one."""
        c = self.const(i, what)
        if c.ndim > 1:
            raise Unsupported(f"invalid model: input {i} ({what}, '{self.proto.input[i]}') "
                              f"must be 1-D, got shape {list(c.shape)}")
        return [int(v) for v in c.reshape(-1)]

    # -- attributes ---------------------------------------------------------

    def attr(self, name: str, default=_NO_DEFAULT):
        """The attribute's value (strings decoded), else ``default``, else
        the ONNX schema's default, else None."""
        import onnx
        for a in self.proto.attribute:
            if a.name == name:
                return _attr_value(onnx.helper.get_attribute_value(a))
        if default is not _NO_DEFAULT:
            return default
        schema_attr = self.imp.schema(self.proto).attributes.get(name)
        if schema_attr is not None and schema_attr.default_value.type:
            return _attr_value(
                onnx.helper.get_attribute_value(schema_attr.default_value))
        return None

    def has_attr(self, name: str) -> bool:
        return any(a.name == name for a in self.proto.attribute)

    # -- outputs ------------------------------------------------------------

    @property
    def num_outputs(self) -> int:
        return len(self.proto.output)

    def wants(self, k: int) -> bool:
        """Whether optional output ``k`` is used."""
        return k < len(self.proto.output) and self.proto.output[k] != ""

    # -- helpers ------------------------------------------------------------

    def axis(self, axis: int, rank: int, what: str = "axis") -> int:
        """A possibly negative axis as an index in ``[0, rank)``."""
        a = int(axis)
        if not -rank <= a < rank:
            raise Unsupported(f"{what} {a} is out of range for rank {rank}")
        return a % rank

    def splat(self, value, dtype) -> Value:
        return self.b.splat(value, dtype)


def _attr_value(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", errors="replace")
    if isinstance(v, list):
        return [x.decode("utf-8", errors="replace") if isinstance(x, bytes)
                else x for x in v]
    return v


# ---------------------------------------------------------------------------
# Shared emission helpers
# ---------------------------------------------------------------------------

def reshape_dims(b: Builder, x: Value, dims: Sequence[Optional[int]]) -> Value:
    """Reshapes ``x`` to ``dims`` (``None``: a dynamic dim). At most one
    dim may be dynamic (it becomes the -1 of ``graph.reshape``)."""
    dims = list(dims)
    if list(x.shape) == dims and x.type.is_static:
        return x
    unknown = [i for i, d in enumerate(dims) if d is None]
    if len(unknown) > 1:
        if dims == list(x.shape):
            return x
        raise Unsupported(
            f"cannot reshape {x.type} to [{', '.join('?' if d is None else str(d) for d in dims)}]: "
            "graph.reshape takes at most one dynamic (-1) dimension; give the "
            "others a size (import_onnx(..., dim_values=...))")
    return b.reshape(x, [-1 if d is None else d for d in dims])


def floor_value(b: Builder, x: Value) -> Value:
    """Exact ``floor`` of a float tensor from casts: values of magnitude
    >= 2^mantissa (and inf, NaN) are integers already and kept as they
    are."""
    big = 2.0 ** (23 if x.dtype == F32 else 10)
    t = b.cast(b.cast(x, I64), x.dtype)  # truncation toward zero
    t = b.select(b.compare("lt", x, t),
                 b.binary("sub", t, b.splat(1, x.dtype)), t)
    small = b.compare("lt", b.unary("abs", x), b.splat(big, x.dtype))
    return b.select(small, t, x)


def activation(b: Builder, name: str, x: Value, alpha=None, beta=None) -> Value:
    """An RNN activation function by its ONNX name."""
    dt = x.dtype
    lname = name.lower()
    if lname == "sigmoid":
        return b.unary("sigmoid", x)
    if lname == "tanh":
        return b.unary("tanh", x)
    if lname == "relu":
        return b.unary("relu", x)
    if lname == "leakyrelu":
        return b.unary("leaky_relu", x, {"alpha": float(0.01 if alpha is None else alpha)})
    if lname == "hardsigmoid":
        a = 0.2 if alpha is None else alpha
        c = 0.5 if beta is None else beta
        y = b.binary("add", b.binary("mul", x, b.splat(a, dt)), b.splat(c, dt))
        return b.unary("clamp", y, {"min": 0.0, "max": 1.0})
    if lname == "affine":
        a = 1.0 if alpha is None else alpha
        c = 0.0 if beta is None else beta
        return b.binary("add", b.binary("mul", x, b.splat(a, dt)), b.splat(c, dt))
    if lname == "scaledtanh":
        a = 1.0 if alpha is None else alpha
        c = 1.0 if beta is None else beta
        return b.binary("mul", b.unary("tanh", b.binary("mul", x, b.splat(c, dt))),
                        b.splat(a, dt))
    if lname == "thresholdedrelu":
        a = 1.0 if alpha is None else alpha
        return b.select(b.compare("gt", x, b.splat(a, dt)), x, b.splat(0, dt))
    if lname == "elu":
        return elu(b, x, 1.0 if alpha is None else alpha)
    if lname == "softsign":
        return b.binary("div", x, b.binary("add", b.unary("abs", x), b.splat(1, dt)))
    if lname == "softplus":
        return softplus(b, x)
    raise Unsupported(f"activation function {name!r} is not supported")


RNN_ACTIVATIONS = ("Sigmoid", "Tanh", "Relu", "LeakyRelu", "HardSigmoid",
                   "Affine", "ScaledTanh", "ThresholdedRelu", "Elu",
                   "Softsign", "Softplus")


def elu(b: Builder, x: Value, alpha: float) -> Value:
    dt = x.dtype
    neg = b.binary("mul", b.binary("sub", b.unary("exp", x), b.splat(1, dt)),
                   b.splat(alpha, dt))
    return b.select(b.compare("lt", x, b.splat(0, dt)), neg, x)


def softplus(b: Builder, x: Value) -> Value:
    """``log(1 + exp(x))`` in the stable form ``max(x, 0) +
    log(1 + exp(-|x|))``."""
    dt = x.dtype
    t = b.unary("log", b.binary("add", b.splat(1, dt),
                                b.unary("exp", b.unary("neg", b.unary("abs", x)))))
    return b.binary("add", b.unary("relu", x), t)


# ---------------------------------------------------------------------------
# Folding helpers (NumPy evaluation at import time)
# ---------------------------------------------------------------------------

#: Output size up to which float arithmetic on constants is evaluated in
#: Python (scalars of scale computations); data movement and integer
#: arithmetic are always evaluated.
FLOAT_FOLD_LIMIT = 64


def _elementwise_partial(fn, *arrays):
    """Applies ``fn`` elementwise where every operand is known; an unknown
    operand gives a new unknown."""
    def g(*xs):
        return fn(*(int(x) for x in xs)) if all(is_dim(x) for x in xs) else Sym()
    out = np.asarray(np.frompyfunc(g, len(arrays), 1)(*[a.astype(object) for a in arrays]),
                     dtype=object)
    return make_partial(list(out.reshape(-1)), out.shape)


def _known_only(fold):
    """A fold that needs fully known inputs (no partial shapes)."""
    def wrapped(node, ins):
        if any(a is not None and a.dtype == object for a in ins):
            return None
        return fold(node, ins)
    return wrapped


def _small_float_ok(out: np.ndarray) -> bool:
    return not is_float(out.dtype) or out.size <= FLOAT_FOLD_LIMIT


def _int_div(a, b):
    """Integer division truncating toward zero (C, ONNX)."""
    a, b = np.asarray(a), np.asarray(b)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.floor_divide(a, b)
        r = np.remainder(a, b)
    return (q + ((r != 0) & ((a < 0) ^ (b < 0))).astype(q.dtype)).astype(a.dtype)


def _py_int_div(a: int, b: int) -> int:
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


# ===========================================================================
# Elementwise ops
# ===========================================================================

def _emit_unary(op: str):
    def emit(n: Node):
        return [n.b.unary(op, n.value(0))]
    return emit


_UNARY = [
    # ONNX op, graph op, dtypes, NumPy evaluation for constants
    ("Abs", "abs", NUMERIC, np.abs),
    ("Neg", "neg", NUMERIC, np.negative),
    ("Relu", "relu", NUMERIC, None),
    ("Exp", "exp", FLOATS, None),
    ("Log", "log", FLOATS, None),
    ("Sqrt", "sqrt", FLOATS, np.sqrt),
    ("Tanh", "tanh", FLOATS, None),
    ("Sigmoid", "sigmoid", FLOATS, None),
    ("Erf", "erf", FLOATS, None),
    ("HardSwish", "hardswish", FLOATS, None),
]


def _fold_unary(fn):
    def fold(_node, ins):
        (x,) = ins[:1]
        if x.dtype == object:
            return [_elementwise_partial(lambda v: int(fn(v)), x)] \
                if fn in (np.abs, np.negative) else None
        with np.errstate(all="ignore"):
            out = np.asarray(fn(x)).astype(x.dtype)
        return [out] if _small_float_ok(out) else None
    return fold


for _name, _op, _dts, _np in _UNARY:
    register(_name, dtypes=_dts, doc=f"`graph.{_op}`",
             fold=_fold_unary(_np) if _np is not None else None)(_emit_unary(_op))


@register("Reciprocal", dtypes=FLOATS, doc="`1 / x` (`graph.div`)")
def _reciprocal(n: Node):
    x = n.value(0)
    return [n.b.binary("div", n.splat(1, x.dtype), x)]


@register("Floor", "Ceil", "Round", dtypes=FLOATS,
          doc="Exact, from casts to int64 and back (values of magnitude >= "
              "2^23 (f32) or 2^10 (f16), inf and NaN are kept); `Round` "
              "rounds half to even")
def _floor_ceil_round(n: Node):
    b, x = n.b, n.value(0)
    if n.op_type == "Floor":
        return [floor_value(b, x)]
    if n.op_type == "Ceil":
        return [b.unary("neg", floor_value(b, b.unary("neg", x)))]
    one, half, two = (n.splat(v, x.dtype) for v in (1, 0.5, 2))
    r = floor_value(b, x)
    d = b.binary("sub", x, r)
    parity = b.binary("sub", r, b.binary("mul", two, floor_value(b, b.binary("div", r, two))))
    odd = b.compare("ne", parity, n.splat(0, x.dtype))
    tie_up = b.select(b.compare("eq", d, half), odd, n.splat(False, BOOL))
    up = b.select(b.compare("gt", d, half), n.splat(True, BOOL), tie_up)
    return [b.select(up, b.binary("add", r, one), r)]


@register("Sign", dtypes=NUMERIC, doc="`select` chain (NaN stays NaN)")
def _sign(n: Node):
    b, x = n.b, n.value(0)
    zero = n.splat(0, x.dtype)
    pos = b.select(b.compare("gt", x, zero), n.splat(1, x.dtype), x if is_float(x.dtype) else zero)
    return [b.select(b.compare("lt", x, zero), n.splat(-1, x.dtype), pos)]


@register("IsNaN", dtypes=FLOATS, doc="`graph.compare ne, x, x`")
def _isnan(n: Node):
    x = n.value(0)
    return [n.b.compare("ne", x, x)]


@register("IsInf", dtypes=FLOATS,
          attrs={"detect_negative": ANY_VALUE, "detect_positive": ANY_VALUE},
          doc="`graph.compare` with +-inf")
def _isinf(n: Node):
    b, x = n.b, n.value(0)
    neg, pos = int(n.attr("detect_negative")), int(n.attr("detect_positive"))
    if neg and pos:
        return [b.compare("eq", b.unary("abs", x), n.splat(np.inf, x.dtype))]
    if pos:
        return [b.compare("eq", x, n.splat(np.inf, x.dtype))]
    if neg:
        return [b.compare("eq", x, n.splat(-np.inf, x.dtype))]
    return [b.compare("lt", x, n.splat(-np.inf, x.dtype))]  # detects nothing: all false


@register("Not", dtypes=(BOOL,), doc="`graph.compare eq, x, false`",
          fold=lambda _n, ins: [np.logical_not(ins[0])] if is_known(ins[0]) else None)
def _not(n: Node):
    x = n.value(0)
    return [n.b.compare("eq", x, n.splat(False, BOOL))]


@register("LeakyRelu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`graph.leaky_relu`")
def _leaky_relu(n: Node):
    return [n.b.unary("leaky_relu", n.value(0), {"alpha": float(n.attr("alpha"))})]


@register("Elu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`select(x < 0, alpha * (exp(x) - 1), x)`")
def _elu(n: Node):
    return [elu(n.b, n.value(0), float(n.attr("alpha")))]


@register("Selu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE, "gamma": ANY_VALUE},
          doc="`gamma * select(x > 0, x, alpha * (exp(x) - 1))`")
def _selu(n: Node):
    b, x = n.b, n.value(0)
    dt = x.dtype
    neg = b.binary("mul", b.binary("sub", b.unary("exp", x), n.splat(1, dt)),
                   n.splat(float(n.attr("alpha")), dt))
    y = b.select(b.compare("gt", x, n.splat(0, dt)), x, neg)
    return [b.binary("mul", y, n.splat(float(n.attr("gamma")), dt))]


@register("Celu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`")
def _celu(n: Node):
    b, x = n.b, n.value(0)
    dt, alpha = x.dtype, float(n.attr("alpha"))
    e = b.binary("mul", b.binary("sub", b.unary("exp", b.binary("div", x, n.splat(alpha, dt))),
                                 n.splat(1, dt)), n.splat(alpha, dt))
    return [b.binary("add", b.unary("relu", x), b.binary("min", e, n.splat(0, dt)))]


@register("ThresholdedRelu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`select(x > alpha, x, 0)`")
def _thresholded_relu(n: Node):
    return [activation(n.b, "ThresholdedRelu", n.value(0), float(n.attr("alpha")))]


@register("HardSigmoid", dtypes=FLOATS, attrs={"alpha": ANY_VALUE, "beta": ANY_VALUE},
          doc="`clamp(alpha * x + beta, 0, 1)`")
def _hard_sigmoid(n: Node):
    return [activation(n.b, "HardSigmoid", n.value(0), float(n.attr("alpha")),
                       float(n.attr("beta")))]


@register("Softplus", dtypes=FLOATS, doc="`max(x, 0) + log(1 + exp(-|x|))`")
def _softplus(n: Node):
    return [softplus(n.b, n.value(0))]


@register("Softsign", dtypes=FLOATS, doc="`x / (1 + |x|)`")
def _softsign(n: Node):
    return [activation(n.b, "Softsign", n.value(0))]


@register("Mish", dtypes=FLOATS, doc="`x * tanh(softplus(x))`")
def _mish(n: Node):
    b, x = n.b, n.value(0)
    return [b.binary("mul", x, b.unary("tanh", softplus(b, x)))]


@register("Swish", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`x * sigmoid(alpha * x)` (`graph.silu` for alpha = 1)")
def _swish(n: Node):
    b, x = n.b, n.value(0)
    alpha = float(n.attr("alpha"))
    if alpha == 1.0:
        return [b.unary("silu", x)]
    return [b.binary("mul", x, b.unary("sigmoid", b.binary("mul", x, n.splat(alpha, x.dtype))))]


@register("Gelu", dtypes=FLOATS, attrs={"approximate": one_of("none", "tanh")},
          doc="`graph.gelu` (exact or tanh approximation)")
def _gelu(n: Node):
    return [n.b.gelu(n.value(0), n.attr("approximate"))]


@register("Shrink", dtypes=FLOATS, attrs={"bias": ANY_VALUE, "lambd": ANY_VALUE},
          doc="`select(x < -lambd, x + bias, select(x > lambd, x - bias, 0))`")
def _shrink(n: Node):
    b, x = n.b, n.value(0)
    dt = x.dtype
    lam, bias = float(n.attr("lambd")), float(n.attr("bias"))
    hi = b.select(b.compare("gt", x, n.splat(lam, dt)),
                  b.binary("sub", x, n.splat(bias, dt)), n.splat(0, dt))
    return [b.select(b.compare("lt", x, n.splat(-lam, dt)),
                     b.binary("add", x, n.splat(bias, dt)), hi)]


@register("PRelu", dtypes=FLOATS, typed=(0, 1),
          doc="`select(x < 0, slope * x, x)` (slope broadcast to x)")
def _prelu(n: Node):
    b, x, slope = n.b, n.value(0), n.value(1)
    y = b.select(b.compare("lt", x, n.splat(0, x.dtype)), b.binary("mul", x, slope), x)
    if y.shape != x.shape:
        raise Unsupported(f"slope {slope.type} does not broadcast to {x.type}")
    return [y]


# -- binary ----------------------------------------------------------------

_BINARY_NUMPY = {
    "Add": (np.add, lambda a, c: a + c),
    "Sub": (np.subtract, lambda a, c: a - c),
    "Mul": (np.multiply, lambda a, c: a * c),
    "Div": (None, _py_int_div),
}


def _fold_binary(op_type):
    np_fn, py_fn = _BINARY_NUMPY[op_type]

    def fold(_node, ins):
        a, c = ins[0], ins[1]
        if a.dtype == object or c.dtype == object:
            return [_elementwise_partial(py_fn, a, c)]
        with np.errstate(all="ignore"):
            if op_type == "Div":
                out = _int_div(a, c) if a.dtype.kind in "iu" else np.divide(a, c)
            else:
                out = np_fn(a, c)
        out = np.asarray(out).astype(a.dtype)
        return [out] if _small_float_ok(out) else None
    return fold


def _emit_binary(op: str):
    def emit(n: Node):
        return [n.b.binary(op, n.value(0), n.value(1))]
    return emit


for _name in ("Add", "Sub", "Mul", "Div"):
    register(_name, dtypes=NUMERIC, typed=(0, 1),
             doc=f"`graph.{_name.lower()}`" + (" (integers: truncating)" if _name == "Div" else ""),
             fold=_fold_binary(_name))(_emit_binary(_name.lower()))


@register("Pow", dtypes=FLOATS,
          doc="`graph.pow`; the exponent (any supported numeric type) is cast "
              "to the base's type. Integer bases are not supported")
def _pow(n: Node):
    x, y = n.value(0), n.value(1)
    if y.dtype == BOOL:
        raise Unsupported("a bool exponent is not supported")
    return [n.b.binary("pow", x, n.b.cast(y, x.dtype))]


@register("Mod", dtypes=INTS, typed=(0, 1), attrs={"fmod": ANY_VALUE},
          doc="Integers only: `a - b * (a / b)` (truncating), plus `b` where "
              "the signs differ for `fmod = 0`",
          fold=_known_only(lambda n, ins: [
              (np.fmod(ins[0], ins[1]) if n.attr("fmod") else np.mod(ins[0], ins[1])).astype(ins[0].dtype)]))
def _mod(n: Node):
    b, x, y = n.b, n.value(0), n.value(1)
    r = b.binary("sub", x, b.binary("mul", y, b.binary("div", x, y)))
    if n.attr("fmod"):
        return [r]
    zero = n.splat(0, x.dtype)
    fix = b.select(b.compare("ne", r, zero),
                   b.compare("ne", b.compare("lt", r, zero), b.compare("lt", y, zero)),
                   n.splat(False, BOOL))
    return [b.select(fix, b.binary("add", r, y), r)]


def _variadic_fold(fn):
    def fold(_node, ins):
        arrays = [a for a in ins if a is not None]
        if any(a.dtype == object for a in arrays):
            return None
        out = arrays[0]
        for a in arrays[1:]:
            out = fn(out, a)
        out = np.asarray(out).astype(arrays[0].dtype)
        return [out] if _small_float_ok(out) else None
    return fold


def _emit_variadic(op: str):
    def emit(n: Node):
        vals = n.values()
        out = vals[0]
        for v in vals[1:]:
            out = n.b.binary(op, out, v)
        if n.op_type == "Mean" and len(vals) > 1:
            out = n.b.binary("div", out, n.splat(len(vals), out.dtype))
        return [out]
    return emit


register("Max", dtypes=NUMERIC, typed=ALL, doc="`graph.max` pairwise (NaN propagates)",
         fold=_variadic_fold(np.maximum))(_emit_variadic("max"))
register("Min", dtypes=NUMERIC, typed=ALL, doc="`graph.min` pairwise (NaN propagates)",
         fold=_variadic_fold(np.minimum))(_emit_variadic("min"))
register("Sum", dtypes=NUMERIC, typed=ALL, doc="`graph.add` pairwise",
         fold=_variadic_fold(np.add))(_emit_variadic("add"))
register("Mean", dtypes=FLOATS, typed=ALL, doc="`graph.add` pairwise, then `graph.div`")(
    _emit_variadic("add"))


# -- comparisons and logic -------------------------------------------------

_COMPARE = {"Equal": ("eq", np.equal), "Less": ("lt", np.less),
            "Greater": ("gt", np.greater), "LessOrEqual": ("le", np.less_equal),
            "GreaterOrEqual": ("ge", np.greater_equal)}


def _emit_compare(direction: str):
    def emit(n: Node):
        return [n.b.compare(direction, n.value(0), n.value(1))]
    return emit


for _name, (_dir, _np) in _COMPARE.items():
    register(_name, dtypes=ANY if _name == "Equal" else NUMERIC, typed=(0, 1),
             doc=f"`graph.compare {_dir}`",
             fold=_known_only(lambda _n, ins, f=_np: [np.asarray(f(ins[0], ins[1]))]))(
        _emit_compare(_dir))


@register("And", "Or", "Xor", dtypes=(BOOL,), typed=(0, 1),
          doc="`graph.select` (And, Or), `graph.compare ne` (Xor)",
          fold=_known_only(lambda n, ins: [np.asarray(
              {"And": np.logical_and, "Or": np.logical_or,
               "Xor": np.logical_xor}[n.op_type](ins[0], ins[1]))]))
def _logic(n: Node):
    b, x, y = n.b, n.value(0), n.value(1)
    if n.op_type == "And":
        return [b.select(x, y, n.splat(False, BOOL))]
    if n.op_type == "Or":
        return [b.select(x, n.splat(True, BOOL), y)]
    return [b.compare("ne", x, y)]


def _fold_where(_node, ins):
    c, x, y = ins
    if c.dtype == object:
        return None
    if x.dtype == object or y.dtype == object:
        out = np.where(c, x.astype(object), y.astype(object))
        return [make_partial(list(out.reshape(-1)), out.shape)]
    return [np.where(c, x, y).astype(x.dtype)]


@register("Where", dtypes=ANY, typed=(1, 2), doc="`graph.select`", fold=_fold_where)
def _where(n: Node):
    return [n.b.select(n.value(0), n.value(1), n.value(2))]


@register("Clip", dtypes=NUMERIC,
          doc="`graph.clamp` when min/max are constants, else `graph.max`/"
              "`graph.min` with them")
def _clip(n: Node):
    b, x = n.b, n.value(0)
    bounds = {}           # constant bounds: clamp attributes
    tensors = []          # run-time bounds: (op, value)
    for i, key, op in ((1, "min", "max"), (2, "max", "min")):
        if not n.has(i):
            continue
        c = n.maybe_const(i)
        if c is not None and c.size != 1:
            raise Unsupported(f"{key} must be a scalar")
        if c is None or not is_float(x.dtype):
            # Integer bounds stay exact as tensors (f64 attributes would
            # round those beyond 2^53).
            tensors.append((op, n.value(i)))
        else:
            bounds[key] = float(c.reshape(-1)[0])
    y = b.unary("clamp", x, bounds) if bounds else x
    for op, v in tensors:
        y = b.binary(op, y, b.cast(v, x.dtype))
    return [y]


# -- casts -----------------------------------------------------------------

def _check_cast_to(v, _node):
    if v not in ONNX_TO_NUMPY:
        return f"cast to {onnx_type_name(v)} is not supported"
    return None


def _fold_cast(n: Node, ins):
    x = ins[0]
    to = numpy_dtype(n.attr("to")) if n.op_type == "Cast" else n.type(1).dtype
    if x.dtype == object:
        return [x] if to == I64 else None
    if is_float(x.dtype) and to.kind in "iub" and not np.isfinite(x).all():
        return None
    with np.errstate(all="ignore"):
        out = x.astype(to)
    return [out] if _small_float_ok(out) or not is_float(x.dtype) else None


@register("Cast", dtypes=ANY,
          attrs={"to": Attr("float, float16, int32, int64, bool", _check_cast_to),
                 "saturate": IGNORED, "round_mode": IGNORED},
          doc="`graph.cast` (float to integer truncates toward zero; to bool "
              "tests `!= 0`)", fold=_fold_cast)
def _cast(n: Node):
    return [n.b.cast(n.value(0), numpy_dtype(n.attr("to")))]


@register("CastLike", dtypes=ANY, typed=(0, 1),
          attrs={"saturate": IGNORED, "round_mode": IGNORED},
          doc="`graph.cast` to the element type of `target_type`", fold=_fold_cast,
          fold_inputs=(0,))
def _cast_like(n: Node):
    return [n.b.cast(n.value(0), n.type(1).dtype)]


@register("Identity", dtypes=ANY, doc="no op")
def _identity(n: Node):
    return [n.tensor(0)]


@register("Dropout", dtypes=FLOATS,
          attrs={"seed": IGNORED},
          doc="Inference only: the identity (`training_mode` must be absent "
              "or a constant false); the mask output is all true")
def _dropout(n: Node):
    if n.has(2):
        tm = n.maybe_const(2)
        if tm is None or bool(tm.reshape(-1)[0]):
            raise Unsupported("training mode (training_mode input not a constant false) "
                              "is not supported")
    outs: List[Output] = [n.tensor(0)]
    if n.wants(1):
        t = n.type(0)
        if not t.is_static:
            raise Unsupported("the mask output of a dynamic-shaped input")
        outs.append(np.ones(t.shape, dtype=np.bool_))
    return outs


# ===========================================================================
# Reductions, softmax, scans
# ===========================================================================

def reduce_axes(n: Node, rank: int) -> Optional[List[int]]:
    """The reduced axes of a Reduce* node (attribute before opset 18, input
    1 after; ReduceSum: input since 13); None: reduce nothing
    (``noop_with_empty_axes``)."""
    if n.has(1):
        axes = n.ints(1, "axes")
    else:
        axes = n.attr("axes", None) or []
    if not axes:
        if n.attr("noop_with_empty_axes", 0):
            return None
        return list(range(rank))
    normalized = [n.axis(a, rank) for a in axes]
    if len(set(normalized)) != len(normalized):
        raise Unsupported(f"axes {list(axes)} repeat an axis (rank {rank})")
    return sorted(normalized)


def _reduce_count(x: Value, axes: Sequence[int]) -> Optional[int]:
    dims = [x.shape[a] for a in axes]
    return None if None in dims else math.prod(dims)


_REDUCE_ATTRS = {"axes": ANY_VALUE, "keepdims": ANY_VALUE,
                 "noop_with_empty_axes": ANY_VALUE}


def _fold_reduce(n: Node, ins):
    x = ins[0]
    if x.dtype == object or not n.op_type in ("ReduceSum", "ReduceProd", "ReduceMax",
                                                  "ReduceMin"):
        return None
    if n.has(1) and ins[1] is None:
        return None
    axes = reduce_axes(n, x.ndim)
    if axes is None:
        return [x]
    if x.dtype.kind != "i" or x.size == 0:
        return None
    fn = {"ReduceSum": np.sum, "ReduceProd": np.prod, "ReduceMax": np.max,
          "ReduceMin": np.min}[n.op_type]
    return [np.asarray(fn(x, axis=tuple(axes), keepdims=bool(n.attr("keepdims")))).astype(x.dtype)]


#: The largest reduced dim ReduceProd unrolls into multiplications.
PROD_LIMIT = 64


def _reduce_prod(b: Builder, x: Value, axes: Sequence[int], keep: bool) -> Value:
    """Product over ``axes`` as multiplications of unit slices."""
    y = x
    for a in axes:
        d = y.shape[a]
        if d is None or d > PROD_LIMIT:
            raise Unsupported(f"ReduceProd over a dim of size {d}: the dialect has no "
                              f"product reduction (static dims up to {PROD_LIMIT} are "
                              "multiplied out)")
        if None in y.shape:
            raise Unsupported("ReduceProd of a tensor with dynamic dims")
        acc = None
        for i in range(d):
            start, limit = [0] * y.rank, list(y.shape)
            start[a], limit[a] = i, i + 1
            s = b.slice(y, start, limit, [1] * y.rank)
            acc = s if acc is None else b.binary("mul", acc, s)
        y = acc
    if not keep:
        y = reshape_dims(b, y, [dim for i, dim in enumerate(y.shape) if i not in axes])
    return y


def _emit_reduce(n: Node):
    b, x = n.b, n.value(0)
    axes = reduce_axes(n, x.rank)
    if axes is None:
        return [x]
    keep = bool(n.attr("keepdims"))
    dt = x.dtype
    op = n.op_type
    if _reduce_count(x, axes) == 0 and x.type.is_static:
        # Nothing to reduce: the identity of each reduction. (Also avoids a
        # crash of the CPU pipeline's tile-and-fuse on empty reductions.)
        shape = [1 if i in axes else d for i, d in enumerate(x.shape)] if keep \
            else [d for i, d in enumerate(x.shape) if i not in axes]
        empty = {"ReduceMax": -np.inf, "ReduceMin": np.inf, "ReduceMean": np.nan,
                 "ReduceLogSum": -np.inf, "ReduceLogSumExp": -np.inf, "ReduceProd": 1}
        value = empty.get(op, 0)
        if not is_float(dt) and not np.isfinite(value):
            info = np.iinfo(dt)
            value = {np.inf: info.max, -np.inf: info.min}.get(value, 0)
        return [np.full(shape, value, dtype=dt)]
    if op == "ReduceProd":
        return [_reduce_prod(b, x, axes, keep)]
    if op in ("ReduceSum", "ReduceMax", "ReduceMin"):
        return [b.reduce(op[6:].lower(), x, axes, keep)]
    if op == "ReduceMean":
        if is_float(dt):
            return [b.reduce("mean", x, axes, keep)]
        count = _reduce_count(x, axes)
        if count is None:
            raise Unsupported("integer ReduceMean over a dynamic dim")
        return [b.binary("div", b.reduce("sum", x, axes, keep), n.splat(max(count, 1), dt))]
    if op == "ReduceL1":
        return [b.reduce("sum", b.unary("abs", x), axes, keep)]
    if op == "ReduceSumSquare":
        return [b.reduce("sum", b.binary("mul", x, x), axes, keep)]
    if op == "ReduceL2":
        return [b.unary("sqrt", b.reduce("sum", b.binary("mul", x, x), axes, keep))]
    if op == "ReduceLogSum":
        return [b.unary("log", b.reduce("sum", x, axes, keep))]
    assert op == "ReduceLogSumExp"
    m = b.reduce("max", x, axes, True)
    # A max of +-inf (all -inf, or an inf) would give inf - inf: shift by 0.
    m = b.select(b.compare("eq", b.unary("abs", m), n.splat(np.inf, dt)), n.splat(0, dt), m)
    s = b.unary("log", b.reduce("sum", b.unary("exp", b.binary("sub", x, m)), axes, keep))
    return [b.binary("add", s, m if keep else reshape_dims(
        b, m, [d for i, d in enumerate(m.shape) if i not in axes]))]


register("ReduceSum", "ReduceMax", "ReduceMin", "ReduceL1", "ReduceSumSquare",
         dtypes=NUMERIC, attrs=_REDUCE_ATTRS, fold=_fold_reduce,
         doc="`graph.reduce` (L1: of `abs(x)`, SumSquare: of `x * x`); axes "
             "from the attribute or the constant input")(_emit_reduce)
register("ReduceMean", dtypes=NUMERIC, attrs=_REDUCE_ATTRS,
         doc="`graph.reduce mean`; integers: truncating sum / count (static "
             "reduced dims)")(_emit_reduce)
register("ReduceL2", "ReduceLogSum", "ReduceLogSumExp", dtypes=FLOATS,
         attrs=_REDUCE_ATTRS,
         doc="`graph.reduce` with elementwise ops (LogSumExp in the stable "
             "max-shifted form)")(_emit_reduce)
register("ReduceProd", dtypes=NUMERIC, attrs=_REDUCE_ATTRS, fold=_fold_reduce,
         doc="A chain of `graph.mul` of slices (the dialect has no product "
             f"reduction): static reduced dims of at most {PROD_LIMIT} elements")(_emit_reduce)


@register("Softmax", dtypes=FLOATS, attrs={"axis": ANY_VALUE}, doc="`graph.softmax`")
def _softmax(n: Node):
    x = n.value(0)
    return [n.b.softmax(x, n.axis(n.attr("axis"), x.rank))]


@register("LogSoftmax", dtypes=FLOATS, attrs={"axis": ANY_VALUE},
          doc="`x - max - log(sum(exp(x - max)))` along the axis")
def _log_softmax(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    s = b.binary("sub", x, b.reduce("max", x, [axis], True))
    return [b.binary("sub", s, b.unary("log", b.reduce("sum", b.unary("exp", s), [axis], True)))]


def iota_along(b: Builder, size: int, axis: int, rank: int, dtype=I64) -> Value:
    """A constant ``[0, size)`` laid along ``axis`` of a rank-``rank``
    shape (size 1 elsewhere)."""
    shape = [1] * rank
    shape[axis] = size
    return b.constant(np.arange(size, dtype=dtype).reshape(shape), hint="iota")


@register("Hardmax", dtypes=FLOATS, attrs={"axis": ANY_VALUE},
          doc="one-hot of `graph.argmax` (first maximum); static axis dim")
def _hardmax(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    d = x.shape[axis]
    if d is None:
        raise Unsupported("a dynamic dim along the axis")
    am = b.with_attrs("argmax", x, {"axis": axis, "keepdims": True},
                      TType(x.shape[:axis] + (1,) + x.shape[axis + 1:], I64))
    hit = b.compare("eq", am, iota_along(b, d, axis, x.rank))
    return [b.cast(hit, x.dtype)]


def reverse_along(b: Builder, x: Value, axis: int) -> Value:
    """``x`` reversed along ``axis`` (static dim): a gather of constant
    indices."""
    d = x.shape[axis]
    if d is None:
        raise Unsupported("reversing along a dynamic dim")
    return b.generic("gather", [x, b.constant(np.arange(d - 1, -1, -1, dtype=np.int64),
                                              hint="rev")],
                     {"axis": axis}, x.type)


@register("ArgMax", "ArgMin", dtypes=NUMERIC,
          attrs={"axis": ANY_VALUE, "keepdims": ANY_VALUE, "select_last_index": ANY_VALUE},
          doc="`graph.argmax` (ArgMin: of `-x`, integers of `-x - 1`); "
              "`select_last_index` via a reversed gather (static dim)")
def _argmax(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    keep = bool(n.attr("keepdims"))
    if n.op_type == "ArgMin":
        x = b.unary("neg", x)
        if not is_float(x.dtype):  # -x - 1 == ~x reverses the order without overflow
            x = b.binary("sub", x, n.splat(1, x.dtype))
    last = bool(n.attr("select_last_index"))
    if last:
        x = reverse_along(b, x, axis)
    shape = list(x.shape)
    if keep:
        shape[axis] = 1
    else:
        del shape[axis]
    am = b.with_attrs("argmax", x, {"axis": axis, "keepdims": keep}, TType(shape, I64))
    if last:
        am = b.binary("sub", n.splat(x.shape[axis] - 1, I64), am)
    return [am]


@register("CumSum", dtypes=NUMERIC, attrs={"exclusive": ANY_VALUE, "reverse": ANY_VALUE},
          doc="`graph.cumsum` (axis: a constant); exclusive: shifted by one "
              "(`graph.slice` + `graph.pad`); reverse: on a reversed gather "
              "(static dim)")
def _cumsum(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.ints(1, "axis")[0], x.rank)
    rev = bool(n.attr("reverse"))
    if rev:
        x = reverse_along(b, x, axis)
    y = b.with_attrs("cumsum", x, {"axis": axis}, x.type)
    if n.attr("exclusive"):
        # Shift by one: [0, y[0], ..., y[n-2]] (exact, unlike y - x).
        d = x.shape[axis]
        if d is None:
            raise Unsupported("exclusive CumSum along a dynamic dim")
        if d > 0:
            start = [0] * x.rank
            limit = [s for s in x.shape]
            limit[axis] = d - 1
            head = b.slice(y, start, limit, [1] * x.rank)
            pad_lo = [0] * x.rank
            pad_lo[axis] = 1
            y = b.with_attrs("pad", head, {"low": pad_lo, "high": [0] * x.rank,
                                           "value": 0.0}, y.type)
    if rev:
        y = reverse_along(b, y, axis)
    return [y]


# ===========================================================================
# Linear algebra
# ===========================================================================

@register("MatMul", dtypes=NUMERIC, typed=(0, 1), doc="`graph.matmul` (NumPy semantics)")
def _matmul(n: Node):
    return [n.b.matmul(n.value(0), n.value(1))]


def transposed(n: Node, i: int, perm: Sequence[int]) -> Value:
    """Input ``i`` transposed by ``perm``; done in NumPy for a constant."""
    c = n.maybe_const(i)
    if c is not None:
        return n.b.constant(np.ascontiguousarray(np.transpose(c, perm)), hint="w")
    return n.b.transpose(n.value(i), perm)


@register("Gemm", dtypes=NUMERIC, typed=(0, 1, 2),
          attrs={"alpha": ANY_VALUE, "beta": ANY_VALUE, "transA": ANY_VALUE,
                 "transB": ANY_VALUE},
          doc="`graph.matmul` (+ `graph.mul` by alpha, `graph.add` of beta * C); "
              "integers need alpha = beta = 1")
def _gemm(n: Node):
    b = n.b
    a = transposed(n, 0, [1, 0]) if n.attr("transA") else n.value(0)
    w = transposed(n, 1, [1, 0]) if n.attr("transB") else n.value(1)
    alpha, beta = float(n.attr("alpha")), float(n.attr("beta"))
    if not is_float(a.dtype) and (alpha != 1.0 or beta != 1.0):
        raise Unsupported("integer Gemm with alpha or beta other than 1")
    y = b.matmul(a, w)
    if alpha != 1.0:
        y = b.binary("mul", y, n.splat(alpha, y.dtype))
    if n.has(2) and beta != 0.0:
        c = n.value(2)
        if beta != 1.0:
            c = b.binary("mul", c, n.splat(beta, c.dtype))
        out = b.binary("add", y, c)
        if out.shape != y.shape and None not in y.shape:
            raise Unsupported(f"C {c.type} does not broadcast to {y.type}")
        y = out
    return [y]


# ===========================================================================
# Convolution and pooling
# ===========================================================================

def _check_auto_pad(v, _node):
    if v not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        return f"value {v!r}"
    return None


def window_padding(n: Node, spatial: Sequence[Optional[int]], kernel: Sequence[int],
                   strides: Sequence[int], dilations: Sequence[int]) -> List[int]:
    """ONNX padding ``[b1, b2, ..., e1, e2, ...]`` from ``pads`` or
    ``auto_pad``."""
    k = len(kernel)
    auto = n.attr("auto_pad")
    if auto in ("NOTSET", None, ""):
        pads = n.attr("pads", None) or [0] * (2 * k)
        if len(pads) != 2 * k:
            raise Unsupported(f"pads has {len(pads)} entries for {k} spatial dims")
        if any(p < 0 for p in pads):
            raise Unsupported("negative pads")
        return [int(p) for p in pads]
    if auto == "VALID":
        return [0] * (2 * k)
    begin, end = [], []
    for size, kk, s, d in zip(spatial, kernel, strides, dilations):
        if size is None:
            raise Unsupported(f"auto_pad {auto} with a dynamic spatial dim")
        total = max(0, (-(-size // s) - 1) * s + (kk - 1) * d + 1 - size)
        lo = total // 2 if auto == "SAME_UPPER" else total - total // 2
        begin.append(lo)
        end.append(total - lo)
    return begin + end


def _to_2d(n: Node, x: Value) -> Tuple[Value, bool]:
    """NC[L] -> NC1L for the 1-D forms; returns (value, was_1d)."""
    if x.rank == 4:
        return x, False
    if x.rank == 3:
        return reshape_dims(n.b, x, [x.shape[0], x.shape[1], 1, x.shape[2]]), True
    raise Unsupported(f"{x.rank - 2}-D {n.op_type} is not supported (1-D and 2-D are)")


def _from_2d(n: Node, y: Value) -> Value:
    return reshape_dims(n.b, y, [y.shape[0], y.shape[1], y.shape[3]])


_CONV_ATTRS = {
    "auto_pad": Attr("NOTSET, VALID, SAME_UPPER, SAME_LOWER (SAME_*: static "
                     "spatial dims)", _check_auto_pad),
    "dilations": ANY_VALUE, "group": ANY_VALUE, "kernel_shape": ANY_VALUE,
    "pads": Attr(">= 0"), "strides": ANY_VALUE,
}


@register("Conv", dtypes=FLOATS, typed=(0, 1, 2), attrs=_CONV_ATTRS,
          doc="`graph.conv2d` (1-D: through a unit H dim); 3-D convolution is "
              "not supported")
def _conv(n: Node):
    b = n.b
    x, w = n.value(0), n.value(1)
    bias = n.value(2) if n.has(2) else None
    k = x.rank - 2
    if w.rank != x.rank:
        raise Unsupported(f"weight rank {w.rank} for input rank {x.rank}")
    kernel = list(w.shape[2:])
    if None in kernel:
        raise Unsupported("a dynamic kernel size")
    if n.attr("kernel_shape", None) not in (None, kernel):
        raise Unsupported(f"kernel_shape {n.attr('kernel_shape')} differs from the weight's {kernel}")
    strides = n.attr("strides", None) or [1] * k
    dilations = n.attr("dilations", None) or [1] * k
    pads = window_padding(n, x.shape[2:], kernel, strides, dilations)
    x2, one_d = _to_2d(n, x)
    if one_d:
        w = reshape_dims(b, w, [w.shape[0], w.shape[1], 1, w.shape[2]])
        strides, dilations = [1] + list(strides), [1] + list(dilations)
        pads = [0, pads[0], 0, pads[1]]
    n_, _, h, wd = x2.shape
    oh = pool_out(h, w.shape[2], strides[0], pads[0], pads[2], dilations[0], False)
    ow = pool_out(wd, w.shape[3], strides[1], pads[1], pads[3], dilations[1], False)
    y = b.generic("conv2d", [x2, w] + ([bias] if bias is not None else []),
                  {"strides": list(strides), "padding": list(pads),
                   "dilations": list(dilations), "groups": int(n.attr("group"))},
                  x2.type.with_shape([n_, w.shape[0], oh, ow]))
    return [_from_2d(n, y) if one_d else y]


_POOL_ATTRS = {
    "auto_pad": _CONV_ATTRS["auto_pad"], "ceil_mode": ANY_VALUE,
    "kernel_shape": ANY_VALUE, "pads": Attr(">= 0"), "strides": ANY_VALUE,
}


def _pool(n: Node, kind: str, x: Optional[Value] = None,
          count_include_pad: Optional[bool] = None):
    b = n.b
    x = n.value(0) if x is None else x
    kernel = list(n.attr("kernel_shape"))
    k = len(kernel)
    if x.rank != k + 2:
        raise Unsupported(f"kernel_shape has {k} dims for input rank {x.rank}")
    strides = n.attr("strides", None) or [1] * k
    dilations = n.attr("dilations", None) or [1] * k
    ceil = bool(n.attr("ceil_mode"))
    pads = window_padding(n, x.shape[2:], kernel, strides, dilations)
    if kind == "avg_pool2d" and any(d != 1 for d in dilations):
        raise Unsupported("AveragePool with dilations")
    x2, one_d = _to_2d(n, x)
    if one_d:
        kernel, strides, dilations = [1] + kernel, [1] + list(strides), [1] + list(dilations)
        pads = [0, pads[0], 0, pads[1]]
    n_, c, h, w = x2.shape
    oh = pool_out(h, kernel[0], strides[0], pads[0], pads[2], dilations[0], ceil)
    ow = pool_out(w, kernel[1], strides[1], pads[1], pads[3], dilations[1], ceil)
    attrs = {"kernel": kernel, "strides": list(strides), "padding": pads}
    if kind == "max_pool2d":
        attrs["dilations"] = list(dilations)
    attrs["ceil_mode"] = ceil
    if kind == "avg_pool2d":
        attrs["count_include_pad"] = bool(n.attr("count_include_pad")) \
            if count_include_pad is None else count_include_pad
    y = b.generic(kind, [x2], attrs, x2.type.with_shape([n_, c, oh, ow]))
    return _from_2d(n, y) if one_d else y


def _check_no_indices(n: Node) -> Optional[str]:
    if n.wants(1):
        return "the Indices output is not supported"
    return None


@register("MaxPool", dtypes=FLOATS,
          attrs={**_POOL_ATTRS, "dilations": ANY_VALUE,
                 "storage_order": Attr("any (only affects Indices)")},
          check=_check_no_indices,
          doc="`graph.max_pool2d` (1-D and 2-D); the Indices output is not supported")
def _max_pool(n: Node):
    return [_pool(n, "max_pool2d")]


@register("AveragePool", dtypes=FLOATS,
          attrs={**_POOL_ATTRS, "count_include_pad": ANY_VALUE,
                 "dilations": one_of([1], [1, 1])},
          doc="`graph.avg_pool2d` (1-D and 2-D, no dilation)")
def _avg_pool(n: Node):
    return [_pool(n, "avg_pool2d")]


@register("LpPool", dtypes=FLOATS,
          attrs={**_POOL_ATTRS, "p": ANY_VALUE, "dilations": one_of([1], [1, 1])},
          doc="`(k * avg_pool2d(|x|^p, count_include_pad))^(1/p)` (1-D and 2-D, "
              "no dilation)")
def _lp_pool(n: Node):
    b, x = n.b, n.value(0)
    p = float(n.attr("p"))
    dt = x.dtype
    powered = b.binary("pow", b.unary("abs", x), n.splat(p, dt))
    kernel = list(n.attr("kernel_shape"))
    pooled = _pool(n, "avg_pool2d", powered, count_include_pad=True)
    total = b.binary("mul", pooled, n.splat(float(math.prod(kernel)), dt))
    return [b.binary("pow", total, n.splat(1.0 / p, dt))]


@register("GlobalAveragePool", "GlobalMaxPool", dtypes=FLOATS,
          doc="`graph.reduce mean`/`max` over the spatial dims (keepdims)")
def _global_pool(n: Node):
    x = n.value(0)
    kind = "mean" if n.op_type == "GlobalAveragePool" else "max"
    return [n.b.reduce(kind, x, list(range(2, x.rank)), True)]


# ===========================================================================
# Normalization
# ===========================================================================

@register("BatchNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"epsilon": ANY_VALUE, "momentum": IGNORED,
                 "training_mode": one_of(0)},
          check=lambda n: "the running mean/var outputs (training) are not supported"
          if n.wants(1) or n.wants(2) else None,
          doc="`graph.batch_norm` (inference: training_mode = 0)")
def _batch_norm(n: Node):
    n.require_ranks({1: 1, 2: 1, 3: 1, 4: 1})
    x = n.value(0)
    scale, bias, mean, var = (n.b.cast(n.value(i), x.dtype) for i in (1, 2, 3, 4))
    if x.rank < 2:
        raise Unsupported("input rank < 2")
    return [n.b.generic("batch_norm", [x, mean, var, scale, bias],
                        {"epsilon": float(n.attr("epsilon"))}, x.type)]


def _normalize(b: Builder, x: Value, axes: Sequence[int], eps: float) -> Value:
    """``(x - mean) / sqrt(var + eps)`` over ``axes`` (biased variance)."""
    mean = b.reduce("mean", x, axes, True)
    d = b.binary("sub", x, mean)
    var = b.reduce("mean", b.binary("mul", d, d), axes, True)
    return b.binary("mul", d, b.unary("rsqrt", b.binary("add", var, b.splat(eps, x.dtype))))


def _per_channel(b: Builder, v: Value, rank: int) -> Value:
    """A [C] vector shaped [C, 1, ..., 1] to broadcast along axis 1 of a
    rank-``rank`` tensor."""
    return reshape_dims(b, v, [v.shape[0]] + [1] * (rank - 2))


@register("InstanceNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"epsilon": ANY_VALUE},
          doc="mean/variance over the spatial dims (`graph.reduce`), then scale and bias")
def _instance_norm(n: Node):
    n.require_ranks({1: 1, 2: 1})
    b, x = n.b, n.value(0)
    y = _normalize(b, x, list(range(2, x.rank)), float(n.attr("epsilon")))
    y = b.binary("mul", y, _per_channel(b, n.value(1), x.rank))
    return [b.binary("add", y, _per_channel(b, n.value(2), x.rank))]


@register("LayerNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"axis": ANY_VALUE, "epsilon": ANY_VALUE, "stash_type": one_of(1)},
          doc="`graph.layer_norm` (scale/bias broadcast to the normalized shape); "
              "with the Mean/InvStdDev outputs: `graph.reduce` and elementwise ops")
def _layer_norm(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    eps = float(n.attr("epsilon"))
    norm_shape = list(x.shape[axis:])
    scale = n.value(1)
    bias = n.value(2) if n.has(2) else None
    if n.wants(1) or n.wants(2):
        axes = list(range(axis, x.rank))
        mean = b.reduce("mean", x, axes, True)
        d = b.binary("sub", x, mean)
        var = b.reduce("mean", b.binary("mul", d, d), axes, True)
        inv = b.unary("rsqrt", b.binary("add", var, n.splat(eps, x.dtype)))
        y = b.binary("mul", b.binary("mul", d, inv), scale)
        if bias is not None:
            y = b.binary("add", y, bias)
        return [y, mean if n.wants(1) else None, inv if n.wants(2) else None]
    if None in norm_shape:
        raise Unsupported("a dynamic normalized dim")

    def full(v: Value) -> Value:
        if list(v.shape) == norm_shape:
            return v
        if v.rank > len(norm_shape):
            v = reshape_dims(b, v, v.shape[v.rank - len(norm_shape):])
        return b.broadcast_to(v, norm_shape)

    scale = full(scale)
    bias = full(bias) if bias is not None else b.splat(0, x.dtype, norm_shape)
    return [b.generic("layer_norm", [x, scale, bias], {"epsilon": eps}, x.type)]


@register("GroupNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"num_groups": ANY_VALUE, "epsilon": ANY_VALUE, "stash_type": one_of(1)},
          doc="mean/variance per group (reshape + `graph.reduce`); static C "
              "(opset 18: scale/bias per group, 21: per channel)")
def _group_norm(n: Node):
    b, x = n.b, n.value(0)
    g = int(n.attr("num_groups"))
    c = x.shape[1]
    if c is None or c % g:
        raise Unsupported(f"channels {c} not a static multiple of num_groups {g}")
    spatial = list(x.shape[2:])
    grouped = reshape_dims(b, x, [x.shape[0], g, c // g] + spatial)
    y = _normalize(b, grouped, list(range(2, grouped.rank)), float(n.attr("epsilon")))
    scale, bias = n.value(1), n.value(2)
    if scale.shape[0] == g and g != c:  # opset 18: one scale per group
        y = b.binary("mul", y, reshape_dims(b, scale, [g] + [1] * (grouped.rank - 2)))
        y = b.binary("add", y, reshape_dims(b, bias, [g] + [1] * (grouped.rank - 2)))
        return [reshape_dims(b, y, x.shape)]
    y = reshape_dims(b, y, x.shape)
    y = b.binary("mul", y, _per_channel(b, scale, x.rank))
    return [b.binary("add", y, _per_channel(b, bias, x.rank))]


@register("RMSNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"axis": ANY_VALUE, "epsilon": ANY_VALUE, "stash_type": one_of(1)},
          doc="`x * rsqrt(mean(x^2) + epsilon) * scale` over the dims from axis")
def _rms_norm(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    ms = b.reduce("mean", b.binary("mul", x, x), list(range(axis, x.rank)), True)
    y = b.binary("mul", x, b.unary("rsqrt", b.binary("add", ms, n.splat(float(n.attr("epsilon")), x.dtype))))
    return [b.binary("mul", y, n.value(1))]


@register("MeanVarianceNormalization", dtypes=FLOATS, attrs={"axes": ANY_VALUE},
          doc="`(x - mean) / sqrt(var + 1e-9)` over the axes")
def _mvn(n: Node):
    b, x = n.b, n.value(0)
    axes = sorted({n.axis(a, x.rank) for a in n.attr("axes")})
    return [_normalize(b, x, axes, 1e-9)]


@register("LpNormalization", dtypes=FLOATS, attrs={"axis": ANY_VALUE, "p": one_of(1, 2)},
          doc="`x / sum(|x|)` or `x / sqrt(sum(x^2))` along the axis (0 where "
              "the norm is 0)")
def _lp_norm(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    if n.attr("p") == 1:
        norm = b.reduce("sum", b.unary("abs", x), [axis], True)
    else:
        norm = b.unary("sqrt", b.reduce("sum", b.binary("mul", x, x), [axis], True))
    zero = n.splat(0, x.dtype)
    return [b.select(b.compare("eq", norm, zero), zero, b.binary("div", x, norm))]


@register("LRN", dtypes=FLOATS,
          attrs={"alpha": ANY_VALUE, "beta": ANY_VALUE, "bias": ANY_VALUE, "size": ANY_VALUE},
          doc="sum of squares over a channel window (pad + slices), static C")
def _lrn(n: Node):
    b, x = n.b, n.value(0)
    size = int(n.attr("size"))
    c = x.shape[1]
    if c is None:
        raise Unsupported("a dynamic channel dim")
    sq = b.binary("mul", x, x)
    lo, hi = (size - 1) // 2, size - 1 - (size - 1) // 2
    low, high = [0] * x.rank, [0] * x.rank
    low[1], high[1] = lo, hi
    padded = b.with_attrs("pad", sq, {"low": low, "high": high, "value": 0.0},
                          sq.type.with_shape([d if i != 1 else c + size - 1
                                              for i, d in enumerate(sq.shape)]))
    total = None
    for i in range(size):
        start, limit = [0] * x.rank, list(padded.shape)
        start[1], limit[1] = i, i + c
        if None in limit:
            raise Unsupported("LRN on dynamic dims")
        s = b.slice(padded, start, limit, [1] * x.rank)
        total = s if total is None else b.binary("add", total, s)
    dt = x.dtype
    base = b.binary("add", n.splat(float(n.attr("bias")), dt),
                    b.binary("mul", total, n.splat(float(n.attr("alpha")) / size, dt)))
    return [b.binary("div", x, b.binary("pow", base, n.splat(float(n.attr("beta")), dt)))]


# ===========================================================================
# Shape ops
# ===========================================================================

def _shape_input(n: Node, i: int, what: str) -> list:
    """A 1-D int64 shape input, known or partial (:class:`Sym` entries)."""
    t = n.tensor(i)
    if t.const is None:
        raise Unsupported(
            f"input {i} ({what}, '{n.proto.input[i]}') must be a constant or "
            "computable at import time: graph ops take shapes as attributes")
    return partial_entries(t.const)


def reshape_target(x_dims: Sequence, target: Sequence, allowzero: bool) -> List[Optional[int]]:
    """The output dims of an ONNX Reshape (``None``: unknown). ``x_dims``
    and ``target`` hold ints and :class:`Sym`; a -1 is resolved when the
    unknown sizes cancel out (``[batch, 4, 8] -> [batch, -1]``)."""
    out: list = []
    for i, t in enumerate(target):
        if is_dim(t) and t == 0 and not allowzero:
            if i >= len(x_dims):
                raise Unsupported(f"shape entry {i} is 0 but the input has rank {len(x_dims)}")
            out.append(x_dims[i])
        else:
            out.append(t)
    if sum(1 for t in out if is_dim(t) and t == -1) > 1:
        raise Unsupported("more than one -1 in the shape")
    minus = [k for k, t in enumerate(out) if is_dim(t) and t == -1]
    if minus:
        num = list(x_dims)
        den = [t for j, t in enumerate(out) if j != minus[0]]
        for t in list(den):
            if not is_dim(t) and t in num:
                num.remove(t)
                den.remove(t)
        if all(is_dim(v) for v in num + den):
            rest = math.prod(den)
            out[minus[0]] = math.prod(num) // rest if rest else 0
        else:
            out[minus[0]] = None
    return [int(t) if is_dim(t) else None for t in out]


def _fold_reshape(n: Node, ins):
    x = ins[0]
    if ins[1] is None or ins[1].dtype == object:
        return None
    out = reshape_target(list(x.shape), [int(v) for v in ins[1]], bool(n.attr("allowzero")))
    return [x.reshape(out)]


@register("Reshape", dtypes=ANY, attrs={"allowzero": ANY_VALUE}, fold=_fold_reshape,
          doc="`graph.reshape`; the shape must be known at import time, except "
              "for at most one dim that depends on a dynamic dimension (-1)")
def _reshape(n: Node):
    x = n.value(0)
    out = reshape_target(n.sym_dims(0), _shape_input(n, 1, "shape"), bool(n.attr("allowzero")))
    return [reshape_dims(n.b, x, out)]


def _flatten_dims(shape, axis):
    def prod(ds):
        return None if None in ds else math.prod(ds)
    return [prod(shape[:axis]), prod(shape[axis:])]


@register("Flatten", dtypes=ANY, attrs={"axis": ANY_VALUE},
          fold=lambda n, ins: [ins[0].reshape(_flatten_dims(
              ins[0].shape, _flatten_axis(n, ins[0].ndim)))],
          doc="`graph.reshape` to 2-D")
def _flatten(n: Node):
    x = n.value(0)
    return [reshape_dims(n.b, x, _flatten_dims(x.shape, _flatten_axis(n, x.rank)))]


def _flatten_axis(n: Node, rank: int) -> int:
    """Flatten's axis is in [-rank, rank]."""
    axis = int(n.attr("axis"))
    if not -rank <= axis <= rank:
        raise Unsupported(f"axis {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def _axes_arg(n: Node, rank: int, what="axes") -> Optional[List[int]]:
    if n.has(1):
        return [n.axis(a, rank) for a in n.ints(1, what)]
    a = n.attr("axes", None)
    return None if a is None else [n.axis(v, rank) for v in a]


def _squeeze_dims(n: Node, shape):
    axes = _axes_arg(n, len(shape))
    if axes is None:
        if None in shape:
            raise Unsupported("Squeeze without axes on a tensor with dynamic dims")
        axes = [i for i, d in enumerate(shape) if d == 1]
    for a in axes:
        if shape[a] not in (1, None):
            raise Unsupported(f"cannot squeeze dim {a} of size {shape[a]}")
    return [d for i, d in enumerate(shape) if i not in axes]


def _unsqueeze_dims(n: Node, shape):
    rank = len(shape) + len(n.ints(1, "axes") if n.has(1) else n.attr("axes"))
    axes = _axes_arg(n, rank)
    if len(set(axes)) != len(axes):
        raise Unsupported("repeated axes")
    it = iter(shape)
    return [1 if i in axes else next(it) for i in range(rank)]


def _fold_reshape_like(dims_fn):
    def fold(n, ins):
        if n.has(1) and (ins[1] is None or ins[1].dtype == object):
            return None
        return [ins[0].reshape(dims_fn(n, ins[0].shape))]
    return fold


@register("Squeeze", dtypes=ANY, attrs={"axes": ANY_VALUE},
          fold=_fold_reshape_like(_squeeze_dims), doc="`graph.reshape`")
def _squeeze(n: Node):
    x = n.value(0)
    return [reshape_dims(n.b, x, _squeeze_dims(n, x.shape))]


@register("Unsqueeze", dtypes=ANY, attrs={"axes": ANY_VALUE},
          fold=_fold_reshape_like(_unsqueeze_dims), doc="`graph.reshape`")
def _unsqueeze(n: Node):
    x = n.value(0)
    return [reshape_dims(n.b, x, _unsqueeze_dims(n, x.shape))]


def _perm(n: Node, rank: int) -> List[int]:
    perm = n.attr("perm", None)
    perm = list(range(rank))[::-1] if perm is None else [n.axis(p, rank) for p in perm]
    if sorted(perm) != list(range(rank)):
        raise Unsupported(f"perm {perm} is not a permutation")
    return perm


@register("Transpose", dtypes=ANY, attrs={"perm": ANY_VALUE},
          fold=lambda n, ins: [np.transpose(ins[0], _perm(n, ins[0].ndim))],
          doc="`graph.transpose`")
def _transpose(n: Node):
    x = n.value(0)
    return [n.b.transpose(x, _perm(n, x.rank))]


def _fold_concat(n: Node, ins):
    arrays = [a for a in ins if a is not None]
    axis = n.axis(n.attr("axis"), arrays[0].ndim)
    if any(a.dtype == object for a in arrays):
        out = np.concatenate([a.astype(object) for a in arrays], axis=axis)
        return [make_partial(list(out.reshape(-1)), out.shape)]
    return [np.concatenate(arrays, axis=axis)]


@register("Concat", dtypes=ANY, typed=ALL, attrs={"axis": ANY_VALUE}, fold=_fold_concat,
          doc="`graph.concat` (empty inputs are dropped)")
def _concat(n: Node):
    vals = n.values()
    axis = n.axis(n.attr("axis"), vals[0].rank)
    nonempty = [v for v in vals if v.shape[axis] != 0]
    if not nonempty:
        return [n.b.constant(np.zeros([0 if i == axis else d for i, d in enumerate(vals[0].shape)],
                                      vals[0].dtype))] if vals[0].type.is_static else [vals[0]]
    return [n.b.concat(nonempty, axis)]


def split_sizes(n: Node, dim: Optional[int], count: int) -> List[int]:
    """The sizes of Split's outputs along the axis."""
    if n.has(1):
        sizes = n.ints(1, "split")
    elif n.attr("split", None):
        sizes = list(n.attr("split"))
    else:
        if dim is None:
            raise Unsupported("an equal split along a dynamic dim")
        parts = int(n.attr("num_outputs", None) or count)
        if n.version < 18 and dim % parts:
            raise Unsupported(f"dim {dim} does not split into {parts} equal parts")
        chunk = -(-dim // parts)
        sizes = [min(chunk, max(dim - i * chunk, 0)) for i in range(parts)]
    if len(sizes) != count:
        raise Unsupported(f"{len(sizes)} split sizes for {count} outputs")
    if dim is not None and sum(sizes) != dim:
        raise Unsupported(f"split sizes {sizes} do not add up to the dim {dim}")
    return sizes


@register("Split", dtypes=ANY, attrs={"axis": ANY_VALUE, "num_outputs": ANY_VALUE,
                                        "split": ANY_VALUE},
          fold=_known_only(lambda n, ins: np.split(
              ins[0], np.cumsum(split_sizes(n, ins[0].shape[n.axis(n.attr("axis"), ins[0].ndim)],
                                            n.num_outputs))[:-1],
              axis=n.axis(n.attr("axis"), ins[0].ndim))),
          doc="`graph.split` (sizes: a constant, or equal parts of a static dim)")
def _split(n: Node):
    x = n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    sizes = split_sizes(n, x.shape[axis], n.num_outputs)
    if len(sizes) == 1:
        return [x]
    return n.b.split(x, axis, sizes)


def slice_params(n: Node, shape: Sequence[Optional[int]]):
    """Per dim ``(start, end, step)`` of an ONNX Slice, clamped as ONNX
    does (``None`` for an untouched dim)."""
    starts, ends = n.ints(1, "starts"), n.ints(2, "ends")
    rank = len(shape)
    axes = [n.axis(a, rank) for a in n.ints(3, "axes")] if n.has(3) else list(range(len(starts)))
    steps = n.ints(4, "steps") if n.has(4) else [1] * len(starts)
    if not len(starts) == len(ends) == len(axes) == len(steps):
        raise Unsupported("starts, ends, axes and steps differ in length")
    params: List[Optional[Tuple[int, int, int]]] = [None] * rank
    for s, e, a, t in zip(starts, ends, axes, steps):
        d = shape[a]
        if t == 0:
            raise Unsupported("a zero step")
        if d is None:
            if t == 1 and s >= 0 and e >= (1 << 62) and s == 0:
                continue  # the whole dim
            raise Unsupported(f"slicing dynamic dim {a}")
        if s < 0:
            s += d
        if e < 0:
            e += d
        if t > 0:
            s, e = min(max(s, 0), d), min(max(e, 0), d)
        else:
            s, e = min(max(s, 0), d - 1), min(max(e, -1), d - 1)
        params[a] = (s, e, t)
    return params


def _fold_slice(n: Node, ins):
    x = ins[0]
    if any(a is not None and a.dtype == object for a in ins[1:]):
        return None
    idx = tuple(slice(None) if p is None else slice(p[0], p[1] if p[1] >= 0 else None, p[2])
                for p in slice_params(n, x.shape))
    return [x[idx]]


@register("Slice", dtypes=ANY, fold=_fold_slice,
          doc="`graph.slice` (constant starts/ends/axes/steps; a sliced dim "
              "must be static; with other dims dynamic: `graph.split`, unit "
              "steps); negative steps: `graph.gather` of constant indices")
def _slice(n: Node):
    b, x = n.b, n.value(0)
    params = slice_params(n, x.shape)
    if any(p is not None and p[2] < 0 for p in params):
        for a, p in enumerate(params):
            if p is None:
                continue
            s, e, t = p
            idx = np.arange(s, e, t, dtype=np.int64)
            x = b.generic("gather", [x, b.constant(idx, hint="idx")], {"axis": a},
                          x.type.with_shape(x.shape[:a] + (len(idx),) + x.shape[a + 1:]))
        return [x]
    if any(p is not None and d is None for p, d in zip(params, x.shape)):
        raise Unsupported("slicing a dynamic dim")
    start = [0 if p is None else p[0] for p in params]
    step = [1 if p is None else p[2] for p in params]
    limit = [d if p is None else max(p[1], p[0]) for p, d in zip(params, x.shape)]
    if any(d is None for p, d in zip(params, x.shape) if p is None):
        # graph.slice needs every dim static; graph.split does not: take the
        # middle piece of a split along each sliced dim (unit steps).
        if any(p is not None and p[2] != 1 for p in params):
            raise Unsupported("a strided Slice of a tensor with dynamic dims")
        for a, p in enumerate(params):
            if p is None or (p[0] == 0 and p[1] == x.shape[a]):
                continue
            s, e = p[0], max(p[1], p[0])
            if e == s:
                raise Unsupported("an empty Slice of a tensor with dynamic dims")
            # No empty pieces: the CPU lowering rejects an empty slice at the end.
            sizes = [v for v in (s, e - s, x.shape[a] - e) if v]
            x = b.split(x, a, sizes)[1 if s else 0]
        return [x]
    return [b.slice(x, start, limit, step)]


def _fold_gather(n: Node, ins):
    x, idx = ins
    if idx.dtype == object:
        return None
    axis = n.axis(n.attr("axis"), x.ndim)
    d = x.shape[axis]
    if ((idx < -d) | (idx >= d)).any():
        return None
    return [np.asarray(np.take(x, idx.astype(np.int64), axis=axis), dtype=x.dtype)]


@register("Gather", dtypes=ANY, attrs={"axis": ANY_VALUE}, fold=_fold_gather,
          doc="`graph.gather` (negative indices count from the end; out-of-range "
              "indices are clamped)")
def _gather(n: Node):
    b, x, idx = n.b, n.value(0), n.value(1)
    axis = n.axis(n.attr("axis"), x.rank)
    if idx.dtype not in INTS:
        raise Unsupported(f"indices of type {dtype_name(idx.dtype)}")
    return [b.generic("gather", [x, idx], {"axis": axis},
                      x.type.with_shape(x.shape[:axis] + idx.shape + x.shape[axis + 1:]))]


@register("Shape", dtypes=ANY, attrs={"start": ANY_VALUE, "end": ANY_VALUE},
          doc="evaluated at import time (dynamic dims give a partially known "
              "shape, usable as a -1 of a Reshape)")
def _shape(n: Node):
    shape = n.sym_dims(0)
    r = len(shape)
    start, end = n.attr("start", 0), n.attr("end", None)
    start = min(max(start + r if start < 0 else start, 0), r)
    end = r if end is None else min(max(end + r if end < 0 else end, 0), r)
    return [make_partial(shape[start:end])]


@register("Size", dtypes=ANY, doc="evaluated at import time (static shapes)")
def _size(n: Node):
    t = n.type(0)
    return [make_partial([t.numel()], ())]


def expand_target(x_shape, target):
    """ONNX Expand's output dims (bidirectional broadcasting) and the
    ``graph.broadcast_to`` shape (None: keep the input dim)."""
    r = max(len(x_shape), len(target))
    xs = [1] * (r - len(x_shape)) + list(x_shape)
    ts = [1] * (r - len(target)) + list(target)
    out, attr = [], []
    for i, (xd, td) in enumerate(zip(xs, ts)):
        if not is_dim(td):
            if xd == 1:
                raise Unsupported("expanding a size-1 dim to a dynamic size")
            out.append(xd)
            attr.append(None if i >= r - len(x_shape) else xd)
        elif td == 1:
            out.append(xd)
            attr.append(None if i >= r - len(x_shape) else 1)
        else:
            if xd not in (1, None, td):
                raise Unsupported(f"cannot expand dim {xd} to {td}")
            out.append(td)
            attr.append(td)
    if any(a is None for a in attr[:r - len(x_shape)]):
        raise Unsupported("a dynamic new leading dim")
    return out, attr


def _fold_expand(n: Node, ins):
    x, s = ins
    if s.dtype == object or x.dtype == object:
        return None
    out, _ = expand_target(x.shape, [int(v) for v in s])
    return [np.broadcast_to(x, out).copy()]


@register("Expand", dtypes=ANY, fold=_fold_expand,
          doc="`graph.broadcast_to` (bidirectional broadcasting; the shape must be "
              "known at import time, entries for dynamic input dims may be unknown)")
def _expand(n: Node):
    x = n.value(0)
    _, attr = expand_target(x.shape, _shape_input(n, 1, "shape"))
    return [n.b.broadcast_to(x, attr)]


@register("Tile", dtypes=ANY, fold=_known_only(lambda _n, ins: [np.tile(ins[0], ins[1])]),
          doc="`graph.concat` of copies (constant repeats)")
def _tile(n: Node):
    b, x = n.b, n.value(0)
    repeats = n.ints(1, "repeats")
    if len(repeats) != x.rank:
        raise Unsupported(f"{len(repeats)} repeats for rank {x.rank}")
    for a, r in enumerate(repeats):
        if r == 0:
            if not x.type.is_static:
                raise Unsupported("zero repeats of a dynamic-shaped tensor")
            return [b.constant(np.zeros([0 if i == a else d * rr for i, (d, rr) in
                                         enumerate(zip(x.shape, repeats))], x.dtype))]
        if r > 1:
            if x.shape[a] is not None and x.type.is_static:
                # [.., d, ..] -> [.., 1, d, ..] -> [.., r, d, ..] -> [.., r*d, ..]
                y = b.reshape(x, list(x.shape[:a]) + [1] + list(x.shape[a:]))
                y = b.broadcast_to(y, list(x.shape[:a]) + [r] + list(x.shape[a:]))
                x = b.reshape(y, list(x.shape[:a]) + [r * x.shape[a]] + list(x.shape[a + 1:]))
            else:
                x = b.concat([x] * r, a)
    return [x]


def _pad_mode(v, _node):
    return None if v in ("constant", "edge", "reflect", "wrap") else f"value {v!r}"


@register("Pad", dtypes=ANY,
          attrs={"mode": Attr("constant; edge, reflect, wrap: static padded dims",
                              _pad_mode)},
          doc="`graph.pad` (constant pads and value); edge/reflect/wrap: "
              "`graph.concat` of slices; negative pads: `graph.slice`")
def _pad(n: Node):
    b, x = n.b, n.value(0)
    pads = n.ints(1, "pads")
    r = x.rank
    axes = [n.axis(a, r) for a in n.ints(3, "axes")] if n.has(3) else list(range(r))
    if len(pads) != 2 * len(axes):
        raise Unsupported(f"{len(pads)} pads for {len(axes)} axes")
    low, high = [0] * r, [0] * r
    for i, a in enumerate(axes):
        low[a], high[a] = pads[i], pads[i + len(axes)]
    # Negative pads crop first.
    if any(p < 0 for p in low + high):
        if not x.type.is_static:
            raise Unsupported("negative pads on a dynamic-shaped tensor")
        start = [max(-p, 0) for p in low]
        limit = [d - max(-p, 0) for d, p in zip(x.shape, high)]
        x = b.slice(x, start, limit, [1] * r)
        low, high = [max(p, 0) for p in low], [max(p, 0) for p in high]
    if not any(low + high):
        return [x]
    mode = n.attr("mode")
    if mode == "constant":
        value = 0.0
        if n.has(2):
            v = n.const(2, "constant_value").reshape(-1)
            value = float(v[0]) if v.size else 0.0
            if x.dtype.kind == "i" and abs(value) > 2 ** 53:
                raise Unsupported("an integer pad value beyond 2^53")
        shape = [None if d is None else d + lo + hi for d, lo, hi in zip(x.shape, low, high)]
        return [b.with_attrs("pad", x, {"low": low, "high": high, "value": value},
                             x.type.with_shape(shape))]
    for a in range(r):
        if not (low[a] or high[a]):
            continue
        d = x.shape[a]
        if d is None:
            raise Unsupported(f"{mode} padding of a dynamic dim")
        if mode == "reflect" and (low[a] >= d or high[a] >= d):
            raise Unsupported("reflect padding wider than the dim")
        if mode == "edge":
            idx = [0] * low[a] + list(range(d)) + [d - 1] * high[a]
        elif mode == "reflect":
            idx = list(range(low[a], 0, -1)) + list(range(d)) + \
                list(range(d - 2, d - 2 - high[a], -1))
        else:  # wrap
            idx = [(i - low[a]) % d for i in range(d + low[a] + high[a])]
        x = b.generic("gather", [x, b.constant(np.array(idx, np.int64), hint="idx")],
                      {"axis": a}, x.type.with_shape(x.shape[:a] + (len(idx),) + x.shape[a + 1:]))
    return [x]


def _tensor_attr(n: Node, name: str):
    import onnx.numpy_helper
    for a in n.proto.attribute:
        if a.name == name:
            return onnx.numpy_helper.to_array(a.t)
    return None


def _check_value_tensor(_v, node):
    t = next((a.t for a in node.proto.attribute if a.name == "value"), None)
    if t is not None and t.data_type not in ONNX_TO_NUMPY:
        return f"element type {onnx_type_name(t.data_type)} is not supported"
    return None


@register("ConstantOfShape", dtypes=(I64,),
          attrs={"value": Attr("a one-element tensor of a supported type",
                               _check_value_tensor)},
          doc="a constant (the shape must be known at import time)")
def _constant_of_shape(n: Node):
    shape = n.ints(0, "shape")
    v = _tensor_attr(n, "value")
    if v is None:
        v = np.zeros(1, np.float32)
    return [np.full(shape, v.reshape(-1)[0], dtype=v.dtype)]


def _check_constant(n: Node) -> Optional[str]:
    for a in n.proto.attribute:
        if a.name in ("sparse_value", "value_string", "value_strings"):
            return f"attribute {a.name} is not supported"
        if a.name == "value" and a.t.data_type not in ONNX_TO_NUMPY:
            return f"element type {onnx_type_name(a.t.data_type)} is not supported"
    return None


@register("Constant", dtypes=(),
          attrs={k: ANY_VALUE for k in ("value", "value_float", "value_floats",
                                        "value_int", "value_ints")},
          check=_check_constant, doc="a constant (dense values only)")
def _constant(n: Node):
    v = _tensor_attr(n, "value")
    if v is not None:
        return [np.asarray(v)]
    for a in n.proto.attribute:
        if a.name == "value_float":
            return [np.array(a.f, np.float32)]
        if a.name == "value_floats":
            return [np.array(list(a.floats), np.float32)]
        if a.name == "value_int":
            return [np.array(a.i, np.int64)]
        if a.name == "value_ints":
            return [np.array(list(a.ints), np.int64)]
    raise Unsupported("no value attribute")


@register("Range", dtypes=NUMERIC, typed=(0, 1, 2),
          doc="a constant (start, limit and delta known at import time)")
def _range(n: Node):
    consts = [n.const(i, w) for i, w in ((0, "start"), (1, "limit"), (2, "delta"))]
    for c, w in zip(consts, ("start", "limit", "delta")):
        if c.size != 1:
            raise Unsupported(f"invalid model: {w} must be a scalar, got shape {list(c.shape)}")
    start, limit, delta = (c.reshape(()) for c in consts)
    dt = start.dtype
    count = max(int(math.ceil((float(limit) - float(start)) / float(delta))), 0)
    if dt.kind == "i":
        return [(int(start) + np.arange(count, dtype=np.int64) * int(delta)).astype(dt)]
    return [(start + np.arange(count, dtype=dt) * delta).astype(dt)]


@register("EyeLike", dtypes=ANY,
          attrs={"dtype": Attr("float, float16, int32, int64, bool", _check_cast_to),
                 "k": ANY_VALUE},
          doc="a constant (static shape)")
def _eye_like(n: Node):
    t = n.type(0)
    if not t.is_static or t.rank != 2:
        raise Unsupported("EyeLike needs a static 2-D input")
    dt = numpy_dtype(n.attr("dtype")) if n.has_attr("dtype") else t.dtype
    return [np.eye(t.shape[0], t.shape[1], k=int(n.attr("k")), dtype=dt)]


@register("Trilu", dtypes=ANY, attrs={"upper": ANY_VALUE},
          doc="`graph.select` with a constant mask (static last two dims)")
def _trilu(n: Node):
    b, x = n.b, n.value(0)
    k = int(n.const(1, "k").reshape(-1)[0]) if n.has(1) else 0
    rows, cols = x.shape[-2:]
    if rows is None or cols is None:
        raise Unsupported("dynamic matrix dims")
    mask = np.triu(np.ones((rows, cols), bool), k) if n.attr("upper") \
        else np.tril(np.ones((rows, cols), bool), k)
    return [b.select(b.constant(mask, hint="mask"), x, n.splat(0, x.dtype))]


def _check_d2s_mode(v, _node):
    return None if v in ("DCR", "CRD") else f"value {v!r}"


@register("DepthToSpace", dtypes=ANY,
          attrs={"blocksize": ANY_VALUE, "mode": Attr("DCR or CRD", _check_d2s_mode)},
          doc="`graph.reshape` + `graph.transpose` (static C, H, W)")
def _depth_to_space(n: Node):
    b, x = n.b, n.value(0)
    bs = int(n.attr("blocksize"))
    nb, c, h, w = x.shape
    if None in (c, h, w) or c % (bs * bs):
        raise Unsupported("needs static C (a multiple of blocksize^2), H and W")
    if n.attr("mode") == "DCR":
        y = reshape_dims(b, x, [nb, bs, bs, c // bs // bs, h, w])
        y = b.transpose(y, [0, 3, 4, 1, 5, 2])
    else:
        y = reshape_dims(b, x, [nb, c // bs // bs, bs, bs, h, w])
        y = b.transpose(y, [0, 1, 4, 2, 5, 3])
    return [reshape_dims(b, y, [nb, c // bs // bs, h * bs, w * bs])]


@register("SpaceToDepth", dtypes=ANY,
          attrs={"blocksize": ANY_VALUE, "mode": Attr("DCR or CRD", _check_d2s_mode)},
          doc="`graph.reshape` + `graph.transpose` (static C, H, W)")
def _space_to_depth(n: Node):
    b, x = n.b, n.value(0)
    bs = int(n.attr("blocksize"))
    nb, c, h, w = x.shape
    if None in (c, h, w) or h % bs or w % bs:
        raise Unsupported("needs static C, H and W (multiples of blocksize)")
    y = reshape_dims(b, x, [nb, c, h // bs, bs, w // bs, bs])
    crd = n.attr("mode", "DCR") == "CRD"
    y = b.transpose(y, [0, 1, 3, 5, 2, 4] if crd else [0, 3, 5, 1, 2, 4])
    return [reshape_dims(b, y, [nb, c * bs * bs, h // bs, w // bs])]


@register("OneHot", dtypes=NUMERIC, typed=(0,), attrs={"axis": ANY_VALUE},
          doc="`graph.compare` of the indices with a constant iota, then "
              "`graph.select` (depth known at import time)")
def _one_hot(n: Node):
    b = n.b
    idx = n.value(0)
    depth = int(n.const(1, "depth").reshape(-1)[0])
    values = n.value(2)
    rank = idx.rank + 1
    axis = n.axis(n.attr("axis"), rank)
    idx = b.cast(idx, I64)  # floats truncate, as ONNX casts them
    idx = b.select(b.compare("lt", idx, n.splat(0, I64)),
                   b.binary("add", idx, n.splat(depth, I64)), idx)
    idx = reshape_dims(b, idx, list(idx.shape[:axis]) + [1] + list(idx.shape[axis:]))
    hit = b.compare("eq", idx, iota_along(b, depth, axis, rank))
    off = b.generic("gather", [values, b.splat(0, I64)], {"axis": 0}, values.type.with_shape(()))
    on = b.generic("gather", [values, b.splat(1, I64)], {"axis": 0}, values.type.with_shape(()))
    return [b.select(hit, on, off)]


# ===========================================================================
# Recurrent networks: LSTM, GRU, RNN
# ===========================================================================
#
# Each direction is one `graph.loop` over the (static) sequence length. The
# input projection of every time step is one matmul before the loop
# (X @ W^T + biases: [T, B, gates * H]); the loop body reads step t with
# `graph.gather` (rank-0 index), adds the recurrent projection H @ R^T,
# applies the gate equations and writes H_t into the [T, B, H] output with
# `graph.dynamic_update_slice`. The reverse direction runs t = T-1 .. 0.

_RNN_GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
_RNN_DEFAULT_ACTS = {"LSTM": ["Sigmoid", "Tanh", "Tanh"], "GRU": ["Sigmoid", "Tanh"],
                     "RNN": ["Tanh"]}


def _check_rnn(n: Node) -> Optional[str]:
    hidden = n.attr("hidden_size", None)
    if hidden is None or int(hidden) <= 0:
        return f"invalid model: hidden_size must be positive, got {hidden}"
    acts = n.attr("activations", None)
    if acts is not None:
        bad = [a for a in acts if a not in RNN_ACTIVATIONS]
        if bad:
            return f"activation {bad[0]!r} is not supported"
    if n.attr("activation_alpha", None) or n.attr("activation_beta", None):
        return "activation_alpha/activation_beta are not supported"
    return None


def _direction_weights(n: Node, i: int, d: int, rows: int) -> Value:
    """``W[d]^T`` (or ``R[d]^T``): [in, rows]."""
    c = n.maybe_const(i)
    if c is not None:
        return n.b.constant(np.ascontiguousarray(c[d].T), hint="w")
    b, w = n.b, n.value(i)
    wd = b.slice(w, [d, 0, 0], [d + 1, w.shape[1], w.shape[2]], [1, 1, 1])
    return b.transpose(reshape_dims(b, wd, [w.shape[1], w.shape[2]]), [1, 0])


def _direction_row(n: Node, v: Value, d: int) -> Value:
    """``v[d]`` of a [D, ...] value."""
    b = n.b
    sl = b.slice(v, [d] + [0] * (v.rank - 1), [d + 1] + list(v.shape[1:]), [1] * v.rank)
    return reshape_dims(b, sl, list(v.shape[1:]))


def _rnn(n: Node):
    n.require_ranks({0: 3, 1: 3, 2: 3, 3: 2, 5: 3, 6: 3, 7: 2})
    b = n.b
    kind = n.op_type
    gates = _RNN_GATES[kind]
    hidden = int(n.attr("hidden_size"))
    layout = int(n.attr("layout"))
    direction = n.attr("direction")
    dirs = ["forward", "reverse"] if direction == "bidirectional" else [direction]
    acts = n.attr("activations", None) or _RNN_DEFAULT_ACTS[kind] * len(dirs)
    per_dir = len(_RNN_DEFAULT_ACTS[kind])
    if len(acts) != per_dir * len(dirs):
        raise Unsupported(f"{len(acts)} activations for {len(dirs)} direction(s)")
    clip = n.attr("clip", None)
    x = n.value(0)
    if layout:
        x = b.transpose(x, [1, 0, 2])
    seq, batch, _ = x.shape
    if seq is None or batch is None:
        raise Unsupported(f"{kind} needs static sequence length and batch size")
    dt = x.dtype
    if n.has(4):
        lens = n.maybe_const(4)
        if lens is None or not (lens == seq).all():
            raise Unsupported("sequence_lens other than the full length")
    bias = n.value(3) if n.has(3) else None
    h0_all = n.value(5) if n.has(5) else None
    c0_all = n.value(6) if kind == "LSTM" and n.has(6) else None
    peep = n.value(7) if kind == "LSTM" and n.has(7) else None
    if layout:
        h0_all = b.transpose(h0_all, [1, 0, 2]) if h0_all is not None else None
        c0_all = b.transpose(c0_all, [1, 0, 2]) if c0_all is not None else None
    lbr = kind == "GRU" and bool(n.attr("linear_before_reset"))
    gh = gates * hidden
    one = n.splat(1, dt)

    def act(k: int, v: Value) -> Value:
        return activation(b, acts[k], v)

    def clipped(v: Value) -> Value:
        return b.unary("clamp", v, {"min": -float(clip), "max": float(clip)}) if clip else v

    ys, hs, cs = [], [], []
    for d, name in enumerate(dirs):
        a0 = per_dir * d
        wt = _direction_weights(n, 1, d, gh)          # [I, G*H]
        rt = _direction_weights(n, 2, d, gh)          # [H, G*H]
        xw = b.matmul(x, wt)                          # [T, B, G*H]
        rb = None
        if bias is not None:
            bd = _direction_row(n, bias, d)           # [2*G*H]
            wb = b.slice(bd, [0], [gh], [1])
            rb = b.slice(bd, [gh], [2 * gh], [1])
            if kind == "GRU" and lbr:
                xw = b.binary("add", xw, wb)          # Rb_h stays inside the reset gate
            else:
                xw = b.binary("add", xw, b.binary("add", wb, rb))
                rb = None
        h0 = _direction_row(n, h0_all, d) if h0_all is not None else \
            n.b.splat(0, dt, (batch, hidden))
        c0 = _direction_row(n, c0_all, d) if c0_all is not None else \
            n.b.splat(0, dt, (batch, hidden))
        pd = _direction_row(n, peep, d) if peep is not None else None
        y0 = n.b.splat(0, dt, (seq, batch, hidden))
        rev = name == "reverse"

        def body(iv, carried, rt=rt, xw=xw, rb=rb, pd=pd, rev=rev, a0=a0):
            if rev:
                t = b.binary("sub", n.splat(seq - 1, I64), iv)
            else:
                t = iv
            h, y = carried[0], carried[-1]
            xt = b.generic("gather", [xw, t], {"axis": 0}, TType((batch, gh), dt))
            hr = b.matmul(h, rt)
            if kind == "LSTM":
                c = carried[1]
                gi, go, gf, gc = b.split(b.binary("add", xt, hr), 1, [hidden] * 4)
                if pd is not None:
                    pi, po, pf = b.split(pd, 0, [hidden] * 3)
                    gi = b.binary("add", gi, b.binary("mul", pi, c))
                    gf = b.binary("add", gf, b.binary("mul", pf, c))
                i_ = act(a0, clipped(gi))
                f_ = b.binary("sub", one, i_) if n.attr("input_forget") else act(a0, clipped(gf))
                c_ = act(a0 + 1, clipped(gc))
                c_new = b.binary("add", b.binary("mul", f_, c), b.binary("mul", i_, c_))
                if pd is not None:
                    go = b.binary("add", go, b.binary("mul", po, c_new))
                o_ = act(a0, clipped(go))
                h_new = b.binary("mul", o_, act(a0 + 2, c_new))
                nxt = [h_new, c_new]
            elif kind == "GRU":
                xz, xr, xh = b.split(xt, 1, [hidden] * 3)
                if lbr:
                    if rb is not None:
                        hr = b.binary("add", hr, rb)
                    hz, hr_, hh = b.split(hr, 1, [hidden] * 3)
                    z = act(a0, clipped(b.binary("add", xz, hz)))
                    r = act(a0, clipped(b.binary("add", xr, hr_)))
                    ht = act(a0 + 1, clipped(b.binary("add", xh, b.binary("mul", r, hh))))
                else:
                    hz, hr_, _ = b.split(hr, 1, [hidden] * 3)
                    z = act(a0, clipped(b.binary("add", xz, hz)))
                    r = act(a0, clipped(b.binary("add", xr, hr_)))
                    rh = b.slice(rt, [0, 2 * hidden], [hidden, gh], [1, 1])
                    ht = act(a0 + 1, clipped(b.binary("add", xh, b.matmul(b.binary("mul", r, h), rh))))
                h_new = b.binary("add", b.binary("mul", b.binary("sub", one, z), ht),
                                 b.binary("mul", z, h))
                nxt = [h_new]
            else:
                h_new = act(a0, clipped(b.binary("add", xt, hr)))
                nxt = [h_new]
            y = b.generic("dynamic_update_slice", [y, h_new, t], {"axis": 0}, y.type)
            return n.splat(True, BOOL), nxt + [y]

        inits = [h0] + ([c0] if kind == "LSTM" else []) + [y0]
        outs = b.loop(n.splat(seq, I64), n.splat(True, BOOL), inits, body)
        hs.append(outs[0])
        if kind == "LSTM":
            cs.append(outs[1])
        ys.append(outs[-1])

    def stack(vals, axis):
        vals = [reshape_dims(b, v, list(v.shape[:axis]) + [1] + list(v.shape[axis:])) for v in vals]
        return b.concat(vals, axis)

    y = stack(ys, 1)                                  # [T, D, B, H]
    yh = stack(hs, 0)                                 # [D, B, H]
    yc = stack(cs, 0) if cs else None
    if layout:
        y = b.transpose(y, [2, 0, 1, 3])
        yh = b.transpose(yh, [1, 0, 2])
        yc = b.transpose(yc, [1, 0, 2]) if yc is not None else None
    return [y, yh] + ([yc] if kind == "LSTM" else [])


_RNN_ATTRS = {
    "activations": Attr(", ".join(RNN_ACTIVATIONS)),
    "activation_alpha": Attr("not supported (defaults only)"),
    "activation_beta": Attr("not supported (defaults only)"),
    "clip": ANY_VALUE, "direction": one_of("forward", "reverse", "bidirectional"),
    "hidden_size": ANY_VALUE, "layout": one_of(0, 1),
}
register("LSTM", dtypes=FLOATS, typed=(0, 1, 2, 3, 5, 6, 7),
         attrs={**_RNN_ATTRS, "input_forget": ANY_VALUE}, check=_check_rnn,
         doc="`graph.loop` per direction with `graph.gather`/"
             "`graph.dynamic_update_slice` (static sequence length and batch; "
             "sequence_lens only if all equal to the length)")(_rnn)
register("GRU", dtypes=FLOATS, typed=(0, 1, 2, 3, 5),
         attrs={**_RNN_ATTRS, "linear_before_reset": ANY_VALUE}, check=_check_rnn,
         doc="as LSTM")(_rnn)
register("RNN", dtypes=FLOATS, typed=(0, 1, 2, 3, 5), attrs=_RNN_ATTRS, check=_check_rnn,
         doc="as LSTM")(_rnn)


# ===========================================================================
# Attention, losses, GatherElements
# ===========================================================================

def _check_softmax_precision(v, node):
    if v in (0, None) or v == 1:  # unset, or float
        return None
    return f"value {v} (only float is supported)"


def _repeat_heads(b: Builder, x: Value, reps: int) -> Value:
    """[B, h, S, E] -> [B, h * reps, S, E], each head repeated in place
    (``np.repeat`` along axis 1)."""
    if reps == 1:
        return x
    bsz, h, s, e = x.shape
    y = reshape_dims(b, x, [bsz, h, 1, s, e])
    y = b.broadcast_to(y, [bsz, h, reps, s, e])
    return reshape_dims(b, y, [bsz, h * reps, s, e])


@register("Attention", dtypes=FLOATS, typed=(0, 1, 2, 4, 5),
          attrs={"is_causal": ANY_VALUE, "kv_num_heads": ANY_VALUE, "q_num_heads": ANY_VALUE,
                 "qk_matmul_output_mode": one_of(0, 1, 2, 3), "scale": ANY_VALUE,
                 "softcap": ANY_VALUE,
                 "softmax_precision": Attr("float", _check_softmax_precision),
                 "left_window_size": ANY_VALUE, "right_window_size": ANY_VALUE},
          doc="`graph.matmul`, `graph.softmax` and elementwise ops: 3-D and 4-D "
              "inputs, grouped heads, boolean/additive masks, causal and "
              "sliding-window masks, past key/value, nonpad_kv_seqlen, softcap, "
              "every qk_matmul_output mode (static sequence lengths)")
def _attention(n: Node):
    b = n.b
    q, k, v = n.value(0), n.value(1), n.value(2)
    dt = q.dtype
    if not (q.rank == k.rank == v.rank):
        raise Unsupported(f"invalid model: Q, K and V must have one rank (3 or 4), "
                          f"got {q.rank}, {k.rank} and {v.rank}")
    three_d = q.rank == 3
    if three_d:
        qh, kvh = n.attr("q_num_heads"), n.attr("kv_num_heads")
        if not qh or not kvh:
            raise Unsupported("3-D inputs need q_num_heads and kv_num_heads")

        def heads(x: Value, h: int) -> Value:
            bsz, s, hidden = x.shape
            if hidden is None or hidden % h:
                raise Unsupported(f"hidden size {hidden} is not a multiple of {h} heads")
            return b.transpose(reshape_dims(b, x, [bsz, s, h, hidden // h]), [0, 2, 1, 3])
        q, k, v = heads(q, qh), heads(k, kvh), heads(v, kvh)
    elif q.rank != 4:
        raise Unsupported(f"rank-{q.rank} inputs (3-D and 4-D are supported)")
    if n.has(4) != n.has(5):
        raise Unsupported("past_key without past_value (or the reverse)")
    past = n.has(4)
    if past:
        k = b.concat([n.value(4), k], 2)
        v = b.concat([n.value(5), v], 2)
    present_k, present_v = k, v
    head_dim = q.shape[3]
    L, S = q.shape[2], k.shape[2]
    if None in (L, S, head_dim):
        raise Unsupported("dynamic sequence lengths or head size")
    scale = n.attr("scale", None)
    scale = 1.0 / math.sqrt(head_dim) if scale is None else float(scale)
    sq = n.splat(float(np.sqrt(np.float64(scale))), dt)
    np_dt = dt.type

    # The attention bias: a constant part [L, S] and a run-time part.
    const_bias = np.zeros((L, S), dtype=dt)
    dyn: Optional[Value] = None

    def add_dyn(x: Value):
        nonlocal dyn
        dyn = x if dyn is None else b.binary("add", dyn, x)

    neg_inf = n.splat(-np.inf, dt)
    zero = n.splat(0, dt)
    if n.has(3):
        m = n.value(3)
        if m.shape[-1] is None:
            raise Unsupported("a mask with a dynamic last dim")
        if m.shape[-1] < S:
            lo, hi = [0] * m.rank, [0] * m.rank
            hi[-1] = S - m.shape[-1]
            m = b.with_attrs("pad", m, {"low": lo, "high": hi,
                                        "value": 0.0 if m.dtype == BOOL else float("-inf")},
                             m.type.with_shape(list(m.shape[:-1]) + [S]))
        add_dyn(b.select(m, zero, neg_inf) if m.dtype == BOOL else b.cast(m, dt))
    nonpad = n.value(6) if n.has(6) else None
    if nonpad is not None and past:
        raise Unsupported("nonpad_kv_seqlen with past key/value")
    i_idx = np.arange(L).reshape(L, 1)
    j_idx = np.arange(S).reshape(1, S)
    left = n.attr("left_window_size", -1)
    right = n.attr("right_window_size", -1)
    left = -1 if left is None else int(left)
    right = -1 if right is None else int(right)

    def allowed_static(offset: int) -> np.ndarray:
        ok = np.ones((L, S), bool)
        diff = i_idx + offset - j_idx
        if n.attr("is_causal"):
            ok &= diff >= 0
        if left >= 0:
            ok &= diff <= left
        if right >= 0:
            ok &= -diff <= right
        return ok

    if n.attr("is_causal") or left >= 0 or right >= 0:
        if nonpad is None:
            offset = n.type(4).shape[2] if past else 0
            const_bias = np.where(allowed_static(offset), const_bias, np_dt(-np.inf)).astype(dt)
        else:
            # Per batch: query i is at position i + nonpad[b] - L.
            off = reshape_dims(b, b.binary("sub", b.cast(nonpad, I64), n.splat(L, I64)),
                               [nonpad.shape[0], 1, 1, 1])
            diff = b.binary("add", b.constant((i_idx - j_idx).astype(np.int64), hint="diff"), off)
            ok = None

            def both(x):
                nonlocal ok
                ok = x if ok is None else b.select(ok, x, n.splat(False, BOOL))
            if n.attr("is_causal"):
                both(b.compare("ge", diff, n.splat(0, I64)))
            if left >= 0:
                both(b.compare("le", diff, n.splat(left, I64)))
            if right >= 0:
                both(b.compare("ge", diff, n.splat(-right, I64)))
            add_dyn(b.select(ok, zero, neg_inf))
    if nonpad is not None:
        valid = b.compare("lt", b.constant(np.arange(S, dtype=np.int64), hint="iota"),
                          reshape_dims(b, b.cast(nonpad, I64), [nonpad.shape[0], 1]))
        add_dyn(reshape_dims(b, b.select(valid, zero, neg_inf), [nonpad.shape[0], 1, 1, S]))

    q_heads, kv_heads = q.shape[1], k.shape[1]
    if q_heads != kv_heads:
        if q_heads is None or kv_heads is None or q_heads % kv_heads:
            raise Unsupported(f"{q_heads} query heads for {kv_heads} key/value heads")
        k = _repeat_heads(b, k, q_heads // kv_heads)
        v = _repeat_heads(b, v, q_heads // kv_heads)
    qk = b.matmul(b.binary("mul", q, sq), b.transpose(b.binary("mul", k, sq), [0, 1, 3, 2]))
    softcap = n.attr("softcap", 0.0) or 0.0
    if softcap > 0:
        cap = n.splat(float(softcap), dt)
        qk = b.binary("mul", b.unary("tanh", b.binary("div", qk, cap)), cap)
    qk_out = qk
    bias = None
    if const_bias.any() or dyn is None:
        bias = b.constant(const_bias, hint="bias") if const_bias.any() else None
    if dyn is not None:
        bias = dyn if bias is None else b.binary("add", dyn, bias)
    scores = b.binary("add", qk, bias) if bias is not None else qk
    mode = n.attr("qk_matmul_output_mode")
    if mode == 2:
        qk_out = scores
    p = b.softmax(scores, 3)
    # Rows where every key is masked give 0 (softmax alone would give NaN).
    if dyn is not None:
        masked = b.compare("eq", b.reduce("max", bias, [bias.rank - 1], True), neg_inf)
        p = b.select(masked, zero, p)
    elif np.isneginf(const_bias).all(axis=1).any():
        p = b.select(b.constant(np.isneginf(const_bias).all(axis=1, keepdims=True), hint="masked"),
                     zero, p)
    if mode == 3:
        qk_out = p
    y = b.matmul(p, v)
    if three_d:
        bsz, h, _, ev = y.shape
        y = reshape_dims(b, b.transpose(y, [0, 2, 1, 3]), [bsz, L, h * ev])
    return [y, present_k, present_v, qk_out]


def _loss_attrs():
    return {"ignore_index": ANY_VALUE, "reduction": one_of("none", "sum", "mean")}


def _nll(n: Node, logp: Value, target_index: int, weight_index: int, sce: bool) -> Value:
    """The loss of log-probabilities ``logp`` [N, C, ...] for the targets."""
    b = n.b
    target = n.value(target_index)
    if target.dtype not in INTS:
        raise Unsupported("non-integer targets")
    if logp.rank < 2 or target.rank != logp.rank - 1:
        raise Unsupported(f"invalid model: targets of shape {_shape_text(target.shape)} for "
                          f"scores of shape {_shape_text(logp.shape)} (the targets have "
                          "the scores' dims without the class dim)")
    c = logp.shape[1]
    if c is None:
        raise Unsupported("a dynamic class dim")
    dt = logp.dtype
    t = b.cast(target, I64)
    t1 = reshape_dims(b, t, [t.shape[0], 1] + list(t.shape[1:]))
    hit = b.compare("eq", t1, iota_along(b, c, 1, logp.rank))
    picked = b.reduce("sum", b.select(hit, logp, n.splat(0, dt)), [1])
    loss = b.unary("neg", picked)
    ignore = n.attr("ignore_index", None)
    weighted = n.has(weight_index)
    w = None
    if weighted:
        w = b.generic("gather", [n.value(weight_index), t], {"axis": 0},
                      TType(t.shape, dt))
    if ignore is not None:
        valid = b.compare("ne", t, n.splat(int(ignore), I64))
        w = b.select(valid, w if w is not None else n.splat(1, dt), n.splat(0, dt))
    if w is not None:
        loss = b.binary("mul", loss, w)
    reduction = n.attr("reduction")
    if reduction == "none":
        return loss
    axes = list(range(loss.rank))
    total = b.reduce("sum", loss, axes)
    if reduction == "sum":
        return total
    # mean: weighted by the gathered weights (the reference's quirk: an
    # unweighted NegativeLogLikelihoodLoss with ignore_index -1 averages
    # over every element).
    if w is not None and (weighted or sce or ignore != -1):
        w_full = b.broadcast_to(w, loss.shape) if w.shape != loss.shape else w
        return b.binary("div", total, b.reduce("sum", w_full, axes))
    return b.reduce("mean", loss, axes)


@register("NegativeLogLikelihoodLoss", dtypes=FLOATS, typed=(0, 2), attrs=_loss_attrs(),
          doc="a one-hot `graph.compare` of the targets selects the inputs; "
              "weights by `graph.gather` (static class dim)")
def _nll_loss(n: Node):
    return [_nll(n, n.value(0), 1, 2, sce=False)]


@register("SoftmaxCrossEntropyLoss", dtypes=FLOATS, typed=(0, 2), attrs=_loss_attrs(),
          doc="log-softmax over axis 1, then as NegativeLogLikelihoodLoss")
def _sce_loss(n: Node):
    b, x = n.b, n.value(0)
    s = b.binary("sub", x, b.reduce("max", x, [1], True))
    logp = b.binary("sub", s, b.unary("log", b.reduce("sum", b.unary("exp", s), [1], True)))
    return [_nll(n, logp, 1, 2, sce=True), logp]


@register("GatherElements", dtypes=ANY, attrs={"axis": ANY_VALUE},
          doc="a one-hot `graph.compare` of the indices against a constant iota, "
              "`graph.select` and `graph.reduce` along the axis (static shapes; "
              "memory grows with indices size x axis dim)")
def _gather_elements(n: Node):
    b, data, idx = n.b, n.value(0), n.value(1)
    axis = n.axis(n.attr("axis"), data.rank)
    if not data.type.is_static or not idx.type.is_static:
        raise Unsupported("dynamic shapes")
    if idx.dtype not in INTS:
        raise Unsupported("non-integer indices")
    if idx.rank != data.rank or any(idx.shape[a] > data.shape[a]
                                    for a in range(data.rank) if a != axis):
        raise Unsupported(f"invalid model: indices of shape {list(idx.shape)} for data of "
                          f"shape {list(data.shape)} (axis {axis}): the ranks must be equal "
                          "and no other dim larger than the data's")
    d = data.shape[axis]
    # Data restricted to the indices' extent in the other dims.
    limit = [d if a == axis else idx.shape[a] for a in range(data.rank)]
    data = b.slice(data, [0] * data.rank, limit, [1] * data.rank)
    i = b.cast(idx, I64)
    i = b.select(b.compare("lt", i, n.splat(0, I64)), b.binary("add", i, n.splat(d, I64)), i)
    i = reshape_dims(b, i, list(idx.shape[:axis + 1]) + [1] + list(idx.shape[axis + 1:]))
    hit = b.compare("eq", i, iota_along(b, d, axis + 1, data.rank + 1))
    de = reshape_dims(b, data, list(data.shape[:axis]) + [1] + list(data.shape[axis:]))
    if data.dtype == BOOL:
        picked = b.select(hit, b.cast(de, I32), n.splat(0, I32))
        return [b.cast(b.reduce("max", picked, [axis + 1]), BOOL)]
    return [b.reduce("sum", b.select(hit, de, n.splat(0, data.dtype)), [axis + 1])]
