"""ATen op mappings: matrix products, attention, and determinants, inverses
and solves of small matrices (the registry and the emission context are in
:mod:`.core`)."""

from __future__ import annotations

import warnings
from typing import Optional

import torch

from ... import composites
from ...errors import Unsupported
from .core import Args, op
from .elementwise import _scaled


# ---------------------------------------------------------------------------
# Matrix products
# ---------------------------------------------------------------------------

@op("aten.matmul", "aten.mm", "aten.bmm")
def _matmul(ctx, a):
    lhs, rhs = ctx.same_dtype("matmul", a.self, a.first("other", "mat2"))
    return ctx.b.matmul(lhs, rhs)


@op("aten.linear")
def _linear(ctx, a):
    x, w = ctx.same_dtype("linear", a.input, a.weight)
    wt = ctx.b.transpose(w, [1, 0]) if w.rank == 2 else w
    y = ctx.b.matmul(x, wt)
    if a.get("bias") is not None:
        y = ctx.b.binary("add", y, ctx.tensor(a.bias, y.dtype))
    return y


@op("aten.addmm")
def _addmm(ctx, a):
    m1, m2 = ctx.same_dtype("addmm", a.mat1, a.mat2)
    y = _scaled(ctx, ctx.b.matmul(m1, m2), a.get("alpha", 1))
    bias = _scaled(ctx, ctx.tensor(a.self, y.dtype), a.get("beta", 1))
    return ctx.b.binary("add", y, bias)


@op("aten.t", "aten.numpy_T")
def _t_op(ctx, a):
    x = ctx.tensor(a.self)
    return x if x.rank < 2 else ctx.b.transpose(x, list(range(x.rank))[::-1])


# ---------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------

def _check_sdpa(a: Args) -> Optional[str]:
    p = a.get("dropout_p", 0.0)
    if isinstance(p, (int, float)) and p != 0:
        return "scaled_dot_product_attention with dropout_p != 0 is not supported"
    if a.get("enable_gqa") is True:
        return "scaled_dot_product_attention with enable_gqa is not supported"
    return None


@op("aten.scaled_dot_product_attention", check=_check_sdpa)
def _sdpa(ctx, a):
    q, k, v = ctx.promote(a.query, a.key, a.value)
    q, k, v = (ctx.to_float(t) for t in (q, k, v))
    mask = a.get("attn_mask")
    if mask is not None:
        mask = ctx.tensor(mask)
        if mask.dtype != torch.bool:
            mask = ctx.b.cast(mask, q.dtype)
    scale = a.get("scale")
    return ctx.b.scaled_dot_product_attention(
        q, k, v, mask, scale=None if scale is None else ctx.float_(scale, "scale"),
        is_causal=bool(a.get("is_causal", False)))


# ---------------------------------------------------------------------------
# Determinants, inverses and solves of small matrices: elimination with
# partial pivoting unrolled over the columns (composites.gauss_jordan)
# ---------------------------------------------------------------------------

_ELIMINATION_WARNING = 64


def _square(ctx, a, what: str):
    x = ctx.to_float(ctx.tensor(a))
    if x.rank < 2 or None in x.shape or x.shape[-1] != x.shape[-2]:
        raise Unsupported(f"{what} of {x.type}: static square matrices are supported")
    if x.shape[-1] > _ELIMINATION_WARNING:
        warnings.warn(f"graphopt: {what} of {x.shape[-1]} x {x.shape[-1]} matrices is "
                      "unrolled over the columns (meant for small matrices)", stacklevel=2)
    return x


@op("aten.linalg_det", "aten.det", "aten._linalg_det")
def _det(ctx, a):
    """The determinant: the product of the pivots of an elimination with
    partial pivoting, one sign flip per row swap (0 when singular)."""
    x = _square(ctx, a.first("A", "self"), "det")
    det = composites.gauss_jordan(ctx.b, x, full=False)[0]
    if a.schema is not None and len(a.schema.returns) == 3:   # (det, LU, pivots)
        return det, None, None
    return det


@op("aten.linalg_slogdet", "aten._linalg_slogdet", "aten.slogdet")
def _slogdet(ctx, a):
    """(sign, log|det|) from the pivots: sign 0 and log|det| -inf when
    singular, as PyTorch gives them."""
    x = _square(ctx, a.first("A", "self"), "slogdet")
    _, sign, logabs, _ = composites.gauss_jordan(ctx.b, x, full=False)
    if a.schema is not None and len(a.schema.returns) == 4:   # (+ LU, pivots)
        return sign, logabs, None, None
    return sign, logabs


@op("aten.logdet")
def _logdet(ctx, a):
    """log(det): NaN for a negative determinant, -inf for a singular one."""
    x = _square(ctx, a.first("A", "self"), "logdet")
    b = ctx.b
    _, sign, logabs, _ = composites.gauss_jordan(b, x, full=False)
    nan = b.scalar(float("nan"), x.dtype)
    return b.select(b.compare("lt", sign, b.scalar(0.0, x.dtype)), nan, logabs)


@op("aten.linalg_inv", "aten.inverse", "aten.linalg_inv_ex")
def _inv(ctx, a):
    """Gauss-Jordan elimination on [A | I]; a singular matrix gives inf or
    NaN entries (PyTorch raises)."""
    x = _square(ctx, a.first("A", "self"), "inverse")
    inv = composites.gauss_jordan(ctx.b, x, full=True)[3]
    if a.schema is not None and len(a.schema.returns) == 2:   # (inverse, info)
        return inv, None
    return inv


@op("aten.linalg_solve", "aten._linalg_solve_ex")
def _solve(ctx, a):
    """X with A X = B (B a matrix, or a vector when it has one dim fewer
    than A): Gauss-Jordan elimination on [A | B]."""
    b = ctx.b
    x = _square(ctx, a.A, "solve")
    rhs = ctx.tensor(a.B, x.dtype)
    if a.get("left", True) is False:
        raise Unsupported("linalg.solve with left=False")
    vector = rhs.rank == x.rank - 1
    if vector:
        rhs = ctx.reshape_dims(rhs, list(rhs.shape) + [1])
    if list(rhs.shape[:-2]) != list(x.shape[:-2]):
        rhs = b.broadcast_to(rhs, list(x.shape[:-2]) + list(rhs.shape[-2:]))
    sol = composites.gauss_jordan(b, x, rhs, full=True)[3]
    if vector:
        sol = ctx.reshape_dims(sol, list(sol.shape[:-1]))
    if a.schema is not None and len(a.schema.returns) == 4:   # (result, LU, pivots, info)
        return sol, None, None, None
    return sol
