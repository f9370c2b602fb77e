"""ONNX ops: linear algebra (the registry and the node context are in
:mod:`.core`)."""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ... import composites
from .core import (ANY_VALUE, FLOATS, NUMERIC, Node, Unsupported, Value, is_float,
                   register)


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


def _einsum_terms(equation: str, ranks: Sequence[int]):
    """(input terms, output term) of an Einsum equation, each a list of
    symbols; an ellipsis becomes symbols of its own ('.0', '.1', ...,
    right-aligned across the operands as broadcasting aligns dims)."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise Unsupported(f"equation {equation!r} has {len(terms)} terms for "
                          f"{len(ranks)} inputs")
    ell = max([r - len(t.replace("...", "")) for t, r in zip(terms, ranks) if "..." in t],
              default=0)

    def symbols(term: str, rank: Optional[int]) -> list:
        head, dots, tail = term.partition("...")
        for c in head + tail:
            if not c.isalpha():
                raise Unsupported(f"equation {equation!r}: {c!r} is not a letter")
        n = (rank - len(head) - len(tail)) if rank is not None else ell
        if dots and n < 0 or not dots and rank is not None and len(term) != rank:
            raise Unsupported(f"equation {equation!r}: term {term!r} does not match "
                              f"an input of rank {rank}")
        return list(head) + [f".{ell - n + i}" for i in range(n if dots else 0)] + list(tail)

    ins = [symbols(t, r) for t, r in zip(terms, ranks)]
    if arrow:
        out = symbols(rhs, None)
    else:  # implicit: the ellipsis, then the letters seen once, sorted
        flat = [s for t in ins for s in t]
        out = [f".{i}" for i in range(ell)] + sorted(
            c for c in set(flat) if not c.startswith(".") and flat.count(c) == 1)
    if len(set(out)) != len(out):
        raise Unsupported(f"equation {equation!r}: an index repeated in the output "
                          "(a diagonal embedding) is not supported")
    if not set(out) <= {s for t in ins for s in t}:
        raise Unsupported(f"equation {equation!r}: an output index is in no input")
    return ins, out


@register("Einsum", dtypes=NUMERIC, typed=(0, 1), attrs={"equation": ANY_VALUE},
          doc="one or two inputs: `graph.reduce` sum of the indices only one input "
              "has and the output does not, then a batched `graph.matmul` (batch: "
              "indices of both inputs and the output; contracted: of both inputs "
              "only) reshaped and transposed to the output; an index repeated "
              "within an input takes its diagonal; static shapes")
def _einsum(n: Node):
    b = n.b
    xs = n.values()
    if not 1 <= len(xs) <= 2:
        raise Unsupported(f"{len(xs)} inputs (one or two are supported)")
    for x in xs:
        if not x.type.is_static:
            raise Unsupported(f"input of dynamic shape {x.type}")
    ins, out = _einsum_terms(str(n.attr("equation")), [x.rank for x in xs])
    # An index repeated within an input term takes that input's diagonal:
    # multiplied by the identity over the two dims and summed over the
    # second, until every index appears once.
    xs = list(xs)
    for k, t in enumerate(ins):
        t = list(t)
        while len(set(t)) != len(t):
            i = next(a for a, s in enumerate(t) if t.index(s) != a)
            first = t.index(t[i])
            size = xs[k].shape[i]
            if xs[k].shape[first] != size:
                raise Unsupported(f"index {t[i]!r} has sizes {xs[k].shape[first]} and {size}")
            shape = [1] * xs[k].rank
            shape[first] = shape[i] = size
            eye = n.b.constant(np.eye(size).reshape(shape).astype(xs[k].dtype))
            xs[k] = n.b.reduce("sum", n.b.binary("mul", xs[k], eye), [i])
            t.pop(i)
        ins[k] = t
    sizes: dict = {}
    broadcast = set()  # indices of size 1 in one input and n in the other
    for x, t in zip(xs, ins):
        for s, d in zip(t, x.shape):
            if sizes.setdefault(s, d) != d:
                if d != 1 and sizes[s] != 1:
                    raise Unsupported(f"index {s!r} has sizes {sizes[s]} and {d}")
                sizes[s] = max(sizes[s], d)
                broadcast.add(s)

    def drop(x: Value, t: list, keep: set):
        """Sums ``x`` over the indices of ``t`` outside ``keep``."""
        axes = [i for i, s in enumerate(t) if s not in keep]
        if axes:
            x = b.reduce("sum", x, axes)
        return x, [s for s in t if s in keep]

    if len(xs) == 1:
        x, t = drop(xs[0], ins[0], set(out))
        return [b.transpose(x, [t.index(s) for s in out])]
    (x, y), (tx, ty) = xs, ins
    x, tx = drop(x, tx, set(ty) | set(out))
    y, ty = drop(y, ty, set(tx) | set(out))
    batch = [s for s in out if s in tx and s in ty]
    if broadcast - set(batch):
        raise Unsupported("broadcasting a summed index of size 1 is not supported")
    contracted = [s for s in tx if s in ty and s not in out]
    m = [s for s in tx if s not in ty]
    k_n = [s for s in ty if s not in tx]
    prod = lambda syms: int(np.prod([sizes[s] for s in syms], dtype=np.int64))

    def operand(v: Value, t: list, order: list, dims: list) -> Value:
        v = b.transpose(v, [t.index(s) for s in order])
        if any(v.shape[i] != sizes[s] for i, s in enumerate(order[:len(batch)])):
            v = b.broadcast_to(v, [sizes[s] for s in order[:len(batch)]] +
                               list(v.shape[len(batch):]))
        return b.reshape(v, [sizes[s] for s in batch] + dims)

    a = operand(x, tx, batch + m + contracted, [prod(m), prod(contracted)])
    c = operand(y, ty, batch + contracted + k_n, [prod(contracted), prod(k_n)])
    z = b.reshape(b.matmul(a, c), [sizes[s] for s in batch + m + k_n])
    order = batch + m + k_n
    return [b.transpose(z, [order.index(s) for s in out])]


@register("AffineGrid", dtypes=FLOATS, typed=(0,), attrs={"align_corners": ANY_VALUE},
          fold_inputs=(1,),
          doc="the grid of positions (a constant from `size`, which must be known at "
              "import time) times theta transposed: `graph.matmul` of [N, H*W, 3] "
              "by [N, 3, 2] (3-D: [N, D*H*W, 4] by [N, 4, 3])")
def _affine_grid(n: Node):
    size = [int(s) for s in n.const(1, "size")]
    return [composites.affine_grid(n.b, n.value(0), size, bool(n.attr("align_corners")))]


@register("Det", dtypes=FLOATS,
          doc="the product of the pivots of an elimination with partial pivoting "
              "(one sign flip per row swap; 0 when singular), unrolled over the "
              "columns of the static square matrices (composites.gauss_jordan)")
def _det(n: Node):
    x = n.value(0)
    if x.rank < 2 or None in x.shape or x.shape[-1] != x.shape[-2]:
        raise Unsupported(f"Det of {x.type}: static square matrices are supported")
    return [composites.gauss_jordan(n.b, x, full=False)[0]]


def _complex_matmul(b, re: Value, im: Optional[Value], cos: Value, sin: Value):
    """The real and imaginary parts of (re + i im) times the matrix cos + i
    sin (``sin`` already signed); ``im`` None for a real signal."""
    y_re, y_im = b.matmul(re, cos), b.matmul(re, sin)
    if im is not None:
        y_re = b.binary("sub", y_re, b.matmul(im, sin))
        y_im = b.binary("add", y_im, b.matmul(im, cos))
    return y_re, y_im


@register("DFT", dtypes=FLOATS, typed=(0,),
          attrs={"axis": ANY_VALUE, "inverse": ANY_VALUE, "onesided": ANY_VALUE},
          doc="`graph.matmul` of the real and imaginary parts (the transformed axis "
              "moved last) by constant cosine and sine matrices of the DFT length "
              "(zero padding and truncation folded into them), 1/n for the inverse, "
              "in f64 and rounded once; one-sided forward (RFFT) and inverse (IRFFT: "
              "the half spectrum weighted as its Hermitian extension, a real "
              "result); static shapes")
def _dft(n: Node):
    b, x = n.b, n.value(0)
    r = x.rank
    if None in x.shape:
        raise Unsupported("DFT needs static shapes")
    if r < 2 or x.shape[-1] not in (1, 2):
        raise Unsupported(f"invalid model: DFT input {x.type} must end in a dim of 1 "
                          "(real) or 2 (complex)")
    if n.has(2):  # opset 20: the axis is an input (default -2)
        axis = n.ints(2, "axis")[0]
    else:  # opset 17: an attribute (default 1); opset 20 without the input: -2
        a = n.attr("axis")
        axis = int(a) if a is not None else -2
    if not (-r <= axis <= -2 or 0 <= axis <= r - 2):
        raise Unsupported(f"invalid model: DFT axis {axis} of a rank-{r} input "
                          f"(the last dim holds the complex parts)")
    axis %= r
    inverse, onesided = int(n.attr("inverse", 0)), int(n.attr("onesided", 0))
    complex_in = x.shape[-1] == 2
    irfft = bool(inverse and onesided)
    if onesided and complex_in and not irfft:
        raise Unsupported("invalid model: a one-sided forward DFT takes real input")
    m = x.shape[axis]
    # IRFFT: m bins of a half spectrum give 2 (m - 1) samples by default.
    default = 2 * (m - 1) if irfft else m
    length = n.ints(1, "dft_length")[0] if n.has(1) else default
    if length < 1:
        raise Unsupported(f"invalid model: dft_length {length}")
    k_out = length // 2 + 1 if onesided and not irfft else length
    # Past the signal: zeros (padding) or dropped. IRFFT reads the first
    # length // 2 + 1 bins, as numpy.fft.irfft does.
    rows = min(m, length // 2 + 1 if irfft else length)
    jk = (np.arange(rows)[:, None] * np.arange(k_out)[None, :]) % length
    angle = 2.0 * np.pi * jk / length
    scale = 1.0 / length if inverse else 1.0
    sign = 1.0 if inverse else -1.0
    if irfft:
        # Bin k of the half spectrum stands for k and length - k of the full
        # one (its conjugate): weight 2, except bin 0 and, for an even
        # length, bin length / 2, which are their own mirror images. The
        # imaginary parts of those two meet sin = 0 and drop out.
        k = np.arange(rows)
        weight = np.where((k == 0) | (2 * k == length), 1.0, 2.0)[:, None]
        scale = weight / length
    # In f64, rounded once at the end: terms that cancel (a spectrum's zeros)
    # come out as small as NumPy's FFT gives them, not f32 rounding's 1e-7.
    ft = np.dtype(np.float64)
    cos = b.constant(np.cos(angle) * scale)
    sin = b.constant(sign * np.sin(angle) * scale)

    # The parts as rank r - 1 tensors with the axis last, cut to `rows`.
    perm = [d for d in range(r - 1) if d != axis] + [axis]
    inv = [perm.index(d) for d in range(r - 1)]

    def part(i):
        p = b.slice(x, [0] * (r - 1) + [i], list(x.shape[:-1]) + [i + 1], [1] * r)
        p = b.transpose(b.reshape(b.cast(p, ft), list(x.shape[:-1])), perm)
        if rows < m:
            p = b.slice(p, [0] * (r - 1), list(p.shape[:-1]) + [rows], [1] * (r - 1))
        return p

    y_re, y_im = _complex_matmul(b, part(0), part(1) if complex_in else None, cos, sin)
    out_shape = list(x.shape[:-1])
    out_shape[axis] = k_out
    if irfft:  # a real signal: (re + i im)(cos + i sin)'s real part
        return [b.cast(b.reshape(b.transpose(y_re, inv), out_shape + [1]), x.dtype)]
    parts = [b.reshape(b.transpose(v, inv), out_shape + [1]) for v in (y_re, y_im)]
    return [b.cast(b.concat(parts, r - 1), x.dtype)]


@register("STFT", dtypes=FLOATS, typed=(0, 2), attrs={"onesided": ANY_VALUE},
          doc="the frames gathered with a constant index (`graph.gather`), times the "
              "window, by constant cosine and sine matrices of the frame length "
              "(`graph.matmul`, in f64 and rounded once, as DFT); one-sided for real "
              "signals; static shapes, frame_step and frame_length known at import "
              "time")
def _stft(n: Node):
    """ONNX STFT: frame f is samples [f * step, f * step + length) of each
    signal, weighted by the window (all ones when absent), transformed as
    by DFT; 1 + (signal_length - length) // step frames."""
    b, x = n.b, n.value(0)
    n.require_ranks({0: 3, 2: 1})
    if None in x.shape:
        raise Unsupported("STFT needs static shapes")
    batch, samples, parts = x.shape
    if parts not in (1, 2):
        raise Unsupported(f"invalid model: STFT signal {x.type} must end in a dim of 1 "
                          "(real) or 2 (complex)")
    step = int(np.asarray(n.const(1, "frame_step")).reshape(()))
    window = n.value(2) if n.has(2) else None
    if n.has(3):
        length = int(np.asarray(n.const(3, "frame_length")).reshape(()))
    elif window is not None:
        length = window.shape[0]
    else:
        length = samples
    if window is not None and window.shape[0] != length:
        raise Unsupported(f"invalid model: the window {window.type} must have frame_length "
                          f"({length}) values")
    if step < 1 or not 1 <= length <= samples:
        raise Unsupported(f"invalid model: frame_step {step} and frame_length {length} "
                          f"for a signal of {samples} samples")
    onesided = int(n.attr("onesided", 1))
    if onesided and parts == 2:
        raise Unsupported("invalid model: a one-sided STFT takes a real signal")
    frames = 1 + (samples - length) // step
    bins = length // 2 + 1 if onesided else length
    ft = np.dtype(np.float64)
    index = b.constant(np.arange(frames)[:, None] * step + np.arange(length)[None, :])
    weight = b.cast(window, ft) if window is not None else None

    def framed(i: int) -> Value:  # part i as [batch, frames, length]
        p = b.slice(x, [0, 0, i], [batch, samples, i + 1], [1, 1, 1])
        p = b.gather(b.reshape(b.cast(p, ft), [batch, samples]), index, 1)
        return b.binary("mul", p, weight) if weight is not None else p

    angle = 2.0 * np.pi * ((np.arange(length)[:, None] * np.arange(bins)[None, :]) % length) \
        / length
    cos, sin = b.constant(np.cos(angle)), b.constant(-np.sin(angle))
    y_re, y_im = _complex_matmul(b, framed(0), framed(1) if parts == 2 else None, cos, sin)
    out = [b.reshape(v, [batch, frames, bins, 1]) for v in (y_re, y_im)]
    return [b.cast(b.concat(out, 3), x.dtype)]
