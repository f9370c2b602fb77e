//===- RunnerCUDA.cpp - the Runner's CUDA target ---------------------------===//
//
// Loading libGraphOptCUDARuntime.so at run time (libGraphOpt.so does not
// link it), and calling compiled CUDA entries: inputs uploaded to device
// buffers, results downloaded and freed, calls timed with CUDA events.
//
//===----------------------------------------------------------------------===//

#include "RunnerInternal.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

#include <cstdlib>
#include <set>

using namespace mlir;
using namespace mlir::graphopt::runtime;
using namespace mlir::graphopt::runtime::detail;

llvm::Expected<std::string> mlir::graphopt::runtime::findCUDARuntimeLibrary() {
  if (const char *env = std::getenv("GRAPHOPT_CUDA_RUNTIME"))
    return std::string(env);
  // Next to libGraphOpt.so (installed trees, the Python package)...
  if (std::optional<std::string> next =
          besideThisLibrary("libGraphOptCUDARuntime.so"))
    return *next;
  // ...else the build tree's.
  if (llvm::sys::fs::exists(GRAPHOPT_CUDA_RUNTIME_BUILD_PATH))
    return std::string(GRAPHOPT_CUDA_RUNTIME_BUILD_PATH);
  return llvm::createStringError(
      "the CUDA runtime library libGraphOptCUDARuntime.so was not found: "
      "graphopt was built without the CUDA toolkit (configure with the "
      "toolkit installed, or set GRAPHOPT_CUDA_RUNTIME to the library)");
}

llvm::Expected<std::unique_ptr<Runner::CUDAHostAPI>>
mlir::graphopt::runtime::loadCUDAHostAPI() {
  auto path = findCUDARuntimeLibrary();
  if (!path)
    return path.takeError();
  void *lib = dlopen(path->c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return llvm::createStringError("cannot load %s: %s", path->c_str(),
                                   dlerror());
  auto api = std::make_unique<Runner::CUDAHostAPI>();
  api->path = *path;
  std::string missing;
  auto get = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(lib, name));
    if (!fn)
      missing += std::string(missing.empty() ? "" : ", ") + name;
  };
  get(api->init, "graphoptCudaInit");
  get(api->device, "graphoptCudaGetDevice");
  get(api->getError, "graphoptCudaGetError");
  get(api->clearError, "graphoptCudaClearError");
  get(api->computeCapability, "graphoptCudaGetComputeCapability");
  get(api->malloc, "graphoptCudaMalloc");
  get(api->free, "graphoptCudaFree");
  get(api->toDevice, "graphoptCudaCopyToDevice");
  get(api->toHost, "graphoptCudaCopyToHost");
  get(api->onDevice, "graphoptCudaCopyOnDevice");
  get(api->setStream, "graphoptCudaSetStream");
  get(api->synchronize, "graphoptCudaSynchronize");
  get(api->eventCreate, "graphoptCudaEventCreate");
  get(api->eventDestroy, "graphoptCudaEventDestroy");
  get(api->eventRecord, "graphoptCudaEventRecord");
  get(api->elapsedMs, "graphoptCudaEventElapsedMs");
  get(api->setErrorPrinting, "graphoptCudaSetErrorPrinting");
  get(api->forgetConstant, "graphoptCudaForgetConstant");
  get(api->driverPath, "graphoptCudaDriverPath");
  get(api->useDriver, "graphoptCudaUseDriver");
  if (!missing.empty())
    return llvm::createStringError("%s lacks %s (a mismatched build?)",
                                   path->c_str(), missing.c_str());
  // Errors reach the user through the Runner's llvm::Error.
  api->setErrorPrinting(0);
  return api;
}

/// Result `v` (of type `s`) copied from the device into a dense host
/// tensor: in one copy where it is contiguous, else its span, gathered.
/// Null on failure (the runtime's error is set).
static std::optional<HostTensor> download(Runner::CUDAHostAPI &cu,
                                          const TensorSignature &s,
                                          const ResultView &v) {
  size_t es = dtypeSize(s.dtype);
  if (v.contiguous()) {
    HostTensor out(s.dtype, v.shape);
    size_t bytes = v.numElements() * es;
    if (bytes && cu.toHost(out.data(), v.base, bytes) != 0)
      return std::nullopt;
    return out;
  }
  std::vector<uint8_t> span(v.span() * es);
  if (!span.empty() && cu.toHost(span.data(), v.base, span.size()) != 0)
    return std::nullopt;
  return gather(s.dtype, v, span.data());
}

/// Frees the device buffers the program allocated for its results, each
/// once (results may alias each other), never one in `keep` (the inputs).
static void freeResults(Runner::CUDAHostAPI &cu,
                        llvm::ArrayRef<ResultView> views,
                        llvm::ArrayRef<const void *> keep) {
  std::set<const void *> seen(keep.begin(), keep.end());
  for (const ResultView &v : views)
    if (v.allocated && seen.insert(v.allocated).second)
      cu.free(v.allocated);
}

llvm::Expected<llvm::SmallVector<HostTensor>>
Runner::invokeCUDA(llvm::ArrayRef<HostTensor> inputs, unsigned warmup,
                   std::vector<double> *timed) {
  CUDAHostAPI &cu = *cuda;
  // An error of an earlier call (say, out of memory) does not stop this
  // one; if the device is unusable, its first driver call fails again.
  cu.clearError();
  // Inputs: uploaded once, freed on every path out.
  std::vector<void *> device;
  llvm::scope_exit freeInputs([&] {
    for (void *p : device)
      cu.free(p);
  });
  std::vector<std::vector<int64_t>> inDescs;
  for (auto [i, t] : llvm::enumerate(inputs)) {
    size_t bytes = t.numElements() * dtypeSize(t.dtype());
    void *p = cu.malloc(bytes);
    if (!p)
      return cu.error("allocating " + llvm::Twine(bytes) +
                      " bytes of device memory for input " + llvm::Twine(i));
    device.push_back(p);
    if (bytes && cu.toDevice(p, t.data(), bytes) != 0)
      return cu.error("copying input " + llvm::Twine(i) + " to the device");
    inDescs.push_back(makeDescriptor(p, t.shape()));
  }
  // One call; the results are downloaded into `outs` if given, and freed.
  auto callOnce = [&](llvm::SmallVector<HostTensor> *outs,
                      double *seconds) -> llvm::Error {
    void *start = nullptr, *stop = nullptr;
    if (seconds) {
      start = cu.eventCreate();
      stop = cu.eventCreate();
      cu.eventRecord(start);
    }
    auto called = callEntry(entryFn, sig, inDescs);
    if (seconds) {
      cu.eventRecord(stop);
      float ms = cu.elapsedMs(start, stop);
      *seconds = ms * 1e-3;
      cu.eventDestroy(start);
      cu.eventDestroy(stop);
    }
    if (!called)
      return called.takeError();
    std::vector<int64_t> &results = *called;
    if (cu.synchronize() != 0 || cu.getError())
      return cu.error("running @" + sig.name + " on the GPU");
    // Results are device buffers owned by the caller, except those that
    // alias an input or an earlier result: freed after every download.
    llvm::SmallVector<ResultView> views = decodeResults(sig, results);
    llvm::SmallVector<const void *> keep(device.begin(), device.end());
    llvm::scope_exit freeAll([&] { freeResults(cu, views, keep); });
    if (outs)
      for (auto [s, v] : llvm::zip(sig.outputs, views)) {
        std::optional<HostTensor> out = download(cu, s, v);
        if (!out)
          return cu.error("copying a result of @" + sig.name + " to the host");
        outs->push_back(std::move(*out));
      }
    return llvm::Error::success();
  };

  llvm::SmallVector<HostTensor> outs;
  if (!timed) {
    if (llvm::Error e = callOnce(&outs, nullptr))
      return std::move(e);
    return outs;
  }
  for (unsigned i = 0; i < warmup; ++i)
    if (llvm::Error e = callOnce(nullptr, nullptr))
      return std::move(e);
  for (double &t : *timed)
    if (llvm::Error e = callOnce(nullptr, &t))
      return std::move(e);
  return outs;
}

llvm::Error Runner::invokeOnDevice(llvm::ArrayRef<HostTensor> inputs,
                                   llvm::ArrayRef<void *> outputs,
                                   void *stream) {
  if (!cuda)
    return llvm::createStringError(
        "@%s: device buffers are for CUDA programs (this one is for the CPU)",
        sig.name.c_str());
  if (llvm::Error e = checkCallable(inputs))
    return e;
  if (outputs.size() != sig.outputs.size())
    return llvm::createStringError("@%s has %zu result(s), got %zu output "
                                   "buffer(s)",
                                   sig.name.c_str(), sig.outputs.size(),
                                   outputs.size());
  for (auto [i, s] : llvm::enumerate(sig.outputs))
    if (llvm::is_contained(s.shape, kDynamicDim))
      return llvm::createStringError(
          "@%s: result %zu has a dynamic shape (%s): device buffers need "
          "static result shapes",
          sig.name.c_str(), i, s.str().c_str());
  // The kernels read inputs with 16-byte vector loads: a misaligned
  // buffer (a view at an odd offset) would fault and end the context.
  for (auto [i, t] : llvm::enumerate(inputs))
    if (t.sizeInBytes() && reinterpret_cast<uintptr_t>(t.data()) % 16)
      return llvm::createStringError(
          "@%s: input %zu is at device address %p, not 16-byte aligned (a "
          "view at an offset into its buffer): pass a copy",
          sig.name.c_str(), i, t.data());
  CUDAHostAPI &cu = *cuda;
  cu.clearError();
  // The caller's stream for this thread's work, until the call returns.
  cu.setStream(stream);
  llvm::scope_exit restore([&] { cu.setStream(nullptr); });
  std::vector<std::vector<int64_t>> inDescs;
  for (const HostTensor &t : inputs)
    inDescs.push_back(makeDescriptor(const_cast<void *>(t.data()), t.shape()));
  auto called = callEntry(entryFn, sig, inDescs);
  if (!called)
    return called.takeError();
  if (cu.synchronize() != 0 || cu.getError())
    return cu.error("running @" + sig.name + " on the GPU");
  llvm::SmallVector<ResultView> views = decodeResults(sig, *called);
  // Each result copied into its buffer on the device (a strided one
  // through the host), then the program's buffers freed, each once, never
  // an input.
  llvm::Error err = llvm::Error::success();
  for (auto [i, s, v] : llvm::enumerate(sig.outputs, views)) {
    size_t es = dtypeSize(s.dtype), bytes = v.numElements() * es;
    if (!bytes || err)
      continue;
    if (v.contiguous()) {
      if (cu.onDevice(outputs[i], v.base, bytes) != 0)
        err = cu.error("copying result " + llvm::Twine(i) + " of @" + sig.name +
                       " on the device");
      continue;
    }
    std::optional<HostTensor> dense = download(cu, s, v);
    if (!dense)
      err = cu.error("copying result " + llvm::Twine(i) + " of @" + sig.name +
                     " to the host");
    else if (cu.toDevice(outputs[i], dense->data(), bytes) != 0)
      err = cu.error("copying result " + llvm::Twine(i) + " of @" + sig.name +
                     " to the device");
  }
  llvm::SmallVector<const void *> keep;
  for (const HostTensor &t : inputs)
    keep.push_back(t.data());
  freeResults(cu, views, keep);
  return err;
}
