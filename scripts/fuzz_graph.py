#!/usr/bin/env python3
"""Differential fuzzer for graphopt: random `graph` programs vs. NumPy.

    scripts/fuzz_graph.py --seed S --count N [--build DIR] [--keep]
                          [--out DIR] [--jobs J] [--only I] [--minimize]

Program I of a run (I = 0 .. N-1) is generated from `random.Random` seeded
with (S, I) alone, so `--seed S --only I` regenerates exactly one program.
Each program is a `func.func @main` with 1-3 tensor arguments (f32 mostly,
sometimes i32 or i64; ranks 0-4, dims 1-7, some of them 1 to exercise broadcasting;
or an NCHW image with H and W up to 18)
and 1-8 randomly chosen ops (plus the helper ops some of them need), drawn
from the ops of docs/Dialects/Graph.md: add sub mul div max min, neg abs exp
log sqrt rsqrt tanh sigmoid relu gelu (none and tanh) silu, sin cos tan asin
acos atan sinh cosh asinh acosh atanh (operands kept inside their domains and
away from tan's poles), compare + select,
cast f32 <-> i32/i64, i32 <-> i64 and f32 -> f16/bf16 -> f32 round trips
(with --small-ints P: i8, i16, ui8 and ui16 arguments, casts and matmuls,
values kept within their range, narrowing integer casts keeping the low
bits; unsigned values up to 255, beyond the signed range)
(a rounding closer to a tie than the error bound is not drawn), matmul (1-D, 2-D, batched, broadcast batch), transpose,
reshape (with and without -1), broadcast_to, concat, slice, reduce
sum/mean/max/min (keepdims or not), softmax, conv2d (kernels 1x1 to 7x7,
strides 1-3, symmetric or asymmetric padding, dilations, grouped and
depthwise, with or without bias; dense constant weights, sometimes computed
at run time) and max/avg_pool2d (ceil_mode, count_include_pad, dilations,
i32 max pooling), graph.if (a condition from a reduction compared with a
threshold; branches of shape-preserving ops over captured values) and
graph.loop (a for loop of 0-5 trips carrying one value through a bounded
body; the iteration number is not used); operands are sometimes
`graph.constant`s (dense or splat, including the identities 0, -0.0 and 1)
so that folding and canonicalization have something to do. Every result type
is written exactly as the spec's inference gives it (checked here).

The expected results are computed by NumPy in float64 (rounded to float32 at
the end), following the formulas of the spec. Alongside each value the
generator carries an estimate of the error that f32 evaluation may add
(first-order propagation of each operand's error, the rounding of every op,
a few ulp for the exp/log/tanh/erf approximations, and for the sums in
matmul/reduce/mean the usual probabilistic estimate 3 u sqrt(n) max|partial
sum|: the worst case n u sum|x| would make tolerances uselessly loose),
which is used to
  * reject candidate ops whose reference result would be unreliable:
    compare operands closer than the bound, float->int casts too close to an
    integer, exp of large values, log/sqrt/rsqrt of values not made positive
    first (the generator inserts abs + 1), float divisors near zero (it
    inserts abs + 0.5), values beyond 1e5;
  * choose the tolerance: rtol 1e-4 and atol 1e-5, unless twice the
    estimate exceeds that for some element (cancellation after large
    intermediates); then atol is raised to that level and the reason is
    printed. x - x and x / x are known to be exact.

Each program runs through `graph-run` in five configurations:
    default            static shapes, full pipeline
    no-opt             --optimize=false
    no-vec             --vectorize=false
    dyn                the same program with the argument dims written as ?,
                       --specialize-shapes=false (dynamic-shape code)
    dyn-spec           the dynamic program, specialized by graph-run
In the dynamic variant an argument dim of size 1 stays static when the
program broadcasts it: run-time broadcasting of a dynamic dim is a
documented limitation (docs/Dialects/Graph.md, "Dynamic dimensions").
Convolutions and pooling need static channel and spatial dims: a program
whose dynamic variant would make them dynamic gets only its arguments'
leading dims dynamic (or no dynamic variant).

A failing program (mismatch, non-zero exit, crash by signal, timeout) is
saved to OUT/I/ (default OUT: ./fuzz-failures) with its inputs, expected
outputs, the graph-run logs and repro.sh; with --minimize the fuzzer also
shrinks it (dropping ops, cutting the graph at a value that then becomes an
argument, dropping results) to a smallest program that fails the same way,
saved in OUT/I/min/. The last line is "N passed, N failed"; exit 1 if any
program failed. SIGINT (Ctrl-C, or `kill -INT` of a campaign started in the
background, where shells ignore it otherwise) stops a campaign after the
programs in flight and reports the ones finished, in order.
"""

import argparse
import concurrent.futures
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

U = 2.0 ** -24             # f32 unit roundoff
TRANS = 16 * U             # allowance for approximated exp/log/tanh/erf
CAP = 1e5                  # largest magnitude a float value may reach
ICAP = 1 << 20             # largest magnitude an integer value may reach
MAX_ELEMS = 4096
MAX_RANK = 5
RTOL, ATOL = 1e-4, 1e-5
SAFETY = 2.0               # margin on the error bound for tolerances/checks
RUN_TIMEOUT = 120
BINARY_RETRIES = 10         # x 30 s waiting for a relinked graph-run


# Probability that a generated dim is 0 (--zero-dims; 0 keeps the programs
# of a seed as they were).
ZERO_DIM_P = 0.0
# Probability that a program's first argument is an NCHW image (--images),
# and generator weights that replace the defaults (--weight NAME=W).
IMAGE_P = 0.3
GEN_WEIGHTS = {}


# Integer element types and their NumPy types; f16 and bf16 values appear
# only between a cast from f32 and the cast back (round trips).
NP_INT = {"i32": np.int32, "i64": np.int64, "i8": np.int8, "i16": np.int16,
          "ui8": np.uint8, "ui16": np.uint16}
INTS = ("i32", "i64")
# i8, i16, ui8 and ui16 (--small-ints P): drawn only when P > 0, so that a
# seed's programs stay as they were without the option. Unsigned values stay
# in [0, max] (a negative result is not drawn) and often exceed the signed
# range, where the unsigned comparisons, max/min, division and extensions
# differ from the signed ones.
SMALL_INTS = ("i8", "i16", "ui8", "ui16")
UNSIGNED = ("ui8", "ui16")
ALL_INTS = INTS + SMALL_INTS
SMALL_INT_P = 0.0
HALF = ("f16", "bf16")


def int_cap(dtype):
    """The largest magnitude an integer value of `dtype` may reach."""
    return {"i8": 127, "i16": 32767, "ui8": 255, "ui16": 65535}.get(dtype, ICAP)


def wrap_int(x, dtype):
    """x (int64) reduced to `dtype`'s width, two's complement (a narrowing
    cast keeps the low bits)."""
    w = {"i8": 8, "i16": 16, "i32": 32, "ui8": 8, "ui16": 16}.get(dtype)
    if w is None:
        return np.asarray(x, dtype=np.int64)
    if dtype in UNSIGNED:
        return np.asarray(x, dtype=np.int64) % (1 << w)
    h = 1 << (w - 1)
    return (np.asarray(x, dtype=np.int64) + h) % (2 * h) - h


def round_half(x, dtype):
    """x (float64, rounded to f32 first, as the program holds it) rounded to
    f16 or bf16 (nearest, ties to even), as float64."""
    x32 = np.asarray(x, dtype=np.float32)
    if dtype == "f16":
        return x32.astype(np.float16).astype(np.float64)
    bits = x32.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


class Invalid(Exception):
    """The candidate op is not well defined (or not reliably checkable) on
    the generated data; the generator tries something else."""


class Risky(Exception):
    """A dynamic dim that is 1 at run time would be broadcast."""


# ----------------------------------------------------------------------------
# Program representation
# ----------------------------------------------------------------------------

class Val:
    """A value: concrete shape, reference data (float64 / int64 / bool) and
    the error bound (floats) that f32 evaluation may add."""
    __slots__ = ("dtype", "shape", "data", "err", "node")

    def __init__(self, dtype, shape, node):
        self.dtype, self.shape, self.node = dtype, tuple(shape), node
        self.data = self.err = None


class Node:
    """One op. `arg` and `const` nodes carry their data in `attrs['data']`
    (float32 / int32 numpy arrays)."""
    __slots__ = ("op", "ins", "attrs", "out")

    def __init__(self, op, ins, attrs, dtype, shape):
        self.op, self.ins, self.attrs = op, list(ins), dict(attrs)
        self.out = Val(dtype, shape, self)


class Program:
    def __init__(self, nodes, outputs):
        self.nodes, self.outputs = nodes, outputs

    def args(self):
        return [n for n in self.nodes if n.op == "arg"]


def f32(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32)


def numel(shape):
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


# ----------------------------------------------------------------------------
# Shape inference, as docs/Dialects/Graph.md specifies it (dims: int or None)
# ----------------------------------------------------------------------------

def bdim(a, b):
    if a is not None and b is not None:
        if a == b or b == 1:
            return a
        if a == 1:
            return b
        raise Invalid("not broadcast-compatible")
    if b == 1:
        return a
    if a == 1:
        return b
    if a is None and b is None:
        return None
    return a if a is not None else b


def bshape(s, t):
    r = max(len(s), len(t))
    s = (1,) * (r - len(s)) + tuple(s)
    t = (1,) * (r - len(t)) + tuple(t)
    return tuple(bdim(a, b) for a, b in zip(s, t))


def check_bcast_risk(types, concretes, result_concrete):
    """Raises Risky when an operand dim is dynamic in `types`, 1 at run time
    (its concrete size) and the result dim is not 1."""
    r = len(result_concrete)
    for ty, cs in zip(types, concretes):
        off = r - len(cs)
        for i, (d, c) in enumerate(zip(ty, cs)):
            if d is None and c == 1 and result_concrete[off + i] != 1:
                raise Risky()


def infer(node, tys):
    """Result shape of `node` for operand shapes `tys` (None = dynamic)."""
    op, a = node.op, node.attrs
    cs = [v.shape for v in node.ins]
    if op in BINARY or op == "compare":
        r = bshape(tys[0], tys[1])
        check_bcast_risk(tys, cs, node.out.shape)
        return r
    if op == "select":
        r = bshape(tys[0], bshape(tys[1], tys[2]))
        check_bcast_risk(tys, cs, node.out.shape)
        return r
    if op in UNARY or op in ("cast", "softmax"):
        return tuple(tys[0])
    if op == "matmul":
        l, rr = tys
        if len(l) < 1 or len(rr) < 1:
            raise Invalid("matmul rank")
        kl = l[-1]
        kr = rr[0] if len(rr) == 1 else rr[-2]
        if kl is not None and kr is not None and kl != kr:
            raise Invalid("contracting")
        lb, rb = l[:-2], rr[:-2]
        batch = bshape(lb, rb)
        cb = node.out.shape[:len(batch)]
        check_bcast_risk([lb, rb], [cs[0][:-2], cs[1][:-2]], cb)
        out = batch
        if len(l) >= 2:
            out += (l[-2],)
        if len(rr) >= 2:
            out += (rr[-1],)
        return out
    if op == "transpose":
        return tuple(tys[0][p] for p in a["perm"])
    if op == "reshape":
        shape = a["shape"]
        if -1 not in shape:
            return tuple(shape)
        if any(d is None for d in tys[0]):
            return tuple(None if s == -1 else s for s in shape)
        known = numel([s for s in shape if s != -1])
        return tuple(numel(tys[0]) // known if s == -1 else s for s in shape)
    if op == "broadcast_to":
        shape, t = a["shape"], tys[0]
        off = len(shape) - len(t)
        out = []
        for i, s in enumerate(shape):
            if i < off:
                out.append(s)
                continue
            d, c = t[i - off], cs[0][i - off]
            if s == -1:
                out.append(d)
                continue
            if d is None and c == 1 and s != 1:
                raise Risky()
            if d is not None and d != 1 and d != s:
                raise Invalid("broadcast_to")
            out.append(s)
        return tuple(out)
    if op == "concat":
        ax = a["axis"]
        rank = len(tys[0])
        out = []
        for d in range(rank):
            if d == ax:
                dims = [t[d] for t in tys]
                out.append(None if any(x is None for x in dims) else sum(dims))
            else:
                st = [t[d] for t in tys if t[d] is not None]
                out.append(st[0] if st else None)
        return tuple(out)
    if op == "slice":
        return tuple((l - s + st - 1) // st for s, l, st in
                     zip(a["start"], a["limit"], a["step"]))
    if op in WINDOW:
        t = tys[0]
        # The CPU lowering needs static channel and spatial dims (the batch
        # may be dynamic): a dynamic one makes the dynamic variant unusable.
        if any(d is None for d in t[1:]):
            raise Risky()
        kh, kw = window_kernel(node)
        oh, ow = window_out(node, cs[0][2], cs[0][3], kh, kw)
        chans = cs[1][0] if op == "conv2d" else cs[0][1]
        return (t[0], chans, oh, ow)
    if op == "reduce":
        axes, t = set(a["axes"]), tys[0]
        if a["keepdims"]:
            return tuple(1 if i in axes else d for i, d in enumerate(t))
        return tuple(d for i, d in enumerate(t) if i not in axes)
    raise AssertionError(op)


def infer_all(prog, arg_types):
    """Types of every value, given the argument types (dims may be None)."""
    types = {}
    for n in prog.nodes:
        if n.op == "arg":
            types[n.out] = arg_types[n.out]
        elif n.op == "const":
            types[n.out] = n.out.shape
        elif n.op in ("if", "loop"):
            types[n.out] = infer_control_flow(n, types)
        else:
            types[n.out] = infer(n, [types[v] for v in n.ins])
    return types


def infer_region(region, source_types, types):
    """Adds the types of a region's values to `types`; returns its result's."""
    phs, nodes, out = region
    for ph, t in zip(phs, source_types):
        types[ph.out] = t
    for m in nodes:
        types[m.out] = (m.out.shape if m.op == "const"
                        else infer(m, [types[v] for v in m.ins]))
    return types[out]


def infer_control_flow(n, types):
    """A graph.if's or graph.loop's result type (its regions' types added to
    `types`); Risky when the regions' result types differ from it (dims a
    dynamic variant would have to reconcile)."""
    ins = [types[v] for v in n.ins]
    if n.op == "if":
        t = infer_region(n.attrs["then"], ins[1:], types)
        if infer_region(n.attrs["else"], ins[1:], types) != t:
            raise Risky()
        return t
    if infer_region(n.attrs["body"], ins, types) != ins[0]:
        raise Risky()
    return ins[0]


def dynamic_arg_types(prog):
    """Argument dims written as ?, except size-1 dims that are broadcast.
    Returns None when no dim can be dynamic (or the dynamic variant would
    need run-time broadcasting)."""
    args = [n.out for n in prog.args()]
    tys = {v: tuple(None if d != 1 else 1 for d in v.shape) for v in args}
    try:
        infer_all(prog, tys)
    except Risky:
        # Only the leading dims (a convolution's batch) dynamic.
        tys = {v: tuple(None if i == 0 and d != 1 else d
                        for i, d in enumerate(v.shape)) for v in args}
        try:
            infer_all(prog, tys)
        except Risky:
            return None
    for v in args:
        for i, d in enumerate(v.shape):
            if d != 1:
                continue
            trial = dict(tys)
            t = list(trial[v])
            t[i] = None
            trial[v] = tuple(t)
            try:
                infer_all(prog, trial)
                tys = trial
            except Risky:
                pass
    if all(tys[v] == v.shape for v in args):
        return None
    return tys


# ----------------------------------------------------------------------------
# Reference evaluation with error bounds
# ----------------------------------------------------------------------------

BINARY = ("add", "sub", "mul", "div", "max", "min")
TRIG = ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
        "acosh", "atanh")
UNARY = ("neg", "abs", "relu", "exp", "log", "sqrt", "rsqrt", "tanh",
         "sigmoid", "gelu", "silu") + TRIG
INT_OK = BINARY + ("neg", "abs", "relu")


def erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def gelu(x, approx):
    if approx == "tanh":
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) *
                                        (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


UFN = {
    "neg": lambda x, a: -x,
    "abs": lambda x, a: np.abs(x),
    "relu": lambda x, a: np.maximum(x, 0),
    "exp": lambda x, a: np.exp(x),
    "log": lambda x, a: np.log(x),
    "sqrt": lambda x, a: np.sqrt(x),
    "rsqrt": lambda x, a: 1.0 / np.sqrt(x),
    "tanh": lambda x, a: np.tanh(x),
    "sigmoid": lambda x, a: sigmoid(x),
    "silu": lambda x, a: x * sigmoid(x),
    "gelu": lambda x, a: gelu(x, a["approx"]),
    "sin": lambda x, a: np.sin(x),
    "cos": lambda x, a: np.cos(x),
    "tan": lambda x, a: np.tan(x),
    "asin": lambda x, a: np.arcsin(x),
    "acos": lambda x, a: np.arccos(x),
    "atan": lambda x, a: np.arctan(x),
    "sinh": lambda x, a: np.sinh(x),
    "cosh": lambda x, a: np.cosh(x),
    "asinh": lambda x, a: np.arcsinh(x),
    "acosh": lambda x, a: np.arccosh(x),
    "atanh": lambda x, a: np.arctanh(x),
}


def acc_err(terms, axis):
    """Rounding error of summing `terms` along `axis` in f32, in an
    unspecified order. The worst case, n u sum|t|, is far from what happens
    (it made tolerances uselessly loose); this is the usual probabilistic
    estimate, 3 u sqrt(n) max|partial sum| (partial sums in index order),
    which the tolerance check then doubles."""
    n = terms.shape[axis]
    if n == 0:
        return np.zeros(np.sum(terms, axis=axis).shape)
    partial = np.max(np.abs(np.cumsum(terms, axis=axis)), axis=axis)
    return 3 * U * math.sqrt(n) * partial


def matmul_acc_err(x, y):
    """acc_err of the K-term dot products of torch.matmul(x, y)."""
    a = x[None, :] if x.ndim == 1 else x
    b = y[:, None] if y.ndim == 1 else y
    if numel(a.shape) * b.shape[-1] > 4_000_000:
        k = a.shape[-1]
        acc = 3 * U * math.sqrt(k) * np.matmul(np.abs(a), np.abs(b))
    else:
        prod = a[..., :, :, None] * b[..., None, :, :]
        acc = acc_err(prod, -2)
    if y.ndim == 1:
        acc = acc[..., 0]
    if x.ndim == 1:
        acc = acc[..., 0, :] if y.ndim != 1 else acc[..., 0]
    return acc


def check_float(r, what):
    if not np.all(np.isfinite(r)) or (r.size and np.max(np.abs(r)) > CAP):
        raise Invalid("%s: values beyond %g" % (what, CAP))


def check_int(r, what, dtype="i32"):
    cap = int_cap(dtype)
    if r.size and np.max(np.abs(r)) > cap:
        raise Invalid("%s: integers beyond %d" % (what, cap))
    if dtype in UNSIGNED and r.size and np.min(r) < 0:
        raise Invalid("%s: a negative %s" % (what, dtype))


def cdiv(a, b):
    """C division on int64 arrays; x / 0 = 0 (graph.div's rule)."""
    a, b = np.broadcast_arrays(a, b)
    safe = np.where(b == 0, 1, b)
    q = np.abs(a) // np.abs(safe)
    q = np.where((a < 0) != (safe < 0), -q, q)
    return np.where(b == 0, 0, q).astype(np.int64)


def slices(attrs):
    return tuple(slice(s, l, st) for s, l, st in
                 zip(attrs["start"], attrs["limit"], attrs["step"]))


WINDOW = ("conv2d", "max_pool2d", "avg_pool2d")


def window_kernel(node):
    """(KH, KW) of a conv2d (its weight's dims) or pooling op."""
    if node.op == "conv2d":
        return tuple(node.ins[1].shape[2:])
    return tuple(node.attrs["kernel"])


def pool_extent(size, before, after, k, s, d, ceil):
    """Output size of one spatial dim (the spec of graph.max_pool2d:
    PyTorch's rule, ceil_mode included)."""
    span = d * (k - 1) + 1
    length = size + before + after
    if length < span:
        raise Invalid("window does not fit")
    if not ceil:
        return (length - span) // s + 1
    o = -(-(length - span) // s) + 1
    if (o - 1) * s >= size + before:
        o -= 1
    return o


def window_out(node, h, w, kh, kw):
    a = node.attrs
    top, left, bottom, right = a["padding"]
    (sh, sw), (dh, dw) = a["strides"], a.get("dilations", (1, 1))
    ceil = a.get("ceil_mode", False)
    return (pool_extent(h, top, bottom, kh, sh, dh, ceil),
            pool_extent(w, left, right, kw, sw, dw, ceil))


def conv_products(x, w, a, oh, ow):
    """The terms of graph.conv2d's sums, [N, F, C/G * KH * KW, OH, OW]."""
    top, left, bottom, right = a["padding"]
    (sh, sw), (dh, dw), g = a["strides"], a["dilations"], a["groups"]
    n, c = x.shape[:2]
    f, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    cols = np.zeros((n, c, kh, kw, oh, ow))
    for i in range(kh):
        for j in range(kw):
            cols[:, :, i, j] = xp[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                  j * dw:j * dw + sw * (ow - 1) + 1:sw]
    cols = cols.reshape(n, g, cg * kh * kw, oh, ow)
    wg = w.reshape(g, f // g, cg * kh * kw)
    prod = wg[None, :, :, :, None, None] * cols[:, :, None]
    return prod.reshape(n, f, cg * kh * kw, oh, ow)


def pool_windows(size, before, after, k, s, d, out, avg, include_pad):
    """Per output position: the input indices its window reads and, for
    avg_pool2d, the divisor's factor for this dim (the spec's rule)."""
    res = []
    for y in range(out):
        start = y * s - before
        idx = [start + i * d for i in range(k)]
        inside = [i for i in idx if 0 <= i < size]
        if not inside:
            raise Invalid("a window without input elements")
        if avg:
            end = min(start + k, size + after)
            div = (end - start) if include_pad else \
                (min(end, size) - max(start, 0))
        else:
            div = 1
        res.append((inside, div))
    return res


def pool_ref(x, a, oh, ow, kind):
    top, left, bottom, right = a["padding"]
    (kh, kw), (sh, sw) = a["kernel"], a["strides"]
    dh, dw = a.get("dilations", (1, 1))
    avg, inc = kind == "avg", a.get("count_include_pad", False)
    rows = pool_windows(x.shape[2], top, bottom, kh, sh, dh, oh, avg, inc)
    cols = pool_windows(x.shape[3], left, right, kw, sw, dw, ow, avg, inc)
    shape = x.shape[:2] + (oh, ow)
    r = np.zeros(shape, dtype=x.dtype)
    counts = np.zeros((oh, ow))
    divs = np.ones((oh, ow))
    for y, (ri, rd) in enumerate(rows):
        for z, (ci, cd) in enumerate(cols):
            win = x[:, :, ri][:, :, :, ci]
            r[:, :, y, z] = (win.sum(axis=(2, 3)) if avg
                             else win.max(axis=(2, 3)))
            counts[y, z] = len(ri) * len(ci)
            divs[y, z] = rd * cd
    return r, counts, divs


def evaluate_node(n):
    """Computes n.out.data and n.out.err from the operands; raises Invalid."""
    op, a, o = n.op, n.attrs, n.out
    X = [v.data for v in n.ins]
    E = [v.err for v in n.ins]
    isf = o.dtype == "f32"
    if op in ("arg", "const"):
        d = a["data"]
        o.data = d.astype(np.float64) if d.dtype == np.float32 else d.astype(np.int64)
        o.err = np.zeros(o.shape)
    elif op in BINARY:
        x, y = X
        if not isf:
            r = {"add": lambda: x + y, "sub": lambda: x - y,
                 "mul": lambda: x * y, "div": lambda: cdiv(x, y),
                 "max": lambda: np.maximum(x, y),
                 "min": lambda: np.minimum(x, y)}[op]()
            check_int(r, op, o.dtype)
            o.data, o.err = r, np.zeros(r.shape)
        elif n.ins[0] is n.ins[1] and op in ("sub", "div"):
            # x - x and x / x are exact whatever x's error (x != 0 for div:
            # divisors are kept away from 0).
            if op == "div" and x.size and np.min(np.abs(x) - E[0]) < 0.25:
                raise Invalid("divisor near zero")
            r = np.zeros(x.shape) if op == "sub" else np.ones(x.shape)
            o.data, o.err = r, np.zeros(r.shape)
        else:
            ex, ey = E
            if op == "add":
                r = x + y
                e = ex + ey + U * np.abs(r)
            elif op == "sub":
                r = x - y
                e = ex + ey + U * np.abs(r)
            elif op == "mul":
                r = x * y
                e = np.abs(x) * ey + np.abs(y) * ex + ex * ey + U * np.abs(r)
            elif op == "div":
                low = np.abs(y) - ey
                if y.size and np.min(low) < 0.25:
                    raise Invalid("divisor near zero")
                r = x / y
                e = (ex + np.abs(r) * ey) / low + U * np.abs(r)
            else:
                r = np.maximum(x, y) if op == "max" else np.minimum(x, y)
                e = np.maximum(ex, ey) + np.zeros(r.shape)
            check_float(r, op)
            o.data, o.err = r, e
    elif op in UNARY and not isf:
        # Integers: neg, abs, relu. Unsigned neg wraps modulo 2^w (abs and
        # relu of an unsigned value are the value).
        r = UFN[op](X[0], a)
        if o.dtype in UNSIGNED:
            r = wrap_int(r, o.dtype)
        o.data, o.err = r, np.zeros(np.shape(r))
    elif op in UNARY:
        x = X[0]
        ex = E[0]
        if op in ("neg", "abs", "relu"):
            r, e = UFN[op](x, a), ex
        else:
            if op == "exp" and x.size and np.max(x) > 11:
                raise Invalid("exp of a large value")
            if op in ("log", "sqrt", "rsqrt") and x.size and np.min(x - ex) < 0.25:
                raise Invalid("%s of a value not safely positive" % op)
            if op in ("sinh", "cosh") and x.size and np.max(np.abs(x)) > 11:
                raise Invalid("%s of a large value" % op)
            if op in ("asin", "acos", "atanh") and x.size and \
                    np.max(np.abs(x) + ex) > 0.95:
                raise Invalid("%s of a value not safely inside (-1, 1)" % op)
            if op == "acosh" and x.size and np.min(x - ex) < 1.25:
                raise Invalid("acosh of a value not safely above 1")
            if op == "tan" and x.size and np.max(np.abs(x) + ex) > 1.3:
                raise Invalid("tan of a value near a pole")
            r = UFN[op](x, a)
            # Propagated error: f's change over [x - ex, x + ex] (the
            # functions are smooth and the intervals tiny), plus the error
            # of the f32 evaluation itself: a few ulp of the result, and for
            # the compositions (silu, gelu: x * g(x)) a few ulp of |x|, as
            # g's absolute error is scaled by x.
            e = np.maximum(np.abs(UFN[op](x + ex, a) - r),
                           np.abs(UFN[op](x - ex, a) - r))
            e = e + TRANS * np.abs(r) + U
            if op in ("silu", "gelu"):
                e = e + TRANS * np.abs(x)
        check_float(r, op)
        o.data, o.err = r, e
    elif op == "compare":
        x, y = X
        fn = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
              "le": np.less_equal, "gt": np.greater,
              "ge": np.greater_equal}[a["dir"]]
        r = fn(x, y)
        if n.ins[0].dtype == "f32" and n.ins[0] is not n.ins[1]:
            eb = E[0] + E[1]
            gap = np.abs(x - y)
            bad = (eb > 0) & (gap <= SAFETY * eb)
            if np.any(bad):
                raise Invalid("compare operands closer than their error bound")
        o.data, o.err = r, np.zeros(r.shape)
    elif op == "select":
        c, t, f = X
        r = np.where(c, t, f)
        o.data = r
        o.err = np.where(c, E[1], E[2]) + np.zeros(r.shape)
    elif op == "cast" and o.dtype in HALF:
        x, ex = X[0], E[0]
        if x.size and np.max(np.abs(x) + ex) > 60000:
            raise Invalid("beyond the f16 range")
        r = round_half(x, o.dtype)
        # The program's f32 value is within the error bound of x: both ends
        # must round alike.
        if np.any(round_half(x - SAFETY * ex, o.dtype) !=
                  round_half(x + SAFETY * ex, o.dtype)):
            raise Invalid("a %s rounding too close to call" % o.dtype)
        o.data, o.err = r, np.zeros(r.shape)
    elif op == "cast":
        x = X[0]
        if o.dtype in ALL_INTS and n.ins[0].dtype in ALL_INTS:
            # Integer to integer: exact, or the low bits when narrower.
            o.data, o.err = wrap_int(x, o.dtype), np.zeros(np.shape(x))
        elif o.dtype in ALL_INTS:
            ex = E[0]
            if x.size and np.max(np.abs(x)) > int_cap(o.dtype):
                raise Invalid("cast of a large value")
            if o.dtype in UNSIGNED and x.size and np.min(x) < 0:
                raise Invalid("cast of a negative value to %s" % o.dtype)
            r = np.trunc(x)
            # trunc jumps at every nonzero integer: stay away from them.
            frac_up = np.where(np.abs(x) < 1, 1 - np.abs(x),
                               np.minimum(x - np.floor(x), np.ceil(x) - x))
            bad = (ex > 0) & (frac_up <= SAFETY * ex)
            if np.any(bad):
                raise Invalid("float->int cast too close to an integer")
            o.data, o.err = r.astype(np.int64), np.zeros(r.shape)
        else:
            o.data, o.err = x.astype(np.float64), np.zeros(x.shape)
    elif op == "matmul":
        x, y = X
        if not isf:
            r = np.asarray(np.matmul(x, y))
            check_int(r, op, o.dtype)
            o.data, o.err = r, np.zeros(np.shape(r))
        else:
            ex, ey = E
            r = np.matmul(x, y)
            e = (np.matmul(np.abs(x), ey) + np.matmul(ex, np.abs(y)) +
                 np.matmul(ex, ey) + matmul_acc_err(x, y) + U * np.abs(r))
            check_float(r, op)
            o.data, o.err = np.asarray(r), np.asarray(e)
    elif op == "capture":
        pass  # set by the control-flow op that owns the region
    elif op == "if":
        for key in ("then", "else"):
            evaluate_region(a[key], n.ins[1:])
        taken = a["then" if bool(X[0]) else "else"][2]
        o.data, o.err = np.array(taken.data), np.array(taken.err)
    elif op == "loop":
        data, err = X[0], E[0]
        for _ in range(a["trips"]):
            phs, nodes, out = a["body"]
            phs[0].out.data, phs[0].out.err = data, err
            for m in nodes:
                evaluate_node(m)
            data, err = out.data, out.err
        o.data, o.err = np.array(data), np.array(err)
    elif op == "conv2d":
        (x, w), (ex, ew) = X[:2], E[:2]
        oh, ow = o.shape[2:]
        prod = conv_products(x, w, a, oh, ow)
        r = prod.sum(axis=2)
        e = (conv_products(np.abs(x), ew, a, oh, ow).sum(axis=2) +
             conv_products(ex, np.abs(w), a, oh, ow).sum(axis=2) +
             conv_products(ex, ew, a, oh, ow).sum(axis=2) +
             acc_err(prod, 2) + U * np.abs(r))
        if len(X) == 3:
            r = r + X[2][None, :, None, None]
            e = e + E[2][None, :, None, None] + U * np.abs(r)
        check_float(r, op)
        o.data, o.err = r, e
    elif op in ("max_pool2d", "avg_pool2d"):
        x = X[0]
        oh, ow = o.shape[2:]
        if op == "max_pool2d":
            r, _, _ = pool_ref(x, a, oh, ow, "max")
            o.data = r
            o.err = (pool_ref(E[0], a, oh, ow, "max")[0] if isf
                     else np.zeros(r.shape))
        else:
            s, counts, divs = pool_ref(x, a, oh, ow, "avg")
            es, _, _ = pool_ref(E[0], a, oh, ow, "avg")
            r = s / divs
            e = (es + 3 * U * np.sqrt(counts) *
                 pool_ref(np.abs(x), a, oh, ow, "avg")[0]) / divs + \
                U * np.abs(r)
            check_float(r, op)
            o.data, o.err = r, e
    elif op == "transpose":
        o.data = np.transpose(X[0], a["perm"])
        o.err = np.transpose(E[0], a["perm"])
    elif op == "reshape":
        o.data, o.err = X[0].reshape(o.shape), E[0].reshape(o.shape)
    elif op == "broadcast_to":
        o.data = np.broadcast_to(X[0], o.shape).copy()
        o.err = np.broadcast_to(E[0], o.shape).copy()
    elif op == "concat":
        o.data = np.concatenate(X, axis=a["axis"])
        o.err = np.concatenate(E, axis=a["axis"])
    elif op == "slice":
        s = slices(a)
        o.data, o.err = X[0][s].copy(), E[0][s].copy()
    elif op == "reduce":
        x, ex = X[0], E[0]
        axes, kd, kind = tuple(a["axes"]), a["keepdims"], a["kind"]
        cnt = numel([x.shape[i] for i in axes])
        if cnt == 0 and kind != "sum":
            # max/min/mean of nothing: NumPy raises or warns; not compared.
            raise Invalid("empty reduction")
        if kind in ("sum", "mean"):
            r = np.sum(x, axis=axes, keepdims=kd)
            if isf:
                rest = [d for i, d in enumerate(x.shape) if i not in axes]
                xt = np.moveaxis(x, axes, range(-len(axes), 0)) if axes else x
                xt = xt.reshape(tuple(rest) + (cnt,))
                e = (np.sum(ex, axis=axes, keepdims=kd) +
                     acc_err(xt, -1).reshape(np.shape(r)) + U * np.abs(r))
                if kind == "mean":
                    r = r / cnt
                    e = e / cnt + U * np.abs(r)
        else:
            fn = np.max if kind == "max" else np.min
            r = fn(x, axis=axes, keepdims=kd)
            e = np.max(ex, axis=axes, keepdims=kd) if isf else None
        r = np.asarray(r)
        if isf:
            check_float(r, op)
            o.data, o.err = r, np.asarray(e) + np.zeros(r.shape)
        else:
            check_int(r, op, o.dtype)
            o.data, o.err = r.astype(np.int64), np.zeros(r.shape)
    elif op == "softmax":
        x, ex, ax = X[0], E[0], a["axis"]
        if x.shape[ax] == 0:
            raise Invalid("softmax over an empty axis")
        m = np.exp(x - x.max(axis=ax, keepdims=True))
        r = m / m.sum(axis=ax, keepdims=True)
        me = ex.max(axis=ax, keepdims=True)
        e = r * (np.expm1(2 * me) + (x.shape[ax] + 20) * U) + U
        o.data, o.err = r, e
    else:
        raise AssertionError(op)
    o.data, o.err = np.asarray(o.data), np.asarray(o.err)
    if o.data.shape != o.shape:
        raise AssertionError("%s: reference shape %s != inferred %s"
                             % (op, o.data.shape, o.shape))


def evaluate_region(region, sources):
    """Evaluates a region's ops with its placeholders bound to `sources`."""
    phs, nodes, _ = region
    for ph, src in zip(phs, sources):
        ph.out.data, ph.out.err = src.data, src.err
    for m in nodes:
        evaluate_node(m)


def evaluate(prog):
    for n in prog.nodes:
        evaluate_node(n)


def tolerance(v):
    """(atol, reason or None) for output v."""
    if v.dtype != "f32":
        return ATOL, None
    need = SAFETY * v.err - RTOL * np.abs(v.data)
    worst = float(np.max(need)) if need.size else 0.0
    if worst <= ATOL:
        return ATOL, None
    atol = float("%.2g" % (worst * 1.05))
    mag = max([float(np.max(np.abs(n.out.data))) for n in PROG_NODES(v)
               if n.out.dtype == "f32" and n.out.data.size] or [0.0])
    why = ("error bound %.3g (x%g) exceeds atol %g + rtol %g*|expected| "
           "(intermediates up to %.3g); atol raised to %g"
           % (float(np.max(v.err)), SAFETY, ATOL, RTOL, mag, atol))
    return atol, why


def PROG_NODES(v):
    """The nodes v depends on."""
    seen, out, stack = set(), [], [v.node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        out.append(n)
        stack.extend(w.node for w in n.ins)
    return out


def validate(prog):
    """Re-evaluates prog; returns False when some op is not well defined."""
    try:
        evaluate(prog)
        for v in prog.outputs:
            if v.dtype == "f32":
                atol, _ = tolerance(v)
                if atol > 1e-2:
                    return False
        return True
    except Invalid:
        return False


# ----------------------------------------------------------------------------
# Printing
# ----------------------------------------------------------------------------

def tstr(shape, dtype):
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return "tensor<%s%s>" % (dims, dtype)


def fmt_scalar(x, dtype):
    if dtype in ALL_INTS:
        return str(int(x))
    x = float(np.float32(x))
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    if abs(x) < 1e4 and float(np.float32(round(x, 3))) == x:
        s = ("%.3f" % round(x, 3)).rstrip("0")
        return s + "0" if s.endswith(".") else s
    return "%.8e" % x


def fmt_dense(data, dtype, splat):
    if data.size == 0:
        return ""  # dense<> : an empty tensor of any shape
    if splat:
        return fmt_scalar(data.flat[0], dtype)

    def rec(x):
        if x.ndim == 0:
            return fmt_scalar(x, dtype)
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return rec(data)


def ilist(xs):
    return "[" + ", ".join(str(x) for x in xs) + "]"


def print_program(prog, types):
    names = {}
    args = prog.args()
    for i, n in enumerate(args):
        names[n.out] = "%%arg%d" % i
    ti = lambda v: tstr(types[v], v.dtype)
    lines = []
    k = 0

    def region_lines(region, sources, yield_prefix, indent):
        phs, nodes, out = region
        for ph, src in zip(phs, sources):
            names[ph.out] = names[src]
        for m in nodes:
            node_lines(m, indent)
        vals = yield_prefix + [(names[out], ti(out))]
        lines.append("%sgraph.yield %s : %s" % (
            indent, ", ".join(v for v, _ in vals),
            ", ".join(t for _, t in vals)))

    def node_lines(n, indent="  "):
        nonlocal k
        if n.op == "arg":
            return
        name = "%%%s%d" % ("c" if n.op == "const" else "v", k)
        k += 1
        names[n.out] = name
        a, op = n.attrs, n.op
        ins = [names[v] for v in n.ins]
        itys = ", ".join(ti(v) for v in n.ins)
        sig = " : %s -> %s" % (itys, ti(n.out))
        if op == "const":
            body = "graph.constant dense<%s> : %s" % (
                fmt_dense(a["data"], n.out.dtype, a["splat"]),
                tstr(n.out.shape, n.out.dtype))
        elif op in BINARY or op in ("matmul",):
            body = "graph.%s %s, %s%s" % (op, ins[0], ins[1], sig)
        elif op == "gelu":
            attr = ""
            if a["approx"] == "tanh":
                attr = " approximate = tanh"
            elif a.get("explicit"):
                attr = " approximate = none"
            body = "graph.gelu %s%s%s" % (ins[0], attr, sig)
        elif op in UNARY or op == "cast":
            body = "graph.%s %s%s" % (op, ins[0], sig)
        elif op == "compare":
            body = "graph.compare %s, %s, %s%s" % (a["dir"], ins[0], ins[1], sig)
        elif op == "select":
            body = "graph.select %s, %s, %s%s" % (ins[0], ins[1], ins[2], sig)
        elif op == "transpose":
            body = "graph.transpose %s, %s%s" % (ins[0], ilist(a["perm"]), sig)
        elif op in ("reshape", "broadcast_to"):
            body = "graph.%s %s, %s%s" % (op, ins[0], ilist(a["shape"]), sig)
        elif op == "concat":
            body = "graph.concat %s axis = %d%s" % (", ".join(ins), a["axis"], sig)
        elif op == "slice":
            body = "graph.slice %s %s %s %s%s" % (
                ins[0], ilist(a["start"]), ilist(a["limit"]), ilist(a["step"]), sig)
        elif op == "reduce":
            body = "graph.reduce %s %s axes = %s%s%s" % (
                a["kind"], ins[0], ilist(a["axes"]),
                " keepdims" if a["keepdims"] else "", sig)
        elif op == "softmax":
            body = "graph.softmax %s axis = %d%s" % (ins[0], a["axis"], sig)
        elif op == "if":
            lines.append("%s%s = graph.if %s : tensor<i1> -> %s {" % (
                indent, name, ins[0], ti(n.out)))
            region_lines(a["then"], n.ins[1:], [], indent + "  ")
            lines.append(indent + "} else {")
            region_lines(a["else"], n.ins[1:], [], indent + "  ")
            lines.append(indent + "}")
            return
        elif op == "loop":
            lines.append("%s%s_n = graph.constant dense<%d> : tensor<i64>"
                         % (indent, name, a["trips"]))
            lines.append("%s%s_t = graph.constant dense<true> : tensor<i1>"
                         % (indent, name))
            lines.append("%s%s = graph.loop %s_n, %s_t, %s : (tensor<i64>, "
                         "tensor<i1>, %s) -> %s {" % (
                             indent, name, name, name, ins[0], ti(n.ins[0]),
                             ti(n.out)))
            lines.append("%s^bb0(%s_i: tensor<i64>, %s_x: %s):" % (
                indent, name, name, ti(n.out)))
            phs = a["body"][0]
            names[phs[0].out] = name + "_x"
            saved = names[n.ins[0]]
            names[n.ins[0]] = name + "_x"  # region_lines maps it to the arg
            region_lines(a["body"], [n.ins[0]],
                         [(name + "_t", "tensor<i1>")], indent + "  ")
            names[n.ins[0]] = saved
            lines.append(indent + "}")
            return
        elif op in WINDOW:
            attrs = []
            for key in ("kernel", "strides", "padding", "dilations"):
                if key in a:
                    attrs.append("%s = array<i64: %s>"
                                 % (key, ", ".join(str(v) for v in a[key])))
            if "groups" in a:
                attrs.append("groups = %d : i64" % a["groups"])
            for key in ("ceil_mode", "count_include_pad"):
                if a.get(key):
                    attrs.append(key)
            body = "graph.%s %s {%s} : (%s) -> %s" % (
                op, ", ".join(ins), ", ".join(attrs), itys, ti(n.out))
        else:
            raise AssertionError(op)
        lines.append("%s%s = %s" % (indent, name, body))

    for n in prog.nodes:
        node_lines(n)
    params = ", ".join("%s: %s" % (names[n.out], ti(n.out)) for n in args)
    rets = ", ".join(ti(v) for v in prog.outputs)
    head = "func.func @main(%s) -> %s {" % (
        params, rets if len(prog.outputs) == 1 else "(%s)" % rets)
    ret = "  return %s : %s" % (", ".join(names[v] for v in prog.outputs), rets)
    return "\n".join([head] + lines + [ret, "}"]) + "\n"


def static_types(prog):
    types = infer_all(prog, {n.out: n.out.shape for n in prog.args()})
    for v, t in types.items():
        if t != v.shape:
            raise AssertionError("inferred %s, reference %s for %s"
                                 % (t, v.shape, v.node.op))
    return types


# ----------------------------------------------------------------------------
# The generator
# ----------------------------------------------------------------------------

class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.np = np.random.default_rng(rng.getrandbits(63))
        self.nodes = []     # committed
        self.pool = []      # committed values usable as operands
        self.tent = []      # tentative nodes of the current candidate

    # -- building blocks ----------------------------------------------------

    def emit(self, op, ins, attrs, dtype, shape=None):
        n = Node(op, ins, attrs, dtype, shape or ())
        if shape is None:
            n.out.shape = tuple(infer(n, [v.shape for v in ins]))
        if len(n.out.shape) > MAX_RANK or numel(n.out.shape) > MAX_ELEMS:
            raise Invalid("too large")
        try:
            evaluate_node(n)
        except ValueError as e:  # NumPy has no value for it (empty max, ...)
            raise Invalid(str(e))
        self.tent.append(n)
        return n.out

    def rand_dim(self):
        if ZERO_DIM_P and self.rng.random() < ZERO_DIM_P:
            return 0
        return 1 if self.rng.random() < 0.2 else self.rng.randint(2, 7)

    def rand_shape(self, rank):
        return tuple(self.rand_dim() for _ in range(rank))

    def rand_data(self, shape, dtype):
        if dtype == "f32":
            return f32(self.np.uniform(-2.0, 2.0, shape))
        if dtype in UNSIGNED:
            return self.np.integers(0, 255, shape, endpoint=True).astype(
                NP_INT[dtype])
        return self.np.integers(-8, 8, shape, endpoint=True).astype(
            NP_INT[dtype])

    def const(self, shape, dtype, value=None):
        r = self.rng
        shape = tuple(shape)
        splat = value is not None or numel(shape) > 48 or r.random() < 0.35
        if value is None and splat:
            if dtype == "f32":
                value = r.choice([0.0, -0.0, 1.0, 1.0, 2.0, -1.0, 0.5,
                                  round(r.uniform(-2, 2), 3)])
            else:
                value = r.choice([0, 1, 1, 2, -1, r.randint(-4, 4)])
        if splat and dtype in UNSIGNED:
            value = abs(int(value))
        if splat:
            data = np.full(shape, value, dtype=np.float32 if dtype == "f32"
                           else NP_INT[dtype])
        elif dtype == "f32":
            data = f32(np.round(self.np.uniform(-2.0, 2.0, shape), 3))
        elif dtype in UNSIGNED:
            data = self.np.integers(0, 8, shape, endpoint=True).astype(
                NP_INT[dtype])
        else:
            data = self.np.integers(-4, 4, shape, endpoint=True).astype(
                NP_INT[dtype])
        return self.emit("const", [], {"data": data, "splat": splat}, dtype,
                         shape)

    def pick(self, pred=lambda v: True):
        c = [(i, v) for i, v in enumerate(self.pool) if pred(v)]
        if not c:
            raise Invalid("no operand")
        w = [(1.0 + i) ** 2 for i, _ in c]
        return self.rng.choices([v for _, v in c], weights=w)[0]

    def compat_shape(self, shape):
        """A random shape broadcast-compatible with `shape`."""
        r = self.rng
        k = r.randint(0, len(shape))
        s = [1 if r.random() < 0.3 else d for d in shape[len(shape) - k:]]
        if k == len(shape) and len(s) < 4 and r.random() < 0.15:
            s = [r.randint(2, 4)] + s
        return tuple(s)

    def partner(self, a, dtype=None, prefer_pool=0.7):
        dtype = dtype or a.dtype
        cands = [v for v in self.pool if v.dtype == dtype and bc_ok(a.shape, v.shape)]
        if cands and self.rng.random() < prefer_pool:
            return self.pick(lambda v: v in cands)
        return self.const(self.compat_shape(a.shape), dtype)

    def positive(self, x, low):
        """x itself when safely >= low, else abs(x) + (low + 0.5)."""
        if x.data.size and np.min(x.data - x.err) >= low + 0.25 and self.rng.random() < 0.5:
            return x
        y = self.emit("abs", [x], {}, x.dtype)
        cshape = () if self.rng.random() < 0.5 else x.shape
        c = self.const(cshape, "f32", value=low + 0.5)
        return self.emit("add", [y, c], {}, "f32")

    # -- op generators ------------------------------------------------------

    def g_binary(self):
        r = self.rng
        op = r.choice(BINARY)
        a = self.pick(lambda v: v.dtype != "i1")
        b = self.partner(a)
        if r.random() < 0.5:
            a, b = b, a
        if op == "div" and a.dtype == "f32":
            if not b.data.size or np.min(np.abs(b.data) - b.err) < 0.5:
                b = self.positive(b, 0.0)
        return self.emit(op, [a, b], {}, a.dtype)

    def g_unary(self):
        r = self.rng
        a = self.pick(lambda v: v.dtype != "i1")
        if a.dtype != "f32":
            return self.emit(r.choice(["neg", "abs", "relu"]), [a], {}, a.dtype)
        if r.random() < 0.15:
            a = self.const(self.rand_shape(r.randint(0, 3)), "f32")
        op = r.choice(UNARY)
        attrs = {}
        if op in ("log", "sqrt", "rsqrt"):
            a = self.positive(a, 0.5)
        if op == "exp" and a.data.size and np.max(a.data) > 8:
            a = self.emit("tanh", [a], {}, "f32")
        if op in ("sinh", "cosh") and a.data.size and np.max(np.abs(a.data)) > 8:
            a = self.emit("tanh", [a], {}, "f32")
        if op in ("asin", "acos", "atanh", "tan"):
            # tanh(x) * 0.9: inside (-0.9, 0.9), away from the domain's
            # ends and from tan's poles.
            t = self.emit("tanh", [a], {}, "f32")
            cshape = () if r.random() < 0.5 else t.shape
            a = self.emit("mul", [t, self.const(cshape, "f32", value=0.9)],
                          {}, "f32")
        if op == "acosh":
            a = self.positive(a, 1.25)
        if op == "gelu":
            attrs = {"approx": r.choice(["none", "tanh"]),
                     "explicit": r.random() < 0.3}
        return self.emit(op, [a], attrs, "f32")

    def g_select(self):
        r = self.rng
        a = self.pick(lambda v: v.dtype != "i1")
        b = self.partner(a)
        if r.random() < 0.3:
            a, b = b, a
        c = self.emit("compare", [a, b],
                      {"dir": r.choice(["eq", "ne", "lt", "le", "gt", "ge"])}, "i1")
        dt = a.dtype if r.random() < 0.7 else r.choice(["f32", "i32", "i64"])
        t = self.partner(c, dt, 0.8)
        if r.random() < 0.2:
            f = t
        else:
            cands = [v for v in self.pool if v.dtype == dt and
                     bc_ok(c.shape, v.shape) and bc_ok(t.shape, v.shape) and
                     bc_ok(c.shape, bshape(t.shape, v.shape))]
            if cands and r.random() < 0.7:
                f = self.pick(lambda v: v in cands)
            else:
                f = self.const(self.compat_shape(c.shape), dt)
        if r.random() < 0.5:
            t, f = f, t
        return self.emit("select", [c, t, f], {}, dt)

    def g_cast(self):
        r = self.rng
        a = self.pick(lambda v: v.dtype in ("f32",) + ALL_INTS)
        if a.dtype == "f32":
            if r.random() < 0.35:
                # A round trip through f16 or bf16.
                h = self.emit("cast", [a], {}, r.choice(HALF))
                return self.emit("cast", [h], {}, "f32")
            if r.random() < 0.6:
                a = self.emit("mul", [a, self.const((), "f32",
                                                    r.choice([3.0, 4.0, 7.5]))],
                              {}, "f32")
            dt = r.choice(INTS)
            if SMALL_INT_P and r.random() < SMALL_INT_P:
                dt = r.choice(SMALL_INTS)
            return self.emit("cast", [a], {}, dt)
        if r.random() < 0.3:
            dt = "i64" if a.dtype == "i32" else "i32"
            if SMALL_INT_P and r.random() < SMALL_INT_P:
                # Narrowing (the low bits) or between i8 and i16.
                dt = r.choice([t for t in ALL_INTS if t != a.dtype])
            return self.emit("cast", [a], {}, dt)
        return self.emit("cast", [a], {}, "f32")

    def g_matmul(self):
        r = self.rng
        dt = "f32" if r.random() < 0.8 else r.choice(INTS)
        if dt != "f32" and SMALL_INT_P and r.random() < SMALL_INT_P:
            dt = r.choice(SMALL_INTS)
        if dt != "f32" and not any(v.dtype == dt and v.shape for v in self.pool):
            dt = "f32"
        x = self.pick(lambda v: v.dtype == dt and len(v.shape) >= 1)
        as_lhs = r.random() < 0.7
        if as_lhs:
            K = x.shape[-1]
        else:
            K = x.shape[0] if len(x.shape) == 1 else x.shape[-2]
        xb = x.shape[:-2]
        # The other operand's shape.
        choices = []
        other_rank = r.choice([1, 2, 2, 3, 3, 4])
        mn = r.randint(1, 6)
        if other_rank == 1:
            oshape = (K,)
        else:
            bl = other_rank - 2
            batch = list(self.compat_shape(xb))[-bl:] if bl else []
            while len(batch) < bl:
                j = len(xb) - len(batch) - 1
                batch.insert(0, xb[j] if j >= 0 and r.random() < 0.5 else 1)
            oshape = tuple(batch) + ((K, mn) if as_lhs else (mn, K))
        cands = [v for v in self.pool if v.dtype == dt and v.shape == oshape]
        if len(x.shape) >= 2 and r.random() < 0.25:
            perm = list(range(len(x.shape)))
            perm[-1], perm[-2] = perm[-2], perm[-1]
            y = self.emit("transpose", [x], {"perm": perm}, dt)
        elif cands and r.random() < 0.8:
            y = self.pick(lambda v: v in cands)
        else:
            y = self.const(oshape, dt)
            if dt == "f32" and r.random() < 0.5:
                y = self.emit("tanh", [y], {}, dt) if r.random() < 0.5 else y
        a, b = (x, y) if as_lhs else (y, x)
        return self.emit("matmul", [a, b], {}, dt)

    def g_transpose(self):
        x = self.pick(lambda v: v.dtype != "i1")
        perm = list(range(len(x.shape)))
        self.rng.shuffle(perm)
        return self.emit("transpose", [x], {"perm": perm}, x.dtype)

    def g_reshape(self):
        r = self.rng
        x = self.pick(lambda v: v.dtype != "i1")
        n = numel(x.shape)
        if n == 0:
            # Any shape with a 0 (no -1: its size would be ambiguous).
            shape = [r.randint(0, 4) for _ in range(r.randint(1, 4))]
            shape[r.randrange(len(shape))] = 0
            return self.emit("reshape", [x], {"shape": shape}, x.dtype)
        rank = r.randint(0 if n == 1 else 1, 4)
        dims, rem = [], n
        for _ in range(max(rank - 1, 0)):
            divs = [d for d in range(1, rem + 1) if rem % d == 0]
            d = r.choice(divs)
            dims.append(d)
            rem //= d
        if rank:
            dims.append(rem)
        r.shuffle(dims)
        shape = list(dims)
        big = [i for i, d in enumerate(dims) if d != 1]
        if big and r.random() < 0.5:
            shape[r.choice(big)] = -1
        return self.emit("reshape", [x], {"shape": shape}, x.dtype)

    def g_broadcast_to(self):
        r = self.rng
        x = self.pick(lambda v: v.dtype != "i1")
        target = []
        for d in x.shape:
            if d == 1 and r.random() < 0.6:
                target.append(r.randint(2, 5))
            elif r.random() < 0.2:
                target.append(-1)
            else:
                target.append(d)
        for _ in range(r.randint(0, 2)):
            if len(target) < 4:
                target.insert(0, r.randint(1, 4))
        return self.emit("broadcast_to", [x], {"shape": target}, x.dtype)

    def g_concat(self):
        r = self.rng
        x = self.pick(lambda v: v.dtype != "i1" and len(v.shape) >= 1)
        ax = r.randrange(len(x.shape))
        ins = [x]
        for _ in range(r.randint(1, 2)):
            def fits(v):
                return (v.dtype == x.dtype and len(v.shape) == len(x.shape) and
                        all(a == b for i, (a, b) in enumerate(zip(v.shape, x.shape))
                            if i != ax))
            cands = [v for v in self.pool if fits(v)]
            k = r.random()
            if cands and k < 0.5:
                ins.append(self.pick(fits))
            elif k < 0.7:
                ins.append(x)
            else:
                s = list(x.shape)
                s[ax] = r.randint(1, 4)
                ins.append(self.const(s, x.dtype))
        r.shuffle(ins)
        return self.emit("concat", ins, {"axis": ax}, x.dtype)

    def g_slice(self):
        r = self.rng
        x = self.pick(lambda v: v.dtype != "i1")
        st, li, sp = [], [], []
        for d in x.shape:
            if d == 0 or r.random() < 0.3:
                s, l, t = 0, d, 1
            else:
                s = r.randint(0, d - 1)
                l = r.randint(s + 1, d)
                t = r.choice([1, 1, 2, 3])
            st.append(s)
            li.append(l)
            sp.append(t)
        return self.emit("slice", [x], {"start": st, "limit": li, "step": sp},
                         x.dtype)

    def g_reduce(self):
        r = self.rng
        x = self.pick(lambda v: v.dtype != "i1")
        kinds = ["sum", "max", "min"] + (["mean"] if x.dtype == "f32" else [])
        rank = len(x.shape)
        k = 0 if rank == 0 or r.random() < 0.05 else r.randint(1, rank)
        axes = r.sample(range(rank), k)
        if r.random() < 0.5:
            axes.sort()
        return self.emit("reduce", [x], {"kind": r.choice(kinds), "axes": axes,
                                         "keepdims": r.random() < 0.4}, x.dtype)

    def g_softmax(self):
        x = self.pick(lambda v: v.dtype == "f32" and len(v.shape) >= 1)
        return self.emit("softmax", [x], {"axis": self.rng.randrange(len(x.shape))},
                         "f32")

    def window_attrs(self, h, w, kh, kw, dilate):
        """Random strides, padding (each side smaller than the window span)
        and dilations for a window of kh x kw over an h x w image."""
        r = self.rng
        a = {"strides": [r.choice([1, 1, 1, 2, 2, 3]) for _ in range(2)]}
        a["dilations"] = [r.choice([1, 1, 1, 2]) if dilate else 1
                          for _ in range(2)]
        spans = [a["dilations"][0] * (kh - 1) + 1,
                 a["dilations"][1] * (kw - 1) + 1]
        if r.random() < 0.6:
            p = [r.randint(0, (spans[0] - 1) // 2),
                 r.randint(0, (spans[1] - 1) // 2)]
            a["padding"] = [p[0], p[1], p[0], p[1]]
        else:
            a["padding"] = [r.randint(0, spans[i % 2] - 1) for i in range(4)]
        if spans[0] > h + a["padding"][0] + a["padding"][2] or \
                spans[1] > w + a["padding"][1] + a["padding"][3]:
            raise Invalid("window does not fit")
        return a

    def g_conv(self):
        r = self.rng
        x = self.pick(lambda v: v.dtype == "f32" and len(v.shape) == 4)
        n, c, h, w = x.shape
        groups = 1
        if c > 1 and r.random() < 0.3:
            groups = r.choice([g for g in range(2, c + 1) if c % g == 0])
        if groups == c:
            f = groups * r.choice([1, 1, 2])
        elif groups == 1 and r.random() < 0.3:
            f = r.choice([8, 16, 32, 40, 64])
        else:
            f = groups * r.randint(1, max(1, 8 // groups))
        kh, kw = r.choice([(1, 1), (3, 3), (3, 3), (2, 2), (5, 5), (1, 3),
                           (3, 1), (7, 7), (4, 4)])
        kh, kw = min(kh, h + 2), min(kw, w + 2)
        a = self.window_attrs(h, w, kh, kw, dilate=True)
        a["groups"] = groups
        if a["strides"] == [1, 1] and r.random() < 0.5:
            a["dilations"] = [1, 1]  # the direct kernel's case
        wshape = (f, c // groups, kh, kw)
        if numel(wshape) > 4 * MAX_ELEMS:
            raise Invalid("too large")
        # Constant weights mostly (the direct and packed kernels need them),
        # dense: a splat would hide the taps' order.
        data = f32(np.round(self.np.uniform(-1.0, 1.0, wshape), 3))
        wt = self.emit("const", [], {"data": data, "splat": False}, "f32",
                       wshape)
        if r.random() < 0.2:
            wt = self.emit("tanh", [wt], {}, "f32")
        ins = [x, wt]
        if r.random() < 0.6:
            ins.append(self.const((f,), "f32"))
        return self.emit("conv2d", ins, a, "f32")

    def g_pool(self):
        r = self.rng
        kind = r.choice(["max", "max", "avg"])
        x = self.pick(lambda v: len(v.shape) == 4 and
                      (v.dtype == "f32" or (kind == "max" and v.dtype in ALL_INTS)))
        h, w = x.shape[2:]
        kh, kw = r.choice([(2, 2), (2, 2), (3, 3), (3, 3), (1, 2), (3, 2),
                           (4, 4), (5, 5)])
        kh, kw = min(kh, h + 2), min(kw, w + 2)
        a = {"kernel": [kh, kw]}
        a.update(self.window_attrs(h, w, kh, kw, dilate=kind == "max"))
        if kind == "avg":
            del a["dilations"]
            if r.random() < 0.6:
                a["count_include_pad"] = True
        if r.random() < 0.3:
            a["ceil_mode"] = True
        return self.emit(kind + "_pool2d", [x], a, x.dtype)

    # -- control flow -------------------------------------------------------
    #
    # A region is closed: its ops read placeholders ("capture" nodes) that
    # stand for the control-flow op's operands (graph.if) or its carried
    # value (graph.loop's block argument), and constants made inside it.
    # It is kept in the op's attrs as (placeholders, nodes, result), not in
    # the program's node list.

    def region_step(self, cur, others, bounded):
        """One shape-preserving op on `cur` inside a region: a unary op, or
        a binary op with a constant or another placeholder of its type.
        `bounded`: only ops that keep values in range when repeated."""
        r = self.rng
        if cur.dtype in ALL_INTS:
            op = r.choice(["neg", "abs", "relu", "add", "max"])
            if op in ("neg", "abs", "relu"):
                return self.emit(op, [cur], {}, cur.dtype)
            return self.emit(op, [cur, self.const((), cur.dtype,
                                                  r.randint(-3, 3))], {},
                             cur.dtype)
        if bounded:
            k = r.random()
            if k < 0.4:
                return self.emit(r.choice(["tanh", "sigmoid", "relu", "neg",
                                           "abs"]), [cur], {}, "f32")
            c = self.const(r.choice([(), cur.shape]), "f32",
                           r.choice([0.5, 0.75, 1.25, -0.5]))
            y = self.emit("mul", [cur, c], {}, "f32")
            return self.emit("add", [y, self.const((), "f32", 0.25)], {},
                             "f32")
        same = [v for v in others if v is not cur and v.shape == cur.shape and
                v.dtype == cur.dtype]
        k = r.random()
        if same and k < 0.3:
            return self.emit(r.choice(["add", "sub", "mul", "max"]),
                             [cur, r.choice(same)], {}, "f32")
        if k < 0.7:
            op = r.choice(["neg", "abs", "relu", "tanh", "sigmoid", "silu",
                           "exp"])
            if op == "exp":
                cur = self.emit("tanh", [cur], {}, "f32")
            return self.emit(op, [cur], {}, "f32")
        c = self.const(self.compat_shape(cur.shape), "f32")
        y = self.emit(r.choice(["add", "mul", "min"]), [cur, c], {}, "f32")
        if y.shape != cur.shape:
            raise Invalid("a region op changed the shape")
        return y

    def region(self, sources, steps, bounded=False):
        """A closed region over placeholders of `sources` with `steps` ops
        from the first: (placeholders, nodes, result)."""
        saved, self.tent = self.tent, []
        try:
            phs = []
            for i, src in enumerate(sources):
                ph = Node("capture", [], {"index": i}, src.dtype, src.shape)
                ph.out.data, ph.out.err = src.data, src.err
                phs.append(ph)
            cur = phs[0].out
            for _ in range(steps):
                cur = self.region_step(cur, [p.out for p in phs], bounded)
            return phs, self.tent, cur
        finally:
            self.tent = saved

    def g_if(self):
        r = self.rng
        a = self.pick(lambda v: v.dtype in ("f32",) + ALL_INTS)
        # The condition: a reduction of some float value compared with a
        # threshold half a unit away from it.
        b = self.pick(lambda v: v.dtype == "f32" and numel(v.shape) > 0)
        s = self.emit("reduce", [b], {"kind": r.choice(["sum", "max"]),
                                      "axes": list(range(len(b.shape))),
                                      "keepdims": False}, "f32")
        t = self.const((), "f32",
                       round(float(s.data) + r.choice([-0.5, 0.5]), 3))
        c = self.emit("compare", [s, t], {"dir": r.choice(["lt", "gt"])}, "i1")
        sources = [a]
        others = [v for v in self.pool if v is not a and v.shape == a.shape
                  and v.dtype == a.dtype]
        if others and r.random() < 0.4:
            sources.append(r.choice(others))
        then = self.region(sources, r.randint(1, 3))
        other = self.region(sources, r.randint(0, 2))
        if then[2].shape != a.shape or other[2].shape != a.shape:
            raise Invalid("branches of different shapes")
        return self.emit("if", [c] + sources, {"then": then, "else": other},
                         a.dtype, a.shape)

    def g_loop(self):
        r = self.rng
        x = self.pick(lambda v: v.dtype in ("f32",) + ALL_INTS)
        body = self.region([x], r.randint(1, 2), bounded=True)
        return self.emit("loop", [x], {"trips": r.choice([0, 1, 2, 3, 5]),
                                       "body": body}, x.dtype, x.shape)

    GENS = [("binary", 24), ("unary", 22), ("select", 5), ("cast", 5),
            ("matmul", 9), ("transpose", 5), ("reshape", 6),
            ("broadcast_to", 4), ("concat", 5), ("slice", 5), ("reduce", 8),
            ("softmax", 4), ("conv", 16), ("pool", 8), ("if", 5),
            ("loop", 4)]

    # -- the program ----------------------------------------------------------

    def program(self, max_ops=8):
        r = self.rng
        nargs = r.randint(1, 3)
        base = self.rand_shape(r.choices([0, 1, 2, 3, 4], [1, 3, 4, 3, 2])[0])
        if r.random() < IMAGE_P:
            # An image, [N, C, H, W], for the convolutions and pooling.
            # Sometimes many channels, so that the packed and direct
            # convolution kernels (register blocks of 8 channels) are used.
            chans = self.rand_dim() if r.random() < 0.7 else \
                r.choice([8, 16, 24, 32, 64])
            base = (r.choice([1, 1, 2]), chans,
                    r.randint(1, 18), r.randint(1, 18))
            while numel(base) > MAX_ELEMS:
                base = base[:2] + (base[3], max(base[2] // 2, 1))
        for i in range(nargs):
            k = r.random()
            dt = "f32" if k < 0.85 else "i32" if k < 0.95 else "i64"
            if dt != "f32" and SMALL_INT_P and r.random() < SMALL_INT_P:
                dt = r.choice(SMALL_INTS)
            k = r.random()
            if i == 0 or k < 0.3:
                shape = base
            elif k < 0.75:
                shape = self.compat_shape(base)
            else:
                shape = self.rand_shape(r.randint(0, 4))
            data = self.rand_data(shape, dt)
            self.emit("arg", [], {"data": data}, dt, shape)
            self.commit()
        nops = r.randint(1, max_ops)
        names = [g for g, _ in self.GENS]
        weights = [GEN_WEIGHTS.get(g, w) for g, w in self.GENS]
        done = 0
        for _ in range(nops * 30):
            if done == nops:
                break
            g = r.choices(names, weights)[0]
            self.tent = []
            try:
                out = getattr(self, "g_" + g)()
            except Invalid:
                continue
            except (ValueError, IndexError):
                # A generator drawing from an empty range: only zero-size
                # dims (--zero-dims) make them; try another op.
                if not ZERO_DIM_P:
                    raise
                continue
            self.commit()
            self.last = out
            done += 1
        if done == 0:
            return None
        # Results: the last value and, mostly, the other values nothing uses
        # (up to 3 results); sometimes an unused value is left for DCE.
        used = {id(v) for n in self.nodes for v in n.ins}
        sinks = [n.out for n in self.nodes if n.op not in ("arg", "const")
                 and id(n.out) not in used and n.out.dtype not in ("i1",) + HALF
                 and n.out is not self.last]
        r.shuffle(sinks)
        outs = [self.last] + sinks[:r.choice([0, 1, 2, 2, 2])]
        if len(outs) == 1 and r.random() < 0.05:
            outs.append(self.pick(lambda v: v is not self.last))
        return Program(self.nodes, outs)

    def commit(self):
        for n in self.tent:
            self.nodes.append(n)
            if n.out.dtype not in ("i1",) + HALF:
                self.pool.append(n.out)
        self.tent = []


def bc_ok(s, t):
    try:
        bshape(s, t)
        return True
    except Invalid:
        return False


def generate(seed, index, max_ops=8):
    rng = random.Random("graph-fuzz:%d:%d" % (seed, index))
    for _ in range(20):
        prog = Gen(rng).program(max_ops)
        if prog is not None and validate(prog):
            return prog
    raise RuntimeError("could not generate program %d" % index)


# ----------------------------------------------------------------------------
# Running graph-run
# ----------------------------------------------------------------------------

CONFIGS = [
    ("default", "prog.mlir", []),
    ("no-opt", "prog.mlir", ["--optimize=false"]),
    ("no-vec", "prog.mlir", ["--vectorize=false"]),
    ("dyn", "prog_dyn.mlir", ["--specialize-shapes=false"]),
    ("dyn-spec", "prog_dyn.mlir", []),
]


class Case:
    """A program written out: files, tolerances, command lines."""

    def __init__(self, prog, workdir):
        self.prog, self.dir = prog, workdir
        os.makedirs(workdir, exist_ok=True)
        self.static_text = print_program(prog, static_types(prog))
        dyn = dynamic_arg_types(prog)
        self.dyn_text = (print_program(prog, infer_all(prog, dyn))
                         if dyn is not None else None)
        with open(os.path.join(workdir, "prog.mlir"), "w") as f:
            f.write(self.static_text)
        if self.dyn_text:
            with open(os.path.join(workdir, "prog_dyn.mlir"), "w") as f:
                f.write(self.dyn_text)
        self.flags = []
        for i, n in enumerate(prog.args()):
            np.save(os.path.join(workdir, "in%d.npy" % i),
                    np.array(n.attrs["data"], order="C", copy=True))
            self.flags.append("--input=@in%d.npy" % i)
        self.notes = []
        atol = ATOL
        for i, v in enumerate(prog.outputs):
            if v.dtype == "f32":
                want = f32(v.data)
            elif v.dtype == "f16":
                want = v.data.astype(np.float16)
            else:
                want = v.data.astype(NP_INT.get(v.dtype, np.int32))
            np.save(os.path.join(workdir, "expected%d.npy" % i),
                    np.array(want, order="C", copy=True))
            self.flags.append("--expected-output=@expected%d.npy" % i)
            a, why = tolerance(v)
            if why:
                self.notes.append("result %d: %s" % (i, why))
            atol = max(atol, a)
        self.flags += ["--rtol=%g" % RTOL, "--atol=%g" % atol, "--quiet"]

    def configs(self):
        return [c for c in CONFIGS if self.dyn_text or c[1] == "prog.mlir"]

    def command(self, graph_run, cfg):
        _, fname, extra = cfg
        return [graph_run, fname] + self.flags + extra


def run_one(graph_run, case, cfg):
    """Returns None on success, else (kind, detail, log)."""
    cmd = case.command(graph_run, cfg)
    # The binaries may be being relinked: a missing or half-written
    # graph-run/libGraphOpt.so is waited for (30 s at a time), not reported.
    for attempt in range(BINARY_RETRIES + 1):
        try:
            p = subprocess.run(cmd, cwd=case.dir, capture_output=True,
                               text=True, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            return ("TIMEOUT", "no result after %d s" % RUN_TIMEOUT, "")
        except OSError as e:
            if attempt == BINARY_RETRIES:
                return ("ERROR", "cannot run graph-run: %s" % e, "")
            time.sleep(30)
            continue
        if p.returncode in (126, 127) or \
                "error while loading shared libraries" in p.stderr:
            if attempt < BINARY_RETRIES:
                time.sleep(30)
                continue
        break
    log = p.stdout + p.stderr
    if p.returncode < 0:
        try:
            sig = signal.Signals(-p.returncode).name
        except ValueError:
            sig = str(-p.returncode)
        return ("CRASH", "killed by %s" % sig, log)
    if p.returncode != 0:
        if "MISMATCH" in p.stderr:
            line = [l for l in p.stderr.splitlines() if "MISMATCH" in l][0]
            return ("MISMATCH", line.replace("graph-run: ", ""), log)
        errs = [l for l in p.stderr.splitlines() if "error" in l] or \
            p.stderr.splitlines() or ["exit %d" % p.returncode]
        kind = "CRASH" if p.returncode >= 128 or "Stack dump" in p.stderr \
            or "Assertion" in p.stderr else "ERROR"
        return (kind, "exit %d: %s" % (p.returncode, errs[0].strip()), log)
    matched = p.stdout.count("matches expected")
    if matched != len(case.prog.outputs):
        return ("BADOUT", "%d of %d results reported as matching"
                % (matched, len(case.prog.outputs)), log)
    return None


def run_case(graph_run, case, only=None):
    fails = []
    for cfg in case.configs():
        if only and cfg[0] not in only:
            continue
        res = run_one(graph_run, case, cfg)
        if res:
            fails.append((cfg, res))
    return fails


def write_repro(case, fails, graph_run, path):
    lines = ["#!/bin/sh", "# Reproduces the failing graph-run configurations.",
             'cd "$(dirname "$0")"',
             'GRAPH_RUN="${GRAPH_RUN:-%s}"' % graph_run]
    for cfg, (kind, detail, _) in fails:
        cmd = case.command("$GRAPH_RUN", cfg)
        lines.append("# %s: %s %s" % (cfg[0], kind, detail))
        lines.append(" ".join('"$GRAPH_RUN"' if c == "$GRAPH_RUN" else c
                              for c in cmd))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(path, 0o755)


def save_failure(case, fails, graph_run, dest):
    if os.path.exists(dest):
        shutil.rmtree(dest)
    shutil.copytree(case.dir, dest)
    write_repro(case, fails, graph_run, os.path.join(dest, "repro.sh"))
    with open(os.path.join(dest, "log.txt"), "w") as f:
        for cfg, (kind, detail, log) in fails:
            f.write("== %s: %s %s\n%s\n" % (cfg[0], kind, detail, log))
        for note in case.notes:
            f.write("note: %s\n" % note)


# ----------------------------------------------------------------------------
# Minimization
# ----------------------------------------------------------------------------

def signature(kind, detail):
    if kind == "ERROR":
        import re
        return (kind, re.sub(r"[0-9]+|%[a-z0-9_]+|tensor<[^>]*>", "#", detail))
    return (kind,)


def copy_program(prog):
    """A deep copy (new nodes and values), plus the old->new value map."""
    vmap, nodes = {}, []
    for n in prog.nodes:
        m = Node(n.op, [vmap[v] for v in n.ins], n.attrs, n.out.dtype, n.out.shape)
        vmap[n.out] = m.out
        nodes.append(m)
    return Program(nodes, [vmap[v] for v in prog.outputs]), vmap


def dce(prog):
    live = set()
    for v in prog.outputs:
        for n in PROG_NODES(v):
            live.add(id(n))
    prog.nodes = [n for n in prog.nodes if id(n) in live]
    return prog


def candidates(prog):
    """Smaller variants of prog, most aggressive first."""
    # Keep one result.
    if len(prog.outputs) > 1:
        for i in range(len(prog.outputs)):
            p, m = copy_program(prog)
            p.outputs = [p.outputs[i]]
            yield dce(p)
    ops = [i for i, n in enumerate(prog.nodes) if n.op not in ("arg", "const")]
    # Return an earlier value instead.
    for i in ops:
        n = prog.nodes[i]
        if n.out.dtype in ("i1", "bf16") or n.out in prog.outputs:
            continue
        for j in range(len(prog.outputs)):
            p, m = copy_program(prog)
            p.outputs[j] = m[n.out]
            yield dce(p)
    # Bypass an op: replace its result by an operand of the same type.
    for i in ops:
        n = prog.nodes[i]
        for v in n.ins:
            if v.dtype == n.out.dtype and v.shape == n.out.shape:
                p, m = copy_program(prog)
                yield dce(replace_uses(p, m[n.out], m[v]))
    # Cut: an op's result becomes an argument (or a constant) holding its data.
    for i in ops:
        n = prog.nodes[i]
        if n.out.dtype in ("i1",) + HALF:
            continue
        for as_const in (False, True):
            p, m = copy_program(prog)
            data = (f32(n.out.data) if n.out.dtype == "f32"
                    else n.out.data.astype(NP_INT[n.out.dtype]))
            if as_const:
                new = Node("const", [], {"data": data, "splat": False},
                           n.out.dtype, n.out.shape)
                p.nodes.insert(p.nodes.index(m[n.out].node), new)
            else:
                new = Node("arg", [], {"data": data}, n.out.dtype, n.out.shape)
                p.nodes.insert(0, new)
            yield dce(replace_uses(p, m[n.out], new.out))


def replace_uses(prog, old, new):
    for n in prog.nodes:
        n.ins = [new if v is old else v for v in n.ins]
    prog.outputs = [new if v is old else v for v in prog.outputs]
    return prog


def size(prog):
    return (sum(1 for n in prog.nodes if n.op not in ("arg", "const")),
            len(prog.nodes), len(prog.outputs))


def minimize(prog, cfg_name, sig, graph_run, workdir, log=print):
    """Greedy reduction keeping `cfg_name` failing with signature `sig`."""
    best = prog
    tries = 0
    changed = True
    while changed:
        changed = False
        for cand in candidates(best):
            if size(cand) >= size(best):
                continue
            if not validate(cand):
                continue
            try:
                static_types(cand)
            except (Invalid, AssertionError):
                continue
            tries += 1
            d = os.path.join(workdir, "try%d" % tries)
            try:
                case = Case(cand, d)
            except Exception:
                shutil.rmtree(d, ignore_errors=True)
                continue
            cfgs = [c for c in case.configs() if c[0] == cfg_name]
            res = run_one(graph_run, case, cfgs[0]) if cfgs else None
            shutil.rmtree(d, ignore_errors=True)
            if res and signature(res[0], res[1]) == sig:
                best = cand
                changed = True
                break
    log("  minimized in %d tries to %d ops" % (tries, size(best)[0]))
    return best


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------

def fuzz_one(args, index, graph_run, tmproot):
    prog = generate(args.seed, index, args.max_ops)
    work = os.path.join(tmproot, str(index))
    case = Case(prog, work)
    fails = run_case(graph_run, case)
    return index, case, fails


def main(argv):
    # Background jobs of non-interactive shells start with SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--build", default=os.path.join(here, "..", "build"),
                    help="graphopt build directory (bin/graph-run)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory of every program")
    ap.add_argument("--out", default="fuzz-failures",
                    help="where failing programs are saved (OUT/N/)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", type=int, default=None,
                    help="run only program number I of the seed")
    ap.add_argument("--minimize", action="store_true",
                    help="shrink each failing program (saved in OUT/N/min/)")
    ap.add_argument("--max-ops", type=int, default=8,
                    help="programs have 1 to this many generated ops")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--zero-dims", type=float, default=0.0, metavar="P",
                    help="make each generated dim 0 with probability P "
                         "(zero-size tensors; default 0)")
    ap.add_argument("--small-ints", type=float, default=0.0, metavar="P",
                    help="probability that an integer argument, cast or "
                         "matmul is i8, i16, ui8 or ui16 (default 0: the "
                         "programs of a seed stay as they were)")
    ap.add_argument("--images", type=float, default=0.3, metavar="P",
                    help="probability that a program works on an NCHW "
                         "image (default %(default)s)")
    ap.add_argument("--weight", action="append", default=[],
                    metavar="GEN=W",
                    help="weight of an op generator (%s; e.g. conv=100 to "
                         "test mostly convolutions)"
                         % ", ".join("%s=%d" % gw for gw in Gen.GENS))
    args = ap.parse_args(argv[1:])
    global ZERO_DIM_P, IMAGE_P, SMALL_INT_P
    ZERO_DIM_P = args.zero_dims
    IMAGE_P = args.images
    SMALL_INT_P = args.small_ints
    for item in args.weight:
        name, _, value = item.partition("=")
        if name not in dict(Gen.GENS) or not value.isdigit():
            ap.error("--weight %s: expected GEN=W with GEN one of %s"
                     % (item, ", ".join(g for g, _ in Gen.GENS)))
        GEN_WEIGHTS[name] = int(value)

    graph_run = os.path.abspath(os.path.join(args.build, "bin", "graph-run"))
    if not os.path.exists(graph_run):
        time.sleep(30)
    if not os.path.exists(graph_run):
        print("fuzz_graph.py: no graph-run at %s" % graph_run, file=sys.stderr)
        return 2
    tmproot = tempfile.mkdtemp(prefix="graph-fuzz-")
    indices = [args.only] if args.only is not None else list(range(args.count))
    passed = failed = 0
    runs = 0
    opcount = {}
    ex = concurrent.futures.ThreadPoolExecutor(max(1, args.jobs))
    futs = [ex.submit(fuzz_one, args, i, graph_run, tmproot) for i in indices]
    try:
        for fut in futs:
            index, case, fails = fut.result()
            runs += len(case.configs())
            for n in case.prog.nodes:
                key = n.op
                if n.op == "gelu":
                    key = "gelu-" + n.attrs["approx"]
                elif n.op == "reduce":
                    key = "reduce-" + n.attrs["kind"]
                elif n.op == "cast":
                    key = "cast-" + n.ins[0].dtype + "-" + n.out.dtype
                opcount[key] = opcount.get(key, 0) + 1
            for note in case.notes:
                print("program %d: %s" % (index, note))
            if not fails:
                passed += 1
                if args.verbose:
                    print("program %d: ok (%d configs)" % (index, len(case.configs())))
                if not args.keep:
                    shutil.rmtree(case.dir, ignore_errors=True)
                continue
            failed += 1
            dest = os.path.join(args.out, str(index))
            save_failure(case, fails, graph_run, dest)
            kinds = ", ".join("%s %s" % (cfg[0], kind)
                              for cfg, (kind, _, _) in fails)
            print("FAIL program %d (%s): %s; saved in %s"
                  % (index, kinds, fails[0][1][1], dest))
            if args.minimize:
                cfg, (kind, detail, _) = fails[0]
                small = minimize(case.prog, cfg[0], signature(kind, detail),
                                 graph_run, os.path.join(tmproot, "min%d" % index))
                mcase = Case(small, os.path.join(tmproot, "m%d" % index))
                mf = run_case(graph_run, mcase, only=[cfg[0]])
                if mf:
                    save_failure(mcase, mf, graph_run, os.path.join(dest, "min"))
                    print("  minimized reproducer in %s"
                          % os.path.join(dest, "min"))
            if not args.keep:
                shutil.rmtree(case.dir, ignore_errors=True)
    except KeyboardInterrupt:
        # Ctrl-C (or SIGINT): the programs finished so far are counted and
        # reported; a campaign's tally stays honest when it is cut short.
        for fut in futs:
            fut.cancel()
        print("interrupted after %d programs (in order: 0 to %d)"
              % (passed + failed, passed + failed - 1), flush=True)
    # The programs in flight finish before their work directories go.
    ex.shutdown(wait=True, cancel_futures=True)
    if args.keep:
        print("work directories kept in %s" % tmproot)
    else:
        shutil.rmtree(tmproot, ignore_errors=True)
    print("ops: " + " ".join("%s=%d" % kv for kv in sorted(opcount.items())))
    print("%d graph-run invocations" % runs)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
