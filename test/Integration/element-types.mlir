// RUN: rm -rf %t && mkdir -p %t

// f64, i8 and i16 (docs/Dialects/Graph.md, "Element types") against NumPy
// (test/lib/reference.py, cases f64_ops and small_ints).
//
// f64: elementwise ops with broadcasting, exp/log/tanh/sqrt/sigmoid/
// erf-GELU/sin, matmul, a row sum, softmax and casts to f32 and i32,
// computed by NumPy in float64 (erf: math.erf). Tolerance rtol 1e-12,
// atol 1e-12: libm's and NumPy's functions differ by an ulp or two, and the
// 8-term sums may add in another order (~1e-15 relative).
// RUN: %reference f64_ops %t/f
// RUN: graph-run %s --entry=f64_ops --quiet \
// RUN:   --input=@%t/f/x0.npy --input=@%t/f/x1.npy --input=@%t/f/x2.npy \
// RUN:   --expected-output=@%t/f/expected.npy --expected-output=@%t/f/expected1.npy \
// RUN:   --expected-output=@%t/f/expected2.npy --expected-output=@%t/f/expected3.npy \
// RUN:   --expected-output=@%t/f/expected4.npy --expected-output=@%t/f/expected5.npy \
// RUN:   --rtol=1e-12 --atol=1e-12 | FileCheck %s --check-prefix=F64
// RUN: graph-run %s --entry=f64_ops --quiet --optimize=false \
// RUN:   --input=@%t/f/x0.npy --input=@%t/f/x1.npy --input=@%t/f/x2.npy \
// RUN:   --expected-output=@%t/f/expected.npy --expected-output=@%t/f/expected1.npy \
// RUN:   --expected-output=@%t/f/expected2.npy --expected-output=@%t/f/expected3.npy \
// RUN:   --expected-output=@%t/f/expected4.npy --expected-output=@%t/f/expected5.npy \
// RUN:   --rtol=1e-12 --atol=1e-12 | FileCheck %s --check-prefix=F64
// F64: result 0: matches expected
// F64: result 1: matches expected
// F64: result 2: matches expected
// F64: result 3: matches expected
// F64: result 4: matches expected
// F64: result 5: matches expected
//
// i8 and i16: add, sub, mul (wrapping at the width, as NumPy's int8 does),
// div and rem (truncated; x / 0 = 0, x rem 0 = x, -128 / -1 wraps to -128),
// max, min, neg, abs (abs(-128) = -128), compare + select, casts (i8 ->
// i32 sign-extends, i32 -> i8 keeps the low bits, f32 -> i8 truncates, i8
// -> f32), a row sum that wraps in i8, an i16 matmul and broadcasting.
// Integers: exact.
// RUN: %reference small_ints %t/i
// RUN: graph-run %s --entry=small_ints --quiet \
// RUN:   --input=@%t/i/x0.npy --input=@%t/i/x1.npy --input=@%t/i/x2.npy --input=@%t/i/x3.npy \
// RUN:   --expected-output=@%t/i/expected.npy --expected-output=@%t/i/expected1.npy \
// RUN:   --expected-output=@%t/i/expected2.npy --expected-output=@%t/i/expected3.npy \
// RUN:   --expected-output=@%t/i/expected4.npy --expected-output=@%t/i/expected5.npy \
// RUN:   --expected-output=@%t/i/expected6.npy --expected-output=@%t/i/expected7.npy \
// RUN:   --expected-output=@%t/i/expected8.npy --expected-output=@%t/i/expected9.npy \
// RUN:   --expected-output=@%t/i/expected10.npy --expected-output=@%t/i/expected11.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=INT
// RUN: graph-run %s --entry=small_ints --quiet --optimize=false \
// RUN:   --input=@%t/i/x0.npy --input=@%t/i/x1.npy --input=@%t/i/x2.npy --input=@%t/i/x3.npy \
// RUN:   --expected-output=@%t/i/expected.npy --expected-output=@%t/i/expected1.npy \
// RUN:   --expected-output=@%t/i/expected2.npy --expected-output=@%t/i/expected3.npy \
// RUN:   --expected-output=@%t/i/expected4.npy --expected-output=@%t/i/expected5.npy \
// RUN:   --expected-output=@%t/i/expected6.npy --expected-output=@%t/i/expected7.npy \
// RUN:   --expected-output=@%t/i/expected8.npy --expected-output=@%t/i/expected9.npy \
// RUN:   --expected-output=@%t/i/expected10.npy --expected-output=@%t/i/expected11.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=INT
// INT-COUNT-12: matches expected
//
// ui8, ui16 and ui64 (graph-signless: unsigned predicates and ops where the
// signedness matters): wrapping add/sub/mul, div and rem (x / 0 = 0, x rem
// 0 = x), compare + select, min, casts (ui8 -> i32 zero-extends, -> f32,
// f32 -> ui8 truncates, i32 -> ui8 keeps the low bits), reduce max/min/sum,
// argmax, abs (the identity), clamp, a ui16 matmul that wraps, ui64 values
// above 2^63 (compare, add that wraps, div), max_pool2d and scatter max
// (values >= 128 must win), and a compare of two ui8 constants that the
// graph optimizer folds (200 > 100). NumPy's unsigned arithmetic: exact.
// RUN: %reference unsigned %t/u
// RUN: graph-run %s --entry=unsigned --quiet \
// RUN:   --input=@%t/u/x0.npy --input=@%t/u/x1.npy --input=@%t/u/x2.npy --input=@%t/u/x3.npy \
// RUN:   --input=@%t/u/x4.npy --input=@%t/u/x5.npy --input=@%t/u/x6.npy \
// RUN:   --expected-output=@%t/u/expected.npy --expected-output=@%t/u/expected1.npy \
// RUN:   --expected-output=@%t/u/expected2.npy --expected-output=@%t/u/expected3.npy \
// RUN:   --expected-output=@%t/u/expected4.npy --expected-output=@%t/u/expected5.npy \
// RUN:   --expected-output=@%t/u/expected6.npy --expected-output=@%t/u/expected7.npy \
// RUN:   --expected-output=@%t/u/expected8.npy --expected-output=@%t/u/expected9.npy \
// RUN:   --expected-output=@%t/u/expected10.npy --expected-output=@%t/u/expected11.npy \
// RUN:   --expected-output=@%t/u/expected12.npy --expected-output=@%t/u/expected13.npy \
// RUN:   --expected-output=@%t/u/expected14.npy --expected-output=@%t/u/expected15.npy \
// RUN:   --expected-output=@%t/u/expected16.npy --expected-output=@%t/u/expected17.npy \
// RUN:   --expected-output=@%t/u/expected18.npy --expected-output=@%t/u/expected19.npy \
// RUN:   --expected-output=@%t/u/expected20.npy --expected-output=@%t/u/expected21.npy \
// RUN:   --expected-output=@%t/u/expected22.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=UNS
// RUN: graph-run %s --entry=unsigned --quiet --optimize=false \
// RUN:   --input=@%t/u/x0.npy --input=@%t/u/x1.npy --input=@%t/u/x2.npy --input=@%t/u/x3.npy \
// RUN:   --input=@%t/u/x4.npy --input=@%t/u/x5.npy --input=@%t/u/x6.npy \
// RUN:   --expected-output=@%t/u/expected.npy --expected-output=@%t/u/expected1.npy \
// RUN:   --expected-output=@%t/u/expected2.npy --expected-output=@%t/u/expected3.npy \
// RUN:   --expected-output=@%t/u/expected4.npy --expected-output=@%t/u/expected5.npy \
// RUN:   --expected-output=@%t/u/expected6.npy --expected-output=@%t/u/expected7.npy \
// RUN:   --expected-output=@%t/u/expected8.npy --expected-output=@%t/u/expected9.npy \
// RUN:   --expected-output=@%t/u/expected10.npy --expected-output=@%t/u/expected11.npy \
// RUN:   --expected-output=@%t/u/expected12.npy --expected-output=@%t/u/expected13.npy \
// RUN:   --expected-output=@%t/u/expected14.npy --expected-output=@%t/u/expected15.npy \
// RUN:   --expected-output=@%t/u/expected16.npy --expected-output=@%t/u/expected17.npy \
// RUN:   --expected-output=@%t/u/expected18.npy --expected-output=@%t/u/expected19.npy \
// RUN:   --expected-output=@%t/u/expected20.npy --expected-output=@%t/u/expected21.npy \
// RUN:   --expected-output=@%t/u/expected22.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=UNS
// UNS-COUNT-23: matches expected
// A ui8 literal, printed unsigned; one out of range is an error.
// RUN: graph-run %s --entry=unsigned_literal --input=3xui8=250,3,255 | FileCheck %s --check-prefix=ULIT
// ULIT: [253, 6, 2]
// RUN: not graph-run %s --entry=unsigned_literal --input=3xui8=256,3,1 2>&1 | FileCheck %s --check-prefix=URANGE
// URANGE: '256' is not an integer that fits ui8
// ui64 constants above 2^63 that reach code generation unfolded (the graph
// optimizer does not evaluate ui64): the conversion must not fold them as
// signed (values by hand: 2^64 - 1 > 2, (2^64 - 1) / 2, as f64).
// RUN: graph-run %s --entry=unsigned_consts | FileCheck %s --check-prefix=UCONST
// UCONST: true
// UCONST: 9223372036854775807
// UCONST: 1.84467e+19
//
// Literal inputs and printing (values by hand): i8 wraps 100 + 100 = -56.
// RUN: graph-run %s --entry=literal --input=3xi8=100,-128,5 --input=3xi16=100,-1,300 \
// RUN:   --input=2xf64=0.1,0.2 | FileCheck %s --check-prefix=LIT
// LIT: [-56, 0, 10]
// LIT: [200, -2, 600]
// LIT: [0.2, 0.4]
// An i8 literal out of range is an error.
// RUN: not graph-run %s --entry=literal --input=3xi8=100,-129,5 --input=3xi16=1,2,3 \
// RUN:   --input=2xf64=0,0 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: '-129' is not an integer that fits i8

func.func @f64_ops(%a: tensor<4x8xf64>, %b: tensor<8xf64>, %w: tensor<8x5xf64>)
    -> (tensor<4x8xf64>, tensor<4x8xf64>, tensor<4x5xf64>, tensor<4xf64>, tensor<4x8xf32>, tensor<4x8xi32>) {
  %s = graph.add %a, %b : tensor<4x8xf64>, tensor<8xf64> -> tensor<4x8xf64>
  %m = graph.mul %s, %a : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %e = graph.exp %m : tensor<4x8xf64> -> tensor<4x8xf64>
  %abs = graph.abs %a : tensor<4x8xf64> -> tensor<4x8xf64>
  %one = graph.constant dense<1.0> : tensor<f64>
  %p = graph.add %abs, %one : tensor<4x8xf64>, tensor<f64> -> tensor<4x8xf64>
  %l = graph.log %p : tensor<4x8xf64> -> tensor<4x8xf64>
  %q = graph.sqrt %p : tensor<4x8xf64> -> tensor<4x8xf64>
  %d = graph.div %l, %q : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %t = graph.tanh %a : tensor<4x8xf64> -> tensor<4x8xf64>
  %g = graph.gelu %a : tensor<4x8xf64> -> tensor<4x8xf64>
  %sg = graph.sigmoid %s : tensor<4x8xf64> -> tensor<4x8xf64>
  %sn = graph.sin %b : tensor<8xf64> -> tensor<8xf64>
  %r0 = graph.add %e, %d : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %r1a = graph.sub %t, %g : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %r1b = graph.mul %r1a, %sg : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %r1 = graph.add %r1b, %sn : tensor<4x8xf64>, tensor<8xf64> -> tensor<4x8xf64>
  %mm = graph.matmul %a, %w : tensor<4x8xf64>, tensor<8x5xf64> -> tensor<4x5xf64>
  %sm = graph.softmax %mm axis = 1 : tensor<4x5xf64> -> tensor<4x5xf64>
  %rs = graph.reduce sum %a axes = [1] : tensor<4x8xf64> -> tensor<4xf64>
  %c32 = graph.cast %s : tensor<4x8xf64> -> tensor<4x8xf32>
  %ten = graph.constant dense<10.0> : tensor<f64>
  %s10 = graph.mul %s, %ten : tensor<4x8xf64>, tensor<f64> -> tensor<4x8xf64>
  %ci = graph.cast %s10 : tensor<4x8xf64> -> tensor<4x8xi32>
  return %r0, %r1, %sm, %rs, %c32, %ci : tensor<4x8xf64>, tensor<4x8xf64>, tensor<4x5xf64>, tensor<4xf64>, tensor<4x8xf32>, tensor<4x8xi32>
}

func.func @small_ints(%x: tensor<3x4xi8>, %y: tensor<3x4xi8>, %z: tensor<4xi16>, %f: tensor<3x4xf32>)
    -> (tensor<3x4xi8>, tensor<3x4xi8>, tensor<3x4xi8>, tensor<3x4xi8>, tensor<3x4xi8>, tensor<3x4xi8>,
        tensor<3x4xi8>, tensor<3x4xi32>, tensor<3x4xi8>, tensor<3x4xf32>, tensor<3xi8>, tensor<3x2xi16>) {
  %add = graph.add %x, %y : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %sub = graph.sub %x, %y : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %mul = graph.mul %x, %y : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %div = graph.div %x, %y : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %rem = graph.rem %x, %y : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %mx = graph.max %x, %y : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %mn = graph.min %x, %y : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %ng = graph.neg %x : tensor<3x4xi8> -> tensor<3x4xi8>
  %ab = graph.abs %y : tensor<3x4xi8> -> tensor<3x4xi8>
  %gt = graph.compare gt, %x, %y : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi1>
  %sel = graph.select %gt, %ng, %ab : tensor<3x4xi1>, tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %mm2 = graph.add %mx, %mn : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %x32 = graph.cast %x : tensor<3x4xi8> -> tensor<3x4xi32>
  %three = graph.constant dense<3> : tensor<i32>
  %x3 = graph.mul %x32, %three : tensor<3x4xi32>, tensor<i32> -> tensor<3x4xi32>
  %back = graph.cast %x3 : tensor<3x4xi32> -> tensor<3x4xi8>
  %fi = graph.cast %f : tensor<3x4xf32> -> tensor<3x4xi8>
  %back2 = graph.add %back, %fi : tensor<3x4xi8>, tensor<3x4xi8> -> tensor<3x4xi8>
  %xf = graph.cast %x : tensor<3x4xi8> -> tensor<3x4xf32>
  %rs = graph.reduce sum %x axes = [1] : tensor<3x4xi8> -> tensor<3xi8>
  %x16 = graph.cast %x : tensor<3x4xi8> -> tensor<3x4xi16>
  %xz = graph.add %x16, %z : tensor<3x4xi16>, tensor<4xi16> -> tensor<3x4xi16>
  %w = graph.constant dense<[[1, -2], [300, 4], [-5, 6], [7, 1000]]> : tensor<4x2xi16>
  %mm = graph.matmul %xz, %w : tensor<3x4xi16>, tensor<4x2xi16> -> tensor<3x2xi16>
  return %add, %sub, %mul, %div, %rem, %sel, %mm2, %x3, %back2, %xf, %rs, %mm
      : tensor<3x4xi8>, tensor<3x4xi8>, tensor<3x4xi8>, tensor<3x4xi8>, tensor<3x4xi8>, tensor<3x4xi8>,
        tensor<3x4xi8>, tensor<3x4xi32>, tensor<3x4xi8>, tensor<3x4xf32>, tensor<3xi8>, tensor<3x2xi16>
}

func.func @literal(%a: tensor<3xi8>, %b: tensor<3xi16>, %c: tensor<2xf64>) -> (tensor<3xi8>, tensor<3xi16>, tensor<2xf64>) {
  %0 = graph.add %a, %a : tensor<3xi8>, tensor<3xi8> -> tensor<3xi8>
  %1 = graph.add %b, %b : tensor<3xi16>, tensor<3xi16> -> tensor<3xi16>
  %2 = graph.add %c, %c : tensor<2xf64>, tensor<2xf64> -> tensor<2xf64>
  return %0, %1, %2 : tensor<3xi8>, tensor<3xi16>, tensor<2xf64>
}

func.func @unsigned(%a: tensor<3x4xui8>, %b: tensor<3x4xui8>, %f: tensor<3x4xf32>, %c: tensor<3xui64>,
                    %img: tensor<1x1x4x4xui8>, %idx: tensor<3x2xi64>, %upd: tensor<3x2xui8>)
    -> (tensor<3x4xui8>, tensor<3x4xui8>, tensor<3x4xui8>, tensor<3x4xui8>, tensor<3x4xui8>,
        tensor<3x4xui8>, tensor<3x4xui8>, tensor<3x4xi32>, tensor<3x4xf32>, tensor<3x4xui8>,
        tensor<3x4xui8>, tensor<3xui8>, tensor<3xui8>, tensor<3xui8>, tensor<3xi64>,
        tensor<3x4xui8>, tensor<3x2xui16>, tensor<3xi1>, tensor<3xui64>, tensor<3xui64>,
        tensor<1x1x2x2xui8>, tensor<3x4xui8>, tensor<i1>) {
  %add = graph.add %a, %b : tensor<3x4xui8>, tensor<3x4xui8> -> tensor<3x4xui8>
  %sub = graph.sub %a, %b : tensor<3x4xui8>, tensor<3x4xui8> -> tensor<3x4xui8>
  %mul = graph.mul %a, %b : tensor<3x4xui8>, tensor<3x4xui8> -> tensor<3x4xui8>
  %div = graph.div %a, %b : tensor<3x4xui8>, tensor<3x4xui8> -> tensor<3x4xui8>
  %rem = graph.rem %a, %b : tensor<3x4xui8>, tensor<3x4xui8> -> tensor<3x4xui8>
  %gt = graph.compare gt, %a, %b : tensor<3x4xui8>, tensor<3x4xui8> -> tensor<3x4xi1>
  %sel = graph.select %gt, %a, %b : tensor<3x4xi1>, tensor<3x4xui8>, tensor<3x4xui8> -> tensor<3x4xui8>
  %mn = graph.min %a, %b : tensor<3x4xui8>, tensor<3x4xui8> -> tensor<3x4xui8>
  %a32 = graph.cast %a : tensor<3x4xui8> -> tensor<3x4xi32>
  %af = graph.cast %a : tensor<3x4xui8> -> tensor<3x4xf32>
  %fu = graph.cast %f : tensor<3x4xf32> -> tensor<3x4xui8>
  %three = graph.constant dense<3> : tensor<i32>
  %x3 = graph.mul %a32, %three : tensor<3x4xi32>, tensor<i32> -> tensor<3x4xi32>
  %low = graph.cast %x3 : tensor<3x4xi32> -> tensor<3x4xui8>
  %rmax = graph.reduce max %a axes = [1] : tensor<3x4xui8> -> tensor<3xui8>
  %rmin = graph.reduce min %a axes = [1] : tensor<3x4xui8> -> tensor<3xui8>
  %rsum = graph.reduce sum %a axes = [1] : tensor<3x4xui8> -> tensor<3xui8>
  %am = graph.argmax %a {axis = 1 : i64} : tensor<3x4xui8> -> tensor<3xi64>
  %abs = graph.abs %a : tensor<3x4xui8> -> tensor<3x4xui8>
  %cl = graph.clamp %abs {min = 50.0 : f64, max = 220.0 : f64} : tensor<3x4xui8> -> tensor<3x4xui8>
  %a16 = graph.cast %a : tensor<3x4xui8> -> tensor<3x4xui16>
  %w = graph.constant dense<[[1, 2], [300, 4], [5, 60000], [7, 1000]]> : tensor<4x2xui16>
  %mm = graph.matmul %a16, %w : tensor<3x4xui16>, tensor<4x2xui16> -> tensor<3x2xui16>
  %seven = graph.constant dense<7> : tensor<ui64>
  %cgt = graph.compare gt, %c, %seven : tensor<3xui64>, tensor<ui64> -> tensor<3xi1>
  %big = graph.constant dense<9223372036854775808> : tensor<ui64>
  %cadd = graph.add %c, %big : tensor<3xui64>, tensor<ui64> -> tensor<3xui64>
  %cthree = graph.constant dense<3> : tensor<ui64>
  %cdiv = graph.div %c, %cthree : tensor<3xui64>, tensor<ui64> -> tensor<3xui64>
  %pool = graph.max_pool2d %img {kernel = array<i64: 2, 2>} : (tensor<1x1x4x4xui8>) -> tensor<1x1x2x2xui8>
  %sc = graph.scatter max %a, %idx, %upd {axis = 1 : i64} : (tensor<3x4xui8>, tensor<3x2xi64>, tensor<3x2xui8>) -> tensor<3x4xui8>
  %k200 = graph.constant dense<200> : tensor<ui8>
  %k100 = graph.constant dense<100> : tensor<ui8>
  %kgt = graph.compare gt, %k200, %k100 : tensor<ui8>, tensor<ui8> -> tensor<i1>
  return %add, %sub, %mul, %div, %rem, %sel, %mn, %a32, %af, %fu, %low, %rmax, %rmin, %rsum, %am, %cl, %mm,
         %cgt, %cadd, %cdiv, %pool, %sc, %kgt
      : tensor<3x4xui8>, tensor<3x4xui8>, tensor<3x4xui8>, tensor<3x4xui8>, tensor<3x4xui8>,
        tensor<3x4xui8>, tensor<3x4xui8>, tensor<3x4xi32>, tensor<3x4xf32>, tensor<3x4xui8>,
        tensor<3x4xui8>, tensor<3xui8>, tensor<3xui8>, tensor<3xui8>, tensor<3xi64>,
        tensor<3x4xui8>, tensor<3x2xui16>, tensor<3xi1>, tensor<3xui64>, tensor<3xui64>,
        tensor<1x1x2x2xui8>, tensor<3x4xui8>, tensor<i1>
}

func.func @unsigned_literal(%a: tensor<3xui8>) -> tensor<3xui8> {
  %c = graph.constant dense<3> : tensor<ui8>
  %r = graph.add %a, %c : tensor<3xui8>, tensor<ui8> -> tensor<3xui8>
  return %r : tensor<3xui8>
}

func.func @unsigned_consts() -> (tensor<i1>, tensor<ui64>, tensor<f64>) {
  %a = graph.constant dense<18446744073709551615> : tensor<ui64>
  %b = graph.constant dense<2> : tensor<ui64>
  %g = graph.compare gt, %a, %b : tensor<ui64>, tensor<ui64> -> tensor<i1>
  %q = graph.div %a, %b : tensor<ui64>, tensor<ui64> -> tensor<ui64>
  %f = graph.cast %a : tensor<ui64> -> tensor<f64>
  return %g, %q, %f : tensor<i1>, tensor<ui64>, tensor<f64>
}
