"""Checks graphopt_memref_copy, the runtime's memrefCopy (what the JIT
resolves memref.copy of non-contiguous buffers to, in place of MLIR's
libmlir_c_runner_utils.so), against NumPy's strided assignment: views of
rank 0 to 4 (transposed, sliced with steps and offsets, broadcast with
stride 0), elements of 1, 2, 4 and 8 bytes."""

import ctypes
import sys

import numpy as np

import graphopt

lib = ctypes.CDLL(str(graphopt.LIBRARY_PATH))
copy = lib.graphopt_memref_copy
copy.restype = None
copy.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]


class Unranked(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p)]


def descriptor(view: np.ndarray, base: np.ndarray):
    """MLIR's ranked descriptor of `view` into `base`: {allocated, aligned,
    offset, sizes[rank], strides[rank]}, offset and strides in elements."""
    item = view.itemsize
    start = base.__array_interface__["data"][0]
    offset = (view.__array_interface__["data"][0] - start) // item
    fields = [start, start, offset, *view.shape, *(s // item for s in view.strides)]
    buf = (ctypes.c_int64 * len(fields))(*fields)
    return Unranked(view.ndim, ctypes.cast(buf, ctypes.c_void_p)), buf


# (source base shape, source view, destination base shape, destination view)
CASES = [
    ((1,), lambda b: b.reshape(()), (3,), lambda b: b[1:2].reshape(())),
    ((9,), lambda b: b[::2], (7,), lambda b: b[1:6]),
    ((5, 6), lambda b: b.T, (7, 6), lambda b: b[1:7, :5]),
    ((4, 5, 6), lambda b: b[:, ::2, 1:4], (4, 9, 4), lambda b: b[:, 2:5, 1:4]),
    ((4, 5, 6), lambda b: b[:, 1:4, :].transpose(2, 0, 1), (6, 4, 3), lambda b: b),
    ((3, 4, 5, 6), lambda b: b[:, 1:3, ::2, :], (3, 2, 3, 8), lambda b: b[..., 1:7]),
    ((6,), lambda b: np.broadcast_to(b[2:3], (4, 3)), (4, 3), lambda b: b),
]

rng = np.random.default_rng(0)
count = 0
for dtype in (np.int8, np.float16, np.float32, np.float64):
    for src_shape, src_view, dst_shape, dst_view in CASES:
        src_base = (rng.standard_normal(src_shape) * 50).astype(dtype)
        dst_base = np.zeros(dst_shape, dtype)
        src, dst = src_view(src_base), dst_view(dst_base)
        assert src.shape == dst.shape, (src.shape, dst.shape)
        expected = dst_base.copy()
        dst_view(expected)[...] = src  # NumPy's strided assignment
        s, sbuf = descriptor(src, src_base)
        d, dbuf = descriptor(dst, dst_base)
        copy(np.dtype(dtype).itemsize, ctypes.addressof(s), ctypes.addressof(d))
        if not np.array_equal(dst_base, expected):
            print(f"FAIL {np.dtype(dtype).name} {src.shape}: got "
                  f"{dst_base.ravel()[:8]}, want {expected.ravel()[:8]}")
            sys.exit(1)
        count += 1
print(f"memref copy: {count} cases match NumPy")
