"""The importers: models -> MLIR text in the ``graph`` dialect.

One folder per frontend, one MLIR text builder for both:

* :mod:`.pytorch`: :func:`import_torch` captures an ``nn.Module`` or
  function with ``torch.export`` (or ``torch.fx.symbolic_trace`` with
  ``method="fx"``); :func:`import_torchscript` walks a ``torch.jit.script``
  /``trace`` module or function, including ``prim::If``/``prim::Loop``
  control flow. Both map ATen ops through one table (:mod:`.pytorch.aten`,
  one module per op family; the ATen names it knows: :func:`supported_ops`).
* :mod:`.onnx`: :func:`import_onnx` (its op registry: :mod:`.onnx.ops`, one
  module per op family). Needs ``onnx``, not PyTorch.
* :mod:`.mlir_builder`: the MLIR text builder, keyed on MLIR element types
  (each frontend's dtypes through an adapter); :mod:`.errors`: the error
  types.

Each importer checks the whole graph first: a model with ops or attribute
values it cannot express raises :class:`UnsupportedOpsError` listing all of
them with their source lines (or ONNX nodes).
"""

from .errors import UnsupportedOp, UnsupportedOpsError

# The PyTorch importers import torch and the ONNX importer onnx: each is
# loaded on first use (PEP 562), so importing one does not pay for the other.
_LAZY = {
    "supported_ops": (".pytorch.aten", "supported_ops"),
    "import_torch": (".pytorch.fx", "import_torch"),
    "parameter_order": (".pytorch.fx", "parameter_order"),
    "import_torchscript": (".pytorch.torchscript", "import_torchscript"),
    "import_onnx": (".onnx", "import_onnx"),
}

__all__ = ["import_torch", "import_torchscript", "import_onnx",
           "UnsupportedOpsError", "UnsupportedOp", "parameter_order",
           "supported_ops"]


def __getattr__(name):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module, __name__), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
