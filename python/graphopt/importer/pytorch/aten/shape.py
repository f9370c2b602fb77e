"""ATen op mappings: shapes, padding, creation ops, sizes and scalars (the
registry and the emission context are in :mod:`.core`)."""

from __future__ import annotations

import math
from typing import List, Optional

import torch

from ...errors import Unsupported
from ..dtypes import INT_DTYPES, Value, is_float
from .core import Args, SymInt, _python_dtype, is_static_int, norm_dim, op


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


@op("aten.gather", "aten.take_along_dim")
def _gather_elements(ctx, a):
    """torch.gather / take_along_dim as ``graph.gather_elements``
    (take_along_dim broadcasts the index and the input against each other
    in the other dims first)."""
    x = ctx.tensor(a.self)
    idx = ctx.tensor(a.index if "index" in a else a.indices)
    if idx.dtype not in INT_DTYPES:
        raise Unsupported(f"gather with {idx.dtype} indices")
    if a.get("dim") is None:
        raise Unsupported("take_along_dim without dim")
    d = norm_dim(ctx.int_(a.dim, "dim"), x.rank)
    if idx.rank != x.rank:
        raise Unsupported(f"gather of a rank-{x.rank} tensor with a rank-{idx.rank} index")
    if "indices" in a:  # take_along_dim: broadcast the other dims
        if None in x.shape or None in idx.shape:
            raise Unsupported("take_along_dim with dynamic shapes")
        xs = [max(p, q) if i != d else p for i, (p, q) in enumerate(zip(x.shape, idx.shape))]
        js = [max(p, q) if i != d else q for i, (p, q) in enumerate(zip(x.shape, idx.shape))]
        x = ctx.b.broadcast_to(x, xs) if xs != list(x.shape) else x
        idx = ctx.b.broadcast_to(idx, js) if js != list(idx.shape) else idx
    return ctx.b.gather_elements(x, idx, d)


_TORCH_SCATTER_REDUCE = {None: "none", "add": "add", "multiply": "mul", "sum": "add",
                         "prod": "mul", "amax": "max", "amin": "min"}


def _scatter(ctx, a, reduce=None):
    """torch.scatter / scatter_add / scatter_reduce as ``graph.scatter``: the
    source cut to the index's shape (torch reads only that part of it), a
    scalar source broadcast to it."""
    x = ctx.tensor(a.self)
    idx = ctx.tensor(a.index)
    if idx.dtype not in INT_DTYPES:
        raise Unsupported(f"scatter with {idx.dtype} indices")
    d = norm_dim(ctx.int_(a.dim, "dim"), x.rank)
    if reduce not in _TORCH_SCATTER_REDUCE:
        raise Unsupported(f"scatter reduce='{reduce}' (supported: sum, prod, amax, amin, "
                          "add, multiply)")
    if not (x.rank == idx.rank) or (x.rank == 0):
        raise Unsupported(f"scatter of a rank-{x.rank} tensor with a rank-{idx.rank} index")
    if "src" in a and isinstance(a.src, Value):
        src = ctx.tensor(a.src, x.dtype)
        if src.rank != idx.rank:
            raise Unsupported(f"scatter with a rank-{src.rank} source and a rank-{idx.rank} "
                              "index")
        if None in idx.shape or None in src.shape:
            if list(src.shape) != list(idx.shape):
                raise Unsupported("scatter with a dynamic source larger than its index")
        elif list(src.shape) != list(idx.shape):
            src = ctx.b.slice(src, [0] * src.rank, list(idx.shape), [1] * src.rank)
    else:
        if None in idx.shape:
            raise Unsupported("scatter of a scalar value at a dynamic index")
        value = a.src if "src" in a else a.value
        src = ctx.b.broadcast_to(ctx.tensor(value, x.dtype), list(idx.shape))
    return ctx.b.scatter(x, idx, src, d, _TORCH_SCATTER_REDUCE[reduce])


def _check_scatter_reduce(a: Args) -> Optional[str]:
    if not a.get("include_self", True):
        return "scatter_reduce with include_self=False is not supported"
    if a.get("reduce") == "mean":
        return "scatter_reduce 'mean' is not supported (sum, prod, amax, amin are)"
    return None


@op("aten.scatter")
def _scatter_op(ctx, a):
    return _scatter(ctx, a, a.get("reduce"))


@op("aten.scatter_add")
def _scatter_add(ctx, a):
    return _scatter(ctx, a, "add")


@op("aten.scatter_reduce", check=_check_scatter_reduce)
def _scatter_reduce(ctx, a):
    return _scatter(ctx, a, a.reduce)


@op("aten.embedding")
def _embedding(ctx, a):
    idx = ctx.tensor(a.indices)
    if idx.dtype not in INT_DTYPES:
        raise Unsupported(f"embedding with {idx.dtype} indices")
    return ctx.b.gather(ctx.tensor(a.weight), idx, 0)


@op("aten.embedding_bag", "aten._embedding_bag", "aten._embedding_bag_forward_only")
def _embedding_bag(ctx, a):
    """nn.EmbeddingBag: the rows of ``weight`` at ``indices`` (1-D), in bags
    that start at ``offsets`` (the last one the end with
    ``include_last_offset``), summed (mode 0, each row scaled by its
    ``per_sample_weights``), averaged (1) or maxed (2); a row at
    ``padding_idx`` does not count; an empty bag is zeros. Each index's bag
    is the number of offsets at or before it, minus one; the bags are
    scatter reductions. Only the first output (the bags) is supported."""
    b = ctx.b
    w = ctx.tensor(a.weight)
    idx = ctx.tensor(a.indices)
    offsets = ctx.tensor(a.offsets)
    if idx.dtype not in INT_DTYPES or offsets.dtype not in INT_DTYPES:
        raise Unsupported("embedding_bag with non-integer indices or offsets")
    if idx.rank != 1 or offsets.rank != 1 or None in idx.shape or \
            None in offsets.shape or None in w.shape:
        raise Unsupported("embedding_bag: static 1-D indices and offsets are supported")
    mode = ctx.int_(a.get("mode", 0), "mode")
    i64 = torch.int64
    idx, offsets = b.cast(idx, i64), b.cast(offsets, i64)
    n, dim = idx.shape[0], w.shape[1]
    if a.get("include_last_offset", False):
        bags = offsets.shape[0] - 1
        offsets = ctx.slice_axis(offsets, 0, 0, bags)
    else:
        bags = offsets.shape[0]
    if bags <= 0:
        raise Unsupported("embedding_bag with no bags")
    pos = b.constant(torch.arange(n, dtype=i64))
    bag = b.binary("sub", b.reduce("sum", b.cast(b.compare(
        "le", ctx.reshape_dims(offsets, [1, bags]), ctx.reshape_dims(pos, [n, 1])), i64),
        [1], False), b.scalar(1, i64))
    # Indices before the first offset belong to no bag (PyTorch requires
    # offsets[0] == 0); send them past the last bag's row and cut it off.
    bag = b.select(b.compare("lt", bag, b.scalar(0, i64)), b.scalar(bags, i64), bag)
    if n == 0:
        return b.splat(0.0, w.dtype, [bags, dim])
    rows = b.gather(w, idx, 0)                                  # [N, D]
    valid = None
    pad = a.get("padding_idx")
    if pad is not None and ctx.int_(pad, "padding_idx") >= 0:
        valid = b.compare("ne", idx, b.scalar(ctx.int_(pad, "padding_idx"), i64))
    psw = a.get("per_sample_weights")
    if psw is not None:
        if mode != 0:
            raise Unsupported("embedding_bag per_sample_weights with mode other than sum")
        rows = b.binary("mul", rows, ctx.reshape_dims(ctx.tensor(psw, w.dtype), [n, 1]))
    where = b.broadcast_to(ctx.reshape_dims(bag, [n, 1]), [n, dim])
    zero = b.scalar(0.0, w.dtype)
    if valid is not None:
        vd = b.broadcast_to(ctx.reshape_dims(valid, [n, 1]), [n, dim])
    if mode in (0, 1):
        if valid is not None:
            rows = b.select(vd, rows, zero)
        out = b.scatter(b.splat(0.0, w.dtype, [bags + 1, dim]), where, rows, 0, "add")
        out = ctx.slice_axis(out, 0, 0, bags)
        if mode == 0:
            return (out, None, None, None)
        ones = b.cast(valid, w.dtype) if valid is not None else b.splat(1.0, w.dtype, [n])
        count = b.scatter(b.splat(0.0, w.dtype, [bags + 1]), bag, ones, 0, "add")
        count = ctx.reshape_dims(ctx.slice_axis(count, 0, 0, bags), [bags, 1])
        mean = b.binary("div", out, b.binary("max", count, b.scalar(1.0, w.dtype)))
        return (mean, None, None, None)
    if mode != 2:
        raise Unsupported(f"embedding_bag mode {mode}")
    low = b.scalar(-math.inf, w.dtype)
    if valid is not None:
        rows = b.select(vd, rows, low)
    out = b.scatter(b.splat(-math.inf, w.dtype, [bags + 1, dim]), where, rows, 0, "max")
    out = ctx.slice_axis(out, 0, 0, bags)
    return (b.select(b.compare("eq", out, low), zero, out), None, None, None)


def _check_index(a: Args) -> Optional[str]:
    idx = [i for i in (a.get("indices") or []) if i is not None]
    if not idx:
        return "indexing without an index tensor"
    for i in idx:
        if isinstance(i, Value) and i.type is not None and i.dtype == torch.bool:
            return "boolean-mask indexing has a data-dependent shape"
    return None


@op("aten.index", check=_check_index)
def _index(ctx, a):
    """x[..., i0, i1, ...]: one index tensor is a gather; several (their
    shapes broadcast together to B) index the flattened product of their
    dims at the linear index sum(i_t * stride_t). Where the indexed dims are
    adjacent, B takes their place; otherwise they are moved to the front
    first and B leads (NumPy's and PyTorch's rule)."""
    b = ctx.b
    x = ctx.tensor(a.self)
    indices = list(a.indices)
    dims = [k for k, t in enumerate(indices) if t is not None]
    idx = [ctx.tensor(indices[k]) for k in dims]
    for i in idx:
        if i.dtype == torch.bool:
            raise Unsupported("boolean-mask indexing has a data-dependent shape")
        if i.dtype not in INT_DTYPES:
            raise Unsupported(f"indexing with {i.dtype} indices")
    if len(dims) == 1:
        return b.gather(x, idx[0], dims[0])
    if any(x.shape[k] is None for k in dims) or any(None in i.shape for i in idx):
        raise Unsupported("indexing with several index tensors: static indexed dims "
                          "and index shapes are supported")
    if dims != list(range(dims[0], dims[0] + len(dims))):
        # Not adjacent: the indexed dims first, in order.
        perm = dims + [d for d in range(x.rank) if d not in dims]
        x = b.transpose(x, perm)
        dims = list(range(len(dims)))
    k0, sizes = dims[0], [x.shape[k] for k in dims]
    from ...mlir_builder import broadcast_shapes
    bshape = list(broadcast_shapes(*[i.shape for i in idx]))
    i64 = torch.int64
    linear = None
    for t, (i, n) in enumerate(zip(idx, sizes)):
        i = b.cast(i, i64) if i.dtype != i64 else i
        i = b.select(b.compare("lt", i, b.scalar(0, i64)), b.binary("add", i, b.scalar(n, i64)), i)
        stride = math.prod(sizes[t + 1:])
        term = b.binary("mul", i, b.scalar(stride, i64)) if stride != 1 else i
        linear = term if linear is None else b.binary("add", linear, term)
    if list(linear.shape) != bshape:
        linear = b.broadcast_to(linear, bshape)
    flat = ctx.reshape_dims(x, list(x.shape[:k0]) + [math.prod(sizes)] +
                            list(x.shape[k0 + len(dims):]))
    return b.gather(flat, linear, k0)


def _scatter_rows(ctx, x: Value, d: int, idx: Value, updates: Value,
                  reduction: str) -> Value:
    """``x`` with ``updates`` (x's shape, len(idx) along ``d``, or
    broadcastable to it) written at (``none``) or added to (``add``) the
    positions ``idx`` (1-D, negative from the end) along ``d``:
    ``graph.scatter`` with the index broadcast along the other dims."""
    b = ctx.b
    if idx.dtype not in INT_DTYPES or idx.rank > 1:
        raise Unsupported(f"index {idx.type}: a 1-D integer index is supported")
    if None in x.shape or None in idx.shape:
        raise Unsupported(f"indexed update of {x.type}: static shapes are supported")
    idx = b.cast(idx, torch.int64) if idx.dtype != torch.int64 else idx
    if idx.rank == 0:
        idx = ctx.reshape_dims(idx, [1])
    n = x.shape[d]
    idx = b.select(b.compare("lt", idx, b.scalar(0, torch.int64)),
                   b.binary("add", idx, b.scalar(n, torch.int64)), idx)
    shape = list(x.shape)
    shape[d] = idx.shape[0]
    updates = ctx.tensor(updates, x.dtype)
    if list(updates.shape) != shape:
        updates = b.broadcast_to(updates, shape)
    view = [1] * x.rank
    view[d] = idx.shape[0]
    index = b.broadcast_to(ctx.reshape_dims(idx, view), shape)
    return b.scatter(x, index, updates, d, reduction)


@op("aten.index_put", "aten._unsafe_index_put")
def _index_put(ctx, a):
    """``x[..., idx, ...] = values`` (``accumulate``: ``+=``) with one 1-D
    integer index tensor; ``x[mask] = value`` with a boolean mask over x's
    leading dims and a one-element value (a select)."""
    b = ctx.b
    x = ctx.tensor(a.self)
    indices = list(a.indices)
    given = [(k, t) for k, t in enumerate(indices) if t is not None]
    if len(given) != 1:
        raise Unsupported("index_put with more than one index tensor is not supported")
    k, idx = given[0][0], ctx.tensor(given[0][1])
    accumulate = bool(a.get("accumulate", False))
    values = ctx.tensor(a.values, x.dtype)
    if idx.dtype == torch.bool:
        if k != 0 or None in x.shape or values.type.numel() != 1 or \
                list(idx.shape) != list(x.shape[:idx.rank]):
            raise Unsupported("x[mask] = values: a mask over the leading dims and a "
                              "one-element value are supported")
        mask = ctx.reshape_dims(idx, list(idx.shape) + [1] * (x.rank - idx.rank))
        v = ctx.reshape_dims(values, [])
        new = b.binary("add", x, v) if accumulate else b.broadcast_to(v, list(x.shape))
        return b.select(b.broadcast_to(mask, list(x.shape)), new, x)
    if idx.rank != 1:
        raise Unsupported(f"index_put with a rank-{idx.rank} index: 1-D is supported")
    return _scatter_rows(ctx, x, k, idx, values, "add" if accumulate else "none")


@op("aten.slice_scatter", "aten.select_scatter")
def _slice_scatter(ctx, a):
    """``x`` with ``src`` written at x[..., start:end:step, ...] along
    ``dim`` (select_scatter: at one index, src without that dim)."""
    x = ctx.tensor(a.self)
    if None in x.shape:
        raise Unsupported(f"slice_scatter into {x.type}: static shapes are supported")
    d = norm_dim(ctx.int_(a.get("dim", 0), "dim"), max(x.rank, 1))
    n = x.shape[d]
    src = ctx.tensor(a.src, x.dtype)
    if "index" in a:
        i = ctx.int_(a.index, "index")
        rows = [i + n if i < 0 else i]
        src = ctx.reshape_dims(src, list(x.shape[:d]) + [1] + list(x.shape[d + 1:]))
    else:
        start, end = a.get("start"), a.get("end")
        start = 0 if start is None else ctx.int_(start, "start")
        end = n if end is None else ctx.int_(end, "end")
        rows = list(range(n))[slice(start, end, ctx.int_(a.get("step", 1), "step"))]
    if not rows:
        return x
    idx = ctx.b.constant(torch.tensor(rows, dtype=torch.int64))
    return _scatter_rows(ctx, x, d, idx, src, "none")


@op("aten.index_copy", "aten.index_add")
def _index_copy(ctx, a):
    """index_copy (``x[..., idx, ...] = source``) and index_add (``+= alpha *
    source``) along ``dim``."""
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.dim, "dim"), max(x.rank, 1))
    src = ctx.tensor(a.source, x.dtype)
    name = a.schema.name.split("::")[-1] if a.schema is not None else "index_copy"
    if name == "index_add":
        alpha = a.get("alpha", 1)
        if alpha not in (None, 1):
            src = ctx.b.binary("mul", src, ctx.tensor(alpha, x.dtype))
        return _scatter_rows(ctx, x, d, ctx.tensor(a.index), src, "add")
    return _scatter_rows(ctx, x, d, ctx.tensor(a.index), src, "none")


@op("aten.index_fill")
def _index_fill(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.dim, "dim"), max(x.rank, 1))
    value = ctx.tensor(a.value, x.dtype)
    return _scatter_rows(ctx, x, d, ctx.tensor(a.index), ctx.reshape_dims(value, []), "none")


# ---------------------------------------------------------------------------
# Padding
# ---------------------------------------------------------------------------

def _check_pad(a: Args) -> Optional[str]:
    mode = a.get("mode", "constant")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        return f"padding mode {mode!r} is not supported"
    pad = a.get("pad")
    if isinstance(pad, (list, tuple)) and any(is_static_int(p) and p < 0 for p in pad):
        return "negative padding is not supported"
    return None


@op("aten.pad", "aten.constant_pad_nd", check=_check_pad)
def _pad(ctx, a):
    x = ctx.tensor(a.self)
    mode = a.get("mode", "constant")
    if mode != "constant":
        from .more import pad_gather
        return pad_gather(ctx, x, ctx.ints(a.pad, what="pad"), mode)
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
