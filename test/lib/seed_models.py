"""The models of the two seed articles (shared/seeds/), verbatim, and the
scripted recurrence more than one suite runs: one definition for the e2e
suite (test/e2e/cases), the importer's unit tests (python/tests/importer)
and the command-line tests (test/Python/Inputs/models.py).

Article 1: `MyModule` (Linear 10->10), `my_function` (matmul + add), the
scripted `if` function `my_scripted_function`. Article 2: `add`,
`SimpleModel` (Linear 10->20, ReLU, Linear 20->2) and the
Conv2d-ReLU-MaxPool2d `Model`.
"""

import torch
import torch.nn as nn


# ---------------------------------------------------------------- article 1

class MyModule(torch.nn.Module):
  def __init__(self):
    super(MyModule, self).__init__()
    self.linear = torch.nn.Linear(10, 10)

  def forward(self, x):
    return self.linear(x)


def my_function(x, y):
  a = torch.matmul(x, y)
  b = torch.add(a, x)
  return b


@torch.jit.script
def my_scripted_function(x, y):
  if x.sum() > 0:
    return x + y
  else:
    return x - y


# ---------------------------------------------------------------- article 2

def add(a, b):
    return a + b


class SimpleModel(nn.Module):
    def __init__(self):
        super(SimpleModel, self).__init__()
        self.linear1 = nn.Linear(10, 20)
        self.relu = nn.ReLU()
        self.linear2 = nn.Linear(20, 2)

    def forward(self, x):
        x = self.linear1(x)
        x = self.relu(x)
        x = self.linear2(x)
        return x


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=3, padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)

    def forward(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.pool(x)
        return x


# ---------------------------------------------------------------- shared

@torch.jit.script
def time_steps(x, h):
    """A scripted recurrence: a loop over dim 0 writing each step's state."""
    out = torch.zeros_like(x)
    for t in range(x.size(0)):
        h = torch.tanh(x[t] + h * 0.5)
        out[t] = h
    return out, h
