"""Weights passed to the compiler out of band (issue 14): graphopt.compile
prints large constants as dense_resource<NAME> and hands their bytes to
graphopt_compile_with_constants instead of printing and parsing hex text.
Results against eager PyTorch (rtol 1e-4, atol 1e-5: f32 GEMMs and
convolutions summed in another order); the self-contained text that
`CompiledModule.mlir` gives compiles to the same results (same program,
compared exactly); bad data is an error naming the constant."""
import numpy as np
import torch

import graphopt
from graphopt.importer.mlir_builder import out_of_band_constants

torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.fc1 = torch.nn.Linear(16 * 8 * 8, 256)
        self.fc2 = torch.nn.Linear(256, 10)
        self.register_buffer("offset", torch.randn(10))

    def forward(self, x):
        y = torch.relu(self.conv(x)).flatten(1)
        return self.fc2(torch.nn.functional.gelu(self.fc1(y))) + self.offset


model = Net().eval()
x = torch.randn(2, 3, 8, 8)
with torch.no_grad():
    ref = model(x).numpy()
cm = graphopt.compile(model, (x,))
text, data = cm._mlir
# The constants of 1 KiB or more are out of band: the conv weight
# (16*3*3*3*4 = 1728 bytes), fc1's weight (1024*256*4 = 1048576) and bias
# (256*4 = 1024) and fc2's weight (10*256*4 = 10240); fc2's bias, the conv
# bias and the buffer (40-64 bytes) are printed. 1728 + 1048576 + 1024 +
# 10240 = 1061568.
print("out of band:", len(data.raw), "constants,",
      sum(a.nbytes for a in data.raw.values()), "bytes")
# CHECK: out of band: 4 constants, 1061568 bytes
assert text.count("dense_resource<") == len(data.raw)
got = cm(x).numpy()
np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)
print("compile vs eager: ok")
# CHECK: compile vs eager: ok

full = cm.mlir
assert "dense_resource" not in full and 'dense<"0x' in full
(again,) = graphopt.Program(full).run([x.numpy()])
assert np.array_equal(again, got), np.abs(again - got).max()
print("self-contained text: same results")
# CHECK: self-contained text: same results

# graphopt.Program with the data by name, and the errors.
with out_of_band_constants() as data:
    from graphopt.importer.pytorch.dtypes import FunctionBuilder, TensorType
    b = FunctionBuilder("main")
    a = b.add_argument("a", TensorType((4, 300), torch.float32))
    w = torch.arange(300 * 5, dtype=torch.float32).reshape(300, 5) / 1000
    b.set_results([b.matmul(a, b.constant(w))])
    mm = b.module_text()
assert list(data.raw) == ["graphopt_const_0"]
a_np = np.random.default_rng(0).standard_normal((4, 300)).astype(np.float32)
(r,) = graphopt.Program(mm, constants=data.raw).run([a_np])
np.testing.assert_allclose(r, a_np.astype(np.float64) @ w.numpy().astype(np.float64),
                           rtol=1e-4, atol=1e-4)
print("Program(constants=...): ok")
# CHECK: Program(constants=...): ok

for what, constants in (("missing", {}),
                        ("short", {"graphopt_const_0": data.raw["graphopt_const_0"][:100]})):
    try:
        graphopt.Program(mm, constants=constants or None)
        print(what, "compiled")
    except graphopt.CompileError as e:
        print(what, "->", str(e).splitlines()[0])
# CHECK: missing -> {{.*}}graph.constant: dense_resource<graphopt_const_0> : tensor<300x5xf32> has no data
# CHECK: short -> {{.*}}graph.constant: dense_resource<graphopt_const_0> : tensor<300x5xf32> has 400 bytes of data; the type needs 6000
