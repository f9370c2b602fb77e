//===- CPUConv.h - direct stride-1 convolution kernel for the CPU -*- C++ -*-===//
//
/// \file
/// A stride-1 convolution of one image arrives from convert-graph-to-linalg
/// as a chain of matmuls, one per kernel tap, on shifted slices of the
/// padded, flattened image (an implicit GEMM). On the CPU the chain becomes
/// one direct-convolution loop nest whose output block stays in registers
/// across all taps and channels, with the weights packed at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_CODEGEN_CPUCONV_H
#define GRAPHOPT_CODEGEN_CPUCONV_H

#include <cstdint>

namespace mlir {
class RewriterBase;
namespace linalg {
class LinalgOp;
} // namespace linalg
} // namespace mlir

namespace mlir::graphopt {

/// When `op` ends a chain of at least two f32 matmuls `o += W_t x
/// image[:, o_t : o_t + P]` over one 2-D image with constant weights,
/// replaces the chain with the direct kernel (register blocks of up to 8
/// output channels by 3 x `vectorWidth` columns with AVX-512's 32 vector
/// registers, 4 by 3 x 8 with AVX2's 16; narrower blocks for the remaining
/// columns) and returns true; otherwise changes nothing.
bool fuseConvolutionTaps(RewriterBase &rewriter, linalg::LinalgOp op,
                         int64_t vectorWidth);

/// Replaces `op`, when it is an f32 `linalg.depthwise_conv_2d_nchw_chw`,
/// `linalg.pooling_nchw_max` or `linalg.pooling_nchw_sum`, or an i8, i16 or
/// i32 `linalg.pooling_nchw_max` (signed), on static shapes with a width
/// stride of 1 or 2, with loops over images, channels and output rows in
/// which each row is computed in chunks of one register's lanes
/// (`vectorWidth` f32 lanes; 4x as many 8-bit ones), every chunk combining
/// all of the window's taps in a register
/// (FMA with the channel's weight, maximum or sum; input read in place: one
/// vector per tap, two and a shuffle for stride 2). An initial value filled
/// with a constant is not read. Returns false and changes nothing otherwise.
bool vectorizeWindowOp(RewriterBase &rewriter, linalg::LinalgOp op,
                       int64_t vectorWidth);

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_CPUCONV_H
