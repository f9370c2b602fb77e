"""ONNX Einsum models against numpy.einsum in float64 of the same inputs
(f32 results to rtol 1e-5, atol 1e-5: sums of up to 60 products of
standard normal values; int32 exact). Prints one line per equation;
einsum.test checks them."""

import numpy as np
from onnx import TensorProto as TP, helper

import graphopt
from graphopt.importer import UnsupportedOpsError
from graphopt.importer.onnx import import_onnx

rng = np.random.default_rng(0)
ELEM = {np.dtype(np.float32): TP.FLOAT, np.dtype(np.int32): TP.INT32}


def model(equation, arrays):
    names = [f"x{i}" for i in range(len(arrays))]
    g = helper.make_graph(
        [helper.make_node("Einsum", names, ["y"], equation=equation)], "einsum",
        [helper.make_tensor_value_info(n, ELEM[a.dtype], list(a.shape))
         for n, a in zip(names, arrays)],
        [helper.make_tensor_value_info("y", ELEM[arrays[0].dtype], None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 12)])


CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),                  # implicit: ik
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,bkj->bki", [(2, 3, 4), (2, 5, 4)]),     # transposed operands and result
    ("...ij,...jk->...ik", [(2, 3, 3, 4), (1, 3, 4, 2)]),  # ellipsis, broadcast batch
    ("i,j->ij", [(3,), (4,)]),                    # outer product
    ("ij,ij->i", [(3, 4), (3, 4)]),               # row-wise dot
    ("ijk,k->ij", [(2, 3, 4), (4,)]),
    ("ab,bc->", [(3, 4), (4, 5)]),                # everything summed
    ("abc,cd->ad", [(2, 3, 4), (4, 5)]),          # b summed in one input only
    ("ij->", [(3, 4)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),  # attention scores
    ("ij,jk->ki", [(3, 4), (4, 5)]),
    ("ii->i", [(4, 4)]),                          # a diagonal
    ("ii", [(4, 4)]),                             # the trace
    ("...ii->...i", [(2, 3, 4, 4)]),              # batched diagonals
    ("iij,jk->ik", [(3, 3, 4), (4, 5)]),          # a diagonal, then a product
]
count = 0
for equation, shapes in CASES:
    xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    want = np.einsum(equation, *[x.astype(np.float64) for x in xs])
    got = graphopt.Program(import_onnx(model(equation, xs))).run(xs)[0]
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-5)
    print(f"{'PASS' if ok else 'FAIL'} {equation} {got.shape}")
    count += 1

ints = [rng.integers(-50, 50, s).astype(np.int32) for s in [(3, 4), (4, 2)]]
got = graphopt.Program(import_onnx(model("ij,jk->ik", ints))).run(ints)[0]
print(f"{'PASS' if np.array_equal(got, np.einsum('ij,jk->ik', *ints)) else 'FAIL'} int32")
count += 1

try:
    import_onnx(model("i->ii", [np.zeros((3,), np.float32)]))
    print("FAIL: a diagonal embedding was accepted")
except UnsupportedOpsError as e:
    print("refused:", str(e).splitlines()[-1])
print(f"{count} equations checked")
