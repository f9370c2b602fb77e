//===- CUDARuntime.cpp - graphopt's CUDA runtime library ------------------===//
//
// The `mgpu*` entry points MLIR's gpu-to-llvm lowering emits calls to, and
// the `graphoptCuda*` host API, over the CUDA driver API (see
// include/graphopt/Runtime/CUDARuntime.h for the contract).
//
// The driver is opened with dlopen rather than linked: libcuda.so.1 exists
// only where an NVIDIA driver is installed, and a build machine without one
// must still load this library (graph-run links nothing CUDA-specific; it
// loads this library only for --target=cuda) and get a clear error.
//
// Names of driver functions: cuda.h maps several to versioned symbols
// (cuMemAlloc -> cuMemAlloc_v2, ...); we look up the versioned names.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Runtime/CUDARuntime.h"

#include <cuda.h>

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace {

/// Driver entry points, resolved once.
template <typename T> using Fn = T *;

struct Driver {
#define GRAPHOPT_CU_FN(name, ...) Fn<__VA_ARGS__> name = nullptr;
  GRAPHOPT_CU_FN(init, CUresult(unsigned))
  GRAPHOPT_CU_FN(deviceGetCount, CUresult(int *))
  GRAPHOPT_CU_FN(deviceGet, CUresult(CUdevice *, int))
  GRAPHOPT_CU_FN(deviceGetName, CUresult(char *, int, CUdevice))
  GRAPHOPT_CU_FN(deviceGetAttribute,
                 CUresult(int *, CUdevice_attribute, CUdevice))
  GRAPHOPT_CU_FN(primaryCtxRetain, CUresult(CUcontext *, CUdevice))
  GRAPHOPT_CU_FN(ctxSetCurrent, CUresult(CUcontext))
  GRAPHOPT_CU_FN(moduleLoadData, CUresult(CUmodule *, const void *))
  GRAPHOPT_CU_FN(moduleLoadDataEx,
                 CUresult(CUmodule *, const void *, unsigned,
                              CUjit_option *, void **))
  GRAPHOPT_CU_FN(moduleUnload, CUresult(CUmodule))
  GRAPHOPT_CU_FN(moduleGetFunction,
                 CUresult(CUfunction *, CUmodule, const char *))
  GRAPHOPT_CU_FN(launchKernel,
                 CUresult(CUfunction, unsigned, unsigned, unsigned,
                              unsigned, unsigned, unsigned, unsigned, CUstream,
                              void **, void **))
  GRAPHOPT_CU_FN(funcSetAttribute,
                 CUresult(CUfunction, CUfunction_attribute, int))
  GRAPHOPT_CU_FN(streamCreate, CUresult(CUstream *, unsigned))
  GRAPHOPT_CU_FN(streamSynchronize, CUresult(CUstream))
  GRAPHOPT_CU_FN(streamWaitEvent, CUresult(CUstream, CUevent, unsigned))
  GRAPHOPT_CU_FN(eventCreate, CUresult(CUevent *, unsigned))
  GRAPHOPT_CU_FN(eventDestroy, CUresult(CUevent))
  GRAPHOPT_CU_FN(eventRecord, CUresult(CUevent, CUstream))
  GRAPHOPT_CU_FN(eventSynchronize, CUresult(CUevent))
  GRAPHOPT_CU_FN(eventElapsedTime, CUresult(float *, CUevent, CUevent))
  GRAPHOPT_CU_FN(memAlloc, CUresult(CUdeviceptr *, size_t))
  GRAPHOPT_CU_FN(memAllocManaged,
                 CUresult(CUdeviceptr *, size_t, unsigned))
  GRAPHOPT_CU_FN(memFree, CUresult(CUdeviceptr))
  GRAPHOPT_CU_FN(memAllocAsync,
                 CUresult(CUdeviceptr *, size_t, CUstream))
  GRAPHOPT_CU_FN(memFreeAsync, CUresult(CUdeviceptr, CUstream))
  GRAPHOPT_CU_FN(deviceGetDefaultMemPool, CUresult(CUmemoryPool *, CUdevice))
  GRAPHOPT_CU_FN(memPoolSetAttribute,
                 CUresult(CUmemoryPool, CUmemPool_attribute, void *))
  GRAPHOPT_CU_FN(memcpyAsync,
                 CUresult(CUdeviceptr, CUdeviceptr, size_t, CUstream))
  GRAPHOPT_CU_FN(memsetD32Async,
                 CUresult(CUdeviceptr, unsigned, size_t, CUstream))
  GRAPHOPT_CU_FN(memsetD16Async,
                 CUresult(CUdeviceptr, unsigned short, size_t, CUstream))
  GRAPHOPT_CU_FN(getErrorName, CUresult(CUresult, const char **))
  GRAPHOPT_CU_FN(getErrorString, CUresult(CUresult, const char **))
  // Optional (CUDA 12 drivers): the wgmma kernel's TMA copies.
  GRAPHOPT_CU_FN(tensorMapEncodeTiled,
                 CUresult(CUtensorMap *, CUtensorMapDataType, cuuint32_t,
                          void *, const cuuint64_t *, const cuuint64_t *,
                          const cuuint32_t *, const cuuint32_t *,
                          CUtensorMapInterleave, CUtensorMapSwizzle,
                          CUtensorMapL2promotion, CUtensorMapFloatOOBfill))
#undef GRAPHOPT_CU_FN
};

struct State {
  std::mutex mutex;
  bool initialized = false;
  bool usable = false;
  Driver cu;
  CUcontext context = nullptr;
  CUdevice device = 0;
  /// The device ordinal the runtime started on (-1 before it starts).
  int ordinal = -1;
  CUstream stream = nullptr;
  /// The sticky error and the last kernel launched, under errorMutex (a
  /// separate lock: errors are raised while `mutex` is held).
  std::mutex errorMutex;
  std::string error;
  bool printErrors = true;
  /// Kernel names, for messages: interned once and never freed, so that a
  /// launch only copies a pointer (a handle reused after a module unload is
  /// pointed at its new name).
  std::set<std::string> names;
  std::unordered_map<CUfunction, const std::string *> kernelNames;
  /// The last kernel launched (under errorMutex).
  const std::string *lastKernel = nullptr;
  /// The driver library graphoptCudaUseDriver chose (empty: none chosen).
  std::string requestedDriver;
  /// The driver library opened ("libcuda.so.1", requestedDriver, or
  /// GRAPHOPT_CUDA_DRIVER).
  std::string driverPath;
  /// Managed (host-shared) buffers: freed with cuMemFree, not to the pool.
  std::unordered_set<void *> managed;
  /// Device copies of constants, by host address.
  struct Constant {
    size_t bytes = 0;
    CUdeviceptr device = 0;
    /// Small constants keep a copy of their host bytes: a hit whose bytes
    /// differ is another program's constant at a reused address.
    std::vector<char> host;
  };
  std::unordered_map<const void *, Constant> constants;
  /// TMA tensor maps in device memory, by everything they encode (address,
  /// type, dims, strides, box): an entry is valid as long as it exists.
  struct TensorMapEntry {
    CUtensorMap host;
    CUdeviceptr device = 0;
  };
  std::map<std::vector<int64_t>, TensorMapEntry> tensorMaps;
};

State &state() {
  static State *s = new State(); // Never destroyed: used from dtors.
  return *s;
}

bool hasError() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.errorMutex);
  return !s.error.empty();
}

std::string lastKernel() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.errorMutex);
  return s.lastKernel ? *s.lastKernel : std::string();
}

void setError(const char *fmt, ...) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.errorMutex);
  if (!s.error.empty())
    return;
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  s.error = buf;
  if (s.printErrors)
    std::fprintf(stderr, "graphopt CUDA runtime: error: %s\n", buf);
}

/// Records a failed driver call `what` (and the kernel involved, if any).
bool check(CUresult r, const char *what, const char *kernel = nullptr) {
  if (r == CUDA_SUCCESS)
    return true;
  State &s = state();
  const char *name = "CUDA_ERROR_UNKNOWN", *desc = "unknown error";
  if (s.cu.getErrorName)
    s.cu.getErrorName(r, &name);
  if (s.cu.getErrorString)
    s.cu.getErrorString(r, &desc);
  std::string last = lastKernel();
  if (kernel && *kernel)
    setError("%s (%s) in %s, kernel '%s'", name, desc, what, kernel);
  else if (!last.empty())
    setError("%s (%s) in %s (last kernel launched: '%s')", name, desc, what,
             last.c_str());
  else
    setError("%s (%s) in %s", name, desc, what);
  return false;
}

template <typename T> bool resolve(void *lib, T &fn, const char *name) {
  fn = reinterpret_cast<T>(dlsym(lib, name));
  return fn != nullptr;
}

bool openDriver(Driver &cu) {
  // Another driver library (the emulated driver of --cuda-emulate,
  // libGraphOptCUDAEmulator.so): the one graphoptCudaUseDriver chose, else
  // GRAPHOPT_CUDA_DRIVER.
  const std::string &requested = state().requestedDriver;
  const char *path = !requested.empty() ? requested.c_str()
                                        : std::getenv("GRAPHOPT_CUDA_DRIVER");
  state().driverPath = path ? path : "libcuda.so.1";
  void *lib = dlopen(path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib && !path)
    lib = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib && path) {
    setError("cannot open the CUDA driver library %s: %s", path, dlerror());
    return false;
  }
  if (!lib) {
    setError("cannot open the CUDA driver library libcuda.so.1 (%s): no "
             "NVIDIA driver is installed on this machine",
             dlerror());
    return false;
  }
  bool ok = true;
  auto need = [&](auto &fn, const char *name) {
    if (!resolve(lib, fn, name)) {
      setError("the CUDA driver lacks %s (driver too old?)", name);
      ok = false;
    }
  };
  need(cu.getErrorName, "cuGetErrorName");
  need(cu.getErrorString, "cuGetErrorString");
  need(cu.init, "cuInit");
  need(cu.deviceGetCount, "cuDeviceGetCount");
  need(cu.deviceGet, "cuDeviceGet");
  need(cu.deviceGetName, "cuDeviceGetName");
  need(cu.deviceGetAttribute, "cuDeviceGetAttribute");
  need(cu.primaryCtxRetain, "cuDevicePrimaryCtxRetain");
  need(cu.ctxSetCurrent, "cuCtxSetCurrent");
  need(cu.moduleLoadData, "cuModuleLoadData");
  need(cu.moduleLoadDataEx, "cuModuleLoadDataEx");
  need(cu.moduleUnload, "cuModuleUnload");
  need(cu.moduleGetFunction, "cuModuleGetFunction");
  need(cu.launchKernel, "cuLaunchKernel");
  need(cu.funcSetAttribute, "cuFuncSetAttribute");
  need(cu.streamCreate, "cuStreamCreate");
  need(cu.streamSynchronize, "cuStreamSynchronize");
  need(cu.streamWaitEvent, "cuStreamWaitEvent");
  need(cu.eventCreate, "cuEventCreate");
  need(cu.eventDestroy, "cuEventDestroy_v2");
  need(cu.eventRecord, "cuEventRecord");
  need(cu.eventSynchronize, "cuEventSynchronize");
  if (!resolve(lib, cu.eventElapsedTime, "cuEventElapsedTime_v2"))
    need(cu.eventElapsedTime, "cuEventElapsedTime");
  need(cu.memAlloc, "cuMemAlloc_v2");
  need(cu.memAllocManaged, "cuMemAllocManaged");
  need(cu.memFree, "cuMemFree_v2");
  need(cu.memAllocAsync, "cuMemAllocAsync");
  need(cu.memFreeAsync, "cuMemFreeAsync");
  need(cu.deviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool");
  need(cu.memPoolSetAttribute, "cuMemPoolSetAttribute");
  need(cu.memcpyAsync, "cuMemcpyAsync");
  need(cu.memsetD32Async, "cuMemsetD32Async");
  need(cu.memsetD16Async, "cuMemsetD16Async");
  resolve(lib, cu.tensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  return ok;
}

int defaultDevice() {
  const char *env = std::getenv("GRAPHOPT_CUDA_DEVICE");
  return env ? std::atoi(env) : 0;
}

/// Initializes once; afterwards makes the context current on this thread.
/// False when the runtime is unusable (the error is set).
bool ready(int device = -1) {
  State &s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialized) {
      s.initialized = true;
      if (device < 0)
        device = defaultDevice();
      s.ordinal = device;
      Driver &cu = s.cu;
      int count = 0;
      s.usable = openDriver(cu) && check(cu.init(0), "cuInit") &&
                 check(cu.deviceGetCount(&count), "cuDeviceGetCount");
      if (s.usable && device >= count) {
        setError("CUDA device %d requested, but %d device%s present", device,
                 count, count == 1 ? " is" : "s are");
        s.usable = false;
      }
      s.usable = s.usable &&
                 check(cu.deviceGet(&s.device, device), "cuDeviceGet") &&
                 check(cu.primaryCtxRetain(&s.context, s.device),
                       "cuDevicePrimaryCtxRetain") &&
                 check(cu.ctxSetCurrent(s.context), "cuCtxSetCurrent") &&
                 check(cu.streamCreate(&s.stream, CU_STREAM_NON_BLOCKING),
                       "cuStreamCreate");
      // Buffers come from the device's stream-ordered pool (allocation and
      // free without synchronizing); freed memory stays cached in the pool
      // for the next call instead of going back to the driver.
      CUmemoryPool pool = nullptr;
      cuuint64_t keep = ~cuuint64_t(0);
      s.usable = s.usable &&
                 check(cu.deviceGetDefaultMemPool(&pool, s.device),
                       "cuDeviceGetDefaultMemPool") &&
                 check(cu.memPoolSetAttribute(
                           pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep),
                       "cuMemPoolSetAttribute");
    }
  }
  if (!s.usable || hasError())
    return false;
  thread_local bool current = false;
  if (!current) {
    if (!check(s.cu.ctxSetCurrent(s.context), "cuCtxSetCurrent"))
      return false;
    current = true;
  }
  return true;
}

/// The calling thread's stream (graphoptCudaSetStream), or null for the
/// runtime's own.
thread_local CUstream threadStream = nullptr;

/// The stream this thread's work goes to.
CUstream currentStream() {
  return threadStream ? threadStream : state().stream;
}

CUstream streamOf(void *stream) {
  return stream ? static_cast<CUstream>(stream) : currentStream();
}

} // namespace

//===----------------------------------------------------------------------===//
// Host API
//===----------------------------------------------------------------------===//

extern "C" {

int graphoptCudaInit(int device) { return ready(device) ? 0 : 1; }

int graphoptCudaUseDriver(const char *path) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::string wanted = path ? path : "";
  if (s.initialized)
    return s.driverPath == (wanted.empty() ? "libcuda.so.1" : wanted) ? 0 : 1;
  s.requestedDriver = wanted;
  return 0;
}

int graphoptCudaGetDevice(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.initialized ? s.ordinal : -1;
}

const char *graphoptCudaDriverPath(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.initialized ? s.driverPath.c_str() : nullptr;
}

const char *graphoptCudaGetError(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.errorMutex);
  // Stable until the next graphoptCudaClearError.
  return s.error.empty() ? nullptr : s.error.c_str();
}

void graphoptCudaClearError(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.errorMutex);
  s.error.clear();
}

void graphoptCudaSetErrorPrinting(int enabled) {
  state().printErrors = enabled != 0;
}

int graphoptCudaGetDeviceName(char *buffer, size_t size) {
  if (!ready() || size == 0)
    return 1;
  return check(state().cu.deviceGetName(buffer, (int)size, state().device),
               "cuDeviceGetName")
             ? 0
             : 1;
}

int graphoptCudaGetComputeCapability(void) {
  if (!ready())
    return 0;
  State &s = state();
  int major = 0, minor = 0;
  if (!check(s.cu.deviceGetAttribute(
                 &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, s.device),
             "cuDeviceGetAttribute") ||
      !check(s.cu.deviceGetAttribute(
                 &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, s.device),
             "cuDeviceGetAttribute"))
    return 0;
  return major * 10 + minor;
}

void *graphoptCudaMalloc(size_t bytes) {
  if (!ready())
    return nullptr;
  CUdeviceptr p = 0;
  // A zero-sized tensor still needs a distinct address.
  if (!check(state().cu.memAllocAsync(&p, bytes ? bytes : 1, currentStream()),
             "cuMemAllocAsync"))
    return nullptr;
  return reinterpret_cast<void *>(p);
}

void graphoptCudaFree(void *ptr) {
  if (!ptr || !ready())
    return;
  check(state().cu.memFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                                currentStream()),
        "cuMemFreeAsync");
}

int graphoptCudaSynchronize(void) {
  if (!ready())
    return 1;
  return check(state().cu.streamSynchronize(currentStream()),
               "cuStreamSynchronize")
             ? 0
             : 1;
}

void graphoptCudaSetStream(void *stream) {
  threadStream = static_cast<CUstream>(stream);
}

void *graphoptCudaGetStream(void) {
  if (!ready())
    return nullptr;
  return currentStream();
}

static int copySync(void *dst, const void *src, size_t bytes,
                    const char *what) {
  if (!ready())
    return 1;
  State &s = state();
  if (!check(s.cu.memcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                              reinterpret_cast<CUdeviceptr>(src), bytes,
                              currentStream()),
             what))
    return 1;
  return graphoptCudaSynchronize();
}

int graphoptCudaCopyToDevice(void *dst, const void *src, size_t bytes) {
  return copySync(dst, src, bytes, "cuMemcpyAsync (host to device)");
}

int graphoptCudaCopyToHost(void *dst, const void *src, size_t bytes) {
  return copySync(dst, src, bytes, "cuMemcpyAsync (device to host)");
}

int graphoptCudaCopyOnDevice(void *dst, const void *src, size_t bytes) {
  return copySync(dst, src, bytes, "cuMemcpyAsync (device to device)");
}

void *graphoptCudaEventCreate(void) {
  if (!ready())
    return nullptr;
  CUevent e = nullptr;
  if (!check(state().cu.eventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate"))
    return nullptr;
  return e;
}

void graphoptCudaEventDestroy(void *event) {
  if (event && ready())
    check(state().cu.eventDestroy(static_cast<CUevent>(event)),
          "cuEventDestroy");
}

void graphoptCudaEventRecord(void *event) {
  if (event && ready())
    check(state().cu.eventRecord(static_cast<CUevent>(event), currentStream()),
          "cuEventRecord");
}

float graphoptCudaEventElapsedMs(void *start, void *stop) {
  if (!start || !stop || !ready())
    return -1;
  State &s = state();
  float ms = 0;
  if (!check(s.cu.eventSynchronize(static_cast<CUevent>(stop)),
             "cuEventSynchronize") ||
      !check(s.cu.eventElapsedTime(&ms, static_cast<CUevent>(start),
                                   static_cast<CUevent>(stop)),
             "cuEventElapsedTime"))
    return -1;
  return ms;
}

//===----------------------------------------------------------------------===//
// Constants (graph-gpu-device-buffers: graphopt_cuda_constant_<type>)
//===----------------------------------------------------------------------===//

namespace {
/// A rank-1 memref descriptor (MLIR's C interface).
struct Memref1D {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};

/// The device copy of the constant `in` (host memory that lives as long as
/// the program: a global of the compiled code), uploaded on first use.
/// Small constants are checked against a copy of their bytes on every use
/// (cheap); larger ones are forgotten explicitly by their owner
/// (graphoptCudaForgetConstant) before their host memory is freed.
constexpr size_t kCheckedConstantBytes = 64 * 1024;

void deviceConstant(Memref1D *result, const Memref1D *in, size_t elementSize) {
  *result = {nullptr, nullptr, 0, in->size, 1};
  if (!ready())
    return;
  State &s = state();
  const char *host =
      static_cast<const char *>(in->aligned) + in->offset * elementSize;
  size_t bytes = static_cast<size_t>(in->size) * elementSize;
  std::lock_guard<std::mutex> lock(s.mutex);
  State::Constant &entry = s.constants[host];
  bool valid = entry.device && entry.bytes == bytes &&
               (bytes > kCheckedConstantBytes ||
                (entry.host.size() == bytes &&
                 std::memcmp(entry.host.data(), host, bytes) == 0));
  if (!valid) {
    if (entry.device) {
      // A stale entry: the program that uploaded it is gone (its calls
      // completed; the free is ordered after them).
      check(s.cu.memFree(entry.device), "cuMemFree (constant)");
      entry = State::Constant();
    }
    CUdeviceptr dev = 0;
    if (!check(s.cu.memAlloc(&dev, bytes ? bytes : 1),
               "cuMemAlloc (constant)"))
      return;
    if (bytes &&
        !check(s.cu.memcpyAsync(dev, reinterpret_cast<CUdeviceptr>(host), bytes,
                                currentStream()),
               "cuMemcpyAsync (constant)")) {
      s.cu.memFree(dev);
      return;
    }
    entry.bytes = bytes;
    entry.device = dev;
    if (bytes <= kCheckedConstantBytes)
      entry.host.assign(host, host + bytes);
  }
  result->allocated = result->aligned = reinterpret_cast<void *>(entry.device);
}
} // namespace

extern "C" {

void graphoptCudaClearConstants(void) {
  State &s = state();
  if (!s.usable)
    return;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.constants.empty())
    return;
  s.cu.streamSynchronize(s.stream);
  s.cu.streamSynchronize(currentStream());
  for (auto &entry : s.constants)
    s.cu.memFree(entry.second.device);
  s.constants.clear();
}

void graphoptCudaForgetConstant(const void *host) {
  State &s = state();
  if (!s.usable)
    return;
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.constants.find(host);
  if (it == s.constants.end())
    return;
  s.cu.memFree(it->second.device); // Synchronizes with pending work.
  s.constants.erase(it);
}

#define GRAPHOPT_CONSTANT_FN(type, size)                                       \
  void _mlir_ciface_graphopt_cuda_constant_##type(Memref1D *result,           \
                                                  Memref1D *in) {             \
    deviceConstant(result, in, size);                                          \
  }
GRAPHOPT_CONSTANT_FN(f16, 2)
GRAPHOPT_CONSTANT_FN(bf16, 2)
GRAPHOPT_CONSTANT_FN(f32, 4)
GRAPHOPT_CONSTANT_FN(f64, 8)
GRAPHOPT_CONSTANT_FN(i1, 1)
GRAPHOPT_CONSTANT_FN(i8, 1)
GRAPHOPT_CONSTANT_FN(i16, 2)
GRAPHOPT_CONSTANT_FN(i32, 4)
GRAPHOPT_CONSTANT_FN(i64, 8)
#undef GRAPHOPT_CONSTANT_FN

} // extern "C"

//===----------------------------------------------------------------------===//
// TMA tensor maps (graph-gpu-matmul's wgmma kernel:
// graphopt_cuda_tensor_map_<type>)
//===----------------------------------------------------------------------===//

namespace {
/// Entries kept at most; past it the cache starts over (after the streams'
/// work, which may still read them).
constexpr size_t kMaxTensorMaps = 4096;

/// The device copy of the tiled tensor map of a rank `rank` memref
/// (`descriptor`: MLIR's allocated, aligned, offset, sizes[rank],
/// strides[rank]) for boxes of `boxRows` x `boxCols` elements (the last
/// two dims; 1 along the others), 128-byte swizzled, elements outside the
/// tensor read as zeros. Encoded and uploaded (on the current stream) on
/// first use, then cached. Null, with the runtime's error set, when the
/// driver cannot encode it (an address or stride not a multiple of 16
/// bytes, a driver without TMA).
void *tensorMap(int64_t rank, const void *descriptor, CUtensorMapDataType type,
                int64_t elementBytes, int64_t boxCols, int64_t boxRows) {
  if (!ready())
    return nullptr;
  const auto *words = static_cast<const int64_t *>(descriptor);
  const int64_t *sizes = words + 3, *strides = words + 3 + rank;
  if (rank < 2 || rank > 5 || strides[rank - 1] != 1) {
    setError("TMA tensor map of a rank-%lld view whose last dim is not "
             "contiguous",
             static_cast<long long>(rank));
    return nullptr;
  }
  char *address = reinterpret_cast<char *>(words[1]) + words[2] * elementBytes;
  cuuint64_t dims[5], byteStrides[4];
  cuuint32_t box[5], elementStrides[5];
  std::vector<int64_t> key = {reinterpret_cast<int64_t>(address), rank, type,
                              boxCols, boxRows};
  for (int64_t d = 0; d < rank; ++d) {
    dims[d] = static_cast<cuuint64_t>(sizes[rank - 1 - d]);
    box[d] = d == 0 ? boxCols : d == 1 ? boxRows : 1;
    elementStrides[d] = 1;
    key.push_back(sizes[rank - 1 - d]);
    if (d > 0) {
      byteStrides[d - 1] =
          static_cast<cuuint64_t>(strides[rank - 1 - d] * elementBytes);
      key.push_back(strides[rank - 1 - d]);
    }
  }
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.tensorMaps.find(key);
  if (it != s.tensorMaps.end())
    return reinterpret_cast<void *>(it->second.device);
  if (!s.cu.tensorMapEncodeTiled) {
    setError("the CUDA driver lacks cuTensorMapEncodeTiled (TMA needs a "
             "CUDA 12 driver); compile with chip sm_90 instead of sm_90a");
    return nullptr;
  }
  if (s.tensorMaps.size() >= kMaxTensorMaps) {
    s.cu.streamSynchronize(s.stream);
    s.cu.streamSynchronize(currentStream());
    for (auto &entry : s.tensorMaps)
      s.cu.memFree(entry.second.device);
    s.tensorMaps.clear();
  }
  State::TensorMapEntry entry;
  CUresult r = s.cu.tensorMapEncodeTiled(
      &entry.host, type, static_cast<cuuint32_t>(rank), address, dims,
      byteStrides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::string shape;
    for (int64_t d = 0; d < rank; ++d)
      shape += (d ? "x" : "") + std::to_string(sizes[d]);
    std::string st;
    for (int64_t d = 0; d < rank; ++d)
      st += (d ? ", " : "") + std::to_string(strides[d] * elementBytes);
    const char *name = "CUDA_ERROR_UNKNOWN";
    if (s.cu.getErrorName)
      s.cu.getErrorName(r, &name);
    setError("cuTensorMapEncodeTiled failed (%s) for a %s tensor at %p with "
             "byte strides [%s] (TMA copies need a 16-byte aligned address "
             "and strides that are multiples of 16 bytes)",
             name, shape.c_str(), static_cast<void *>(address), st.c_str());
    return nullptr;
  }
  if (!check(s.cu.memAlloc(&entry.device, sizeof(CUtensorMap)),
             "cuMemAlloc (tensor map)"))
    return nullptr;
  State::TensorMapEntry &stored = s.tensorMaps[key];
  stored = entry;
  // From the entry's own host copy, which outlives the copy.
  if (!check(s.cu.memcpyAsync(stored.device,
                              reinterpret_cast<CUdeviceptr>(&stored.host),
                              sizeof(CUtensorMap), currentStream()),
             "cuMemcpyAsync (tensor map)")) {
    s.cu.memFree(stored.device);
    s.tensorMaps.erase(key);
    return nullptr;
  }
  return reinterpret_cast<void *>(stored.device);
}
} // namespace

extern "C" {

// func.func private @graphopt_cuda_tensor_map_<type>(memref<*xtype>, index,
// index) -> !llvm.ptr: an unranked memref argument is its rank and a
// pointer to its ranked descriptor.
void *graphopt_cuda_tensor_map_f16(int64_t rank, void *descriptor,
                                   int64_t boxCols, int64_t boxRows) {
  return tensorMap(rank, descriptor, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                   boxCols, boxRows);
}
void *graphopt_cuda_tensor_map_bf16(int64_t rank, void *descriptor,
                                    int64_t boxCols, int64_t boxRows) {
  return tensorMap(rank, descriptor, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                   boxCols, boxRows);
}

} // extern "C"

//===----------------------------------------------------------------------===//
// The ABI of MLIR's gpu-to-llvm lowering and gpu.binary embedding
//===----------------------------------------------------------------------===//

/// A cubin or fatbin image (called from the module's global constructor).
void *mgpuModuleLoad(void *data, size_t /*size*/) {
  if (!ready())
    return nullptr;
  CUmodule module = nullptr;
  if (!check(state().cu.moduleLoadData(&module, data), "cuModuleLoadData"))
    return nullptr;
  return module;
}

/// PTX text (format=isa), compiled by the driver's JIT.
void *mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!ready())
    return nullptr;
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    log, reinterpret_cast<void *>(sizeof(log))};
  CUmodule module = nullptr;
  CUresult r = state().cu.moduleLoadDataEx(&module, data, 3, options, values);
  if (r != CUDA_SUCCESS) {
    std::string what = "cuModuleLoadDataEx (PTX JIT)";
    if (log[0])
      what += std::string("; JIT log: ") + log;
    check(r, what.c_str());
    return nullptr;
  }
  return module;
}

void mgpuModuleUnload(void *module) {
  State &s = state();
  // Unloading at exit after a failure is pointless; never report it.
  if (module && s.usable && !hasError())
    s.cu.moduleUnload(static_cast<CUmodule>(module));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!ready())
    return nullptr;
  if (!module) {
    // The module's constructor did not run or failed: never skip a kernel
    // silently.
    setError("kernel '%s' requested from a module that was not loaded",
             name ? name : "?");
    return nullptr;
  }
  State &s = state();
  CUfunction fn = nullptr;
  if (!check(s.cu.moduleGetFunction(&fn, static_cast<CUmodule>(module), name),
             "cuModuleGetFunction", name))
    return nullptr;
  std::lock_guard<std::mutex> lock(s.mutex);
  const std::string *&entry = s.kernelNames[fn];
  if (!entry || *entry != name)
    entry = &*s.names.insert(name).first;
  return fn;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  // After an error the program's results are lost; its later kernels could
  // only fault on what the failed step left (a null buffer or tensor map).
  if (!ready() || hasError())
    return;
  if (!function) {
    setError("launch of a kernel that was not found");
    return;
  }
  State &s = state();
  static const std::string unknown = "?";
  const std::string *name = &unknown;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.kernelNames.find(static_cast<CUfunction>(function));
    if (it != s.kernelNames.end())
      name = it->second;
  }
  CUfunction fn = static_cast<CUfunction>(function);
  // More than 48 KiB of dynamic shared memory must be opted into.
  if (smem > 48 * 1024 &&
      !check(s.cu.funcSetAttribute(
                 fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
             "cuFuncSetAttribute", name->c_str()))
    return;
  if (gridX <= 0 || gridY <= 0 || gridZ <= 0) // Empty grid: nothing to do.
    return;
  if (!check(s.cu.launchKernel(fn, gridX, gridY, gridZ, blockX, blockY,
                               blockZ, smem, streamOf(stream), params, extra),
             "cuLaunchKernel", name->c_str()))
    return;
  {
    std::lock_guard<std::mutex> lock(s.errorMutex);
    s.lastKernel = name;
  }
  // Debugging aid: GRAPHOPT_CUDA_SYNC=1 waits after every launch, so an
  // asynchronous fault is reported against the kernel that caused it.
  static const bool syncEach = std::getenv("GRAPHOPT_CUDA_SYNC") != nullptr;
  if (syncEach)
    check(s.cu.streamSynchronize(streamOf(stream)), "cuStreamSynchronize",
          name->c_str());
}

/// The calling thread's stream (the runtime's own unless the host chose
/// one with graphoptCudaSetStream): compiled code runs in order on it, and
/// hosts time it with events.
void *mgpuStreamCreate() {
  if (!ready())
    return nullptr;
  return currentStream();
}

void mgpuStreamDestroy(void * /*stream*/) {}

void mgpuStreamSynchronize(void *stream) {
  if (ready())
    check(state().cu.streamSynchronize(streamOf(stream)),
          "cuStreamSynchronize");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  if (ready())
    check(state().cu.streamWaitEvent(streamOf(stream),
                                     static_cast<CUevent>(event), 0),
          "cuStreamWaitEvent");
}

void *mgpuEventCreate() {
  if (!ready())
    return nullptr;
  CUevent e = nullptr;
  check(state().cu.eventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return e;
}

void mgpuEventDestroy(void *event) { graphoptCudaEventDestroy(event); }

void mgpuEventSynchronize(void *event) {
  if (event && ready())
    check(state().cu.eventSynchronize(static_cast<CUevent>(event)),
          "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  if (event && ready())
    check(state().cu.eventRecord(static_cast<CUevent>(event),
                                 streamOf(stream)),
          "cuEventRecord");
}

// MLIR passes the flag as an i8 (no zero extension guaranteed beyond it).
void *mgpuMemAlloc(uint64_t bytes, void *stream, int8_t hostShared) {
  bool isHostShared = hostShared != 0;
  if (!ready())
    return nullptr;
  CUdeviceptr p = 0;
  bool ok = isHostShared
                ? check(state().cu.memAllocManaged(&p, bytes ? bytes : 1,
                                                   CU_MEM_ATTACH_GLOBAL),
                        "cuMemAllocManaged")
                : check(state().cu.memAllocAsync(&p, bytes ? bytes : 1,
                                                 streamOf(stream)),
                        "cuMemAllocAsync");
  if (!ok)
    return nullptr;
  if (isHostShared) {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().managed.insert(reinterpret_cast<void *>(p));
  }
  return reinterpret_cast<void *>(p);
}

void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr || !ready())
    return;
  State &s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.managed.erase(ptr)) {
      check(s.cu.memFree(reinterpret_cast<CUdeviceptr>(ptr)), "cuMemFree");
      return;
    }
  }
  // Stream-ordered: the buffer is reused only after the work queued before
  // the free on this stream.
  check(state().cu.memFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                                streamOf(stream)),
        "cuMemFreeAsync");
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  if (ready())
    check(state().cu.memcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                 reinterpret_cast<CUdeviceptr>(src), bytes,
                                 streamOf(stream)),
          "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream) {
  if (ready())
    check(state().cu.memsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                    count, streamOf(stream)),
          "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream) {
  if (ready())
    check(state().cu.memsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                    count, streamOf(stream)),
          "cuMemsetD16Async");
}

void mgpuSetDefaultDevice(int32_t device) { ready(device); }

} // extern "C"
