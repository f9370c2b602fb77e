"""Special functions as compositions of graph ops: erfc, erfcx, log_ndtr,
lgamma (with mvlgamma), digamma, the modified Bessel functions i0, i0e, i1,
i1e, and entr.

Each is a published approximation evaluated in the tensor's float type;
the docstrings name the source and its error bound. The tests compare them
with eager PyTorch (python/tests/importer/test_aten_composites.py)."""

from __future__ import annotations

import math

from ...errors import Unsupported
from ..dtypes import Value
from .core import _t, op
from ... import composites


def _float_in(ctx, a) -> Value:
    return ctx.to_float(ctx.tensor(_t(a)))


class _Ops:
    """Short names for the elementwise builders, in the dtype of ``x``."""

    def __init__(self, b, dtype):
        self.b, self.dt = b, dtype

    def c(self, v):
        return self.b.scalar(v, self.dt)

    def add(self, x, y):
        return self.b.binary("add", x, y)

    def sub(self, x, y):
        return self.b.binary("sub", x, y)

    def mul(self, x, y):
        return self.b.binary("mul", x, y)

    def div(self, x, y):
        return self.b.binary("div", x, y)

    def u(self, name, x):
        return self.b.unary(name, x)

    def lt(self, x, y):
        return self.b.compare("lt", x, y)

    def eq(self, x, y):
        return self.b.compare("eq", x, y)

    def sel(self, cond, x, y):
        return self.b.select(cond, x, y)

    def horner(self, coeffs, t):
        """coeffs[0] + coeffs[1] t + coeffs[2] t^2 + ..."""
        p = self.c(coeffs[-1])
        for k in reversed(coeffs[:-1]):
            p = self.add(self.c(k), self.mul(p, t))
        return p


# ---------------------------------------------------------------------------
# erfc and relatives
# ---------------------------------------------------------------------------

# Numerical Recipes' erfcc (Chebyshev fit, fractional error below 1.2e-7
# for every z >= 0): erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z / 2).
_ERFC_P = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806,
           0.27886807, -1.13520398, 1.48851587, -0.82215223, 0.17087277]


def _erfc_scaled_parts(o: _Ops, x: Value):
    """For z = |x|: (t exp(P(t)), z): erfc(z) = exp(-z^2) * the first."""
    z = o.u("abs", x)
    t = o.div(o.c(1.0), o.add(o.c(1.0), o.mul(o.c(0.5), z)))
    return o.mul(t, o.u("exp", o.horner(_ERFC_P, t))), z


def _erfc_value(o: _Ops, x: Value) -> Value:
    scaled, z = _erfc_scaled_parts(o, x)
    pos = o.mul(scaled, o.u("exp", o.u("neg", o.mul(z, z))))
    return o.sel(o.lt(x, o.c(0.0)), o.sub(o.c(2.0), pos), pos)


@op("aten.erfc", "aten.special_erfc")
def _erfc(ctx, a):
    """1 - erf(x) without the cancellation for large x (relative error
    below 1.2e-7 where the result is a normal float: Numerical Recipes'
    Chebyshev fit)."""
    x = _float_in(ctx, a)
    return _erfc_value(_Ops(ctx.b, x.dtype), x)


@op("aten.special_erfcx")
def _erfcx(ctx, a):
    """exp(x^2) erfc(x): the scaled fit for x >= 0 (no overflow for large
    x), 2 exp(x^2) - that for x < 0 (+inf below about -9.3, as in
    PyTorch)."""
    x = _float_in(ctx, a)
    o = _Ops(ctx.b, x.dtype)
    scaled, z = _erfc_scaled_parts(o, x)
    neg = o.sub(o.mul(o.c(2.0), o.u("exp", o.mul(z, z))), scaled)
    return o.sel(o.lt(x, o.c(0.0)), neg, scaled)


@op("aten.special_log_ndtr")
def _log_ndtr(ctx, a):
    """log of the standard normal CDF, log(erfc(-x / sqrt 2) / 2): for
    x < 0 as -z^2 + log(erfcx(z) / 2) with z = -x / sqrt 2 (finite far into
    the tail, where the CDF underflows), for x >= 0 as log1p(-erfc(z') / 2)
    with z' = x / sqrt 2."""
    from .more import _log1p_value
    x = _float_in(ctx, a)
    o = _Ops(ctx.b, x.dtype)
    z = o.mul(x, o.c(-1.0 / math.sqrt(2.0)))
    scaled, az = _erfc_scaled_parts(o, z)
    left = o.sub(o.u("log", o.mul(scaled, o.c(0.5))), o.mul(z, z))
    right = _log1p_value(ctx.b, o.mul(o.c(-0.5), _erfc_value(o, o.u("neg", z))))
    return o.sel(o.lt(x, o.c(0.0)), left, right)


# ---------------------------------------------------------------------------
# lgamma and digamma: shifted to x + 7 by the recurrence, then the
# asymptotic (Stirling / de Moivre) series; reflection for x <= 0.
# ---------------------------------------------------------------------------

_SHIFT = 7


def _shifted(o: _Ops, y: Value):
    """(z, small): z = y + 7 where y < 7, else y."""
    small = o.lt(y, o.c(float(_SHIFT)))
    return o.sel(small, o.add(y, o.c(float(_SHIFT))), y), small


def _lgamma_positive(o: _Ops, y: Value) -> Value:
    """lgamma(y) for y > 0: Stirling's series at z = y + 7 (error below
    1e-9 there) minus log(y (y + 1) ... (y + 6))."""
    z, small = _shifted(o, y)
    r = o.div(o.c(1.0), z)
    r2 = o.mul(r, r)
    series = o.mul(r, o.horner([1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680], r2))
    st = o.add(o.sub(o.mul(o.sub(z, o.c(0.5)), o.u("log", z)), z),
               o.add(o.c(0.5 * math.log(2 * math.pi)), series))
    prod = y
    for k in range(1, _SHIFT):
        prod = o.mul(prod, o.add(y, o.c(float(k))))
    return o.sel(small, o.sub(st, o.u("log", prod)), st)


def _frac_floor(o: _Ops, x: Value) -> Value:
    """x - floor(x), in [0, 1)."""
    return o.sub(x, composites.floor_value(o.b, x))


def _lgamma_value(o: _Ops, x: Value) -> Value:
    pos = o.lt(o.c(0.0), x)
    y = o.sel(pos, x, o.sub(o.c(1.0), x))
    lg = _lgamma_positive(o, y)
    # x <= 0: log(pi / |sin(pi x)|) - lgamma(1 - x); |sin(pi x)| =
    # sin(pi min(r, 1 - r)), r = x - floor(x) (exact), so the argument is
    # small near the poles and large |x| keeps its precision; +inf at the
    # poles (sin = 0).
    r = _frac_floor(o, x)
    near = o.b.binary("min", r, o.sub(o.c(1.0), r))  # sin(pi r) = sin(pi (1 - r))
    s = o.u("sin", o.mul(o.c(math.pi), near))
    refl = o.sub(o.u("log", o.div(o.c(math.pi), s)), lg)
    r = o.sel(pos, lg, refl)
    # +-inf: +inf (the series would give inf - inf).
    inf = o.c(math.inf)
    return o.sel(o.eq(o.u("abs", x), inf), inf, r)


@op("aten.lgamma", "aten.special_gammaln")
def _lgamma(ctx, a):
    """log |Gamma(x)|: +inf at 0, the negative integers and +-inf."""
    x = _float_in(ctx, a)
    return _lgamma_value(_Ops(ctx.b, x.dtype), x)


@op("aten.mvlgamma", "aten.special_multigammaln")
def _mvlgamma(ctx, a):
    """The multivariate log-gamma of dimension p: p (p - 1) / 4 log(pi) +
    sum over j < p of lgamma(x - j / 2). (PyTorch raises when an element
    is not above (p - 1) / 2; this computes the sum there.)"""
    x = _float_in(ctx, a)
    p = a.get("p")
    if not isinstance(p, int) or p < 1:
        raise Unsupported(f"mvlgamma with p = {p!r} (a Python int >= 1 expected)")
    o = _Ops(ctx.b, x.dtype)
    s = o.c(p * (p - 1) / 4.0 * math.log(math.pi))
    for j in range(p):
        s = o.add(s, _lgamma_value(o, o.sub(x, o.c(j / 2.0))))
    return s


def _digamma_value(o: _Ops, x: Value) -> Value:
    pos = o.lt(o.c(0.0), x)
    y = o.sel(pos, x, o.sub(o.c(1.0), x))
    z, small = _shifted(o, y)
    r = o.div(o.c(1.0), z)
    r2 = o.mul(r, r)
    asym = o.sub(o.sub(o.u("log", z), o.mul(o.c(0.5), r)),
                 o.mul(r2, o.horner([1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240,
                                     1.0 / 132], r2)))
    harmonic = o.div(o.c(1.0), y)
    for k in range(1, _SHIFT):
        harmonic = o.add(harmonic, o.div(o.c(1.0), o.add(y, o.c(float(k)))))
    psi = o.sel(small, o.sub(asym, harmonic), asym)
    # x <= 0: psi(1 - x) - pi / tan(pi x), tan(pi x) = tan(pi r): -inf at
    # 0 and NaN at the negative integers, as PyTorch gives.
    # tan(pi r) = -tan(pi (1 - r)): the argument kept at most pi / 2.
    rr = _frac_floor(o, x)
    upper = o.lt(o.c(0.5), rr)
    t = o.u("tan", o.mul(o.c(math.pi), o.sel(upper, o.sub(o.c(1.0), rr), rr)))
    t = o.sel(upper, o.u("neg", t), t)
    refl = o.sub(psi, o.div(o.c(math.pi), t))
    at_pole = o.b.compare("le", x, o.c(0.0))
    nan = o.c(math.nan)
    refl = o.sel(o.b.binary("bitwise_and", at_pole, o.eq(rr, o.c(0.0))),
                 o.sel(o.eq(x, o.c(0.0)), o.c(-math.inf), nan), refl)
    return o.sel(pos, psi, refl)


@op("aten.digamma", "aten.special_digamma", "aten.special_psi")
def _digamma(ctx, a):
    """psi(x) = Gamma'(x) / Gamma(x): the asymptotic series at x + 7
    (error below 1e-9 there) minus the recurrence's harmonic terms;
    reflection for x <= 0."""
    x = _float_in(ctx, a)
    return _digamma_value(_Ops(ctx.b, x.dtype), x)


@op("aten.polygamma", check=lambda a: None if a.get("n") == 0 else
    f"polygamma of order {a.get('n')!r} (only order 0, digamma)")
def _polygamma(ctx, a):
    """polygamma(0, x) is digamma; higher orders are not mapped."""
    x = _float_in(ctx, a)
    return _digamma_value(_Ops(ctx.b, x.dtype), x)


# ---------------------------------------------------------------------------
# Modified Bessel functions of the first kind (Abramowitz & Stegun 9.8.1-4:
# |error| below 1.6e-7 relative for I0 with |x| <= 3.75, 1.9e-7 and 2.2e-7
# on the scaled brackets beyond).
# ---------------------------------------------------------------------------

_I0_SMALL = [1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813]
_I0_LARGE = [0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281,
             -0.02057706, 0.02635537, -0.01647633, 0.00392377]
_I1_SMALL = [0.5, 0.87890594, 0.51498869, 0.15084934, 0.02658733, 0.00301532,
             0.00032411]
_I1_LARGE = [0.39894228, -0.03988024, -0.00362018, 0.00163801, -0.01031555,
             0.02282967, -0.02895312, 0.01787654, -0.00420059]


def _bessel(ctx, a, order: int, scaled: bool) -> Value:
    x = _float_in(ctx, a)
    o = _Ops(ctx.b, x.dtype)
    ax = o.u("abs", x)
    small = o.lt(ax, o.c(3.75))
    q = o.div(x, o.c(3.75))
    t = o.mul(q, q)
    # Clamped below at 3.75 so the large-|x| branch stays finite where it
    # is not selected.
    big = o.b.binary("max", ax, o.c(3.75))
    u = o.div(o.c(3.75), big)
    bracket = o.horner(_I0_LARGE if order == 0 else _I1_LARGE, u)
    tail = o.div(bracket, o.u("sqrt", big))
    if order == 0:
        near = o.horner(_I0_SMALL, t)
    else:
        near = o.mul(ax, o.horner(_I1_SMALL, t))
    if scaled:
        near = o.mul(near, o.u("exp", o.u("neg", ax)))
    else:
        tail = o.mul(tail, o.u("exp", big))
    r = o.sel(small, near, tail)
    if order == 1:  # odd
        r = o.sel(o.lt(x, o.c(0.0)), o.u("neg", r), r)
    return r


# I0(x), exp(-|x|) I0(x), I1(x), exp(-|x|) I1(x): (order, scaled).
for _names, _order, _scaled in [(("aten.i0", "aten.special_i0"), 0, False),
                                (("aten.special_i0e",), 0, True),
                                (("aten.special_i1",), 1, False),
                                (("aten.special_i1e",), 1, True)]:
    op(*_names)(lambda ctx, a, _o=_order, _s=_scaled: _bessel(ctx, a, _o, _s))


@op("aten.special_entr")
def _entr(ctx, a):
    """-x log(x) for x > 0, 0 at 0, -inf for x < 0 (NaN stays NaN)."""
    x = _float_in(ctx, a)
    o = _Ops(ctx.b, x.dtype)
    zero = o.c(0.0)
    pos = o.sel(o.lt(zero, x), x, o.c(1.0))
    r = o.u("neg", o.mul(x, o.u("log", pos)))
    r = o.sel(o.eq(x, zero), zero, r)
    return o.sel(o.lt(x, zero), o.c(-math.inf), r)
