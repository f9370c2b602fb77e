//===- EmulatedKernelOps.cpp - TMA and mbarriers under --cuda-emulate -----===//
//
// What graph-gpu-launch-to-loops calls in place of the Hopper ops it cannot
// write as host loops: mbarrier.init, mbarrier.arrive.expect_tx,
// mbarrier.try_wait.parity and cp.async.bulk.tensor (TMA) copies of a
// tensor map the emulated driver encoded (EmulatedTensorMap.h). Device and
// shared memory are host memory here.
//
// An mbarrier is its 8 bytes of shared memory, as on the GPU, holding: the
// pending arrivals (bits 0-19), the expected arrivals (20-39), the pending
// transaction bytes (40-62, two's complement) and the phase's parity (63).
// A TMA copy completes when it is issued (an order a GPU may produce); its
// bytes then count down the barrier's transactions. A wait for a phase
// that has not completed would wait forever in the emulation's thread
// order (a thread's earlier copies and arrivals have all happened): it is
// reported and the process stops, as a hang on the GPU would be.
//
//===----------------------------------------------------------------------===//

#include "EmulatedTensorMap.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using graphopt::emulator::TensorMap;

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "graphopt CUDA emulation: %s\n", what);
  std::fflush(stderr);
  std::abort();
}

struct Barrier {
  uint64_t pending, expected;
  int64_t tx;
  uint64_t phase;

  explicit Barrier(const void *p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    pending = w & 0xFFFFF;
    expected = (w >> 20) & 0xFFFFF;
    uint64_t t = (w >> 40) & 0x7FFFFF;
    tx = (t & 0x400000) ? static_cast<int64_t>(t) - 0x800000
                        : static_cast<int64_t>(t);
    phase = w >> 63;
  }
  void store(void *p) const {
    if (tx <= -0x400000 || tx >= 0x400000)
      fail("mbarrier transaction count out of range");
    uint64_t w = pending | (expected << 20) |
                 ((static_cast<uint64_t>(tx) & 0x7FFFFF) << 40) | (phase << 63);
    std::memcpy(p, &w, 8);
  }
  /// The phase completes when every arrival and transaction has.
  void settle() {
    if (pending == 0 && tx == 0) {
      phase ^= 1;
      pending = expected;
    }
  }
};

void checkBarrier(const void *p) {
  if (reinterpret_cast<uintptr_t>(p) % 8)
    fail("mbarrier not 8-byte aligned");
}

/// The state of the initialized mbarrier at `p`, which `op` uses.
Barrier initialized(const void *p, const char *op) {
  checkBarrier(p);
  Barrier b(p);
  if (b.expected == 0) {
    char msg[160];
    std::snprintf(msg, sizeof(msg), "%s on an mbarrier never initialized", op);
    fail(msg);
  }
  return b;
}

} // namespace

extern "C" {

void graphoptEmuMbarrierInit(void *bar, int32_t count) {
  checkBarrier(bar);
  if (count < 1 || count >= (1 << 20))
    fail("mbarrier.init with an arrival count outside [1, 2^20)");
  Barrier b(bar);
  b.pending = b.expected = static_cast<uint64_t>(count);
  b.tx = 0;
  b.phase = 0;
  b.store(bar);
}

void graphoptEmuMbarrierArriveExpectTx(void *bar, int32_t bytes) {
  Barrier b = initialized(bar, "mbarrier.arrive.expect_tx");
  if (b.pending == 0)
    fail("mbarrier.arrive.expect_tx: more arrivals than the phase expects");
  b.tx += bytes;
  b.pending -= 1;
  b.settle();
  b.store(bar);
}

void graphoptEmuMbarrierWaitParity(void *bar, int32_t parity) {
  Barrier b = initialized(bar, "mbarrier.try_wait.parity");
  // The phase of parity `parity` has completed when the current phase's
  // parity differs.
  if (b.phase == static_cast<uint64_t>(parity & 1)) {
    char msg[200];
    std::snprintf(msg, sizeof(msg),
                  "mbarrier.try_wait.parity %d would never return (phase "
                  "incomplete: %llu arrivals and %lld transaction bytes "
                  "pending); on a GPU the kernel would hang",
                  parity & 1, static_cast<unsigned long long>(b.pending),
                  static_cast<long long>(b.tx));
    fail(msg);
  }
}

/// cp.async.bulk.tensor.<rank>d.shared::cluster.global.tile
/// .mbarrier::complete_tx::bytes [dst], [map, {c0, ..}], [bar]: the box at
/// the coordinates (innermost first), elements outside the tensor zero, to
/// `dst` densely (box rows of box[0] elements), 16-byte chunks swizzled on
/// the shared address bits as the hardware does (128-byte swizzle: bits
/// 4-6 xor bits 7-9), then the barrier's transactions counted down.
void graphoptEmuTensorLoad(void *dst, const void *mapPtr, void *bar,
                           int32_t rank, int32_t c0, int32_t c1, int32_t c2,
                           int32_t c3, int32_t c4) {
  TensorMap map;
  std::memcpy(&map, mapPtr, sizeof(map));
  if (map.magic != TensorMap::kMagic)
    fail("cp.async.bulk.tensor with a tensor map the emulated driver did "
         "not encode");
  if (static_cast<uint32_t>(rank) != map.rank)
    fail("cp.async.bulk.tensor: its dimension count is not the tensor "
         "map's rank");
  if (reinterpret_cast<uintptr_t>(dst) % 128)
    fail("cp.async.bulk.tensor: shared destination not 128-byte aligned");
  if (map.swizzleBytes != 0 && map.swizzleBytes != 128)
    fail("cp.async.bulk.tensor: only 128-byte swizzling is emulated");
  checkBarrier(bar);
  const int32_t coords[5] = {c0, c1, c2, c3, c4};
  const uint64_t rowBytes = uint64_t(map.box[0]) * map.elementBytes;
  uint64_t rows = 1;
  for (uint32_t d = 1; d < map.rank; ++d)
    rows *= map.box[d];
  auto *out = static_cast<char *>(dst);
  const auto *global = reinterpret_cast<const char *>(map.address);
  const uintptr_t base = reinterpret_cast<uintptr_t>(dst);
  for (uint64_t r = 0; r < rows; ++r) {
    // The global element coordinates of this box row.
    int64_t at[5] = {coords[0], 0, 0, 0, 0};
    bool inside = true;
    uint64_t rest = r, offset = 0;
    for (uint32_t d = 1; d < map.rank; ++d) {
      at[d] = coords[d] + static_cast<int64_t>(rest % map.box[d]);
      rest /= map.box[d];
      if (at[d] < 0 || at[d] >= map.dims[d])
        inside = false;
      else
        offset += static_cast<uint64_t>(at[d]) * map.strides[d - 1];
    }
    for (uint64_t byte = 0; byte < rowBytes; byte += map.elementBytes) {
      int64_t col = at[0] + static_cast<int64_t>(byte / map.elementBytes);
      uint64_t linear = r * rowBytes + byte;
      uintptr_t addr = base + linear;
      if (map.swizzleBytes == 128)
        addr ^= ((addr >> 7) & 7) << 4;
      char *to = out + (addr - base);
      if (inside && col >= 0 && col < map.dims[0])
        std::memcpy(to, global + offset + uint64_t(col) * map.elementBytes,
                    map.elementBytes);
      else
        std::memset(to, 0, map.elementBytes);
    }
  }
  Barrier b = initialized(bar, "cp.async.bulk.tensor completing");
  b.tx -= static_cast<int64_t>(rows * rowBytes);
  b.settle();
  b.store(bar);
}

} // extern "C"
