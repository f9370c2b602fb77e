"""bfloat16 in the Python package. NumPy has no bfloat16: Program takes and
returns ml_dtypes.bfloat16 arrays; graphopt.compile passes torch bf16
tensors through as their bits. bf16 is computed in f32 and rounded where
it is stored, so results are compared with a float64 reference of the
bf16 inputs to two bf16 ulps (rtol 2^-7 of the value: an ulp is 2^-8 to
2^-7 of it) plus, where sums of products cancel, atol 2^-8 * the largest
|term|."""
import copy
import subprocess
import sys

import ml_dtypes
import numpy as np
import torch

import graphopt

BF16 = np.dtype(ml_dtypes.bfloat16)
rng = np.random.default_rng(0)


def close(got, want, atol=0.0):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return bool(np.all(np.abs(got - want) <= atol + 2.0 ** -7 * np.abs(want)))


# 1. Program: elementwise and matmul on ml_dtypes arrays.
prog = graphopt.Program("""
func.func @main(%a: tensor<4x8xbf16>, %b: tensor<8x3xbf16>, %c: tensor<4x3xbf16>) -> (tensor<4x3xbf16>, tensor<4x8xbf16>) {
  %m = graph.matmul %a, %b : tensor<4x8xbf16>, tensor<8x3xbf16> -> tensor<4x3xbf16>
  %s = graph.add %m, %c : tensor<4x3xbf16>, tensor<4x3xbf16> -> tensor<4x3xbf16>
  %e = graph.exp %a : tensor<4x8xbf16> -> tensor<4x8xbf16>
  return %s, %e : tensor<4x3xbf16>, tensor<4x8xbf16>
}""")
print("inputs:", [str(t.dtype) for t in prog.inputs])
# CHECK: inputs: ['bfloat16', 'bfloat16', 'bfloat16']
a, b, c = (rng.standard_normal(s).astype(BF16) for s in [(4, 8), (8, 3), (4, 3)])
s, e = prog.run([a, b, c])
a64, b64, c64 = (x.astype(np.float64) for x in (a, b, c))
terms = np.abs(a64)[:, :, None] * np.abs(b64)[None, :, :]
print("program:", s.dtype, e.dtype,
      close(s, a64 @ b64 + c64, atol=2.0 ** -8 * (terms.max() + np.abs(c64).max())),
      close(e, np.exp(a64)))
# CHECK: program: bfloat16 bfloat16 True True

# 2. graphopt.compile: a bf16 model against eager PyTorch in bf16 (which
#    rounds after each op: both within two ulps of each other per layer).
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(),
                            torch.nn.Linear(32, 8)).to(torch.bfloat16).eval()
x = torch.randn(5, 16, dtype=torch.bfloat16)
compiled = graphopt.compile(model, (x,))
got = compiled(x)
reference = copy.deepcopy(model).float()  # the f32 model of the bf16 weights
with torch.no_grad():
    ref = reference(x.float())
print("compile:", got.dtype, tuple(got.shape),
      close(got.float().numpy(), ref.numpy(), atol=2.0 ** -6 * float(ref.abs().max())))
# CHECK: compile: torch.bfloat16 (5, 8) True

# A non-contiguous bf16 input (transposed view) goes the general path.
xt = torch.randn(16, 5, dtype=torch.bfloat16).t()
with torch.no_grad():
    ref = reference(xt.float())
print("view:", close(compiled(xt).float().numpy(), ref.numpy(),
                     atol=2.0 ** -6 * float(ref.abs().max())))
# CHECK: view: True

# 3. Without ml_dtypes, bf16 is a clear error.
code = r'''
import sys
sys.modules["ml_dtypes"] = None  # import fails
import numpy as np, graphopt
p = graphopt.Program("""func.func @main(%a: tensor<2xf32>) -> tensor<2xbf16> {
  %e = graph.cast %a : tensor<2xf32> -> tensor<2xbf16>
  return %e : tensor<2xbf16>
}""")
print("spec dtype:", p.outputs[0].dtype)
try:
    p.run([np.zeros(2, np.float32)])
except graphopt.GraphOptError as e:
    print("error:", e)
'''
out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
print(out.stdout.strip(), out.returncode)
# CHECK: spec dtype: None
# CHECK: error: {{.*}}ml_dtypes
