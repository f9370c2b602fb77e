"""ONNX MaxPool's Indices output and MaxUnpool beyond the node suite's
cases, against ONNX Runtime's CPU kernels: padding, strides, dilations,
ceil mode, both storage orders, a batch of 2 with 3 channels (indices over
the whole tensor), and the pool -> unpool round trip. Inputs without ties
(ONNX leaves the index of equal maxima open); values and indices must match
exactly. Prints one line per case; maxpool-indices.test checks them."""

import numpy as np
import onnxruntime as ort
from onnx import TensorProto as TP, helper

import graphopt
from graphopt.importer.onnx import import_onnx

rng = np.random.default_rng(0)


def pool_model(shape, **attrs):
    g = helper.make_graph(
        [helper.make_node("MaxPool", ["x"], ["y", "i"], **attrs)], "pool",
        [helper.make_tensor_value_info("x", TP.FLOAT, list(shape))],
        [helper.make_tensor_value_info("y", TP.FLOAT, None),
         helper.make_tensor_value_info("i", TP.INT64, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 12)])


def roundtrip_model(shape):
    g = helper.make_graph(
        [helper.make_node("MaxPool", ["x"], ["y", "i"], kernel_shape=[2, 2], strides=[2, 2]),
         helper.make_node("Relu", ["y"], ["r"]),
         helper.make_node("MaxUnpool", ["r", "i"], ["u"], kernel_shape=[2, 2],
                          strides=[2, 2])], "roundtrip",
        [helper.make_tensor_value_info("x", TP.FLOAT, list(shape))],
        [helper.make_tensor_value_info("u", TP.FLOAT, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 12)])


def check(name, m, x):
    want = ort.InferenceSession(m.SerializeToString(),
                                providers=["CPUExecutionProvider"]).run(None, {"x": x})
    got = graphopt.Program(import_onnx(m)).run([x])
    ok = len(got) == len(want) and all(
        g.shape == w.shape and g.dtype == w.dtype and np.array_equal(g, w)
        for g, w in zip(got, want))
    print(f"{'PASS' if ok else 'FAIL'} {name}", flush=True)


shape = (2, 3, 9, 11)
x = rng.permutation(np.prod(shape)).reshape(shape).astype(np.float32) / 7.0  # no ties
CASES = [
    ("k2", dict(kernel_shape=[2, 2])),
    ("k3 s2 pads", dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])),
    ("k3x2 s2x3 dilations ceil", dict(kernel_shape=[3, 2], strides=[2, 3],
                                      dilations=[2, 1], ceil_mode=1)),
    ("k2 column-major", dict(kernel_shape=[2, 2], storage_order=1)),
    ("k3 s1 pads column-major", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                     storage_order=1)),
]
for name, attrs in CASES:
    check(name, pool_model(shape, **attrs), x)
check("pool -> relu -> unpool", roundtrip_model((2, 3, 8, 10)),
      rng.standard_normal((2, 3, 8, 10)).astype(np.float32))
print(f"{len(CASES) + 1} cases checked")
