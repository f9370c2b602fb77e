"""MLIR text pieces with no dependency at all (no torch, no NumPy):
string literals, float literals, pooled-size arithmetic. The builder is
:mod:`.mlir_builder`."""

from __future__ import annotations

import re
from typing import Optional

#: A dimension: an int, or None when dynamic.
Dim = Optional[int]


def quote(s: str) -> str:
    """An MLIR string literal for ``s`` (bytes, as protobuf gives a string
    field that is not valid UTF-8, are decoded with replacements)."""
    if isinstance(s, (bytes, bytearray)):
        s = bytes(s).decode("utf-8", "replace")
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\{ord(ch):02X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def fix_float(s: str) -> str:
    """Python/NumPy float text -> MLIR float literal (``1.0``, ``1.0e-05``)."""
    if "e" in s or "E" in s:
        mant, exp = re.split("[eE]", s)
        if "." not in mant:
            mant += ".0"
        return f"{mant}e{exp}"
    return s if "." in s else s + ".0"


def pool_out(size: Dim, kernel: int, stride: int, pad_lo: int, pad_hi: int,
             dilation: int, ceil_mode: bool) -> Dim:
    """Output size of a pooling/convolution window along one dim; with
    ``ceil_mode`` a last window starting in the right padding is dropped
    (PyTorch's rule, which the dialect follows)."""
    if size is None:
        return None
    span = size + pad_lo + pad_hi - dilation * (kernel - 1) - 1
    if not ceil_mode:
        return span // stride + 1
    out = -(-span // stride) + 1
    if (out - 1) * stride >= size + pad_lo:
        out -= 1
    return out
