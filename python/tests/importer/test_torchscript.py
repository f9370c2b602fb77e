"""import_torchscript: scripted and traced modules and functions, control
flow, compared with eager PyTorch through build/bin/graph-run.

    python3 -m pytest python/tests/importer      # or run this file directly
"""

from typing import List, Tuple

import _util
from _util import check_numerics
import torch
import torch.nn as nn
import torch.nn.functional as F

from graphopt.importer import UnsupportedOpsError, import_torchscript
from seed_models import SimpleModel, time_steps  # test/lib

torch.manual_seed(0)


@torch.jit.script
def my_function(x):
    if x.sum() > 0:
        return x * 2
    else:
        return x * 3


@torch.jit.script
def for_and_while(x, n: int):
    for i in range(n):
        x = x * 0.5 + i
    k = 0
    while x.sum() > 1:
        x = x - 1
        k += 1
    return x, k


@torch.jit.script
def nested_control_flow(x, n: int):
    acc = torch.zeros_like(x)
    for i in range(n):
        if i % 2 == 0:
            acc = acc + x * i
        else:
            acc = acc - x
    return acc


class ListRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.ih = nn.Linear(4, 8)
        self.hh = nn.Linear(8, 8)

    def forward(self, x) -> Tuple[torch.Tensor, torch.Tensor]:
        h = torch.zeros(x.size(1), 8)
        outs: List[torch.Tensor] = []
        for t in range(x.size(0)):
            h = torch.tanh(self.ih(x[t]) + self.hh(h))
            outs.append(h)
        return torch.stack(outs), h


def test_seed_if():
    text = import_torchscript(my_function, (torch.randn(4),))
    assert "graph.if" in text and "tensor<i1>" in text
    for x in (torch.ones(4), -torch.ones(4)):
        check_numerics(text, my_function, (x,))


def test_for_and_while_loops():
    text = import_torchscript(for_and_while, (torch.randn(4), torch.tensor(5)))
    assert text.count("graph.loop") == 2
    assert "dense<9223372036854775807>" in text  # the while loop's trip count
    ref = lambda x, n: for_and_while(x, int(n))
    check_numerics(text, ref, (torch.rand(4) * 3, torch.tensor(5)))
    check_numerics(text, ref, (torch.rand(4) + 10, torch.tensor(2)))
    # A Python int example is a compile-time constant.
    text = import_torchscript(for_and_while, (torch.randn(4), 3))
    check_numerics(text, lambda x: for_and_while(x, 3), (torch.rand(4) * 3,))


def test_nested_control_flow():
    text = import_torchscript(nested_control_flow, (torch.randn(4), torch.tensor(5)))
    ref = lambda x, n: nested_control_flow(x, int(n))
    for n in (0, 1, 5):
        check_numerics(text, ref, (torch.randn(4), torch.tensor(n)))


def test_writes_through_select_views():
    args = (torch.randn(8, 2, 16), torch.randn(2, 16))
    text = import_torchscript(time_steps, args)
    assert "graph.dynamic_update_slice" in text and "graph.gather" in text
    check_numerics(text, time_steps, args)


def test_list_append_loop_is_unrolled():
    m = torch.jit.script(ListRNN().eval())
    x = torch.randn(5, 2, 4)
    check_numerics(import_torchscript(m, (x,)), m, (x,))


def test_scripted_and_traced_modules():
    m = SimpleModel().eval()
    x = torch.randn(4, 10)
    for s in (torch.jit.script(m), torch.jit.trace(m, (x,))):
        check_numerics(import_torchscript(s, (x,)), m, (x,))


def test_conv_model_traced_and_scripted():
    m = nn.Sequential(nn.Conv2d(3, 8, 3, padding="same"), nn.BatchNorm2d(8), nn.ReLU6(),
                      nn.MaxPool2d(2), nn.Conv2d(8, 8, 3, groups=8), nn.Hardswish(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
                      nn.Linear(8, 3)).eval()
    m[1].running_mean.normal_()
    x = torch.randn(2, 3, 12, 12)
    for s in (torch.jit.script(m), torch.jit.trace(m, (x,))):
        check_numerics(import_torchscript(s, (x,)), m, (x,))


def test_attention_and_recurrent_modules():
    """The fused fast paths of MultiheadAttention/TransformerEncoderLayer
    are not taken (the importer answers is_grad_enabled() with True)."""
    cases = [
        (nn.MultiheadAttention(8, 2, batch_first=True), (torch.randn(2, 5, 8),) * 3),
        (nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), (torch.randn(2, 5, 8),)),
        (nn.LSTM(4, 6, num_layers=2, batch_first=True), (torch.randn(2, 5, 4),)),
        (nn.GRU(4, 6), (torch.randn(5, 2, 4),)),
    ]
    for m, args in cases:
        m.eval()
        text = import_torchscript(torch.jit.script(m), args)
        assert "_native_multi_head_attention" not in text
        check_numerics(text, m, args)


def test_unsupported_ops_are_all_listed():
    @torch.jit.script
    def bad(x):
        y = torch.special.ndtri(x)
        if x.sum() > 0:
            y = y + torch.nonzero(x).sum()
        return y
    try:
        import_torchscript(bad, (torch.randn(4),))
    except UnsupportedOpsError as e:
        text = str(e)
        assert "aten.special_ndtri.default" in text and "aten.nonzero.default" in text
        assert "test_torchscript.py:" in text
        return
    raise AssertionError("no UnsupportedOpsError")


if __name__ == "__main__":
    _util.run_tests(globals())
