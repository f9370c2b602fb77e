//===- RunnerInternal.h - shared by the Runner's CPU and CUDA paths ---*- C++ -*-===//
//
// Private to lib/Runtime: calling compiled entries through their C
// interface (descriptors in, result descriptors out) and the CUDA runtime's
// host API as the Runner loads it.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_LIB_RUNTIME_RUNNERINTERNAL_H
#define GRAPHOPT_LIB_RUNTIME_RUNNERINTERNAL_H

#include "graphopt/Runtime/Allocator.h"
#include "graphopt/Runtime/Runner.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace mlir::graphopt::runtime {

/// The host API of libGraphOptCUDARuntime.so (CUDARuntime.h), resolved
/// with dlsym: libGraphOpt.so does not link the CUDA runtime, so the CPU
/// build and machines without CUDA never need it.
struct Runner::CUDAHostAPI {
  std::string path;
  int (*init)(int) = nullptr;
  int (*device)() = nullptr;
  const char *(*getError)() = nullptr;
  void (*clearError)() = nullptr;
  int (*computeCapability)() = nullptr;
  void *(*malloc)(size_t) = nullptr;
  void (*free)(void *) = nullptr;
  int (*toDevice)(void *, const void *, size_t) = nullptr;
  int (*toHost)(void *, const void *, size_t) = nullptr;
  int (*onDevice)(void *, const void *, size_t) = nullptr;
  void (*setStream)(void *) = nullptr;
  int (*synchronize)() = nullptr;
  void *(*eventCreate)() = nullptr;
  void (*eventDestroy)(void *) = nullptr;
  void (*eventRecord)(void *) = nullptr;
  float (*elapsedMs)(void *, void *) = nullptr;
  void (*setErrorPrinting)(int) = nullptr;
  void (*forgetConstant)(const void *) = nullptr;
  const char *(*driverPath)() = nullptr;
  int (*useDriver)(const char *) = nullptr;

  /// An error carrying the runtime's sticky CUDA error.
  llvm::Error error(const llvm::Twine &what) const {
    const char *e = getError();
    return llvm::createStringError(
        (what + ": " + (e ? e : "unknown CUDA runtime error")).str());
  }
};

/// Loads libGraphOptCUDARuntime.so (findCUDARuntimeLibrary) and resolves its
/// host API.
llvm::Expected<std::unique_ptr<Runner::CUDAHostAPI>> loadCUDAHostAPI();

namespace detail {
/// The path of the file `name` in the directory of the library holding this
/// code (libGraphOpt.so), if there is one: where installed trees and the
/// Python package keep the libraries it loads.
std::optional<std::string> besideThisLibrary(llvm::StringRef name);

/// The descriptor of a contiguous rank-r buffer at `p`.
inline std::vector<int64_t> makeDescriptor(void *p, llvm::ArrayRef<int64_t> shape) {
  int64_t r = shape.size();
  std::vector<int64_t> d(3 + 2 * r);
  std::memcpy(&d[0], &p, sizeof(p));
  std::memcpy(&d[1], &p, sizeof(p));
  d[2] = 0;
  int64_t stride = 1;
  for (int64_t k = r - 1; k >= 0; --k) {
    d[3 + k] = shape[k];
    d[3 + r + k] = stride;
    stride *= shape[k];
  }
  return d;
}

/// One result descriptor, decoded.
struct ResultView {
  void *allocated;
  uint8_t *base; // First element.
  llvm::SmallVector<int64_t> shape, strides;
  bool contiguous() const {
    for (int64_t k = shape.size() - 1, expect = 1; k >= 0; --k) {
      if (shape[k] != 1 && strides[k] != expect)
        return false;
      expect *= shape[k];
    }
    return true;
  }
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  /// Elements from base to the last one, inclusive.
  int64_t span() const {
    int64_t last = 0;
    for (auto [d, s] : llvm::zip(shape, strides)) {
      if (d == 0)
        return 0;
      last += (d - 1) * s;
    }
    return last + 1;
  }
};

/// The result descriptor of type `s` starting at word `d`.
inline ResultView decodeResult(const TensorSignature &s, const int64_t *d) {
  int64_t r = s.shape.size();
  ResultView v;
  void *aligned;
  std::memcpy(&v.allocated, &d[0], sizeof(void *));
  std::memcpy(&aligned, &d[1], sizeof(void *));
  v.base = (uint8_t *)aligned + d[2] * dtypeSize(s.dtype);
  v.shape.assign(d + 3, d + 3 + r);
  v.strides.assign(d + 3 + r, d + 3 + 2 * r);
  return v;
}

inline llvm::SmallVector<ResultView> decodeResults(const EntrySignature &sig,
                                            const std::vector<int64_t> &words) {
  llvm::SmallVector<ResultView> views;
  size_t at = 0;
  for (const TensorSignature &s : sig.outputs) {
    views.push_back(decodeResult(s, &words[at]));
    at += 3 + 2 * s.shape.size();
  }
  return views;
}

/// Calls the entry's packed wrapper `fn` (`_mlir_ciface_<sig.name>`) with
/// the input descriptors `inDescs`, the result descriptors written to
/// `results` (unused without results); an error when the program ran out
/// of memory.
inline llvm::Error callPacked(void (*fn)(void **), const EntrySignature &sig,
                              int64_t *results,
                              llvm::ArrayRef<int64_t *> inDescs) {
  llvm::SmallVector<void *, 16> ptrs, args;
  if (!sig.outputs.empty())
    ptrs.push_back(results);
  for (int64_t *d : inDescs)
    ptrs.push_back(d);
  for (void *&p : ptrs)
    args.push_back(&p);
  size_t failed = 0;
  if (!callWithAllocationGuard(fn, args.data(), &failed))
    return llvm::createStringError(
        "@%s: cannot allocate %zu bytes for an intermediate or result "
        "(out of memory)",
        sig.name.c_str(), failed);
  return llvm::Error::success();
}

/// callPacked with descriptors made by makeDescriptor; returns the result
/// descriptors (consecutive words).
inline llvm::Expected<std::vector<int64_t>>
callEntry(void (*fn)(void **), const EntrySignature &sig,
          std::vector<std::vector<int64_t>> &inDescs) {
  size_t resultWords = 0;
  for (const TensorSignature &s : sig.outputs)
    resultWords += 3 + 2 * s.shape.size();
  std::vector<int64_t> results(resultWords, 0);
  llvm::SmallVector<int64_t *> descs;
  for (auto &d : inDescs)
    descs.push_back(d.data());
  if (llvm::Error e = callPacked(fn, sig, results.data(), descs))
    return std::move(e);
  return results;
}

/// Copies the strided view `v`, whose elements start at `base` (host
/// memory; `v.base` or a downloaded copy of its span), into the contiguous
/// buffer `dst`.
inline void copyStrided(uint8_t *dst, DType dtype, const ResultView &v,
                        const uint8_t *base) {
  size_t es = dtypeSize(dtype);
  int64_t r = v.shape.size();
  llvm::SmallVector<int64_t> pos(r, 0);
  for (int64_t i = 0, n = v.numElements(); i < n; ++i) {
    int64_t off = 0;
    for (int64_t k = 0; k < r; ++k)
      off += pos[k] * v.strides[k];
    std::memcpy(dst + i * es, base + off * es, es);
    for (int64_t k = r - 1; k >= 0; --k) {
      if (++pos[k] < v.shape[k])
        break;
      pos[k] = 0;
    }
  }
}

/// Gathers a strided view whose elements start at `base` (host memory).
inline HostTensor gather(DType dtype, const ResultView &v,
                         const uint8_t *base) {
  HostTensor out(dtype, v.shape);
  copyStrided(static_cast<uint8_t *>(out.data()), dtype, v, base);
  return out;
}
} // namespace detail
} // namespace mlir::graphopt::runtime

#endif // GRAPHOPT_LIB_RUNTIME_RUNNERINTERNAL_H
