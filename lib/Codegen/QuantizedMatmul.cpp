//===- QuantizedMatmul.cpp - graph-cpu-quantized-matmul
//--------------------===//
//
// A QDQ model (ONNX Runtime's quantize_static, PyTorch's PT2E) multiplies
// dequantized tensors: `matmul(dq(a), dq(w))` with `dq(x) = (x - zp) *
// scale` on 8-bit x. The importers write dq as graph ops, so without this
// pass the product runs in f32 like any other matmul. Here, when the
// weight's integers are constants that fit in a signed byte and both scales
// are constant along K, the product becomes
//
//   (sum_k a[m, k] * w'[k, n] - (za + s) * colsum(w')[n]) * scale_a * scale_w
//
// (w' = w - zw; s = 128 when a is signed, see below): an exact integer
// matmul in i32, then one conversion to f32 and the two scales. The integer
// matmul is a kernel function of its own built here (called from the graph
// with `func.call`), which sums 4 byte products per i32 lane with AVX-512
// VNNI's `vpdpbusd` (unsigned bytes of a times signed bytes of w): the
// weights are packed at compile time into [N/16][K/4][16 x 4] byte blocks,
// one 64-byte register per block and k-group; each row's 4 bytes of a are
// broadcast to all lanes; accumulators are `rows x vectors` registers that
// start at the column correction. A signed `a` has its sign bits flipped
// (a + 128 as an unsigned byte), which the correction's 128 * colsum undoes.
// Without VNNI, on request (option `avx2`), AVX2's `vpmaddwd` on 16-bit
// values takes its place; with AMX, tiles (buildAMXKernel).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Codegen/Passes.h"
#include "graphopt/Dialect/Graph/IR/ConstantEval.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUQUANTIZEDMATMULPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;
namespace g = mlir::graphopt::graph;

namespace {

/// i32 lanes of a 512-bit register, and the bytes `vpdpbusd` sums per lane.
constexpr int64_t kLanes = 16;
constexpr int64_t kGroup = 4;

bool is8BitInteger(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getElementType().isInteger(8);
}

bool isI32(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getElementType().isSignlessInteger(32);
}

/// The value of `v` when the graph ops it comes from are computable from
/// constants (a cast, difference or reshape of a weight and its zero
/// point, a dequantized bias), evaluated by the graph dialect's reference
/// interpreter.
DenseElementsAttr constantValue(Value v, int depth = 6) {
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0 ||
      !isa<g::CastOp, g::SubOp, g::AddOp, g::MulOp, g::DivOp, g::ReshapeOp,
           g::TransposeOp, g::BroadcastToOp>(def))
    return {};
  SmallVector<Attribute> operands;
  for (Value o : def->getOperands()) {
    DenseElementsAttr c = constantValue(o, depth - 1);
    if (!c)
      return {};
    operands.push_back(c);
  }
  return g::evaluateConstantOp(def, operands,
                               std::numeric_limits<int64_t>::max());
}

/// DequantizeLinear as the importers write it: `mul(cast_f32(x), scale)`
/// (either operand order) where `x` is the 8-bit tensor `q` itself,
/// `cast_i32(q)` or `sub(cast_i32(q), zero_point)`.
struct Dequant {
  Value q;         // the 8-bit tensor
  Value integer;   // what is converted to f32 (q, or an i32 value)
  Value zeroPoint; // null: none
  Value scale;     // f32
  /// The ops from the dequantized value back to `q`: the mul, the cast to
  /// f32, then the sub and the widening cast where there are.
  SmallVector<Operation *, 4> ops;
};

std::optional<Dequant> matchDequant(Value v) {
  auto mul = v.getDefiningOp<g::MulOp>();
  if (!mul)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    auto toFloat = mul->getOperand(i).getDefiningOp<g::CastOp>();
    Value scale = mul->getOperand(1 - i);
    if (!toFloat || toFloat.getType() != mul.getType() ||
        !getElementTypeOrSelf(scale.getType()).isF32())
      continue;
    Dequant d{Value(), toFloat.getInput(), Value(), scale, {mul, toFloat}};
    if (is8BitInteger(d.integer)) {
      d.q = d.integer;
      return d;
    }
    Value wide = d.integer;
    if (auto sub = wide.getDefiningOp<g::SubOp>()) {
      if (sub.getType() != sub.getLhs().getType())
        continue;
      d.zeroPoint = sub.getRhs();
      wide = sub.getLhs();
      d.ops.push_back(sub);
    }
    auto widen = wide.getDefiningOp<g::CastOp>();
    if (!widen || !isI32(wide) || !is8BitInteger(widen.getInput()))
      continue;
    d.ops.push_back(widen);
    d.q = widen.getInput();
    return d;
  }
  return std::nullopt;
}

/// Whether `param` (a scale or zero point broadcast against an operand of
/// rank `rank`) is the same along the operand's dim `kDim` (K).
bool constantAlongK(Value param, int64_t rank, int64_t kDim) {
  auto t = dyn_cast<RankedTensorType>(param.getType());
  if (!t || t.getRank() > rank)
    return false;
  int64_t d = kDim - (rank - t.getRank());
  return d < 0 || t.getDimSize(d) == 1;
}

/// Integer values of a constant, extended to int64 by the signedness of its
/// element type (unsigned types zero-extend; signless ones are signed).
SmallVector<int64_t> integerValues(DenseElementsAttr attr) {
  bool isUnsigned = attr.getElementType().isUnsignedInteger();
  SmallVector<int64_t> out;
  out.reserve(attr.getNumElements());
  for (const APInt &v : attr.getValues<APInt>())
    out.push_back(isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue());
  return out;
}

/// A convolution's geometry, for a kernel whose rows are output pixels:
/// row p = (image, oh, ow) reads the k-group (kh, kw, 4 channels) from the
/// NHWC input (zero-point padded, channels padded to a multiple of 4) at
/// [image, oh * sh + kh * dh, ow * sw + kw * dw, 4 c4].
struct ConvGeometry {
  int64_t images = 0, outH = 0, outW = 0;
  int64_t kernelH = 0, kernelW = 0, channels4 = 0; // padded channels / 4
  int64_t padH = 0, padW = 0;                      // padded input H and W
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  /// AMX with dilation 1 along W: a kernel row's taps are KW * C
  /// consecutive bytes of the NHWC input, read as this many 64-byte chunks
  /// (k = (kh, 64-byte chunk); the weights past KW * C are zero). 0: one
  /// chunk per tap (C a multiple of 64).
  int64_t runChunks = 0;
};

/// The shape of one kernel: which function serves a call.
struct KernelShape {
  int64_t rows; // M, or ShapedType::kDynamic
  int64_t k, n;
  int64_t blocks;  // 16-column blocks of the packed weights (ceil(N / 16))
  int64_t vectors; // 16-column blocks per register block
  int64_t rowsPerBlock;
  bool signedA;
  std::optional<ConvGeometry> conv;
  /// AMX tiles (`tdpbssd`/`tdpbusd`) rather than VNNI registers (K a
  /// multiple of 4); `a` is multiplied as it is (signed or not), no sign
  /// flip.
  bool amx = false;
  /// AVX2 without VNNI: each `vpdpbusd` becomes four `vpmaddwd` products
  /// of 16-bit values (exact), the weights packed for them (packWeights).
  bool avx2 = false;

  /// k-groups of 4 bytes (the last one zero-padded).
  int64_t groups() const { return (k + kGroup - 1) / kGroup; }

  std::string name() const {
    auto str = [](int64_t v) { return std::to_string(v); };
    std::string s;
    if (conv) {
      const ConvGeometry &c = *conv;
      s = "__graphopt_int8_conv_" + str(c.images) + "x" + str(c.padH) + "x" +
          str(c.padW) + "x" + str(4 * c.channels4) + "_k" + str(c.kernelH) +
          "x" + str(c.kernelW) + "_s" + str(c.strideH) + "x" + str(c.strideW) +
          "_d" + str(c.dilationH) + "x" + str(c.dilationW) + "_o" +
          str(c.outH) + "x" + str(c.outW) + "_n" + str(n);
    } else {
      s = "__graphopt_int8_matmul_";
      s += rows == ShapedType::kDynamic ? std::string("d") : str(rows);
      s += "x" + str(k) + "x" + str(n);
    }
    if (amx)
      return s + "_amx" + (signedA ? "_s" : "_u");
    return s + "_" + str(rowsPerBlock) + "x" + str(vectors) +
           (avx2 ? "_avx2" : "") + (signedA ? "_s" : "_u");
  }
};

/// Registers: `rowsPerBlock x vectors` accumulators, `vectors` weight
/// registers and one broadcast of a fit in AVX-512's 32. With `avx2`, AVX2's
/// 16: 4 rows of one 16-column block (8 accumulators), its weights as four
/// registers of 16-bit values and a row's two broadcasts.
KernelShape chooseShape(int64_t rows, int64_t k, int64_t n, bool signedA,
                        bool avx2 = false) {
  KernelShape s{rows, k, n, (n + kLanes - 1) / kLanes, 1, 1, signedA, {}};
  s.avx2 = avx2;
  if (avx2) {
    s.rowsPerBlock = 4;
    return s;
  }
  for (int64_t v : {4, 3, 2}) {
    if (s.blocks % v == 0) {
      s.vectors = v;
      break;
    }
  }
  s.rowsPerBlock = std::min<int64_t>(8, (31 - s.vectors) / s.vectors);
  return s;
}

/// The weights w'[k][n] as [blocks][ceil(K/4)][16 x 4] bytes: byte
/// `4 * c + j` of block `b`, group `gk` is w'[4 gk + j][16 b + c] (zero past
/// K or N). With `s.avx2`, 16-bit values, the group's 64 in four runs of
/// 16, one per half h of the columns and pair p of the k values, each
/// holding the 8 columns' 2 values: value `((2 h + p) * 8 + c) * 2 + j` is
/// w'[4 gk + 2 p + j][16 b + 8 h + c], so that `vpmaddwd` of a run with the
/// row's values a[2 p], a[2 p + 1] repeated gives the 8 columns' partial sums
/// in column order.
DenseElementsAttr packWeights(MLIRContext *ctx, ArrayRef<int64_t> w,
                              const KernelShape &s) {
  int64_t groups = s.groups();
  std::vector<int8_t> packed(s.blocks * groups * kLanes * kGroup, 0);
  for (int64_t kk = 0; kk < s.k; ++kk)
    for (int64_t nn = 0; nn < s.n; ++nn) {
      int64_t b = nn / kLanes, c = nn % kLanes, gk = kk / kGroup,
              j = kk % kGroup;
      int64_t byte = c * kGroup + j;
      if (s.avx2)
        byte = ((c / 8 * 2 + j / 2) * 8 + c % 8) * 2 + j % 2;
      packed[(b * groups + gk) * kLanes * kGroup + byte] =
          int8_t(w[kk * s.n + nn]);
    }
  if (s.avx2) { // as 16-bit values, which `vpmaddwd` reads from memory
    auto type = RankedTensorType::get({s.blocks, groups, kLanes * kGroup},
                                      IntegerType::get(ctx, 16));
    std::vector<int16_t> wide(packed.begin(), packed.end());
    return DenseElementsAttr::get(type, ArrayRef<int16_t>(wide));
  }
  auto type = RankedTensorType::get({s.blocks, groups, kLanes * kGroup},
                                    IntegerType::get(ctx, 8));
  return DenseElementsAttr::get(type, ArrayRef<int8_t>(packed));
}

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// One register block: `rows` rows of a from `m`, `s.vectors` 16-column
/// blocks from block `block0`; returns `out` with the block's results
/// written.
Value registerBlock(OpBuilder &b, Location loc, const KernelShape &s,
                    func::FuncOp dot, Value a, Value w, Value init, Value out,
                    Value m, Value block0, int64_t rows) {
  Type i8 = b.getI8Type(), i16 = b.getI16Type(), i32 = b.getI32Type();
  auto accType = VectorType::get({kLanes}, i32);
  auto bytesType = VectorType::get({kLanes * kGroup}, i8);
  auto pairsType = VectorType::get({kLanes * kGroup}, i16); // AVX2 weights
  auto groupType = VectorType::get({kGroup}, i8);
  auto wordType = VectorType::get({1}, i32);
  Value c0 = indexConst(b, loc, 0), c1 = indexConst(b, loc, 1);
  Value zero8 = arith::ConstantOp::create(b, loc, i8, b.getIntegerAttr(i8, 0));
  Value zero16 =
      arith::ConstantOp::create(b, loc, i16, b.getIntegerAttr(i16, 0));
  Value zero32 =
      arith::ConstantOp::create(b, loc, i32, b.getIntegerAttr(i32, 0));
  Value signFlip;
  if (s.signedA)
    signFlip = arith::ConstantOp::create(
        b, loc, bytesType,
        DenseElementsAttr::get(bytesType, b.getIntegerAttr(i8, -128)));

  SmallVector<Value> cols;
  SmallVector<Value> accs;
  for (int64_t v = 0; v < s.vectors; ++v) {
    Value blk = arith::AddIOp::create(b, loc, block0, indexConst(b, loc, v));
    cols.push_back(
        arith::MulIOp::create(b, loc, blk, indexConst(b, loc, kLanes)));
  }
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t v = 0; v < s.vectors; ++v)
      accs.push_back(vector::TransferReadOp::create(b, loc, accType, init,
                                                    ValueRange{cols[v]}, zero32,
                                                    ArrayRef<bool>{true}));
  SmallVector<Value> rowIndex;
  for (int64_t r = 0; r < rows; ++r)
    rowIndex.push_back(arith::AddIOp::create(b, loc, m, indexConst(b, loc, r)));

  // One k-group: the weights' registers (group `gk` of the packed weights),
  // then each row's 4 bytes of a (at `aIndex(r)`) broadcast.
  auto step = [&](OpBuilder &b, Value gk, ValueRange in, bool full,
                  llvm::function_ref<SmallVector<Value>(int64_t)> aIndex) {
    // The weights: bytes, or with AVX2 16-bit values.
    SmallVector<Value> wv;
    for (int64_t v = 0; v < s.vectors; ++v) {
      Value blk = arith::AddIOp::create(b, loc, block0, indexConst(b, loc, v));
      wv.push_back(vector::TransferReadOp::create(
          b, loc, s.avx2 ? pairsType : bytesType, w, ValueRange{blk, gk, c0},
          s.avx2 ? zero16 : zero8, ArrayRef<bool>{true}));
    }
    SmallVector<Value> next;
    if (s.avx2) {
      // Per column block, its four runs of 16 weights as 16-bit values;
      // per row, the pairs a[0], a[1] and a[2], a[3] (a widened to 16 bits
      // by the caller) each broadcast as one 32-bit word; per half of the
      // columns, two `vpmaddwd` (2 products summed per i32 lane: exact)
      // added to its 8 accumulators.
      auto halfType = VectorType::get({kLanes / 2}, i32);
      auto pairType = VectorType::get({kLanes}, i16);
      auto twoType = VectorType::get({2}, i16);
      SmallVector<SmallVector<Value, 4>> runs;
      for (int64_t v = 0; v < s.vectors; ++v) {
        SmallVector<Value, 4> vr;
        for (int64_t q = 0; q < 4; ++q)
          vr.push_back(vector::ExtractStridedSliceOp::create(
              b, loc, wv[v], ArrayRef<int64_t>{q * kLanes},
              ArrayRef<int64_t>{kLanes}, ArrayRef<int64_t>{1}));
        runs.push_back(vr);
      }
      for (int64_t r = 0; r < rows; ++r) {
        Value pairs[2];
        for (int64_t p = 0; p < 2; ++p) {
          SmallVector<Value> index = aIndex(r);
          if (p)
            index.back() = arith::AddIOp::create(b, loc, index.back(),
                                                 indexConst(b, loc, 2));
          Value two = vector::TransferReadOp::create(
              b, loc, twoType, a, index, zero16, ArrayRef<bool>{full});
          Value word = vector::ExtractOp::create(
              b, loc, vector::BitCastOp::create(b, loc, wordType, two),
              int64_t(0));
          pairs[p] = vector::BitCastOp::create(
              b, loc, pairType,
              vector::BroadcastOp::create(b, loc, halfType, word));
        }
        for (int64_t v = 0; v < s.vectors; ++v) {
          Value acc = in[r * s.vectors + v];
          for (int64_t h = 0; h < 2; ++h) {
            Value sum = vector::ExtractStridedSliceOp::create(
                b, loc, acc, ArrayRef<int64_t>{h * kLanes / 2},
                ArrayRef<int64_t>{kLanes / 2}, ArrayRef<int64_t>{1});
            for (int64_t p = 0; p < 2; ++p) {
              Value prod =
                  func::CallOp::create(b, loc, dot,
                                       ValueRange{pairs[p], runs[v][2 * h + p]})
                      .getResult(0);
              sum = arith::AddIOp::create(b, loc, sum, prod);
            }
            acc = vector::InsertStridedSliceOp::create(
                b, loc, sum, acc, ArrayRef<int64_t>{h * kLanes / 2},
                ArrayRef<int64_t>{1});
          }
          next.push_back(acc);
        }
      }
      return next;
    }
    for (int64_t r = 0; r < rows; ++r) {
      Value group = vector::TransferReadOp::create(
          b, loc, groupType, a, aIndex(r), zero8, ArrayRef<bool>{full});
      Value word = vector::BitCastOp::create(b, loc, wordType, group);
      Value scalar = vector::ExtractOp::create(b, loc, word, int64_t(0));
      Value bytes = vector::BitCastOp::create(
          b, loc, bytesType,
          vector::BroadcastOp::create(b, loc, accType, scalar));
      if (s.signedA)
        bytes = arith::XOrIOp::create(b, loc, bytes, signFlip);
      for (int64_t v = 0; v < s.vectors; ++v) {
        Value acc = in[r * s.vectors + v];
        next.push_back(
            func::CallOp::create(b, loc, dot, ValueRange{acc, bytes, wv[v]})
                .getResult(0));
      }
    }
    return next;
  };
  auto loop =
      [&](OpBuilder &b, int64_t count, ValueRange init,
          llvm::function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
              body) {
        auto forOp = scf::ForOp::create(
            b, loc, c0, indexConst(b, loc, count), c1, init,
            [&](OpBuilder &lb, Location, Value iv, ValueRange in) {
              scf::YieldOp::create(lb, loc, body(lb, iv, in));
            });
        return SmallVector<Value>(forOp.getResults());
      };

  if (!s.conv) {
    // a[row, 4 gk ...]; a last, partial group masked.
    int64_t fullGroups = s.k / kGroup;
    auto matmulStep = [&](OpBuilder &b, Value gk, ValueRange in, bool full) {
      Value k0 = arith::MulIOp::create(b, loc, gk, indexConst(b, loc, kGroup));
      return step(b, gk, in, full, [&](int64_t r) {
        return SmallVector<Value>{rowIndex[r], k0};
      });
    };
    if (fullGroups > 0)
      accs = loop(b, fullGroups, accs,
                  [&](OpBuilder &lb, Value gk, ValueRange in) {
                    return matmulStep(lb, gk, in, /*full=*/true);
                  });
    if (s.k % kGroup)
      accs = matmulStep(b, indexConst(b, loc, fullGroups), accs,
                        /*full=*/false);
  } else {
    // Row p = (image, oh, ow) reads a (collapsed to [N, H, W * C]) at
    // [image, oh * sh + kh * dh, (ow * sw + kw * dw) * C + 4 c4]: loops over
    // kh, then kw and the channel groups, which are one run of KW * C / 4
    // consecutive groups when dw = 1.
    const ConvGeometry &g = *s.conv;
    int64_t cp = kGroup * g.channels4;
    SmallVector<Value> image, ih0, col0;
    Value plane = indexConst(b, loc, g.outH * g.outW);
    Value width = indexConst(b, loc, g.outW);
    for (int64_t r = 0; r < rows; ++r) {
      Value p = rowIndex[r];
      image.push_back(arith::DivUIOp::create(b, loc, p, plane));
      Value rem = arith::RemUIOp::create(b, loc, p, plane);
      Value oh = arith::DivUIOp::create(b, loc, rem, width);
      Value ow = arith::RemUIOp::create(b, loc, rem, width);
      ih0.push_back(
          arith::MulIOp::create(b, loc, oh, indexConst(b, loc, g.strideH)));
      col0.push_back(arith::MulIOp::create(b, loc, ow,
                                           indexConst(b, loc, g.strideW * cp)));
    }
    // Groups [first, first + count) of the packed weights, row r's bytes
    // of a from column `colBase(r)` on, 4 per group.
    auto run = [&](OpBuilder &b2, Value first, int64_t count, ValueRange in,
                   ArrayRef<Value> ih, ArrayRef<Value> colBase) {
      return loop(b2, count, in, [&](OpBuilder &b3, Value t, ValueRange in3) {
        Value gk = arith::AddIOp::create(b3, loc, first, t);
        Value off =
            arith::MulIOp::create(b3, loc, t, indexConst(b3, loc, kGroup));
        SmallVector<Value> cols;
        for (int64_t r = 0; r < rows; ++r)
          cols.push_back(arith::AddIOp::create(b3, loc, colBase[r], off));
        return step(b3, gk, in3, /*full=*/true, [&](int64_t r) {
          return SmallVector<Value>{image[r], ih[r], cols[r]};
        });
      });
    };
    accs =
        loop(b, g.kernelH, accs, [&](OpBuilder &b1, Value kh, ValueRange in1) {
          Value dh = arith::MulIOp::create(b1, loc, kh,
                                           indexConst(b1, loc, g.dilationH));
          SmallVector<Value> ih;
          for (int64_t r = 0; r < rows; ++r)
            ih.push_back(arith::AddIOp::create(b1, loc, ih0[r], dh));
          Value tapRow = arith::MulIOp::create(
              b1, loc, kh, indexConst(b1, loc, g.kernelW * g.channels4));
          if (g.dilationW == 1)
            return run(b1, tapRow, g.kernelW * g.channels4, in1, ih, col0);
          return loop(b1, g.kernelW, in1,
                      [&](OpBuilder &b2, Value kw, ValueRange in2) {
                        Value first = arith::AddIOp::create(
                            b2, loc, tapRow,
                            arith::MulIOp::create(
                                b2, loc, kw, indexConst(b2, loc, g.channels4)));
                        Value shift = arith::MulIOp::create(
                            b2, loc, kw, indexConst(b2, loc, g.dilationW * cp));
                        SmallVector<Value> colBase;
                        for (int64_t r = 0; r < rows; ++r)
                          colBase.push_back(
                              arith::AddIOp::create(b2, loc, col0[r], shift));
                        return run(b2, first, g.channels4, in2, ih, colBase);
                      });
        });
  }

  bool colsInBounds = s.n % kLanes == 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t v = 0; v < s.vectors; ++v)
      out = vector::TransferWriteOp::create(
                b, loc, accs[r * s.vectors + v], out,
                ValueRange{rowIndex[r], cols[v]}, ArrayRef<bool>{colsInBounds})
                .getResult();
  return out;
}

/// The name LLVM knows `vpdpbusd` by. Called as a declared function rather
/// than with `llvm.call_intrinsic`, whose unknown memory effects buffer
/// deallocation refuses: `llvm.`-prefixed declarations are intrinsics to
/// LLVM.
constexpr llvm::StringLiteral kDotIntrinsic = "llvm.x86.avx512.vpdpbusd.512";

/// AVX2's `vpmaddwd` (16 products of 16-bit values, summed in pairs into 8
/// i32 lanes).
constexpr llvm::StringLiteral kPairDotIntrinsic = "llvm.x86.avx2.pmadd.wd";

/// The declaration of `vpdpbusd`, or with `avx2` of `vpmaddwd`.
func::FuncOp getOrDeclareDot(ModuleOp module, bool avx2) {
  StringRef name = avx2 ? kPairDotIntrinsic : kDotIntrinsic;
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  FunctionType type;
  if (avx2) {
    auto pairs = VectorType::get({kLanes}, b.getI16Type());
    type = b.getFunctionType({pairs, pairs},
                             {VectorType::get({kLanes / 2}, b.getI32Type())});
  } else {
    auto acc = VectorType::get({kLanes}, b.getI32Type());
    auto bytes = VectorType::get({kLanes * kGroup}, b.getI8Type());
    type = b.getFunctionType({acc, bytes, bytes}, {acc});
  }
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

/// `func.func private @name(a, w, init) -> out` with its entry block: the
/// signature every integer kernel has.
func::FuncOp createKernelFunction(OpBuilder &mb, Location loc, StringRef name,
                                  Type a, Type w, Type init, Type out) {
  auto fn = func::FuncOp::create(
      mb, loc, name, FunctionType::get(mb.getContext(), {a, w, init}, {out}));
  fn.setPrivate();
  fn.addEntryBlock();
  return fn;
}

/// `func.func private @name(a: [M, K] i8, w: packed, init: [blocks*16] i32)
/// -> [M, N] i32`.
func::FuncOp buildKernel(OpBuilder &mb, Location loc, const KernelShape &s,
                         func::FuncOp dot) {
  Type i8 = mb.getI8Type(), i32 = mb.getI32Type();
  int64_t groups = s.groups();
  // AVX2: `a` comes widened to 16 bits (unsigned; a signed a plus 128).
  Type aElement = s.avx2 ? mb.getI16Type() : i8;
  auto aType =
      s.conv ? RankedTensorType::get({s.conv->images, s.conv->padH,
                                      s.conv->padW, 4 * s.conv->channels4},
                                     aElement)
             : RankedTensorType::get({s.rows, s.k}, aElement);
  auto wType = RankedTensorType::get({s.blocks, groups, kLanes * kGroup},
                                     s.avx2 ? mb.getI16Type() : i8);
  auto initType = RankedTensorType::get({s.blocks * kLanes}, i32);
  auto outType = RankedTensorType::get({s.rows, s.n}, i32);
  func::FuncOp fn =
      createKernelFunction(mb, loc, s.name(), aType, wType, initType, outType);
  Block *entry = &fn.front();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  Value a = entry->getArgument(0), w = entry->getArgument(1),
        init = entry->getArgument(2);
  if (s.conv) // [N, H, W, C] as [N, H, W * C]: a row's taps are consecutive
    a = tensor::CollapseShapeOp::create(
        b, loc, a, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  Value c0 = indexConst(b, loc, 0), c1 = indexConst(b, loc, 1);
  Value rows = s.rows == ShapedType::kDynamic
                   ? tensor::DimOp::create(b, loc, a, 0).getResult()
                   : indexConst(b, loc, s.rows);
  assert((!s.conv || s.rows != ShapedType::kDynamic) &&
         "convolution kernels have static shapes");
  SmallVector<Value> dynSizes;
  if (s.rows == ShapedType::kDynamic)
    dynSizes.push_back(rows);
  Value out = tensor::EmptyOp::create(b, loc, outType, dynSizes);
  Value mr = indexConst(b, loc, s.rowsPerBlock);
  Value mainRows = arith::SubIOp::create(
      b, loc, rows, arith::RemUIOp::create(b, loc, rows, mr));
  Value vecs = indexConst(b, loc, s.vectors);
  Value numBlocks = indexConst(b, loc, s.blocks);
  // The rows in register blocks of `rowsPerBlock` and then one by one:
  // `body(builder, m, o, rows)` computes the block of `rows` rows from `m`
  // into `o`. With `parallel`, the blocks' loop is marked parallel.
  using RowsBody =
      llvm::function_ref<Value(OpBuilder &, Value, Value, int64_t)>;
  auto overRows = [&](OpBuilder &bb, Value o, RowsBody body, bool parallel) {
    auto main = scf::ForOp::create(
        bb, loc, c0, mainRows, mr, ValueRange{o},
        [&](OpBuilder &rb, Location, Value m, ValueRange o2) {
          scf::YieldOp::create(rb, loc, body(rb, m, o2[0], s.rowsPerBlock));
        });
    if (parallel)
      graphopt::markParallelLoop(main);
    return scf::ForOp::create(
               bb, loc, mainRows, rows, c1, main.getResults(),
               [&](OpBuilder &rb, Location, Value m, ValueRange o2) {
                 scf::YieldOp::create(rb, loc, body(rb, m, o2[0], 1));
               })
        .getResult(0);
  };
  // Every column block: `body(builder, block0, o)`.
  auto overColumns =
      [&](OpBuilder &bb, Value o,
          llvm::function_ref<Value(OpBuilder &, Value, Value)> body) {
        return scf::ForOp::create(
            bb, loc, c0, numBlocks, vecs, ValueRange{o},
            [&](OpBuilder &cb, Location, Value block0, ValueRange o2) {
              scf::YieldOp::create(cb, loc, body(cb, block0, o2[0]));
            });
      };
  // The outer loop is the one graph-cpu-parallelize may run on several
  // threads (its iterations write disjoint rows or columns): the column
  // blocks, which share each row's bytes of a, when there are a few of them;
  // otherwise (a convolution with 64 filters has one) the row blocks, each
  // over all the (then small) packed weights.
  bool rowsOuter = s.blocks / s.vectors < 4 && s.rows != ShapedType::kDynamic;
  Value result;
  if (rowsOuter) {
    result = overRows(
        b, out,
        [&](OpBuilder &rb, Value m, Value o, int64_t count) {
          return overColumns(rb, o,
                             [&](OpBuilder &cb, Value block0, Value o2) {
                               return registerBlock(cb, loc, s, dot, a, w, init,
                                                    o2, m, block0, count);
                             })
              .getResult(0);
        },
        /*parallel=*/true);
  } else {
    auto blocks =
        overColumns(b, out, [&](OpBuilder &cb, Value block0, Value o) {
          return overRows(
              cb, o,
              [&](OpBuilder &rb, Value m, Value o2, int64_t count) {
                return registerBlock(rb, loc, s, dot, a, w, init, o2, m, block0,
                                     count);
              },
              /*parallel=*/false);
        });
    graphopt::markParallelLoop(blocks);
    result = blocks.getResult(0);
  }
  func::ReturnOp::create(b, loc, result);
  return fn;
}

/// AMX tile limits: 16 rows of 64 bytes; an i32 accumulator tile is 16 x 16.
constexpr int64_t kTileRows = 16;
constexpr int64_t kTileBytes = 64;
/// The AMX kernels unroll K (64-byte chunks): beyond this many chunks (K
/// of 32 KiB) the code would grow past what is worth compiling, and the
/// VNNI kernel (a loop over K) takes the product.
constexpr int64_t kMaxAMXChunks = 512;

/// 64-byte chunks of K (the last one partial).
int64_t amxChunks(const KernelShape &s) {
  return llvm::divideCeil(s.k, kTileBytes);
}

/// The weights w'[k][n] for AMX: [blocks][chunks][16][64] bytes, one
/// B tile per 16 columns and 64 k values in the layout `tdpb*d` reads
/// (row r of a chunk holds, for each of its 16 columns c, the 4 bytes
/// k = 4 r .. 4 r + 3 at bytes 4 c .. 4 c + 3); zero past K or N.
DenseElementsAttr packWeightsAMX(MLIRContext *ctx, ArrayRef<int64_t> w,
                                 const KernelShape &s) {
  int64_t chunks = amxChunks(s);
  std::vector<int8_t> packed(s.blocks * chunks * kTileRows * kTileBytes, 0);
  for (int64_t kk = 0; kk < s.k; ++kk)
    for (int64_t nn = 0; nn < s.n; ++nn) {
      int64_t b = nn / kLanes, c = nn % kLanes, ch = kk / kTileBytes,
              r = (kk % kTileBytes) / kGroup, j = kk % kGroup;
      packed[((b * chunks + ch) * kTileRows + r) * kTileBytes + c * kGroup +
             j] = int8_t(w[kk * s.n + nn]);
    }
  auto type = RankedTensorType::get({s.blocks, chunks, kTileRows, kTileBytes},
                                    IntegerType::get(ctx, 8));
  return DenseElementsAttr::get(type, ArrayRef<int8_t>(packed));
}

/// `func.func private @__graphopt_amx_permission()`: asks Linux for the
/// AMX tile state (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA));
/// without it the first tile instruction raises SIGILL. Permission is per
/// process and the request idempotent (a system call per kernel call, ~0.1
/// us): inline in the generated code, so JIT and ahead-of-time objects
/// alike need no runtime library.
func::FuncOp getOrDeclareAMXPermission(ModuleOp module) {
  constexpr llvm::StringLiteral name = "__graphopt_amx_permission";
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  auto fn = func::FuncOp::create(b, loc, name, b.getFunctionType({}, {}));
  fn.setPrivate();
  b.setInsertionPointToStart(fn.addEntryBlock());
  Type i64 = b.getI64Type();
  auto c = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v))
        .getResult();
  };
  // x86-64 Linux: arch_prctl is system call 158; ARCH_REQ_XCOMP_PERM
  // 0x1023; XFEATURE_XTILEDATA 18.
  SmallVector<Value> args{c(158), c(0x1023), c(18)};
  LLVM::InlineAsmOp::create(b, loc, i64, args, "syscall",
                            "={rax},{rax},{rdi},{rsi},~{rcx},~{r11},~{memory}",
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::TailCallKind::None,
                            /*asm_dialect=*/LLVM::AsmDialectAttr(),
                            /*operand_attrs=*/ArrayAttr());
  func::ReturnOp::create(b, loc);
  return fn;
}

/// A convolution's rows are output pixels in strips along W, a tile's
/// rows: a strip's taps are input pixels a constant stride apart, one tile
/// load. Strips of 16 (the output width padded to a multiple of 16), or
/// the whole row where it is narrower (7 x 7 outputs: 7-row tiles rather
/// than 16 with 9 wasted).
int64_t amxStripRows(int64_t outW) { return std::min(outW, kTileRows); }

/// The AMX kernel's operand and result sizes: rows to a multiple of 16
/// (rows known at run time stay as they are), K to one of 64, N to one of
/// 16; a convolution's output width to whole strips. Every tile then has
/// one shape (a's and the accumulators' tileRows rows, the weights' 16):
/// LLVM gives each of AMX's 8 tile registers one shape for a whole
/// function, so blocks with tiles of other shapes beside full ones run out
/// of registers.
struct AMXPadded {
  int64_t rows, k, n;
  int64_t outW = 0;             // convolutions: the padded output width
  int64_t tileRows = kTileRows; // rows of a's and the accumulators' tiles
};
AMXPadded amxPadded(const KernelShape &s) {
  if (s.conv) {
    const ConvGeometry &g = *s.conv;
    int64_t r = amxStripRows(g.outW);
    int64_t outW = llvm::alignTo(g.outW, r);
    return {g.images * g.outH * outW, s.k, s.blocks * kLanes, outW, r};
  }
  int64_t rows = ShapedType::isDynamic(s.rows)
                     ? s.rows
                     : int64_t(llvm::alignTo(s.rows, kTileRows));
  return {rows, int64_t(llvm::alignTo(s.k, kTileBytes)), s.blocks * kLanes};
}

/// The AMX kernel for `s`: `a: [M', K'] i8, w: packed, init: [N'] i32 ->
/// [M', N'] i32` (the padded sizes, amxPadded). Output blocks of 2 x 2
/// tiles (32 x 32: four i32 accumulator tiles, two tiles of a and two of w,
/// AMX's 8 registers), then blocks of 1 x 2, 2 x 1 and 1 x 1 tiles for an
/// odd 16 rows or columns. Per block: the accumulators loaded from the
/// column corrections (a tile load with row stride 0 repeats them on every
/// row), then each 64-byte chunk of K (unrolled: a tile is a value the
/// LLVM dialect cannot carry through a loop): two tiles of a (rows of
/// [M', K'] as they are), two of the packed weights, four `tdpb[su]sd`;
/// then four tile stores. The outer loop over column pairs is the parallel
/// one.
func::FuncOp buildAMXKernel(OpBuilder &mb, Location loc, const KernelShape &s,
                            func::FuncOp permission) {
  Type i8 = mb.getI8Type(), i32 = mb.getI32Type();
  AMXPadded p = amxPadded(s);
  int64_t chunks = amxChunks(s);
  const ConvGeometry *g = s.conv ? &*s.conv : nullptr;
  auto aType = g ? RankedTensorType::get(
                       {g->images, g->padH, g->padW, kGroup * g->channels4}, i8)
                 : RankedTensorType::get({p.rows, p.k}, i8);
  auto wType =
      RankedTensorType::get({s.blocks, chunks, kTileRows, kTileBytes}, i8);
  auto initType = RankedTensorType::get({p.n}, i32);
  auto outType =
      g ? RankedTensorType::get({g->images, g->outH, p.outW, p.n}, i32)
        : RankedTensorType::get({p.rows, p.n}, i32);
  func::FuncOp fn =
      createKernelFunction(mb, loc, s.name(), aType, wType, initType, outType);
  Block *entry = &fn.front();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  func::CallOp::create(b, loc, permission, ValueRange{});
  auto toBuffer = [&](Value t) {
    auto tt = cast<RankedTensorType>(t.getType());
    return bufferization::ToBufferOp::create(
               b, loc, MemRefType::get(tt.getShape(), tt.getElementType()), t,
               /*read_only=*/true)
        .getResult();
  };
  Value a = toBuffer(entry->getArgument(0));
  Value w = toBuffer(entry->getArgument(1));
  Value init = toBuffer(entry->getArgument(2));
  Value c0 = indexConst(b, loc, 0);
  // Rows known at run time: whole tiles of a and out as they are, the last
  // M mod 16 rows through 16-row scratch tiles (mRows: M).
  bool dynamicRows = !g && ShapedType::isDynamic(p.rows);
  Value mRows;
  SmallVector<Value> outSizes;
  if (dynamicRows) {
    mRows = memref::DimOp::create(b, loc, a, 0);
    outSizes.push_back(mRows);
  }
  Value out = memref::AllocOp::create(
      b, loc, MemRefType::get(outType.getShape(), i32), outSizes);
  // a's and the accumulators' tiles have p.tileRows rows (one shape each:
  // LLVM fixes a tile register's shape for the function).
  int64_t tr = p.tileRows;
  auto accType = amx::TileType::get({tr, kLanes}, i32);
  auto bytesType = amx::TileType::get({tr, kTileBytes}, i8);
  auto weightType = amx::TileType::get({kTileRows, kTileBytes}, i8);

  // One block: `rowTiles` tiles of rows from m0, `colTiles` of columns
  // from n0.
  auto block = [&](OpBuilder &bb, Value m0, Value n0, int64_t rowTiles,
                   int64_t colTiles, Value a, Value out) {
    // The block's addresses offset by a zero LLVM cannot see through (an
    // empty asm statement): otherwise its optimizer merges the same tile
    // loads of neighbouring blocks (the weights of the next block of rows)
    // or hoists them out of the row loop, keeping more than 8 tiles live.
    Value zero64 = arith::ConstantOp::create(bb, loc, bb.getI64Type(),
                                             bb.getI64IntegerAttr(0));
    Value opaque =
        LLVM::InlineAsmOp::create(
            bb, loc, bb.getI64Type(), ValueRange{zero64}, "", "=r,0",
            /*has_side_effects=*/true, /*is_align_stack=*/false,
            LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
            .getResult(0);
    Value offset =
        arith::IndexCastOp::create(bb, loc, bb.getIndexType(), opaque);
    m0 = arith::AddIOp::create(bb, loc, m0, offset);
    n0 = arith::AddIOp::create(bb, loc, n0, offset);
    SmallVector<Value> rows, cols, blocks;
    for (int64_t i = 0; i < rowTiles; ++i)
      rows.push_back(
          arith::AddIOp::create(bb, loc, m0, indexConst(bb, loc, tr * i)));
    // A convolution's row tile i is the strip rows[i] / tr = (image, oh,
    // ow0 / tr) of the [N, Ho, W' / tr] strips.
    SmallVector<Value> image, oh, ow0;
    if (g) {
      int64_t strips = p.outW / tr;
      for (int64_t i = 0; i < rowTiles; ++i) {
        Value t =
            arith::DivUIOp::create(bb, loc, rows[i], indexConst(bb, loc, tr));
        Value plane = indexConst(bb, loc, g->outH * strips);
        image.push_back(arith::DivUIOp::create(bb, loc, t, plane));
        Value r = arith::RemUIOp::create(bb, loc, t, plane);
        oh.push_back(
            arith::DivUIOp::create(bb, loc, r, indexConst(bb, loc, strips)));
        ow0.push_back(arith::MulIOp::create(
            bb, loc,
            arith::RemUIOp::create(bb, loc, r, indexConst(bb, loc, strips)),
            indexConst(bb, loc, tr)));
      }
    }
    // Row tile i's bytes of chunk ch: a[row, 64 ch...], or for a
    // convolution the strip's input pixels a stride of sw pixels apart, each
    // from chunk ch's first byte on: kernel row ch / runChunks, byte 64 (ch
    // mod runChunks) of its KW x C run; or, one chunk per tap, tap ch / (C /
    // 64), channels 64 (ch mod (C / 64))....
    auto loadA = [&](OpBuilder &lb, int64_t i, int64_t ch) -> Value {
      if (!g)
        return amx::TileLoadOp::create(
            lb, loc, bytesType, a,
            ValueRange{rows[i], indexConst(lb, loc, ch * kTileBytes)}, Value());
      // (kh, the chunk's first pixel along W and channel).
      int64_t cp = kGroup * g->channels4, kh, dw, c;
      if (g->runChunks) {
        kh = ch / g->runChunks;
        int64_t byte = (ch % g->runChunks) * kTileBytes;
        dw = byte / cp;
        c = byte % cp;
      } else {
        int64_t perTap = cp / kTileBytes, tap = ch / perTap;
        kh = tap / g->kernelW;
        dw = (tap % g->kernelW) * g->dilationW;
        c = (ch % perTap) * kTileBytes;
      }
      Value ih = arith::AddIOp::create(
          lb, loc,
          arith::MulIOp::create(lb, loc, oh[i],
                                indexConst(lb, loc, g->strideH)),
          indexConst(lb, loc, kh * g->dilationH));
      Value iw = arith::AddIOp::create(
          lb, loc,
          arith::MulIOp::create(lb, loc, ow0[i],
                                indexConst(lb, loc, g->strideW)),
          indexConst(lb, loc, dw));
      return amx::TileLoadOp::create(
          lb, loc, bytesType, a,
          ValueRange{image[i], ih, iw, indexConst(lb, loc, c)},
          indexConst(lb, loc, g->strideW * cp));
    };
    auto store = [&](OpBuilder &lb, int64_t i, Value col, Value tile) {
      if (!g) {
        amx::TileStoreOp::create(lb, loc, out, ValueRange{rows[i], col}, tile,
                                 Value());
        return;
      }
      amx::TileStoreOp::create(lb, loc, out,
                               ValueRange{image[i], oh[i], ow0[i], col}, tile,
                               indexConst(lb, loc, p.n));
    };
    for (int64_t j = 0; j < colTiles; ++j) {
      cols.push_back(
          arith::AddIOp::create(bb, loc, n0, indexConst(bb, loc, kLanes * j)));
      blocks.push_back(arith::DivUIOp::create(bb, loc, cols.back(),
                                              indexConst(bb, loc, kLanes)));
    }
    SmallVector<Value> acc;
    for (int64_t i = 0; i < rowTiles; ++i)
      for (int64_t j = 0; j < colTiles; ++j)
        acc.push_back(amx::TileLoadOp::create(bb, loc, accType, init,
                                              ValueRange{cols[j]},
                                              /*stride=*/c0));
    for (int64_t ch = 0; ch < chunks; ++ch) {
      Value chunk = indexConst(bb, loc, ch);
      SmallVector<Value> at, wt;
      for (int64_t i = 0; i < rowTiles; ++i)
        at.push_back(loadA(bb, i, ch));
      for (int64_t j = 0; j < colTiles; ++j)
        wt.push_back(amx::TileLoadOp::create(
            bb, loc, weightType, w, ValueRange{blocks[j], chunk, c0, c0},
            Value()));
      for (int64_t i = 0; i < rowTiles; ++i)
        for (int64_t j = 0; j < colTiles; ++j) {
          Value &c = acc[i * colTiles + j];
          c = amx::TileMulIOp::create(bb, loc, accType, at[i], wt[j], c,
                                      /*isZextLhs=*/!s.signedA,
                                      /*isZextRhs=*/false);
        }
    }
    for (int64_t i = 0; i < rowTiles; ++i)
      for (int64_t j = 0; j < colTiles; ++j)
        store(bb, i, cols[j], acc[i * colTiles + j]);
  };
  // Pieces of a padded size: `count` steps of `tiles` tiles from `first`
  // (pairs, then an odd tile).
  struct Piece {
    int64_t first, count, tiles, unit;
  };
  auto pieces = [](int64_t size, int64_t unit) {
    SmallVector<Piece> out;
    int64_t tiles = size / unit;
    if (tiles / 2)
      out.push_back({0, tiles / 2, 2, unit});
    if (tiles % 2)
      out.push_back({unit * (tiles - 1), 1, 1, unit});
    return out;
  };
  auto overPiece = [&](OpBuilder &bb, const Piece &piece,
                       llvm::function_ref<void(OpBuilder &, Value)> body) {
    if (piece.count == 1) {
      body(bb, indexConst(bb, loc, piece.first));
      return scf::ForOp();
    }
    int64_t step = piece.unit * piece.tiles;
    return scf::ForOp::create(
        bb, loc, indexConst(bb, loc, piece.first),
        indexConst(bb, loc, piece.first + piece.count * step),
        indexConst(bb, loc, step), ValueRange{},
        [&](OpBuilder &lb, Location, Value iv, ValueRange) {
          body(lb, iv);
          scf::YieldOp::create(lb, loc);
        });
  };
  SmallVector<Piece> colPieces = pieces(p.n, kLanes);
  if (!dynamicRows) {
    SmallVector<Piece> rowPieces = pieces(p.rows, tr);
    for (const Piece &cp : colPieces) {
      scf::ForOp loop = overPiece(b, cp, [&](OpBuilder &cb, Value n0) {
        for (const Piece &rp : rowPieces)
          overPiece(cb, rp, [&](OpBuilder &rb, Value m0) {
            block(rb, m0, n0, rp.tiles, cp.tiles, a, out);
          });
      });
      if (loop)
        graphopt::markParallelLoop(loop);
    }
  } else {
    // M32 and M16: M rounded down to 32 and 16 rows. Rows [M16, M) are
    // copied into a scratch tile of a, computed into a scratch tile of out
    // (the rows past M are whatever the scratch held: each output row
    // depends on its own row of a only, and they are not copied out).
    auto rem = [&](int64_t m) {
      return arith::SubIOp::create(
          b, loc, mRows,
          arith::RemUIOp::create(b, loc, mRows, indexConst(b, loc, m)));
    };
    Value m32 = rem(32), m16 = rem(16);
    Value hasSingle =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, m32, m16);
    Value hasRest =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, m16, mRows);
    Value restRows = arith::SubIOp::create(b, loc, mRows, m16);
    Value scratchA =
        memref::AllocOp::create(b, loc, MemRefType::get({kTileRows, p.k}, i8));
    Value scratchOut =
        memref::AllocOp::create(b, loc, MemRefType::get({kTileRows, p.n}, i32));
    auto rowsView = [&](OpBuilder &bb, Value m, Value row0, int64_t cols) {
      return memref::SubViewOp::create(
          bb, loc, m, ArrayRef<OpFoldResult>{row0, bb.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{restRows, bb.getIndexAttr(cols)},
          ArrayRef<OpFoldResult>{bb.getIndexAttr(1), bb.getIndexAttr(1)});
    };
    scf::IfOp::create(b, loc, hasRest, [&](OpBuilder &ib, Location) {
      memref::CopyOp::create(ib, loc, rowsView(ib, a, m16, p.k),
                             rowsView(ib, scratchA, c0, p.k));
      scf::YieldOp::create(ib, loc);
    });
    for (const Piece &cp : colPieces) {
      scf::ForOp loop = overPiece(b, cp, [&](OpBuilder &cb, Value n0) {
        scf::ForOp::create(cb, loc, c0, m32, indexConst(cb, loc, 32),
                           ValueRange{},
                           [&](OpBuilder &lb, Location, Value m0, ValueRange) {
                             block(lb, m0, n0, 2, cp.tiles, a, out);
                             scf::YieldOp::create(lb, loc);
                           });
        scf::IfOp::create(cb, loc, hasSingle, [&](OpBuilder &ib, Location) {
          block(ib, m32, n0, 1, cp.tiles, a, out);
          scf::YieldOp::create(ib, loc);
        });
        scf::IfOp::create(cb, loc, hasRest, [&](OpBuilder &ib, Location) {
          block(ib, c0, n0, 1, cp.tiles, scratchA, scratchOut);
          scf::YieldOp::create(ib, loc);
        });
      });
      if (loop)
        graphopt::markParallelLoop(loop);
    }
    scf::IfOp::create(b, loc, hasRest, [&](OpBuilder &ib, Location) {
      memref::CopyOp::create(ib, loc, rowsView(ib, scratchOut, c0, p.n),
                             rowsView(ib, out, m16, p.n));
      scf::YieldOp::create(ib, loc);
    });
  }
  Value result = bufferization::ToTensorOp::create(
      b, loc, outType, out, /*restrict=*/true, /*writable=*/true);
  func::ReturnOp::create(b, loc, result);
  return fn;
}

/// A call of the kernel for `s` (built once per shape): `a` as signless
/// bytes (uint8 has the same bits), the weights `w` ([K][N] values)
/// packed and the column corrections `init` as constants.
Value callKernel(ModuleOp module, OpBuilder &b, Location loc,
                 const KernelShape &s, Value a, ArrayRef<int64_t> w,
                 ArrayRef<int64_t> init) {
  if (s.avx2) {
    // 16-bit values of a as the kernel multiplies them: a itself (uint8)
    // or a + 128 (int8), as VNNI's sign flip.
    Type i16 = b.getI16Type();
    a = g::CastOp::create(b, loc, a, i16);
    if (s.signedA)
      a = g::AddOp::create(
          b, loc, a,
          g::ConstantOp::create(
              b, loc,
              DenseElementsAttr::get(RankedTensorType::get({}, i16),
                                     b.getIntegerAttr(i16, 128))));
  } else if (!s.signedA) {
    a = g::CastOp::create(b, loc, a, b.getI8Type());
  }
  // AMX: rows and K padded with zeros to whole tiles (zeros times the
  // packed weights' zeros past K; the padded rows are sliced off below).
  std::optional<AMXPadded> padded;
  if (s.amx) {
    padded = amxPadded(s);
    if (!s.conv && (padded->rows != s.rows || padded->k != s.k))
      a = g::PadOp::create(
          b, loc, a, ArrayRef<int64_t>{0, 0},
          ArrayRef<int64_t>{padded->rows - s.rows, padded->k - s.k},
          llvm::APFloat(0.0));
  }
  Value packed =
      g::ConstantOp::create(b, loc,
                            s.amx ? packWeightsAMX(b.getContext(), w, s)
                                  : packWeights(b.getContext(), w, s))
          .getResult();
  auto initType = RankedTensorType::get({s.blocks * kLanes}, b.getI32Type());
  SmallVector<int32_t> init32(init.begin(), init.end());
  Value initValue =
      g::ConstantOp::create(
          b, loc, DenseElementsAttr::get(initType, ArrayRef<int32_t>(init32)))
          .getResult();
  func::FuncOp kernel = module.lookupSymbol<func::FuncOp>(s.name());
  if (!kernel) {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    kernel = s.amx
                 ? buildAMXKernel(mb, loc, s, getOrDeclareAMXPermission(module))
                 : buildKernel(mb, loc, s, getOrDeclareDot(module, s.avx2));
  }
  Value result =
      func::CallOp::create(b, loc, kernel, ValueRange{a, packed, initValue})
          .getResult(0);
  if (padded && s.conv) {
    // [N, Ho, W', N'] -> [N * Ho * Wo, N] as the VNNI kernel's result.
    const ConvGeometry &g = *s.conv;
    if (padded->outW != g.outW || padded->n != s.n)
      result = g::SliceOp::create(
          b, loc,
          RankedTensorType::get({g.images, g.outH, g.outW, s.n},
                                b.getI32Type()),
          result, ArrayRef<int64_t>{0, 0, 0, 0},
          ArrayRef<int64_t>{g.images, g.outH, g.outW, s.n},
          ArrayRef<int64_t>{1, 1, 1, 1});
    return g::ReshapeOp::create(b, loc, result, ArrayRef<int64_t>{s.rows, s.n});
  }
  if (padded && (padded->rows != s.rows || padded->n != s.n))
    result = g::SliceOp::create(
        b, loc, RankedTensorType::get({s.rows, s.n}, b.getI32Type()), result,
        ArrayRef<int64_t>{0, 0}, ArrayRef<int64_t>{s.rows, s.n},
        ArrayRef<int64_t>{1, 1});
  return result;
}

struct GraphCPUQuantizedMatmulPass
    : public graphopt::impl::GraphCPUQuantizedMatmulPassBase<
          GraphCPUQuantizedMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Max pooling of dequantized values pools the integers (every target:
    // no VNNI needed).
    SmallVector<g::MaxPool2DOp> pools;
    module.walk([&](g::MaxPool2DOp op) { pools.push_back(op); });
    for (g::MaxPool2DOp op : pools)
      if (succeeded(rewritePool(op)))
        ++numRewrittenPools;
    if (!vnni && !amx && !avx2)
      return;
    SmallVector<g::MatMulOp> matmuls;
    module.walk([&](g::MatMulOp op) { matmuls.push_back(op); });
    for (g::MatMulOp op : matmuls)
      if (succeeded(rewrite(module, op)))
        ++numRewritten;
    SmallVector<g::Conv2DOp> convs;
    module.walk([&](g::Conv2DOp op) { convs.push_back(op); });
    for (g::Conv2DOp op : convs)
      if (succeeded(rewriteConv(module, op)))
        ++numRewrittenConvs;
    // The kernels' NHWC results, transposed back to NCHW, flow through
    // their epilogues (scales, bias, activation, the next QuantizeLinear)
    // into the next convolution's transpose to NHWC: moving each transpose
    // down the chain makes such pairs meet and cancel, and the others
    // move 1-byte rather than 4-byte elements.
    llvm::DenseSet<Operation *> erased;
    for (g::TransposeOp t : outputTransposes)
      if (!erased.contains(t))
        sinkTranspose(t, erased);
  }

  SmallVector<g::TransposeOp> outputTransposes;

  /// Elementwise graph ops a transpose moves across.
  static bool isElementwise(Operation *op) {
    return isa<g::CastOp, g::NegOp, g::AbsOp, g::ReluOp, g::ClampOp, g::RoundOp,
               g::FloorOp, g::CeilOp, g::SigmoidOp, g::TanhOp, g::ExpOp,
               g::AddOp, g::SubOp, g::MulOp, g::DivOp, g::MaxOp, g::MinOp>(op);
  }

  /// Moves `t` below the chain of elementwise ops that each use the
  /// previous one's result alone, whose other operands are constants
  /// (transposed to match at compile time), one-element tensors, or
  /// transposes alike (a residual add of two such chains): all the way when
  /// the chain ends in the inverse transpose (which then cancels), else to
  /// where the element type is narrowest.
  static void sinkTranspose(g::TransposeOp t,
                            llvm::DenseSet<Operation *> &erased) {
    ArrayRef<int64_t> permRef = t.getPermutation();
    SmallVector<int64_t> perm(permRef.begin(), permRef.end());
    int64_t rank = perm.size();
    SmallVector<int64_t> inverse(rank);
    for (int64_t i = 0; i < rank; ++i)
      inverse[perm[i]] = i;
    auto sameTranspose = [&](Value v) {
      auto other = v.getDefiningOp<g::TransposeOp>();
      return other && other.getPermutation() == ArrayRef<int64_t>(perm) &&
             other->hasOneUse();
    };
    // The chain, without changing anything.
    SmallVector<Operation *> chain;
    Value cur = t.getResult();
    bool cancels = false;
    while (cur.hasOneUse()) {
      Operation *user = *cur.getUsers().begin();
      if (auto next = dyn_cast<g::TransposeOp>(user)) {
        cancels = next.getPermutation() == ArrayRef<int64_t>(inverse);
        break;
      }
      if (!isElementwise(user) ||
          cast<RankedTensorType>(user->getResult(0).getType()).getRank() !=
              rank)
        break;
      bool ok = true;
      for (Value v : user->getOperands()) {
        if (v == cur)
          continue;
        auto vt = dyn_cast<RankedTensorType>(v.getType());
        ok &=
            vt && vt.hasStaticShape() && vt.getRank() <= rank &&
            (vt.getNumElements() == 1 || sameTranspose(v) || constantValue(v));
      }
      if (!ok)
        break;
      chain.push_back(user);
      cur = user->getResult(0);
    }
    // Where the transpose ends up: after chain[stop - 1].
    auto width = [](Value v) {
      return getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
    };
    size_t stop = chain.size();
    if (!cancels) {
      stop = 0;
      unsigned best = width(t.getInput());
      for (size_t i = 0; i < chain.size(); ++i)
        if (width(chain[i]->getResult(0)) <= best) {
          best = width(chain[i]->getResult(0));
          stop = i + 1;
        }
    }
    for (size_t i = 0; i < stop; ++i) {
      Operation *op = chain[i];
      OpBuilder b(op);
      Location loc = op->getLoc();
      SmallVector<Value> operands;
      SmallVector<Operation *> dead;
      for (Value v : op->getOperands()) {
        auto vt = cast<RankedTensorType>(v.getType());
        if (v == t.getResult()) {
          operands.push_back(t.getInput());
        } else if (sameTranspose(v)) {
          auto other = v.getDefiningOp<g::TransposeOp>();
          operands.push_back(other.getInput());
          dead.push_back(other);
        } else if (vt.getNumElements() == 1) {
          operands.push_back(v);
        } else {
          // Aligned to the rank (NumPy broadcasting), then permuted.
          SmallVector<int64_t> shape(rank - vt.getRank(), 1);
          shape.append(vt.getShape().begin(), vt.getShape().end());
          Value aligned = g::ReshapeOp::create(b, loc, v, shape);
          operands.push_back(g::TransposeOp::create(b, loc, aligned, inverse));
        }
      }
      auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
      SmallVector<int64_t> shape(rank);
      for (int64_t d = 0; d < rank; ++d)
        shape[perm[d]] = resultType.getDimSize(d);
      Operation *moved = b.clone(*op);
      moved->setOperands(operands);
      moved->getResult(0).setType(resultType.clone(shape));
      auto next = g::TransposeOp::create(b, loc, moved->getResult(0), perm);
      op->getResult(0).replaceAllUsesWith(next.getResult());
      op->erase();
      for (Operation *d : dead) {
        if (d->use_empty()) {
          erased.insert(d);
          d->erase();
        }
      }
      if (t->use_empty()) {
        erased.insert(t);
        t->erase();
      }
      t = next;
    }
  }

  /// Whether `param` (broadcast against an NCHW tensor) is the same along
  /// H and W: a scalar, or one value per image and/or channel.
  static bool sameAlongSpatialDims(Value param) {
    auto type = dyn_cast<RankedTensorType>(param.getType());
    return type && type.hasStaticShape() && constantAlongK(param, 4, 2) &&
           constantAlongK(param, 4, 3);
  }

  /// Whether every window of `op` holds at least one input element along
  /// `dim` (2: rows, 3: columns): a window wholly in the padding gives -inf
  /// in f32, which no integer reproduces.
  static bool windowsReachInput(g::MaxPool2DOp op, int64_t dim) {
    auto in = cast<RankedTensorType>(op.getInput().getType());
    auto out = cast<RankedTensorType>(op.getType());
    int64_t i = dim - 2;
    int64_t size = in.getDimSize(dim), k = op.getKernel()[i];
    int64_t stride = op.getStrides() ? (*op.getStrides())[i] : k;
    int64_t before = op.getPadding()[i], dilation = op.getDilations()[i];
    for (int64_t o = 0; o < out.getDimSize(dim); ++o) {
      bool reached = false;
      for (int64_t j = 0; j < k && !reached; ++j) {
        int64_t x = o * stride - before + j * dilation;
        reached = x >= 0 && x < size;
      }
      if (!reached)
        return false;
    }
    return true;
  }

  /// max_pool2d(dq(q)) -> dq(max_pool2d(q)): dequantization is increasing
  /// where every scale is positive, so the maximum of the dequantized
  /// window is the dequantized maximum of the integers. The pool then reads
  /// 1-byte elements (a vectorized integer window kernel) and its
  /// dequantization, applied to the smaller result, fuses with what follows
  /// (the next QuantizeLinear: the usual QDQ chain around a pool). Only where
  /// the scale and zero point are the same along H and W (per tensor, per
  /// channel) and every window reaches the input.
  static LogicalResult rewritePool(g::MaxPool2DOp op) {
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    std::optional<Dequant> d = matchDequant(op.getInput());
    if (!resultType || !resultType.hasStaticShape() || !d ||
        !resultType.getElementType().isF32() ||
        !cast<RankedTensorType>(d->q.getType()).hasStaticShape() ||
        !windowsReachInput(op, 2) || !windowsReachInput(op, 3) ||
        !sameAlongSpatialDims(d->scale) ||
        (d->zeroPoint && !sameAlongSpatialDims(d->zeroPoint)))
      return failure();
    DenseElementsAttr scale = constantValue(d->scale);
    if (!scale || !scale.getElementType().isF32() ||
        llvm::any_of(scale.getValues<APFloat>(), [](const APFloat &v) {
          return v.isNegative() || v.isZero() || v.isNaN();
        }))
      return failure();
    OpBuilder b(op);
    IRMapping map;
    auto pooledType = resultType.clone(getElementTypeOrSelf(d->q.getType()));
    Operation *pool = b.clone(*op);
    pool->setOperand(0, d->q);
    pool->getResult(0).setType(pooledType);
    map.map(d->q, pool->getResult(0));
    for (Operation *def : llvm::reverse(d->ops)) {
      Operation *copy = b.clone(*def, map);
      copy->getResult(0).setType(
          resultType.clone(getElementTypeOrSelf(def->getResult(0).getType())));
    }
    op.getResult().replaceAllUsesWith(map.lookup(op.getInput()));
    op.erase();
    return success();
  }

  /// A's zero point as one integer (0 without one); nullopt when it is not
  /// a constant or not the same for every element.
  static std::optional<int64_t> zeroPoint(const Dequant &d) {
    if (!d.zeroPoint)
      return 0;
    DenseElementsAttr attr = constantValue(d.zeroPoint);
    if (!attr)
      return std::nullopt;
    SmallVector<int64_t> zv = integerValues(attr);
    if (zv.empty() || llvm::any_of(zv, [&](int64_t z) { return z != zv[0]; }))
      return std::nullopt;
    return zv[0];
  }

  /// conv2d(dq(x), dq(w)) (groups 1, x NCHW with one scale and zero point,
  /// w constant with a scale per tensor or per output channel) as an
  /// implicit-GEMM integer kernel over the zero-point-padded NHWC input:
  /// rows are output pixels, columns filters, k (kh, kw, channel).
  LogicalResult rewriteConv(ModuleOp module, g::Conv2DOp op) {
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    if (!resultType || !resultType.getElementType().isF32() ||
        !resultType.hasStaticShape() || op.getGroups() != 1)
      return failure();
    std::optional<Dequant> a = matchDequant(op.getInput());
    std::optional<Dequant> w = matchDequant(op.getWeight());
    if (!a || !w)
      return failure();
    auto xType = dyn_cast<RankedTensorType>(a->q.getType());
    auto wType = dyn_cast<RankedTensorType>(op.getWeight().getType());
    if (!xType || !xType.hasStaticShape() || xType.getRank() != 4 ||
        xType.getShape() !=
            cast<RankedTensorType>(op.getInput().getType()).getShape() ||
        !wType || !wType.hasStaticShape())
      return failure();
    // One scale for x; w's per tensor or per output channel.
    auto aScale = dyn_cast<RankedTensorType>(a->scale.getType());
    auto wScale = dyn_cast<RankedTensorType>(w->scale.getType());
    if (!aScale || aScale.getNumElements() != 1 || !wScale ||
        !constantAlongK(w->scale, 4, 1) || !constantAlongK(w->scale, 4, 2) ||
        !constantAlongK(w->scale, 4, 3))
      return failure();
    std::optional<int64_t> za = zeroPoint(*a);
    if (!za)
      return failure();

    int64_t images = xType.getDimSize(0), channels = xType.getDimSize(1),
            height = xType.getDimSize(2), width = xType.getDimSize(3);
    int64_t filters = wType.getDimSize(0), kh = wType.getDimSize(2),
            kw = wType.getDimSize(3);
    if (wType.getDimSize(1) != channels)
      return failure();
    DenseElementsAttr wAttr = constantValue(w->integer);
    if (!wAttr ||
        cast<ShapedType>(wAttr.getType()).getShape() != wType.getShape())
      return failure();
    SmallVector<int64_t> wv = integerValues(wAttr);
    if (llvm::any_of(wv, [](int64_t x) { return x < -128 || x > 127; }))
      return failure();
    bool signedA = !getElementTypeOrSelf(a->q.getType()).isUnsignedInteger();
    ArrayRef<int64_t> pad = op.getPadding(), strides = op.getStrides(),
                      dil = op.getDilations();
    // Channels padded to whole 4-byte groups.
    int64_t cp = llvm::alignTo(channels, kGroup);
    // AMX tiles where a kernel row's taps are consecutive bytes (dilation
    // 1 along W: read as runChunks 64-byte chunks) or the channels whole
    // 64-byte tile rows (a chunk per tap), and K is at most kMaxAMXChunks
    // chunks; VNNI registers otherwise.
    int64_t runChunks = dil[1] == 1 ? llvm::divideCeil(kw * cp, kTileBytes) : 0;
    int64_t amxChunkCount =
        runChunks ? kh * runChunks : kh * kw * channels / kTileBytes;
    bool useAMX = amx && (runChunks || channels % kTileBytes == 0) &&
                  amxChunkCount <= kMaxAMXChunks;
    if (!useAMX && !vnni && !avx2)
      return failure();
    // The VNNI kernel multiplies x as unsigned bytes: x itself (uint8) or
    // x + 128 (int8, sign bits flipped); AMX x as it is. x - za is that
    // minus `offset`.
    int64_t offset = *za + (signedA && !useAMX ? 128 : 0);
    int64_t taps = channels * kh * kw;
    if ((255 * 128 + std::abs(offset) * 128) * taps >= (int64_t(1) << 31))
      return failure();

    ConvGeometry geo;
    geo.images = images;
    geo.outH = resultType.getDimSize(2);
    geo.outW = resultType.getDimSize(3);
    geo.kernelH = kh;
    geo.kernelW = kw;
    geo.channels4 = cp / kGroup;
    geo.padH = height + pad[0] + pad[2];
    geo.padW = width + pad[1] + pad[3];
    geo.strideH = strides[0];
    geo.strideW = strides[1];
    geo.dilationH = dil[0];
    geo.dilationW = dil[1];
    // AMX computes whole strips of output pixels along W (amxStripRows):
    // the input's right padding widened so the last strip's reads stay
    // inside.
    int64_t extraW = 0;
    if (useAMX) {
      int64_t outW = llvm::alignTo(geo.outW, amxStripRows(geo.outW));
      geo.runChunks = runChunks;
      // The pixels a strip's last row reads along W.
      int64_t reach = runChunks ? llvm::divideCeil(runChunks * kTileBytes, cp)
                                : (kw - 1) * geo.dilationW + 1;
      extraW =
          std::max<int64_t>(0, (outW - 1) * geo.strideW + reach - geo.padW);
      geo.padW += extraW;
    }
    // k: (kh, kw, channel), or with AMX chunks (kh, byte of the kernel
    // row's KW * C run, zero-padded to whole chunks).
    int64_t rowK = geo.runChunks ? geo.runChunks * kTileBytes : kw * cp;
    KernelShape s = chooseShape(images * geo.outH * geo.outW, kh * rowK,
                                filters, signedA, !useAMX && !vnni);
    s.conv = geo;
    s.amx = useAMX;

    // w'[k][f] with k = (kh, kw, channel), channels padded with zeros.
    SmallVector<int64_t> wk(s.k * filters, 0);
    SmallVector<int64_t> init(s.blocks * kLanes, 0);
    for (int64_t f = 0; f < filters; ++f)
      for (int64_t c = 0; c < channels; ++c)
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t j = 0; j < kw; ++j) {
            int64_t v = wv[((f * channels + c) * kh + i) * kw + j];
            wk[(i * rowK + j * cp + c) * filters + f] = v;
            init[f] -= offset * v;
          }

    OpBuilder b(op);
    Location loc = op.getLoc();
    // x: zero-point padded (the padding is 0.0 after dequantization), NHWC,
    // channels padded to a multiple of 4, as signless bytes.
    // (Transposed first: the padding then copies whole NHWC rows; the
    // padded channels, whose weights are 0, get the zero point too.)
    Value x =
        g::TransposeOp::create(b, loc, a->q, ArrayRef<int64_t>{0, 2, 3, 1});
    if (llvm::any_of(pad, [](int64_t p) { return p != 0; }) || cp != channels ||
        extraW)
      x = g::PadOp::create(
          b, loc, x, ArrayRef<int64_t>{0, pad[0], pad[1], 0},
          ArrayRef<int64_t>{0, pad[2], pad[3] + extraW, cp - channels},
          llvm::APFloat(double(*za)));
    Value acc = callKernel(module, b, loc, s, x, wk, init);
    acc = g::ReshapeOp::create(
        b, loc, acc, ArrayRef<int64_t>{images, geo.outH, geo.outW, filters});
    auto back =
        g::TransposeOp::create(b, loc, acc, ArrayRef<int64_t>{0, 3, 1, 2});
    outputTransposes.push_back(back);
    acc = back;
    Value y = g::CastOp::create(b, loc, acc, b.getF32Type());
    y = g::MulOp::create(
        b, loc, y, g::ReshapeOp::create(b, loc, a->scale, ArrayRef<int64_t>{}));
    Value perChannel = g::ReshapeOp::create(
        b, loc, w->scale,
        wScale.getNumElements() == 1 ? ArrayRef<int64_t>{}
                                     : ArrayRef<int64_t>{filters, 1, 1});
    y = g::MulOp::create(b, loc, y, perChannel);
    if (Value bias = op.getBias())
      y = g::AddOp::create(
          b, loc, y,
          g::ReshapeOp::create(b, loc, bias, ArrayRef<int64_t>{filters, 1, 1}));
    if (y.getType() != op.getType())
      return failure();
    op.replaceAllUsesWith(y);
    op.erase();
    return success();
  }

  LogicalResult rewrite(ModuleOp module, g::MatMulOp op) {
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    auto lhsType = dyn_cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = dyn_cast<RankedTensorType>(op.getRhs().getType());
    if (!resultType || !resultType.getElementType().isF32() || !lhsType ||
        !rhsType || lhsType.getRank() < 2 || rhsType.getRank() != 2 ||
        !rhsType.hasStaticShape())
      return failure();
    int64_t rank = lhsType.getRank();
    int64_t k = rhsType.getDimSize(0), n = rhsType.getDimSize(1);
    if (lhsType.getDimSize(rank - 1) != k || k < kGroup)
      return failure();
    // At most one dynamic dim among the rows (it becomes the kernel's M).
    int64_t rows = 1, dynamic = 0;
    for (int64_t d = 0; d + 1 < rank; ++d) {
      if (lhsType.isDynamicDim(d))
        ++dynamic;
      else
        rows *= lhsType.getDimSize(d);
    }
    if (dynamic > 1)
      return failure();

    std::optional<Dequant> a = matchDequant(op.getLhs());
    // The weights as [K, N], or as [N, K] transposed (ONNX Gemm's transB).
    Value rhs = op.getRhs();
    bool transposed = false;
    if (auto t = rhs.getDefiningOp<g::TransposeOp>()) {
      if (t.getPermutation() == ArrayRef<int64_t>{1, 0}) {
        rhs = t.getInput();
        transposed = true;
      }
    }
    std::optional<Dequant> w = matchDequant(rhs);
    if (!a || !w ||
        a->q.getType() !=
            RankedTensorType::get(lhsType.getShape(),
                                  getElementTypeOrSelf(a->q.getType())))
      return failure();
    if (!constantAlongK(a->scale, rank, rank - 1) ||
        !constantAlongK(w->scale, 2, transposed ? 1 : 0))
      return failure();
    // The weights' scale as it broadcasts against [K, N].
    Value wScale = w->scale;
    if (transposed) {
      auto st = cast<RankedTensorType>(wScale.getType());
      if (st.getNumElements() != 1 && st.getNumElements() != n)
        return failure();
    }

    // w' = w - zw, known at compile time, in a signed byte.
    DenseElementsAttr wAttr = constantValue(w->integer);
    int64_t rowsW = transposed ? n : k, colsW = transposed ? k : n;
    if (!wAttr ||
        wAttr.getType() !=
            RankedTensorType::get({rowsW, colsW}, wAttr.getElementType()))
      return failure();
    SmallVector<int64_t> wv = integerValues(wAttr);
    if (transposed) {
      SmallVector<int64_t> t(wv.size());
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < k; ++j)
          t[j * n + i] = wv[i * k + j];
      wv = std::move(t);
    }
    for (int64_t x : wv)
      if (x < -128 || x > 127)
        return failure();
    std::optional<int64_t> za = zeroPoint(*a);
    if (!za)
      return failure();
    bool signedA = !getElementTypeOrSelf(a->q.getType()).isUnsignedInteger();
    // AMX tiles where K is whole 4-byte groups (a tile row is read whole)
    // and at most kMaxAMXChunks chunks, and, with rows known at run time
    // only, N whole 16-column tiles (the result is not sliced); VNNI
    // registers otherwise.
    bool useAMX = amx && k % kGroup == 0 &&
                  int64_t(llvm::divideCeil(k, kTileBytes)) <= kMaxAMXChunks &&
                  (!dynamic || n % kLanes == 0);
    if (!useAMX && !vnni && !avx2)
      return failure();
    // The i32 sums stay exact: |sum| <= K * 255 * 128 plus the correction.
    // As for convolutions: a - za is the kernel's bytes minus `offset`
    // (VNNI multiplies a signed a as a + 128; AMX as it is).
    int64_t offset = *za + (signedA && !useAMX ? 128 : 0);
    if ((255 * 128 + std::abs(offset) * 128) * k >= (int64_t(1) << 31))
      return failure();

    KernelShape s = chooseShape(dynamic ? ShapedType::kDynamic : rows, k, n,
                                signedA, !useAMX && !vnni);
    s.amx = useAMX;
    SmallVector<int64_t> init(s.blocks * kLanes, 0);
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t nn = 0; nn < n; ++nn)
        init[nn] -= offset * wv[kk * n + nn];

    OpBuilder b(op);
    Location loc = op.getLoc();
    Value q = a->q;
    if (rank != 2)
      q = g::ReshapeOp::create(b, loc, q,
                               ArrayRef<int64_t>{dynamic ? -1 : rows, k});
    Value acc = callKernel(module, b, loc, s, q, wv, init);
    if (rank != 2) {
      SmallVector<int64_t> shape(resultType.getShape());
      for (int64_t &d : shape)
        if (ShapedType::isDynamic(d))
          d = -1;
      acc = g::ReshapeOp::create(b, loc, acc, shape);
    }
    Value y = g::CastOp::create(b, loc, acc, b.getF32Type());
    y = g::MulOp::create(b, loc, y, a->scale);
    if (transposed) {
      auto st = cast<RankedTensorType>(wScale.getType());
      wScale = g::ReshapeOp::create(
          b, loc, wScale, ArrayRef<int64_t>{st.getNumElements() == 1 ? 1 : n});
    }
    y = g::MulOp::create(b, loc, y, wScale);
    if (y.getType() != op.getType()) {
      // Not expected (the scales broadcast within the result's shape);
      // leave the f32 product.
      y.getDefiningOp()->emitRemark("graph-cpu-quantized-matmul: scaled "
                                    "product has type ")
          << y.getType() << ", not " << op.getType();
      return failure();
    }
    op.replaceAllUsesWith(y);
    op.erase();
    return success();
  }
};

} // namespace
