"""Control flow: TorchScript if/for/while (graph.if, graph.loop), loops that
read and write time steps (gather + dynamic_update_slice), and torch.cond
through the torch.export importer."""

from typing import Tuple

import torch
import torch.nn as nn

from framework import Spec, case
from seed_models import time_steps as scripted_time_steps_fn  # test/lib


def randn(*shape):
    return torch.randn(*shape)


@torch.jit.script
def scripted_for_loop_fn(x):
    for i in range(4):
        x = x * 0.5 + torch.tanh(x)
    return x


@torch.jit.script
def scripted_loop_over_dim_fn(x):
    acc = torch.zeros_like(x[0])
    for i in range(x.size(0)):
        acc = acc + x[i] * float(i + 1)
    return acc


@torch.jit.script
def scripted_while_fn(x):
    # Data-dependent trip count: doubles until the sum passes 100.
    while bool(x.abs().sum() < 100.0):
        x = x * 2.0
    return x


@torch.jit.script
def scripted_if_nested_fn(x, y):
    if x.mean() > 0:
        if y.mean() > 0:
            z = x * y
        else:
            z = x - y
    else:
        z = torch.relu(x) + y
    return z


@torch.jit.script
def scripted_loop_two_carried_fn(x):
    s = torch.zeros_like(x)
    p = torch.ones_like(x)
    for i in range(5):
        s = s + x
        p = p * (x + 1.0)
    return s, p


class ScriptedRNN(nn.Module):
    """A hand-written RNN cell unrolled by a TorchScript loop."""

    def __init__(self):
        super().__init__()
        self.ih = nn.Linear(16, 32)
        self.hh = nn.Linear(32, 32)

    def forward(self, x) -> Tuple[torch.Tensor, torch.Tensor]:
        h = torch.zeros(x.size(1), 32)
        outs = []
        for t in range(x.size(0)):
            h = torch.tanh(self.ih(x[t]) + self.hh(h))
            outs.append(h)
        return torch.stack(outs), h


@case(tags=("control-flow", "torchscript"))
def scripted_for_loop():
    return scripted_for_loop_fn, (randn(4, 8),)


@case(tags=("control-flow", "torchscript"))
def scripted_loop_over_dim():
    return scripted_loop_over_dim_fn, (randn(6, 5),)


@case(tags=("control-flow", "torchscript"))
def scripted_while_loop():
    """Both a loop that runs several times and one that runs 0 times."""
    x = randn(3, 3) * 0.01
    return Spec(scripted_while_fn, (x,), more_inputs=[(x * 1e5,)])


@case(tags=("control-flow", "torchscript"))
def scripted_if_nested():
    x, y = randn(4, 4).abs(), randn(4, 4).abs()
    return Spec(scripted_if_nested_fn, (x, y),
                more_inputs=[(x, -y), (-x, y)])


@case(tags=("control-flow", "torchscript", "v2"))
def scripted_loop_time_steps():
    """Reads x[t] and writes out[t] in the loop body."""
    return scripted_time_steps_fn, (randn(8, 2, 16), randn(2, 16))


@case(tags=("control-flow", "torchscript"))
def scripted_loop_two_carried():
    return scripted_loop_two_carried_fn, (randn(3, 4),)


@case(tags=("control-flow", "torchscript", "v2"))
def scripted_rnn_module():
    return torch.jit.script(ScriptedRNN().eval()), (randn(10, 2, 16),)


class CondModel(nn.Module):
    """torch.cond: data-dependent branch in torch.export graphs."""

    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda x: x.tanh() * 2,
                          lambda x: x.exp() - 1, (x,))


@case(tags=("control-flow", "v2"))
def torch_cond():
    x = randn(4, 4)
    if x.sum() <= 0:
        x = -x
    return Spec(CondModel(), (x,), more_inputs=[(-x,)])


class CellLoop(nn.Module):
    """nn.GRUCell, nn.LSTMCell and nn.RNNCell (tanh and relu) stepped by a
    Python loop (aten.gru_cell, lstm_cell, rnn_tanh_cell, rnn_relu_cell)."""

    def __init__(self):
        super().__init__()
        self.gru = nn.GRUCell(8, 16)
        self.lstm = nn.LSTMCell(8, 16)
        self.tanh = nn.RNNCell(8, 16)
        self.relu = nn.RNNCell(8, 16, nonlinearity="relu", bias=False)

    def forward(self, x) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor,
                                  torch.Tensor, torch.Tensor]:
        b = x.size(1)
        h = torch.zeros(b, 16)
        hc = (torch.zeros(b, 16), torch.zeros(b, 16))
        ht = torch.zeros(b, 16)
        hr = torch.zeros(b, 16)
        for t in range(x.size(0)):
            h = self.gru(x[t], h)
            hc = self.lstm(x[t], hc)
            ht = self.tanh(x[t], ht)
            hr = self.relu(x[t], hr)
        return h, hc[0], hc[1], ht, hr


@case(tags=("control-flow", "v2"))
def rnn_cells_unrolled():
    """torch.export unrolls the Python loop: 5 steps of each cell."""
    return CellLoop().eval(), (randn(5, 3, 8),)


@case(tags=("control-flow", "torchscript", "v2"))
def rnn_cells_scripted():
    """The same cells inside a TorchScript loop (graph.loop)."""
    return torch.jit.script(CellLoop().eval()), (randn(5, 3, 8),)
