//===- Allocator.cpp - the runtime's buffer allocator ---------------------===//

#include "graphopt/Runtime/Allocator.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace {
/// Armed by callWithAllocationGuard on this thread: where a failed
/// allocation jumps, and the size that failed.
thread_local std::jmp_buf *guard = nullptr;
thread_local size_t failedBytes = 0;

struct Cache {
  std::mutex mutex;
  /// Size of every live block we handed out (so free knows it).
  std::unordered_map<void *, size_t> live;
  /// Free blocks by size.
  std::unordered_map<size_t, std::vector<void *>> free;
  size_t cachedBytes = 0;
};

Cache &cache() {
  // Leaked on purpose: compiled code may free after static destructors ran.
  static Cache *c = new Cache();
  return *c;
}

void *allocate(size_t alignment, size_t size) {
  alignment = std::max<size_t>(alignment, 64);
  size_t rounded =
      (std::max<size_t>(size, 1) + alignment - 1) / alignment * alignment;
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (rounded >= mlir::graphopt::runtime::kCachedBlockMinBytes) {
    auto it = c.free.find(rounded);
    if (it != c.free.end() && !it->second.empty()) {
      void *p = it->second.back();
      it->second.pop_back();
      c.cachedBytes -= rounded;
      c.live[p] = rounded;
      return p;
    }
  }
  void *p = std::aligned_alloc(alignment, rounded);
  if (p)
    c.live[p] = rounded;
  return p;
}
} // namespace

/// Compiled code has no way to fail: a block it cannot get ends the call
/// (through the guard's jump, outside the cache's lock), or the process.
static void *checked(void *p, size_t size) {
  if (p)
    return p;
  failedBytes = size;
  if (guard)
    std::longjmp(*guard, 1);
  std::fprintf(stderr, "graphopt: cannot allocate %zu bytes\n", size);
  std::abort();
}

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size) {
  return checked(allocate(64, size), size);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size) {
  return checked(allocate(alignment, size), size);
}

bool mlir::graphopt::runtime::callWithAllocationGuard(void (*fn)(void **),
                                                      void **args,
                                                      size_t *failed) {
  std::jmp_buf buf;
  std::jmp_buf *outer = guard;
  // No object with a destructor lives in this frame or in the frames the
  // jump leaves (compiled code and `checked`).
  if (setjmp(buf)) {
    guard = outer;
    if (failed)
      *failed = failedBytes;
    return false;
  }
  guard = &buf;
  fn(args);
  guard = outer;
  return true;
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.live.find(ptr);
  if (it == c.live.end()) {
    // Not ours (cannot happen for code built with the runtime allocator).
    std::free(ptr);
    return;
  }
  size_t size = it->second;
  c.live.erase(it);
  if (size >= mlir::graphopt::runtime::kCachedBlockMinBytes &&
      c.cachedBytes + size <= mlir::graphopt::runtime::kCacheCapacityBytes) {
    c.free[size].push_back(ptr);
    c.cachedBytes += size;
    return;
  }
  std::free(ptr);
}

size_t mlir::graphopt::runtime::allocatorCachedBytes() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.cachedBytes;
}

size_t mlir::graphopt::runtime::releaseCachedBlocks() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  size_t released = c.cachedBytes;
  for (auto &bySize : c.free)
    for (void *p : bySize.second)
      std::free(p);
  c.free.clear();
  c.cachedBytes = 0;
  return released;
}

namespace {
/// MLIR's unranked memref: the rank and a pointer to the ranked descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};
struct RankedView {
  char *data;
  const int64_t *sizes;
  const int64_t *strides;
};
RankedView view(const UnrankedDescriptor &m, int64_t elementSize) {
  auto *fields = static_cast<char *>(m.descriptor);
  char *aligned = *reinterpret_cast<char **>(fields + sizeof(void *));
  auto *ints = reinterpret_cast<const int64_t *>(fields + 2 * sizeof(void *));
  return {aligned + ints[0] * elementSize, ints + 1, ints + 1 + m.rank};
}
} // namespace

extern "C" void graphopt_memref_copy(int64_t elementSize, void *srcArg,
                                     void *dstArg) {
  const auto &srcM = *static_cast<const UnrankedDescriptor *>(srcArg);
  const auto &dstM = *static_cast<const UnrankedDescriptor *>(dstArg);
  int64_t rank = srcM.rank;
  RankedView src = view(srcM, elementSize), dst = view(dstM, elementSize);
  int64_t total = 1;
  for (int64_t d = 0; d < rank; ++d)
    total *= src.sizes[d];
  if (total == 0)
    return;
  if (rank == 0) {
    std::memcpy(dst.data, src.data, static_cast<size_t>(elementSize));
    return;
  }
  // An odometer over the outer dims; the innermost dim is one memcpy when
  // both sides are contiguous in it, else element by element.
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);
  int64_t inner = src.sizes[rank - 1];
  bool contiguous = src.strides[rank - 1] == 1 && dst.strides[rank - 1] == 1;
  for (;;) {
    int64_t srcOffset = 0, dstOffset = 0;
    for (int64_t d = 0; d + 1 < rank; ++d) {
      srcOffset += index[d] * src.strides[d];
      dstOffset += index[d] * dst.strides[d];
    }
    char *s = src.data + srcOffset * elementSize;
    char *t = dst.data + dstOffset * elementSize;
    if (contiguous) {
      std::memmove(t, s, static_cast<size_t>(inner * elementSize));
    } else {
      for (int64_t i = 0; i < inner; ++i)
        std::memcpy(t + i * dst.strides[rank - 1] * elementSize,
                    s + i * src.strides[rank - 1] * elementSize,
                    static_cast<size_t>(elementSize));
    }
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      if (++index[d] < src.sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}
