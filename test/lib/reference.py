#!/usr/bin/env python3
"""Independent NumPy reference for the execution tests in test/Integration.

    reference.py CASE OUTDIR     write OUTDIR/x0.npy, x1.npy, ... (inputs) and
                                 OUTDIR/expected.npy, expected1.npy, ...
    reference.py --list          print the case names

Every case draws its inputs from a NumPy generator with a fixed seed (derived
from the case name, so adding a case never changes another case's data) and
computes the expected results with NumPy alone: nothing here runs graphopt.

Conventions, following the op specifications in GraphOps.td:
  * f32 results are computed in float64 and rounded once to float32;
  * f16 and bf16 ops compute in f32 (as PyTorch does on the CPU, and as the
    lowering documents), so the reference widens the f16/bf16 inputs to f32,
    computes in f32 (transcendental functions: in float64, rounded to f32)
    and rounds the result to f16/bf16;
  * integer ops wrap (two's complement); integer division truncates toward
    zero, x / 0 = 0 and INT_MIN / -1 = INT_MIN.
NumPy has no bf16: bf16 values travel as f32 holding bf16-representable
numbers (graph-run converts an f32 expected file to the result dtype).
"""

import importlib.util
import math
import os
import sys
import zlib

import numpy as np

F32, F16, I32, I64 = np.float32, np.float16, np.int32, np.int64
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CASES = {}


def case(fn):
    """Registers `fn(rng) -> (inputs, outputs)` under its name, less any
    `case_` prefix (which keeps names such as abs from shadowing builtins)."""
    CASES[fn.__name__.removeprefix("case_")] = fn
    return fn


# ----------------------------------------------------------------------------
# Helpers
# ----------------------------------------------------------------------------

def uniform(rng, shape, lo=-2.0, hi=2.0, dtype=F32):
    return np.asarray(rng.uniform(lo, hi, shape)).astype(dtype)


def nonzero(rng, shape, lo=0.5, hi=2.0):
    """f32 values with |v| in [lo, hi) and a random sign (safe divisors)."""
    mag = rng.uniform(lo, hi, shape)
    sign = np.where(rng.integers(0, 2, shape) == 1, 1.0, -1.0)
    return np.asarray(mag * sign).astype(F32)


def ints(rng, shape, lo, hi, dtype=I32):
    return np.asarray(rng.integers(lo, hi, shape, endpoint=True)).astype(dtype)


def f64(x):
    return np.asarray(x, dtype=np.float64)


def as_f32(x):
    return np.asarray(x, dtype=np.float64).astype(F32)


def bf16_round(x):
    """Rounds float32 values to the nearest bf16 (ties to even), as f32."""
    x = np.array(x, dtype=F32, order="C")
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = rounded.astype(np.uint32).view(F32)
    return np.where(np.isnan(x), x, out).astype(F32)


def wrap(values, dtype):
    """Python ints (any size) wrapped to a two's-complement integer dtype."""
    bits = np.iinfo(dtype).bits
    flat = [((int(v) + (1 << (bits - 1))) % (1 << bits)) - (1 << (bits - 1))
            for v in np.asarray(values, dtype=object).ravel()]
    return np.array(flat, dtype=dtype).reshape(np.shape(values))


def int_binary(a, b, op, dtype):
    """Applies `op` to broadcast integer tensors with exact Python ints."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    out = [op(int(x), int(y)) for x, y in zip(a.ravel(), b.ravel())]
    return wrap(np.array(out, dtype=object).reshape(a.shape), dtype)


def cdiv(x, y):
    """C division: truncates toward zero; x / 0 is defined as 0."""
    if y == 0:
        return 0
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(f64(x))


def gelu_erf(x):
    x = f64(x)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def gelu_tanh(x):
    x = f64(x)
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) *
                                    (x + 0.044715 * x ** 3)))


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-f64(x)))


def softmax(x, axis):
    x = f64(x)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def load_simple_model_weights():
    path = os.path.join(ROOT, "examples", "gen_simple_model.py")
    spec = importlib.util.spec_from_file_location("gen_simple_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [f64(w) for w in module.weights()]


# ----------------------------------------------------------------------------
# The seed examples (examples/*.mlir)
# ----------------------------------------------------------------------------

@case
def matmul_add(rng):
    x, y = uniform(rng, (128, 128), -1, 1), uniform(rng, (128, 128), -1, 1)
    return [x, y], [as_f32(f64(x) @ f64(y) + f64(x))]


@case
def simple_model(rng):
    w1, b1, w2, b2 = load_simple_model_weights()
    x = uniform(rng, (4, 10), -1, 1)
    h = np.maximum(f64(x) @ w1.T + b1, 0.0)
    return [x], [as_f32(h @ w2.T + b2)]


@case
def simple_model_leaky(rng):
    """SimpleModel after the seed's fx rewrite: ReLU -> LeakyReLU(0.01)."""
    w1, b1, w2, b2 = load_simple_model_weights()
    x = uniform(rng, (4, 10), -1, 1)
    h = f64(x) @ w1.T + b1
    h = np.where(h > 0, h, 0.01 * h)
    return [x], [as_f32(h @ w2.T + b2)]


# ----------------------------------------------------------------------------
# fusion kernels (fusion.mlir): definitions written out in NumPy
# ----------------------------------------------------------------------------

def sdpa(q, k, v, mask=None, causal=False, scale=None):
    q, k, v = f64(q), f64(k), f64(v)
    scale = 1.0 / np.sqrt(q.shape[-1]) if scale is None else scale
    s = q @ np.swapaxes(k, -1, -2) * scale
    if mask is not None:
        s = np.where(mask, s, -np.inf) if mask.dtype == np.bool_ else s + f64(mask)
    if causal:
        L, S = s.shape[-2:]
        s = np.where(np.tril(np.ones((L, S), dtype=bool)), s, -np.inf)
    return softmax(s, -1) @ v


@case
def attention_custom_kernel(rng):
    """softmax(q k^T / sqrt(8)) v, [1, 2, 16, 8]: the seed's attention, run
    through a user C kernel (examples/kernels/scaled_attention.c)."""
    q, k, v = (uniform(rng, (1, 2, 16, 8)) for _ in range(3))
    return [q, k, v], [as_f32(sdpa(q, k, v))]


@case
def attention_masked(rng):
    q, k = uniform(rng, (2, 4, 8)), uniform(rng, (2, 6, 8))
    v = uniform(rng, (2, 6, 5))
    mask = rng.random((4, 6)) < 0.7
    mask[:, 0] = True  # every row keeps one position
    return [q, k, v, mask], [as_f32(sdpa(q, k, v, mask=mask))]


@case
def attention_causal(rng):
    q, k, v = (uniform(rng, (2, 5, 8)) for _ in range(3))
    return [q, k, v], [as_f32(sdpa(q, k, v, causal=True, scale=0.25))]


# flash-attention.mlir: the flash lowering of fusion.attention, with block
# edges (L and S not multiples of the 64x64 blocks), masks that empty whole
# blocks of a row, fully masked rows (NaN, as softmax over -inf only gives),
# broadcast batch dims, causal with L < S and L > S, and f16.

def bool_mask(rng, shape, keep=0.6):
    return rng.random(shape) < keep


@case
def flash_plain(rng):
    q, k, v = (uniform(rng, (2, 3, 128, 64), -1, 1) for _ in range(3))
    return [q, k, v], [as_f32(sdpa(q, k, v))]


@case
def flash_causal_odd(rng):
    # L = 77 < S = 130: two query blocks of 40 rows, three key blocks of 48.
    q = uniform(rng, (2, 3, 77, 16))
    k, v = uniform(rng, (2, 3, 130, 16)), uniform(rng, (2, 3, 130, 8))
    return [q, k, v], [as_f32(sdpa(q, k, v, causal=True))]


@case
def flash_causal_tall(rng):
    # L = 150 > S = 70: rows past S see every key.
    q = uniform(rng, (4, 150, 32))
    k, v = uniform(rng, (4, 70, 32)), uniform(rng, (4, 70, 16))
    return [q, k, v], [as_f32(sdpa(q, k, v, causal=True, scale=0.3))]


@case
def flash_bool_mask(rng):
    q = uniform(rng, (2, 2, 70, 32))
    k, v = uniform(rng, (2, 2, 150, 32)), uniform(rng, (2, 2, 150, 16))
    mask = bool_mask(rng, (70, 150))
    mask[3, :] = False     # fully masked: NaN
    mask[5, :100] = False  # masked in the first key blocks only
    mask[9, :] = False
    mask[9, 149] = True    # only the last (padded) key block
    return [q, k, v, mask], [as_f32(sdpa(q, k, v, mask=mask))]


@case
def flash_float_mask(rng):
    q = uniform(rng, (3, 77, 16))
    k, v = uniform(rng, (3, 130, 16)), uniform(rng, (3, 130, 24))
    mask = uniform(rng, (3, 77, 130), -4, 4)
    mask[:, :, :64] = -np.inf       # the first key blocks of every row
    # Row 10: scores exactly -1000 (a zero query row), far below the 0 an
    # online softmax may not clamp m to: exp(-1000) underflows.
    q[:, 10, :] = 0
    mask[:, 10, 64:] = -1000.0
    mask[:, 11, :] = -np.inf        # fully masked: NaN
    return [q, k, v, mask], [as_f32(sdpa(q, k, v, mask=mask, scale=0.5))]


@case
def flash_broadcast(rng):
    # Keys and values shared by 4 heads, a key-padding mask per batch.
    q = uniform(rng, (2, 4, 90, 32))
    k, v = uniform(rng, (2, 1, 200, 32)), uniform(rng, (2, 1, 200, 32))
    mask = np.ones((2, 1, 1, 200), dtype=bool)
    mask[0, :, :, 150:] = False
    return [q, k, v, mask], [as_f32(sdpa(q, k, v, mask=mask))]


@case
def flash_f16(rng):
    q, k, v = (uniform(rng, (2, 100, 32), -1, 1, F16) for _ in range(3))
    return [q, k, v], [sdpa(q, k, v, causal=True).astype(F16)]


@case
def linear_gelu(rng):
    x, w, b = uniform(rng, (3, 10)), uniform(rng, (20, 10)), uniform(rng, (20,))
    return [x, w, b], [as_f32(gelu_erf(f64(x) @ f64(w).T + f64(b)))]


# ----------------------------------------------------------------------------
# Elementwise binary ops with broadcasting (elementwise-binary.mlir)
# ----------------------------------------------------------------------------

@case
def add_row(rng):
    a, b = uniform(rng, (4, 3)), uniform(rng, (3,))
    return [a, b], [as_f32(f64(a) + f64(b))]


@case
def sub_outer(rng):
    a, b = uniform(rng, (4, 1)), uniform(rng, (3,))
    return [a, b], [as_f32(f64(a) - f64(b))]


@case
def mul_scalar(rng):
    a, b = uniform(rng, (2, 3, 4)), uniform(rng, ())
    return [a, b], [as_f32(f64(a) * f64(b))]


@case
def div_col(rng):
    a, b = uniform(rng, (4, 3)), nonzero(rng, (4, 1))
    return [a, b], [as_f32(f64(a) / f64(b))]


@case
def div_scalar_lhs(rng):
    a, b = uniform(rng, ()), nonzero(rng, (5,))
    return [a, b], [as_f32(f64(a) / f64(b))]


@case
def max_3d(rng):
    a, b = uniform(rng, (2, 1, 4)), uniform(rng, (3, 1))
    return [a, b], [as_f32(np.maximum(f64(a), f64(b)))]


@case
def min_same(rng):
    a, b = uniform(rng, (3, 4)), uniform(rng, (3, 4))
    return [a, b], [as_f32(np.minimum(f64(a), f64(b)))]


@case
def pow_row(rng):
    a, b = uniform(rng, (4, 3), 0.25, 4.0), uniform(rng, (3,), -2.0, 2.0)
    return [a, b], [as_f32(f64(a) ** f64(b))]


@case
def pow_const(rng):
    a = uniform(rng, (9,), 0.25, 4.0)
    x = f64(a)
    return [a], [as_f32(x ** 2), as_f32(np.sqrt(x)), as_f32(1 / np.sqrt(x)),
                 as_f32(x ** 3)]


@case
def add_neg(rng):
    a, b = uniform(rng, (2, 5)), uniform(rng, (5,))
    return [a, b], [as_f32(f64(a) - f64(b)), as_f32(f64(b) - f64(a))]


@case
def add_big(rng):
    a, b = uniform(rng, (33, 65)), uniform(rng, (65,))
    return [a, b], [as_f32(f64(a) + f64(b))]


# ----------------------------------------------------------------------------
# Elementwise unary ops (elementwise-unary.mlir), shape 3x37 so vector code
# has a remainder
# ----------------------------------------------------------------------------

UNARY_SHAPE = (3, 37)


def unary(rng, fn, lo=-5.0, hi=5.0):
    x = uniform(rng, UNARY_SHAPE, lo, hi)
    return [x], [as_f32(fn(f64(x)))]


@case
def case_neg(rng):
    return unary(rng, lambda x: -x)


@case
def case_abs(rng):
    return unary(rng, np.abs)


@case
def case_relu(rng):
    return unary(rng, lambda x: np.maximum(x, 0.0))


@case
def case_exp(rng):
    return unary(rng, np.exp, -20.0, 20.0)


@case
def case_log(rng):
    return unary(rng, np.log, 0.01, 100.0)


@case
def case_sqrt(rng):
    return unary(rng, np.sqrt, 0.01, 100.0)


@case
def case_rsqrt(rng):
    return unary(rng, lambda x: 1.0 / np.sqrt(x), 0.01, 100.0)


@case
def case_tanh(rng):
    return unary(rng, np.tanh)


@case
def case_sigmoid(rng):
    return unary(rng, sigmoid, -10.0, 10.0)


@case
def case_silu(rng):
    return unary(rng, lambda x: x * sigmoid(x), -10.0, 10.0)


@case
def case_gelu(rng):
    return unary(rng, gelu_erf)


@case
def case_gelu_tanh(rng):
    return unary(rng, gelu_tanh)


# ----------------------------------------------------------------------------
# compare and select (compare-select.mlir)
# ----------------------------------------------------------------------------

def small_int_floats(rng, shape):
    """Integers in [-2, 2] as f32: comparisons see many ties."""
    return ints(rng, shape, -2, 2).astype(F32)


@case
def compare_f32(rng):
    a, b = small_int_floats(rng, (4, 6)), small_int_floats(rng, (6,))
    x, y = f64(a), f64(b)
    return [a, b], [x == y, x != y, x < y, x <= y, x > y, x >= y]


@case
def compare_i32(rng):
    a, b = ints(rng, (5, 1), -3, 3), ints(rng, (4,), -3, 3)
    return [a, b], [a == b, a != b, a < b, a <= b, a > b, a >= b]


@case
def select_bcast(rng):
    cond = rng.integers(0, 2, (4, 1)).astype(bool)
    t, f = uniform(rng, (4, 3)), uniform(rng, ())
    return [cond, t, f], [np.where(cond, t, f).astype(F32)]


@case
def select_from_compare(rng):
    a, b = uniform(rng, (3, 8)), uniform(rng, (3, 8))
    # where(a > b, a - b, b * 2)
    x, y = f64(a), f64(b)
    return [a, b], [as_f32(np.where(x > y, x - y, y * 2.0))]


# ----------------------------------------------------------------------------
# cast (cast.mlir)
# ----------------------------------------------------------------------------

@case
def cast_f32_i32(rng):
    x = np.concatenate([
        uniform(rng, (20,), -100.0, 100.0),
        np.array([-0.5, 0.5, -1.0, 1.0, 2.999, -2.999, 0.0, -0.0, 1e6 + 0.5,
                  -1e6 - 0.5, 2147483520.0, -2147483648.0], dtype=F32)])
    return [x], [np.trunc(f64(x)).astype(I32)]


@case
def cast_i32_f32(rng):
    x = np.concatenate([
        ints(rng, (20,), -1000, 1000),
        np.array([16777216, 16777217, 16777219, -16777217, 2147483647,
                  -2147483648], dtype=I32)])
    # float32 conversion rounds to nearest even, as sitofp does.
    return [x], [x.astype(F32)]


@case
def cast_f16_round_trip(rng):
    x = np.concatenate([
        uniform(rng, (20,), -1000.0, 1000.0),
        uniform(rng, (6,), -1e-3, 1e-3),
        # f16 subnormals, the smallest normal, the largest finite value and
        # halfway cases between f16 neighbours.
        np.array([6e-8, 3e-6, -5.5e-5, 6.103515625e-05, 65504.0, -65504.0,
                  1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 2049.0, 0.0, -0.0],
                 dtype=F32)])
    return [x], [x.astype(F16), x.astype(F16).astype(F32)]


@case
def cast_bf16_round_trip(rng):
    x = np.concatenate([
        uniform(rng, (20,), -1000.0, 1000.0),
        np.array([1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8, 3.0e38, -1e-30, 0.0],
                 dtype=F32)])
    return [x], [bf16_round(x)]


@case
def cast_to_i1(rng):
    x = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 1e-30, np.nan, 3.0], dtype=F32)
    y = np.array([0, 1, -1, 7, 0, -2147483648, 2, 0], dtype=I32)
    return [x, y], [x != 0, y != 0]


@case
def cast_from_i1(rng):
    b = rng.integers(0, 2, (9,)).astype(bool)
    return [b], [b.astype(F32), b.astype(I32)]


@case
def bitcast(rng):
    # The bits as the other type (NumPy's view): f32 -> i32 with -0.0, inf,
    # NaN and a subnormal; i64 -> f64; i1 -> ui8 as bytes 0 and 1.
    x = np.concatenate([uniform(rng, (8,), -100.0, 100.0),
                        np.array([-0.0, np.inf, -np.inf, np.nan, 1e-45], dtype=F32)])
    y = np.array([0, 1, -1, 4607182418800017408, -4616189618054758400,
                  9218868437227405312], dtype=I64)
    b = rng.integers(0, 2, (7,)).astype(bool)
    return [x, y, b], [x.view(I32), y.view(np.float64), b.view(np.uint8)]


@case
def cast_int_widths(rng):
    x = np.concatenate([ints(rng, (10,), -1000, 1000),
                        np.array([-2147483648, 2147483647, -1], dtype=I32)])
    y = np.array([2 ** 31, 2 ** 32 + 5, -(2 ** 31) - 1, 3 * 2 ** 40 + 7, -5,
                  123], dtype=I64)
    return [x, y], [x.astype(I64), wrap(y, I32)]


# ----------------------------------------------------------------------------
# matmul (matmul.mlir), torch.matmul semantics
# ----------------------------------------------------------------------------

def matmul_case(rng, lshape, rshape, dtype=F32, scale=1.0):
    if dtype == I32:
        a, b = ints(rng, lshape, -8, 8), ints(rng, rshape, -8, 8)
        return [a, b], [np.matmul(a.astype(I64), b.astype(I64)).astype(I32)]
    a, b = uniform(rng, lshape, -scale, scale), uniform(rng, rshape, -scale, scale)
    return [a, b], [as_f32(np.matmul(f64(a), f64(b)))]


@case
def mm_2d(rng):
    return matmul_case(rng, (5, 7), (7, 3))


@case
def mm_odd(rng):
    return matmul_case(rng, (33, 17), (17, 29))


@case
def mm_vv(rng):
    return matmul_case(rng, (7,), (7,))


@case
def mm_vm(rng):
    return matmul_case(rng, (7,), (7, 3))


@case
def mm_mv(rng):
    return matmul_case(rng, (5, 7), (7,))


@case
def mm_bmm(rng):
    return matmul_case(rng, (2, 5, 7), (2, 7, 3))


@case
def mm_bcast_batch(rng):
    return matmul_case(rng, (2, 1, 5, 7), (3, 7, 3))


@case
def mm_3d2d(rng):
    return matmul_case(rng, (2, 5, 7), (7, 3))


@case
def mm_2d3d(rng):
    return matmul_case(rng, (5, 7), (2, 7, 3))


@case
def mm_3d1d(rng):
    return matmul_case(rng, (2, 5, 7), (7,))


@case
def mm_1d3d(rng):
    return matmul_case(rng, (7,), (2, 7, 3))


@case
def mm_large(rng):
    # Inputs in [-0.5, 0.5): results O(1), and the f32 rounding error of the
    # 129-term sums (~1e-6 at worst) stays well inside atol 1e-5.
    return matmul_case(rng, (67, 129), (129, 45), scale=0.5)


# Matmuls large enough for packed operands and cache blocking
# (test/Integration/matmul-packed.mlir). Inputs in [-0.5, 0.5): the sums of
# 1030-2048 terms are O(5), and f32 accumulation in blocked order differs
# from the float64 reference by ~1e-5 (4e-5 worst seen), inside the tests'
# atol/rtol of 2e-4; an indexing error is O(1).
@case
def mm_packed(rng):
    return matmul_case(rng, (512, 2048), (2048, 256), scale=0.5)


@case
def mm_packed_odd(rng):
    # M = 300 (register rows 6), K = 1030 = 2 x 515, N = 200 = 192 + 8.
    return matmul_case(rng, (300, 1030), (1030, 200), scale=0.5)


@case
def mm_packed_wide(rng):
    # K = 768: two reduction blocks of 384 (48 KiB L1); N = 2048: column
    # blocks of 512 (2 MiB L2), so the zeroing of the first block, the
    # accumulation of the second and the column-block offsets all run.
    return matmul_case(rng, (128, 768), (768, 2048), scale=0.5)


@case
def mm_packed_bias_relu(rng):
    # Output-fused group (256 x 256 tiles): B is sliced per tile and packed
    # once, outside the tile loops.
    x = uniform(rng, (512, 1024), -0.5, 0.5)
    w = uniform(rng, (1024, 768), -0.5, 0.5)
    b = uniform(rng, (768,), -0.5, 0.5)
    return [x, w, b], [as_f32(np.maximum(f64(x) @ f64(w) + f64(b), 0))]


@case
def mm_bmm_large(rng):
    return matmul_case(rng, (3, 37, 19), (3, 19, 23))


@case
def mm_i32(rng):
    return matmul_case(rng, (4, 5), (5, 3), I32)


# ----------------------------------------------------------------------------
# Shape ops (shape.mlir)
# ----------------------------------------------------------------------------

def iota(shape, dtype=F32):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


@case
def transpose3d(rng):
    x = uniform(rng, (2, 3, 4))
    return [x], [np.transpose(x, (2, 0, 1))]


@case
def transpose_twice(rng):
    x = uniform(rng, (2, 3, 4))
    return [x], [np.transpose(np.transpose(x, (1, 2, 0)), (1, 2, 0))]


@case
def transpose_i64(rng):
    x = ints(rng, (3, 5), -(2 ** 40), 2 ** 40, I64)
    return [x], [x.T.copy()]


# Byte transposes in 16 x 16 register tiles (NCHW <-> NHWC of an int8
# image, as the int8 convolutions relayout): uint8 and int8, exact.
@case
def transpose_bytes(rng):
    x = rng.integers(0, 256, (2, 32, 8, 16)).astype(np.uint8)
    y = rng.integers(-128, 128, (1, 16, 48, 32)).astype(np.int8)
    return [x, y], [np.transpose(x, (0, 2, 3, 1)).copy(),
                    np.transpose(y, (0, 3, 1, 2)).copy()]


@case
def transpose_big(rng):
    x, y = uniform(rng, (17, 33)), uniform(rng, (5, 17, 9))
    return [x, y], [x.T.copy(), np.transpose(y, (1, 2, 0)).copy()]


@case
def case_reshape(rng):
    x = uniform(rng, (2, 3, 4))
    return [x], [x.reshape(4, 6), x.reshape(-1), x.reshape(2, 4, 3)]


@case
def reshape_scalar(rng):
    x = uniform(rng, (1, 1))
    return [x], [x.reshape(()), x.reshape(()).reshape(1, 1, 1)]


@case
def case_broadcast_to(rng):
    a, b = uniform(rng, (3,)), uniform(rng, (3, 1))
    return [a, b], [np.broadcast_to(a, (4, 3)), np.broadcast_to(b, (2, 3, 4)),
                    np.broadcast_to(b, (2, 3, 5)), np.broadcast_to(a, (2, 5, 3))]


@case
def case_concat(rng):
    a, b = uniform(rng, (2, 3)), uniform(rng, (4, 3))
    c, d = uniform(rng, (2, 1)), uniform(rng, (2, 4))
    return [a, b, c, d], [np.concatenate([a, b], 0),
                          np.concatenate([a, c, d], 1)]


@case
def case_slice(rng):
    x = iota((6, 8)) + uniform(rng, (6, 8), 0, 0.5)
    y = uniform(rng, (4, 5, 6))
    return [x, y], [x[1:6:2, 0:7:3], x[2:4, :], y[1:4:2, 0:5:4, 1:6:2]]


# ----------------------------------------------------------------------------
# Reductions and softmax (reduce.mlir, softmax.mlir)
# ----------------------------------------------------------------------------

@case
def reduce_f32(rng):
    x = uniform(rng, (3, 4, 5))
    v = f64(x)
    return [x], [as_f32(v.sum(axis=1)),
                 as_f32(v.mean(axis=(0, 2))),
                 as_f32(v.max(axis=0, keepdims=True)),
                 as_f32(v.min(axis=(0, 1), keepdims=True)),
                 as_f32(v.sum()),
                 as_f32(v.mean(axis=(0, 1, 2), keepdims=True)),
                 as_f32(v.max(axis=1, keepdims=True)),
                 as_f32(v.min(axis=2))]


@case
def reduce_long(rng):
    # Long rows of positive values: the f32 accumulation error stays far
    # below rtol 1e-5 (no cancellation).
    x = uniform(rng, (16, 300), 0.0, 1.0)
    v = f64(x)
    return [x], [as_f32(v.sum(axis=1)), as_f32(v.mean(axis=0)),
                 as_f32(v.max(axis=1))]


@case
def reduce_all_large(rng):
    # Whole-tensor reductions of 64,000 and 24,000 elements (the CUDA target
    # splits them into rows of partial values; the CPU into vector lanes).
    # Positive f32 values: the accumulation error of either order stays
    # below rtol 1e-4 of the float64 sum; max, min and the i32 sum are exact.
    x = uniform(rng, (64, 1000), 0.0, 1.0)
    n = ints(rng, (40, 30, 20), -1000, 1000)
    v = f64(x)
    return [x, n], [as_f32(v.sum()), as_f32(v.mean()), as_f32(v.max()),
                    as_f32(v.min(keepdims=True)),
                    np.asarray(n.astype(I64).sum()).astype(I32)]


@case
def reduce_i32(rng):
    x = ints(rng, (4, 6), -100, 100)
    v = x.astype(I64)
    return [x], [v.sum(axis=1).astype(I32), v.max(axis=0).astype(I32),
                 v.min(axis=(0, 1), keepdims=True).astype(I32)]


@case
def softmax_axis1(rng):
    x = uniform(rng, (4, 10), -3, 3)
    return [x], [as_f32(softmax(x, 1))]


@case
def softmax_axis0(rng):
    x = uniform(rng, (5, 3), -3, 3)
    return [x], [as_f32(softmax(x, 0))]


@case
def softmax_3d(rng):
    x = uniform(rng, (2, 5, 3), -3, 3)
    return [x], [as_f32(softmax(x, 1)), as_f32(softmax(x, 2))]


@case
def softmax_large(rng):
    # exp(x) alone would overflow f32: only the max-subtracted form works.
    x = uniform(rng, (3, 8), -200, 200)
    return [x], [as_f32(softmax(x, 1))]


@case
def softmax_wide(rng):
    x = uniform(rng, (7, 1000), -5, 5)
    return [x], [as_f32(softmax(x, 1))]


# ----------------------------------------------------------------------------
# Integer arithmetic (integer.mlir)
# ----------------------------------------------------------------------------

INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1
INT64_MIN = -(2 ** 63)


def i32_operands(rng):
    a = np.concatenate([ints(rng, (12,), -50, 50),
                        np.array([INT32_MAX, INT32_MIN, INT32_MIN, 7, -7, 7, -7,
                                  0, 65536, -65536], dtype=I32)])
    b = np.concatenate([ints(rng, (12,), -9, 9),
                        np.array([1, -1, 1, 2, 2, -2, -2, 5, 65536, 65537],
                                 dtype=I32)])
    return a, b


I8 = np.int8


def bits_of(a, s, op, dtype):
    """Bitwise ops and shifts on broadcast integer tensors with exact Python
    ints, wrapped to `dtype` (signed or unsigned): shifts by an amount
    outside [0, bits) give the sign fill (-1 for a right shift of a
    negative value) or 0, as graph.shift_left/shift_right (ONNX BitShift
    since opset 28, eager PyTorch) define them."""
    info = np.iinfo(dtype)
    bits, signed = info.bits, info.min < 0
    a, s = np.broadcast_arrays(np.asarray(a), np.asarray(s))

    def one(x, y):
        if op == "and":
            r = x & y
        elif op == "or":
            r = x | y
        elif op == "xor":
            r = x ^ y
        elif not 0 <= y < bits:
            r = -1 if (op == "shr" and x < 0) else 0
        elif op == "shl":
            r = x << y
        else:
            r = x >> y  # Python's >> is arithmetic
        r &= (1 << bits) - 1
        return r - (1 << bits) if signed and r >= 1 << (bits - 1) else r
    out = [one(int(x), int(y)) for x, y in zip(a.ravel(), s.ravel())]
    return np.array(out, dtype=dtype).reshape(a.shape)


@case
def bitwise_ops(rng):
    x = np.concatenate([ints(rng, (10,), -1000, 1000),
                        np.array([INT32_MIN, INT32_MAX, -1, 0, 0x5555, -0x5556],
                                 dtype=I32)]).reshape(2, 8)
    y = np.concatenate([ints(rng, (6,), -1000, 1000),
                        np.array([INT32_MIN, -1], dtype=I32)])
    u = np.array([0, 1, 0x0F, 0xF0, 0xFF, 0xAA, 0x55, 200], dtype=np.uint8)
    v = np.array([0xFF, 0x80, 0x3C, 0x0F, 0x01, 0x55, 0xAA, 100], dtype=np.uint8)
    return [x, y, u, v], [bits_of(x, y, "and", I32), bits_of(x, y, "or", I32),
                          bits_of(x, y, "xor", I32), bits_of(u, v, "and", np.uint8),
                          bits_of(u, v, "or", np.uint8), bits_of(u, v, "xor", np.uint8)]


@case
def shifts(rng):
    # Amounts inside and outside [0, bits): negative, = bits, > bits.
    x = np.array([1, -8, 5, -1, INT32_MIN, INT32_MAX, 0x12345, -0x12345,
                  7, -7, 3, -3], dtype=I32)
    n = np.array([0, 1, 31, 31, 1, 1, 12, 12, -1, -1, 32, 40], dtype=I32)
    b = np.array([1, -128, 127, -1, 0x55, -0x56, 3, -3], dtype=I8)
    m = np.array([7, 7, 1, 8, 3, -2, 100, 6], dtype=I8)
    h = np.array([0xFFFF, 0x8000, 1, 0x1234, 0xFFFF, 7, 0x00F0, 2], dtype=np.uint16)
    k = np.array([15, 15, 15, 4, 16, 0, 4, 200], dtype=np.uint16)
    # i64 values whose results stay exactly representable as doubles (how
    # graph-run compares): few significant bits.
    w = np.array([3, -3, 1, -(1 << 40), 5 << 50, -1, 9, 1 << 62], dtype=I64)
    j = np.array([60, 60, 63, 20, 3, 64, -5, 62], dtype=I64)
    return [x, n, b, m, h, k, w, j], [
        bits_of(x, n, "shl", I32), bits_of(x, n, "shr", I32),
        bits_of(b, m, "shl", I8), bits_of(b, m, "shr", I8),
        bits_of(h, k, "shl", np.uint16), bits_of(h, k, "shr", np.uint16),
        bits_of(w, j, "shl", I64), bits_of(w, j, "shr", I64)]


@case
def i32_arith(rng):
    a, b = i32_operands(rng)
    return [a, b], [int_binary(a, b, lambda x, y: x + y, I32),
                    int_binary(a, b, lambda x, y: x - y, I32),
                    int_binary(a, b, lambda x, y: x * y, I32),
                    int_binary(a, b, cdiv, I32)]


@case
def i32_div_zero(rng):
    a = np.array([5, -5, 0, INT32_MAX, INT32_MIN, 1], dtype=I32)
    b = np.zeros((3, 1), dtype=I32)
    b[1, 0] = -1
    b[2, 0] = 3
    return [a, b], [int_binary(a, b, cdiv, I32)]


@case
def i32_unary(rng):
    a = np.concatenate([ints(rng, (10,), -50, 50),
                        np.array([INT32_MIN, INT32_MAX, 0, -1], dtype=I32)])
    b = ints(rng, (14,), -50, 50)
    return [a, b], [wrap([-int(v) for v in a], I32),
                    wrap([abs(int(v)) for v in a], I32),
                    np.maximum(a, 0).astype(I32),
                    np.maximum(a, b).astype(I32),
                    np.minimum(a, b).astype(I32)]


@case
def i64_arith(rng):
    a = np.concatenate([ints(rng, (8,), -(2 ** 40), 2 ** 40, I64),
                        np.array([2 ** 33, -(2 ** 35), 10 ** 12, 3, INT64_MIN,
                                  INT64_MIN], dtype=I64)])
    b = np.concatenate([ints(rng, (8,), -1000, 1000, I64),
                        np.array([2 ** 17, 0, -7, 2 ** 40, -1, 1], dtype=I64)])
    return [a, b], [int_binary(a, b, lambda x, y: x + y, I64),
                    int_binary(a, b, lambda x, y: x * y, I64),
                    int_binary(a, b, cdiv, I64)]


# ----------------------------------------------------------------------------
# f16 (f16.mlir): inputs f16, math in f32, results rounded to f16
# ----------------------------------------------------------------------------

def w32(x):
    return np.asarray(x).astype(F32)


@case
def f16_ops(rng):
    a, b = uniform(rng, (4, 8), -4, 4, F16), uniform(rng, (8,), -4, 4, F16)
    x, y = w32(a), w32(b)
    return [a, b], [(x + y).astype(F16), (x * y).astype(F16),
                    np.exp(x).astype(F16), (x / y).astype(F16)]


@case
def f16_matmul(rng):
    a, b = uniform(rng, (8, 16), -1, 1, F16), uniform(rng, (16, 4), -1, 1, F16)
    return [a, b], [(w32(a) @ w32(b)).astype(F16)]


@case
def f16_reduce_softmax(rng):
    a = uniform(rng, (4, 64), 0, 1, F16)
    x = w32(a)
    return [a], [x.sum(axis=1, dtype=F32).astype(F16),
                 x.mean(axis=1, dtype=F32).astype(F16),
                 softmax(x, 1).astype(F32).astype(F16)]


@case
def f16_unary(rng):
    a = uniform(rng, UNARY_SHAPE, -4, 4, F16)
    x = w32(a)
    return [a], [np.tanh(x).astype(F16), (1 / (1 + np.exp(-x))).astype(F16),
                 gelu_erf(x).astype(F32).astype(F16)]


# ----------------------------------------------------------------------------
# bf16 (bf16.mlir): f32 inputs cast to bf16 in the program
# ----------------------------------------------------------------------------

@case
def bf16_ops(rng):
    a, b = uniform(rng, (4, 8), -4, 4), uniform(rng, (8,), -4, 4)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [bf16_round(x + y), bf16_round(x * y),
                    bf16_round(np.exp(x)), bf16_round(x / y)]


@case
def bf16_matmul_reduce(rng):
    a, b = uniform(rng, (8, 16), -1, 1), uniform(rng, (16, 4), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [bf16_round(x @ y), bf16_round(x.sum(axis=1, dtype=F32))]


# ----------------------------------------------------------------------------
# Dynamic dims (dynamic.mlir)
# ----------------------------------------------------------------------------

def dynamic(rng, batch):
    x, y = uniform(rng, (batch, 8)), uniform(rng, (batch, 8))
    w, b = uniform(rng, (8, 4), -1, 1), uniform(rng, (4,))
    vx, vy = f64(x), f64(y)
    return [x, y, w, b], [as_f32(softmax((vx + vy) @ f64(w) + f64(b), 1)),
                          x.reshape(-1, 4),
                          as_f32(vx.mean(axis=0)),
                          x.T.copy(),
                          np.concatenate([x, y], 0),
                          as_f32(vx.sum(axis=1, keepdims=True))]


@case
def dynamic_b1(rng):
    return dynamic(rng, 1)


@case
def dynamic_b7(rng):
    return dynamic(rng, 7)


def dynamic_mlp(rng, batch):
    x = uniform(rng, (batch, 33), -1, 1)
    w, b = uniform(rng, (33, 65), -0.5, 0.5), uniform(rng, (65,), -0.5, 0.5)
    h = gelu_erf(f64(x) @ f64(w) + f64(b))
    return [x, w, b], [as_f32(h), as_f32(h.max(axis=1)),
                       as_f32(softmax(h, 1))]


@case
def dynamic_mlp_b1(rng):
    return dynamic_mlp(rng, 1)


@case
def dynamic_mlp_b37(rng):
    return dynamic_mlp(rng, 37)


# ----------------------------------------------------------------------------
# A small model (model.mlir): fused elementwise chains around matmuls
# ----------------------------------------------------------------------------

@case
def mlp(rng):
    x = uniform(rng, (16, 33), -1, 1)
    w1, b1 = uniform(rng, (65, 33), -0.3, 0.3), uniform(rng, (65,), -0.1, 0.1)
    w2, b2 = uniform(rng, (10, 65), -0.3, 0.3), uniform(rng, (10,), -0.1, 0.1)
    gate = uniform(rng, (65,), -2, 2)
    h = f64(x) @ f64(w1).T + f64(b1)
    h = gelu_tanh(h) * sigmoid(f64(gate)) + 0.5 * h
    logits = h @ f64(w2).T + f64(b2)
    return [x, w1, b1, w2, b2, gate], [as_f32(softmax(logits, 1)),
                                       as_f32(logits.mean(axis=0))]


# ----------------------------------------------------------------------------
# Results and buffer ownership (results.mlir)
# ----------------------------------------------------------------------------

@case
def two_results(rng):
    a, b = uniform(rng, (3, 4)), uniform(rng, (4,))
    return [a, b], [as_f32(f64(a) + f64(b)), as_f32(np.tanh(f64(a)) * f64(b))]


# ----------------------------------------------------------------------------
# Second op set: convolution, pooling, normalization (nn.mlir)
#
# Written directly from the definitions (PyTorch's, for conv2d, pooling and
# the norms), in float64, independently of the lowering: conv2d sums shifted
# slices of the zero-padded input per kernel tap, pooling loops over output
# positions and clips each window to the input.
# ----------------------------------------------------------------------------

def conv2d(x, w, b=None, strides=(1, 1), padding=(0, 0, 0, 0),
           dilations=(1, 1), groups=1):
    """torch.nn.functional.conv2d with padding [top, left, bottom, right]."""
    x, w = f64(x), f64(w)
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    assert c == cg * groups and f % groups == 0
    (sh, sw), (dh, dw), (pt, pl, pb, pr) = strides, dilations, padding
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    xg = xp.reshape(n, groups, cg, xp.shape[2], xp.shape[3])
    wg = w.reshape(groups, f // groups, cg, kh, kw)
    out = np.zeros((n, groups, f // groups, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = xg[:, :, :, i * dh: i * dh + sh * (oh - 1) + 1: sh,
                       j * dw: j * dw + sw * (ow - 1) + 1: sw]
            out += np.einsum("ngcyx,gfc->ngfyx", patch, wg[:, :, :, i, j])
    out = out.reshape(n, f, oh, ow)
    if b is not None:
        out += f64(b).reshape(1, f, 1, 1)
    return out


def pool_out_size(size, k, s, pad_before, pad_after, d, ceil_mode):
    """PyTorch's pooling_output_shape, with the two paddings separate: with
    ceil_mode the size rounds up, less one if the last window would start
    in the bottom/right padding."""
    numer = size + pad_before + pad_after - d * (k - 1) - 1
    out = (-(-numer // s) if ceil_mode else numer // s) + 1
    if ceil_mode and (out - 1) * s >= size + pad_before:
        out -= 1
    return out


def max_pool2d(x, kernel, strides=None, padding=(0, 0, 0, 0),
               dilations=(1, 1), ceil_mode=False):
    """The max over the window taps inside the input (padding never wins)."""
    x = f64(x)
    strides = strides or kernel
    n, c, h, w = x.shape
    oh = pool_out_size(h, kernel[0], strides[0], padding[0], padding[2],
                       dilations[0], ceil_mode)
    ow = pool_out_size(w, kernel[1], strides[1], padding[1], padding[3],
                       dilations[1], ceil_mode)
    out = np.full((n, c, oh, ow), -np.inf)
    for i in range(oh):
        rows = [i * strides[0] - padding[0] + a * dilations[0]
                for a in range(kernel[0])]
        rows = [r for r in rows if 0 <= r < h]
        for j in range(ow):
            cols = [j * strides[1] - padding[1] + a * dilations[1]
                    for a in range(kernel[1])]
            cols = [q for q in cols if 0 <= q < w]
            if rows and cols:
                out[:, :, i, j] = x[:, :, rows][:, :, :, cols].max(axis=(2, 3))
    return out


def avg_pool2d(x, kernel, strides=None, padding=(0, 0, 0, 0),
               ceil_mode=False, count_include_pad=False):
    """PyTorch's avg_pool2d divisor rule (ONNX AveragePool agrees): the
    window [hs, hs + k) is first cut at the end of the padded input
    (H + bottom padding); with count_include_pad the divisor is that window's
    size, padding included; without, the window is cut to the input
    [0, H) and the divisor is the number of input elements in it. The
    parts of a ceil_mode window past the padded input never count."""
    x = f64(x)
    strides = strides or kernel
    n, c, h, w = x.shape
    pt, pl, pb, pr = padding
    oh = pool_out_size(h, kernel[0], strides[0], pt, pb, 1, ceil_mode)
    ow = pool_out_size(w, kernel[1], strides[1], pl, pr, 1, ceil_mode)
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        hs = i * strides[0] - pt
        he = min(hs + kernel[0], h + pb)
        for j in range(ow):
            ws = j * strides[1] - pl
            we = min(ws + kernel[1], w + pr)
            size = (he - hs) * (we - ws)
            hs0, he0, ws0, we0 = max(hs, 0), min(he, h), max(ws, 0), min(we, w)
            total = x[:, :, hs0:he0, ws0:we0].sum(axis=(2, 3))
            if not count_include_pad:
                size = (he0 - hs0) * (we0 - ws0)
            out[:, :, i, j] = total / size
    return out


def adaptive_avg_pool2d(x, out_size):
    """torch.nn.AdaptiveAvgPool2d: cell (i, j) averages rows
    [floor(i*H/OH), ceil((i+1)*H/OH)) and the matching columns."""
    x = f64(x)
    n, c, h, w = x.shape
    oh, ow = out_size
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        r0, r1 = (i * h) // oh, -(-((i + 1) * h) // oh)
        for j in range(ow):
            c0, c1 = (j * w) // ow, -(-((j + 1) * w) // ow)
            out[:, :, i, j] = x[:, :, r0:r1, c0:c1].mean(axis=(2, 3))
    return out


def batch_norm(x, mean, var, weight, bias, eps):
    shape = (1, -1) + (1,) * (np.ndim(x) - 2)
    r = lambda v: f64(v).reshape(shape)
    return (f64(x) - r(mean)) / np.sqrt(r(var) + eps) * r(weight) + r(bias)


def layer_norm(x, weight, bias, eps):
    x = f64(x)
    axes = tuple(range(x.ndim - np.ndim(weight), x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * f64(weight) + f64(bias)


# conv2d_* inputs in [-1, 1): results O(1); the f32 sums of up to 72
# products stay within atol 1e-5.

@case
def conv2d_basic(rng):
    x, w = uniform(rng, (2, 3, 7, 9), -1, 1), uniform(rng, (4, 3, 3, 3), -1, 1)
    return [x, w], [as_f32(conv2d(x, w))]


# Convolutions lowered as implicit GEMMs (stride 1, f32, static batch: one
# matmul per kernel tap on the padded, flattened image; NNOps.cpp), in
# test/Integration/conv-implicit-gemm.mlir.
@case
def conv2d_igemm_batch_bias(rng):
    x, w = uniform(rng, (2, 5, 12, 14), -1, 1), uniform(rng, (6, 5, 3, 3), -1, 1)
    b = uniform(rng, (6,), -1, 1)
    return [x, w, b], [as_f32(conv2d(x, w, b, (1, 1), (1, 1, 1, 1)))]


@case
def conv2d_igemm_5x5_asymmetric(rng):
    x, w = uniform(rng, (1, 3, 16, 20), -1, 1), uniform(rng, (4, 3, 5, 5), -1, 1)
    return [x, w], [as_f32(conv2d(x, w, None, (1, 1), (2, 1, 2, 3)))]


@case
def conv2d_igemm_wide(rng):
    # 64 -> 64 channels at 28 x 28: the taps' matmuls are large enough for
    # the packed kernel (B panels, 8 x 32 register tiles, column remainder).
    x, w = uniform(rng, (1, 64, 28, 28), -1, 1), uniform(rng, (64, 64, 3, 3), -0.1, 0.1)
    return [x, w], [as_f32(conv2d(x, w, None, (1, 1), (1, 1, 1, 1)))]


# Pixels as matmul rows (few output pixels, many channels): [OH*OW, K] x
# [K, F], transposed back (NNOps.cpp).
@case
def conv2d_pixel_rows(rng):
    x, w = uniform(rng, (1, 16, 7, 7), -1, 1), uniform(rng, (64, 16, 3, 3), -0.5, 0.5)
    b = uniform(rng, (64,), -1, 1)
    return [x, w, b], [as_f32(conv2d(x, w, b, (1, 1), (1, 1, 1, 1)))]


@case
def conv2d_pixel_rows_pointwise(rng):
    x, w = uniform(rng, (2, 32, 7, 7), -1, 1), uniform(rng, (64, 32, 1, 1), -1, 1)
    return [x, w], [as_f32(conv2d(x, w))]


@case
def conv2d_pixel_rows_strided(rng):
    x, w = uniform(rng, (1, 8, 14, 14), -1, 1), uniform(rng, (96, 8, 3, 3), -1, 1)
    return [x, w], [as_f32(conv2d(x, w, None, (2, 2), (1, 1, 1, 1)))]


# Batched im2col / pointwise convolutions with epilogues fused into the
# loop over images.
@case
def conv2d_batch_pointwise_epilogue(rng):
    x, w = uniform(rng, (3, 16, 28, 28), -1, 1), uniform(rng, (32, 16, 1, 1), -1, 1)
    b, r = uniform(rng, (32,), -1, 1), uniform(rng, (3, 32, 28, 28), -1, 1)
    return [x, w, b, r], [as_f32(np.maximum(conv2d(x, w, b) + f64(r), 0.0))]


@case
def conv2d_batch_pixel_rows_clamp(rng):
    x, w = uniform(rng, (2, 16, 7, 7), -1, 1), uniform(rng, (64, 16, 3, 3), -0.5, 0.5)
    b = uniform(rng, (64,), -1, 1)
    y = conv2d(x, w, b, (1, 1), (1, 1, 1, 1))
    return [x, w, b], [as_f32(np.clip(y, -0.5, 0.75))]


@case
def conv2d_batch_strided_plain(rng):
    x, w = uniform(rng, (2, 8, 30, 30), -1, 1), uniform(rng, (16, 8, 3, 3), -1, 1)
    return [x, w], [as_f32(conv2d(x, w, None, (2, 2), (1, 1, 1, 1)))]


def formula_weight(shape):
    """Weights the test writes as a constant literal, from a formula:
    w[f, c, i, j] = ((7 f + 3 c + 5 i + j) mod 11 - 5) / 8."""
    f, c, i, j = np.indices(shape)
    return (((7 * f + 3 * c + 5 * i + j) % 11 - 5) / 8).astype(F32)


# Stride 2 over the four phase images (NNOps.cpp phaseGemmConv), in
# test/Integration/conv-strategies.mlir.
@case
def conv2d_phase_stem(rng):
    x = uniform(rng, (2, 3, 117, 118), -1, 1)
    return [x], [as_f32(conv2d(x, formula_weight((16, 3, 7, 7)), None,
                               (2, 2), (3, 3, 3, 3)))]


@case
def conv2d_phase_even(rng):
    x, w = uniform(rng, (1, 5, 120, 125), -1, 1), uniform(rng, (8, 5, 4, 4), -1, 1)
    b = uniform(rng, (8,), -1, 1)
    return [x, w, b], [as_f32(conv2d(x, w, b, (2, 2), (1, 2, 2, 1)))]


# Constant weights: the direct stride-1 kernel (lib/Codegen/CPUConv.cpp).
@case
def conv2d_direct_rgb(rng):
    x = uniform(rng, (2, 3, 20, 22), -1, 1)
    return [x], [as_f32(conv2d(x, formula_weight((16, 3, 3, 3))))]


# Winograd F(2x2, 3x3) (GraphToLinalg/Winograd.cpp), in
# test/Integration/winograd.mlir; the weights are formula_weight's literal.
@case
def conv2d_winograd_odd(rng):
    x = uniform(rng, (2, 16, 13, 11), -1, 1)
    b = uniform(rng, (24,), -1, 1)
    r = uniform(rng, (2, 24, 13, 11), -1, 1)
    y = conv2d(x, formula_weight((24, 16, 3, 3)), b, (1, 1), (1, 1, 1, 1)) + f64(r)
    return [x, b, r], [as_f32(np.maximum(y, 0))]


@case
def conv2d_winograd_rows(rng):
    x = uniform(rng, (1, 16, 7, 7), -1, 1)
    b = uniform(rng, (32,), -1, 1)
    y = conv2d(x, formula_weight((32, 16, 3, 3)), b, (1, 1), (1, 1, 1, 1))
    return [x, b], [as_f32(np.maximum(y, 0))]


@case
def conv2d_winograd_asymmetric(rng):
    x = uniform(rng, (1, 16, 15, 17), -1, 1)
    return [x], [as_f32(conv2d(x, formula_weight((16, 16, 3, 3)), None,
                               (1, 1), (2, 0, 1, 1)))]


# Trigonometric and hyperbolic functions, computed in float64 on the f32
# inputs and rounded once: `a` in the inverse functions' domain (-1, 1), `b`
# in acosh's [1, inf), `c` over several periods. 37 elements: two whole
# 16-lane vectors and a remainder.
@case
def trig(rng):
    a = uniform(rng, (37,), -0.95, 0.95)
    b = uniform(rng, (37,), 1.0, 4.0)
    c = uniform(rng, (37,), -10.0, 10.0)
    A, B, C = f64(a), f64(b), f64(c)
    outs = [np.sin(C), np.cos(C), np.tan(C), np.arcsin(A), np.arccos(A),
            np.arctan(C), np.sinh(C), np.cosh(C), np.arcsinh(C),
            np.arccosh(B), np.arctanh(A)]
    return [a, b, c], [as_f32(y) for y in outs]


# graph.floor/ceil/round against NumPy: halves of both parities (ties to
# even), values near them, -0.5 and 0.3 (signed zeros), integral values,
# 2^23 + 1 (integral in f32 already), +-inf and NaN; then random values.
@case
def rounding(rng):
    special = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.49999997,
                        0.3, -0.3, 3.0, -7.0, 8388609.0, -8388609.0, np.inf,
                        -np.inf, np.nan], np.float32)
    x = np.concatenate([special, uniform(rng, (47,), -100, 100)]).astype(np.float32)
    return [x], [np.floor(x), np.ceil(x), np.round(x)]


# Products of dequantized 8-bit tensors (quantized-matmul.mlir): the weight
# formulas written there as literals; integer sums in int64, scales in
# float64.
@case
def quantized_matmul(rng):
    k, n = np.indices((37, 50))
    w1 = ((7 * k + 3 * n) % 255) - 127
    n2, k2 = np.indices((24, 20))
    w2 = ((5 * n2 + 11 * k2) % 201) - 100 + 3
    k3, n3 = np.indices((64, 16))
    w3 = ((3 * k3 + 5 * n3) % 256) - 128
    a1 = rng.integers(0, 256, (13, 37)).astype(np.uint8)
    a2 = rng.integers(-128, 128, (2, 5, 20)).astype(np.int8)
    a2[0, 0, :4] = [-128, 127, -128, 0]
    a3 = rng.integers(0, 256, (9, 64)).astype(np.uint8)
    a3[0, :] = 255
    a3[1, :] = 0
    y1 = ((a1.astype(np.int64) - 7) @ w1) * 0.25 * 0.03125
    s2 = (np.arange(24) + 1) / 64
    y2 = (a2.astype(np.int64) @ (w2 - 3).T) * 0.5 * s2
    y3 = ((a3.astype(np.int64) - 128) @ w3) * 0.0625 * 0.125
    return [a1, a2, a3], [as_f32(y1), as_f32(y2), as_f32(y3)]


def _amx_product(x, n):
    """(x - 100) / 8 times w / 64 with w[k, n] = (11k + 7n) mod 255 - 127."""
    k, j = np.indices((x.shape[1], n))
    w = ((11 * k + 7 * j) % 255) - 127
    return as_f32(((x.astype(np.int64) - 100) @ w) * 0.125 / 64)


# A dequantized uint8 x int8 product for AMX's padding and blocks
# (quantized-matmul-amx.mlir): 40 rows, K = 136, N = 40 (padded to 48,
# 192, 48). a has zero point 100 and scale 1/8 with rows at 0 and 255;
# w[k, n] = (11k + 7n) mod 255 - 127, scale 1/64.
@case
def quantized_matmul_amx(rng):
    a = rng.integers(0, 256, (40, 136)).astype(np.uint8)
    a[0, :] = 255
    a[39, :] = 0
    return [a], [_amx_product(a, 40)]


# The same product with rows known at run time (quantized-matmul-amx.mlir's
# @dynamic_rows: whole tiles of a and the result used as they are, the
# last M mod 16 rows through scratch tiles), N = 48: 17 rows (one tile and
# 1 row) and 50 (a pair, a tile, 2 rows).
@case
def quantized_matmul_amx_dynamic(rng):
    xs = [rng.integers(0, 256, (m, 136)).astype(np.uint8) for m in (17, 50)]
    return xs, [_amx_product(x, 48) for x in xs]


def _quantized_convs(rng, filters_a, channels_a, channels_b, scale_a, bias_a):
    """Two 3x3 convolutions of dequantized 8-bit tensors: a uint8 x (zero
    point 3, scale 1/2) with stride 2, padding [1, 0, 2, 1], a scale per
    output channel and a bias; an int8 x (scale 1/4) with dilation 2 and
    padding 2, 20 filters, scale 1/128. The weight formulas are written as
    literals in the tests."""
    f, c, i, j = np.indices((filters_a, channels_a, 3, 3))
    wa = ((7 * f + 3 * c + 5 * i + j) % 251) - 125
    f, c, i, j = np.indices((20, channels_b, 3, 3))
    wb = ((11 * f + 5 * c + 3 * i + 7 * j) % 256) - 128
    xa = rng.integers(0, 256, (2, channels_a, 9, 11)).astype(np.uint8)
    xb = rng.integers(-128, 128, (1, channels_b, 10, 12)).astype(np.int8)
    xb[0, :, 0, 0] = -128
    ya = conv2d((xa.astype(np.int64) - 3) * 0.5, wa * scale_a.reshape(-1, 1, 1, 1),
                bias_a, (2, 2), (1, 0, 2, 1))
    yb = conv2d(xb.astype(np.int64) * 0.25, wb * 0.0078125, None, (1, 1), (2, 2, 2, 2),
                (2, 2))
    return [xa, xb], [as_f32(ya), as_f32(yb)]


# Convolutions of dequantized 8-bit tensors with AMX tiles
# (quantized-matmul-amx.mlir): 64 channels (one 64-byte tile row per tap).
@case
def quantized_conv_amx(rng):
    return _quantized_convs(rng, 24, 64, 64, (np.arange(24) + 1) / 32,
                            np.arange(24) * 0.5 - 6)


# Convolutions of dequantized 8-bit tensors (quantized-matmul.mlir).
@case
def quantized_conv(rng):
    return _quantized_convs(rng, 6, 5, 8, (np.arange(6) + 1) / 32,
                            np.array([1.0, -2.0, 0.5, 0.0, 3.0, -0.25]))


# Max pooling of dequantized uint8 values (quantized-matmul.mlir): zero
# point 5, a power-of-two scale per channel (exact in f32), pooled in
# float64 with -inf padding; then requantized with the same parameters
# (the QDQ chain around a CNN's pool), rounding half to even.
@case
def quantized_pool(rng):
    x = rng.integers(0, 256, (2, 3, 13, 21)).astype(np.uint8)
    x[0, 0, :3, :3] = 0
    x[1, 2, -2:, -2:] = 255
    s = np.array([0.5, 0.25, 0.125]).reshape(1, 3, 1, 1)
    d = (x.astype(np.float64) - 5) * s
    p = max_pool2d(d, (3, 3), (2, 2), (1, 1, 1, 1))
    q = np.clip(np.round(p / s) + 5, 0, 255).astype(np.uint8)
    return [x], [as_f32(p), q]


@case
def conv2d_direct_pad(rng):
    x = uniform(rng, (1, 8, 15, 17), -1, 1)
    return [x], [as_f32(np.maximum(conv2d(x, formula_weight((12, 8, 3, 3)),
                                          None, (1, 1), (1, 1, 1, 1)), 0))]


# The direct kernel in output rows with its epilogue in registers: an RGB
# convolution (K = 27) with bias, a residual and ReLU; rows of 34 columns
# are two 32-column blocks, the second shifted left to end at the row's end.
@case
def conv2d_direct_rows_epilogue(rng):
    x = uniform(rng, (2, 3, 9, 36), -1, 1)
    b = uniform(rng, (16,), -1, 1)
    r = uniform(rng, (2, 16, 7, 34), -1, 1)
    y = conv2d(x, formula_weight((16, 3, 3, 3)), b) + f64(r)
    return [x, b, r], [as_f32(np.maximum(y, 0))]


# The same with bias, ReLU and a 2x2 max pooling fused into the kernel:
# two output rows per step, pooled in registers (9 rows: the last is not
# pooled; 36 columns -> 18 pooled, the row's second 16-column block
# shifted left).
@case
def conv2d_direct_rows_pool(rng):
    x = uniform(rng, (2, 3, 11, 38), -1, 1)
    b = uniform(rng, (16,), -1, 1)
    y = np.maximum(conv2d(x, formula_weight((16, 3, 3, 3)), b), 0)
    return [x, b], [as_f32(max_pool2d(y, (2, 2)))]


# Pooling on rows wider than a vector (vectorizeWindowOp): 2x2 max pooling
# (22 = 16 + 6 columns), 3x3 stride-2 max pooling with padding, and 3x3
# stride-2 average pooling with padding (a sum window, then the divisor).
@case
def pool_rows(rng):
    x = uniform(rng, (2, 3, 10, 45), -1, 1)
    return [x], [as_f32(max_pool2d(x, (2, 2))),
                 as_f32(max_pool2d(x, (3, 3), (2, 2), (1, 1, 1, 1))),
                 as_f32(avg_pool2d(x, (3, 3), (2, 2), (1, 1, 1, 1)))]


# Depthwise convolutions, rows in vector chunks with a remainder
# (lib/Codegen/CPUConv.cpp, vectorizeWindowOp).
@case
def conv2d_depthwise_rows(rng):
    x, w = uniform(rng, (2, 6, 20, 35), -1, 1), uniform(rng, (6, 1, 3, 3), -1, 1)
    b = uniform(rng, (6,), -1, 1)
    return [x, w, b], [as_f32(conv2d(x, w, b, (1, 1), (1, 1, 1, 1), groups=6))]


@case
def conv2d_depthwise_5x5_stride2(rng):
    x, w = uniform(rng, (1, 8, 23, 37), -1, 1), uniform(rng, (8, 1, 5, 5), -1, 1)
    return [x, w], [as_f32(conv2d(x, w, None, (2, 2), (2, 2, 2, 2), groups=8))]


@case
def conv2d_stride_pad_bias(rng):
    x, w = uniform(rng, (1, 3, 9, 8), -1, 1), uniform(rng, (5, 3, 3, 3), -1, 1)
    b = uniform(rng, (5,), -1, 1)
    return [x, w, b], [as_f32(conv2d(x, w, b, (2, 2), (1, 1, 1, 1)))]


@case
def conv2d_unreached_edge(rng):
    # Stride 2 over 36 padded rows and one output column of a 6-wide input:
    # the windows never reach the last padded row nor the last column
    # (fuzzer: the im2col copy became invalid IR once its unit output dim
    # was folded, in the fused group of the convolution and its ReLU).
    x, w = uniform(rng, (1, 1, 30, 6), -1, 1), uniform(rng, (1, 1, 5, 5), -1, 1)
    b = uniform(rng, (1,), -1, 1)
    return [x, w, b], [as_f32(np.maximum(conv2d(x, w, b, (2, 2), (3, 0, 3, 0)), 0))]


@case
def conv2d_asymmetric(rng):
    # ONNX-style pads [top, left, bottom, right], different strides per dim,
    # a non-square kernel, and dilation.
    x, w = uniform(rng, (2, 2, 8, 10), -1, 1), uniform(rng, (3, 2, 2, 3), -1, 1)
    b = uniform(rng, (3,), -1, 1)
    return [x, w, b], [
        as_f32(conv2d(x, w, b, (1, 2), (0, 2, 1, 3))),
        as_f32(conv2d(x, w, b, (2, 1), (1, 0, 2, 1), (2, 3)))]


@case
def conv2d_grouped(rng):
    x, w = uniform(rng, (2, 6, 7, 7), -1, 1), uniform(rng, (4, 3, 3, 3), -1, 1)
    b = uniform(rng, (4,), -1, 1)
    return [x, w, b], [as_f32(conv2d(x, w, b, (2, 2), (1, 1, 1, 1),
                                     groups=2))]


@case
def conv2d_depthwise(rng):
    # groups = C = F (linalg.depthwise_conv_2d_nchw_chw), and groups = C with
    # 2 filters per channel (a grouped convolution).
    x = uniform(rng, (2, 4, 8, 8), -1, 1)
    w, b = uniform(rng, (4, 1, 3, 3), -1, 1), uniform(rng, (4,), -1, 1)
    w2 = uniform(rng, (8, 1, 3, 3), -1, 1)
    return [x, w, b, w2], [
        as_f32(conv2d(x, w, b, (1, 1), (1, 1, 1, 1), groups=4)),
        as_f32(conv2d(x, w2, None, (2, 2), (0, 0, 0, 0), (2, 2), groups=4))]


@case
def conv2d_pointwise(rng):
    x, w = uniform(rng, (2, 8, 5, 5), -1, 1), uniform(rng, (3, 8, 1, 1), -1, 1)
    b = uniform(rng, (3,), -1, 1)
    return [x, w, b], [as_f32(conv2d(x, w, b))]


def conv2d_dynamic(rng, batch):
    x = uniform(rng, (batch, 3, 8, 8), -1, 1)
    w, b = uniform(rng, (4, 3, 3, 3), -1, 1), uniform(rng, (4,), -1, 1)
    y = conv2d(x, w, b, (1, 1), (1, 1, 1, 1))
    return [x, w, b], [as_f32(y), as_f32(max_pool2d(y, (2, 2)))]


@case
def conv2d_dynamic_b1(rng):
    return conv2d_dynamic(rng, 1)


@case
def conv2d_dynamic_b3(rng):
    return conv2d_dynamic(rng, 3)


@case
def max_pool2d_cases(rng):
    # 7x7 input, several configurations (see nn.mlir for each).
    x = uniform(rng, (2, 3, 7, 7))
    return [x], [
        as_f32(max_pool2d(x, (2, 2))),
        as_f32(max_pool2d(x, (3, 3), (2, 2), (1, 1, 1, 1))),
        as_f32(max_pool2d(x, (2, 2), (2, 2), (0, 0, 0, 0), ceil_mode=True)),
        as_f32(max_pool2d(x, (3, 3), (2, 2), (1, 1, 1, 1), ceil_mode=True)),
        as_f32(max_pool2d(x, (3, 2), (1, 2), (1, 0, 0, 1), (2, 1))),
        as_f32(max_pool2d(x, (2, 2), (3, 3), (1, 0, 1, 0), ceil_mode=True))]


@case
def pool2d_wide(rng):
    # Output rows wider than 16 vectors (961 and 480 columns) take the
    # generic path, not the unrolled window kernel (a compile-time blowup).
    x = uniform(rng, (1, 3, 32, 961))
    return [x], [as_f32(avg_pool2d(x, (2, 1), (1, 1))),
                 as_f32(max_pool2d(x, (2, 3), (1, 2), (0, 0, 0, 0)))]


@case
def max_pool2d_negative(rng):
    # All inputs negative: a -inf (not 0) padding value matters.
    x = uniform(rng, (1, 2, 5, 5), -3, -1)
    return [x], [as_f32(max_pool2d(x, (3, 3), (2, 2), (1, 1, 1, 1)))]


@case
def max_pool2d_i32(rng):
    x = ints(rng, (1, 2, 5, 5), -100, 100)
    x[0, 0, 0, 0] = INT32_MIN
    return [x], [max_pool2d(x, (2, 2), (2, 2), (1, 1, 1, 1)).astype(I32)]


@case
def avg_pool2d_cases(rng):
    x = uniform(rng, (2, 3, 7, 7))
    return [x], [
        as_f32(avg_pool2d(x, (2, 2))),
        as_f32(avg_pool2d(x, (3, 3), (2, 2), (1, 1, 1, 1))),
        as_f32(avg_pool2d(x, (3, 3), (2, 2), (1, 1, 1, 1),
                          count_include_pad=True)),
        as_f32(avg_pool2d(x, (2, 2), (2, 2), ceil_mode=True)),
        as_f32(avg_pool2d(x, (2, 2), (2, 2), ceil_mode=True,
                          count_include_pad=True)),
        as_f32(avg_pool2d(x, (3, 3), (2, 2), (1, 1, 1, 1), ceil_mode=True,
                          count_include_pad=True)),
        as_f32(avg_pool2d(x, (3, 2), (2, 1), (1, 0, 0, 1)))]


@case
def adaptive_avg_pool2d_cases(rng):
    x = uniform(rng, (2, 3, 6, 9))
    return [x], [as_f32(adaptive_avg_pool2d(x, (1, 1))),
                 as_f32(adaptive_avg_pool2d(x, (3, 3))),
                 as_f32(adaptive_avg_pool2d(x, (4, 5))),
                 as_f32(adaptive_avg_pool2d(x, (7, 2)))]


@case
def adaptive_avg_pool2d_global_dynamic(rng):
    x = uniform(rng, (3, 4, 5, 6))
    return [x], [as_f32(adaptive_avg_pool2d(x, (1, 1)))]


@case
def case_batch_norm(rng):
    x = uniform(rng, (2, 4, 5, 3))
    mean, var = uniform(rng, (4,), -1, 1), uniform(rng, (4,), 0.1, 2)
    weight, bias = uniform(rng, (4,)), uniform(rng, (4,))
    y = uniform(rng, (3, 4))
    return [x, mean, var, weight, bias, y], [
        as_f32(batch_norm(x, mean, var, weight, bias, 1e-5)),
        as_f32(batch_norm(y, mean, var, weight, bias, 0.1))]


@case
def case_layer_norm(rng):
    x = uniform(rng, (2, 3, 16), -3, 3)
    w, b = uniform(rng, (16,)), uniform(rng, (16,))
    y = uniform(rng, (4, 3, 5), -3, 3)
    w2, b2 = uniform(rng, (3, 5)), uniform(rng, (3, 5))
    return [x, w, b, y, w2, b2], [as_f32(layer_norm(x, w, b, 1e-5)),
                                  as_f32(layer_norm(y, w2, b2, 1e-3))]


# ----------------------------------------------------------------------------
# Second op set: elementwise (activations.mlir)
# ----------------------------------------------------------------------------

@case
def case_erf(rng):
    x = np.concatenate([uniform(rng, (3, 30), -4, 4).ravel(),
                        np.array([0.0, -0.0, 1e-8, 6.0, -6.0, 10.0],
                                 dtype=F32)]).reshape(3, 32)
    return [x], [as_f32(erf(x))]


def hardsigmoid(x):
    return np.minimum(np.maximum(f64(x) + 3.0, 0.0), 6.0) / 6.0


@case
def case_hardswish(rng):
    # Includes the kinks at -3 and 3.
    x = np.concatenate([uniform(rng, (33,), -6, 6),
                        np.array([-3.0, 3.0, 0.0, -3.5], dtype=F32)])
    return [x], [as_f32(f64(x) * hardsigmoid(x))]


@case
def case_hardsigmoid(rng):
    x = np.concatenate([uniform(rng, (33,), -6, 6),
                        np.array([-3.0, 3.0, 0.0, 2.5], dtype=F32)])
    return [x], [as_f32(hardsigmoid(x))]


@case
def case_leaky_relu(rng):
    x = np.concatenate([uniform(rng, (33,), -5, 5),
                        np.array([0.0, -0.0, np.nan, -np.inf], dtype=F32)])
    v = f64(x)
    return [x], [as_f32(np.where(v >= 0, v, 0.01 * v)),
                 as_f32(np.where(v >= 0, v, 0.2 * v))]


def clamp_float(x, lo=None, hi=None):
    v = f64(x)
    if lo is not None:
        v = np.where(np.isnan(v), v, np.maximum(v, lo))
    if hi is not None:
        v = np.where(np.isnan(v), v, np.minimum(v, hi))
    return v


@case
def clamp_f32(rng):
    x = np.concatenate([uniform(rng, (33,), -8, 8),
                        np.array([np.nan, np.inf, -np.inf, 6.0], dtype=F32)])
    return [x], [as_f32(clamp_float(x, 0.0, 6.0)),
                 as_f32(clamp_float(x, -1.5)),
                 as_f32(clamp_float(x, None, 2.25))]


@case
def clamp_int(rng):
    # Integer bounds round toward the range (ceil(min), floor(max)) and
    # saturate to the element type.
    x = np.concatenate([ints(rng, (12,), -10, 10),
                        np.array([INT32_MIN, INT32_MAX, -3, -2, 3, 4],
                                 dtype=I32)])
    y = np.array([-(2 ** 40), 2 ** 40, -3, 3, 0, INT64_MIN], dtype=I64)
    return [x, y], [np.clip(x, -2, 3).astype(I32),        # [-2.5, 3.7]
                    np.maximum(x, INT32_MIN).astype(I32),  # min = -1e10
                    np.clip(y, -3, 2 ** 35).astype(I64)]   # [-3, 2^35]


# ----------------------------------------------------------------------------
# Second op set: scaled_dot_product_attention (attention.mlir), with sdpa()
# above (torch semantics)
# ----------------------------------------------------------------------------

@case
def sdpa_bool_mask(rng):
    q, k = uniform(rng, (2, 3, 5, 8)), uniform(rng, (2, 3, 7, 8))
    v = uniform(rng, (2, 3, 7, 4))
    mask = rng.random((5, 7)) < 0.6
    mask[:, 2] = True  # every row attends somewhere
    return [q, k, v, mask], [as_f32(sdpa(q, k, v, mask=mask))]


@case
def sdpa_float_mask(rng):
    q, k, v = (uniform(rng, (2, 3, 5, 8)) for _ in range(3))
    mask = uniform(rng, (2, 1, 5, 5), -3, 1)
    mask[0, 0, 1, :4] = -np.inf
    return [q, k, v, mask], [as_f32(sdpa(q, k, v, mask=mask, scale=0.3))]


@case
def sdpa_causal(rng):
    q, k, v = (uniform(rng, (2, 4, 6, 8)) for _ in range(3))
    # L = 3 < S = 5: the causal mask is top-left aligned (j <= i).
    q2, k2, v2 = uniform(rng, (3, 8)), uniform(rng, (5, 8)), uniform(rng, (5, 2))
    return [q, k, v, q2, k2, v2], [as_f32(sdpa(q, k, v, causal=True)),
                                   as_f32(sdpa(q2, k2, v2, causal=True))]


@case
def sdpa_broadcast(rng):
    # Batch dims [2, 1], [3] and [1, 3] broadcast to [2, 3]; Ev = 6 != E.
    q, k = uniform(rng, (2, 1, 5, 8)), uniform(rng, (3, 7, 8))
    v = uniform(rng, (1, 3, 7, 6))
    return [q, k, v], [as_f32(sdpa(q, k, v))]


# ----------------------------------------------------------------------------
# Second op set: indexing, padding, splitting, scans (indexing.mlir)
# ----------------------------------------------------------------------------

def clamp_index(i, n):
    """Python negative indices, then clamped into [0, n)."""
    i = np.where(i < 0, i + n, i)
    return np.clip(i, 0, n - 1)


@case
def case_gather(rng):
    table = uniform(rng, (10, 4))
    # In range, negative (from the end), and out of range (clamped).
    ids = np.array([[0, 9, 3], [-1, -10, 12], [100, -11, 5]], dtype=I64)
    x = ints(rng, (2, 5, 3), -50, 50)
    cols = np.array([4, -2, 0, 7], dtype=I32)
    s = np.array(-2, dtype=I64)
    s2, s3 = np.array(12, dtype=I64), np.array(-3, dtype=I32)
    return [table, ids, x, cols, s, s2, s3], [
        table[clamp_index(ids, 10)],
        x[:, clamp_index(cols, 5)],
        x[:, :, int(clamp_index(s, 3))].copy(),
        table[9].copy(), table[7].copy()]


def scatter_ref(data, axis, indices, updates, reduction="none"):
    """graph.scatter by its definition, one position at a time in row-major
    order (duplicates: the last update wins, or all combine)."""
    out = data.copy()
    n = data.shape[axis]
    for p in np.ndindex(*indices.shape):
        q = list(p)
        q[axis] = int(clamp_index(np.int64(indices[p]), n))
        q = tuple(q)
        u = updates[p]
        if reduction == "add":
            u = out[q] + u
        elif reduction == "mul":
            u = out[q] * u
        elif reduction == "max":
            u = max(out[q], u)
        elif reduction == "min":
            u = min(out[q], u)
        out[q] = u
    return out


@case
def case_f64_ops(rng):
    a = rng.uniform(-1.0, 1.0, (4, 8))
    b = rng.uniform(-1.0, 1.0, (8,))
    w = rng.uniform(-1.0, 1.0, (8, 5))
    erf = np.vectorize(math.erf)
    s = a + b
    p = np.abs(a) + 1.0
    r0 = np.exp(s * a) + np.log(p) / np.sqrt(p)
    gelu = 0.5 * a * (1.0 + erf(a / math.sqrt(2.0)))
    r1 = (np.tanh(a) - gelu) * (1.0 / (1.0 + np.exp(-s))) + np.sin(b)
    mm = a @ w
    e = np.exp(mm - mm.max(axis=1, keepdims=True))
    sm = e / e.sum(axis=1, keepdims=True)
    return [a, b, w], [r0, r1, sm, a.sum(axis=1), s.astype(F32),
                       np.trunc(s * 10.0).astype(I32)]


@case
def case_small_ints(rng):
    I8, I16 = np.int8, np.int16
    x = ints(rng, (3, 4), -128, 127, I8)
    y = ints(rng, (3, 4), -128, 127, I8)
    x[0, 0], y[0, 0] = -128, -1          # INT_MIN / -1 wraps
    y[1, 1], y[2, 3] = 0, 0              # division by zero gives 0
    z = ints(rng, (4,), -30000, 30000, I16)
    f = rng.uniform(-100.0, 100.0, (3, 4)).astype(F32)
    X, Y = x.astype(I64), y.astype(I64)
    nz = np.where(Y == 0, 1, Y)
    q = np.where(Y == 0, 0, np.sign(X) * np.sign(nz) * (np.abs(X) // np.abs(nz)))
    wrap8 = lambda v: np.asarray(v).astype(I8)  # noqa: E731 (low 8 bits)
    mx, mn = np.maximum(x, y), np.minimum(x, y)
    sel = np.where(x > y, wrap8(-X), wrap8(np.abs(Y)))
    x3 = x.astype(I32) * 3
    back2 = wrap8(wrap8(x3).astype(I64) + np.trunc(f).astype(I64))
    xz = (X + z.astype(I64)).astype(I16)
    wm = np.array([[1, -2], [300, 4], [-5, 6], [7, 1000]], dtype=I64)
    return [x, y, z, f], [
        wrap8(X + Y), wrap8(X - Y), wrap8(X * Y), wrap8(q), wrap8(X - Y * q), sel,
        wrap8(mx.astype(I64) + mn), x3, back2, x.astype(F32),
        wrap8(X.sum(axis=1)), (xz.astype(I64) @ wm).astype(I16)]


@case
def case_unsigned(rng):
    U8, U16, U64 = np.uint8, np.uint16, np.uint64
    a = ints(rng, (3, 4), 0, 255, np.int64).astype(U8)
    b = ints(rng, (3, 4), 0, 255, np.int64).astype(U8)
    a[0, 0], a[0, 1], b[1, 1], b[2, 3] = 200, 255, 0, 0   # x / 0 = 0, x rem 0 = x
    f = rng.uniform(0.0, 255.0, (3, 4)).astype(F32)
    c = np.array([2**63 + 5, 7, 2**64 - 1], dtype=U64)
    img = ints(rng, (1, 1, 4, 4), 0, 255, np.int64).astype(U8)
    idx = np.array([[0, 3], [1, 1], [2, 0]], dtype=I64)
    upd = ints(rng, (3, 2), 0, 255, np.int64).astype(U8)
    A, B = a.astype(np.int64), b.astype(np.int64)
    nz = np.where(B == 0, 1, B)
    div = np.where(B == 0, 0, A // nz).astype(U8)
    rem = np.where(B == 0, A, A % nz).astype(U8)
    x3 = a.astype(I32) * 3
    wm = np.array([[1, 2], [300, 4], [5, 60000], [7, 1000]], dtype=np.int64)
    pool = img.reshape(1, 1, 2, 2, 2, 2).max(axis=(3, 5))
    sc = a.copy()
    for p in np.ndindex(*idx.shape):
        q = (p[0], int(idx[p]))
        sc[q] = max(sc[q], upd[p])
    return [a, b, f, c, img, idx, upd], [
        (A + B).astype(U8), (A - B).astype(U8), (A * B).astype(U8), div, rem,
        np.where(a > b, a, b), np.minimum(a, b), a.astype(I32), a.astype(F32),
        np.trunc(f).astype(U8), x3.astype(U8), a.max(axis=1), a.min(axis=1),
        A.sum(axis=1).astype(U8), np.argmax(a, axis=1).astype(I64),
        np.clip(a, 50, 220), (a.astype(np.int64) @ wm).astype(U16),
        c > 7, c + np.uint64(2**63), c // np.uint64(3), pool, sc,
        np.array(True)]


@case
def case_gather_elements(rng):
    # Along axis 1 with indices from the end and out of range (clamped),
    # narrower than the data in dim 0; along axis 0 of an i32 tensor with
    # more positions than the data has (repeats); along the last axis of a
    # rank-3 i64 tensor with i32 indices.
    x0 = uniform(rng, (4, 5))
    i0 = np.array([[0, -1, 7], [4, -9, 2], [3, 3, 1]], dtype=I64)
    x1 = ints(rng, (3, 2), -50, 50)
    i1 = np.array([[2, 0], [1, 1], [0, 2], [-1, 5], [0, 0]], dtype=I64)
    x2 = ints(rng, (2, 3, 4), -50, 50, I64)
    i2 = ints(rng, (2, 3, 6), -4, 3, I32)
    return [x0, i0, x1, i1, x2, i2], [
        np.take_along_axis(x0[:3], clamp_index(i0, 5), 1),
        np.take_along_axis(x1, clamp_index(i1, 3), 0),
        np.take_along_axis(x2, clamp_index(i2, 4).astype(I64), 2)]


@case
def case_scatter(rng):
    # none along axis 1 with an index from the end (-1), out of range
    # (7 -> 4, -9 -> 0); add along axis 0 with duplicates and an indices
    # tensor smaller than the data in dim 1; mul, max and min along the last
    # axis of a rank-3 f32 / i32 / i64 tensor, duplicates included.
    d0, i0, u0 = uniform(rng, (3, 5)), np.array([[0, -1], [7, 2], [-9, 2]], dtype=I64), \
        uniform(rng, (3, 2))
    d1, i1, u1 = uniform(rng, (4, 3)), np.array([[1, 0], [1, 3], [1, 1], [-4, 2], [0, 0]],
                                               dtype=I32), uniform(rng, (5, 2))
    d2 = uniform(rng, (2, 3, 4), 0.5, 1.5)
    i2 = ints(rng, (2, 2, 3), -4, 3, I64)
    u2 = uniform(rng, (2, 2, 3), 0.5, 1.5)
    d3, u3 = ints(rng, (2, 3, 4), -9, 9), ints(rng, (2, 2, 3), -9, 9)
    d4, u4 = ints(rng, (2, 3, 4), -9, 9, I64), ints(rng, (2, 2, 3), -9, 9, I64)
    mul = as_f32(scatter_ref(f64(d2), 2, i2, f64(u2), "mul"))
    return [d0, i0, u0, d1, i1, u1, d2, i2, u2, d3, u3, d4, u4], [
        scatter_ref(d0, 1, i0, u0),
        as_f32(scatter_ref(f64(d1), 0, i1, f64(u1), "add")),
        mul,
        scatter_ref(d3, 2, i2, u3, "max"),
        scatter_ref(d4, 2, i2, u4, "min"),
        scatter_ref(d2, 2, i2, u2, "max")]


@case
def case_dynamic_update_slice(rng):
    dest, upd = uniform(rng, (5, 4)), uniform(rng, (4,))
    d3, u3 = ints(rng, (2, 3, 4), -9, 9, I64), ints(rng, (2, 4), -9, 9, I64)
    outs = []
    idx = [np.array(v, dtype=I64) for v in (2, -1, 7, -9)]
    for i in idx:
        r = dest.copy()
        r[int(clamp_index(i, 5))] = upd
        outs.append(r)
    r = d3.copy()
    r[:, int(clamp_index(idx[0], 3))] = u3
    outs.append(r)
    return [dest, upd, d3, u3] + idx, outs


@case
def case_pad(rng):
    x = uniform(rng, (2, 3))
    y = ints(rng, (3, 2, 2), -9, 9)
    return [x, y], [
        np.pad(x, ((0, 0), (1, 2))),
        np.pad(x, ((2, 1), (0, 3)), constant_values=1.5).astype(F32),
        np.pad(y, ((1, 0), (0, 0), (2, 1)), constant_values=-1).astype(I32)]


@case
def case_split(rng):
    x = uniform(rng, (3, 6))
    y = ints(rng, (5, 2, 3), -9, 9)
    return [x, y], [x[:, 0:1].copy(), x[:, 1:3].copy(), x[:, 3:6].copy(),
                    y[0:2].copy(), y[2:5].copy()]


@case
def split_dynamic(rng):
    x = uniform(rng, (5, 6))
    return [x], [x[:, 0:2].copy(), x[:, 2:6].copy()]


@case
def case_argmax(rng):
    # Small integers: many ties, which go to the first index.
    x = small_int_floats(rng, (4, 7))
    x[1] = 2.0                 # a row of ties
    x[2, 3] = np.nan           # a NaN is the maximum (torch.argmax)
    x[2, 5] = np.nan           # ... the first one
    x[3] = -np.inf             # all -inf: index 0
    y = ints(rng, (3, 4, 5), -3, 3)
    return [x, y], [np.argmax(x, axis=1).astype(I64),
                    np.argmax(x, axis=0).astype(I64)[None, :],
                    np.argmax(y, axis=1).astype(I64),
                    np.argmax(y, axis=2).astype(I64)[:, :, None]]


@case
def case_cumsum(rng):
    x = uniform(rng, (3, 8))
    y = ints(rng, (4, 3), -1000, 1000)
    z = ints(rng, (5,), -(2 ** 40), 2 ** 40, I64)
    return [x, y, z], [as_f32(np.cumsum(f64(x), axis=1)),
                       as_f32(np.cumsum(f64(x), axis=0)),
                       np.cumsum(y, axis=0).astype(I32),
                       np.cumsum(z).astype(I64)]


@case
def case_cumprod(rng):
    # f32 factors in [-1.5, 1.5] (products of up to 8 stay near 1; a zero
    # in one row), integers in [-9, 9] (products up to 9^5: exact).
    x = uniform(rng, (3, 8), -1.5, 1.5)
    x[1, 3] = 0.0
    y = ints(rng, (4, 3), -9, 9)
    z = ints(rng, (5,), -9, 9, I64)
    return [x, y, z], [as_f32(np.cumprod(f64(x), axis=1)),
                       as_f32(np.cumprod(f64(x), axis=0)),
                       np.cumprod(y, axis=0).astype(I32),
                       np.cumprod(z).astype(I64)]


# ----------------------------------------------------------------------------
# Second op set: graph.if and graph.loop (control-flow.mlir)
# ----------------------------------------------------------------------------

def if_case(rng, cond):
    a, b = uniform(rng, (4,)), uniform(rng, (2, 4))
    c = np.array(cond)
    if cond:
        r0, r1 = f64(a) * 2.0, f64(b).sum(axis=0)
    else:
        r0, r1 = np.exp(f64(a)), f64(b).max(axis=0)
    return [c, a, b], [as_f32(r0), as_f32(r1)]


@case
def if_true(rng):
    return if_case(rng, True)


@case
def if_false(rng):
    return if_case(rng, False)


def for_loop(rng, n):
    """x <- x * 0.5 + i; acc <- acc + sum(x), n times."""
    x0 = uniform(rng, (5,))
    x, acc = f64(x0), 0.0
    for i in range(n):
        x = x * 0.5 + i
        acc = acc + x.sum()
    return [np.array(n, dtype=I64), x0], [as_f32(x), as_f32(acc)]


@case
def loop_for_5(rng):
    return for_loop(rng, 5)


@case
def loop_for_0(rng):
    return for_loop(rng, 0)


def while_loop(rng, limit):
    """while sum(x) < limit: x <- x * 2 + 1; also counts the iterations (the
    condition is computed in the body, ONNX/TorchScript style: the body
    yields the condition for the next iteration)."""
    x0 = uniform(rng, (4,), 0.1, 1.0)
    x, count = f64(x0), 0
    cond = x.sum() < limit
    while cond:
        x = x * 2.0 + 1.0
        count += 1
        cond = x.sum() < limit
    return [x0, np.array(limit, dtype=F32)], [as_f32(x),
                                              np.array(count, dtype=I64)]


@case
def loop_while_100(rng):
    return while_loop(rng, 100.0)


@case
def loop_while_never(rng):
    return while_loop(rng, 0.0)


@case
def loop_rnn(rng):
    """An RNN over time steps, read with gather and written with
    dynamic_update_slice: h <- tanh(x[t] @ W + h @ U); out[t] = h."""
    t, b, d = 6, 2, 5
    x = uniform(rng, (t, b, d), -1, 1)
    w, u = uniform(rng, (d, d), -0.5, 0.5), uniform(rng, (d, d), -0.5, 0.5)
    h = np.zeros((b, d))
    out = np.zeros((t, b, d))
    for i in range(t):
        h = np.tanh(f64(x[i]) @ f64(w) + h @ f64(u))
        out[i] = h
    return [x, w, u], [as_f32(out), as_f32(h)]


@case
def loop_rnn_dynamic(rng):
    """loop_rnn with a dynamic batch (3) and a given initial state."""
    t, b, d = 6, 3, 5
    x = uniform(rng, (t, b, d), -1, 1)
    w, u = uniform(rng, (d, d), -0.5, 0.5), uniform(rng, (d, d), -0.5, 0.5)
    h0 = uniform(rng, (b, d), -1, 1)
    h = f64(h0)
    out = np.zeros((t, b, d))
    for i in range(t):
        h = np.tanh(f64(x[i]) @ f64(w) + h @ f64(u))
        out[i] = h
    return [x, w, u, h0], [as_f32(out), as_f32(h)]


@case
def loop_nested(rng):
    """A graph.if in a loop body (even iterations add 1, odd ones negate)
    and a loop (3 doublings) in the then region of a graph.if."""
    n, x0 = 5, uniform(rng, (3,))
    x = f64(x0)
    for i in range(n):
        x = x + 1.0 if i % 2 == 0 else -x
    return [np.array(n, dtype=I64), x0, np.array(True)], [
        as_f32(x), as_f32(f64(x0) * 8.0)]


# ----------------------------------------------------------------------------
# Second op set in f16 and bf16 (f16-nn.mlir, f16-batched-matmul.mlir): f16
# inputs widened to f32, the op computed in f32 (float64 here), the result
# rounded to f16 once, as docs/Dialects/Graph.md (Numerics) specifies.
# ----------------------------------------------------------------------------

def to_f16(x):
    return np.asarray(x, dtype=np.float64).astype(F32).astype(F16)


@case
def f16_nn(rng):
    x = uniform(rng, (2, 3, 8, 8), -1, 1, F16)
    w = uniform(rng, (4, 3, 3, 3), -1, 1, F16)
    y = uniform(rng, (1, 2, 7, 7), -4, 4, F16)
    return [x, w, y], [
        to_f16(conv2d(w32(x), w32(w), None, (1, 1), (1, 1, 1, 1))),
        to_f16(max_pool2d(w32(y), (3, 3), (2, 2), (1, 1, 1, 1))),
        to_f16(avg_pool2d(w32(y), (3, 3), (2, 2), (1, 1, 1, 1),
                          ceil_mode=True)),
        to_f16(adaptive_avg_pool2d(w32(y), (1, 1))),
        to_f16(erf(w32(y))),
        to_f16(w32(y) * hardsigmoid(w32(y))),
        to_f16(clamp_float(w32(y), -1.0, 2.0))]


@case
def f16_accumulation(rng):
    # Positive inputs, no cancellation: the once-rounded result is within
    # half an f16 ulp of the exact one, so rtol 1e-3 separates "rounded
    # once" from "rounded at every partial sum".
    x = uniform(rng, (1, 4, 8, 8), 0, 1, F16)
    wd = uniform(rng, (4, 1, 5, 5), 0, 1, F16)
    wg = uniform(rng, (4, 2, 5, 5), 0, 1, F16)
    c = uniform(rng, (64,), 0, 1, F16)
    ln = uniform(rng, (4, 64), 0, 4, F16)
    lw, lb = uniform(rng, (64,), -2, 2, F16), uniform(rng, (64,), -2, 2, F16)
    m, v = uniform(rng, (4,), -1, 1, F16), uniform(rng, (4,), 0.5, 2, F16)
    return [x, wd, wg, c, ln, lw, lb, m, v], [
        to_f16(conv2d(w32(x), w32(wd), groups=4)),
        to_f16(conv2d(w32(x), w32(wg), groups=2)),
        to_f16(np.cumsum(f64(w32(c)))),
        to_f16(layer_norm(w32(ln), w32(lw), w32(lb), 1e-5)),
        to_f16(batch_norm(w32(x), w32(m), w32(v), w32(m), w32(v), 1e-5))]


@case
def f16_batched_matmul(rng):
    a, b = uniform(rng, (2, 8, 16), -1, 1, F16), uniform(rng, (2, 16, 8), -1, 1, F16)
    return [a, b], [to_f16(np.matmul(f64(w32(a)), f64(w32(b))))]


@case
def bf16_batched_matmul(rng):
    a, b = uniform(rng, (2, 8, 16), -1, 1), uniform(rng, (2, 16, 8), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [bf16_round(as_f32(np.matmul(f64(x), f64(y))))]


@case
def f16_conv2d_bias(rng):
    x = uniform(rng, (2, 3, 8, 8), -1, 1, F16)
    w = uniform(rng, (4, 3, 3, 3), -1, 1, F16)
    b = uniform(rng, (4,), -1, 1, F16)
    return [x, w, b], [to_f16(conv2d(w32(x), w32(w), w32(b), (1, 1),
                                     (1, 1, 1, 1)))]


@case
def f16_sdpa(rng):
    q, k, v = (uniform(rng, (2, 8, 16), -2, 2, F16) for _ in range(3))
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v)))]


# ----------------------------------------------------------------------------

def c_order(x):
    """A C-ordered copy; unlike np.ascontiguousarray it keeps rank 0."""
    return np.array(x, order="C", copy=True)


# ----------------------------------------------------------------------------
# CUDA warp reductions (cuda-reductions.mlir, REQUIRES: cuda-gpu): shapes that
# exercise partial warps, partial blocks and partial lane rounds.
# ----------------------------------------------------------------------------

@case
def cuda_softmax_rows(rng):
    x = uniform(rng, (64, 1000), -3, 3)
    return [x], [as_f32(softmax(x, 1))]


@case
def cuda_softmax_ragged(rng):
    # 37 rows: not a multiple of 4 warps per block; 10 columns: fewer
    # elements than lanes (22 lanes add only the neutral element).
    x = uniform(rng, (37, 10), -3, 3)
    return [x], [as_f32(softmax(x, 1))]


@case
def cuda_layer_norm(rng):
    x = uniform(rng, (128, 768), -3, 3)
    w, b = uniform(rng, (768,)), uniform(rng, (768,))
    return [x, w, b], [as_f32(layer_norm(x, w, b, 1e-5))]


@case
def cuda_reduce_sum(rng):
    # 257 = 8 full lane rounds + 1 element.
    x = uniform(rng, (32, 4, 257), -1, 1)
    return [x], [as_f32(f64(x).sum(axis=2))]


@case
def cuda_reduce_max_i32(rng):
    x = ints(rng, (4096,), -1000000, 1000000)
    return [x], [np.array(x.max(), dtype=I32)]


# Row kernels (graph-gpu-row-kernels on CUDA; the CPU's own lowering
# elsewhere): masked softmax rows and reduced-precision layer norm.
# ----------------------------------------------------------------------------

@case
def row_softmax_masked(rng):
    # 37 rows of 300 (a partial block of warps; 300 = 9 lane rounds + 12):
    # odd rows begin with 100 masked (-inf) entries, row 2 is masked but for
    # its last entry (probability 1), row 4 wholly (0 / 0: NaN, as NumPy
    # and PyTorch give), row 6 holds a NaN (the row is NaN).
    x = uniform(rng, (37, 300), -8, 8)
    x[1::2, :100] = -np.inf
    x[2, :-1] = -np.inf
    x[4, :] = -np.inf
    x[6, 17] = np.nan
    with np.errstate(invalid="ignore"):
        return [x], [as_f32(softmax(x, 1))]


@case
def row_layer_norm_f16(rng):
    # f16 over the two trailing dims (rows of 4 x 64 = 256), computed in
    # f32, rounded once.
    x = uniform(rng, (6, 4, 64), -3, 3).astype(np.float16)
    w = uniform(rng, (4, 64)).astype(np.float16)
    b = uniform(rng, (4, 64)).astype(np.float16)
    return [x, w, b], [layer_norm(x, w, b, 1e-5).astype(np.float16)]


@case
def row_rms_norm_f32(rng):
    # w * (x * rsqrt(mean(x^2) + 1e-6)) over rows of 300.
    x = uniform(rng, (37, 300), -3, 3)
    w = uniform(rng, (300,))
    ms = np.mean(f64(x) ** 2, axis=1, keepdims=True)
    return [x, w], [as_f32(f64(w) * (f64(x) / np.sqrt(ms + f64(F32(1e-6)))))]


@case
def row_rms_norm_f16(rng):
    # f16 over the two trailing dims (rows of 4 x 64), no weight, computed in
    # f32 from the f16 inputs, rounded once.
    x = uniform(rng, (6, 4, 64), -3, 3).astype(np.float16)
    ms = np.mean(f64(x) ** 2, axis=(1, 2), keepdims=True)
    eps = f64(np.float16(1e-5))
    return [x], [(f64(x) / np.sqrt(ms + eps)).astype(np.float16)]


# ----------------------------------------------------------------------------
# CUDA matmul kernels (gpu-matmul-kernels.mlir): shapes the graph-gpu-matmul
# tiles divide, so the CUDA target (emulated) runs its tensor-core and SIMT
# kernels; products of f16/bf16 inputs summed in f32, rounded once.
# ----------------------------------------------------------------------------

@case
def gk_f16_mm(rng):
    a, b = uniform(rng, (128, 64), -1, 1, F16), uniform(rng, (64, 64), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


@case
def gk_f16_bmm(rng):
    a, b = uniform(rng, (2, 64, 96), -1, 1, F16), uniform(rng, (2, 96, 128), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


@case
def gk_f16_sdpa(rng):
    q, k, v = (uniform(rng, (2, 64, 64), -1, 1, F16) for _ in range(3))
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v)))]


@case
def gk_f32_linear(rng):
    x, w = uniform(rng, (128, 48), -1, 1), uniform(rng, (48, 128), -1, 1)
    b = uniform(rng, (128,), -1, 1)
    return [x, w, b], [as_f32(f64(x) @ f64(w) + f64(b))]


@case
def gk_f32_sdpa(rng):
    q, k, v = (uniform(rng, (1, 64, 64), -1, 1) for _ in range(3))
    return [q, k, v], [as_f32(sdpa(q, k, v))]


@case
def gk_bf16_mm(rng):
    a, b = uniform(rng, (128, 32), -1, 1), uniform(rng, (32, 128), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [bf16_round(as_f32(f64(x) @ f64(y)))]


def tf32_round(x):
    """Rounds float32 values to TF32 (10 mantissa bits) to nearest, ties away
    from zero (PTX cvt.rna.tf32.f32), as f32; NaN kept."""
    x = np.array(x, dtype=F32, order="C")
    bits = x.view(np.uint32)
    r = ((bits.astype(np.uint64) + 0x1000) & 0xFFFFE000).astype(np.uint32)
    return np.where(np.isnan(x), x, r.view(F32))


@case
def gk_tf32_linear(rng):
    # f32 linear layer + bias with TF32 products (the CUDA pipeline's opt-in
    # tf32): the inputs rounded to TF32, products summed in f64, rounded
    # once. expected1: the IEEE f32 result (the CPU target, and the CUDA
    # target without tf32), which differs from the TF32 one by ~1e-3.
    x, w = uniform(rng, (128, 64), -1, 1), uniform(rng, (64, 128), -1, 1)
    b = uniform(rng, (128,), -1, 1)
    tf32 = as_f32(f64(tf32_round(x)) @ f64(tf32_round(w)) + f64(b))
    return [x, w, b], [tf32, as_f32(f64(x) @ f64(w) + f64(b))]


@case
def gk_f16_a_bt(rng):
    a, b = uniform(rng, (64, 96), -1, 1, F16), uniform(rng, (128, 96), -1, 1, F16)
    return [a, b], [as_f32(f64(a) @ f64(b).T)]


@case
def gk_f32_at_b(rng):
    a, b = uniform(rng, (32, 64), -1, 1), uniform(rng, (32, 128), -1, 1)
    return [a, b], [as_f32(f64(a).T @ f64(b))]


@case
def gk_f16_linear_relu(rng):
    x, w = uniform(rng, (128, 64), -1, 1, F16), uniform(rng, (64, 128), -1, 1, F16)
    b = uniform(rng, (128,), -1, 1, F16)
    y = w32(to_f16(f64(w32(x)) @ f64(w32(w))))  # graph.matmul rounds to f16
    z = w32(to_f16(f64(y) + f64(w32(b))))       # graph.add rounds to f16
    return [x, w, b], [to_f16(np.maximum(f64(z), 0))]


@case
def gk_f32_linear_gelu(rng):
    x, w = uniform(rng, (128, 32), -1, 1), uniform(rng, (32, 256), -1, 1)
    b = uniform(rng, (256,), -1, 1)
    z = as_f32(f64(x) @ f64(w) + f64(b))
    return [x, w, b], [as_f32(gelu_erf(f64(z)))]


@case
def gk_f32_two_uses(rng):
    x, w = uniform(rng, (128, 16), -1, 1), uniform(rng, (16, 128), -1, 1)
    y = as_f32(f64(x) @ f64(w))
    return [x, w], [y, as_f32(np.maximum(f64(y), 0))]


@case
def gk_f16_acc(rng):
    a, b = uniform(rng, (64, 64), -1, 1, F16), uniform(rng, (64, 64), -1, 1, F16)
    c = uniform(rng, (64, 64), -1, 1)
    return [a, b, c], [as_f32(f64(c) + f64(a) @ f64(b))]


@case
def gk_bf16_a_bt(rng):
    a, b = uniform(rng, (64, 64), -1, 1), uniform(rng, (128, 64), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [as_f32(f64(x) @ f64(y).T)]


# ----------------------------------------------------------------------------
# CUDA matmuls on zero-padded operands (gpu-matmul-padded.mlir): shapes the
# kernels' tiles do not divide.

@case
def gp_f16(rng):
    a, b = uniform(rng, (200, 300), -1, 1, F16), uniform(rng, (300, 72), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


@case
def gp_bf16_bt(rng):
    a, b = uniform(rng, (130, 256), -1, 1), uniform(rng, (130, 256), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [as_f32(f64(x) @ f64(y).T)]


@case
def gp_f16_bmm(rng):
    a, b = uniform(rng, (3, 100, 200), -1, 1, F16), uniform(rng, (3, 200, 72), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


@case
def gp_f32_bias(rng):
    x, w = uniform(rng, (200, 300), -1, 1), uniform(rng, (300, 72), -1, 1)
    b = uniform(rng, (72,), -1, 1)
    return [x, w, b], [as_f32(f64(x) @ f64(w) + f64(b))]


@case
def gp_f16_rows(rng):
    a, b = uniform(rng, (100, 256), -1, 1, F16), uniform(rng, (256, 192), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


@case
def gp_f32_rows_bias(rng):
    x, w = uniform(rng, (100, 256), -1, 1), uniform(rng, (256, 256), -1, 1)
    b = uniform(rng, (256,), -1, 1)
    return [x, w, b], [as_f32(f64(x) @ f64(w) + f64(b))]


@case
def gp_bf16_rows(rng):
    a, b = uniform(rng, (100, 256), -1, 1), uniform(rng, (256, 192), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [bf16_round(as_f32(f64(x) @ f64(y)))]


@case
def gp_f16_gemv(rng):
    a, b = uniform(rng, (4, 40), -1, 1, F16), uniform(rng, (40, 72), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


@case
def gk_bf16_at_b(rng):
    # A stored [K, M]: the product is A^T B.
    a, b = uniform(rng, (64, 64), -1, 1), uniform(rng, (64, 128), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [as_f32(f64(x).T @ f64(y))]


@case
def gk_tf32_at_bt(rng):
    # A stored [K, M], B stored [N, K]: A^T B^T with TF32 products;
    # expected1: the IEEE f32 result (the CPU target).
    a, b = uniform(rng, (64, 64), -1, 1), uniform(rng, (128, 64), -1, 1)
    tf32 = as_f32(f64(tf32_round(a)).T @ f64(tf32_round(b)).T)
    return [a, b], [tf32, as_f32(f64(a).T @ f64(b).T)]


# ----------------------------------------------------------------------------
# The fused CUDA attention kernel (gpu-attention-kernel.mlir): f16 inputs,
# the result of the exact (float64) attention rounded once to f16.
# ----------------------------------------------------------------------------

@case
def gk_attn_plain(rng):
    q = uniform(rng, (2, 128, 64), -1, 1, F16)
    k, v = (uniform(rng, (2, 96, 64), -1, 1, F16) for _ in range(2))
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v)))]


@case
def gk_attn_bf16(rng):
    # Causal attention in bf16: inputs as f32 (the program casts them),
    # the float64 attention of the bf16-rounded inputs rounded once to bf16.
    q, k = (uniform(rng, (1, 2, 128, 64), -2, 2) for _ in range(2))
    v = uniform(rng, (1, 2, 128, 64), -1, 1)
    x, y, z = bf16_round(q), bf16_round(k), bf16_round(v)
    return [q, k, v], [bf16_round(as_f32(sdpa(x, y, z, causal=True)))]


@case
def gk_attn_causal(rng):
    q, k = (uniform(rng, (1, 2, 128, 32), -2, 2, F16) for _ in range(2))
    v = uniform(rng, (1, 2, 128, 32), -1, 1, F16)
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v), causal=True))]


@case
def gk_attn_d128(rng):
    q, k, v = (uniform(rng, (1, 64, 128), -1, 1, F16) for _ in range(3))
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v)))]


@case
def gk_attn_scale(rng):
    q = uniform(rng, (3, 64, 16), -2, 2, F16)
    k, v = (uniform(rng, (3, 32, 16), -2, 2, F16) for _ in range(2))
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v), scale=0.5))]


@case
def gk_attn_masked(rng):
    q, k, v = (uniform(rng, (2, 64, 32), -1, 1, F16) for _ in range(3))
    m = uniform(rng, (64, 64), -1, 1, F16)
    return [q, k, v, m], [to_f16(sdpa(w32(q), w32(k), w32(v), mask=w32(m)))]


@case
def gk_attn_bool_mask(rng):
    # An i1 mask [B, 1, L, S] broadcast over the heads; every row keeps its
    # first key (no fully masked row, whose softmax would be NaN).
    q = uniform(rng, (2, 2, 64, 32), -1, 1, F16)
    k, v = (uniform(rng, (2, 2, 96, 32), -1, 1, F16) for _ in range(2))
    m = rng.random((2, 1, 64, 96)) < 0.7
    m[..., 0] = True
    return [q, k, v, m], [to_f16(sdpa(w32(q), w32(k), w32(v), mask=m))]


@case
def gk_attn_ragged(rng):
    # ViT-like 197 tokens: L and S not multiples of the 64-row blocks or
    # the 64-key steps.
    q, k, v = (uniform(rng, (2, 197, 64), -1, 1, F16) for _ in range(3))
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v)))]


@case
def gk_attn_ragged_causal(rng):
    q, k = (uniform(rng, (1, 2, 100, 32), -2, 2, F16) for _ in range(2))
    v = uniform(rng, (1, 2, 100, 32), -1, 1, F16)
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v), causal=True))]


@case
def gk_attn_ragged_d128(rng):
    q = uniform(rng, (1, 70, 128), -1, 1, F16)
    k, v = (uniform(rng, (1, 45, 128), -1, 1, F16) for _ in range(2))
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v)))]


@case
def gk_attn_ragged_mask(rng):
    # An i1 mask [B, 1, L, S] with L = 80, S = 50 (32-key steps, the last
    # one 18 keys), and a float mask [L, S].
    q = uniform(rng, (2, 2, 80, 32), -1, 1, F16)
    k, v = (uniform(rng, (2, 2, 50, 32), -1, 1, F16) for _ in range(2))
    m = rng.random((2, 1, 80, 50)) < 0.7
    m[..., 49] = True
    fm = uniform(rng, (80, 50), -2, 1, F16)
    return [q, k, v, m, fm], [to_f16(sdpa(w32(q), w32(k), w32(v), mask=m)),
                              to_f16(sdpa(w32(q), w32(k), w32(v), mask=w32(fm)))]


@case
def gk_attn_d40(rng):
    # Stable Diffusion 1.5's head dim 40 (cross attention over 77 tokens).
    q = uniform(rng, (2, 96, 40), -1, 1, F16)
    k, v = (uniform(rng, (2, 77, 40), -1, 1, F16) for _ in range(2))
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v)))]


@case
def gk_attn_d120_causal(rng):
    q, k = (uniform(rng, (1, 2, 64, 120), -1, 1, F16) for _ in range(2))
    v = uniform(rng, (1, 2, 64, 120), -1, 1, F16)
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v), causal=True))]


@case
def gk_attn_d256(rng):
    # Gemma's head dim 256 (253 registers a thread, no spills on sm_90).
    q = uniform(rng, (1, 64, 256), -1, 1, F16)
    k, v = (uniform(rng, (1, 40, 256), -1, 1, F16) for _ in range(2))
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v)))]


@case
def gk_attn_d160_causal(rng):
    # Stable Diffusion 1.5's deepest head dim, 160.
    q, k = (uniform(rng, (1, 2, 70, 160), -1, 1, F16) for _ in range(2))
    v = uniform(rng, (1, 2, 70, 160), -1, 1, F16)
    return [q, k, v], [to_f16(sdpa(w32(q), w32(k), w32(v), causal=True))]


# The f32 SIMT attention kernel (test/Integration/gpu-attention-f32.mlir):
# inputs of magnitude 1, references in float64.

@case
def gf_attn_plain(rng):
    q, k, v = (uniform(rng, (2, 3, 128, 64), -1, 1) for _ in range(3))
    return [q, k, v], [as_f32(sdpa(q, k, v))]


@case
def gf_attn_ragged_causal(rng):
    # L = S = 100: the last block's rows past L and the last step's keys
    # past S; keys past each row masked.
    q, k = (uniform(rng, (1, 2, 100, 64), -2, 2) for _ in range(2))
    v = uniform(rng, (1, 2, 100, 64), -1, 1)
    return [q, k, v], [as_f32(sdpa(q, k, v, causal=True))]


@case
def gf_attn_d40(rng):
    # Stable Diffusion 1.5's head dim 40 (computed as 64 over zero
    # columns), 77 keys.
    q = uniform(rng, (2, 96, 40), -1, 1)
    k, v = (uniform(rng, (2, 77, 40), -1, 1) for _ in range(2))
    return [q, k, v], [as_f32(sdpa(q, k, v))]


@case
def gf_attn_d128_scale(rng):
    q = uniform(rng, (1, 70, 128), -1, 1)
    k, v = (uniform(rng, (1, 45, 128), -1, 1) for _ in range(2))
    return [q, k, v], [as_f32(sdpa(q, k, v, scale=0.05))]


@case
def gf_attn_bool_mask(rng):
    # An i1 mask [B, 1, L, S] broadcast over the heads; every row keeps its
    # first key (no fully masked row).
    q = uniform(rng, (2, 2, 80, 32), -1, 1)
    k, v = (uniform(rng, (2, 2, 50, 32), -1, 1) for _ in range(2))
    m = rng.random((2, 1, 80, 50)) < 0.6
    m[..., 0] = True
    return [q, k, v, m], [as_f32(sdpa(q, k, v, mask=m))]


@case
def gf_attn_float_mask(rng):
    # A float mask [L, S] added to the scaled scores (an ALiBi-like bias).
    q = uniform(rng, (3, 64, 96), -1, 1)
    k, v = (uniform(rng, (3, 64, 96), -1, 1) for _ in range(2))
    m = uniform(rng, (64, 64), -2, 0)
    return [q, k, v, m], [as_f32(sdpa(q, k, v, mask=m))]


# Grid-stride elementwise kernels (test/Integration/gpu-grid-stride.mlir).
@case
def gs_odd(rng):
    a, b = uniform(rng, (1089, 1001)), uniform(rng, (1089, 1001))
    return [a, b], [as_f32(f64(a) + f64(b))]


@case
def gs_bcast(rng):
    a, b = uniform(rng, (1089, 1001)), uniform(rng, (1001,))
    return [a, b], [as_f32(f64(a) * f64(b))]


@case
def gs_vec(rng):
    a = uniform(rng, (4400, 1024))
    return [a], [as_f32(f64(a) * 2.0 + 1.0)]


@case
def gs_dynamic(rng):
    a, b = uniform(rng, (1089, 1001)), uniform(rng, (1089, 1001))
    return [a, b], [as_f32(f64(a) - f64(b))]


# Hopper wgmma kernel (test/Integration/gpu-matmul-wgmma.mlir).
@case
def wg_f16_mm(rng):
    a, b = uniform(rng, (256, 128), -1, 1, F16), uniform(rng, (128, 256), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


@case
def wg_f16_a_bt(rng):
    a, b = uniform(rng, (128, 192), -1, 1, F16), uniform(rng, (256, 192), -1, 1, F16)
    return [a, b], [as_f32(f64(a) @ f64(b).T)]


@case
def wg_bf16_at_b(rng):
    a, b = uniform(rng, (128, 256), -1, 1), uniform(rng, (128, 128), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [as_f32(f64(x).T @ f64(y))]


@case
def wg_bf16_at_bt(rng):
    a, b = uniform(rng, (64, 128), -1, 1), uniform(rng, (256, 64), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [as_f32(f64(x).T @ f64(y).T)]


@case
def wg_f16_acc(rng):
    a, b = uniform(rng, (128, 64), -1, 1, F16), uniform(rng, (128, 64), -1, 1, F16)
    c = uniform(rng, (128, 128), -1, 1)
    return [a, b, c], [as_f32(f64(c) + f64(a) @ f64(b).T)]


@case
def wg_f16_linear_relu(rng):
    x, w = uniform(rng, (128, 192), -1, 1, F16), uniform(rng, (192, 256), -1, 1, F16)
    b = uniform(rng, (256,), -1, 1, F16)
    y = w32(to_f16(f64(w32(x)) @ f64(w32(w))))  # graph.matmul rounds to f16
    z = w32(to_f16(f64(y) + f64(w32(b))))       # graph.add rounds to f16
    return [x, w, b], [to_f16(np.maximum(f64(z), 0))]


@case
def wg_f16_bmm(rng):
    a, b = uniform(rng, (2, 128, 64), -1, 1, F16), uniform(rng, (2, 64, 128), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


@case
def wg_f16_rows(rng):
    a, b = uniform(rng, (200, 128), -1, 1, F16), uniform(rng, (128, 256), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


# Matrix-vector-like kernel (test/Integration/gpu-matmul-vector.mlir).
@case
def mv_f16_b(rng):
    a, b = uniform(rng, (4, 512), -1, 1, F16), uniform(rng, (512, 200), -1, 1, F16)
    return [a, b], [to_f16(f64(w32(a)) @ f64(w32(b)))]


@case
def mv_f16_bt_bias(rng):
    x, w = uniform(rng, (1, 768), -1, 1, F16), uniform(rng, (3072, 768), -1, 1, F16)
    b = uniform(rng, (3072,), -1, 1)
    return [x, w, b], [as_f32(f64(x) @ f64(w).T + f64(b))]


@case
def mv_f16_bt_odd_k(rng):
    x, w = uniform(rng, (2, 100), -1, 1, F16), uniform(rng, (64, 100), -1, 1, F16)
    return [x, w], [as_f32(f64(x) @ f64(w).T)]


@case
def mv_f32_at_acc(rng):
    a, b = uniform(rng, (64, 3), -1, 1), uniform(rng, (64, 128), -1, 1)
    c = uniform(rng, (3, 128), -1, 1)
    return [a, b, c], [as_f32(f64(c) + f64(a).T @ f64(b))]


@case
def mv_f32_rows8(rng):
    a, b = uniform(rng, (8, 128), -1, 1), uniform(rng, (128, 64), -1, 1)
    return [a, b], [as_f32(f64(a) @ f64(b))]


@case
def mv_f16_rows12_linear(rng):
    x, w = uniform(rng, (12, 256), -1, 1, F16), uniform(rng, (96, 256), -1, 1, F16)
    b = uniform(rng, (96,), -1, 1, F16)
    return [x, w, b], [to_f16(f64(x) @ f64(w).T + f64(b))]


@case
def mv_f32_rows15(rng):
    a, b = uniform(rng, (15, 200), -1, 1), uniform(rng, (200, 72), -1, 1)
    return [a, b], [as_f32(f64(a) @ f64(b))]


@case
def mv_bf16_bmm(rng):
    a, b = uniform(rng, (2, 2, 256), -1, 1), uniform(rng, (2, 256, 128), -1, 1)
    x, y = bf16_round(a), bf16_round(b)
    return [a, b], [bf16_round(as_f32(f64(x) @ f64(y)))]


# A transposed weight read by the kernels in place (graph.transpose +
# graph.matmul, as the PyTorch importer writes F.linear).
@case
def mv_f16_linear_t(rng):
    x, w = uniform(rng, (2, 256), -1, 1, F16), uniform(rng, (128, 256), -1, 1, F16)
    b = uniform(rng, (128,), -1, 1, F16)
    y = w32(to_f16(f64(w32(x)) @ f64(w32(w)).T))
    return [x, w, b], [to_f16(f64(y) + f64(w32(b)))]


@case
def gk_f16_linear_t(rng):
    x, w = uniform(rng, (128, 64), -1, 1, F16), uniform(rng, (128, 64), -1, 1, F16)
    b = uniform(rng, (128,), -1, 1, F16)
    y = w32(to_f16(f64(w32(x)) @ f64(w32(w)).T))
    return [x, w, b], [to_f16(f64(y) + f64(w32(b)))]


@case
def mv_f32_head_bt(rng):
    x, w = uniform(rng, (8, 128), -1, 1), uniform(rng, (10, 128), -1, 1)
    return [x, w], [as_f32(f64(x) @ f64(w).T)]


@case
def mv_f32_odd_n(rng):
    a, b = uniform(rng, (3, 64), -1, 1), uniform(rng, (64, 13), -1, 1)
    return [a, b], [as_f32(f64(a) @ f64(b))]


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        print("\n".join(sorted(CASES)))
        return 0
    if len(argv) != 3 or argv[1] not in CASES:
        sys.stderr.write("usage: reference.py CASE OUTDIR (reference.py --list "
                         "names the cases)\n")
        if len(argv) == 3:
            sys.stderr.write("reference.py: unknown case '%s'\n" % argv[1])
        return 2
    name, outdir = argv[1], argv[2]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    inputs, outputs = CASES[name](rng)
    os.makedirs(outdir, exist_ok=True)
    for i, x in enumerate(inputs):
        np.save(os.path.join(outdir, "x%d.npy" % i), c_order(x))
    for i, y in enumerate(outputs):
        fname = "expected.npy" if i == 0 else "expected%d.npy" % i
        np.save(os.path.join(outdir, fname), c_order(y))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

