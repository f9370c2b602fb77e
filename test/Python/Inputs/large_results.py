"""Large results are handed over without a copy (graphopt.Program.run:
results of 1 MiB or more view the library's buffers, which are freed with
the last array that views them). Checks the values against NumPy, that the
arrays outlive the program, stay writable and independent, and that runs
from several threads each get their own buffers."""
import gc
import threading

import numpy as np

import graphopt

SRC = """func.func @main(%a: tensor<512x1024xf32>, %b: tensor<512x1024xf32>) -> (tensor<512x1024xf32>, tensor<512x1024xf32>) {
  %0 = graph.add %a, %b : tensor<512x1024xf32>, tensor<512x1024xf32> -> tensor<512x1024xf32>
  %1 = graph.mul %a, %b : tensor<512x1024xf32>, tensor<512x1024xf32> -> tensor<512x1024xf32>
  return %0, %1 : tensor<512x1024xf32>, tensor<512x1024xf32>
}"""

rng = np.random.default_rng(0)
a = rng.standard_normal((512, 1024), dtype=np.float32)
b = rng.standard_normal((512, 1024), dtype=np.float32)
program = graphopt.Program(SRC)
total, product = program.run([a, b])
assert total.shape == (512, 1024) and total.dtype == np.float32
assert total.flags.c_contiguous
# One of the two results dropped, the other kept: the buffers are shared
# by one results object, which must stay alive for the survivor.
del total
gc.collect()
runs = [program.run([a, b]) for _ in range(20)]
program.close()
del program
gc.collect()
# Exact: one IEEE add / multiply per element, as NumPy does.
assert np.array_equal(product, a * b)
for s, m in runs:
    assert np.array_equal(s, a + b) and np.array_equal(m, a * b)
# Writable, and not aliased with another call's result.
runs[0][0][0, 0] = 42.0
assert runs[1][0][0, 0] == (a + b)[0, 0]


def work(errors):
    try:
        p = graphopt.Program(SRC)
        for _ in range(30):
            s, m = p.run([a, b])
            assert np.array_equal(s, a + b) and np.array_equal(m, a * b)
    except Exception as e:  # reported below
        errors.append(e)


errors = []
threads = [threading.Thread(target=work, args=(errors,)) for _ in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors
print("large results: OK")
# CHECK: large results: OK
