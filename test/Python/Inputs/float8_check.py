"""graph.cast to and from the 8-bit floats against ml_dtypes, bit for bit.

ml_dtypes converts with round to nearest even and overflows to inf or NaN;
graph.cast saturates (docs/Dialects/Graph.md), so the reference clamps
|x| to the format's largest finite value first (NaN stays NaN; a NaN
result may have any NaN encoding). The FNUZ formats have no -0."""
import ml_dtypes
import numpy as np

import graphopt

rng = np.random.default_rng(0)
FORMATS = {"f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2,
           "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz, "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz}


def program(src: str, dst: str, n: int) -> graphopt.Program:
    return graphopt.Program(f"""
func.func @main(%x: tensor<{n}x{src}>) -> tensor<{n}x{dst}> {{
  %y = graph.cast %x : tensor<{n}x{src}> -> tensor<{n}x{dst}>
  return %y : tensor<{n}x{dst}>
}}""")


def same(got: np.ndarray, want: np.ndarray) -> bool:
    g, w = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    return bool(np.all(both_nan | (got.view(np.uint8) == want.view(np.uint8))))


def reference(x: np.ndarray, f8) -> np.ndarray:
    big = float(ml_dtypes.finfo(f8).max)
    with np.errstate(invalid="ignore"):
        return np.clip(x.astype(np.float64), -big, big).astype(f8)


def probes(f8) -> np.ndarray:
    """Every value of the format, the midpoints between neighbours (ties),
    values just off them, the saturation edge, random magnitudes, zeros,
    infinities and NaN; as float64."""
    allv = np.arange(256, dtype=np.uint8).view(f8).astype(np.float64)
    vals = np.unique(allv[np.isfinite(allv)])
    mids = (vals[:-1] + vals[1:]) / 2
    big = float(ml_dtypes.finfo(f8).max)
    extra = [0.0, -0.0, np.inf, -np.inf, np.nan, big * 1.03, -big * 1.07, 1e30, -1e30,
             float(ml_dtypes.finfo(f8).smallest_subnormal) / 3]
    rand = rng.standard_normal(2000) * np.exp(rng.uniform(-12, 12, 2000))
    return np.concatenate([vals, mids, mids * (1 + 1e-6), mids * (1 - 1e-6), extra, rand])


for name, f8 in FORMATS.items():
    # f8 -> f32 on all 256 bit patterns.
    bits = np.arange(256, dtype=np.uint8).view(f8)
    got = program(name, "f32", 256).run([bits])[0]
    want = bits.astype(np.float32)
    ok_up = bool(np.all((got == want) | (np.isnan(got) & np.isnan(want)))) and \
        bool(np.all(np.signbit(got[~np.isnan(got)]) == np.signbit(want[~np.isnan(want)])))
    # f32, f64 and f16 -> f8.
    x = probes(f8)
    ok = {}
    for src, dt in (("f32", np.float32), ("f64", np.float64), ("f16", np.float16)):
        with np.errstate(over="ignore"):
            xs = x.astype(dt)
        got = program(src, name, xs.size).run([xs])[0]
        ok[src] = same(got, reference(xs, f8))
    # i32 -> f8 and f8 -> i32 (truncation toward zero of the exact value).
    ints = rng.integers(-70000, 70000, 500).astype(np.int32)
    ok_i = same(program("i32", name, 500).run([ints])[0], reference(ints, f8))
    finite = bits[np.isfinite(bits.astype(np.float32))]
    got_i = program(name, "i32", finite.size).run([finite])[0]
    ok_to_i = bool(np.array_equal(got_i, np.trunc(finite.astype(np.float64)).astype(np.int32)))
    print(f"{name}: to f32 {ok_up}, from f32 {ok['f32']}, from f64 {ok['f64']}, "
          f"from f16 {ok['f16']}, from i32 {ok_i}, to i32 {ok_to_i}")
# CHECK: f8E4M3FN: to f32 True, from f32 True, from f64 True, from f16 True, from i32 True, to i32 True
# CHECK: f8E5M2: to f32 True, from f32 True, from f64 True, from f16 True, from i32 True, to i32 True
# CHECK: f8E4M3FNUZ: to f32 True, from f32 True, from f64 True, from f16 True, from i32 True, to i32 True
# CHECK: f8E5M2FNUZ: to f32 True, from f32 True, from f64 True, from f16 True, from i32 True, to i32 True

# Compare and select on f8 values, and a non-splat f8 constant; the f8
# results come back as ml_dtypes arrays.
f8 = ml_dtypes.float8_e4m3fn
a = rng.standard_normal(16).astype(f8)
b = rng.standard_normal(16).astype(f8)
c = np.array([0.5, -2.0, 448.0, 0.001953125], dtype=f8)  # last: the smallest subnormal
p = graphopt.Program("""
func.func @main(%a: tensor<16xf8E4M3FN>, %b: tensor<16xf8E4M3FN>) -> (tensor<16xi1>, tensor<16xf8E4M3FN>, tensor<4xf8E4M3FN>) {
  %lt = graph.compare lt, %a, %b : tensor<16xf8E4M3FN>, tensor<16xf8E4M3FN> -> tensor<16xi1>
  %m = graph.select %lt, %b, %a : tensor<16xi1>, tensor<16xf8E4M3FN>, tensor<16xf8E4M3FN> -> tensor<16xf8E4M3FN>
  %c = graph.constant dense<[0.5, -2.0, 448.0, 0.001953125]> : tensor<4xf8E4M3FN>
  return %lt, %m, %c : tensor<16xi1>, tensor<16xf8E4M3FN>, tensor<4xf8E4M3FN>
}""")
lt, m, const = p.run([a, b])
print("compare", bool(np.array_equal(lt, a.astype(np.float32) < b.astype(np.float32))),
      "select", same(m, np.maximum(a.astype(np.float32), b.astype(np.float32)).astype(f8)),
      "constant", same(const, c), m.dtype)
# CHECK: compare True select True constant True float8_e4m3fn

# A splat f8 constant selected into a cast's result (what the ONNX importer
# emits for Cast with saturate=0): the constant becomes a scalar in the
# loop body (graph-expand-float8 once looped forever on it).
p = graphopt.Program("""
func.func @main(%x: tensor<6xf32>) -> tensor<6xf8E4M3FN> {
  %y = graph.cast %x : tensor<6xf32> -> tensor<6xf8E4M3FN>
  %nan = graph.constant dense<0x7F> : tensor<f8E4M3FN>
  %a = graph.abs %x : tensor<6xf32> -> tensor<6xf32>
  %lim = graph.constant dense<464.0> : tensor<f32>
  %over = graph.compare gt, %a, %lim : tensor<6xf32>, tensor<f32> -> tensor<6xi1>
  %r = graph.select %over, %nan, %y : tensor<6xi1>, tensor<f8E4M3FN>, tensor<6xf8E4M3FN> -> tensor<6xf8E4M3FN>
  return %r : tensor<6xf8E4M3FN>
}""")
x = np.array([1.0, -500.0, 464.0, 465.0, np.inf, 0.3], np.float32)
with np.errstate(over="ignore", invalid="ignore"):
    want = x.astype(f8)  # ml_dtypes: no saturation
print("no saturation", same(p.run([x])[0], want))
# CHECK: no saturation True
