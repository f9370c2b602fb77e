"""ONNX If, Loop and Scan imported onto graph.if / graph.loop, compiled and
run, against onnx.reference's evaluation of the same models (an
independent implementation; ONNX Runtime for the reversed Scan), rtol 1e-5 /
atol 1e-6. Prints one line per
model; control-flow.test checks them with FileCheck."""

import sys

import numpy as np
import onnx
from onnx import TensorProto as TP, helper
from onnx.reference import ReferenceEvaluator

import graphopt
from graphopt.importer.onnx import import_onnx

F = TP.FLOAT
rng = np.random.default_rng(0)


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def check(name, m, feeds, ort=False):
    """``ort``: compare with ONNX Runtime (onnx.reference lacks reversed
    Scan directions)."""
    onnx.checker.check_model(m)
    if ort:
        import onnxruntime
        session = onnxruntime.InferenceSession(m.SerializeToString(),
                                               providers=["CPUExecutionProvider"])
        want = session.run(None, feeds)
    else:
        want = ReferenceEvaluator(m).run(None, feeds)
    text = import_onnx(m)
    ops = sorted({op for op in ("graph.if", "graph.loop") if op in text})
    got = graphopt.Program(text).run(list(feeds.values()))
    ok = len(got) == len(want) and all(
        g.shape == w.shape and np.allclose(g, w, rtol=1e-5, atol=1e-6)
        for g, w in zip(got, want))
    print(f"{'PASS' if ok else 'FAIL'} {name} {' '.join(ops)}")
    if not ok:
        print("  graphopt:", got, "\n  reference:", want, file=sys.stderr)


# If: the branches use the enclosing graph's x; both branch outputs [3].
then_g = helper.make_graph([helper.make_node("Mul", ["x", "x"], ["t"])], "then", [],
                           [vi("t", F, [3])])
else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["e"])], "else", [],
                           [vi("e", F, [3])])
m = model([helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
           helper.make_node("Greater", ["s", "zero"], ["c"]),
           helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
          [vi("x", F, [3])], [vi("y", F, [3])],
          [helper.make_tensor("zero", F, [], [0.0])])
check("if_true", m, {"x": np.array([1.0, 2.0, 3.0], np.float32)})
check("if_false", m, {"x": np.array([-1.0, -2.0, 0.5], np.float32)})

# Loop: 4 iterations of h = tanh(h * w + i), the iteration number cast to
# float; scan output: every h (1-D: onnx.reference stacks scan outputs with
# np.vstack, which for 1-D elements is the stacking ONNX specifies).
body = helper.make_graph(
    [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
     helper.make_node("Cast", ["i"], ["fi"], to=F),
     helper.make_node("Mul", ["h_in", "w"], ["hw"]),
     helper.make_node("Add", ["hw", "fi"], ["pre"]),
     helper.make_node("Tanh", ["pre"], ["h_out"]),
     helper.make_node("Identity", ["h_out"], ["scan"])],
    "body", [vi("i", TP.INT64, []), vi("cond_in", TP.BOOL, []), vi("h_in", F, [3])],
    [vi("cond_out", TP.BOOL, []), vi("h_out", F, [3]), vi("scan", F, [3])])
m = model([helper.make_node("Loop", ["M", "go", "h0"], ["h", "hs"], body=body)],
          [vi("h0", F, [3]), vi("w", F, [3])], [vi("h", F, [3]), vi("hs", F, [4, 3])],
          [helper.make_tensor("M", TP.INT64, [], [4]),
           helper.make_tensor("go", TP.BOOL, [], [True])])
check("loop_scan_outputs", m, {"h0": rng.standard_normal(3).astype(np.float32),
                               "w": rng.standard_normal(3).astype(np.float32)})

# Loop as a while loop: double x until its sum exceeds 100 (no trip count).
body = helper.make_graph(
    [helper.make_node("Add", ["x_in", "x_in"], ["x_out"]),
     helper.make_node("ReduceSum", ["x_out"], ["s"], keepdims=0),
     helper.make_node("Less", ["s", "limit"], ["cond_out"])],
    "body", [vi("i", TP.INT64, []), vi("cond_in", TP.BOOL, []), vi("x_in", F, [2])],
    [vi("cond_out", TP.BOOL, []), vi("x_out", F, [2])])
m = model([helper.make_node("Loop", ["", "go", "x0"], ["x"], body=body)],
          [vi("x0", F, [2])], [vi("x", F, [2])],
          [helper.make_tensor("go", TP.BOOL, [], [True]),
           helper.make_tensor("limit", F, [], [100.0])])
check("loop_while", m, {"x0": np.array([1.0, 2.0], np.float32)})

# Scan: a running sum over axis 1 of x [2, 5, 3] read in reverse, the
# per-step sums stacked along output axis 1.
body = helper.make_graph(
    [helper.make_node("Add", ["acc_in", "xs"], ["acc_out"]),
     helper.make_node("Identity", ["acc_out"], ["ys"])],
    "body", [vi("acc_in", F, [2, 3]), vi("xs", F, [2, 3])],
    [vi("acc_out", F, [2, 3]), vi("ys", F, [2, 3])])
m = model([helper.make_node("Scan", ["acc0", "x"], ["acc", "y"], body=body,
                            num_scan_inputs=1, scan_input_axes=[1],
                            scan_input_directions=[1], scan_output_axes=[1])],
          [vi("acc0", F, [2, 3]), vi("x", F, [2, 5, 3])],
          [vi("acc", F, [2, 3]), vi("y", F, [2, 5, 3])])
check("scan_reverse_axis1", m, {"acc0": np.zeros((2, 3), np.float32),
                                "x": rng.standard_normal((2, 5, 3)).astype(np.float32)}, ort=True)
