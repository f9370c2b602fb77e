"""Python int, float and bool arguments of graphopt.compile (issue 18):
specialization keys, not program inputs. The model is imported with the
value (torch.export and the TorchScript importer make it a constant); a
call with another value compiles again, one with a value seen before
reuses its program. Results against eager PyTorch (rtol 1e-6, atol 1e-6:
the same elementwise f32 arithmetic)."""
import torch

import graphopt


@torch.jit.script
def repeat(x, n: int):
    """A TorchScript loop count."""
    for _ in range(n):
        x = x * 0.5 + 1.0
    return x


class Affine(torch.nn.Module):
    """Scalars through torch.export."""

    def forward(self, x, n: int, s: float):
        return x * s + n


def branch(x, flag: bool):
    return x.relu() if flag else -x


def run(model, calls):
    compiled = graphopt.compile(model, calls[0])
    for args in calls:
        got = compiled(*args)
        torch.testing.assert_close(got, model(*args), rtol=1e-6, atol=1e-6)
    print(type(model).__name__, "programs:", compiled.compile_count,
          "signatures:", [tuple(s[1:]) for s in compiled.signatures])
    return compiled


torch.manual_seed(0)
x = torch.randn(5)
# CHECK: ScriptFunction programs: 2 signatures: [(('scalar', 3),), (('scalar', 0),)]
run(repeat, [(x, 3), (x, 0), (x, 3)])
# CHECK: Affine programs: 2 signatures: [(('scalar', 2), ('scalar', 0.5)), (('scalar', -1), ('scalar', 2.0))]
affine = run(Affine(), [(x, 2, 0.5), (x, 2, 0.5), (x, -1, 2.0)])
# CHECK: function programs: 2 signatures: [(('scalar', True),), (('scalar', False),)]
run(branch, [(x, True), (x, False)])

# A scalar where the example had a tensor (or the reverse) is an error that
# names the argument; so is a scalar's dynamic dim.
try:
    affine(x, torch.tensor(2), 0.5)
except TypeError as e:
    # CHECK: TypeError: argument 1: compiled for a Python scalar, got a tensor
    print("TypeError:", e)
try:
    graphopt.compile(Affine(), (x, 2, 0.5), dynamic_dims={1: [0]})
except ValueError as e:
    # CHECK: ValueError: dynamic_dims: input 1 is a Python scalar, which has no dims
    print("ValueError:", e)
# NumPy inputs with scalars.
# CHECK: numpy ok
torch.testing.assert_close(torch.as_tensor(affine(x.numpy(), 2, 0.5)),
                           Affine()(x, 2, 0.5), rtol=1e-6, atol=1e-6)
print("numpy ok")
