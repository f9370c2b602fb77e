"""The e2e case registry (in the style of torch-mlir's e2e suite).

A case is a function registered with :func:`case` that builds a model and
its inputs; the runner (run.py) seeds the RNGs (torch.manual_seed(0)) before
calling it, so weights and inputs are the same on every run:

    @case()
    def linear_basic():
        return nn.Linear(10, 10), (torch.randn(4, 10),)

The runner computes the eager PyTorch result, compiles the model with
``graphopt.compile(model, inputs, **compile_kwargs)``, runs it on the same
inputs and compares: same structure (bare tensor / tuple / list), dtypes and
shapes, values within tolerance (integers and bools exactly).

A factory may return ``(model, inputs)``, ``(model, inputs, compile_kwargs)``
or a :class:`Spec` (which can list more input sets to run the same compiled
module on). Cases that check something else (caching, errors, the
torch.compile backend) register with :func:`check`: the function does its
own work and raises on failure (``assert_close`` helps).

Tolerances: f32 results use rtol 1e-4, atol 1e-5; f16 results rtol 1e-2,
atol 1e-3. A case that needs looser bounds passes ``rtol``/``atol`` and
must say why in ``reason``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

DEFAULT_TOLERANCES = {
    "float32": (1e-4, 1e-5),
    "float16": (1e-2, 1e-3),
    "float64": (1e-4, 1e-5),
}


@dataclass
class Spec:
    """What a comparison case's factory returns."""
    model: Any
    inputs: tuple
    compile_kwargs: dict = field(default_factory=dict)
    #: More input tuples to run the same compiled module on (each compared
    #: with eager PyTorch).
    more_inputs: list = field(default_factory=list)
    #: Called with the CompiledModule after all runs; raise on failure.
    post_check: Optional[Callable] = None


@dataclass
class Case:
    name: str
    fn: Callable
    kind: str                       # "compare" or "check"
    rtol: Optional[float] = None
    atol: Optional[float] = None
    reason: str = ""                # why the tolerance is looser
    tags: tuple = ()
    source: str = ""                # module that defined it

    def tolerances(self, dtype) -> tuple:
        rtol, atol = DEFAULT_TOLERANCES.get(np.dtype(dtype).name, (0.0, 0.0))
        if self.rtol is not None:
            rtol = self.rtol
        if self.atol is not None:
            atol = self.atol
        return rtol, atol


REGISTRY: dict[str, Case] = {}

_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def _register(name, fn, kind, rtol, atol, reason, tags):
    if not _NAME_RE.match(name):
        raise ValueError(f"bad case name {name!r}")
    if name in REGISTRY:
        raise ValueError(f"duplicate e2e case {name!r}")
    if (rtol is not None or atol is not None) and not reason:
        raise ValueError(f"case {name!r}: a looser tolerance needs a reason")
    REGISTRY[name] = Case(name, fn, kind, rtol, atol, reason, tuple(tags),
                          getattr(fn, "__module__", ""))
    return fn


def case(name: Optional[str] = None, *, rtol=None, atol=None, reason="",
         tags=()):
    """Registers a comparison case (the decorated function is its
    factory; the case is named after it unless ``name`` is given)."""
    def wrap(fn):
        return _register(name or fn.__name__, fn, "compare", rtol, atol,
                         reason, tags)
    return wrap


def check(name: Optional[str] = None, *, tags=()):
    """Registers a self-checking case: the function raises on failure."""
    def wrap(fn):
        return _register(name or fn.__name__, fn, "check", None, None, "",
                         tags)
    return wrap


def add_case(name: str, factory: Callable, *, rtol=None, atol=None,
             reason="", tags=()):
    """Registers a comparison case from a factory (for generated cases)."""
    _register(name, factory, "compare", rtol, atol, reason, tags)


# --------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------

class Mismatch(AssertionError):
    """The compiled result differs from eager PyTorch."""


def _to_numpy(x):
    import torch
    if isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy()
    return np.asarray(x)


def flatten(value, path="result"):
    """[(path, leaf)] of a nested tuple/list/dict of tensors."""
    if isinstance(value, (tuple, list)):
        out = []
        for i, v in enumerate(value):
            out += flatten(v, f"{path}[{i}]")
        return out
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            out += flatten(v, f"{path}[{k!r}]")
        return out
    return [(path, value)]


def structure(value):
    """A printable structure: 'T' for a leaf, (..)/[..] for containers."""
    if isinstance(value, tuple):
        return "(" + ", ".join(structure(v) for v in value) + ",)"
    if isinstance(value, list):
        return "[" + ", ".join(structure(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {structure(v)}"
                               for k, v in value.items()) + "}"
    return "T"


def assert_close(got, want, rtol=None, atol=None, *, what="result",
                 case_obj: Optional[Case] = None):
    """Checks ``got`` (compiled) against ``want`` (eager): structure, then per
    tensor dtype, shape and values. Raises :class:`Mismatch` naming the
    worst element."""
    if structure(got) != structure(want):
        raise Mismatch(f"{what}: structure {structure(got)}, eager "
                       f"{structure(want)}")
    for (path, g), (_, w) in zip(flatten(got, what), flatten(want, what)):
        g, w = _to_numpy(g), _to_numpy(w)
        if g.dtype != w.dtype:
            raise Mismatch(f"{path}: dtype {g.dtype}, eager {w.dtype}")
        if g.shape != w.shape:
            raise Mismatch(f"{path}: shape {g.shape}, eager {w.shape}")
        if g.size == 0:
            continue
        if np.issubdtype(w.dtype, np.floating):
            if case_obj is not None:
                r, a = case_obj.tolerances(w.dtype)
            else:
                r, a = DEFAULT_TOLERANCES.get(w.dtype.name, (1e-4, 1e-5))
            r = r if rtol is None else rtol
            a = a if atol is None else atol
            g64, w64 = g.astype(np.float64), w.astype(np.float64)
            nan_g, nan_w = np.isnan(g64), np.isnan(w64)
            if (nan_g != nan_w).any():
                idx = np.unravel_index(np.argmax(nan_g != nan_w), g.shape)
                raise Mismatch(f"{path}: NaN mismatch at {tuple(map(int, idx))}: "
                               f"got {g[idx]}, eager {w[idx]}")
            both = ~(nan_g | nan_w)
            diff = np.where(both, np.abs(g64 - w64), 0.0)
            # inf == inf is fine; inf vs finite is an infinite difference
            diff = np.where(both & (g64 == w64), 0.0, diff)
            bound = a + r * np.abs(w64)
            excess = np.where(both, diff - bound, -1.0)
            if (excess > 0).any():
                idx = np.unravel_index(np.argmax(excess), g.shape)
                n_bad = int((excess > 0).sum())
                raise Mismatch(
                    f"{path}: {n_bad}/{g.size} elements differ beyond rtol={r:g} "
                    f"atol={a:g}; worst at {tuple(map(int, idx))}: got "
                    f"{g[idx]!r}, eager {w[idx]!r} (|diff| "
                    f"{diff[idx]:.3g}); max |diff| {np.max(diff):.3g}")
        else:
            if not np.array_equal(g, w):
                bad = g != w
                idx = np.unravel_index(np.argmax(bad), g.shape)
                raise Mismatch(
                    f"{path}: {int(bad.sum())}/{g.size} {w.dtype} elements "
                    f"differ; first at {tuple(map(int, idx))}: got {g[idx]!r}, "
                    f"eager {w[idx]!r}")
