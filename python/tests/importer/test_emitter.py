"""Unit tests of the MLIR text builder (no compiler needed except where
graph-opt verifies the result).

    python3 -m pytest python/tests/importer      # or run this file directly
"""

import _util  # noqa: F401  (sys.path, import order)
import torch

from graphopt.importer.pytorch.dtypes import (FunctionBuilder, TensorType, format_dense,
                                       format_float, format_location, module_text)
from graphopt.importer.pytorch.aten import result_dtype
from graphopt.importer.pytorch.dtypes import Value


def test_tensor_types():
    assert str(TensorType((4, None, 3), torch.float32)) == "tensor<4x?x3xf32>"
    assert str(TensorType((), torch.bool)) == "tensor<i1>"
    assert str(TensorType((2,), torch.bfloat16)) == "tensor<2xbf16>"
    assert str(TensorType((2,), torch.int64)) == "tensor<2xi64>"
    assert str(TensorType((1, 2), torch.float16)) == "tensor<1x2xf16>"
    assert str(TensorType((0,), torch.int32)) == "tensor<0xi32>"


def test_float_literals():
    assert format_float(1.0) == "1.0"
    assert format_float(1e-5) == "1.0e-05"
    assert format_float(float("inf")) == "0x7FF0000000000000"
    assert format_float(-2.5) == "-2.5"


def test_dense_forms():
    assert format_dense(torch.zeros(3, 4)) == "dense<0.0>"
    assert format_dense(torch.tensor([1, 2], dtype=torch.int32)) == "dense<[1, 2]>"
    assert format_dense(torch.tensor([[True], [False]])) == "dense<[[true], [false]]>"
    assert format_dense(torch.tensor(-0.0)) == "dense<-0.0>"
    big = format_dense(torch.arange(20, dtype=torch.float32))
    assert big.startswith('dense<"0x') and len(big) == len('dense<"0x">') + 20 * 8
    # Non-finite values use the exact hex form; a single element is a splat.
    assert format_dense(torch.full((5,), float("nan"))) == 'dense<"0x0000c07f">'
    assert format_dense(torch.tensor([1.0, float("inf")])) == 'dense<"0x0000803f0000807f">'
    assert format_dense(torch.zeros(0, 3)) == "dense<>"



def test_out_of_band_constants():
    """Under out_of_band_constants(), large non-splat constants print as
    dense_resource<NAME> with their raw bytes kept aside; booleans, splats
    and small ones stay in the text; inline() gives the text format_dense
    prints."""
    from graphopt.importer.mlir_builder import out_of_band_constants
    big = torch.arange(300, dtype=torch.float32).reshape(3, 100)
    with out_of_band_constants() as data:
        b = FunctionBuilder("main")
        c1 = b.constant(big)
        c2 = b.constant(torch.ones(3, 100))                  # splat
        c3 = b.constant(torch.arange(10, dtype=torch.float32))  # small
        c4 = b.constant(torch.arange(1000) % 2 == 0)         # i1
        c5 = b.constant(torch.arange(300, dtype=torch.float32).to(torch.bfloat16))
        b.set_results([c1, c2, c3, c4, c5])
        text = b.module_text()
    assert sorted(data.raw) == ["graphopt_const_0", "graphopt_const_1"], data.raw
    assert text.count("dense_resource<") == 2
    raw = data.raw["graphopt_const_0"]
    assert raw.tobytes() == big.numpy().tobytes()
    # bf16: the upper halves of the exact float32 values.
    bf = data.raw["graphopt_const_1"]
    assert bf.dtype.itemsize == 2 and bf.size == 300
    exact = torch.arange(300, dtype=torch.float32).to(torch.bfloat16).float()
    assert (bf.astype("<u4") << 16).view("<f4").tolist() == exact.tolist()
    # The same module printed without the store.
    b2 = FunctionBuilder("main")
    b2.set_results([b2.constant(big), b2.constant(torch.ones(3, 100)),
                    b2.constant(torch.arange(10, dtype=torch.float32)),
                    b2.constant(torch.arange(1000) % 2 == 0),
                    b2.constant(torch.arange(300, dtype=torch.float32).to(torch.bfloat16))])
    assert data.inline(text) == b2.module_text()
    # Outside the block builders print everything.
    b3 = FunctionBuilder("main")
    b3.set_results([b3.constant(big)])
    assert "dense_resource" not in b3.module_text()

def test_locations():
    assert format_location("add_1", "/m.py", 12) == 'loc("add_1"("/m.py":12:0))'
    assert format_location("x") == 'loc("x")'
    assert format_location('a"b') == 'loc("a\\"b")'


def test_builder_types_and_names():
    fb = FunctionBuilder("main")
    x = fb.add_argument("x", TensorType((None, 3), torch.float32))
    b = fb.add_argument("b", TensorType((3,), torch.float32))
    fb.set_location("add", "m.py", 3)
    y = fb.binary("add", x, b)
    assert str(y.type) == "tensor<?x3xf32>" and y.name == "%add"
    z = fb.reshape(y, [-1])
    assert str(z.type) == "tensor<?xf32>"
    r = fb.reduce("sum", y, [1], keepdims=True)
    assert str(r.type) == "tensor<?x1xf32>"
    fb.set_results([z, r])
    text = module_text([fb])
    assert 'graph.add %x, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32> ' \
           'loc("add"("m.py":3:0))' in text
    assert "func.func @main(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> " \
           "(tensor<?xf32>, tensor<?x1xf32>)" in text
    _util.verify(text)


def test_constants_are_lazy_and_hoisted():
    fb = FunctionBuilder("main")
    x = fb.add_argument("x", TensorType((4,), torch.float32))
    fb.constant(torch.ones(4))                       # never used: not printed
    two = fb.scalar(2.0, torch.float32)
    assert fb.scalar(2.0, torch.float32) is two      # cached

    def body(i, carried):
        return fb.scalar(True, torch.bool), [fb.binary("mul", carried[0], two)]
    (y,) = fb.loop(fb.scalar(3, torch.int64), fb.scalar(True, torch.bool), [x], body)
    fb.set_results([y])
    text = module_text([fb])
    assert text.count("graph.constant") == 3        # 2.0, true, 3
    # The constant first used in the loop body is defined before the loop.
    assert text.index("dense<2.0>") < text.index("graph.loop")
    out = _util.run_mlir(text, [torch.ones(4)])
    assert (out[0] == 8).all()


def test_if_joins_types():
    fb = FunctionBuilder("main")
    c = fb.add_argument("c", TensorType((), torch.bool))
    a = fb.add_argument("a", TensorType((4,), torch.float32))
    b = fb.add_argument("b", TensorType((5,), torch.float32))
    (r,) = fb.if_(c, lambda: [a], lambda: [b])
    assert str(r.type) == "tensor<?xf32>"
    fb.set_results([r])
    text = module_text([fb])
    assert "graph.cast %a : tensor<4xf32> -> tensor<?xf32>" in text
    _util.verify(text)


def test_type_promotion():
    f32 = Value("%a", TensorType((2,), torch.float32))
    f16 = Value("%b", TensorType((2,), torch.float16))
    i32 = Value("%c", TensorType((2,), torch.int32))
    i64_0d = Value("%d", TensorType((), torch.int64))
    f64_0d = Value("%e", TensorType((), torch.float32))
    assert result_dtype(f16, 2.5) == torch.float16          # scalar keeps tensor dtype
    assert result_dtype(i32, 2) == torch.int32
    assert result_dtype(i32, 2.5) == torch.float32           # higher category scalar
    assert result_dtype(i32, i64_0d) == torch.int32          # zero-dim, same category
    assert result_dtype(i32, f64_0d) == torch.float32        # zero-dim, higher category
    assert result_dtype(f16, f32) == torch.float32
    assert result_dtype(i32, 3, int_to_float=True) == torch.float32
    assert result_dtype(True, Value("%m", TensorType((2,), torch.bool))) == torch.bool


if __name__ == "__main__":
    _util.run_tests(globals())
