"""PyTorch's side of the MLIR text builder: the torch dtype adapter.

The builder itself is :mod:`.mlir_builder` (one for every importer, keyed on
MLIR element types); this module maps torch dtypes to them, turns torch
tensors into constants, and gives the PyTorch importers a
:class:`FunctionBuilder` that works on torch dtypes::

    fb = FunctionBuilder("main")
    x = fb.add_argument("x", TensorType((4, 10), torch.float32))
    y = fb.unary("relu", x)
    fb.set_results([y])
    print(module_text([fb]))
"""

from __future__ import annotations

from typing import Dict

import numpy as np
import torch

from .. import mlir_builder
from ..errors import Unsupported
from ..mlir_builder import (Dim, DTypes, TensorType, Value, format_attr,  # noqa: F401
                           format_attr_dict, format_float, format_location,
                           join_types, module_text, register_dtypes)

__all__ = ["DTYPE_TO_MLIR", "FLOAT_DTYPES", "INT_DTYPES", "TORCH", "FunctionBuilder",
           "TensorType", "Value", "Dim", "format_attr", "format_attr_dict",
           "format_dense", "format_float", "format_location", "is_float",
           "join_types", "mlir_element_type", "module_text"]

#: torch dtype -> MLIR element type, for the element types the dialect has.
DTYPE_TO_MLIR: Dict[torch.dtype, str] = {
    torch.float32: "f32",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.float64: "f64",
    torch.bool: "i1",
    torch.int8: "i8",
    torch.int16: "i16",
    torch.int32: "i32",
    torch.int64: "i64",
    torch.uint8: "ui8",
}
# uint16/32/64 are torch dtypes from 2.3 on (with few kernels).
for _name, _element in (("uint16", "ui16"), ("uint32", "ui32"), ("uint64", "ui64")):
    if hasattr(torch, _name):
        DTYPE_TO_MLIR[getattr(torch, _name)] = _element

FLOAT_DTYPES = (torch.float32, torch.float16, torch.bfloat16, torch.float64)
#: The index dtypes (index_select, embedding, gather, scatter; graph ops
#: take i32 and i64 indices, as eager PyTorch does).
INT_DTYPES = (torch.int32, torch.int64)


def mlir_element_type(dtype: torch.dtype) -> str:
    """The MLIR element type of a torch dtype; raises :class:`Unsupported`
    for dtypes the dialect does not have (complex, float8, ...)."""
    try:
        return DTYPE_TO_MLIR[dtype]
    except KeyError:
        raise Unsupported(f"dtype {dtype} is not supported (the graph dialect "
                          "has f32, f16, bf16, f64, i1, i8 ... i64 and ui8 ... ui64)") from None


def is_float(dtype: torch.dtype) -> bool:
    return dtype in FLOAT_DTYPES


class TorchDTypes(DTypes):
    """torch dtypes; constants are torch tensors."""

    bool = torch.bool
    i64 = torch.int64
    f32 = torch.float32

    def element_type(self, dtype) -> str:
        return mlir_element_type(dtype)

    def is_float(self, dtype) -> bool:
        return is_float(dtype)

    def array(self, value):
        t = value.detach().cpu()
        element = mlir_element_type(t.dtype)
        # bf16 has no NumPy dtype: its values as float32 (exact).
        a = t.float().numpy() if t.dtype == torch.bfloat16 else t.numpy()
        return np.asarray(a), t.dtype, element

    def full(self, shape, value, dtype):
        return torch.full(tuple(shape), value, dtype=dtype)

    def arange(self, n, dtype):
        return torch.arange(n, dtype=dtype)

    def from_numpy(self, array, dtype):
        return torch.from_numpy(np.ascontiguousarray(array)).to(dtype)


TORCH = TorchDTypes()
register_dtypes(torch.dtype, TORCH)


class FunctionBuilder(mlir_builder.FunctionBuilder):
    """:class:`mlir_builder.FunctionBuilder` on torch dtypes."""

    def __init__(self, name: str = "main"):
        super().__init__(name, TORCH)


def format_dense(t: torch.Tensor) -> str:
    """The ``dense<...>`` attribute (without its type) for tensor ``t``."""
    array, _, element = TORCH.array(t)
    return mlir_builder.format_dense(array, element)
