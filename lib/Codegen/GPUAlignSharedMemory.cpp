//===- GPUAlignSharedMemory.cpp - graph-gpu-align-shared-memory -----------===//
//
// The dynamic shared memory symbols that convert-gpu-to-nvvm creates are
// internal zero-length arrays aligned to 16 bytes: NVPTX turns them into a
// one-byte kernel-local variable, and WMMA fragment loads need 32-byte
// alignment. Made external (the launch's dynamic shared memory) and aligned
// here, after the conversion, on the LLVM globals of each gpu.module.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUALIGNSHAREDMEMORYPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// NVVM's shared address space.
constexpr unsigned kSharedAddressSpace = 3;

struct GraphGPUAlignSharedMemoryPass
    : public graphopt::impl::GraphGPUAlignSharedMemoryPassBase<
          GraphGPUAlignSharedMemoryPass> {
  using Base::Base;
  void runOnOperation() override {
    if (alignment < 16 || (alignment & (alignment - 1)) != 0) {
      getOperation().emitError()
          << "alignment must be a power of two of at least 16, got "
          << static_cast<int64_t>(alignment);
      return signalPassFailure();
    }
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      // Dynamic shared memory: a zero-length array in the shared address
      // space, without an initializer.
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != kSharedAddressSpace || !array ||
          array.getNumElements() != 0 || global.getValueOrNull() ||
          !global.getInitializerRegion().empty())
        continue;
      // External: NVPTX then declares `.extern .shared .b8 NAME[]`, the
      // launch's dynamic shared memory. An internal one is "demoted" to a
      // kernel-local `.shared .b8 NAME;` of one byte, which the kernel
      // indexes past.
      global.setLinkage(LLVM::Linkage::External);
      std::optional<uint64_t> current = global.getAlignment();
      if (!current || *current < static_cast<uint64_t>(alignment))
        global.setAlignment(static_cast<uint64_t>(alignment));
      ++numAligned;
    }
  }
};

} // namespace
