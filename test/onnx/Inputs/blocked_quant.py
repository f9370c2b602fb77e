"""ONNX QuantizeLinear and DequantizeLinear with block_size (blocked
quantization) against NumPy: x [4, 10] in blocks of 4 along axis 1 (the
last block has 2 columns), and along axis 0 in blocks of 3 (the last has
1 row), int8 with zero points and uint8 without. Quantize: exact (the same
round-half-even of x / scale in f32); dequantize: rtol 1e-6 (one f32
multiply). Prints one line per case; blocked-quant.test checks them."""

import numpy as np
from onnx import TensorProto as TP, helper, numpy_helper

import graphopt
from graphopt.importer.onnx import import_onnx

ELEM = {np.dtype(np.float32): TP.FLOAT, np.dtype(np.int8): TP.INT8,
        np.dtype(np.uint8): TP.UINT8}


def model(op, x, scale, zp, axis, block):
    inits = [numpy_helper.from_array(scale, "s")] + \
        ([numpy_helper.from_array(zp, "z")] if zp is not None else [])
    out = (zp.dtype if zp is not None else np.dtype(np.uint8)) if op == "QuantizeLinear" \
        else np.dtype(np.float32)
    g = helper.make_graph(
        [helper.make_node(op, ["x", "s"] + (["z"] if zp is not None else []), ["y"],
                          axis=axis, block_size=block)], "q",
        [helper.make_tensor_value_info("x", ELEM[x.dtype], list(x.shape))],
        [helper.make_tensor_value_info("y", ELEM[np.dtype(out)], None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])


def expand(p, axis, block, n):
    return np.repeat(p, block, axis=axis).take(np.arange(n), axis=axis)


rng = np.random.default_rng(0)
x = rng.uniform(-4, 4, (4, 10)).astype(np.float32)
for axis, block, qt in [(1, 4, np.int8), (0, 3, np.uint8)]:
    nb = -(-x.shape[axis] // block)
    pshape = list(x.shape)
    pshape[axis] = nb
    scale = rng.uniform(0.01, 0.05, pshape).astype(np.float32)
    zp = rng.integers(-5, 5, pshape).astype(np.int8) if qt == np.int8 else None
    s = expand(scale, axis, block, x.shape[axis])
    z = expand(zp.astype(np.float32), axis, block, x.shape[axis]) if zp is not None else 0
    lo, hi = np.iinfo(qt).min, np.iinfo(qt).max
    want_q = np.clip(np.round(x / s) + z, lo, hi).astype(qt)
    got_q = graphopt.Program(import_onnx(model("QuantizeLinear", x, scale, zp, axis,
                                               block))).run([x])[0]
    ok = got_q.dtype == want_q.dtype and np.array_equal(got_q, want_q)
    print(f"{'PASS' if ok else 'FAIL'} quantize {np.dtype(qt).name} axis {axis} block {block}",
          flush=True)
    want_d = ((want_q.astype(np.float32) - z) * s).astype(np.float32)
    got_d = graphopt.Program(import_onnx(model("DequantizeLinear", want_q, scale, zp, axis,
                                               block))).run([want_q])[0]
    ok = got_d.dtype == want_d.dtype and np.allclose(got_d, want_d, rtol=1e-6, atol=0)
    print(f"{'PASS' if ok else 'FAIL'} dequantize {np.dtype(qt).name} axis {axis} "
          f"block {block}", flush=True)
