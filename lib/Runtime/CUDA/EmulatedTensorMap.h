//===- EmulatedTensorMap.h - the emulated driver's CUtensorMap ---*- C++
//-*-===//
//
// What libGraphOptCUDAEmulator's cuTensorMapEncodeTiled writes into the 128
// opaque bytes of a CUtensorMap, and the emulated kernels' TMA copies
// (graphoptEmuTensorLoad in libGraphOptCUDARuntime) read back: the encode
// call's arguments, as the real driver would check them. A real driver's
// tensor map is another format; the two never meet (the emulator's maps
// are only read by emulated kernels).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_RUNTIME_CUDA_EMULATEDTENSORMAP_H
#define GRAPHOPT_RUNTIME_CUDA_EMULATEDTENSORMAP_H

#include <cstdint>

namespace graphopt::emulator {

struct TensorMap {
  static constexpr uint32_t kMagic = 0x474f544d; // "GOTM"
  uint32_t magic;
  uint32_t rank;         // 1 .. 5
  uint32_t elementBytes; // 1, 2, 4 or 8
  uint32_t swizzleBytes; // 0 (none), 32, 64 or 128
  uint64_t address;      // of element 0 (emulated device memory)
  uint32_t dims[5];      // innermost first
  uint32_t box[5];
  uint64_t strides[4]; // bytes, of dims 1 .. rank - 1
};
static_assert(sizeof(TensorMap) <= 128, "a CUtensorMap is 128 bytes");

} // namespace graphopt::emulator

#endif
