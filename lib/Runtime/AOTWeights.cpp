//===- AOTWeights.cpp - weights of an AOT object in a file of their own ---===//
//
// `graph-run --emit-object=m.o --emit-weights=m.weights` (docs/AOT.md,
// "Weights in a file of their own"): the large constants of the lowered
// module leave the object for the file, each in its own 64-byte aligned
// slot, and the code reads each through a pointer that
// `graphopt_<entry>_bind_weights(base)` sets once the file is mapped.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/IR/HeapConstants.h"
#include "graphopt/Runtime/AOTHeader.h"
#include "graphopt/Runtime/Runner.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::graphopt::runtime;

/// Constants smaller than this stay in the object (biases, scalars).
static constexpr size_t kMinWeightBytes = 1024;
static constexpr uint64_t kSlotAlign = 64;

uint64_t mlir::graphopt::runtime::aotWeightsChecksum(const char *data,
                                                     uint64_t bytes) {
  // Over little-endian 64-bit words (the data is a multiple of 64 bytes):
  // each word mixed with its index, so that moved words count. The same sum
  // is written in C (the header) and with NumPy (graphopt.load).
  uint64_t h = 0;
  for (uint64_t i = 0; i < bytes / 8; ++i) {
    uint64_t w;
    std::memcpy(&w, data + 8 * i, 8);
    uint64_t t = (w ^ (i * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    h += t ^ (t >> 31);
  }
  return h;
}

llvm::Expected<AOTWeights> mlir::graphopt::runtime::externalizeWeights(
    ModuleOp module, llvm::StringRef entry, llvm::StringRef path) {
  // The constants to move, in module order, with their slots' offsets.
  struct Moved {
    LLVM::GlobalOp global;
    ArrayRef<char> raw;
    uint64_t offset;
    LLVM::GlobalOp slot = nullptr;
  };
  llvm::SmallVector<Moved> moved;
  uint64_t end = 0;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    // Splats print small; i1 data is bit-packed in the attribute.
    std::optional<ArrayRef<char>> data =
        mlir::graphopt::rawConstantData(global.getValueOrNull());
    if (!data || !global.getConstant() || data->size() < kMinWeightBytes)
      continue;
    ArrayRef<char> raw = *data;
    uint64_t align = std::max<uint64_t>(
        kSlotAlign, global.getAlignment() ? *global.getAlignment() : 0);
    end = llvm::alignTo(end, align);
    moved.push_back({global, raw, end});
    end += raw.size();
  }
  AOTWeights info;
  info.count = moved.size();
  info.bytes = llvm::alignTo(end, kSlotAlign);

  // The file: a 64-byte header, then the data.
  std::vector<char> data(info.bytes, 0);
  for (const Moved &m : moved)
    std::memcpy(data.data() + m.offset, m.raw.data(), m.raw.size());
  info.checksum = aotWeightsChecksum(data.data(), data.size());
  {
    std::error_code ec;
    llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return llvm::createStringError("cannot write %s: %s", path.str().c_str(),
                                     ec.message().c_str());
    char header[64] = {0};
    std::memcpy(header, kAOTWeightsMagic, 8);
    uint64_t fields[3] = {info.bytes, info.checksum, info.count};
    std::memcpy(header + 8, fields, sizeof(fields));
    out.os().write(header, sizeof(header));
    out.os().write(data.data(), data.size());
    out.keep();
  }

  // The code: every address of a moved constant becomes a load of its slot,
  // a pointer that the bind function sets.
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = module.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto makeSlot = [&](llvm::StringRef name) {
    b.setInsertionPointToStart(module.getBody());
    auto slot = LLVM::GlobalOp::create(b, loc, ptrType, /*isConstant=*/false,
                                       LLVM::Linkage::Internal, name,
                                       Attribute(), /*alignment=*/8);
    Block *init = b.createBlock(&slot.getInitializerRegion());
    b.setInsertionPointToStart(init);
    LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptrType));
    return slot;
  };
  llvm::DenseMap<StringAttr, LLVM::GlobalOp> slots;
  for (auto [i, m] : llvm::enumerate(moved)) {
    m.slot = makeSlot(("__graphopt_weight_" + llvm::Twine(i)).str());
    slots[m.global.getSymNameAttr()] = m.slot;
  }
  LLVM::GlobalOp baseSlot = makeSlot("__graphopt_weights_base");

  llvm::SmallVector<LLVM::AddressOfOp> uses;
  module.walk([&](LLVM::AddressOfOp op) {
    if (slots.count(op.getGlobalNameAttr().getAttr()))
      uses.push_back(op);
  });
  for (LLVM::AddressOfOp op : uses) {
    if (!op->getParentOfType<LLVM::LLVMFuncOp>())
      return llvm::createStringError(
          "constant @%s is addressed outside a function: it cannot move to "
          "a weights file",
          op.getGlobalName().str().c_str());
    b.setInsertionPoint(op);
    auto slot = slots[op.getGlobalNameAttr().getAttr()];
    Value addr = LLVM::AddressOfOp::create(b, op.getLoc(), slot);
    Value ptr = LLVM::LoadOp::create(b, op.getLoc(), ptrType, addr,
                                     /*alignment=*/8);
    op.replaceAllUsesWith(ptr);
    op.erase();
  }
  for (Moved &m : moved)
    m.global.erase();

  // void graphopt_<entry>_bind_weights(const void *base): base is the
  // file's data (after its header), or null to unbind.
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  auto i8 = IntegerType::get(ctx, 8);
  b.setInsertionPointToEnd(module.getBody());
  auto bind = LLVM::LLVMFuncOp::create(
      b, loc, ("graphopt_" + entry + "_bind_weights").str(),
      LLVM::LLVMFunctionType::get(voidType, {ptrType}));
  Block *body = bind.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  Value base = body->getArgument(0);
  LLVM::StoreOp::create(b, loc, base,
                        LLVM::AddressOfOp::create(b, loc, baseSlot), 8);
  for (const Moved &m : moved) {
    Value at = LLVM::GEPOp::create(b, loc, ptrType, i8, base,
                                   ArrayRef<LLVM::GEPArg>{int64_t(m.offset)});
    LLVM::StoreOp::create(b, loc, at, LLVM::AddressOfOp::create(b, loc, m.slot),
                          8);
  }
  LLVM::ReturnOp::create(b, loc, ValueRange());

  // const void *graphopt_<entry>_weights_base(void): the bound base or null.
  b.setInsertionPointToEnd(module.getBody());
  auto get = LLVM::LLVMFuncOp::create(
      b, loc, ("graphopt_" + entry + "_weights_base").str(),
      LLVM::LLVMFunctionType::get(ptrType, {}));
  body = get.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  Value current = LLVM::LoadOp::create(
      b, loc, ptrType, LLVM::AddressOfOp::create(b, loc, baseSlot), 8);
  LLVM::ReturnOp::create(b, loc, current);
  return info;
}

llvm::Error mlir::graphopt::runtime::linkSharedLibrary(llvm::StringRef object,
                                                       llvm::StringRef output,
                                                       bool openmp) {
  const char *cc = std::getenv("CC");
  std::string driver = cc && *cc ? cc : "cc";
  auto found = llvm::sys::findProgramByName(driver);
  if (!found)
    return llvm::createStringError(
        "no C compiler driver '%s' to link %s into a shared library (set CC, "
        "or link the object yourself: cc -shared %s -o %s -lm)",
        driver.c_str(), output.str().c_str(), object.str().c_str(),
        output.str().c_str());
  std::vector<std::string> args = {*found, "-shared",    object.str(),
                                   "-o",   output.str(), "-lm"};
  if (openmp) {
    llvm::StringRef omp = findOpenMPRuntimeLibrary();
    if (omp.empty())
      return llvm::createStringError(
          "the object runs on several threads but LLVM's OpenMP runtime was "
          "not found when graphopt was built");
    args.push_back(omp.str());
    args.push_back(("-Wl,-rpath," + llvm::sys::path::parent_path(omp)).str());
  }
  llvm::SmallVector<llvm::StringRef> refs(args.begin(), args.end());
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*found, refs, /*Env=*/std::nullopt, {},
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &message);
  if (rc != 0)
    return llvm::createStringError(
        "linking %s failed (%s exited with %d%s%s)", output.str().c_str(),
        found->c_str(), rc, message.empty() ? "" : ": ", message.c_str());
  return llvm::Error::success();
}
