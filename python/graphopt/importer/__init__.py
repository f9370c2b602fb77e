"""PyTorch importers: models -> MLIR text in the ``graph`` dialect.

* :func:`import_torch` captures an ``nn.Module`` or function with
  ``torch.export`` (or ``torch.fx.symbolic_trace`` with ``method="fx"``).
* :func:`import_torchscript` walks a ``torch.jit.script``/``trace``
  module or function, including ``prim::If``/``prim::Loop`` control flow.

Both map ATen ops through the same table (:mod:`.op_mapping`; the ATen
names it knows: :func:`supported_ops`) and check the whole graph first: a
model with ops or attribute values they cannot express raises
:class:`UnsupportedOpsError` listing all of them with their source lines.
The MLIR text is built by :mod:`.emitter`.
"""

from .errors import UnsupportedOp, UnsupportedOpsError

# The PyTorch importers import torch and the ONNX importer onnx: each is
# loaded on first use (PEP 562), so importing one does not pay for the other.
_LAZY = {
    "supported_ops": (".op_mapping", "supported_ops"),
    "import_torch": (".torch_fx", "import_torch"),
    "parameter_order": (".torch_fx", "parameter_order"),
    "import_torchscript": (".torchscript", "import_torchscript"),
    "import_onnx": (".onnx_importer", "import_onnx"),
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
