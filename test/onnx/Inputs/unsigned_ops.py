"""ONNX ops on uint8/uint16 inputs whose import depends on the signedness
(Sign, ArgMin, ArgMax, Max/Min, Div, Mod, comparisons, Clip, Cast to float),
with values above the signed range, against onnx.reference (exact: integer
results; the Cast to float is exact too). Prints one line per model;
unsigned.test checks them."""

import numpy as np
from onnx import TensorProto as TP, helper
from onnx.reference import ReferenceEvaluator

import graphopt
from graphopt.importer.onnx import import_onnx

rng = np.random.default_rng(0)


def check(name, nodes, elem, x, y, outs):
    g = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", elem, list(x.shape)),
                      helper.make_tensor_value_info("y", elem, list(y.shape))],
        [helper.make_tensor_value_info(o, t, None) for o, t in outs])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
    want = ReferenceEvaluator(m).run(None, {"x": x, "y": y})
    got = graphopt.Program(import_onnx(m)).run([x, y])
    ok = all(g.shape == w.shape and np.array_equal(g, w) for g, w in zip(got, want))
    print(f"{'PASS' if ok else 'FAIL'} {name}")


for np_t, elem in ((np.uint8, TP.UINT8), (np.uint16, TP.UINT16)):
    top = np.iinfo(np_t).max
    x = rng.integers(0, top, (3, 5), endpoint=True).astype(np_t)
    y = rng.integers(0, top, (3, 5), endpoint=True).astype(np_t)
    x[0, 0], x[1, 1], y[2, 2] = 0, top, 0
    nodes = [helper.make_node("Sign", ["x"], ["sign"]),
             helper.make_node("ArgMin", ["x"], ["amin"], axis=1),
             helper.make_node("ArgMax", ["x"], ["amax"], axis=1),
             helper.make_node("Max", ["x", "y"], ["mx"]),
             helper.make_node("Min", ["x", "y"], ["mn"]),
             helper.make_node("Div", ["x", "y"], ["dv"]),
             helper.make_node("Greater", ["x", "y"], ["gt"]),
             helper.make_node("Cast", ["x"], ["xf"], to=TP.FLOAT)]
    outs = [("sign", elem), ("amin", TP.INT64), ("amax", TP.INT64), ("mx", elem),
            ("mn", elem), ("dv", elem), ("gt", TP.BOOL), ("xf", TP.FLOAT)]
    # Div by zero is undefined in ONNX: divide by y with its zero replaced.
    y_nz = np.where(y == 0, np_t(3), y).astype(np_t)
    check(f"unsigned_ops_{np.dtype(np_t).name}", nodes, elem, x, y_nz, outs)
