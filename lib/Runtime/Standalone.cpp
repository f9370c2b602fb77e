//===- Standalone.cpp - what the self-contained libGraphOpt.so adds -------===//
//
// Compiled only into the wheel's library (GRAPHOPT_STANDALONE_LIBRARY,
// lib/CMakeLists.txt), which links MLIR and LLVM statically and must load
// on any glibc from 2.34 on (manylinux_2_34).
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sys/random.h>

// LLVM's support library (Process.cpp, seeding its random number
// generator) calls arc4random when the build machine's glibc has it; glibc
// added it in 2.36. This definition, hidden inside the library like every
// other symbol but the C API, takes its place.
extern "C" uint32_t arc4random(void) {
  uint32_t value = 0;
  if (getrandom(&value, sizeof(value), 0) ==
      static_cast<ssize_t>(sizeof(value)))
    return value;
  if (FILE *f = std::fopen("/dev/urandom", "rb")) {
    size_t got = std::fread(&value, sizeof(value), 1, f);
    std::fclose(f);
    if (got == 1)
      return value;
  }
  return 0x9e3779b9u;
}

// LLVM's support library was built with zstd (compressed debug sections and
// offload bundles), which nothing graphopt does uses: the JIT and the
// object writer never compress. Rather than carry libzstd (not one of the
// libraries a manylinux wheel may assume), these stand-ins make every zstd
// call fail with a message: decompression reports an error, and
// compression cannot start.
namespace {
constexpr size_t kZstdUnavailable = static_cast<size_t>(-1);
} // namespace

extern "C" {
size_t ZSTD_compressBound(size_t) { return 0; }
unsigned ZSTD_isError(size_t code) { return code == kZstdUnavailable; }
const char *ZSTD_getErrorName(size_t) {
  return "zstd is not available in graphopt's self-contained library";
}
size_t ZSTD_decompress(void *, size_t, const void *, size_t) {
  return kZstdUnavailable;
}
void *ZSTD_createCCtx(void) { return nullptr; }
size_t ZSTD_freeCCtx(void *) { return 0; }
size_t ZSTD_compress2(void *, void *, size_t, const void *, size_t) {
  return kZstdUnavailable;
}
size_t ZSTD_CCtx_setParameter(void *, int, int) { return kZstdUnavailable; }
}
