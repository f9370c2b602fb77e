"""ONNX TopK on integer types against a Python reference (sorted by value,
ties to the lower index): int8, int32 (with its minimum), int64, uint8 and
uint64 (beyond 2^63), largest and smallest. Exact. Prints one line per
case; topk-ints.test checks them."""

import numpy as np
from onnx import TensorProto as TP, helper

import graphopt
from graphopt.importer.onnx import import_onnx

ELEM = {np.dtype(np.int8): TP.INT8, np.dtype(np.int32): TP.INT32,
        np.dtype(np.int64): TP.INT64, np.dtype(np.uint8): TP.UINT8,
        np.dtype(np.uint64): TP.UINT64}


def model(x, k, largest):
    g = helper.make_graph(
        [helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=-1, largest=largest)], "topk",
        [helper.make_tensor_value_info("x", ELEM[x.dtype], list(x.shape))],
        [helper.make_tensor_value_info("v", ELEM[x.dtype], None),
         helper.make_tensor_value_info("i", TP.INT64, None)],
        [helper.make_tensor("k", TP.INT64, [1], [k])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)])


def reference(x, k, largest):
    vals, idxs = [], []
    for row in x.reshape(-1, x.shape[-1]).tolist():
        order = sorted(range(len(row)), key=lambda i: (-row[i] if largest else row[i], i))[:k]
        vals.append([row[i] for i in order])
        idxs.append(order)
    shape = list(x.shape[:-1]) + [k]
    return np.array(vals, dtype=x.dtype).reshape(shape), np.array(idxs, np.int64).reshape(shape)


rng = np.random.default_rng(0)
count = 0
for dt in (np.int8, np.int32, np.int64, np.uint8, np.uint64):
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, (3, 9), dtype=dt, endpoint=True)
    x[0, :4] = [info.min, info.max, info.min, 0]            # extremes and ties
    x[1, 2] = x[1, 5]
    for largest in (1, 0):
        got = graphopt.Program(import_onnx(model(x, 4, largest))).run([x])
        want = reference(x, 4, largest)
        ok = all(g.dtype == w.dtype and np.array_equal(g, w) for g, w in zip(got, want))
        print(f"{'PASS' if ok else 'FAIL'} {np.dtype(dt).name} largest={largest}", flush=True)
        count += 1
print(f"{count} cases checked")
