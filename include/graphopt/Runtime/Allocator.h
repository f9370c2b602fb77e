//===- Allocator.h - the runtime's buffer allocator -------------*- C++ -*-===//
//
/// \file
/// The heap allocator compiled code uses when built with the runtime
/// allocator (CPUPipelineOptions::runtimeAllocator, as graph-run does): the
/// MLIR "generic allocation functions" `_mlir_memref_to_llvm_alloc`,
/// `_mlir_memref_to_llvm_aligned_alloc` and `_mlir_memref_to_llvm_free`.
///
/// Freed large blocks are kept, by exact size, and handed out again, so that
/// a model called repeatedly reuses its buffers instead of mapping and
/// page-faulting fresh memory on every call. Small blocks go straight to
/// malloc. Thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_RUNTIME_ALLOCATOR_H
#define GRAPHOPT_RUNTIME_ALLOCATOR_H

#include <cstddef>
#include <cstdint>

extern "C" {
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *ptr);

/// A strided copy between two memrefs of any rank, element by element:
/// what `memref.copy` of non-contiguous buffers lowers to
/// (finalize-memref-to-llvm calls `memrefCopy(elementSize, src, dst)` with
/// two unranked descriptors). graphopt's CPU pipeline expands such copies
/// into loops (graph-cpu-expand-copies), so compiled code rarely calls it;
/// the JIT resolves the name to this function, so that no MLIR runtime
/// library (libmlir_c_runner_utils.so, which loads libMLIR) is needed.
void graphopt_memref_copy(int64_t elementSize, void *src, void *dst);
}

namespace mlir::graphopt::runtime {

/// Blocks of at least this many bytes are cached when freed.
constexpr size_t kCachedBlockMinBytes = 64 * 1024;
/// The cache holds at most this many bytes of free blocks.
constexpr size_t kCacheCapacityBytes = size_t(1) << 30;

/// Calls `fn(args)` (a packed entry point of compiled code) so that an
/// allocation it cannot get ends the call: returns false with the size that
/// failed in `*failed`, instead of the compiled code writing through a null
/// pointer. The blocks the call had allocated until then are not freed.
/// Outside such a call a failed allocation prints the size and aborts.
bool callWithAllocationGuard(void (*fn)(void **), void **args,
                             size_t *failed);

/// Bytes currently held in the cache (for tests and statistics).
size_t allocatorCachedBytes();

/// Frees every block the cache holds (blocks in use are not touched);
/// returns the bytes released. Later calls allocate afresh.
size_t releaseCachedBlocks();

} // namespace mlir::graphopt::runtime

#endif // GRAPHOPT_RUNTIME_ALLOCATOR_H
