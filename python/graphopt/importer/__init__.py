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
from .op_mapping import supported_ops
from .torch_fx import import_torch, parameter_order
from .torchscript import import_torchscript

__all__ = ["import_torch", "import_torchscript", "UnsupportedOpsError",
           "UnsupportedOp", "parameter_order", "supported_ops"]
