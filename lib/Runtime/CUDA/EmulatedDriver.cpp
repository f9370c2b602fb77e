//===- EmulatedDriver.cpp - a CUDA driver stand-in for testing ------------===//
//
// libGraphOptCUDAEmulator.so: the subset of the CUDA driver API that
// libGraphOptCUDARuntime uses, implemented on the host: "device" memory is
// host memory, streams run nothing (every operation completes at once), a
// module is a token, and launching a kernel is an error (there is no device
// code to run). With `--cuda-emulate` the kernels are compiled to host loops
// instead (graph-gpu-launch-to-loops), so this is enough to run the whole
// host side of the CUDA target without a GPU: device allocation and frees
// through the runtime's pool calls, copies, the constants cache, events,
// and the Runner's upload/download of inputs and results.
//
// The runtime opens it instead of libcuda.so.1 when graphoptCudaUseDriver
// chose it (the Runner does for --cuda-emulate), or when GRAPHOPT_CUDA_DRIVER
// names it. Error injection for
// tests: GRAPHOPT_CUDA_EMULATOR_FAIL=<function name> makes that function
// return CUDA_ERROR_OUT_OF_MEMORY (cuMemAllocAsync, ...) or
// CUDA_ERROR_NO_DEVICE (cuInit). Streams are distinct handles (numbered in
// creation order from 1); GRAPHOPT_CUDA_EMULATOR_TRACE=1 prints the stream
// of each stream-ordered allocation, free, copy and synchronization to
// stderr ("emulator: cuMemAllocAsync on stream 2"), to test which stream
// the runtime uses.
//
//===----------------------------------------------------------------------===//

#include "EmulatedTensorMap.h"

#include <cuda.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace {

bool failing(const char *fn) {
  const char *f = std::getenv("GRAPHOPT_CUDA_EMULATOR_FAIL");
  return f && std::strcmp(f, fn) == 0;
}

int dummyModule, dummyFunction, dummyContext, dummyPool;

/// Stream handles: entries of this array, numbered from 1.
constexpr int kStreams = 64;
int streams[kStreams];
std::atomic<int> streamCount{0};

int streamNumber(CUstream s) {
  auto *p = reinterpret_cast<int *>(s);
  if (p >= streams && p < streams + kStreams)
    return static_cast<int>(p - streams) + 1;
  return 0; // not one of ours (the null stream)
}

void trace(const char *fn, CUstream s) {
  static const bool on = std::getenv("GRAPHOPT_CUDA_EMULATOR_TRACE") != nullptr;
  if (on)
    std::fprintf(stderr, "emulator: %s on stream %d\n", fn, streamNumber(s));
}

struct Event {
  std::chrono::steady_clock::time_point time;
};

/// Live allocations, so that a bad free is an error like on a device.
std::mutex allocMutex;
std::unordered_map<void *, size_t> allocations;

CUresult allocate(CUdeviceptr *p, size_t bytes, const char *fn) {
  if (failing(fn))
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *mem = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!mem)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard<std::mutex> lock(allocMutex);
  allocations[mem] = bytes;
  *p = reinterpret_cast<CUdeviceptr>(mem);
  return CUDA_SUCCESS;
}

CUresult release(CUdeviceptr p) {
  void *mem = reinterpret_cast<void *>(p);
  std::lock_guard<std::mutex> lock(allocMutex);
  if (!allocations.erase(mem))
    return CUDA_ERROR_INVALID_VALUE;
  std::free(mem);
  return CUDA_SUCCESS;
}

} // namespace

extern "C" {

CUresult cuGetErrorName(CUresult r, const char **s) {
  switch (r) {
  case CUDA_SUCCESS:
    *s = "CUDA_SUCCESS";
    break;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *s = "CUDA_ERROR_OUT_OF_MEMORY";
    break;
  case CUDA_ERROR_NO_DEVICE:
    *s = "CUDA_ERROR_NO_DEVICE";
    break;
  case CUDA_ERROR_INVALID_VALUE:
    *s = "CUDA_ERROR_INVALID_VALUE";
    break;
  case CUDA_ERROR_NOT_SUPPORTED:
    *s = "CUDA_ERROR_NOT_SUPPORTED";
    break;
  default:
    *s = "CUDA_ERROR_UNKNOWN";
  }
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult r, const char **s) {
  switch (r) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    *s = "out of memory (emulated)";
    break;
  case CUDA_ERROR_NO_DEVICE:
    *s = "no CUDA-capable device is detected (emulated)";
    break;
  case CUDA_ERROR_NOT_SUPPORTED:
    *s = "the emulated driver runs no device code";
    break;
  default:
    *s = "error (emulated)";
  }
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned) {
  return failing("cuInit") ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *d, int) {
  *d = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice) {
  std::strncpy(name, "graphopt emulated CUDA device", len);
  if (len > 0)
    name[len - 1] = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice) {
  *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR   ? 9
       : a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ? 0
                                                            : 1;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) {
  *c = reinterpret_cast<CUcontext>(&dummyContext);
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuModuleLoadData(CUmodule *m, const void *) {
  *m = reinterpret_cast<CUmodule>(&dummyModule);
  return CUDA_SUCCESS;
}
CUresult cuModuleLoadDataEx(CUmodule *m, const void *, unsigned,
                            CUjit_option *, void **) {
  *m = reinterpret_cast<CUmodule>(&dummyModule);
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }
CUresult cuModuleGetFunction(CUfunction *f, CUmodule, const char *) {
  *f = reinterpret_cast<CUfunction>(&dummyFunction);
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, CUstream, void **,
                        void **) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) {
  return CUDA_SUCCESS;
}
CUresult cuStreamCreate(CUstream *s, unsigned) {
  *s = reinterpret_cast<CUstream>(&streams[streamCount++ % kStreams]);
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream s) {
  trace("cuStreamSynchronize", s);
  return CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned) {
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *e, unsigned) {
  *e = reinterpret_cast<CUevent>(new Event());
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(CUevent e) {
  delete reinterpret_cast<Event *>(e);
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream) {
  reinterpret_cast<Event *>(e)->time = std::chrono::steady_clock::now();
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  *ms = std::chrono::duration<float, std::milli>(
            reinterpret_cast<Event *>(b)->time -
            reinterpret_cast<Event *>(a)->time)
            .count();
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
  return allocate(p, bytes, "cuMemAlloc");
}
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t bytes, unsigned) {
  return allocate(p, bytes, "cuMemAllocManaged");
}
CUresult cuMemAllocAsync(CUdeviceptr *p, size_t bytes, CUstream s) {
  trace("cuMemAllocAsync", s);
  return allocate(p, bytes, "cuMemAllocAsync");
}
CUresult cuMemFree_v2(CUdeviceptr p) { return release(p); }
CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s) {
  trace("cuMemFreeAsync", s);
  return release(p);
}
CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice) {
  *pool = reinterpret_cast<CUmemoryPool>(&dummyPool);
  return CUDA_SUCCESS;
}
CUresult cuMemPoolSetAttribute(CUmemoryPool, CUmemPool_attribute, void *) {
  return CUDA_SUCCESS;
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream s) {
  trace("cuMemcpyAsync", s);
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
               bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t n, CUstream) {
  auto *p = reinterpret_cast<unsigned *>(dst);
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  return CUDA_SUCCESS;
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short v, size_t n,
                          CUstream) {
  auto *p = reinterpret_cast<unsigned short *>(dst);
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  return CUDA_SUCCESS;
}

/// The tiled tensor maps of the wgmma kernel's TMA copies, checked as the
/// CUDA driver documents (rank 1-5, a 16-byte aligned address, strides
/// multiples of 16 bytes, boxes of at most 256 per dim whose rows are
/// multiples of 16 bytes and, swizzled, at most the swizzle span) and kept
/// in the emulator's format (EmulatedTensorMap.h). Interleaved layouts,
/// element strides other than 1 and NaN fills are not emulated.
CUresult cuTensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *address,
    const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion,
    CUtensorMapFloatOOBfill oobFill) {
  uint32_t elementBytes = 0;
  switch (type) {
  case CU_TENSOR_MAP_DATA_TYPE_UINT8:
    elementBytes = 1;
    break;
  case CU_TENSOR_MAP_DATA_TYPE_UINT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    elementBytes = 2;
    break;
  case CU_TENSOR_MAP_DATA_TYPE_UINT32:
  case CU_TENSOR_MAP_DATA_TYPE_INT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    elementBytes = 4;
    break;
  case CU_TENSOR_MAP_DATA_TYPE_UINT64:
  case CU_TENSOR_MAP_DATA_TYPE_INT64:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
    elementBytes = 8;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  uint32_t swizzleBytes = 0;
  switch (swizzle) {
  case CU_TENSOR_MAP_SWIZZLE_NONE:
    break;
  case CU_TENSOR_MAP_SWIZZLE_32B:
    swizzleBytes = 32;
    break;
  case CU_TENSOR_MAP_SWIZZLE_64B:
    swizzleBytes = 64;
    break;
  case CU_TENSOR_MAP_SWIZZLE_128B:
    swizzleBytes = 128;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (!map || rank < 1 || rank > 5 ||
      reinterpret_cast<uintptr_t>(address) % 16 ||
      interleave != CU_TENSOR_MAP_INTERLEAVE_NONE ||
      oobFill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
    return CUDA_ERROR_INVALID_VALUE;
  graphopt::emulator::TensorMap m{};
  m.magic = graphopt::emulator::TensorMap::kMagic;
  m.rank = rank;
  m.elementBytes = elementBytes;
  m.swizzleBytes = swizzleBytes;
  m.address = reinterpret_cast<uintptr_t>(address);
  for (cuuint32_t d = 0; d < rank; ++d) {
    if (dims[d] == 0 || dims[d] > (1ull << 32) || box[d] == 0 || box[d] > 256 ||
        elementStrides[d] != 1)
      return CUDA_ERROR_INVALID_VALUE;
    m.dims[d] = static_cast<uint32_t>(dims[d]);
    m.box[d] = box[d];
    if (d > 0) {
      if (strides[d - 1] % 16 || strides[d - 1] >= (1ull << 40))
        return CUDA_ERROR_INVALID_VALUE;
      m.strides[d - 1] = strides[d - 1];
    }
  }
  uint64_t rowBytes = uint64_t(box[0]) * elementBytes;
  if (rowBytes % 16 || (swizzleBytes && rowBytes > swizzleBytes))
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(map, 0, sizeof(*map));
  std::memcpy(map, &m, sizeof(m));
  return CUDA_SUCCESS;
}

} // extern "C"
