"""graphopt.compile from several threads at once (issue 19: torch's tracing
state is process-wide, so concurrent imports failed inside torch): 4
threads each compile their own model and call it with 4 signatures, then 5
threads make first calls with new shapes on one shared compiled function.
Every result is compared with eager PyTorch, computed before the threads
start (eager code running while another thread traces is torch's problem,
not ours), at rtol 1e-4, atol 1e-5."""
import threading

import numpy as np
import torch

import graphopt

torch.manual_seed(0)
models = [torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(),
                              torch.nn.Linear(32, 8)).eval() for _ in range(4)]
inputs = {(i, b): torch.randn(b, 16) for i in range(4) for b in (2, 3, 5, 7)}
with torch.no_grad():
    refs = {k: models[k[0]](x).numpy() for k, x in inputs.items()}
errors, counts = [], []


def check(key, y):
    if not np.allclose(y.numpy(), refs[key], rtol=1e-4, atol=1e-5):
        errors.append((key, "mismatch"))


def own_model(i):
    try:
        f = graphopt.compile(models[i], (inputs[(i, 2)],))
        for b in (3, 5, 2, 7):
            check((i, b), f(inputs[(i, b)]))
        counts.append(f.compile_count)
    except Exception as e:  # reported below
        errors.append((i, repr(e)))


threads = [threading.Thread(target=own_model, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("own models:", errors, sorted(counts))
# CHECK: own models: [] [4, 4, 4, 4]

shared = graphopt.compile(models[0], (inputs[(0, 2)],))


def first_call(b):
    try:
        check((0, b), shared(inputs[(0, b)]))
    except Exception as e:
        errors.append(("shared", b, repr(e)))


threads = [threading.Thread(target=first_call, args=(b,)) for b in (3, 5, 3, 5, 7)]
for t in threads:
    t.start()
for t in threads:
    t.join()
# One program per signature: 2 (example), 3, 5, 7.
print("shared:", errors, shared.compile_count)
# CHECK: shared: [] 4
