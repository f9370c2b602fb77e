"""A ``torch.compile`` backend: ``torch.compile(model, backend=graphopt.torch_backend)``.

TorchDynamo hands the backend each captured ``torch.fx.GraphModule`` with
example inputs; the backend imports and compiles it with
:func:`graphopt.compile` and returns the compiled callable. Graphs that
cannot be compiled (ops the importer does not support, a compile error, or
symbolic-shape inputs) run eagerly instead, with a warning: the model keeps
working, just not through graphopt.
"""

from __future__ import annotations

import warnings

from . import _native

__all__ = ["torch_backend", "GraphOptFallbackWarning"]


class GraphOptFallbackWarning(UserWarning):
    """A graph handed to the torch.compile backend runs eagerly."""


def _real_inputs(example_inputs):
    """Example inputs as real tensors (Dynamo may pass fake tensors), or None
    when a non-tensor input (a SymInt of a dynamic shape) is among them."""
    import torch
    out = []
    for t in example_inputs:
        if not isinstance(t, torch.Tensor):
            return None
        if type(t).__name__ == "FakeTensor" or t.device.type == "meta":
            t = torch.zeros(tuple(int(d) for d in t.shape), dtype=t.dtype)
        out.append(t)
    return out


def torch_backend(gm, example_inputs, **options):
    """Compiles the FX ``GraphModule`` ``gm`` for the CPU.

    Returns a callable with ``gm``'s calling convention. ``options`` are those
    of :func:`graphopt.compile`; bind them with ``functools.partial``:
    ``torch.compile(m, backend=functools.partial(graphopt.torch_backend,
    fuse=False))``.
    """
    from .importer import UnsupportedOpsError
    from .compiler import compile as _compile

    inputs = _real_inputs(example_inputs)
    if inputs is None:
        warnings.warn(
            "graphopt.torch_backend: the graph has symbolic (dynamic-shape) "
            "inputs, which the backend does not support yet; running it "
            "eagerly. Use torch.compile(..., dynamic=False).",
            GraphOptFallbackWarning, stacklevel=2)
        return gm.forward
    # Like the eager kernels it replaces, the compiled graph uses
    # torch.get_num_threads() threads unless told otherwise.
    if "threads" not in options:
        import torch
        options = dict(options, threads=max(1, torch.get_num_threads()))
    try:
        compiled = _compile(gm, tuple(inputs), **options)
    except (UnsupportedOpsError, _native.GraphOptError,
            NotImplementedError) as e:
        # Every line (UnsupportedOpsError lists one op per line), up to 30.
        lines = str(e).strip().splitlines() or [type(e).__name__]
        if len(lines) > 30:
            lines = lines[:30] + [f"... ({len(lines) - 30} more lines)"]
        detail = "\n  ".join(lines)
        warnings.warn(
            f"graphopt.torch_backend: cannot compile the graph, running it "
            f"eagerly. {type(e).__name__}: {detail}",
            GraphOptFallbackWarning, stacklevel=2)
        return gm.forward
    return compiled
