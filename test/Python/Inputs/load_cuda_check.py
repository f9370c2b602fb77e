"""graphopt.load of a CUDA object (test/Python/load-cuda.test): results
against NumPy, a zero-row input, the input checks; with a GPU
(`gpu` argument), torch CUDA tensors in and out too."""
import sys

import numpy as np

import graphopt

m = graphopt.load(sys.argv[1])
print(m, "cuda" if m.cuda else "cpu")
rng = np.random.default_rng(0)
x = rng.standard_normal((5, 4)).astype(np.float32)
b = rng.standard_normal(4).astype(np.float32)
r, mx = m(x, b)
print("relu(x + b) matches NumPy:", np.array_equal(r, np.maximum(x + b, 0)))
print("max over rows matches NumPy:", np.array_equal(mx, x.max(axis=0)))
r0, m0 = m(np.zeros((0, 4), np.float32), b)
print("zero rows:", r0.shape, m0.tolist())
for bad in [(x.astype(np.float64), b), (x, b[:3]), (x,)]:
    try:
        m(*bad)
        print("no error")
    except graphopt.ExecutionError as e:
        print("ExecutionError:", e)
import torch  # noqa: E402

rt, mt = m(torch.from_numpy(x), torch.from_numpy(b))
print("CPU tensors in, CPU tensors out:", rt.device.type,
      torch.equal(rt, torch.from_numpy(np.maximum(x + b, 0))))
if len(sys.argv) > 2 and sys.argv[2] == "gpu":
    xc, bc = torch.from_numpy(x).cuda(), torch.from_numpy(b).cuda()
    rc, mc = m(xc * 1, bc)  # written by PyTorch on its stream just before
    print("CUDA tensors in, CUDA tensors out:", rc.device.type,
          torch.equal(rc.cpu(), torch.from_numpy(np.maximum(x + b, 0))))
    # A view 4 bytes into its storage: not 16-byte aligned, copied first.
    storage = torch.from_numpy(np.concatenate([np.zeros(1, np.float32), x.ravel()])).cuda()
    xv = storage[1:].view(5, 4)
    rv, mv = m(xv, bc)
    print("misaligned CUDA view in:", xv.data_ptr() % 16 != 0,
          torch.equal(rv.cpu(), torch.from_numpy(np.maximum(x + b, 0))))
