"""ONNX RoiAlign against ONNX's reference evaluator and, for the average
mode, torchvision.ops.roi_align (aligned = half_pixel): two images, rois
partly outside the image and on its last row and column, sampling ratios 1
to 3, both coordinate modes, max mode. f32: rtol 1e-5, atol 1e-5 (sums of
at most 36 bilinear samples of O(1) values; the coordinates are rounded in
a different order). Prints one line per case; roi-align.test checks them."""

import numpy as np
import torch
import torchvision
from onnx import TensorProto as TP, helper
from onnx.reference import ReferenceEvaluator

import graphopt
from graphopt.importer.onnx import import_onnx


def model(x, rois, **attrs):
    g = helper.make_graph(
        [helper.make_node("RoiAlign", ["x", "rois", "bi"], ["y"], **attrs)], "roi",
        [helper.make_tensor_value_info("x", TP.FLOAT, list(x.shape)),
         helper.make_tensor_value_info("rois", TP.FLOAT, list(rois.shape)),
         helper.make_tensor_value_info("bi", TP.INT64, [rois.shape[0]])],
        [helper.make_tensor_value_info("y", TP.FLOAT, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 22)])


rng = np.random.default_rng(0)
x = rng.standard_normal((2, 3, 12, 15)).astype(np.float32)
rois = np.array([[0, 0, 14, 11], [2.5, 1.25, 9.75, 8.5], [-3, -2, 5, 4],
                 [10, 8, 20, 16], [14, 11, 14, 11], [4, 3, 4.5, 3.2]], np.float32)
bi = np.array([0, 1, 1, 0, 1, 0], np.int64)
for mode, ctm, ratio, scale, out in [("avg", "half_pixel", 2, 1.0, (3, 4)),
                                     ("avg", "output_half_pixel", 3, 0.5, (5, 2)),
                                     ("max", "output_half_pixel", 2, 1.0, (4, 4)),
                                     ("max", "half_pixel", 1, 2.0, (2, 3))]:
    attrs = dict(mode=mode, coordinate_transformation_mode=ctm, sampling_ratio=ratio,
                 spatial_scale=scale, output_height=out[0], output_width=out[1])
    m = model(x, rois, **attrs)
    want = ReferenceEvaluator(m).run(None, {"x": x, "rois": rois, "bi": bi})[0]
    got = graphopt.Program(import_onnx(m)).run([x, rois, bi])[0]
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-5)
    line = f"{mode} {ctm} ratio {ratio} scale {scale}: {list(got.shape)} vs reference " \
           f"{'ok' if ok else 'DIFFERS'}"
    if mode == "avg":
        boxes = torch.from_numpy(np.concatenate([bi[:, None].astype(np.float32), rois], 1))
        tv = torchvision.ops.roi_align(torch.from_numpy(x), boxes, out, spatial_scale=scale,
                                       sampling_ratio=ratio,
                                       aligned=ctm == "half_pixel").numpy()
        tv_ok = np.allclose(got, tv, rtol=1e-5, atol=1e-5)
        ok &= tv_ok
        line += f", vs torchvision {'ok' if tv_ok else 'DIFFERS'}"
    print(f"{'PASS' if ok else 'FAIL'} {line}", flush=True)

m = model(x, rois, sampling_ratio=0, output_height=2, output_width=2)
try:
    import_onnx(m)
    print("FAIL sampling_ratio 0 imported")
except Exception as e:
    print(f"REFUSED {str(e).splitlines()[-1].strip()}")
