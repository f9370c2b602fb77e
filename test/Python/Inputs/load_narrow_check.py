"""graphopt.load of an object whose signature has bf16 and 8-bit floats
(Inputs/load_narrow.mlir, built by bf16.test): NumPy has no such dtypes,
so the loader takes and returns ml_dtypes arrays, and torch tensors of
those dtypes through their bits. References: ml_dtypes' own conversions
(round to nearest even, as graph.cast does; no value here overflows, where
graph.cast would saturate), with the bf16 sum computed in f32 and rounded
once."""
import sys

import ml_dtypes
import numpy as np
import torch

import graphopt

m = graphopt.load(f"{sys.argv[1]}/libnarrow.so")
print(m)
# CHECK: @main(tensor<4xbf16>, tensor<4xf8E4M3FN>) -> (tensor<4xbf16>, tensor<4xf8E5M2>, tensor<4xf32>)

BF16, E4M3, E5M2 = (np.dtype(getattr(ml_dtypes, n))
                    for n in ("bfloat16", "float8_e4m3fn", "float8_e5m2"))
# -2.25 is a tie in f8E5M2 (between -2 and -2.5), 100 is not representable.
a = np.array([1.5, -2.25, 100.0, 0.1], BF16)
b = np.array([0.5, 448.0, -3.0, 0.015625], E4M3)
want_s = (a.astype(np.float32) + b.astype(np.float32)).astype(BF16)
want_e = a.astype(np.float32).astype(E5M2)
want_f = a.astype(np.float32)


def same(got, want):
    return got.dtype == want.dtype and got.tobytes() == want.tobytes()


s, e, f = m(a, b)
print("numpy:", same(s, want_s), same(e, want_e), same(f, want_f), e.tolist())
# CHECK: numpy: True True True [1.5, -2.0, 96.0, 0.09375]

ta = torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
tb = torch.from_numpy(b.view(np.uint8)).view(torch.float8_e4m3fn)
ts, te, tf = m(ta, tb)
print("torch:", ts.dtype, te.dtype, tf.dtype,
      same(ts.view(torch.int16).numpy().view(BF16), want_s),
      same(te.view(torch.uint8).numpy().view(E5M2), want_e))
# CHECK: torch: torch.bfloat16 torch.float8_e5m2 torch.float32 True True

# A wrong dtype is named.
try:
    m(a.astype(np.float32), b)
except graphopt.ExecutionError as err:
    print("error:", err)
# CHECK: error: input 0 of @main: expected element type bf16 (tensor<4xbf16>), got float32
