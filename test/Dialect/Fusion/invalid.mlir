// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @group_c1(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.group' op input 0 has type 'tensor<4xf32>' but body argument 0 has type 'tensor<5xf32>'}}
  %r = fusion.group loop (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<5xf32>):
    %y = graph.relu %x : tensor<5xf32> -> tensor<5xf32>
    fusion.yield %y : tensor<5xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @group_c2(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.group' op has 1 results but yields 0 values}}
  %r = fusion.group loop (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    fusion.yield
  }
  return %r : tensor<4xf32>
}

// -----

func.func @group_isolated(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = fusion.group loop (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    // expected-error @+1 {{using value defined outside the region}}
    %y = graph.add %x, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    fusion.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @linear_c2(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'fusion.linear' op weight must be 2-D, got rank 1}}
  // expected-error @+1 {{'fusion.linear' op failed to infer returned types}}
  %r = fusion.linear %x, %w : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @linear_c3(%x: tensor<4x8xf32>, %w: tensor<16x9xf32>) -> tensor<4x16xf32> {
  // expected-error @+2 {{'fusion.linear' op contracting dimension mismatch: input dim 1 is 8, weight dim 1 is 9}}
  // expected-error @+1 {{'fusion.linear' op failed to infer returned types}}
  %r = fusion.linear %x, %w transpose_weight : (tensor<4x8xf32>, tensor<16x9xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

func.func @linear_c4(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<15xf32>) -> tensor<4x16xf32> {
  // expected-error @+2 {{'fusion.linear' op bias must have shape [16], got rank 1 with dim 0 15}}
  // expected-error @+1 {{'fusion.linear' op failed to infer returned types}}
  %r = fusion.linear %x, %w, %b : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<15xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

func.func @linear_c5(%x: tensor<4x8xf32>, %w: tensor<8x16xf16>) -> tensor<4x16xf32> {
  // expected-error @+2 {{'fusion.linear' op input and weight element types differ}}
  // expected-error @+1 {{'fusion.linear' op failed to infer returned types}}
  %r = fusion.linear %x, %w : (tensor<4x8xf32>, tensor<8x16xf16>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

func.func @linear_result(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x15xf32> {
  // expected-error @+2 {{'fusion.linear' op inferred type(s) 'tensor<4x16xf32>' are incompatible with return type(s) of operation 'tensor<4x15xf32>'}}
  // expected-error @+1 {{'fusion.linear' op failed to infer returned types}}
  %r = fusion.linear %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x15xf32>
  return %r : tensor<4x15xf32>
}

// -----

func.func @attention_c3(%q: tensor<4x8xf32>, %k: tensor<6x7xf32>) -> tensor<4x7xf32> {
  // expected-error @+2 {{'fusion.attention' op head dimension mismatch: query dim 1 is 8, key dim 1 is 7}}
  // expected-error @+1 {{'fusion.attention' op failed to infer returned types}}
  %r = fusion.attention %q, %k, %k : (tensor<4x8xf32>, tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<4x7xf32>
  return %r : tensor<4x7xf32>
}

// -----

func.func @attention_c4(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<5x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'fusion.attention' op key length 6 differs from value length 5}}
  // expected-error @+1 {{'fusion.attention' op failed to infer returned types}}
  %r = fusion.attention %q, %k, %v : (tensor<4x8xf32>, tensor<6x8xf32>, tensor<5x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @attention_c7(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %m: tensor<4x5xi1>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'fusion.attention' op mask does not broadcast to the scores' shape}}
  // expected-error @+1 {{'fusion.attention' op failed to infer returned types}}
  %r = fusion.attention %q, %k, %k mask(%m : tensor<4x5xi1>) : (tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @attention_c8(%q: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'fusion.attention' op scale must be positive, got -1}}
  // expected-error @+1 {{'fusion.attention' op failed to infer returned types}}
  %r = fusion.attention %q, %q, %q scale = -1.0 : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// fusion.conv2d checks graph.conv2d's constraints with graph.conv2d's rule
// (graph::inferConv2DResultType), in its own name.
func.func @conv2d_c3(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+2 {{'fusion.conv2d' op input has 3 channels (dim 1), but weight dim 1 is 2 with groups = 1 (expected 3)}}
  // expected-error @+1 {{'fusion.conv2d' op failed to infer returned types}}
  %r = fusion.conv2d %x, %w activation = relu : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_c4(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+2 {{'fusion.conv2d' op bias must be [4] (weight dim 0), got [5]}}
  // expected-error @+1 {{'fusion.conv2d' op failed to infer returned types}}
  %r = fusion.conv2d %x, %w, %b activation = relu : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}
