//===- HeapConstants.cpp - large constants outside the context -----------===//

#include "graphopt/Dialect/Graph/IR/HeapConstants.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sys/mman.h>

using namespace mlir;
using namespace mlir::graphopt;

/// Key prefix of the resources made here (only those are freed or taken).
static constexpr llvm::StringLiteral kPrefix = "graphopt_heap_";
static constexpr size_t kAlign = 64;

namespace {
/// The blocks makeHeapConstant allocated and nothing freed or took yet:
/// only those are std::free'd by their taker (a file's resource may be
/// named like ours, and its data is the parser's).
struct HeapBlocks {
  std::mutex mutex;
  llvm::DenseSet<const void *> blocks;
};
HeapBlocks &heapBlocks() {
  static HeapBlocks *blocks = new HeapBlocks();
  return *blocks;
}
void freeHeapBlock(void *p, size_t, size_t) {
  {
    HeapBlocks &h = heapBlocks();
    std::lock_guard<std::mutex> lock(h.mutex);
    h.blocks.erase(p);
  }
  std::free(p);
}
} // namespace

ElementsAttr
mlir::graphopt::makeHeapConstant(RankedTensorType type,
                                 llvm::function_ref<void(float *)> fill) {
  size_t count = type.getNumElements();
  size_t bytes = count * sizeof(float);
  if (bytes < kHeapConstantMinBytes) {
    std::vector<float> values(count);
    fill(values.data());
    return DenseElementsAttr::get(type, ArrayRef<float>(values));
  }
  // The data is made in scratch memory mapped for the call (and unmapped
  // after it: a transient malloc block of this size would stay in the
  // allocator's heap), and copied to a block of its own only when no equal
  // constant exists (BERT's 12 copies of a layer: 1 block, not 12).
  void *scratch = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (scratch == MAP_FAILED)
    llvm::report_fatal_error("cannot map " + llvm::Twine(bytes) +
                             " bytes for a constant");
  llvm::scope_exit unmap([&] { ::munmap(scratch, bytes); });
  fill(static_cast<float *>(scratch));
  ArrayRef<char> made(static_cast<const char *>(scratch), bytes);
  uint64_t hash = llvm::xxh3_64bits(
      ArrayRef<uint8_t>(static_cast<const uint8_t *>(scratch), bytes));
  std::string key;
  llvm::raw_string_ostream(key)
      << kPrefix << llvm::format_hex_no_prefix(hash, 16);
  MLIRContext *ctx = type.getContext();
  auto &manager = DenseResourceElementsHandle::getManagerInterface(ctx);
  if (auto *entry = manager.getBlobManager().lookup(key))
    if (AsmResourceBlob *blob = entry->getBlob();
        blob && blob->getData() == made)
      return DenseResourceElementsAttr::get(
          type, DenseResourceElementsHandle(
                    entry, ctx->getLoadedDialect<BuiltinDialect>()));
  void *data =
      std::aligned_alloc(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
  if (!data)
    llvm::report_fatal_error("cannot allocate a constant of " +
                             llvm::Twine(bytes) + " bytes");
  std::memcpy(data, scratch, bytes);
  ArrayRef<char> raw(static_cast<const char *>(data), bytes);
  {
    HeapBlocks &h = heapBlocks();
    std::lock_guard<std::mutex> lock(h.mutex);
    h.blocks.insert(data);
  }
  AsmResourceBlob blob(raw, kAlign, freeHeapBlock, /*dataIsMutable=*/false);
  return DenseResourceElementsAttr::get(type, key, std::move(blob));
}

std::optional<ArrayRef<char>> mlir::graphopt::rawConstantData(Attribute attr) {
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(attr)) {
    if (dense.isSplat() || dense.getElementType().isInteger(1))
      return std::nullopt;
    return dense.getRawData();
  }
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      if (!blob->getData().empty())
        return blob->getData();
  return std::nullopt;
}

std::optional<ArrayRef<float>>
mlir::graphopt::f32ConstantValues(Attribute attr, std::vector<float> &splat) {
  auto elements = dyn_cast_or_null<ElementsAttr>(attr);
  if (!elements || !elements.getElementType().isF32())
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr);
      dense && dense.isSplat()) {
    splat.assign(dense.getNumElements(), dense.getSplatValue<float>());
    return ArrayRef<float>(splat);
  }
  std::optional<ArrayRef<char>> raw = rawConstantData(attr);
  if (!raw || static_cast<int64_t>(raw->size()) !=
                  elements.getNumElements() * int64_t(sizeof(float)))
    return std::nullopt;
  return ArrayRef<float>(reinterpret_cast<const float *>(raw->data()),
                         raw->size() / sizeof(float));
}

DenseElementsAttr mlir::graphopt::denseConstant(Attribute attr) {
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(attr))
    return dense;
  auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr);
  if (!resource)
    return {};
  ShapedType type = resource.getType();
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return {};
  std::optional<ArrayRef<char>> raw = rawConstantData(resource);
  if (!raw || static_cast<int64_t>(raw->size()) !=
                  type.getNumElements() * (element.getIntOrFloatBitWidth() / 8))
    return {};
  return DenseElementsAttr::getFromRawBuffer(type, *raw);
}

void *mlir::graphopt::takeHeapConstant(Attribute attr) {
  auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr);
  if (!resource || !resource.getRawHandle().getKey().starts_with(kPrefix))
    return nullptr;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob || blob->getData().empty())
    return nullptr;
  void *data = const_cast<char *>(blob->getData().data());
  {
    HeapBlocks &h = heapBlocks();
    std::lock_guard<std::mutex> lock(h.mutex);
    if (!h.blocks.erase(data))
      return nullptr;
  }
  // The resource keeps an empty blob: its data is the caller's now.
  blob->getDeleter() = nullptr;
  *blob = AsmResourceBlob();
  return data;
}

size_t mlir::graphopt::releaseUnusedHeapConstants(Operation *root) {
  llvm::DenseSet<StringRef> used;
  root->walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
      used.insert(attr.getRawHandle().getKey());
    });
  });
  MLIRContext *ctx = root->getContext();
  auto &manager = DenseResourceElementsHandle::getManagerInterface(ctx);
  size_t freed = 0;
  manager.getBlobManager().getBlobMap(
      [&](const llvm::StringMap<DialectResourceBlobManager::BlobEntry> &map) {
        for (const auto &it : map) {
          auto &entry =
              const_cast<DialectResourceBlobManager::BlobEntry &>(it.second);
          AsmResourceBlob *blob = entry.getBlob();
          if (!entry.getKey().starts_with(kPrefix) || !blob ||
              blob->getData().empty() || used.contains(entry.getKey()))
            continue;
          freed += blob->getData().size();
          entry.setBlob(AsmResourceBlob());
        }
      });
  return freed;
}

namespace {
/// A reshape of a `dense_resource` constant is the same data with another
/// type: a constant of the resource at the new type, with no copy (a
/// DenseElementsAttr's reshape folds upstream, by copying).
template <typename OpTy, typename ConstantTy>
struct FoldReshapeOfResource : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    Attribute attr;
    if (!type || !type.hasStaticShape() ||
        !matchPattern(op->getOperand(0), m_Constant(&attr)))
      return failure();
    auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
    if (!resource)
      return failure();
    rewriter.replaceOpWithNewOp<ConstantTy>(
        op, type,
        DenseResourceElementsAttr::get(type, resource.getRawHandle()));
    return success();
  }
};
} // namespace

void graph::GraphDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  MLIRContext *ctx = getContext();
  results.add<FoldReshapeOfResource<tensor::CollapseShapeOp, arith::ConstantOp>,
              FoldReshapeOfResource<tensor::ExpandShapeOp, arith::ConstantOp>,
              FoldReshapeOfResource<graph::ReshapeOp, graph::ConstantOp>>(ctx);
}
