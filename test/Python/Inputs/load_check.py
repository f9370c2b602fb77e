"""graphopt.load on the shared libraries load.test builds: results against
NumPy (the dynamic matmul + row sums: rtol 1e-5, atol 1e-5 for sums of 4
products) and eager PyTorch (SimpleModel, the seed model: the same
tolerance), and the errors a wrong input gets (naming the input and the
dim, as the JIT's checks do)."""
import sys

import numpy as np
import torch

import graphopt

if sys.argv[1] == "emit":
    # The seed's SimpleModel with fixed weights, its MLIR and its eager
    # result, for load.test to compile ahead of time.
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from models import SimpleModel  # noqa: E402
    d = sys.argv[2]
    torch.manual_seed(0)
    model = SimpleModel().eval()
    x = torch.randn(4, 10)
    with open(f"{d}/simple.mlir", "w") as f:
        f.write(graphopt.import_torch(model, (x,)))
    np.save(f"{d}/simple_x.npy", x.numpy())
    np.save(f"{d}/simple_y.npy", model(x).detach().numpy())
    sys.exit(0)

d = sys.argv[1]
m = graphopt.load(f"{d}/libdynamic.so")
print(m)
# CHECK: @main(tensor<?x4xf32>, tensor<4x3xf32>) -> (tensor<?x3xf32>, tensor<?xf32>)
rng = np.random.default_rng(0)
y = rng.standard_normal((4, 3)).astype(np.float32)
for rows in (5, 1, 0):
    x = rng.standard_normal((rows, 4)).astype(np.float32)
    mm, s = m(x, y)
    np.testing.assert_allclose(mm, x @ y, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(s, x.sum(axis=1), rtol=1e-5, atol=1e-5)
    print("rows", rows, "ok", mm.shape, s.shape)
# CHECK: rows 5 ok (5, 3) (5,)
# CHECK: rows 1 ok (1, 3) (1,)
# CHECK: rows 0 ok (0, 3) (0,)
x = rng.standard_normal((5, 4)).astype(np.float32)
for args in [(x,), (x.astype(np.float64), y), (x, y[:3]), (x[:, :3], y),
             (x, "y")]:
    try:
        m(*args)
    except (graphopt.ExecutionError, TypeError) as e:
        print(type(e).__name__ + ":", e)
# CHECK: ExecutionError: @main takes 2 inputs but 1 was given
# CHECK: ExecutionError: input 0 of @main: expected element type f32 (tensor<?x4xf32>), got float64
# CHECK: ExecutionError: input 1 of @main: dim 0 is 3, expected 4 (tensor<4x3xf32>)
# CHECK: ExecutionError: input 0 of @main: dim 1 is 3, expected 4 (tensor<?x4xf32>)
# CHECK: TypeError: argument 1: expected a NumPy array or a torch.Tensor, got str
# A non-contiguous input is copied, not misread.
mm, _ = m(np.asfortranarray(x), y)
np.testing.assert_allclose(mm, x @ y, rtol=1e-5, atol=1e-5)
print("fortran order ok")
# CHECK: fortran order ok

simple = graphopt.load(f"{d}/libsimple.so")
x = np.load(f"{d}/simple_x.npy")
got = simple(torch.from_numpy(x))
print("simple", type(got).__name__, tuple(got.shape))
# CHECK: simple Tensor (4, 2)
torch.testing.assert_close(got, torch.from_numpy(np.load(f"{d}/simple_y.npy")),
                           rtol=1e-5, atol=1e-5)
print("simple matches eager")
# CHECK: simple matches eager
try:
    graphopt.load(f"{d}/libsimple.so", entry="other")
except graphopt.GraphOptError as e:
    print("GraphOptError:", str(e).split(": ", 1)[1])
# CHECK: GraphOptError: not a graphopt object for entry 'other'
