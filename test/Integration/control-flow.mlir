// RUN: rm -rf %t && mkdir -p %t

// graph.if and graph.loop (lowered to scf.if and scf.while), checked against
// the same programs written in Python (test/lib/reference.py).
// Tolerances: rtol = atol = 1e-5 (a few f32 operations per iteration; the
// while loop's values grow to ~100, its iteration count is exact).

// graph.if, both branches: then = (a * 2, sum of b's rows), else =
// (exp(a), max of b's rows).
// RUN: %reference if_true %t/if_true
// RUN: graph-run %s --entry=if_select --quiet \
// RUN:   --input=@%t/if_true/x0.npy --input=@%t/if_true/x1.npy \
// RUN:   --input=@%t/if_true/x2.npy --expected-output=@%t/if_true/expected.npy \
// RUN:   --expected-output=@%t/if_true/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: %reference if_false %t/if_false
// RUN: graph-run %s --entry=if_select --quiet \
// RUN:   --input=@%t/if_false/x0.npy --input=@%t/if_false/x1.npy \
// RUN:   --input=@%t/if_false/x2.npy --expected-output=@%t/if_false/expected.npy \
// RUN:   --expected-output=@%t/if_false/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// graph.loop as a for loop (trip count from an input, true condition):
// x <- x * 0.5 + i, acc <- acc + sum(x), with the iteration number i; 5
// trips and 0 trips.
// RUN: %reference loop_for_5 %t/loop_for_5
// RUN: graph-run %s --entry=for_loop --quiet \
// RUN:   --input=@%t/loop_for_5/x0.npy --input=@%t/loop_for_5/x1.npy \
// RUN:   --expected-output=@%t/loop_for_5/expected.npy --expected-output=@%t/loop_for_5/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: %reference loop_for_0 %t/loop_for_0
// RUN: graph-run %s --entry=for_loop --quiet \
// RUN:   --input=@%t/loop_for_0/x0.npy --input=@%t/loop_for_0/x1.npy \
// RUN:   --expected-output=@%t/loop_for_0/expected.npy --expected-output=@%t/loop_for_0/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// graph.loop as a while loop (trip count INT64_MAX; the initial condition
// computed before the loop and the next one in the body): while
// sum(x) < limit: x <- x * 2 + 1, counting the iterations; a limit that
// stops it at once (0 iterations).
// RUN: %reference loop_while_100 %t/loop_while_100
// RUN: graph-run %s --entry=while_loop --quiet \
// RUN:   --input=@%t/loop_while_100/x0.npy --input=@%t/loop_while_100/x1.npy \
// RUN:   --expected-output=@%t/loop_while_100/expected.npy --expected-output=@%t/loop_while_100/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: %reference loop_while_never %t/loop_while_never
// RUN: graph-run %s --entry=while_loop --quiet \
// RUN:   --input=@%t/loop_while_never/x0.npy --input=@%t/loop_while_never/x1.npy \
// RUN:   --expected-output=@%t/loop_while_never/expected.npy --expected-output=@%t/loop_while_never/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// An RNN over 6 time steps: graph.gather with the rank-0 iteration number
// reads x[t], graph.dynamic_update_slice writes out[t]; the final hidden
// state is the second result.
// RUN: %reference loop_rnn %t/loop_rnn
// RUN: graph-run %s --entry=rnn --quiet \
// RUN:   --input=@%t/loop_rnn/x0.npy --input=@%t/loop_rnn/x1.npy \
// RUN:   --input=@%t/loop_rnn/x2.npy --expected-output=@%t/loop_rnn/expected.npy \
// RUN:   --expected-output=@%t/loop_rnn/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// A graph.if inside a loop body (even iterations add 1, odd ones negate)
// and a loop inside a graph.if region.
// RUN: %reference loop_nested %t/loop_nested
// RUN: graph-run %s --entry=nested --quiet \
// RUN:   --input=@%t/loop_nested/x0.npy --input=@%t/loop_nested/x1.npy \
// RUN:   --input=@%t/loop_nested/x2.npy --expected-output=@%t/loop_nested/expected.npy \
// RUN:   --expected-output=@%t/loop_nested/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// TWO: result 0: matches expected
// TWO: result 1: matches expected

func.func @if_select(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<2x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = graph.if %c : tensor<i1> -> tensor<4xf32>, tensor<4xf32> {
    %two = graph.constant dense<2.0> : tensor<f32>
    %a2 = graph.mul %a, %two : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    %s = graph.reduce sum %b axes = [0] : tensor<2x4xf32> -> tensor<4xf32>
    graph.yield %a2, %s : tensor<4xf32>, tensor<4xf32>
  } else {
    %e = graph.exp %a : tensor<4xf32> -> tensor<4xf32>
    %m = graph.reduce max %b axes = [0] : tensor<2x4xf32> -> tensor<4xf32>
    graph.yield %e, %m : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

func.func @for_loop(%n: tensor<i64>, %x0: tensor<5xf32>) -> (tensor<5xf32>, tensor<f32>) {
  %true = graph.constant dense<true> : tensor<i1>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %r:2 = graph.loop %n, %true, %x0, %zero : (tensor<i64>, tensor<i1>, tensor<5xf32>, tensor<f32>) -> (tensor<5xf32>, tensor<f32>) {
  ^bb0(%i: tensor<i64>, %x: tensor<5xf32>, %acc: tensor<f32>):
    %half = graph.constant dense<0.5> : tensor<f32>
    %fi = graph.cast %i : tensor<i64> -> tensor<f32>
    %xh = graph.mul %x, %half : tensor<5xf32>, tensor<f32> -> tensor<5xf32>
    %x1 = graph.add %xh, %fi : tensor<5xf32>, tensor<f32> -> tensor<5xf32>
    %s = graph.reduce sum %x1 axes = [0] : tensor<5xf32> -> tensor<f32>
    %acc1 = graph.add %acc, %s : tensor<f32>, tensor<f32> -> tensor<f32>
    graph.yield %true, %x1, %acc1 : tensor<i1>, tensor<5xf32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<5xf32>, tensor<f32>
}

func.func @while_loop(%x0: tensor<4xf32>, %limit: tensor<f32>) -> (tensor<4xf32>, tensor<i64>) {
  %max = graph.constant dense<9223372036854775807> : tensor<i64>
  %zero = graph.constant dense<0> : tensor<i64>
  %s0 = graph.reduce sum %x0 axes = [0] : tensor<4xf32> -> tensor<f32>
  %go0 = graph.compare lt, %s0, %limit : tensor<f32>, tensor<f32> -> tensor<i1>
  %r:2 = graph.loop %max, %go0, %x0, %zero : (tensor<i64>, tensor<i1>, tensor<4xf32>, tensor<i64>) -> (tensor<4xf32>, tensor<i64>) {
  ^bb0(%i: tensor<i64>, %x: tensor<4xf32>, %count: tensor<i64>):
    %two = graph.constant dense<2.0> : tensor<f32>
    %one = graph.constant dense<1.0> : tensor<f32>
    %inc = graph.constant dense<1> : tensor<i64>
    %x2 = graph.mul %x, %two : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    %x1 = graph.add %x2, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    %c1 = graph.add %count, %inc : tensor<i64>, tensor<i64> -> tensor<i64>
    %s = graph.reduce sum %x1 axes = [0] : tensor<4xf32> -> tensor<f32>
    %go = graph.compare lt, %s, %limit : tensor<f32>, tensor<f32> -> tensor<i1>
    graph.yield %go, %x1, %c1 : tensor<i1>, tensor<4xf32>, tensor<i64>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<i64>
}

func.func @rnn(%x: tensor<6x2x5xf32>, %w: tensor<5x5xf32>, %u: tensor<5x5xf32>) -> (tensor<6x2x5xf32>, tensor<2x5xf32>) {
  %t = graph.constant dense<6> : tensor<i64>
  %true = graph.constant dense<true> : tensor<i1>
  %h0 = graph.constant dense<0.0> : tensor<2x5xf32>
  %out0 = graph.constant dense<0.0> : tensor<6x2x5xf32>
  %r:2 = graph.loop %t, %true, %h0, %out0 : (tensor<i64>, tensor<i1>, tensor<2x5xf32>, tensor<6x2x5xf32>) -> (tensor<2x5xf32>, tensor<6x2x5xf32>) {
  ^bb0(%i: tensor<i64>, %h: tensor<2x5xf32>, %out: tensor<6x2x5xf32>):
    %xt = graph.gather %x, %i {axis = 0 : i64} : (tensor<6x2x5xf32>, tensor<i64>) -> tensor<2x5xf32>
    %a = graph.matmul %xt, %w : tensor<2x5xf32>, tensor<5x5xf32> -> tensor<2x5xf32>
    %b = graph.matmul %h, %u : tensor<2x5xf32>, tensor<5x5xf32> -> tensor<2x5xf32>
    %s = graph.add %a, %b : tensor<2x5xf32>, tensor<2x5xf32> -> tensor<2x5xf32>
    %h1 = graph.tanh %s : tensor<2x5xf32> -> tensor<2x5xf32>
    %out1 = graph.dynamic_update_slice %out, %h1, %i {axis = 0 : i64} : (tensor<6x2x5xf32>, tensor<2x5xf32>, tensor<i64>) -> tensor<6x2x5xf32>
    graph.yield %true, %h1, %out1 : tensor<i1>, tensor<2x5xf32>, tensor<6x2x5xf32>
  }
  return %r#1, %r#0 : tensor<6x2x5xf32>, tensor<2x5xf32>
}

func.func @nested(%n: tensor<i64>, %x0: tensor<3xf32>, %c: tensor<i1>) -> (tensor<3xf32>, tensor<3xf32>) {
  %true = graph.constant dense<true> : tensor<i1>
  %r = graph.loop %n, %true, %x0 : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%i: tensor<i64>, %x: tensor<3xf32>):
    %two = graph.constant dense<2> : tensor<i64>
    %one = graph.constant dense<1.0> : tensor<f32>
    %half = graph.div %i, %two : tensor<i64>, tensor<i64> -> tensor<i64>
    %twice = graph.mul %half, %two : tensor<i64>, tensor<i64> -> tensor<i64>
    %even = graph.compare eq, %twice, %i : tensor<i64>, tensor<i64> -> tensor<i1>
    %y = graph.if %even : tensor<i1> -> tensor<3xf32> {
      %a = graph.add %x, %one : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
      graph.yield %a : tensor<3xf32>
    } else {
      %b = graph.neg %x : tensor<3xf32> -> tensor<3xf32>
      graph.yield %b : tensor<3xf32>
    }
    graph.yield %true, %y : tensor<i1>, tensor<3xf32>
  }
  %s = graph.if %c : tensor<i1> -> tensor<3xf32> {
    %k = graph.constant dense<3> : tensor<i64>
    %w = graph.loop %k, %true, %x0 : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> tensor<3xf32> {
    ^bb0(%j: tensor<i64>, %z: tensor<3xf32>):
      %zz = graph.add %z, %z : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
      graph.yield %true, %zz : tensor<i1>, tensor<3xf32>
    }
    graph.yield %w : tensor<3xf32>
  } else {
    graph.yield %x0 : tensor<3xf32>
  }
  return %r, %s : tensor<3xf32>, tensor<3xf32>
}
