"""The ONNX op registry's core: the registry, the node context and the
helpers shared by the op families (one module each in this package:
elementwise, reductions, linalg, conv, norm, shape, rnn, attention).

Every supported ONNX op, how it maps to the ``graph`` dialect, and what it
supports:

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

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ...errors import Unsupported
from ...mlir_builder import NUMPY, TensorType as TType, Value, is_float
from ...mlir_builder import FunctionBuilder as Builder
from ...composites import floor_value  # noqa: F401 (re-exported to the op modules)

BOOL, I64 = NUMPY.bool, NUMPY.i64

# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------

# ONNX TensorProto.DataType codes of the element types the dialect has.
_ONNX_FLOAT, _ONNX_INT8, _ONNX_INT16, _ONNX_INT32, _ONNX_INT64 = 1, 3, 5, 6, 7
_ONNX_BOOL, _ONNX_FLOAT16, _ONNX_DOUBLE = 9, 10, 11
_ONNX_UINT8, _ONNX_UINT16, _ONNX_UINT32, _ONNX_UINT64 = 2, 4, 12, 13

#: ONNX element type code -> NumPy dtype, for the supported element types.
ONNX_TO_NUMPY: Dict[int, np.dtype] = {
    _ONNX_FLOAT: np.dtype(np.float32),
    _ONNX_FLOAT16: np.dtype(np.float16),
    _ONNX_DOUBLE: np.dtype(np.float64),
    _ONNX_INT8: np.dtype(np.int8),
    _ONNX_INT16: np.dtype(np.int16),
    _ONNX_INT32: np.dtype(np.int32),
    _ONNX_INT64: np.dtype(np.int64),
    _ONNX_UINT8: np.dtype(np.uint8),
    _ONNX_UINT16: np.dtype(np.uint16),
    _ONNX_UINT32: np.dtype(np.uint32),
    _ONNX_UINT64: np.dtype(np.uint64),
    _ONNX_BOOL: np.dtype(np.bool_),
}
_ONNX_BFLOAT16 = 16
#: ONNX codes of the 8-bit floats -> ml_dtypes' names.
_ONNX_FLOAT8 = {17: "float8_e4m3fn", 18: "float8_e4m3fnuz", 19: "float8_e5m2",
                20: "float8_e5m2fnuz"}
#: ONNX codes of the 2- and 4-bit integers -> ml_dtypes' names.
_ONNX_SUBBYTE = {21: "uint4", 22: "int4", 25: "uint2", 26: "int2"}
try:  # NumPy's bfloat16 and 8-bit floats (ml_dtypes, which onnx depends on)
    import ml_dtypes as _ml_dtypes
    BF16: Optional[np.dtype] = np.dtype(_ml_dtypes.bfloat16)
    ONNX_TO_NUMPY[_ONNX_BFLOAT16] = BF16
    for _code, _name in _ONNX_FLOAT8.items():
        ONNX_TO_NUMPY[_code] = np.dtype(getattr(_ml_dtypes, _name))
    #: The 8-bit floats: storage types (Cast, CastLike, QuantizeLinear,
    #: DequantizeLinear take them; arithmetic does not).
    FLOAT8 = tuple(np.dtype(getattr(_ml_dtypes, n)) for n in _ONNX_FLOAT8.values())
    #: The 2- and 4-bit integers: storage types like the 8-bit floats (Cast,
    #: CastLike, QuantizeLinear, DequantizeLinear), carried one value per
    #: byte (i8 / ui8 in the graph dialect, the values in range).
    SUBBYTE = tuple(np.dtype(getattr(_ml_dtypes, n)) for n in _ONNX_SUBBYTE.values()
                    if hasattr(_ml_dtypes, n))
    for _code, _name in _ONNX_SUBBYTE.items():
        if hasattr(_ml_dtypes, _name):
            ONNX_TO_NUMPY[_code] = np.dtype(getattr(_ml_dtypes, _name))
except ImportError:
    BF16 = None
    FLOAT8 = ()
    SUBBYTE = ()
NUMPY_TO_ONNX = {v: k for k, v in ONNX_TO_NUMPY.items()}

#: Display names (ONNX's own, lower case) of the supported element types.
DTYPE_NAMES = {np.dtype(np.float32): "float", np.dtype(np.float16): "float16",
               np.dtype(np.float64): "double", np.dtype(np.int8): "int8",
               np.dtype(np.int16): "int16", np.dtype(np.int32): "int32",
               np.dtype(np.int64): "int64", np.dtype(np.uint8): "uint8",
               np.dtype(np.uint16): "uint16", np.dtype(np.uint32): "uint32",
               np.dtype(np.uint64): "uint64", np.dtype(np.bool_): "bool"}
if BF16 is not None:
    DTYPE_NAMES[BF16] = "bfloat16"
for _f8 in FLOAT8 + SUBBYTE:
    DTYPE_NAMES[_f8] = _f8.name


def subbyte_range(dtype) -> tuple:
    """(bits, lowest, highest) of a 2- or 4-bit integer dtype."""
    bits = 4 if dtype.name.endswith("4") else 2
    if dtype.name.startswith("u"):
        return bits, 0, 2 ** bits - 1
    return bits, -2 ** (bits - 1), 2 ** (bits - 1) - 1

F32, F16, F64 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.float64)
I8, I16, I32 = np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32)
U8, U16, U32, U64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))

#: bf16 computes in f32 and rounds where it is stored (docs/Dialects/Graph.md).
FLOATS = (F32, F16, F64) + ((BF16,) if BF16 is not None else ())
#: The index types (Gather, Scatter*, TopK outputs, ...).
INTS = (I32, I64)
NUMERIC = FLOATS + (I8, I16) + INTS + (U8, U16, U32, U64)
ANY = NUMERIC + (BOOL,)


def shape_text(shape) -> str:
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
                          "supported (supported: float, float16, bfloat16, double, "
                          "int8 ... int64, uint8 ... uint64, bool, and the float8 "
                          "types in Cast and (De)QuantizeLinear)") from None


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
    #: The op's ONNX domain ("": the default one; "ai.onnx.preview").
    domain: str = ""


REGISTRY: Dict[str, OpSpec] = {}

#: The ONNX opsets the importer accepts: 13 up to the newest it was checked
#: against. A newer op version (in a newer opset) is reported unsupported.
MIN_OPSET = 13
MAX_OPSET = 28

#: ``typed`` for ops whose every input has the op's element type.
ALL = tuple(range(32))


def register(*op_types: str, dtypes: Sequence[np.dtype], typed=(0,),
             attrs: Optional[Dict[str, Attr]] = None, doc: str = "",
             fold=None, check=None, fold_inputs=None, domain: str = ""):
    """Registers the decorated emit function for ``op_types`` (of the
    default ONNX domain unless ``domain`` names another)."""
    def deco(fn):
        for t in op_types:
            assert t not in REGISTRY, f"{t} registered twice"
            REGISTRY[t] = OpSpec(t, fn, tuple(np.dtype(d) for d in dtypes),
                                 tuple(typed), dict(attrs or {}),
                                 doc.strip(), fold, check, fold_inputs, domain)
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
                    f"rank {rank}, got shape {shape_text(self.type(i).shape)}")

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
