//===- GPUMatmul.cpp - graph-gpu-matmul -----------------------------------===//
//
// Both kernels share one structure (a block computes a BM x BN tile of C;
// the K loop walks BK-wide tiles):
//
//   acc = C tile                          (C += A * B: linalg semantics)
//   regs = global tile 0; shared[0] = regs; barrier
//   for kt in [0, K / BK):
//     regs = global tile min(kt + 1, last)   (issued before the math)
//     acc += shared[kt % 2] products
//     shared[(kt + 1) % 2] = regs; barrier
//   C tile = acc
//
// One barrier per K step suffices with two buffers: the buffer written in
// step kt was last read in step kt - 1, which ended with a barrier. The last
// step reloads the last tile into the idle buffer rather than branching.
// On sm_80 and later the tensor-core kernels instead fill 3 (or more)
// shared stages with asynchronous copies issued stages - 1 steps ahead
// (kLoopAsync), so no registers carry tiles.
//
// After the K loop, an elementwise epilogue (bias, activation, rounding to
// f16/bf16; matchGPUEpilogue) may be applied before the one store: the
// SIMT kernel in registers, the tensor-core kernel on its fragments staged
// through shared memory.
//
// Shared tiles keep the global layout of their operand: a row of the tile
// is a contiguous run of global memory, so every thread copies whole 16-byte
// vectors. Rows are padded by 16 bytes against bank conflicts. The WMMA
// kernel reads transposed operands with column-major WMMA loads, the
// mma.sync kernel with transposing ldmatrix; the SIMT kernel wants A and B
// k-major and transposes A (or B^T) while storing it.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/GPUMatmul.h"
#include "graphopt/Codegen/Passes.h"

#include "GPUUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUMATMULPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;
using namespace mlir::graphopt;

static LogicalResult fail(std::string *why, const Twine &msg) {
  if (why)
    *why = msg.str();
  return failure();
}

FailureOr<GPUContraction>
mlir::graphopt::matchGPUContraction(linalg::LinalgOp op, std::string *why) {
  if (!op.hasPureBufferSemantics())
    return fail(why, "not on memrefs");
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return fail(why, "not two inputs and one output");
  if (!linalg::isaContractionOpInterface(op))
    return fail(why, "not a multiply-add contraction");
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return fail(why, "not one M, N and K dimension and at most one batch");

  GPUContraction c;
  c.lhs = op.getDpsInputOperand(0)->get();
  c.rhs = op.getDpsInputOperand(1)->get();
  c.acc = op.getDpsInitOperand(0)->get();
  for (Value v : {c.lhs, c.rhs, c.acc}) {
    auto t = dyn_cast<MemRefType>(v.getType());
    if (!t || !t.hasStaticShape() || !t.getLayout().isIdentity() ||
        t.getMemorySpace())
      return fail(why, "operand is not a static identity-layout memref");
  }
  Type lt = cast<MemRefType>(c.lhs.getType()).getElementType();
  Type rt = cast<MemRefType>(c.rhs.getType()).getElementType();
  Type ot = cast<MemRefType>(c.acc.getType()).getElementType();
  if (lt != rt || !(lt.isF16() || lt.isBF16() || lt.isF32()) || !ot.isF32())
    return fail(why, "element types are not f16/bf16/f32 inputs, f32 output");

  // The body must be exactly acc + ext?(a) * ext?(b), computed in f32: the
  // kernels compute that and nothing else. (isaContractionOpInterface also
  // accepts unary ops around each operand, e.g. exp(a) * b, which the
  // kernels would drop.)
  Block &body = op->getRegion(0).front();
  Value sum = body.getTerminator()->getOperand(0);
  auto add = sum.getDefiningOp<arith::AddFOp>();
  BlockArgument a0 = body.getArgument(0), a1 = body.getArgument(1),
                accArg = body.getArgument(2);
  Value product;
  if (add && add.getLhs() == accArg)
    product = add.getRhs();
  else if (add && add.getRhs() == accArg)
    product = add.getLhs();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul || !mul.getType().isF32())
    return fail(why, "the body is not acc + a * b in f32");
  unsigned extensions = 0;
  auto operandOf = [&](Value v) -> Value {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>()) {
      ++extensions;
      return ext.getIn();
    }
    return v;
  };
  Value x = operandOf(mul.getLhs()), y = operandOf(mul.getRhs());
  if (!((x == a0 && y == a1) || (x == a1 && y == a0)) ||
      body.getOperations().size() != 3 + extensions)
    return fail(why, "the body is not acc + a * b (with only extensions of "
                     "the inputs)");

  // Maps: results must be [b?, m, k] or [b?, k, m] for A, [b?, k, n] or
  // [b?, n, k] for B and exactly [b?, m, n] for C.
  auto dimsOf = [](AffineMap map) -> std::optional<SmallVector<unsigned>> {
    SmallVector<unsigned> r;
    for (AffineExpr e : map.getResults()) {
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d)
        return std::nullopt;
      r.push_back(d.getPosition());
    }
    return r;
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  SmallVector<unsigned> prefix;
  if (!dims->batch.empty())
    prefix.push_back(dims->batch[0]);
  auto is = [&](std::optional<SmallVector<unsigned>> got, unsigned x,
                unsigned y) {
    SmallVector<unsigned> want(prefix);
    want.append({x, y});
    return got && *got == want;
  };
  auto a = dimsOf(maps[0]), bm = dimsOf(maps[1]), o = dimsOf(maps[2]);
  if (!is(o, m, n))
    return fail(why, "output map is not [b?, m, n]");
  if (is(a, k, m))
    c.transposeLhs = true;
  else if (!is(a, m, k))
    return fail(why, "lhs map is not [b?, m, k] or [b?, k, m]");
  if (is(bm, n, k))
    c.transposeRhs = true;
  else if (!is(bm, k, n))
    return fail(why, "rhs map is not [b?, k, n] or [b?, n, k]");

  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  c.m = ranges[m];
  c.n = ranges[n];
  c.k = ranges[k];
  c.batch = dims->batch.empty() ? 0 : ranges[dims->batch[0]];
  // Nothing to compute (and a zero-size grid is not a valid launch): the
  // default lowering's empty loops handle it.
  if (c.m == 0 || c.n == 0 || c.k == 0 ||
      (!dims->batch.empty() && c.batch == 0))
    return fail(why, "a zero-size dimension");
  return c;
}

/// The buffer `v` views (through view-like ops).
static Value viewedBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

LogicalResult mlir::graphopt::matchGPUEpilogue(linalg::LinalgOp op,
                                               GPUContraction &c,
                                               std::string *why) {
  linalg::GenericOp epi;
  for (Operation *user : c.acc.getUsers()) {
    auto g = dyn_cast<linalg::GenericOp>(user);
    if (g && g != op.getOperation() && g->getBlock() == op->getBlock() &&
        op->isBeforeInBlock(g) && (!epi || g->isBeforeInBlock(epi)))
      epi = g;
  }
  if (!epi)
    return fail(why, "no linalg.generic reads C after the contraction");
  for (Operation *it = op->getNextNode(); it != epi.getOperation();
       it = it->getNextNode())
    if (!isa<memref::AllocOp>(it) && !isMemoryEffectFree(it))
      return fail(why, "an op with effects lies between the contraction "
                       "and the elementwise op");
  auto cType = cast<MemRefType>(c.acc.getType());
  if (!epi.hasPureBufferSemantics() || epi.getNumDpsInits() != 1 ||
      epi.getNumLoops() != static_cast<unsigned>(cType.getRank()) ||
      epi.getNumParallelLoops() != epi.getNumLoops())
    return fail(why, "the op after the contraction is not elementwise over "
                     "C with one output");
  OpOperand *outOperand = epi.getDpsInitOperand(0);
  Value out = outOperand->get();
  auto outType = dyn_cast<MemRefType>(out.getType());
  if (!outType || outType.getShape() != cType.getShape() ||
      !outType.getLayout().isIdentity() || outType.getMemorySpace() ||
      !isa<FloatType>(outType.getElementType()) ||
      !epi.getMatchingIndexingMap(outOperand).isIdentity())
    return fail(why, "the elementwise op's output is not a float buffer of "
                     "C's shape written in order");
  if (out != c.acc && (!out.getDefiningOp<memref::AllocOp>() ||
                       !c.acc.getDefiningOp<memref::AllocOp>()))
    return fail(why, "the elementwise op writes neither C nor a fresh "
                     "buffer, or C is not a local buffer");
  // The kernel's blocks store the epilogue's results while other blocks
  // still read A and B: its output must be neither (a buffer reused for
  // the next layer's input is common after bufferization).
  if (viewedBuffer(out) == viewedBuffer(c.lhs) ||
      viewedBuffer(out) == viewedBuffer(c.rhs))
    return fail(why, "the elementwise op writes the contraction's A or B");
  bool readsC = false;
  for (OpOperand *in : epi.getDpsInputOperands()) {
    AffineMap map = epi.getMatchingIndexingMap(in);
    if (in->get() == c.acc) {
      if (readsC || !map.isIdentity())
        return fail(why, "the elementwise op reads C other than once, in "
                         "order");
      readsC = true;
      continue;
    }
    if (in->get() == out && !map.isIdentity())
      return fail(why, "the elementwise op reads its output other than in "
                       "order");
    auto t = dyn_cast<MemRefType>(in->get().getType());
    if (!t || !t.getLayout().isIdentity() || t.getMemorySpace() ||
        !llvm::all_of(map.getResults(), [](AffineExpr e) {
          return isa<AffineDimExpr, AffineConstantExpr>(e);
        }))
      return fail(why, "an input of the elementwise op is not an identity-"
                       "layout buffer read with dims and constants");
  }
  for (Operation &bodyOp : epi.getBody()->without_terminator())
    if (bodyOp.getNumRegions() || isa<linalg::IndexOp>(bodyOp) ||
        !isMemoryEffectFree(&bodyOp))
      return fail(why, "the elementwise op's body is not pure scalar code");
  for (Operation *user : c.acc.getUsers()) {
    if (user == op.getOperation() || user == epi.getOperation() || out == c.acc)
      continue;
    if (user->getBlock() == op->getBlock() && user->isBeforeInBlock(op))
      continue;
    if (!isa<memref::DeallocOp>(user))
      return fail(why, "C is used after the elementwise op");
  }
  c.epilogue = epi;
  return success();
}

namespace {

/// Indices into a (possibly batched) memref.
SmallVector<Value> at(Value batch, Value r, Value col) {
  if (batch)
    return {batch, r, col};
  return {r, col};
}

/// The epilogue's body applied to accumulator `v` of C at `ivs` ([batch?,
/// row, col]), its other inputs loaded at their maps' indices.
Value applyEpilogue(Idx &x, const GPUContraction &c, Value v,
                    ArrayRef<Value> ivs) {
  auto epi = cast<linalg::GenericOp>(c.epilogue);
  Block *body = epi.getBody();
  IRMapping map;
  for (OpOperand &operand : epi->getOpOperands()) {
    BlockArgument arg = body->getArgument(operand.getOperandNumber());
    if (arg.use_empty())
      continue;
    // C as an input, or as the output (its value: the product).
    if (operand.get() == c.acc) {
      map.map(arg, v);
      continue;
    }
    SmallVector<Value> idx;
    for (AffineExpr e : epi.getMatchingIndexingMap(&operand).getResults())
      idx.push_back(isa<AffineDimExpr>(e)
                        ? ivs[cast<AffineDimExpr>(e).getPosition()]
                        : x.c(cast<AffineConstantExpr>(e).getValue()));
    map.map(arg, memref::LoadOp::create(x.b, x.loc, operand.get(), idx));
  }
  for (Operation &op : body->without_terminator())
    x.b.clone(op, map);
  return map.lookupOrDefault(body->getTerminator()->getOperand(0));
}

/// The buffer the kernel's results go to: C, or the epilogue's output.
Value kernelOutput(const GPUContraction &c) {
  return c.epilogue
             ? cast<linalg::GenericOp>(c.epilogue).getDpsInitOperand(0)->get()
             : c.acc;
}

/// Stores the n accumulators `acc` (vector<n x f32>) of C[batch?, row, col
/// .. col + n - 1]: into C, or with `c.epilogue` each through the
/// epilogue's body into its output; one vector store either way (col is a
/// multiple of n). Nothing for a row at or past `c.rowsOut` (when set).
void storeResults(Idx &x, const GPUContraction &c, Value acc, Value batch,
                  Value row, Value col) {
  OpBuilder::InsertionGuard guard(x.b);
  if (c.rowsOut > 0) {
    auto inside = scf::IfOp::create(
        x.b, x.loc,
        arith::CmpIOp::create(x.b, x.loc, arith::CmpIPredicate::ult, row,
                              x.c(c.rowsOut)),
        /*withElseRegion=*/false);
    x.b.setInsertionPointToStart(inside.thenBlock());
  }
  int64_t n = cast<VectorType>(acc.getType()).getNumElements();
  Value out = kernelOutput(c);
  Type et = cast<MemRefType>(out.getType()).getElementType();
  Value vec = acc;
  if (c.epilogue) {
    SmallVector<Value> results;
    for (int64_t j = 0; j < n; ++j)
      results.push_back(
          applyEpilogue(x, c, vector::ExtractOp::create(x.b, x.loc, acc, j),
                        at(batch, row, x.add(col, j))));
    vec = vector::FromElementsOp::create(x.b, x.loc, VectorType::get({n}, et),
                                         results);
  }
  vector::StoreOp::create(x.b, x.loc, vec, out, at(batch, row, col),
                          /*nontemporal=*/false,
                          llvm::MaybeAlign(n * et.getIntOrFloatBitWidth() / 8));
}

/// Cooperative copy of a rows x cols tile of a global memref (cols
/// contiguous) into one stage of a double-buffered shared tile. Each of the
/// `threads` threads moves `rows * cols / threads` elements as vectors of
/// `vec`. With `transpose`, the shared tile is [stage][cols][rows]. With
/// `rowLimit` > 0, global rows at or past it read row rowLimit - 1 instead.
struct TileCopy {
  Value global, shared;
  int64_t rows, cols, threads, vec;
  bool transpose;
  int64_t rowLimit = 0;
  /// The wgmma kernel's 128-byte-swizzled layout (16-bit elements, copies
  /// of 16 bytes): rows of 64 elements (128 bytes), 16-byte chunk c of row
  /// r at chunk c ^ (r % 8); a tile wider than 64 kept as blocks of 64
  /// columns, [stage][col / 64][row][col % 64 swizzled].
  bool swizzle128 = false;

  TileCopy(Value global, Value shared, int64_t rows, int64_t cols,
           int64_t threads, bool transpose)
      : global(global), shared(shared), rows(rows), cols(cols),
        threads(threads), transpose(transpose) {
    vec = vectorWidth(rows, cols, threads,
                      cast<MemRefType>(global.getType()).getElementType());
  }
  /// Elements per copy: 16 bytes, halved until the tile's rows and the
  /// threads divide evenly.
  static int64_t vectorWidth(int64_t rows, int64_t cols, int64_t threads,
                             Type et) {
    int64_t vec = 16 / (et.getIntOrFloatBitWidth() / 8);
    while (vec > 1 && (cols % vec || (rows * cols / vec) % threads))
      vec /= 2;
    return vec;
  }
  static bool fits(int64_t rows, int64_t cols, int64_t threads) {
    return (rows * cols) % threads == 0;
  }
  int64_t steps() const { return rows * cols / vec / threads; }
  /// Row and column of this thread's `i`-th vector in the tile.
  std::pair<Value, Value> place(Idx &x, Value tid, int64_t i) const {
    Value flat = x.add(tid, i * threads);
    return {x.div(flat, cols / vec), x.mul(x.rem(flat, cols / vec), vec)};
  }
  /// Where the vector at tile (r, col) goes in shared `stage`.
  SmallVector<Value> sharedIndices(Idx &x, Value stage, Value r,
                                   Value col) const {
    if (!swizzle128)
      return {stage, r, col};
    Value chunk = x.div(x.rem(col, 64), 8);
    Value swizzled = x.mul(
        arith::XOrIOp::create(x.b, x.loc, chunk, x.rem(r, 8)).getResult(), 8);
    if (cols == 64)
      return {stage, r, swizzled};
    return {stage, x.div(col, 64), r, swizzled};
  }
  /// The global row of tile row `r` from `r0` (clamped by rowLimit).
  Value globalRow(Idx &x, Value r0, Value r) const {
    Value row = x.add(r0, r);
    if (rowLimit <= 0)
      return row;
    return arith::MinUIOp::create(x.b, x.loc, row, x.c(rowLimit - 1));
  }
  SmallVector<Value> load(Idx &x, Value tid, Value batch, Value r0,
                          Value c0) const {
    auto gt = cast<MemRefType>(global.getType());
    auto vt = VectorType::get({vec}, gt.getElementType());
    int64_t bytes = vec * gt.getElementTypeBitWidth() / 8;
    SmallVector<Value> regs;
    for (int64_t i = 0; i < steps(); ++i) {
      auto [r, col] = place(x, tid, i);
      regs.push_back(vector::LoadOp::create(
          x.b, x.loc, vt, global,
          at(batch, globalRow(x, r0, r), x.add(c0, col)),
          /*nontemporal=*/false, llvm::MaybeAlign(bytes)));
    }
    return regs;
  }
  /// Asynchronous copies (`cp.async`, sm_80+) of this thread's vectors of
  /// the global tile at (r0, c0) into shared `stage`, without transposing;
  /// returns their tokens.
  SmallVector<Value> copyAsync(Idx &x, Value tid, Value batch, Value r0,
                               Value c0, Value stage) const {
    int64_t bytes =
        vec * cast<MemRefType>(global.getType()).getElementTypeBitWidth() / 8;
    SmallVector<Value> tokens;
    for (int64_t i = 0; i < steps(); ++i) {
      auto [r, col] = place(x, tid, i);
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          x.b, x.loc, shared, sharedIndices(x, stage, r, col), global,
          at(batch, globalRow(x, r0, r), x.add(c0, col)), x.b.getIndexAttr(vec),
          /*srcElements=*/Value(),
          // 16-byte copies may bypass L1 (`cp.async.cg`).
          bytes == 16 ? x.b.getUnitAttr() : UnitAttr()));
    }
    return tokens;
  }
  void store(Idx &x, Value tid, ArrayRef<Value> regs, Value stage) const {
    Type st = cast<MemRefType>(shared.getType()).getElementType();
    for (int64_t i = 0; i < steps(); ++i) {
      auto [r, col] = place(x, tid, i);
      Value v = regs[i];
      auto vt = cast<VectorType>(v.getType());
      if (vt.getElementType() != st)
        v = arith::ExtFOp::create(x.b, x.loc, VectorType::get({vec}, st), v);
      if (!transpose) {
        int64_t bytes =
            std::min<int64_t>(16, vec * st.getIntOrFloatBitWidth() / 8);
        vector::StoreOp::create(x.b, x.loc, v, shared,
                                ValueRange{stage, r, col},
                                /*nontemporal=*/false, llvm::MaybeAlign(bytes));
        continue;
      }
      for (int64_t j = 0; j < vec; ++j) {
        Value e = vector::ExtractOp::create(x.b, x.loc, v, j);
        memref::StoreOp::create(x.b, x.loc, e, shared,
                                ValueRange{stage, x.add(col, j), r});
      }
    }
  }
};

/// Padding of a shared tile row, in elements: 16 bytes.
int64_t pad16(Type t) { return 16 / (t.getIntOrFloatBitWidth() / 8); }

MemRefType sharedType(int64_t rows, int64_t cols, Type et, int64_t stages = 2,
                      int64_t pad = 0) {
  auto ws =
      gpu::AddressSpaceAttr::get(et.getContext(), gpu::AddressSpace::Workgroup);
  return MemRefType::get({stages, rows, cols + (pad ? pad : pad16(et))}, et,
                         MemRefLayoutAttrInterface{}, ws);
}

/// Bytes of shared memory a kernel may use without opting in to more.
constexpr int64_t kMaxSharedBytes = 48 * 1024;

int64_t bytesOf(MemRefType t) {
  return t.getNumElements() * t.getElementTypeBitWidth() / 8;
}

/// The parameters of one kernel instance.
struct Config {
  int64_t bm, bn, bk, wm, wn; // wm x wn: warp tile or thread register tile
  int64_t threads;
  /// Shared-memory stages of the A and B tiles; with `async`, filled by
  /// cp.async (kLoopAsync), else 2 filled through registers (kLoop).
  int64_t stages = 2;
  bool async = false;
  /// The wgmma kernel's tiles copied by TMA (else cp.async).
  bool tma = false;
};

/// Shared tiles of the tensor-core kernels, of the input type in the global
/// layout of their operand: A [bm][bk] or [bk][bm], B [bk][bn] or [bn][bk].
/// k-major f32 tiles (TF32, read element by element: lane 4 g + t reads
/// row t, column g) pad rows by 32 bytes, so the 8 words of a row and the
/// 4 rows fall in 32 distinct banks.
std::pair<MemRefType, MemRefType> tensorCoreShared(const GPUContraction &c,
                                                   const Config &cfg, Type et) {
  int64_t kMajorPad = et.isF32() ? 8 : 0;
  return {c.transposeLhs ? sharedType(cfg.bk, cfg.bm, et, cfg.stages, kMajorPad)
                         : sharedType(cfg.bm, cfg.bk, et, cfg.stages),
          c.transposeRhs
              ? sharedType(cfg.bn, cfg.bk, et, cfg.stages)
              : sharedType(cfg.bk, cfg.bn, et, cfg.stages, kMajorPad)};
}

/// Shared tiles of the SIMT kernel: k-major A [bk][bm] and B [bk][bn].
std::pair<MemRefType, MemRefType> simtShared(const Config &cfg, Type f32) {
  return {sharedType(cfg.bk, cfg.bm, f32), sharedType(cfg.bk, cfg.bn, f32)};
}

bool fitsShared(std::pair<MemRefType, MemRefType> tiles) {
  return llvm::alignTo(bytesOf(tiles.first), 128) + bytesOf(tiles.second) <=
         kMaxSharedBytes;
}

/// Builds the gpu.launch skeleton; `body` fills it given the thread id, the
/// batch index (null without batch), the block's first row and column of C
/// and the shared A and B tiles. The tiles are views of dynamic shared
/// memory rather than workgroup attributions: convert-gpu-to-nvvm gives an
/// attribution only its element's alignment (`.shared .align 2` for f16),
/// too little for 16-byte vector accesses and WMMA loads, while the dynamic
/// block is 16-byte aligned and starts the block's shared window.
gpu::LaunchOp buildLaunch(
    OpBuilder &b, Location loc, const GPUContraction &c, const Config &cfg,
    MemRefType sharedA, MemRefType sharedB, int64_t minSharedBytes,
    function_ref<void(Idx &, Value, Value, Value, Value, Value, Value)> body) {
  Idx x{b, loc};
  int64_t offsetB = llvm::alignTo(bytesOf(sharedA), 128);
  Value smem = arith::ConstantIntOp::create(
      b, loc, b.getI32Type(),
      std::max(offsetB + bytesOf(sharedB), minSharedBytes));
  auto launch =
      gpu::LaunchOp::create(b, loc, x.c(c.n / cfg.bn), x.c(c.m / cfg.bm),
                            x.c(std::max<int64_t>(c.batch, 1)),
                            x.c(cfg.threads), x.c(1), x.c(1), smem);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  auto bytesTy =
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface{}, sharedA.getMemorySpace());
  Value dyn = gpu::DynamicSharedMemoryOp::create(b, loc, bytesTy);
  Value shA = memref::ViewOp::create(b, loc, sharedA, dyn, x.c(0), {});
  Value shB = memref::ViewOp::create(b, loc, sharedB, dyn, x.c(offsetB), {});
  Value batch = c.batch ? launch.getBlockIds().z : Value();
  Value m0 = x.mul(launch.getBlockIds().y, cfg.bm);
  Value n0 = x.mul(launch.getBlockIds().x, cfg.bn);
  body(x, launch.getThreadIds().x, batch, m0, n0, shA, shB);
  gpu::TerminatorOp::create(b, loc);
  return launch;
}

/// Global origin (row, column) of the A tile of the K step at `k0` for the
/// block's rows from `m0`, in A's stored layout; likewise for B's columns
/// from `n0`.
std::pair<Value, Value> originA(const GPUContraction &c, Value m0, Value k0) {
  return c.transposeLhs ? std::make_pair(k0, m0) : std::make_pair(m0, k0);
}
std::pair<Value, Value> originB(const GPUContraction &c, Value n0, Value k0) {
  return c.transposeRhs ? std::make_pair(n0, k0) : std::make_pair(k0, n0);
}

/// Emits the double-buffered K loop (see the file comment). `compute`
/// updates the accumulators from one shared stage.
SmallVector<Value>
kLoop(Idx &x, const GPUContraction &c, int64_t bk, const TileCopy &copyA,
      const TileCopy &copyB, Value tid, Value batch, Value m0, Value n0,
      ValueRange init,
      function_ref<SmallVector<Value>(Value stage, ValueRange acc)> compute) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  // Global origin of the A and B tiles of K step `k0`.
  auto loadA = [&](Value k0) {
    auto [r0, c0] = originA(c, m0, k0);
    return copyA.load(x, tid, batch, r0, c0);
  };
  auto loadB = [&](Value k0) {
    auto [r0, c0] = originB(c, n0, k0);
    return copyB.load(x, tid, batch, r0, c0);
  };
  Value zero = x.c(0);
  copyA.store(x, tid, loadA(zero), zero);
  copyB.store(x, tid, loadB(zero), zero);
  gpu::BarrierOp::create(b, loc);
  int64_t steps = c.k / bk;
  auto loop = scf::ForOp::create(
      b, loc, zero, x.c(steps), x.c(1), init,
      [&](OpBuilder &nb, Location nloc, Value kt, ValueRange acc) {
        // scf.for hands the body the same builder, so `x` (and the callers'
        // lambdas using it) insert into the body too.
        Idx &y = x;
        Value next =
            arith::MinUIOp::create(nb, nloc, y.add(kt, 1), y.c(steps - 1));
        Value nextK = y.mul(next, bk);
        SmallVector<Value> regsA = loadA(nextK), regsB = loadB(nextK);
        Value stage = y.rem(kt, 2);
        SmallVector<Value> out = compute(stage, acc);
        Value other = y.rem(y.add(kt, 1), 2);
        copyA.store(y, tid, regsA, other);
        copyB.store(y, tid, regsB, other);
        gpu::BarrierOp::create(nb, nloc);
        scf::YieldOp::create(nb, nloc, out);
      });
  return loop.getResults();
}

/// Emits the multi-stage K loop of asynchronous copies: `stages` shared
/// buffers, tiles 0 .. stages - 2 in flight before the loop, and per step
///
///   wait until at most stages - 2 copy groups are pending (tile kt landed)
///   barrier (every thread's copies of tile kt landed; every warp is done
///            with the stage of tile kt - 1, which the next copy refills)
///   copy tile kt + stages - 1 into that stage (an empty group past the end)
///   acc += shared[kt % stages] products
///
/// so a tile's global loads are in flight for stages - 1 steps of math, and
/// no registers hold them. One group is committed per step, empty or not,
/// so the wait's count stays exact. (The wait's token operand is nominal:
/// `cp.async.wait_group` counts groups.)
SmallVector<Value> kLoopAsync(
    Idx &x, const GPUContraction &c, int64_t bk, int64_t stages,
    const TileCopy &copyA, const TileCopy &copyB, Value tid, Value batch,
    Value m0, Value n0, ValueRange init,
    function_ref<SmallVector<Value>(Value stage, ValueRange acc)> compute,
    bool asyncProxyReads = false) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  int64_t steps = c.k / bk;
  // Copies of the tile at K offset `k0` into `stage`, as one group.
  auto issue = [&](Value k0, Value stage) {
    auto [ar, ac] = originA(c, m0, k0);
    auto [br, bc] = originB(c, n0, k0);
    SmallVector<Value> tokens = copyA.copyAsync(x, tid, batch, ar, ac, stage);
    llvm::append_range(tokens, copyB.copyAsync(x, tid, batch, br, bc, stage));
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokens).getResult();
  };
  Value token;
  for (int64_t s = 0; s + 1 < stages; ++s)
    token = s < steps
                ? issue(x.c(s * bk), x.c(s))
                : nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, ValueRange{})
                      .getResult();
  auto loop = scf::ForOp::create(
      b, loc, x.c(0), x.c(steps), x.c(1), init,
      [&](OpBuilder &nb, Location nloc, Value kt, ValueRange acc) {
        Idx &y = x;
        nvgpu::DeviceAsyncWaitOp::create(nb, nloc, token,
                                         nb.getI32IntegerAttr(stages - 2));
        // Shared memory written through the generic proxy (cp.async) and
        // read through the async proxy (wgmma): each thread orders its
        // landed copies before the barrier.
        if (asyncProxyReads)
          NVVM::FenceProxyOp::create(
              nb, nloc, NVVM::ProxyKind::async_shared,
              NVVM::SharedSpaceAttr::get(nb.getContext(),
                                         NVVM::SharedSpace::shared_cta));
        gpu::BarrierOp::create(nb, nloc);
        Value next = y.add(kt, stages - 1);
        Value inRange = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::ult, next, y.c(steps));
        auto ifOp = scf::IfOp::create(nb, nloc, inRange,
                                      /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard g(nb);
          nb.setInsertionPointToStart(ifOp.thenBlock());
          issue(y.mul(next, bk), y.rem(next, stages));
          nb.setInsertionPointToStart(ifOp.elseBlock());
          nvgpu::DeviceAsyncCreateGroupOp::create(nb, nloc, ValueRange{});
        }
        SmallVector<Value> out = compute(y.rem(kt, stages), acc);
        scf::YieldOp::create(nb, nloc, out);
      });
  return loop.getResults();
}

/// The f32 tile the tensor-core kernel stages its accumulators in for an
/// epilogue: [bm][bn + 4] (a 16-byte pad per row against bank conflicts),
/// at the start of dynamic shared memory (the A and B tiles' space, free
/// once the K loop's last barrier has passed).
MemRefType stagingType(const Config &cfg, Type f32) {
  auto ws = gpu::AddressSpaceAttr::get(f32.getContext(),
                                       gpu::AddressSpace::Workgroup);
  return MemRefType::get({cfg.bm, cfg.bn + pad16(f32)}, f32,
                         MemRefLayoutAttrInterface{}, ws);
}

/// The tensor-core kernel: each warp owns a wm x wn tile of 16x16 f32
/// accumulator fragments; A and B fragments come from shared memory.
gpu::LaunchOp buildTensorCore(OpBuilder &b, Location loc,
                              const GPUContraction &c, const Config &cfg) {
  Type f16 = b.getF16Type(), f32 = b.getF32Type();
  int64_t aRows = c.transposeLhs ? cfg.bk : cfg.bm;
  int64_t aCols = c.transposeLhs ? cfg.bm : cfg.bk;
  int64_t bRows = c.transposeRhs ? cfg.bn : cfg.bk;
  int64_t bCols = c.transposeRhs ? cfg.bk : cfg.bn;
  std::pair<MemRefType, MemRefType> shared = tensorCoreShared(c, cfg, f16);
  MemRefType sa = shared.first, sb = shared.second;
  int64_t fm = cfg.wm / 16, fn = cfg.wn / 16;
  auto aTy = gpu::MMAMatrixType::get({16, 16}, f16, "AOp");
  auto bTy = gpu::MMAMatrixType::get({16, 16}, f16, "BOp");
  auto cTy = gpu::MMAMatrixType::get({16, 16}, f32, "COp");
  UnitAttr tA = c.transposeLhs ? b.getUnitAttr() : UnitAttr();
  UnitAttr tB = c.transposeRhs ? b.getUnitAttr() : UnitAttr();
  MemRefType staging = stagingType(cfg, f32);
  return buildLaunch(
      b, loc, c, cfg, sa, sb, c.epilogue ? bytesOf(staging) : 0,
      [&](Idx &x, Value tid, Value batch, Value m0, Value n0, Value shA,
          Value shB) {
        TileCopy copyA(c.lhs, shA, aRows, aCols, cfg.threads, false);
        copyA.rowLimit = c.lhsRows;
        TileCopy copyB(c.rhs, shB, bRows, bCols, cfg.threads, false);
        Value warp = x.div(tid, 32);
        int64_t warpsN = cfg.bn / cfg.wn;
        Value wm = x.mul(x.div(warp, warpsN), cfg.wm);
        Value wn = x.mul(x.rem(warp, warpsN), cfg.wn);
        Value cm = x.add(m0, wm), cn = x.add(n0, wn);
        SmallVector<Value> init;
        Value zero;
        if (c.zeroInit)
          zero = gpu::SubgroupMmaConstantMatrixOp::create(
              x.b, x.loc, cTy,
              arith::ConstantOp::create(x.b, x.loc, x.b.getF32FloatAttr(0)));
        for (int64_t i = 0; i < fm; ++i)
          for (int64_t j = 0; j < fn; ++j)
            init.push_back(c.zeroInit ? zero
                                      : gpu::SubgroupMmaLoadMatrixOp::create(
                                            x.b, x.loc, cTy, c.acc,
                                            at(batch, x.add(cm, 16 * i),
                                               x.add(cn, 16 * j)),
                                            x.b.getIndexAttr(c.n), UnitAttr()));
        auto compute = [&](Value stage, ValueRange acc) {
          OpBuilder &nb = x.b;
          SmallVector<Value> out(acc);
          for (int64_t kk = 0; kk < cfg.bk; kk += 16) {
            Value kc = x.c(kk);
            SmallVector<Value> fa, fb;
            for (int64_t i = 0; i < fm; ++i) {
              Value r = x.add(wm, 16 * i);
              fa.push_back(gpu::SubgroupMmaLoadMatrixOp::create(
                  nb, x.loc, aTy, shA,
                  c.transposeLhs ? ValueRange{stage, kc, r}
                                 : ValueRange{stage, r, kc},
                  nb.getIndexAttr(sa.getDimSize(2)), tA));
            }
            for (int64_t j = 0; j < fn; ++j) {
              Value col = x.add(wn, 16 * j);
              fb.push_back(gpu::SubgroupMmaLoadMatrixOp::create(
                  nb, x.loc, bTy, shB,
                  c.transposeRhs ? ValueRange{stage, col, kc}
                                 : ValueRange{stage, kc, col},
                  nb.getIndexAttr(sb.getDimSize(2)), tB));
            }
            for (int64_t i = 0; i < fm; ++i)
              for (int64_t j = 0; j < fn; ++j)
                out[i * fn + j] = gpu::SubgroupMmaComputeOp::create(
                    nb, x.loc, cTy, fa[i], fb[j], out[i * fn + j], tA, tB);
          }
          return out;
        };
        SmallVector<Value> acc =
            cfg.async ? kLoopAsync(x, c, cfg.bk, cfg.stages, copyA, copyB, tid,
                                   batch, m0, n0, init, compute)
                      : kLoop(x, c, cfg.bk, copyA, copyB, tid, batch, m0, n0,
                              init, compute);
        if (!c.epilogue) {
          for (int64_t i = 0; i < fm; ++i)
            for (int64_t j = 0; j < fn; ++j)
              gpu::SubgroupMmaStoreMatrixOp::create(
                  x.b, x.loc, acc[i * fn + j], c.acc,
                  at(batch, x.add(cm, 16 * i), x.add(cn, 16 * j)),
                  x.b.getIndexAttr(c.n), UnitAttr());
          return;
        }
        // Epilogue: the fragments through shared memory, then each thread
        // takes every `threads`-th group of 4 columns of the tile
        // (consecutive threads, consecutive columns: coalesced 16-byte
        // loads from shared memory and vector stores).
        auto bytesTy = MemRefType::get({ShapedType::kDynamic}, x.b.getI8Type(),
                                       MemRefLayoutAttrInterface{},
                                       staging.getMemorySpace());
        Value dyn = gpu::DynamicSharedMemoryOp::create(x.b, x.loc, bytesTy);
        Value st = memref::ViewOp::create(x.b, x.loc, staging, dyn, x.c(0),
                                          ValueRange{});
        // The asynchronous loop ends without a barrier: warps may still be
        // reading the last stage the staging tile overlaps.
        if (cfg.async)
          gpu::BarrierOp::create(x.b, x.loc);
        for (int64_t i = 0; i < fm; ++i)
          for (int64_t j = 0; j < fn; ++j)
            gpu::SubgroupMmaStoreMatrixOp::create(
                x.b, x.loc, acc[i * fn + j], st,
                ValueRange{x.add(wm, 16 * i), x.add(wn, 16 * j)},
                x.b.getIndexAttr(staging.getDimSize(1)), UnitAttr());
        gpu::BarrierOp::create(x.b, x.loc);
        int64_t groups = cfg.bn / 4;
        auto loop = scf::ForOp::create(
            x.b, x.loc, x.c(0), x.c(cfg.bm * groups / cfg.threads), x.c(1));
        OpBuilder::InsertionGuard g(x.b);
        x.b.setInsertionPoint(loop.getBody()->getTerminator());
        Value flat =
            x.add(tid, arith::MulIOp::create(x.b, x.loc, loop.getInductionVar(),
                                             x.c(cfg.threads)));
        Value r = x.div(flat, groups), col = x.mul(x.rem(flat, groups), 4);
        Value v = vector::LoadOp::create(
            x.b, x.loc, VectorType::get({4}, f32), st, ValueRange{r, col},
            /*nontemporal=*/false, llvm::MaybeAlign(16));
        storeResults(x, c, v, batch, x.add(m0, r), x.add(n0, col));
      });
}

/// The SIMT kernel: each thread owns wm x wn accumulators, as groups of 4
/// contiguous rows and columns spread at a stride over the block tile (so
/// that a warp's shared-memory vector reads do not conflict), and updates
/// them with outer products of 4-wide vectors read from k-major f32 tiles.
gpu::LaunchOp buildSimt(OpBuilder &b, Location loc, const GPUContraction &c,
                        const Config &cfg) {
  Type f32 = b.getF32Type();
  std::pair<MemRefType, MemRefType> shared = simtShared(cfg, f32);
  MemRefType sa = shared.first, sb = shared.second;
  // Global tiles in their own layout; A [bm][bk] and B^T [bn][bk] are
  // transposed into the k-major shared tiles.
  int64_t aRows = c.transposeLhs ? cfg.bk : cfg.bm;
  int64_t aCols = c.transposeLhs ? cfg.bm : cfg.bk;
  int64_t bRows = c.transposeRhs ? cfg.bn : cfg.bk;
  int64_t bCols = c.transposeRhs ? cfg.bk : cfg.bn;
  int64_t gm = cfg.wm / 4, gn = cfg.wn / 4;
  int64_t strideM = cfg.bm / gm, strideN = cfg.bn / gn;
  auto v4 = VectorType::get({4}, f32);
  return buildLaunch(
      b, loc, c, cfg, sa, sb, /*minSharedBytes=*/0,
      [&](Idx &x, Value tid, Value batch, Value m0, Value n0, Value shA,
          Value shB) {
        TileCopy copyA(c.lhs, shA, aRows, aCols, cfg.threads, !c.transposeLhs);
        copyA.rowLimit = c.lhsRows;
        TileCopy copyB(c.rhs, shB, bRows, bCols, cfg.threads, c.transposeRhs);
        int64_t threadsN = cfg.bn / cfg.wn;
        Value tm = x.mul(x.div(tid, threadsN), 4);
        Value tn = x.mul(x.rem(tid, threadsN), 4);
        // Accumulator (row r, column group g) covers C[rowOf(r)][colOf(g)
        // .. +4].
        auto rowOf = [&](int64_t r) {
          return x.add(tm, (r / 4) * strideM + r % 4);
        };
        auto colOf = [&](int64_t g) { return x.add(tn, g * strideN); };
        SmallVector<Value> init;
        Value zero;
        if (c.zeroInit)
          zero = arith::ConstantOp::create(
              x.b, x.loc, DenseElementsAttr::get(v4, x.b.getF32FloatAttr(0)));
        for (int64_t r = 0; r < cfg.wm; ++r)
          for (int64_t g = 0; g < gn; ++g)
            init.push_back(
                c.zeroInit
                    ? zero
                    : vector::LoadOp::create(
                          x.b, x.loc, v4, c.acc,
                          at(batch, x.add(m0, rowOf(r)), x.add(n0, colOf(g))),
                          /*nontemporal=*/false, llvm::MaybeAlign(16)));
        auto compute = [&](Value stage, ValueRange acc) {
          OpBuilder &nb = x.b;
          SmallVector<Value> out(acc);
          for (int64_t kk = 0; kk < cfg.bk; ++kk) {
            Value kc = x.c(kk);
            SmallVector<Value> va, vb;
            for (int64_t g = 0; g < gm; ++g)
              va.push_back(vector::LoadOp::create(
                  nb, x.loc, v4, shA,
                  ValueRange{stage, kc, x.add(tm, g * strideM)},
                  /*nontemporal=*/false, llvm::MaybeAlign(16)));
            for (int64_t g = 0; g < gn; ++g)
              vb.push_back(vector::LoadOp::create(
                  nb, x.loc, v4, shB, ValueRange{stage, kc, colOf(g)},
                  /*nontemporal=*/false, llvm::MaybeAlign(16)));
            for (int64_t r = 0; r < cfg.wm; ++r) {
              Value a = vector::ExtractOp::create(nb, x.loc, va[r / 4], r % 4);
              Value splat = vector::BroadcastOp::create(nb, x.loc, v4, a);
              for (int64_t g = 0; g < gn; ++g)
                out[r * gn + g] = vector::FMAOp::create(nb, x.loc, splat, vb[g],
                                                        out[r * gn + g]);
            }
          }
          return out;
        };
        SmallVector<Value> acc = kLoop(x, c, cfg.bk, copyA, copyB, tid, batch,
                                       m0, n0, init, compute);
        for (int64_t r = 0; r < cfg.wm; ++r)
          for (int64_t g = 0; g < gn; ++g)
            // The epilogue, if any, in registers.
            storeResults(x, c, acc[r * gn + g], batch, x.add(m0, rowOf(r)),
                         x.add(n0, colOf(g)));
      });
}

/// The mma.sync tensor-core kernel (sm_80+) for bf16 (MLIR 22's WMMA types
/// have no bf16) and for f32 as TF32 (opt-in): `nvvm.mma.sync` with f32
/// accumulation, row.col, in the PTX fragment layout, lane = 4 g + t:
///   bf16, m16n8k16: A registers hold rows g | g + 8 and k pairs 2t | 2t + 8
///   (and the next k); B registers k pairs 2t | 2t + 8, column g.
///   TF32, m16n8k8: A registers rows g | g + 8, k t | t + 4; B registers k
///   t | t + 4, column g; one element each, rounded to TF32 (to nearest,
///   ties away from zero) as it is loaded.
/// C/D, both: 4 f32 per lane, row g + 8 (e / 2), column 2t + e % 2. Each
/// warp owns wm x wn of C as (wm / 16) x (wn / 8) tiles (wn a multiple of
/// 16: B's fragments come in pairs of tiles).
///
/// The A and B tiles keep their global layout in shared memory (as the
/// WMMA kernel's), filled by cp.async stages (kLoopAsync) or, without
/// them, through registers (kLoop). Fragments come from shared memory by
/// `ldmatrix` (nvgpu.ldmatrix): each of its 8x8 matrices of 16-bit
/// elements lands in one register per lane as exactly the pair the
/// fragment layout wants (row lane / 4, columns 2 (lane % 4) and the next),
/// and its `.trans` form gives the pair of a k-major tile (A stored
/// [K, M], B stored [K, N]). One x4 ldmatrix loads an A fragment (rows
/// +0 | +8 x k +0 | +8) or the B fragments of two n tiles. TF32 uses it
/// where its operand is k-contiguous (an 8x8 b16 matrix is 8 rows of 4
/// f32: lane gets row lane / 4, f32 column lane % 4); a k-major TF32
/// operand is read element by element (ldmatrix's transpose moves 16-bit
/// halves). The padded rows (16 bytes) keep ldmatrix's 16-byte row reads
/// 16-byte aligned and, where the unpadded row is a multiple of 32 bytes,
/// free of bank conflicts.
gpu::LaunchOp buildMmaSync(OpBuilder &b, Location loc, const GPUContraction &c,
                           const Config &cfg) {
  Type et = cast<MemRefType>(c.lhs.getType()).getElementType();
  bool tf32 = et.isF32();
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  int64_t kStep = tf32 ? 8 : 16;
  // Columns of one 8x8 b16 ldmatrix matrix, in elements: the k extent of
  // a fragment register half.
  int64_t kHalf = tf32 ? 4 : 8;
  std::pair<MemRefType, MemRefType> shared = tensorCoreShared(c, cfg, et);
  int64_t aRows = c.transposeLhs ? cfg.bk : cfg.bm;
  int64_t aCols = c.transposeLhs ? cfg.bm : cfg.bk;
  int64_t bRows = c.transposeRhs ? cfg.bn : cfg.bk;
  int64_t bCols = c.transposeRhs ? cfg.bk : cfg.bn;
  int64_t fm = cfg.wm / 16, fn = cfg.wn / 8;
  // ldmatrix for A unless a k-major TF32 tile; likewise for B (B^T stored
  // [N, K] is k-contiguous).
  bool ldmA = !(tf32 && c.transposeLhs), ldmB = !(tf32 && !c.transposeRhs);
  return buildLaunch(
      b, loc, c, cfg, shared.first, shared.second, /*minSharedBytes=*/0,
      [&](Idx &x, Value tid, Value batch, Value m0, Value n0, Value shA,
          Value shB) {
        TileCopy copyA(c.lhs, shA, aRows, aCols, cfg.threads, false);
        copyA.rowLimit = c.lhsRows;
        TileCopy copyB(c.rhs, shB, bRows, bCols, cfg.threads, false);
        Value warp = x.div(tid, 32), lane = x.rem(tid, 32);
        int64_t warpsN = cfg.bn / cfg.wn;
        Value wm = x.mul(x.div(warp, warpsN), cfg.wm);
        Value wn = x.mul(x.rem(warp, warpsN), cfg.wn);
        Value g = x.div(lane, 4), t = x.rem(lane, 4), t2 = x.mul(t, 2);
        // ldmatrix: lane l gives the address of row l % 8 of matrix l / 8.
        Value lrow = x.rem(lane, 8), quad = x.div(lane, 8);
        Value qLow = x.rem(quad, 2), qHigh = x.div(quad, 2);
        // Accumulator e (0..3) of tile (i, j): row g + 8 (e / 2), column
        // 2t + e % 2.
        auto rowOf = [&](int64_t i, int64_t e) {
          return x.add(x.add(wm, g), 16 * i + 8 * (e / 2));
        };
        auto colOf = [&](int64_t j, int64_t e) {
          return x.add(x.add(wn, t2), 8 * j + e % 2);
        };
        SmallVector<Value> init;
        Value zero =
            arith::ConstantOp::create(x.b, x.loc, x.b.getF32FloatAttr(0));
        for (int64_t i = 0; i < fm; ++i)
          for (int64_t j = 0; j < fn; ++j)
            for (int64_t e = 0; e < 4; ++e)
              init.push_back(c.zeroInit ? zero
                                        : memref::LoadOp::create(
                                              x.b, x.loc, c.acc,
                                              at(batch, x.add(m0, rowOf(i, e)),
                                                 x.add(n0, colOf(j, e))))
                                              .getResult());
        // A fragment register: two bf16 (warpMma passes them as an i32),
        // or an f32 rounded to TF32.
        auto toReg = [&](Value v) -> Value {
          if (!tf32)
            return v;
          auto cvt = NVVM::ConvertFloatToTF32Op::create(x.b, x.loc, i32, v);
          cvt.setRnd(NVVM::FPRoundingMode::RNA);
          return cvt;
        };
        // `n` 8x8 matrices by one ldmatrix from shared `mem` at [stage,
        // row + lane % 8, col], where (row, col) is the origin of this
        // lane's matrix; one register per matrix.
        auto ldmatrix = [&](Value mem, Value stage, int64_t n, bool transpose,
                            Value row, Value col) {
          SmallVector<Value> regs = loadMatrices(
              x, mem, ValueRange{stage, x.add(row, lrow), col}, n, transpose);
          for (Value &r : regs)
            r = toReg(
                tf32 ? vector::ExtractOp::create(x.b, x.loc, r, 0).getResult()
                     : r);
          return regs;
        };
        // A TF32 register read alone from a k-major tile at [stage, k, mn].
        auto element = [&](Value mem, Value stage, Value k, Value mn) {
          return toReg(memref::LoadOp::create(x.b, x.loc, mem,
                                              ValueRange{stage, k, mn}));
        };
        auto compute = [&](Value stage, ValueRange acc) {
          SmallVector<Value> out(acc);
          for (int64_t kk = 0; kk < cfg.bk; kk += kStep) {
            SmallVector<SmallVector<Value>> fa(fm), fb(fn);
            // A fragment i: matrix q = rows +8 (q % 2), k +kHalf (q / 2).
            for (int64_t i = 0; i < fm; ++i) {
              Value rows = x.add(wm, 16 * i);
              if (!ldmA) {
                for (int64_t r = 0; r < 4; ++r)
                  fa[i].push_back(element(shA, stage,
                                          x.add(t, kk + kHalf * (r / 2)),
                                          x.add(x.add(rows, g), 8 * (r % 2))));
              } else if (!c.transposeLhs) {
                fa[i] =
                    ldmatrix(shA, stage, 4, false, x.add(rows, x.mul(qLow, 8)),
                             x.add(x.mul(qHigh, kHalf), kk));
              } else {
                fa[i] =
                    ldmatrix(shA, stage, 4, true, x.add(x.mul(qHigh, 8), kk),
                             x.add(rows, x.mul(qLow, 8)));
              }
            }
            // B fragments j, j + 1 by one x4 (matrix q: tile j + q / 2,
            // k +kHalf (q % 2)).
            for (int64_t j = 0; j < fn; j += 2) {
              Value cols = x.add(wn, 8 * j);
              SmallVector<Value> regs;
              if (!ldmB) {
                for (int64_t jj = j; jj < j + 2; ++jj)
                  for (int64_t r = 0; r < 2; ++r)
                    regs.push_back(element(shB, stage, x.add(t, kk + kHalf * r),
                                           x.add(x.add(wn, g), 8 * jj)));
              } else if (c.transposeRhs) {
                regs =
                    ldmatrix(shB, stage, 4, false, x.add(cols, x.mul(qHigh, 8)),
                             x.add(x.mul(qLow, kHalf), kk));
              } else {
                regs = ldmatrix(shB, stage, 4, true, x.add(x.mul(qLow, 8), kk),
                                x.add(cols, x.mul(qHigh, 8)));
              }
              for (int64_t q = 0; q < 4; ++q)
                fb[j + q / 2].push_back(regs[q]);
            }
            for (int64_t i = 0; i < fm; ++i)
              for (int64_t j = 0; j < fn; ++j) {
                int64_t base = (i * fn + j) * 4;
                SmallVector<Value> d = warpMma(x, et, fa[i], fb[j],
                                               ValueRange(out).slice(base, 4));
                std::copy(d.begin(), d.end(), out.begin() + base);
              }
          }
          return out;
        };
        SmallVector<Value> acc =
            cfg.async ? kLoopAsync(x, c, cfg.bk, cfg.stages, copyA, copyB, tid,
                                   batch, m0, n0, init, compute)
                      : kLoop(x, c, cfg.bk, copyA, copyB, tid, batch, m0, n0,
                              init, compute);
        // Each lane's two adjacent columns per row, the epilogue (if any)
        // in registers.
        for (int64_t i = 0; i < fm; ++i)
          for (int64_t j = 0; j < fn; ++j)
            for (int64_t h = 0; h < 2; ++h) {
              int64_t base = (i * fn + j) * 4 + 2 * h;
              Value two = vector::FromElementsOp::create(
                  x.b, x.loc, VectorType::get({2}, f32),
                  ValueRange{acc[base], acc[base + 1]});
              storeResults(x, c, two, batch, x.add(m0, rowOf(i, 2 * h)),
                           x.add(n0, colOf(j, 2 * h)));
            }
      });
}

/// Bytes of dynamic shared memory an sm_90 block may opt in to (the
/// runtime raises the function's limit past 48 KiB at launch).
constexpr int64_t kMaxSharedBytesSm90 = 227 * 1024;

/// The wgmma kernel's shared tile of one operand: `mn` rows (A) or columns
/// (B) by 64 k of 16-bit elements, 128-byte swizzled (TileCopy::swizzle128):
/// K-major (the operand stored [.., mn, k]) [stages][mn][64], MN-major
/// (stored [.., k, mn]) [stages][mn / 64][64 k][64].
MemRefType wgmmaShared(bool kMajor, int64_t mn, Type et, int64_t stages) {
  auto ws =
      gpu::AddressSpaceAttr::get(et.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<int64_t> shape =
      kMajor ? SmallVector<int64_t>{stages, mn, 64}
             : SmallVector<int64_t>{stages, mn / 64, 64, 64};
  return MemRefType::get(shape, et, MemRefLayoutAttrInterface{}, ws);
}

/// PTX's 64-bit wgmma matrix descriptor of a 128-byte-swizzled matrix
/// starting at shared byte address `addr` (an index): the start address,
/// leading and stride byte offsets `lbo` and `sbo`, each >> 4 in 14 bits
/// at bits 0, 16 and 32; base offset 0 (bits 49-51: the tiles start
/// 1024-byte aligned, where the swizzle pattern repeats); swizzle mode 1,
/// 128 bytes (bits 62-63). For a K-major matrix `sbo` is the distance
/// between groups of 8 rows (and `lbo` unused); for an MN-major one `lbo`
/// is the distance between blocks of 64 columns and `sbo` between groups
/// of 8 k rows.
Value wgmmaDescriptor(Idx &x, Value addr, int64_t lbo, int64_t sbo) {
  Type i64 = x.b.getI64Type();
  auto constant = [&](uint64_t v) -> Value {
    return arith::ConstantOp::create(x.b, x.loc,
                                     x.b.getIntegerAttr(i64, APInt(64, v)));
  };
  Value a = arith::IndexCastUIOp::create(x.b, x.loc, i64, addr);
  Value start = arith::AndIOp::create(
      x.b, x.loc, arith::ShRUIOp::create(x.b, x.loc, a, constant(4)),
      constant(0x3FFF));
  uint64_t fixed = (static_cast<uint64_t>(lbo >> 4) << 16) |
                   (static_cast<uint64_t>(sbo >> 4) << 32) | (1ull << 62);
  return arith::OrIOp::create(x.b, x.loc, start, constant(fixed));
}

/// Whether TMA can copy tiles of `operand` (a memref of 16-bit elements):
/// its last dim contiguous, the others' strides and a static offset
/// multiples of 16 bytes (a dynamic offset is checked when the runtime
/// encodes the tensor map), rank 2 or 3.
bool tmaCompatible(Value operand) {
  auto type = cast<MemRefType>(operand.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() < 2 || type.getRank() > 3 ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 ||
      (!ShapedType::isDynamic(offset) && (offset * 2) % 16))
    return false;
  return llvm::all_of(ArrayRef(strides).drop_back(), [](int64_t s) {
    return !ShapedType::isDynamic(s) && s > 0 && (s * 2) % 16 == 0;
  });
}

/// The runtime's TMA tensor map of `operand` for boxes of `boxRows` rows
/// of 64 contiguous 16-bit elements (128 bytes), 128-byte swizzled,
/// elements past the operand's bounds read as zeros: a CUtensorMap in
/// device memory, encoded and uploaded by libGraphOptCUDARuntime on first
/// use of that buffer and shape, then cached
/// (`graphopt_cuda_tensor_map_<type>(memref<*xtype>, index, index) ->
/// !llvm.ptr`). Emitted on the host, before the launch.
Value tensorMapOf(OpBuilder &b, Location loc, Value operand, int64_t boxRows) {
  auto type = cast<MemRefType>(operand.getType());
  Type et = type.getElementType();
  std::string name =
      std::string("graphopt_cuda_tensor_map_") + (et.isBF16() ? "bf16" : "f16");
  MLIRContext *ctx = b.getContext();
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto unranked = UnrankedMemRefType::get(et, type.getMemorySpace());
  func::FuncOp decl = graphopt::getOrDeclareFunction(
      module, name,
      FunctionType::get(ctx, {unranked, b.getIndexType(), b.getIndexType()},
                        {LLVM::LLVMPointerType::get(ctx)}),
      loc);
  Idx x{b, loc};
  Value cast = memref::CastOp::create(b, loc, unranked, operand);
  return func::CallOp::create(b, loc, decl,
                              ValueRange{cast, x.c(64), x.c(boxRows)})
      .getResult(0);
}

/// The wgmma kernel's K loop over TMA stages: `stages` shared buffers of
/// A and B tiles, each with an mbarrier (8 bytes at `barriers` + 8 s, in
/// dynamic shared memory), thread 0 the only producer:
///
///   thread 0: init each stage's barrier (1 arrival), then issue tiles
///             0 .. stages - 2 (each: arrive.expect_tx of the stage's
///             bytes, then the TMA copies of its A and B boxes)
///   barrier (the barriers initialized)
///   per step kt:
///     wait for phase kt / stages (parity) of stage kt % stages's barrier
///     barrier (every warpgroup is done with tile kt - 1's stage: its
///              wgmmas were waited for)
///     thread 0: issue tile kt + stages - 1 into that stage
///     acc += shared[kt % stages] products
///
/// The copies write through the async proxy that wgmma reads through, so
/// no proxy fence is needed; a tile's bytes are in flight for stages - 1
/// steps of math, and no thread computes an address but thread 0. Boxes:
/// a K-major operand one of [rows][64 k], an MN-major one rows / 64 of
/// [64 k][64] (the wgmmaShared layouts; the 128-byte swizzle is the
/// tensor map's).
SmallVector<Value> kLoopTma(
    Idx &x, const GPUContraction &c, const Config &cfg, bool aKMajor,
    bool bKMajor, Value mapA, Value mapB, Value baseA, Value baseB,
    int64_t stageBytes, Value barriers, Value tid, Value batch, Value m0,
    Value n0, ValueRange init,
    function_ref<SmallVector<Value>(Value stage, ValueRange acc)> compute) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  MLIRContext *ctx = b.getContext();
  int64_t steps = c.k / cfg.bk, stages = cfg.stages;
  auto sharedPtr = [&](Value addr) -> Value {
    Value i64 = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), addr);
    return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 3),
                                    i64, /*dereferenceable=*/nullptr);
  };
  auto i32 = [&](Value v) -> Value {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), v);
  };
  auto i32c = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  };
  auto barrier = [&](Value stage) {
    return sharedPtr(x.add(barriers, x.mul(stage, 8)));
  };
  // One operand's boxes of the tile at K offset `k0` into `stage`.
  auto copyOperand = [&](Value map, Value base, bool kMajor, int64_t mn,
                         Value mn0, Value k0, Value stage, Value bar) {
    Value tile = x.add(base, x.mul(stage, stageBytes));
    for (int64_t j = 0; j < (kMajor ? 1 : mn / 64); ++j) {
      SmallVector<Value> coords =
          kMajor ? SmallVector<Value>{i32(k0), i32(mn0)}
                 : SmallVector<Value>{i32(x.add(mn0, 64 * j)), i32(k0)};
      if (batch)
        coords.push_back(i32(batch));
      // The block's own shared::cta address as a shared::cluster one (the
      // form PTX 8.0 has: no cluster launched, the cluster is the block).
      Value dst = LLVM::AddrSpaceCastOp::create(
          b, loc, LLVM::LLVMPointerType::get(ctx, 7),
          sharedPtr(x.add(tile, j * 64 * 64 * 2)));
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          b, loc, dst, map, coords, bar,
          /*im2colOffsets=*/ValueRange{}, /*multicastMask=*/Value(),
          /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
          /*isCTAOnly=*/false, /*group=*/nullptr, /*predicate=*/Value());
    }
  };
  auto issue = [&](Value t, Value stage) {
    Value bar = barrier(stage);
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc, /*res=*/Type(), bar, i32c(2 * stageBytes),
        NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
    Value k0 = x.mul(t, cfg.bk);
    copyOperand(mapA, baseA, aKMajor, cfg.bm, m0, k0, stage, bar);
    copyOperand(mapB, baseB, bKMajor, cfg.bn, n0, k0, stage, bar);
  };
  Value isProducer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, x.c(0));
  {
    auto prologue = scf::IfOp::create(b, loc, isProducer);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(prologue.thenBlock());
    for (int64_t s = 0; s < stages; ++s)
      NVVM::MBarrierInitOp::create(b, loc, barrier(x.c(s)), i32c(1),
                                   /*predicate=*/Value());
    NVVM::FenceMbarrierInitOp::create(b, loc);
    for (int64_t s = 0; s + 1 < stages && s < steps; ++s)
      issue(x.c(s), x.c(s));
  }
  gpu::BarrierOp::create(b, loc);
  auto loop = scf::ForOp::create(
      b, loc, x.c(0), x.c(steps), x.c(1), init,
      [&](OpBuilder &nb, Location nloc, Value kt, ValueRange acc) {
        Idx &y = x;
        Value stage = y.rem(kt, stages);
        Value parity = i32(y.rem(y.div(kt, stages), 2));
        // 10 ms per try before the hardware's own time limit.
        NVVM::MBarrierTryWaitParityOp::create(nb, nloc, barrier(stage), parity,
                                              i32c(10000000));
        gpu::BarrierOp::create(nb, nloc);
        Value next = y.add(kt, stages - 1);
        Value go = arith::AndIOp::create(
            nb, nloc, isProducer,
            arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ult, next,
                                  y.c(steps)));
        auto ifOp = scf::IfOp::create(nb, nloc, go);
        {
          OpBuilder::InsertionGuard g(nb);
          nb.setInsertionPointToStart(ifOp.thenBlock());
          issue(next, y.rem(next, stages));
        }
        SmallVector<Value> out = compute(stage, acc);
        scf::YieldOp::create(nb, nloc, out);
      });
  return loop.getResults();
}

/// The Hopper warpgroup-MMA kernel (sm_90a) for f16/bf16: a block of two
/// warpgroups (256 threads) computes 128x128 of C; warpgroup w its rows
/// 64 w .. 64 w + 63 by `wgmma.mma_async.m64n128k16` (f32 accumulation),
/// four per 64-deep K step, A and B read from the shared tiles through
/// matrix descriptors (no fragment loads). Each thread holds 64 f32
/// accumulators in the layout of 16 mma.sync m16n8 tiles: warp q of the
/// warpgroup rows 16 q + lane / 4 (+ 8), tile j columns 8 j + 2 (lane % 4)
/// (+ 1); element 4 j + e of the accumulator struct is row + 8 (e / 2),
/// column + e % 2. The tiles (wgmmaShared) are filled by kLoopAsync's
/// cp.async stages, 128-byte swizzled as the descriptors' swizzle mode has
/// the hardware read them; a `fence.proxy.async` after each step's wait
/// orders the copies (generic proxy) before the MMAs (async proxy). Per
/// step: fence, 4 chained MMAs, commit, wait for them (so the barrier of
/// the next step also frees their stage for the copies issued after it).
/// The epilogue stores from registers, as the mma.sync kernel's.
gpu::LaunchOp buildWgmma(OpBuilder &b, Location loc, const GPUContraction &c,
                         const Config &cfg) {
  Type et = cast<MemRefType>(c.lhs.getType()).getElementType();
  Type f32 = b.getF32Type();
  bool aKMajor = !c.transposeLhs, bKMajor = c.transposeRhs;
  MemRefType sa = wgmmaShared(aKMajor, cfg.bm, et, cfg.stages);
  MemRefType sb = wgmmaShared(bKMajor, cfg.bn, et, cfg.stages);
  int64_t stageBytes = bytesOf(sa) / cfg.stages;
  int64_t aRows = c.transposeLhs ? cfg.bk : cfg.bm;
  int64_t aCols = c.transposeLhs ? cfg.bm : cfg.bk;
  int64_t bRows = c.transposeRhs ? cfg.bn : cfg.bk;
  int64_t bCols = c.transposeRhs ? cfg.bk : cfg.bn;
  // Accumulators per thread: the warpgroup's 64 x bn over 128 threads.
  int64_t numAcc = 64 * cfg.bn / 128;
  auto wgType = et.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  // With TMA: the operands' tensor maps (host calls before the launch) and
  // the stages' mbarriers after the B tiles.
  Value mapA, mapB;
  if (cfg.tma) {
    mapA = tensorMapOf(b, loc, c.lhs, aKMajor ? cfg.bm : 64);
    mapB = tensorMapOf(b, loc, c.rhs, bKMajor ? cfg.bn : 64);
  }
  int64_t barrierOffset = llvm::alignTo(bytesOf(sa), 128) + bytesOf(sb);
  return buildLaunch(
      b, loc, c, cfg, sa, sb,
      /*minSharedBytes=*/cfg.tma ? barrierOffset + 8 * cfg.stages : 0,
      [&](Idx &x, Value tid, Value batch, Value m0, Value n0, Value shA,
          Value shB) {
        TileCopy copyA(c.lhs, shA, aRows, aCols, cfg.threads, false);
        copyA.rowLimit = c.lhsRows;
        copyA.swizzle128 = true;
        TileCopy copyB(c.rhs, shB, bRows, bCols, cfg.threads, false);
        copyB.swizzle128 = true;
        Value group = x.div(tid, 128), warp = x.rem(x.div(tid, 32), 4);
        Value lane = x.rem(tid, 32);
        Value g = x.div(lane, 4), t2 = x.mul(x.rem(lane, 4), 2);
        Value wm = x.add(x.mul(group, 64), x.mul(warp, 16));
        auto rowOf = [&](int64_t e) {
          return x.add(x.add(wm, g), 8 * ((e % 4) / 2));
        };
        auto colOf = [&](int64_t e) { return x.add(t2, 8 * (e / 4) + e % 2); };
        SmallVector<Value> init;
        Value zero =
            arith::ConstantOp::create(x.b, x.loc, x.b.getF32FloatAttr(0));
        for (int64_t e = 0; e < numAcc; ++e)
          init.push_back(
              c.zeroInit ? zero
                         : memref::LoadOp::create(x.b, x.loc, c.acc,
                                                  at(batch, x.add(m0, rowOf(e)),
                                                     x.add(n0, colOf(e))))
                               .getResult());
        Value baseA =
            memref::ExtractAlignedPointerAsIndexOp::create(x.b, x.loc, shA);
        Value baseB =
            memref::ExtractAlignedPointerAsIndexOp::create(x.b, x.loc, shB);
        auto accType = LLVM::LLVMStructType::getLiteral(
            x.b.getContext(), SmallVector<Type>(numAcc, f32));
        auto compute = [&](Value stage, ValueRange acc) {
          Value tileA = x.add(x.add(baseA, x.mul(stage, stageBytes)),
                              x.mul(group, 64 * 128));
          Value tileB = x.add(baseB, x.mul(stage, stageBytes));
          NVVM::WgmmaFenceAlignedOp::create(x.b, x.loc);
          SmallVector<Value> out(acc);
          for (int64_t s = 0; s < cfg.bk / 16; ++s) {
            // K-major: 16 k are 32 bytes along the swizzled rows; MN-major:
            // 16 k rows of 128 bytes.
            Value descA =
                aKMajor
                    ? wgmmaDescriptor(x, x.add(tileA, 32 * s), 16, 1024)
                    : wgmmaDescriptor(x, x.add(tileA, 2048 * s), 8192, 1024);
            Value descB =
                bKMajor
                    ? wgmmaDescriptor(x, x.add(tileB, 32 * s), 16, 1024)
                    : wgmmaDescriptor(x, x.add(tileB, 2048 * s), 8192, 1024);
            Value st = LLVM::UndefOp::create(x.b, x.loc, accType);
            for (int64_t e = 0; e < numAcc; ++e)
              st = LLVM::InsertValueOp::create(x.b, x.loc, st, out[e], e);
            Value d = NVVM::WgmmaMmaAsyncOp::create(
                x.b, x.loc, accType, st, descA, descB,
                NVVM::MMAShapeAttr::get(x.b.getContext(), 64, cfg.bn, 16),
                wgType, wgType, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
                NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
                aKMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col,
                bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
                /*satfinite=*/nullptr);
            for (int64_t e = 0; e < numAcc; ++e)
              out[e] = LLVM::ExtractValueOp::create(x.b, x.loc, d, e);
          }
          NVVM::WgmmaGroupSyncAlignedOp::create(x.b, x.loc);
          NVVM::WgmmaWaitGroupSyncOp::create(x.b, x.loc, 0);
          return out;
        };
        SmallVector<Value> acc =
            cfg.tma ? kLoopTma(x, c, cfg, aKMajor, bKMajor, mapA, mapB, baseA,
                               baseB, stageBytes, x.add(baseA, barrierOffset),
                               tid, batch, m0, n0, init, compute)
                    : kLoopAsync(x, c, cfg.bk, cfg.stages, copyA, copyB, tid,
                                 batch, m0, n0, init, compute,
                                 /*asyncProxyReads=*/true);
        for (int64_t e = 0; e < numAcc; e += 2) {
          Value two = vector::FromElementsOp::create(
              x.b, x.loc, VectorType::get({2}, f32),
              ValueRange{acc[e], acc[e + 1]});
          storeResults(x, c, two, batch, x.add(m0, rowOf(e)),
                       x.add(n0, colOf(e)));
        }
      });
}

/// Rows of the matrix-vector-like kernel's products at most: from 16 rows
/// on, the tensor-core kernels (M padded to their tiles) take the ones with
/// enough work.
constexpr int64_t kSkinnyMaxRows = 15;

/// The kernel of matrix-vector-like products (M <= 15, where the tiled
/// kernels would waste all but M of their 64 or 128 rows), a block of 256
/// threads, f32 sums, streaming B once at full width (16-byte vectors, 8
/// bytes where M > 8: each thread keeps M vector sums, at most 64
/// floats):
///
///  - B stored [N, K] (K contiguous; a linear layer's weight): a warp per
///    column of C, 8 per block. Lane l reads 16-byte vectors of B's row
///    and of A's M rows at k = vec l, vec (l + 32), ..., keeping M vector
///    sums; then M sums and one butterfly of 5 shuffles each; lane 0
///    stores the M results.
///  - B stored [K, N] (N contiguous): 8 vec columns per block (a 16-byte
///    vector per thread, vec halved until 8 vec divides N, else 1), its 256
///    threads as 8 column groups x 32 slices of K (thread t: group t % 8,
///    k = t / 8, t / 8 + 32, ...), M vector sums each, A read by element;
///    then, row by row, the 32 slices' sums added through shared memory
///    and one thread per column stores.
///
/// Where the blocks' columns overhang N, the extra ones read column N - 1
/// and store nothing.
/// C's contents are added unless it starts at zero; the epilogue, if any,
/// is applied before the one store. A stored [K, M] is read by element.
gpu::LaunchOp buildSkinny(OpBuilder &b, Location loc, const GPUContraction &c) {
  Type et = cast<MemRefType>(c.lhs.getType()).getElementType();
  Type f32 = b.getF32Type();
  const int64_t threads = 256, warps = threads / graphopt::kWarpSize,
                slices = 32;
  int64_t vec = 16 / (et.getIntOrFloatBitWidth() / 8);
  while (c.m * vec > 64)
    vec /= 2;
  bool kContiguous = c.transposeRhs;
  if (kContiguous) {
    while (vec > 1 && c.k % vec)
      vec /= 2;
  } else {
    while (vec > 1 && c.n % (8 * vec))
      vec /= 2;
  }
  int64_t colsPerBlock = kContiguous ? warps : 8 * vec;
  // Columns past N (in the last block, where colsPerBlock does not divide
  // N; a [K, N] B then has one-element columns): read as column N - 1,
  // not stored.
  bool ragged = c.n % colsPerBlock != 0;
  auto vt = VectorType::get({vec}, et), vf = VectorType::get({vec}, f32);
  auto ws =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto redType = MemRefType::get({slices, colsPerBlock}, f32,
                                 MemRefLayoutAttrInterface{}, ws);
  Idx x{b, loc};
  Value smem = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                            kContiguous ? 0 : bytesOf(redType));
  // A warp per column: blocks of 32 x 8 threads (lane, warp), the shape
  // the warp kernels have.
  auto launch = gpu::LaunchOp::create(
      b, loc, x.c(llvm::divideCeil(c.n, colsPerBlock)), x.c(1),
      x.c(std::max<int64_t>(c.batch, 1)),
      x.c(kContiguous ? graphopt::kWarpSize : threads),
      x.c(kContiguous ? warps : 1), x.c(1), kContiguous ? Value() : smem);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tid = launch.getThreadIds().x;
  Value batch = c.batch ? launch.getBlockIds().z : Value();
  Value n0 = x.mul(launch.getBlockIds().x, colsPerBlock);
  // Element (m, k) of A, as f32.
  auto elementA = [&](Value m, Value k) -> Value {
    Value v = memref::LoadOp::create(
        b, loc, c.lhs, c.transposeLhs ? at(batch, k, m) : at(batch, m, k));
    return et.isF32() ? v : arith::ExtFOp::create(b, loc, f32, v).getResult();
  };
  auto widen = [&](Value v) -> Value {
    return et.isF32() ? v : arith::ExtFOp::create(b, loc, vf, v).getResult();
  };
  auto load = [&](Value mem, ValueRange idx) -> Value {
    return vector::LoadOp::create(
        b, loc, vt, mem, idx, /*nontemporal=*/false,
        llvm::MaybeAlign(vec * et.getIntOrFloatBitWidth() / 8));
  };
  // The stored value of C (m, n): `sum` (+ C's contents), through the
  // epilogue if any.
  auto store = [&](Value sum, Value m, Value n) {
    if (!c.zeroInit)
      sum = arith::AddFOp::create(
          b, loc, sum, memref::LoadOp::create(b, loc, c.acc, at(batch, m, n)));
    storeResults(x, c,
                 vector::FromElementsOp::create(
                     b, loc, VectorType::get({1}, f32), ValueRange{sum}),
                 batch, m, n);
  };
  // Column `n` clamped into C (where the grid overhangs it), and whether
  // `n` is inside.
  auto clamped = [&](Value n) -> Value {
    return ragged ? arith::MinUIOp::create(b, loc, n, x.c(c.n - 1)).getResult()
                  : n;
  };
  auto inside = [&](Value n) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, n,
                                 x.c(c.n));
  };
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vf, b.getF32FloatAttr(0)));
  SmallVector<Value> init(c.m, zero);
  if (kContiguous) {
    Value lane = tid;
    Value n = x.add(n0, launch.getThreadIds().y);
    auto loop = scf::ForOp::create(
        b, loc, x.mul(lane, vec), x.c(c.k), x.c(graphopt::kWarpSize * vec),
        init, [&](OpBuilder &, Location, Value k, ValueRange acc) {
          Value bv = widen(load(c.rhs, at(batch, clamped(n), k)));
          SmallVector<Value> next;
          for (int64_t m = 0; m < c.m; ++m) {
            Value av;
            if (!c.transposeLhs) {
              av = widen(load(c.lhs, at(batch, x.c(m), k)));
            } else {
              SmallVector<Value> elems;
              for (int64_t j = 0; j < vec; ++j)
                elems.push_back(elementA(x.c(m), x.add(k, j)));
              av = vector::FromElementsOp::create(b, loc, vf, elems);
            }
            next.push_back(vector::FMAOp::create(b, loc, av, bv, acc[m]));
          }
          scf::YieldOp::create(b, loc, next);
        });
    SmallVector<Value> sums;
    for (int64_t m = 0; m < c.m; ++m) {
      Value v = vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD,
                                            loop.getResult(m));
      for (int64_t off = graphopt::kWarpSize / 2; off >= 1; off /= 2)
        v = arith::AddFOp::create(b, loc, v, shuffleXor(b, loc, v, off));
      sums.push_back(v);
    }
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, x.c(0));
    if (ragged)
      first = arith::AndIOp::create(b, loc, first, inside(n));
    auto storing = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPointToStart(storing.thenBlock());
    for (int64_t m = 0; m < c.m; ++m)
      store(sums[m], x.c(m), n);
  } else {
    Value group = x.rem(tid, 8), slice = x.div(tid, 8);
    Value n = x.add(n0, x.mul(group, vec));
    auto loop = scf::ForOp::create(
        b, loc, slice, x.c(c.k), x.c(slices), init,
        [&](OpBuilder &, Location, Value k, ValueRange acc) {
          Value bv = widen(load(c.rhs, at(batch, k, clamped(n))));
          SmallVector<Value> next;
          for (int64_t m = 0; m < c.m; ++m) {
            Value a =
                vector::BroadcastOp::create(b, loc, vf, elementA(x.c(m), k));
            next.push_back(vector::FMAOp::create(b, loc, a, bv, acc[m]));
          }
          scf::YieldOp::create(b, loc, next);
        });
    auto bytesTy = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface{}, ws);
    Value dyn = gpu::DynamicSharedMemoryOp::create(b, loc, bytesTy);
    Value red = memref::ViewOp::create(b, loc, redType, dyn, x.c(0), {});
    Value col = x.mul(group, vec);
    for (int64_t m = 0; m < c.m; ++m) {
      vector::StoreOp::create(b, loc, loop.getResult(m), red,
                              ValueRange{slice, col});
      gpu::BarrierOp::create(b, loc);
      // One thread per column adds the 32 slices' sums and stores.
      Value owns = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                         x.c(colsPerBlock));
      if (ragged)
        owns = arith::AndIOp::create(b, loc, owns, inside(x.add(n0, tid)));
      auto owner = scf::IfOp::create(b, loc, owns, /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(owner.thenBlock());
        Value sum = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
        for (int64_t s = 0; s < slices; ++s)
          sum = arith::AddFOp::create(
              b, loc, sum,
              memref::LoadOp::create(b, loc, red, ValueRange{x.c(s), tid}));
        store(sum, x.c(m), x.add(n0, tid));
      }
      gpu::BarrierOp::create(b, loc);
    }
  }
  b.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  return launch;
}

/// The wgmma kernel's configuration for `c`, if it applies: f16/bf16
/// inputs, 128 | M, N and 64 | K, `wgmma` enabled.
std::optional<Config> wgmmaConfig(const GPUContraction &c,
                                  const GPUMatmulTiles &t, Type et) {
  if (!t.wgmma || !(et.isF16() || et.isBF16()) || c.m % 128 || c.n % 128 ||
      c.k % 64)
    return std::nullopt;
  Config cfg{128, 128, 64, 64, 128, 256};
  cfg.async = true;
  cfg.tma = t.wgmmaTMA && tmaCompatible(c.lhs) && tmaCompatible(c.rhs);
  cfg.stages = std::max<int64_t>(t.mmaAsyncStages, 2);
  while (cfg.stages > 2 && 2 * bytesOf(wgmmaShared(true, 128, et, cfg.stages)) >
                               kMaxSharedBytesSm90)
    --cfg.stages;
  return cfg;
}

/// The tensor-core kernels' block, K and warp tiles; a warp per warp tile.
Config tensorCoreConfig(const GPUMatmulTiles &t) {
  return Config{t.mmaM,     t.mmaN,
                t.mmaK,     t.mmaWarpM,
                t.mmaWarpN, (t.mmaM / t.mmaWarpM) * (t.mmaN / t.mmaWarpN) * 32};
}

bool divides(const GPUContraction &c, const Config &cfg) {
  return c.m % cfg.bm == 0 && c.n % cfg.bn == 0 && c.k % cfg.bk == 0 &&
         cfg.bm % cfg.wm == 0 && cfg.bn % cfg.wn == 0 &&
         TileCopy::fits(cfg.bm, cfg.bk, cfg.threads) &&
         TileCopy::fits(cfg.bn, cfg.bk, cfg.threads);
}

/// The tensor-core kernels' shared stages: with `asked` >= 2 and copies of
/// 4, 8 or 16 bytes (what cp.async moves), as many cp.async stages as asked
/// for and fit in shared memory, at least 2; otherwise 2 filled through
/// registers.
void chooseStages(const GPUContraction &c, Config &cfg, int64_t asked,
                  Type et) {
  auto copyWidth = [&](bool transposed, int64_t rows, int64_t cols) {
    return transposed ? TileCopy::vectorWidth(cols, rows, cfg.threads, et)
                      : TileCopy::vectorWidth(rows, cols, cfg.threads, et);
  };
  int64_t minVec = 4 * 8 / et.getIntOrFloatBitWidth();
  cfg.async = asked >= 2 &&
              copyWidth(c.transposeLhs, cfg.bm, cfg.bk) >= minVec &&
              copyWidth(c.transposeRhs, cfg.bk, cfg.bn) >= minVec;
  cfg.stages = cfg.async ? asked : 2;
  while (cfg.stages > 2 && !fitsShared(tensorCoreShared(c, cfg, et)))
    --cfg.stages;
  if (cfg.async && !fitsShared(tensorCoreShared(c, cfg, et)))
    cfg.async = false;
}
} // namespace

SmallVector<Value> mlir::graphopt::loadMatrices(Idx &x, Value mem,
                                                ValueRange idx, int64_t n,
                                                bool transpose) {
  Type et = cast<MemRefType>(mem.getType()).getElementType();
  auto vt = VectorType::get({n, 32 / et.getIntOrFloatBitWidth()}, et);
  Value m = nvgpu::LdMatrixOp::create(x.b, x.loc, vt, mem, idx, transpose, n);
  SmallVector<Value> regs;
  for (int64_t q = 0; q < n; ++q)
    regs.push_back(vector::ExtractOp::create(x.b, x.loc, m, q));
  return regs;
}

SmallVector<Value> mlir::graphopt::warpMma(Idx &x, Type type, ValueRange a,
                                           ValueRange b, ValueRange c) {
  NVVM::MMATypes t = type.isF16()    ? NVVM::MMATypes::f16
                     : type.isBF16() ? NVVM::MMATypes::bf16
                                     : NVVM::MMATypes::tf32;
  Type f32 = x.b.getF32Type();
  auto resultTy =
      LLVM::LLVMStructType::getLiteral(x.b.getContext(), {f32, f32, f32, f32});
  // bf16 pairs go in as i32 (f16 pairs stay vector<2xf16>).
  auto operands = [&](ValueRange regs) {
    SmallVector<Value> out(regs);
    if (type.isBF16())
      for (Value &r : out)
        if (isa<VectorType>(r.getType()))
          r = vector::ExtractOp::create(
              x.b, x.loc,
              vector::BitCastOp::create(
                  x.b, x.loc, VectorType::get({1}, x.b.getI32Type()), r),
              0);
    return out;
  };
  auto mma =
      NVVM::MmaOp::create(x.b, x.loc, resultTy, operands(a), operands(b), c,
                          {16, 8, type.isF32() ? 8 : 16}, std::nullopt,
                          std::nullopt, std::array<NVVM::MMATypes, 2>{t, t},
                          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                         NVVM::MMALayout::col});
  SmallVector<Value> d;
  for (int64_t e = 0; e < 4; ++e)
    d.push_back(LLVM::ExtractValueOp::create(x.b, x.loc, mma, e));
  return d;
}

FailureOr<gpu::LaunchOp> mlir::graphopt::buildGPUMatmulKernel(
    OpBuilder &b, Location loc, const GPUContraction &c,
    const GPUMatmulTiles &t, GPUMatmulKernelKind *kind, std::string *why) {
  Type et = cast<MemRefType>(c.lhs.getType()).getElementType();
  if (c.m <= kSkinnyMaxRows && t.skinny) {
    if (kind)
      *kind = GPUMatmulKernelKind::Skinny;
    return buildSkinny(b, loc, c);
  }
  if (std::optional<Config> cfg = wgmmaConfig(c, t, et)) {
    if (kind)
      *kind = GPUMatmulKernelKind::Wgmma;
    return buildWgmma(b, loc, c, *cfg);
  }
  if (et.isF16() && t.mmaWarpM % 16 == 0 && t.mmaWarpN % 16 == 0 &&
      t.mmaK % 16 == 0) {
    Config cfg = tensorCoreConfig(t);
    chooseStages(c, cfg, t.mmaAsyncStages, et);
    if (divides(c, cfg) && fitsShared(tensorCoreShared(c, cfg, et))) {
      if (c.epilogue &&
          bytesOf(stagingType(cfg, b.getF32Type())) > kMaxSharedBytes)
        return fail(why, "the epilogue's staging tile does not fit in "
                         "shared memory");
      if (kind)
        *kind = GPUMatmulKernelKind::TensorCore;
      return buildTensorCore(b, loc, c, cfg);
    }
  }
  // bf16 (mma.sync m16n8k16, sm_80+) and, opt-in, f32 as TF32 (m16n8k8)
  // on tensor cores: 64x64x32 blocks of 4 warps, 32x32 warp tiles.
  bool mmaSync =
      (et.isBF16() && t.mmaSyncBF16) || (et.isF32() && t.mmaSyncTF32);
  int64_t mmaK = et.isBF16() ? 16 : 8;
  if (mmaSync && t.mmaWarpM % 16 == 0 && t.mmaWarpN % 16 == 0 &&
      t.mmaK % mmaK == 0) {
    Config cfg = tensorCoreConfig(t);
    chooseStages(c, cfg, t.mmaAsyncStages, et);
    if (divides(c, cfg) && fitsShared(tensorCoreShared(c, cfg, et))) {
      if (kind)
        *kind = GPUMatmulKernelKind::TensorCore;
      return buildMmaSync(b, loc, c, cfg);
    }
  }
  Config cfg{t.simtM, t.simtN, t.simtK, t.simtThreadM, t.simtThreadN, 0};
  while (c.m % cfg.bm && cfg.wm > 4 && cfg.wm % 8 == 0) {
    cfg.bm /= 2;
    cfg.wm /= 2;
  }
  while (c.n % cfg.bn && cfg.wn > 4 && cfg.wn % 8 == 0) {
    cfg.bn /= 2;
    cfg.wn /= 2;
  }
  if (cfg.wm % 4 || cfg.wn % 4 || cfg.bm % cfg.wm || cfg.bn % cfg.wn)
    return fail(why, "SIMT thread tile is not a multiple of 4 dividing the "
                     "block tile");
  cfg.threads = (cfg.bm / cfg.wm) * (cfg.bn / cfg.wn);
  if (cfg.threads > 1024 || !divides(c, cfg) ||
      !fitsShared(simtShared(cfg, b.getF32Type())))
    return fail(why, "tile sizes do not divide the problem");
  if (kind)
    *kind = GPUMatmulKernelKind::Simt;
  return buildSimt(b, loc, c, cfg);
}

namespace {
/// Pads `c` for the kernels: its operands copied into zero-filled buffers
/// whose M, N and K are multiples of the tiles of the kernel its types
/// take (tensor cores: mma*, else SIMT), the kernel run on those, and C's
/// valid part copied back. The padded rows and columns of A and B are
/// zeros, so the padded K adds nothing and the padded rows and columns of
/// C are dropped. An A stored [m, k] padded along M only is not copied:
/// the kernel clamps its row reads (lhsRows). The fills and copies are kernels
/// of their own (one pass over each operand; a weight is copied on every call).
/// Not done with M or N below 16 (matrix-vector-like products: the default
/// kernel streams them, padding would multiply their work) or under `minWork`
/// multiply-adds (three more launches cost more than the default kernel
/// loses). With `epilogue`
/// (the elementwise op after the contraction, reading C and writing another
/// buffer), that op reads C's valid part from the padded buffer instead of
/// a copy; or, when only M is padded and C starts at zero, the kernel
/// applies it and stores the rows below M (`epilogueFused` set; the caller
/// erases it): one kernel, nothing padded. Fails,
/// leaving no op behind, where the padded contraction has no kernel
/// either.
/// `paddedConstant(v, shape)`: where operand `v` is a constant, a buffer
/// of `shape` holding it zero-padded, made at compile time (null
/// otherwise); then no fill or copy runs for it.
FailureOr<gpu::LaunchOp> buildPaddedKernel(
    OpBuilder &b, Location loc, const GPUContraction &c,
    const GPUMatmulTiles &t, int64_t minWork, Operation *epilogue,
    bool *epilogueFused, GPUMatmulKernelKind *kind,
    function_ref<Value(Value, ArrayRef<int64_t>)> paddedConstant) {
  if (c.m < 16 || c.n < 16 || minWork <= 0 ||
      std::max<int64_t>(c.batch, 1) * c.m * c.n * c.k < minWork)
    return failure();
  Type et = cast<MemRefType>(c.lhs.getType()).getElementType();
  bool tensorCores = et.isF16() || (et.isBF16() && t.mmaSyncBF16) ||
                     (et.isF32() && t.mmaSyncTF32);
  if ((tensorCores ? std::min({t.mmaM, t.mmaN, t.mmaK})
                   : std::min({t.simtM, t.simtN, t.simtK})) <= 0)
    return failure();
  // The SIMT kernel halves its tile along M or N (with a thread tile of 8
  // or more) when that divides: pad to the half tile where that pads less.
  auto padTo = [&](int64_t size, int64_t tile, int64_t threadTile) {
    int64_t full = llvm::alignTo(size, tile);
    if (tensorCores || threadTile % 8)
      return full;
    return std::min(full, static_cast<int64_t>(llvm::alignTo(size, tile / 2)));
  };
  GPUContraction p = c;
  p.m = padTo(c.m, tensorCores ? t.mmaM : t.simtM, t.simtThreadM);
  p.n = padTo(c.n, tensorCores ? t.mmaN : t.simtN, t.simtThreadN);
  p.k = llvm::alignTo(c.k, tensorCores ? t.mmaK : t.simtK);
  p.epilogue = nullptr;
  SmallVector<Operation *> created;
  auto track = [&](Operation *op) {
    created.push_back(op);
    return op;
  };
  // The shape of an operand with its two trailing dims (x, y) replaced.
  auto shapeOf = [&](Value v, int64_t x, int64_t y) {
    SmallVector<int64_t> shape(cast<MemRefType>(v.getType()).getShape());
    shape[shape.size() - 2] = x;
    shape[shape.size() - 1] = y;
    return shape;
  };
  // The part of padded buffer `buf` that an unpadded `type` covers (its
  // origin corner), as a subview.
  auto cornerOf = [&](Value buf, MemRefType type) -> Value {
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)), sizes,
        strides(type.getRank(), b.getIndexAttr(1));
    for (int64_t d : type.getShape())
      sizes.push_back(b.getIndexAttr(d));
    return memref::SubViewOp::create(b, loc, buf, offsets, sizes, strides);
  };
  // A zero-filled buffer of `shape` holding `v` at its origin (`v` itself
  // if the shapes match); with `copyIn` false, an uninitialized one.
  // Buffers allocated here (deallocated after the kernel).
  SmallVector<Value> allocated;
  auto padded = [&](Value v, ArrayRef<int64_t> shape, bool copyIn) -> Value {
    auto type = cast<MemRefType>(v.getType());
    if (type.getShape() == shape)
      return v;
    if (copyIn)
      if (Value constant = paddedConstant(v, shape)) {
        track(constant.getDefiningOp());
        return constant;
      }
    Value buf =
        track(memref::AllocOp::create(
                  b, loc, MemRefType::get(shape, type.getElementType())))
            ->getResult(0);
    allocated.push_back(buf);
    if (!copyIn)
      return buf;
    Value zero = track(arith::ConstantOp::create(
                           b, loc, b.getZeroAttr(type.getElementType())))
                     ->getResult(0);
    track(linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{buf}));
    Value view = cornerOf(buf, type);
    track(view.getDefiningOp());
    track(memref::CopyOp::create(b, loc, v, view));
    return buf;
  };
  // A stored [m, k] padded along M only: no copy, the kernel clamps its
  // row reads (the rows of C past M, which hold garbage then, are dropped).
  bool rowsOnly = !c.transposeLhs && p.k == c.k && p.n == c.n && p.m != c.m;
  // Then, with C starting at zero and an epilogue writing another buffer,
  // nothing needs padding: the kernel applies the epilogue and stores its
  // rows below M (one kernel, C never touched).
  if (rowsOnly && c.zeroInit && epilogue &&
      cast<linalg::GenericOp>(epilogue).getDpsInitOperand(0)->get() != c.acc) {
    GPUContraction f = p;
    f.lhsRows = f.rowsOut = c.m;
    f.epilogue = epilogue;
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(epilogue);
    FailureOr<gpu::LaunchOp> kernel = buildGPUMatmulKernel(b, loc, f, t, kind);
    if (succeeded(kernel)) {
      *epilogueFused = true;
      return kernel;
    }
  }
  if (!c.transposeLhs && p.k == c.k && p.m != c.m)
    p.lhsRows = c.m;
  else
    p.lhs = padded(c.lhs,
                   c.transposeLhs ? shapeOf(c.lhs, p.k, p.m)
                                  : shapeOf(c.lhs, p.m, p.k),
                   true);
  p.rhs = padded(c.rhs,
                 c.transposeRhs ? shapeOf(c.rhs, p.n, p.k)
                                : shapeOf(c.rhs, p.k, p.n),
                 true);
  p.acc = padded(c.acc, shapeOf(c.acc, p.m, p.n), !c.zeroInit);
  FailureOr<gpu::LaunchOp> kernel = buildGPUMatmulKernel(b, loc, p, t, kind);
  if (failed(kernel)) {
    for (Operation *op : llvm::reverse(created))
      op->erase();
    return failure();
  }
  // Where the padded C's dealloc goes: after its last reader.
  Operation *lastReader = nullptr;
  if (p.acc != c.acc) {
    Value view = cornerOf(p.acc, cast<MemRefType>(c.acc.getType()));
    auto epi = dyn_cast_or_null<linalg::GenericOp>(epilogue);
    if (epi && epi.getDpsInitOperand(0)->get() != c.acc) {
      for (OpOperand *in : epi.getDpsInputOperands())
        if (in->get() == c.acc)
          in->set(view);
      lastReader = epi;
    } else {
      memref::CopyOp::create(b, loc, view, c.acc);
    }
  }
  for (Value v : {p.lhs, p.rhs})
    if (llvm::is_contained(allocated, v))
      memref::DeallocOp::create(b, loc, v);
  if (p.acc != c.acc) {
    OpBuilder::InsertionGuard g(b);
    if (lastReader)
      b.setInsertionPointAfter(lastReader);
    memref::DeallocOp::create(b, loc, p.acc);
  }
  return kernel;
}

/// `op`, a contraction on buffers, if an input is the output of a
/// `linalg.transpose` swapping X's two trailing dims: the same contraction
/// as a `linalg.generic` reading X with that operand's map's two trailing
/// results swapped (the kernels read A and B in either layout), the
/// transpose (and its buffer) erased once nothing else reads it. The
/// PyTorch importer writes F.linear as transpose + matmul; left alone,
/// the transpose is a copy kernel over the weight on every call. Only
/// where the transpose is the buffer's last writer before `op` in its
/// block and nothing between them may write or free X or that buffer.
/// Returns the op to build the kernel for.
linalg::LinalgOp foldTransposedOperands(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return op;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<Value> inputs = op.getDpsInputs();
  SmallVector<linalg::TransposeOp> folded;
  for (int i = 0; i < 2; ++i) {
    Value t = inputs[i];
    linalg::TransposeOp tr;
    for (Operation *user : t.getUsers()) {
      auto cand = dyn_cast<linalg::TransposeOp>(user);
      if (cand && cand.getInit() == t && cand->getBlock() == op->getBlock() &&
          cand->isBeforeInBlock(op) && (!tr || tr->isBeforeInBlock(cand)))
        tr = cand;
    }
    if (!tr || !tr.hasPureBufferSemantics())
      continue;
    ArrayRef<int64_t> perm = tr.getPermutation();
    int64_t rank = perm.size();
    bool swapsTrailing =
        rank >= 2 && perm[rank - 1] == rank - 2 && perm[rank - 2] == rank - 1;
    for (int64_t d = 0; d + 2 < rank; ++d)
      swapsTrailing &= perm[d] == d;
    if (!swapsTrailing ||
        maps[i].getNumResults() != static_cast<unsigned>(rank))
      continue;
    Value x = tr.getInput();
    Value xBase = viewedBuffer(x), tBase = viewedBuffer(t);
    bool safe = true;
    for (Operation *it = tr->getNextNode(); safe && it != op.getOperation();
         it = it->getNextNode()) {
      if (isMemoryEffectFree(it) || isa<memref::AllocOp>(it))
        continue;
      auto effects = dyn_cast<MemoryEffectOpInterface>(it);
      if (!effects || (it->getNumRegions() && !isa<linalg::LinalgOp>(it))) {
        safe = false;
        break;
      }
      SmallVector<MemoryEffects::EffectInstance> list;
      effects.getEffects(list);
      for (MemoryEffects::EffectInstance &e : list) {
        if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
          continue;
        Value v = e.getValue();
        if (!v || viewedBuffer(v) == xBase || viewedBuffer(v) == tBase)
          safe = false;
      }
    }
    if (!safe)
      continue;
    SmallVector<AffineExpr> results(maps[i].getResults());
    std::swap(results[rank - 1], results[rank - 2]);
    maps[i] = AffineMap::get(maps[i].getNumDims(), 0, results, op.getContext());
    inputs[i] = x;
    folded.push_back(tr);
  }
  if (folded.empty())
    return op;
  OpBuilder b(op);
  auto generic = linalg::GenericOp::create(b, op.getLoc(), TypeRange{}, inputs,
                                           op.getDpsInits(), maps,
                                           op.getIteratorTypesArray());
  IRMapping mapping;
  op->getRegion(0).cloneInto(&generic.getRegion(), mapping);
  op->erase();
  for (linalg::TransposeOp tr : folded) {
    Value t = tr.getInit();
    auto onlyFrees = [&](Operation *u) { return isa<memref::DeallocOp>(u); };
    if (!llvm::all_of(t.getUsers(), [&](Operation *u) {
          return u == tr.getOperation() || onlyFrees(u);
        }))
      continue;
    tr->erase();
    if (t.getDefiningOp<memref::AllocOp>()) {
      for (Operation *u : llvm::make_early_inc_range(t.getUsers()))
        u->erase();
      t.getDefiningOp()->erase();
    }
  }
  return generic;
}

struct GraphGPUMatmulPass
    : public graphopt::impl::GraphGPUMatmulPassBase<GraphGPUMatmulPass> {
  using Base::Base;

  /// Zero-padded copies of constant globals, one per global and shape.
  DenseMap<std::pair<Operation *, Attribute>, memref::GlobalOp> paddedGlobals;
  /// The get_global ops of the originals (erased at the end if unused).
  llvm::SetVector<Operation *> replacedGets;
  SymbolTable *symbols = nullptr;

  /// `v`, a `memref.get_global` of a constant global with dense contents
  /// (DenseElementsAttr, not splat, or a dense resource), as a get_global
  /// of a new constant global of `shape` (the same rank; only the two
  /// trailing dims larger) holding it at its origin and zeros elsewhere,
  /// built at `b`; null for anything else.
  Value paddedConstant(OpBuilder &b, Value v, ArrayRef<int64_t> shape) {
    auto get = v.getDefiningOp<memref::GetGlobalOp>();
    auto global =
        get ? symbols->lookup<memref::GlobalOp>(get.getName()) : nullptr;
    if (!global || !global.getConstant() || !global.getInitialValue())
      return Value();
    auto type = cast<MemRefType>(v.getType());
    Type et = type.getElementType();
    if (!type.getLayout().isIdentity() || !et.isIntOrFloat() ||
        et.getIntOrFloatBitWidth() % 8 || type.getRank() < 2)
      return Value();
    int64_t bytes = et.getIntOrFloatBitWidth() / 8;
    ArrayRef<char> data;
    Attribute init = *global.getInitialValue();
    if (auto dense = dyn_cast<DenseElementsAttr>(init);
        dense && !dense.isSplat())
      data = dense.getRawData();
    else if (auto res = dyn_cast<DenseResourceElementsAttr>(init))
      if (AsmResourceBlob *blob = res.getRawHandle().getBlob())
        data = blob->getData();
    if (static_cast<int64_t>(data.size()) != type.getNumElements() * bytes)
      return Value();
    auto key = std::make_pair(global.getOperation(),
                              Attribute(b.getDenseI64ArrayAttr(shape)));
    memref::GlobalOp &padded = paddedGlobals[key];
    auto paddedType = MemRefType::get(shape, et);
    if (!padded) {
      int64_t rank = type.getRank();
      int64_t rows = type.getDimSize(rank - 2),
              cols = type.getDimSize(rank - 1);
      int64_t newRows = shape[rank - 2], newCols = shape[rank - 1];
      SmallVector<char> out(paddedType.getNumElements() * bytes, 0);
      for (int64_t i = 0, e = type.getNumElements() / cols; i < e; ++i) {
        int64_t batch = i / rows, row = i % rows;
        std::copy_n(data.data() + i * cols * bytes, cols * bytes,
                    out.data() + (batch * newRows + row) * newCols * bytes);
      }
      OpBuilder mb(global);
      auto tensorType = RankedTensorType::get(shape, et);
      std::string name = (global.getSymName() + "_padded").str();
      padded = memref::GlobalOp::create(
          mb, global.getLoc(), name, mb.getStringAttr("private"), paddedType,
          DenseResourceElementsAttr::get(
              tensorType, name,
              HeapAsmResourceBlob::allocateAndCopyWithAlign(
                  out, alignof(std::max_align_t))),
          /*constant=*/true, global.getAlignmentAttr());
      symbols->insert(padded);
      ++numPaddedConstants;
    }
    replacedGets.insert(get);
    return memref::GetGlobalOp::create(b, get.getLoc(), paddedType,
                                       padded.getSymName());
  }

  void runOnOperation() override {
    SymbolTable table(getOperation());
    symbols = &table;
    paddedGlobals.clear();
    GPUMatmulTiles tiles;
    tiles.mmaM = mmaTileM;
    tiles.mmaN = mmaTileN;
    tiles.mmaK = mmaTileK;
    tiles.mmaWarpM = mmaWarpTileM;
    tiles.mmaWarpN = mmaWarpTileN;
    tiles.mmaAsyncStages = asyncCopyStages;
    tiles.mmaSyncBF16 = bf16TensorCores;
    tiles.mmaSyncTF32 = tf32TensorCores;
    tiles.wgmma = wgmma;
    tiles.wgmmaTMA = wgmmaTma;
    tiles.skinny = matrixVector;
    tiles.simtM = simtTileM;
    tiles.simtN = simtTileN;
    tiles.simtK = simtTileK;
    tiles.simtThreadM = simtThreadTileM;
    tiles.simtThreadN = simtThreadTileN;
    // The contractions, in host code only. What a kernel erases besides
    // its contraction (the epilogue, all parallel; the zero fill) is never a
    // contraction, so never in this list.
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>() &&
          linalg::isaContractionOpInterface(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      op = foldTransposedOperands(op);
      FailureOr<GPUContraction> c = matchGPUContraction(op);
      if (failed(c)) {
        ++numLeft;
        continue;
      }
      // A zero fill of the accumulator just before: the kernel starts from
      // zero in registers and the fill (a kernel of its own, one pass over
      // C) goes.
      auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
      if (fill && fill.hasPureBufferSemantics() &&
          fill.getOutputs()[0] == c->acc &&
          (matchPattern(fill.value(), m_AnyZeroFloat()) ||
           matchPattern(fill.value(), m_Zero())))
        c->zeroInit = true;
      // The elementwise op after it (bias, activation, cast) applied before
      // the kernel's one store; without it if the kernel cannot take it.
      if (fuseEpilogue)
        (void)matchGPUEpilogue(op, *c);
      GPUMatmulKernelKind kind;
      Operation *epilogue = c->epilogue, *matchedEpilogue = c->epilogue;
      OpBuilder b(epilogue ? epilogue : op.getOperation());
      FailureOr<gpu::LaunchOp> kernel =
          buildGPUMatmulKernel(b, op.getLoc(), *c, tiles, &kind);
      if (failed(kernel) && epilogue) {
        c->epilogue = epilogue = nullptr;
        b.setInsertionPoint(op);
        kernel = buildGPUMatmulKernel(b, op.getLoc(), *c, tiles, &kind);
      }
      // Shapes the tiles do not divide: the kernel on zero-padded copies.
      if (failed(kernel)) {
        bool fused = false;
        kernel = buildPaddedKernel(b, op.getLoc(), *c, tiles, padMinWork,
                                   matchedEpilogue, &fused, &kind,
                                   [&](Value v, ArrayRef<int64_t> shape) {
                                     return paddedConstant(b, v, shape);
                                   });
        if (succeeded(kernel))
          ++numPadded;
        if (fused)
          epilogue = matchedEpilogue;
      }
      if (failed(kernel)) {
        ++numLeft;
        continue;
      }
      ++(kind == GPUMatmulKernelKind::Simt     ? numSimt
         : kind == GPUMatmulKernelKind::Skinny ? numSkinny
                                               : numTensorCore);
      if (kind == GPUMatmulKernelKind::Wgmma)
        ++numWgmma;
      op->erase();
      if (epilogue) {
        epilogue->erase();
        ++numEpilogues;
      }
      if (c->zeroInit) {
        fill->erase();
        ++numZeroFillsDropped;
      }
    }
    // A constant whose every use now reads its padded copy goes (it would
    // otherwise stay in the binary beside it).
    for (Operation *get : replacedGets)
      if (get->use_empty())
        get->erase();
    replacedGets.clear();
    // (Also a padded copy whose kernel could not be built after all.)
    llvm::SetVector<Operation *> globals;
    for (auto &entry : paddedGlobals) {
      globals.insert(entry.first.first);
      globals.insert(entry.second);
    }
    for (Operation *global : globals)
      if (SymbolTable::symbolKnownUseEmpty(global, getOperation()))
        global->erase();
  }
};
} // namespace
