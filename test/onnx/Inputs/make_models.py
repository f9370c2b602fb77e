"""Writes the small ONNX models of importer.test into a directory.

    python3 make_models.py DIR
"""

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper


def tensor(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def save(model, path, **kwargs):
    onnx.checker.check_model(model)
    onnx.save(model, str(path), **kwargs)


def conv_reshape(d: Path):
    """A dynamic batch ('N'), named nodes, an initializer, and a shape
    computation Shape -> Gather -> Unsqueeze -> Concat -> Reshape."""
    rng = np.random.default_rng(0)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu1"),
        helper.make_node("Shape", ["r"], ["s"], name="shape"),
        helper.make_node("Gather", ["s", "zero"], ["n"], name="batch", axis=0),
        helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsq"),
        helper.make_node("Concat", ["n1", "minus1"], ["target"], name="target", axis=0),
        helper.make_node("Reshape", ["r", "target"], ["y"], name="flatten"),
    ]
    graph = helper.make_graph(
        nodes, "conv_reshape",
        [helper.make_tensor_value_info("x", TP.FLOAT, ["N", 3, 8, 8])],
        [helper.make_tensor_value_info("y", TP.FLOAT, ["N", 256])],
        initializer=[tensor("w", rng.standard_normal((4, 3, 3, 3), dtype=np.float32)),
                     tensor("b", rng.standard_normal(4, dtype=np.float32)),
                     tensor("zero", np.array(0, np.int64)),
                     tensor("axes0", np.array([0], np.int64)),
                     tensor("minus1", np.array([-1], np.int64))])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
         d / "conv_reshape.onnx")


def unsupported(d: Path):
    """Several problems at once: an unknown op, an unsupported attribute
    value, a string input, and a node downstream of a problem."""
    nodes = [
        helper.make_node("Cast", ["x"], ["xd"], name="to_string", to=TP.STRING),
        helper.make_node("Unique", ["x"], ["s"], name="unique"),
        helper.make_node("Relu", ["s"], ["r"], name="relu_after_unique"),
        helper.make_node("Pad", ["x", "pads"], ["p"], name="pad_reflect_huge", mode="reflect"),
        helper.make_node("Add", ["r", "x"], ["y"], name="add_after_unique"),
        helper.make_node("Identity", ["d"], ["ds"], name="identity_string"),
    ]
    graph = helper.make_graph(
        nodes, "unsupported",
        [helper.make_tensor_value_info("x", TP.FLOAT, [2, 3]),
         helper.make_tensor_value_info("d", TP.STRING, [2, 3])],
        [helper.make_tensor_value_info("y", TP.FLOAT, [2, 3]),
         helper.make_tensor_value_info("xd", TP.STRING, [2, 3]),
         helper.make_tensor_value_info("ds", TP.STRING, [2, 3]),
         helper.make_tensor_value_info("p", TP.FLOAT, [2, 11])],
        initializer=[tensor("pads", np.array([0, 4, 0, 4], np.int64))])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
         d / "unsupported.onnx")


def external_data(d: Path):
    """A MatMul whose weight lives in an external data file."""
    w = np.arange(64 * 32, dtype=np.float32).reshape(64, 32) / 1000
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], "external",
        [helper.make_tensor_value_info("x", TP.FLOAT, [4, 64])],
        [helper.make_tensor_value_info("y", TP.FLOAT, [4, 32])],
        initializer=[tensor("w", w)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    save(model, d / "external.onnx", save_as_external_data=True,
         all_tensors_to_one_file=True, location="external.weights", size_threshold=0)


def old_opset(d: Path):
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "old",
        [helper.make_tensor_value_info("x", TP.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TP.FLOAT, [2])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)]),
         d / "old_opset.onnx")


def invalid(d: Path):
    """Models that are not programs (not passed through the checker)."""
    (d / "empty.onnx").write_bytes(b"")
    x = helper.make_tensor_value_info("x", TP.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TP.FLOAT, [2, 3])
    z = helper.make_tensor_value_info("z", TP.FLOAT, None)
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["z"])], "future", [x], [z])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 99)]),
              str(d / "opset99.onnx"))
    for name, nodes, inputs in (
            ("no_producer", [helper.make_node("Relu", ["x"], ["r"])], [x]),
            ("undefined_input", [helper.make_node("Add", ["x", "q"], ["z"])], [x]),
            ("bad_matmul", [helper.make_node("MatMul", ["x", "y"], ["z"])], [x, y])):
        graph = helper.make_graph(nodes, name, inputs, [z])
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
                  str(d / f"{name}.onnx"))


def fuzz_regressions(d: Path):
    """Malformed models scripts/fuzz_onnx.py found the importer crashing on
    or accepting (issue 19); each must be a clear error."""
    x = helper.make_tensor_value_info("x", TP.FLOAT, [2, 3])
    z = helper.make_tensor_value_info("z", TP.FLOAT, None)
    models = {
        # onnx's own shape inference segfaulted on this graph.
        "eyelike_undefined": ([helper.make_node("EyeLike", ["nothing"], ["z"])], [x], [z]),
        "required_empty": ([helper.make_node("Transpose", [""], ["z"])], [x], [z]),
        "too_few_inputs": ([helper.make_node("Unsqueeze", ["x"], ["z"])], [x], [z]),
        "declared_shape": ([helper.make_node("Relu", ["x"], ["z"])], [x],
                           [helper.make_tensor_value_info("z", TP.FLOAT, [3, 3])]),
        "flag_not_01": ([helper.make_node("ArgMax", ["x"], ["z"], keepdims=100)], [x],
                        [helper.make_tensor_value_info("z", TP.INT64, None)]),
        "mixed_types": ([helper.make_node("Clip", ["x", "lo"], ["z"])],
                        [x, helper.make_tensor_value_info("lo", TP.FLOAT16, [])], [z]),
        "float_axes": ([helper.make_node("ReduceSum", ["x", "axes"], ["z"])],
                       [x, helper.make_tensor_value_info("axes", TP.FLOAT, [1])], [z]),
        "repeated_axes": ([helper.make_node("ReduceSum", ["x", "axes"], ["z"])], [x], [z]),
        # onnx's own Split inference aborted the process on this node.
        "split_outputs": ([helper.make_node("Split", ["x"], ["s0", "s1"], axis=1,
                                            num_outputs=1)], [x],
                          [helper.make_tensor_value_info("s0", TP.FLOAT, None),
                           helper.make_tensor_value_info("s1", TP.FLOAT, None)]),
    }
    for name, (nodes, inputs, outputs) in models.items():
        inits = [tensor("axes", np.array([1, -1], np.int64))] if name == "repeated_axes" else []
        graph = helper.make_graph(nodes, name, inputs, outputs, initializer=inits)
        opset = 18 if name == "split_outputs" else 17
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]),
                  str(d / f"{name}.onnx"))
    # A model cut short (the bytes of conv_reshape.onnx, half of them).
    data = (d / "conv_reshape.onnx").read_bytes()
    (d / "truncated.onnx").write_bytes(data[:len(data) // 2])


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for make in (conv_reshape, unsupported, external_data, old_opset, invalid,
                 fuzz_regressions):
        make(out)
