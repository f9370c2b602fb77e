"""ONNX DeformConv against torchvision.ops.deform_conv2d (an independent
implementation) and ONNX's reference evaluator: offsets up to +-4 pixels
(samples partly or wholly outside the image), stride 2 with dilation 2,
two groups and two offset groups, a mask and a bias. f32: rtol 1e-4, atol
1e-4 (sums of up to 72 bilinear samples times weights of O(1) values).
Prints one line per case; deform-conv.test checks them."""

import numpy as np
import torch
import torchvision
from onnx import TensorProto as TP, helper
from onnx.reference import ReferenceEvaluator

import graphopt
from graphopt.importer.onnx import import_onnx


def model(args, **attrs):
    names = ["x", "w", "offset", "b", "mask"][:len(args)]
    names = [nm if a is not None else "" for nm, a in zip(names, args)]
    g = helper.make_graph(
        [helper.make_node("DeformConv", names, ["y"], **attrs)], "deform",
        [helper.make_tensor_value_info(nm, TP.FLOAT, list(a.shape))
         for nm, a in zip(names, args) if a is not None],
        [helper.make_tensor_value_info("y", TP.FLOAT, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 22)])


rng = np.random.default_rng(0)
for name, (n, c, h, w), (oc, k), stride, pad, dil, group, og, masked in [
        ("3x3, padding 1, offsets +-4", (2, 4, 9, 11), (6, 3), 1, 1, 1, 1, 1, False),
        ("stride 2, dilation 2, 2 groups, 2 offset groups, mask, bias",
         (1, 4, 12, 10), (4, 3), 2, 2, 2, 2, 2, True)]:
    kext = (k - 1) * dil + 1
    oh, ow = (h + 2 * pad - kext) // stride + 1, (w + 2 * pad - kext) // stride + 1
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    wt = rng.standard_normal((oc, c // group, k, k)).astype(np.float32)
    off = rng.uniform(-4, 4, (n, og * k * k * 2, oh, ow)).astype(np.float32)
    bias = rng.standard_normal(oc).astype(np.float32) if masked else None
    mask = rng.uniform(0, 1, (n, og * k * k, oh, ow)).astype(np.float32) if masked else None
    args = [x, wt, off, bias, mask] if masked else [x, wt, off]
    attrs = dict(strides=[stride, stride], pads=[pad] * 4, dilations=[dil, dil],
                 group=group, offset_group=og, kernel_shape=[k, k])
    m = model(args, **attrs)
    got = graphopt.Program(import_onnx(m)).run([a for a in args if a is not None])[0]
    ref = ReferenceEvaluator(m).run(None, {nm: a for nm, a in
                                           zip(["x", "w", "offset", "b", "mask"], args)
                                           if a is not None})[0]
    t = lambda a: None if a is None else torch.from_numpy(a)  # noqa: E731
    tv = torchvision.ops.deform_conv2d(t(x), t(off), t(wt), t(bias), stride=stride,
                                       padding=pad, dilation=dil, mask=t(mask)).numpy()
    ok_ref = got.shape == ref.shape and np.allclose(got, ref, rtol=1e-4, atol=1e-4)
    ok_tv = got.shape == tv.shape and np.allclose(got, tv, rtol=1e-4, atol=1e-4)
    print(f"{'PASS' if ok_ref and ok_tv else 'FAIL'} {name}: {list(got.shape)}, vs "
          f"torchvision {'ok' if ok_tv else 'DIFFERS'}, vs reference "
          f"{'ok' if ok_ref else 'DIFFERS'}", flush=True)
