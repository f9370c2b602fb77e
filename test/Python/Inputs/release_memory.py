"""graphopt.release_cached_memory() (C: graphopt_release_cached_memory):
the runtime keeps freed blocks of 64 KiB or more for the next call; the
function frees them and later calls allocate afresh, with the same results
(checked against NumPy: a matmul whose 512 x 512 f32 intermediate, 1 MiB,
goes through the cache; rtol 1e-5 for f32 sums in another order)."""
import numpy as np

import graphopt

TEXT = """
func.func @main(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = graph.matmul %a, %b : tensor<512x512xf32>, tensor<512x512xf32> -> tensor<512x512xf32>
  %1 = graph.tanh %0 : tensor<512x512xf32> -> tensor<512x512xf32>
  %2 = graph.matmul %1, %b : tensor<512x512xf32>, tensor<512x512xf32> -> tensor<512x512xf32>
  return %2 : tensor<512x512xf32>
}
"""
rng = np.random.default_rng(0)
a = rng.standard_normal((512, 512), dtype=np.float32) * 0.05
b = rng.standard_normal((512, 512), dtype=np.float32) * 0.05
want = np.tanh(a.astype(np.float64) @ b) @ b
program = graphopt.Program(TEXT)
first = program.run([a, b])[0]
np.testing.assert_allclose(first, want, rtol=1e-5, atol=1e-6)
released = graphopt.release_cached_memory()
print("released some:", released > 0)
# CHECK: released some: True
print("nothing left:", graphopt.release_cached_memory() == 0)
# CHECK: nothing left: True
again = program.run([a, b])[0]
assert np.array_equal(again, first)
print("same results after release")
# CHECK: same results after release
