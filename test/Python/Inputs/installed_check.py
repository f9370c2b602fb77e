"""Checks an installed graphopt (pip install --target SITE): the bundled
library is the one loaded, and it compiles and runs."""
import sys
from pathlib import Path

import numpy as np

import graphopt

site = Path(sys.argv[1]).resolve()
lib = Path(graphopt.LIBRARY_PATH).resolve()
print("bundled", lib == site / "graphopt" / "_lib" / "libGraphOpt.so")
# CHECK: bundled True
print("package", Path(graphopt.__file__).resolve().is_relative_to(site))
# CHECK: package True
p = graphopt.Program("""
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %y = graph.matmul %x, %x : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}""")
(y,) = p.run([np.array([[1, 2], [3, 4]], np.float32)])
print(y.tolist())
# CHECK: {{\[\[}}7.0, 10.0], [15.0, 22.0]]

# With --cuda (graphopt built with the CUDA toolkit): the CUDA target finds
# its runtime library bundled next to libGraphOpt.so; compile for CUDA and
# run under emulation (no GPU needed).
if "--cuda" in sys.argv:
    print("runtime bundled",
          (site / "graphopt" / "_lib" / "libGraphOptCUDARuntime.so").is_file())
    q = graphopt.Program("""
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %y = graph.add %x, %x : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}""", target="cuda", cuda_emulate=True)
    (z,) = q.run([np.array([[1, 2], [3, 4]], np.float32)])
    print("cuda", z.tolist())
# CUDA: runtime bundled True
# CUDA: cuda {{\[\[}}2.0, 4.0], [6.0, 8.0]]
