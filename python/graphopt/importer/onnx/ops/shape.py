"""ONNX ops: shape ops (the registry and the node context are in
:mod:`.core`)."""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .core import (ALL, ANY, ANY_VALUE, Attr, I64, INTS, NUMERIC, Node, ONNX_TO_NUMPY,
                   Unsupported, _known_only, dtype_name, is_dim, make_partial,
                   numpy_dtype, onnx_type_name, one_of, partial_entries, register, reshape_dims,
                   shape_text)
from .elementwise import _check_cast_to
from .reductions import iota_along


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


_SCATTER_REDUCTION = one_of("none", "add", "mul", "max", "min")


def _scatter_reduction(n: Node) -> str:
    r = n.attr("reduction", "none")
    if r in ("add", "mul") and n.value(0).dtype == np.dtype(np.bool_):
        raise Unsupported(f"reduction '{r}' of bool data")
    return r


def _scatter_operands(n: Node):
    data, idx, upd = n.value(0), n.value(1), n.value(2)
    if idx.dtype not in INTS:
        raise Unsupported(f"indices of type {dtype_name(idx.dtype)}")
    if upd.dtype != data.dtype:
        raise Unsupported(f"invalid model: updates of type {dtype_name(upd.dtype)} "
                          f"for data of type {dtype_name(data.dtype)}")
    return data, idx, upd


@register("ScatterElements", dtypes=ANY, typed=(0, 2),
          attrs={"axis": ANY_VALUE, "reduction": _SCATTER_REDUCTION},
          doc="`graph.scatter` (negative indices count from the end; out-of-range "
              "indices are clamped; duplicates with reduction 'none': the last one "
              "in row-major order wins)")
def _scatter_elements(n: Node):
    data, idx, upd = _scatter_operands(n)
    red = _scatter_reduction(n)
    axis = n.axis(n.attr("axis", 0), data.rank)
    if not (idx.rank == upd.rank == data.rank):
        raise Unsupported(f"invalid model: data, indices and updates must have one rank, "
                          f"got {data.rank}, {idx.rank} and {upd.rank}")
    for a, (i, u, d) in enumerate(zip(idx.shape, upd.shape, data.shape)):
        if i is not None and u is not None and i != u:
            raise Unsupported(f"invalid model: indices of shape {shape_text(idx.shape)} "
                              f"but updates of shape {shape_text(upd.shape)}")
        if a != axis and i is not None and d is not None and i > d:
            raise Unsupported(f"invalid model: indices dim {a} is {i}, larger than the "
                              f"data's {d}")
    return [n.b.scatter(data, idx, upd, axis, red)]


@register("ScatterND", dtypes=ANY, typed=(0, 2), attrs={"reduction": _SCATTER_REDUCTION},
          doc="`graph.scatter` along axis 0 of the data seen as [positions, rest] at "
              "the linearized indices (static shapes; each index component wrapped "
              "if negative and clamped; duplicates as ScatterElements)")
def _scatter_nd(n: Node):
    b = n.b
    data, idx, upd = _scatter_operands(n)
    red = _scatter_reduction(n)
    if not (data.type.is_static and idx.type.is_static and upd.type.is_static):
        raise Unsupported("dynamic shapes")
    k = idx.shape[-1] if idx.rank else 0
    if idx.rank < 1 or not 1 <= k <= data.rank:
        raise Unsupported(f"invalid model: indices of shape {shape_text(idx.shape)} for "
                          f"data of rank {data.rank} (the last dim must be 1 to {data.rank})")
    want = tuple(idx.shape[:-1]) + tuple(data.shape[k:])
    if tuple(upd.shape) != want:
        raise Unsupported(f"invalid model: updates of shape {shape_text(upd.shape)}, "
                          f"expected {shape_text(want)}")
    dims = list(data.shape[:k])
    positions, rest = math.prod(dims), math.prod(data.shape[k:])
    q = math.prod(idx.shape[:-1])
    strides = [math.prod(dims[j + 1:]) for j in range(k)]
    i = b.cast(idx, I64) if idx.dtype != I64 else idx
    d = b.constant(np.array(dims, dtype=np.int64))
    i = b.select(b.compare("lt", i, n.splat(0, I64)), b.binary("add", i, d), i)
    i = b.binary("max", i, n.splat(0, I64))
    i = b.binary("min", i, b.constant(np.array(dims, dtype=np.int64) - 1))
    lin = b.reduce("sum", b.binary("mul", i, b.constant(np.array(strides, dtype=np.int64))),
                   [idx.rank - 1])
    lin = b.broadcast_to(reshape_dims(b, lin, [q, 1]), [q, rest])
    flat = reshape_dims(b, data, [positions, rest])
    u = reshape_dims(b, upd, [q, rest])
    return [reshape_dims(b, b.scatter(flat, lin, u, 0, red), list(data.shape))]


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


def _window(n: Node, fn):
    size = n.const(0, "size").reshape(-1)
    if size.size != 1 or int(size[0]) < 0:
        raise Unsupported(f"invalid model: size must be a non-negative scalar, got {size}")
    count = int(size[0])
    periodic = int(n.attr("periodic", 1))
    dt = numpy_dtype(n.attr("output_datatype", 1))
    denom = count if periodic else count - 1
    i = np.arange(count, dtype=np.float64)
    return [fn(i, denom).astype(dt)]


_WINDOW_ATTRS = {"periodic": ANY_VALUE,
                 "output_datatype": Attr("float, float16, double, int8 ... int64, "
                                         "uint8 ... uint64", _check_cast_to)}


@register("HannWindow", dtypes=INTS, attrs=_WINDOW_ATTRS,
          doc="a constant (the size known at import time): sin^2(pi n / N)")
def _hann_window(n: Node):
    return _window(n, lambda i, d: np.sin(i * np.pi / d) ** 2)


@register("HammingWindow", dtypes=INTS, attrs=_WINDOW_ATTRS,
          doc="a constant (the size known at import time): 25/46 - 21/46 cos(2 pi n / N)")
def _hamming_window(n: Node):
    return _window(n, lambda i, d: 25.0 / 46.0 - 21.0 / 46.0 * np.cos(2 * np.pi * i / d))


@register("BlackmanWindow", dtypes=INTS, attrs=_WINDOW_ATTRS,
          doc="a constant (the size known at import time): 0.42 - 0.5 cos(2 pi n / N) "
              "+ 0.08 cos(4 pi n / N)")
def _blackman_window(n: Node):
    return _window(n, lambda i, d: 0.42 - 0.5 * np.cos(2 * np.pi * i / d)
                   + 0.08 * np.cos(4 * np.pi * i / d))


@register("EyeLike", dtypes=ANY,
          attrs={"dtype": Attr("float, float16, double, int8 ... int64, uint8 ... uint64, bool", _check_cast_to),
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
# CenterCropPad, Compress, GatherND, ReverseSequence
# ===========================================================================

@register("CenterCropPad", dtypes=ANY, attrs={"axes": ANY_VALUE},
          doc="`graph.slice` (centered crop, the odd element at the end) and "
              "`graph.pad` (centered zeros, likewise); constant shape, static dims")
def _center_crop_pad(n: Node):
    b, x = n.b, n.value(0)
    r = x.rank
    target = n.ints(1, "shape")
    axes = [n.axis(a, r) for a in (n.attr("axes", None) or range(r))]
    if len(target) != len(axes):
        raise Unsupported(f"invalid model: {len(target)} sizes for {len(axes)} axes")
    start, limit = [0] * r, list(x.shape)
    low, high = [0] * r, [0] * r
    for a, t in zip(axes, target):
        d = x.shape[a]
        if d is None:
            raise Unsupported(f"a dynamic dim on axis {a}")
        if t < d:
            start[a], limit[a] = (d - t) // 2, (d - t) // 2 + t
        elif t > d:
            low[a], high[a] = (t - d) // 2, t - d - (t - d) // 2
    if None in limit:
        raise Unsupported("a dynamic dim")
    y = b.slice(x, start, limit, [1] * r)
    if any(low + high):
        y = b.pad(y, low, high, 0.0)
    return [y]


@register("Compress", dtypes=ANY, typed=(0,), attrs={"axis": ANY_VALUE},
          doc="`graph.gather` of the positions where the (constant) condition "
              "is true; a run-time condition would give a data-dependent shape")
def _compress(n: Node):
    b, x = n.b, n.value(0)
    cond = np.asarray(n.const(1, "condition")).reshape(-1).astype(bool)
    axis = n.attr("axis", None)
    if axis is None:
        if not x.type.is_static:
            raise Unsupported("a dynamic dim")
        x = b.reshape(x, [-1])
        axis = 0
    axis = n.axis(axis, x.rank)
    d = x.shape[axis]
    if d is not None and len(cond) > d:
        raise Unsupported(f"invalid model: a condition of {len(cond)} for a dim of {d}")
    picked = np.nonzero(cond)[0].astype(np.int64)
    return [b.gather(x, b.constant(picked), axis)]


@register("GatherND", dtypes=ANY, typed=(0,), attrs={"batch_dims": ANY_VALUE},
          doc="run-time indices: each index tuple (with the batch position) "
              "linearized into one row index of the data flattened over the "
              "indexed dims, then `graph.gather`; static shapes")
def _gather_nd(n: Node):
    b, data, idx = n.b, n.value(0), n.value(1)
    bd = int(n.attr("batch_dims"))
    if not data.type.is_static or not idx.type.is_static:
        raise Unsupported("dynamic shapes")
    if idx.dtype not in (np.dtype(np.int64), np.dtype(np.int32)):
        raise Unsupported("non-integer indices")
    k = idx.shape[-1]
    if not 1 <= k <= data.rank - bd or list(idx.shape[:bd]) != list(data.shape[:bd]):
        raise Unsupported(f"invalid model: indices {list(idx.shape)} for data "
                          f"{list(data.shape)} with batch_dims {bd}")
    dims = list(data.shape[bd:bd + k])
    rest = list(data.shape[bd + k:])
    i = b.cast(idx, I64)
    strides = [int(np.prod(dims[j + 1:])) for j in range(k)]
    linear = None
    for j in range(k):
        c = b.slice(i, [0] * (idx.rank - 1) + [j], list(idx.shape[:-1]) + [j + 1],
                    [1] * idx.rank)
        c = reshape_dims(b, c, list(idx.shape[:-1]))
        # A negative index counts from the end of its dim.
        c = b.select(b.compare("lt", c, n.splat(0, I64)),
                     b.binary("add", c, n.splat(dims[j], I64)), c)
        term = b.binary("mul", c, n.splat(strides[j], I64)) if strides[j] != 1 else c
        linear = term if linear is None else b.binary("add", linear, term)
    batch = int(np.prod(data.shape[:bd])) if bd else 1
    if bd:
        # The batch position, laid along the batch dims of the indices.
        pos = np.arange(batch, dtype=np.int64).reshape(
            list(idx.shape[:bd]) + [1] * (idx.rank - 1 - bd)) * int(np.prod(dims))
        linear = b.binary("add", linear, b.constant(pos))
    flat = reshape_dims(b, data, [batch * int(np.prod(dims))] + rest)
    return [b.gather(flat, linear, 0)]


@register("ReverseSequence", dtypes=ANY, typed=(0,),
          attrs={"batch_axis": ANY_VALUE, "time_axis": ANY_VALUE},
          doc="the first `sequence_lens[b]` time steps of each batch entry "
              "reversed: a run-time index `len - 1 - t` (or `t`) per step, "
              "taken with `graph.gather_elements`; static shapes")
def _reverse_sequence(n: Node):
    from .attention import take_along_axis
    b, x, lens = n.b, n.value(0), n.value(1)
    ba, ta = int(n.attr("batch_axis")), int(n.attr("time_axis"))
    if not x.type.is_static or x.rank < 2 or {ba, ta} != {0, 1}:
        raise Unsupported("static shapes with batch and time on axes 0 and 1")
    if lens.rank != 1 or lens.shape[0] not in (None, x.shape[ba]):
        raise Unsupported(f"invalid model: sequence_lens has shape {shape_text(lens.shape)}, "
                          f"expected [{x.shape[ba]}] (one length per batch entry)")
    t = x.shape[ta]
    shape = [1] * x.rank
    shape[ta] = t
    steps = b.constant(np.arange(t, dtype=np.int64).reshape(shape))
    lshape = [1] * x.rank
    lshape[ba] = x.shape[ba]
    ln = reshape_dims(b, b.cast(lens, I64), lshape)
    rev = b.binary("sub", b.binary("sub", ln, n.splat(1, I64)), steps)
    src = b.select(b.compare("lt", steps, ln), rev, steps)
    src = b.binary("add", src, b.constant(np.zeros(x.shape, dtype=np.int64)))
    return [take_along_axis(n, x, src, ta)]
