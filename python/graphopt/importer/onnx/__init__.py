"""The ONNX importer: :func:`import_onnx` (:mod:`.importer`) and its op
registry (:mod:`.ops`, one module per op family). Needs ``onnx`` and NumPy,
not PyTorch."""

from .importer import INTERNAL_ERROR, import_onnx, support_table  # noqa: F401

__all__ = ["import_onnx", "support_table", "INTERNAL_ERROR"]
