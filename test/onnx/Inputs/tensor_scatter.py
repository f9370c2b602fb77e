"""ONNX TensorScatter (a KV-cache update) against the pseudocode of its
specification run in NumPy: rank 4 with the sequence on axis 2 and
per-batch write indices, linear and circular (wrapping past the cache's
end), no write indices, the sequence on axis 1 of a rank-3 int64 cache.
Exact (values are copied). Prints one line per case; tensor-scatter.test
checks them."""

import numpy as np
from onnx import TensorProto as TP, helper

import graphopt
from graphopt.importer.onnx import import_onnx

ELEM = {np.dtype(np.float32): TP.FLOAT, np.dtype(np.int64): TP.INT64}


def model(past, upd, idx, **attrs):
    names = ["past", "upd"] + (["idx"] if idx is not None else [])
    ins = [helper.make_tensor_value_info("past", ELEM[past.dtype], list(past.shape)),
           helper.make_tensor_value_info("upd", ELEM[upd.dtype], list(upd.shape))]
    if idx is not None:
        ins.append(helper.make_tensor_value_info("idx", TP.INT64, list(idx.shape)))
    g = helper.make_graph([helper.make_node("TensorScatter", names, ["y"], **attrs)], "ts",
                          ins, [helper.make_tensor_value_info("y", ELEM[past.dtype], None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 24)])


def reference(past, upd, idx, axis, mode):
    out = past.copy()
    axis %= past.ndim
    for prefix in np.ndindex(past.shape[:axis]):
        for s in range(upd.shape[axis]):
            c = (0 if idx is None else idx[prefix[0]]) + s
            if mode == "circular":
                c %= past.shape[axis]
            out[prefix + (c,)] = upd[prefix + (s,)]
    return out


rng = np.random.default_rng(0)
cases = [("rank 4, axis 2, linear", (3, 2, 10, 4), 3, np.array([0, 4, 7]), -2, "linear"),
         ("rank 4, axis 2, circular", (3, 2, 10, 4), 4, np.array([8, 0, 9]), 2, "circular"),
         ("rank 4, no write indices", (2, 3, 6, 5), 2, None, -2, "linear"),
         ("rank 3 int64, axis 1, circular", (2, 7, 3), 5, np.array([5, 2]), 1, "circular")]
for name, shape, seq, idx, axis, mode in cases:
    dt = np.int64 if "int64" in name else np.float32
    past = rng.integers(-100, 100, shape).astype(dt)
    ushape = list(shape)
    ushape[axis] = seq
    upd = rng.integers(-100, 100, ushape).astype(dt)
    want = reference(past, upd, idx, axis, mode)
    args = [past, upd] + ([idx] if idx is not None else [])
    got = graphopt.Program(import_onnx(model(past, upd, idx, axis=axis, mode=mode))).run(args)[0]
    ok = got.dtype == want.dtype and np.array_equal(got, want)
    print(f"{'PASS' if ok else 'FAIL'} {name}", flush=True)
