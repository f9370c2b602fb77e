//===- Runner.cpp - JIT-compile and call graph programs -------------------===//
//
// ABI: the CPU pipeline gives each public function a `_mlir_ciface_NAME`
// wrapper taking a pointer to the result descriptor(s) first, then one
// pointer per argument descriptor. A rank-r memref descriptor is
// {T *allocated, T *aligned, i64 offset, i64 sizes[r], i64 strides[r]};
// several results are consecutive descriptors (every field is 8 bytes, so
// there is no padding). Results are allocated by the compiled code through
// the runtime allocator (Runtime/Allocator.h) and owned by the caller, which
// releases them through it.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Runtime/Runner.h"

#include "graphopt/Pipelines/Pipelines.h"
#include "graphopt/Runtime/Allocator.h"

#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::graphopt::runtime;

/// Constants at least this large are kept out of the LLVM module.
static constexpr size_t kExternalConstantMinBytes = 16 * 1024;

std::string TensorSignature::str() const {
  std::string s = isMemRef ? "memref<" : "tensor<";
  for (int64_t d : shape)
    s += (d == kDynamicDim ? std::string("?") : std::to_string(d)) + "x";
  return s + dtypeName(dtype).str() + ">";
}

static llvm::Expected<TensorSignature> toSignature(Type t, StringRef what) {
  auto shaped = dyn_cast<ShapedType>(t);
  if (!shaped || !shaped.hasRank() ||
      !(isa<RankedTensorType>(t) || isa<MemRefType>(t)))
    return llvm::createStringError("%s has type that graph-run cannot pass: "
                                   "only ranked tensors and memrefs",
                                   what.str().c_str());
  std::string name;
  llvm::raw_string_ostream(name) << shaped.getElementType();
  std::optional<DType> dtype = parseDType(name);
  if (!dtype)
    return llvm::createStringError(
        "%s has element type %s; graph-run supports f32, f16, bf16, i1, i32, "
        "i64",
        what.str().c_str(), name.c_str());
  TensorSignature sig{*dtype, {}, isa<MemRefType>(t)};
  for (int64_t d : shaped.getShape())
    sig.shape.push_back(ShapedType::isDynamic(d) ? kDynamicDim : d);
  return sig;
}

llvm::Expected<EntrySignature>
mlir::graphopt::runtime::getEntrySignature(ModuleOp module, StringRef name) {
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn && module.lookupSymbol(name))
    return llvm::createStringError(
        "@%s is not a func.func: graph-run reads tensor shapes and element "
        "types from the entry's signature, so it takes programs at the "
        "graph, tensor or memref level, not the LLVM dialect",
        name.str().c_str());
  if (!fn) {
    std::string available;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal())
        available +=
            (available.empty() ? "" : ", ") + ("@" + f.getName()).str();
    return llvm::createStringError(
        "no function @%s in the module (functions: %s); choose one with "
        "--entry",
        name.str().c_str(), available.empty() ? "none" : available.c_str());
  }
  EntrySignature sig;
  sig.name = name.str();
  for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes())) {
    auto s = toSignature(t, "input " + std::to_string(i));
    if (!s)
      return s.takeError();
    sig.inputs.push_back(*s);
  }
  for (auto [i, t] : llvm::enumerate(fn.getResultTypes())) {
    auto s = toSignature(t, "result " + std::to_string(i));
    if (!s)
      return s.takeError();
    sig.outputs.push_back(*s);
  }
  return sig;
}

llvm::Error mlir::graphopt::runtime::specializeEntry(
    ModuleOp module, StringRef name,
    llvm::ArrayRef<llvm::SmallVector<int64_t>> shapes) {
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn || fn.isExternal())
    return llvm::createStringError("no function @%s to specialize",
                                   name.str().c_str());
  if (shapes.size() != fn.getNumArguments())
    return llvm::createStringError("@%s takes %u inputs, %zu shapes given",
                                   name.str().c_str(), fn.getNumArguments(),
                                   shapes.size());
  fn.getContext()->getOrLoadDialect<tensor::TensorDialect>();
  SmallVector<Type> inputs;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(fn.getArguments(), shapes))) {
    auto [arg, shape] = pair;
    auto t = dyn_cast<RankedTensorType>(arg.getType());
    if (!t || t.hasStaticShape() || t.getRank() != (int64_t)shape.size()) {
      inputs.push_back(arg.getType());
      continue;
    }
    auto specialized = RankedTensorType::get(shape, t.getElementType());
    // Graph ops take the more static type as it is; other users (a return,
    // a call) keep seeing the declared type through a cast.
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : arg.getUses())
      if (!isa<graph::GraphDialect>(use.getOwner()->getDialect()))
        uses.push_back(&use);
    arg.setType(specialized);
    for (OpOperand *use : uses) {
      OpBuilder b(use->getOwner());
      use->set(tensor::CastOp::create(b, arg.getLoc(), t, arg));
    }
    inputs.push_back(specialized);
  }
  fn.setType(FunctionType::get(fn.getContext(), inputs, fn.getResultTypes()));
  // The body now sees more static operands than its result types say; that
  // is valid (compatible types), and graph-refine-shapes propagates it. A
  // shape conflict shows up here, as a diagnostic on the op.
  if (failed(verify(module)))
    return llvm::createStringError(
        "the input shapes are inconsistent with @%s (see the diagnostic "
        "above)",
        name.str().c_str());
  return llvm::Error::success();
}

/// The host API of libGraphOptCUDARuntime.so (CUDARuntime.h), resolved
/// with dlsym: libGraphOpt.so does not link the CUDA runtime, so the CPU
/// build and machines without CUDA never need it.
struct Runner::CUDAHostAPI {
  std::string path;
  int (*init)(int) = nullptr;
  const char *(*getError)() = nullptr;
  void (*clearError)() = nullptr;
  int (*computeCapability)() = nullptr;
  void *(*malloc)(size_t) = nullptr;
  void (*free)(void *) = nullptr;
  int (*toDevice)(void *, const void *, size_t) = nullptr;
  int (*toHost)(void *, const void *, size_t) = nullptr;
  int (*synchronize)() = nullptr;
  void *(*eventCreate)() = nullptr;
  void (*eventDestroy)(void *) = nullptr;
  void (*eventRecord)(void *) = nullptr;
  float (*elapsedMs)(void *, void *) = nullptr;
  void (*setErrorPrinting)(int) = nullptr;
  void (*clearConstants)() = nullptr;

  /// An error carrying the runtime's sticky CUDA error.
  llvm::Error error(const llvm::Twine &what) const {
    const char *e = getError();
    return llvm::createStringError(
        (what + ": " + (e ? e : "unknown CUDA runtime error")).str());
  }
};

llvm::Expected<std::string> mlir::graphopt::runtime::findCUDARuntimeLibrary() {
  if (const char *env = std::getenv("GRAPHOPT_CUDA_RUNTIME"))
    return std::string(env);
  // Next to libGraphOpt.so (installed trees, the Python package)...
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&findCUDARuntimeLibrary), &info) &&
      info.dli_fname) {
    llvm::SmallString<256> path(info.dli_fname);
    llvm::sys::path::remove_filename(path);
    llvm::sys::path::append(path, "libGraphOptCUDARuntime.so");
    if (llvm::sys::fs::exists(path))
      return path.str().str();
  }
  // ...else the build tree's.
  if (llvm::sys::fs::exists(GRAPHOPT_CUDA_RUNTIME_BUILD_PATH))
    return std::string(GRAPHOPT_CUDA_RUNTIME_BUILD_PATH);
  return llvm::createStringError(
      "the CUDA runtime library libGraphOptCUDARuntime.so was not found: "
      "graphopt was built without the CUDA toolkit (configure with the "
      "toolkit installed, or set GRAPHOPT_CUDA_RUNTIME to the library)");
}

static llvm::Expected<std::unique_ptr<Runner::CUDAHostAPI>>
loadCUDAHostAPI() {
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
  get(api->getError, "graphoptCudaGetError");
  get(api->clearError, "graphoptCudaClearError");
  get(api->computeCapability, "graphoptCudaGetComputeCapability");
  get(api->malloc, "graphoptCudaMalloc");
  get(api->free, "graphoptCudaFree");
  get(api->toDevice, "graphoptCudaCopyToDevice");
  get(api->toHost, "graphoptCudaCopyToHost");
  get(api->synchronize, "graphoptCudaSynchronize");
  get(api->eventCreate, "graphoptCudaEventCreate");
  get(api->eventDestroy, "graphoptCudaEventDestroy");
  get(api->eventRecord, "graphoptCudaEventRecord");
  get(api->elapsedMs, "graphoptCudaEventElapsedMs");
  get(api->setErrorPrinting, "graphoptCudaSetErrorPrinting");
  get(api->clearConstants, "graphoptCudaClearConstants");
  if (!missing.empty())
    return llvm::createStringError("%s lacks %s (a mismatched build?)",
                                   path->c_str(), missing.c_str());
  // Errors reach the user through the Runner's llvm::Error.
  api->setErrorPrinting(0);
  return api;
}

/// Compiles the LLVM-dialect `module` to a relocatable, position-independent
/// object for the host (the ahead-of-time path).
static llvm::Error emitObject(ModuleOp module, StringRef path,
                              unsigned optLevel) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // Only the _mlir_ciface_ wrappers are the object's interface: the
  // functions they wrap (an entry called "main" among them) become
  // internal, so the object links into any program.
  OwningOpRef<ModuleOp> copy = module.clone();
  for (auto fn : copy->getOps<LLVM::LLVMFuncOp>())
    if (!fn.isExternal() && !fn.getName().starts_with("_mlir_ciface_") &&
        copy->lookupSymbol(("_mlir_ciface_" + fn.getName()).str()))
      fn.setLinkage(LLVM::Linkage::Internal);
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*copy, ctx);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), error);
  if (!target)
    return llvm::createStringError("no target for %s: %s", triple.c_str(),
                                   error.c_str());
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      llvm::Triple(triple), "generic", "", llvm::TargetOptions(),
      llvm::Reloc::PIC_, std::nullopt,
      static_cast<llvm::CodeGenOptLevel>(std::min(optLevel, 3u))));
  llvmModule->setDataLayout(tm->createDataLayout());
  llvmModule->setTargetTriple(llvm::Triple(triple));
  if (llvm::Error e =
          makeOptimizingTransformer(optLevel, 0, tm.get())(llvmModule.get()))
    return e;
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write %s: %s", path.str().c_str(),
                                   ec.message().c_str());
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, out.os(), nullptr,
                              llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit objects");
  pm.run(*llvmModule);
  out.keep();
  return llvm::Error::success();
}

Runner::~Runner() {
  // The engine (and the constants' host memory) goes away: the device
  // copies cached by host address must not outlive it.
  engine.reset();
  if (cuda)
    cuda->clearConstants();
}

namespace {
double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}
} // namespace

llvm::Expected<std::unique_ptr<Runner>>
Runner::compile(ModuleOp module, const RunnerOptions &options) {
  auto sig = getEntrySignature(module, options.entry);
  if (!sig)
    return sig.takeError();
  if (options.specializeTo) {
    if (llvm::Error e =
            specializeEntry(module, options.entry, *options.specializeTo))
      return std::move(e);
    auto specialized = getEntrySignature(module, options.entry);
    if (!specialized)
      return specialized.takeError();
    // Results stay as declared: the caller reads their sizes at run time.
    sig->inputs = specialized->inputs;
  }

  // Compile the entry and what it calls, nothing else: other public
  // functions become private and symbol DCE drops them.
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal())
      fn.setVisibility(fn.getName() == options.entry
                           ? SymbolTable::Visibility::Public
                           : SymbolTable::Visibility::Private);

  // --cuda-emulate: the CUDA target's host side and runtime library, over
  // the emulated driver (host memory), with the kernels compiled to loops.
  bool emulate = options.target == "cuda" && options.cudaEmulate;
  bool isCUDA = options.target == "cuda";
  if (!isCUDA && options.target != "cpu")
    return llvm::createStringError("unknown target '%s': use cpu or cuda",
                                   options.target.c_str());
  std::unique_ptr<CUDAHostAPI> cudaAPI;
  std::string chip = options.cudaChip;
  if (emulate) {
    auto path = findCUDARuntimeLibrary();
    if (!path)
      return path.takeError();
    llvm::SmallString<256> driver(*path);
    llvm::sys::path::remove_filename(driver);
    llvm::sys::path::append(driver, "libGraphOptCUDAEmulator.so");
    // The driver is chosen when the runtime first starts in this process.
    setenv("GRAPHOPT_CUDA_DRIVER", driver.c_str(), /*overwrite=*/0);
  }
  if (isCUDA) {
    auto api = loadCUDAHostAPI();
    if (!api)
      return api.takeError();
    cudaAPI = std::move(*api);
    if (!options.compileOnly) {
      if (cudaAPI->init(-1) != 0)
        return cudaAPI->error(
            "the CUDA target cannot run on this machine (compile without "
            "running with --compile-only/--emit-object)");
      if (chip.empty()) {
        int cc = cudaAPI->computeCapability();
        if (cc > 0)
          chip = "sm_" + std::to_string(cc);
      }
    }
    if (chip.empty())
      chip = "sm_90";
  }

  auto t0 = std::chrono::steady_clock::now();
  PassManager pm(module.getContext());
  if (options.timing)
    pm.enableTiming();
  pm.addPass(createSymbolDCEPass());
  CompilePipelineOptions compile;
  compile.target = options.target;
  compile.optimize = options.optimize;
  compile.vectorize = options.vectorize;
  compile.fuseElementwise = options.fuse;
  compile.fusionReport = options.fusionReport;
  compile.flashAttention = options.flashAttention;
  // CPU buffers come from the runtime's caching allocator, so repeated
  // calls reuse memory; results are released through it too. (CUDA
  // buffers come from the device's stream-ordered pool.)
  // An object written for ahead-of-time use calls malloc/free instead, so
  // that it needs no graphopt library on the CPU.
  bool runtimeAllocator = !isCUDA && options.objectFile.empty();
  compile.runtimeAllocator = runtimeAllocator;
  compile.cpuEmulation = emulate;
  if (isCUDA && !emulate) {
    compile.chip = chip;
    if (!options.cudaFeatures.empty())
      compile.features = options.cudaFeatures;
    compile.format = options.cudaFormat;
  }
  buildCompilePipeline(pm, compile);
  if (failed(pm.run(module)))
    return llvm::createStringError(
        "lowering @%s for %s failed (see the diagnostics above)",
        options.entry.c_str(),
        isCUDA ? ("CUDA (" + chip + ")").c_str() : "the CPU");
  double lowerTime = secondsSince(t0);

  if (!options.objectFile.empty()) {
    if (llvm::Error e =
            emitObject(module, options.objectFile, options.optLevel))
      return std::move(e);
  }

  // Large constants (model weights) leave the LLVM module: their data is
  // copied to aligned host memory and the globals become external symbols
  // resolved to it. This keeps LLVM from optimizing and emitting hundreds of
  // megabytes of IR constants (ResNet-50: ~1 minute otherwise).
  std::unique_ptr<Runner> runner(new Runner());
  runner->sig = std::move(*sig);
  runner->stats.lowerSeconds = lowerTime;
  if (options.compileOnly)
    return runner;
  llvm::SmallVector<std::pair<std::string, void *>> externals;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    auto attr = dyn_cast_or_null<DenseElementsAttr>(global.getValueOrNull());
    if (!attr || attr.isSplat() || attr.getElementType().isInteger(1))
      continue;
    ArrayRef<char> raw = attr.getRawData();
    if (raw.size() < kExternalConstantMinBytes)
      continue;
    size_t bytes = (raw.size() + 63) / 64 * 64;
    void *p = std::aligned_alloc(64, bytes);
    if (!p)
      return llvm::createStringError("cannot allocate %zu bytes for constant "
                                     "@%s",
                                     raw.size(),
                                     global.getSymName().str().c_str());
    std::memcpy(p, raw.data(), raw.size());
    runner->constantData.emplace_back(p, std::free);
    global.removeValueAttr();
    global.setLinkage(LLVM::Linkage::External);
    externals.push_back({global.getSymName().str(), p});
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    return jtmb.takeError();
  auto tm = jtmb->createTargetMachine();
  if (!tm)
    return tm.takeError();
  auto optimize = makeOptimizingTransformer(options.optLevel, 0, tm->get());
  std::string dumpPath = options.dumpLLVMIR;
  auto transformer = [&](llvm::Module *m) -> llvm::Error {
    if (llvm::Error e = optimize(m))
      return e;
    if (!dumpPath.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream os(dumpPath, ec);
      if (ec)
        return llvm::createStringError("cannot write %s: %s", dumpPath.c_str(),
                                       ec.message().c_str());
      m->print(os, nullptr);
    }
    return llvm::Error::success();
  };
  // memref.copy of non-contiguous views calls memrefCopy from MLIR's C
  // runner utilities.
  llvm::SmallVector<StringRef> libs = {GRAPHOPT_MLIR_C_RUNNER_UTILS};
  // The JIT resolves library symbols only for absolute paths.
  llvm::SmallVector<std::string> absLibs;
  for (const std::string &lib : options.sharedLibs) {
    if (!llvm::sys::fs::exists(lib))
      return llvm::createStringError("shared library '%s' does not exist",
                                     lib.c_str());
    llvm::SmallString<256> path(lib);
    llvm::sys::fs::make_absolute(path);
    absLibs.push_back(path.str().str());
  }
  for (const std::string &lib : absLibs)
    libs.push_back(lib);
  // CUDA: the mgpu* functions the host code calls.
  if (cudaAPI)
    libs.push_back(cudaAPI->path);
  ExecutionEngineOptions eo;
  eo.sharedLibPaths = libs;
  eo.transformer = transformer;
  eo.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  auto t1 = std::chrono::steady_clock::now();
  auto engine = ExecutionEngine::create(module, eo);
  if (!engine)
    return engine.takeError();
  // Resolve the runtime allocator and the externalized constants by
  // explicit symbols, not through the process's global symbol table (which
  // would need libGraphOpt.so loaded RTLD_GLOBAL).
  (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    auto add = [&](StringRef name, void *p) {
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(p),
                             llvm::JITSymbolFlags::Exported};
    };
    add("_mlir_memref_to_llvm_alloc",
        reinterpret_cast<void *>(&_mlir_memref_to_llvm_alloc));
    add("_mlir_memref_to_llvm_aligned_alloc",
        reinterpret_cast<void *>(&_mlir_memref_to_llvm_aligned_alloc));
    add("_mlir_memref_to_llvm_free",
        reinterpret_cast<void *>(&_mlir_memref_to_llvm_free));
    for (auto &[name, p] : externals)
      add(name, p);
    return map;
  });
  runner->engine = std::move(*engine);
  runner->cuda = std::move(cudaAPI);
  runner->freeResult = runtimeAllocator ? _mlir_memref_to_llvm_free : std::free;
  // Run the module's constructors (CUDA: they load the kernels) now that
  // every symbol resolves, and materialize the code, so that compile time
  // is not charged to the first call.
  // (Lookup first: it reports unresolved symbols as an error, where
  // initialize() would abort.)
  auto fn = runner->engine->lookupPacked("_mlir_ciface_" + options.entry);
  if (!fn)
    return fn.takeError();
  runner->engine->initialize();
  // CUDA: the kernels were loaded by the module's constructors.
  if (runner->cuda && runner->cuda->getError())
    return runner->cuda->error("loading the kernels failed");
  double jitTime = secondsSince(t1);
  runner->stats.jitSeconds = jitTime;
  if (options.timing)
    llvm::errs() << llvm::format(
        "graph-run: lowering %.3f s, LLVM JIT %.3f s\n", lowerTime, jitTime);
  return runner;
}

llvm::Error
mlir::graphopt::runtime::checkInputs(const EntrySignature &sig,
                                     llvm::ArrayRef<HostTensor> inputs) {
  if (inputs.size() != sig.inputs.size())
    return llvm::createStringError(
        "@%s takes %zu input%s but %zu %s given", sig.name.c_str(),
        sig.inputs.size(), sig.inputs.size() == 1 ? "" : "s", inputs.size(),
        inputs.size() == 1 ? "was" : "were");
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, sig.inputs))) {
    auto &[t, s] = pair;
    if (t.dtype() != s.dtype)
      return llvm::createStringError(
          "input %zu of @%s: expected element type %s (%s), got %s", i,
          sig.name.c_str(), dtypeName(s.dtype).str().c_str(), s.str().c_str(),
          dtypeName(t.dtype()).str().c_str());
    if (t.rank() != (int64_t)s.shape.size())
      return llvm::createStringError(
          "input %zu of @%s: expected rank %zu (%s), got shape %s", i,
          sig.name.c_str(), s.shape.size(), s.str().c_str(),
          t.typeString().c_str());
    for (auto [d, pair2] : llvm::enumerate(llvm::zip(t.shape(), s.shape))) {
      auto [got, want] = pair2;
      if (want != kDynamicDim && got != want)
        return llvm::createStringError(
            "input %zu of @%s: dim %zu is %lld, expected %lld (%s)", i,
            sig.name.c_str(), d, (long long)got, (long long)want,
            s.str().c_str());
    }
  }
  return llvm::Error::success();
}

namespace {
/// The descriptor of a contiguous rank-r buffer at `p`.
std::vector<int64_t> makeDescriptor(void *p, llvm::ArrayRef<int64_t> shape) {
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

llvm::SmallVector<ResultView> decodeResults(const EntrySignature &sig,
                                            const std::vector<int64_t> &words) {
  llvm::SmallVector<ResultView> views;
  size_t at = 0;
  for (const TensorSignature &s : sig.outputs) {
    int64_t r = s.shape.size();
    const int64_t *d = &words[at];
    at += 3 + 2 * r;
    ResultView v;
    void *aligned;
    std::memcpy(&v.allocated, &d[0], sizeof(void *));
    std::memcpy(&aligned, &d[1], sizeof(void *));
    v.base = (uint8_t *)aligned + d[2] * dtypeSize(s.dtype);
    v.shape.assign(d + 3, d + 3 + r);
    v.strides.assign(d + 3 + r, d + 3 + 2 * r);
    views.push_back(std::move(v));
  }
  return views;
}

/// Calls `_mlir_ciface_<sig.name>` with the input descriptors; returns the
/// result descriptors (consecutive words).
llvm::Expected<std::vector<int64_t>>
callEntry(ExecutionEngine &engine, const EntrySignature &sig,
          std::vector<std::vector<int64_t>> &inDescs) {
  size_t resultWords = 0;
  for (const TensorSignature &s : sig.outputs)
    resultWords += 3 + 2 * s.shape.size();
  std::vector<int64_t> results(resultWords, 0);
  llvm::SmallVector<void *> ptrs, args;
  if (!sig.outputs.empty())
    ptrs.push_back(results.data());
  for (auto &d : inDescs)
    ptrs.push_back(d.data());
  for (void *&p : ptrs)
    args.push_back(&p);
  if (llvm::Error e = engine.invokePacked("_mlir_ciface_" + sig.name, args))
    return std::move(e);
  return results;
}

/// Gathers a strided view whose elements start at `base` (host memory).
HostTensor gather(DType dtype, const ResultView &v, const uint8_t *base) {
  HostTensor out(dtype, v.shape);
  size_t es = dtypeSize(dtype);
  int64_t r = v.shape.size();
  llvm::SmallVector<int64_t> pos(r, 0);
  for (int64_t i = 0, n = out.numElements(); i < n; ++i) {
    int64_t off = 0;
    for (int64_t k = 0; k < r; ++k)
      off += pos[k] * v.strides[k];
    std::memcpy((uint8_t *)out.data() + i * es, base + off * es, es);
    for (int64_t k = r - 1; k >= 0; --k) {
      if (++pos[k] < v.shape[k])
        break;
      pos[k] = 0;
    }
  }
  return out;
}
} // namespace

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
    auto called = callEntry(*engine, sig, inDescs);
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
    // alias an input or an earlier result.
    llvm::SmallVector<ResultView> views = decodeResults(sig, results);
    // Free each result buffer once, after every download (results may
    // alias each other), and never an input.
    auto freeResults = [&] {
      std::set<void *> seen(device.begin(), device.end());
      for (const ResultView &v : views)
        if (v.allocated && seen.insert(v.allocated).second)
          cu.free(v.allocated);
    };
    for (auto [s, v] : llvm::zip(sig.outputs, views)) {
      if (outs) {
        size_t es = dtypeSize(s.dtype);
        if (v.contiguous()) {
          HostTensor out(s.dtype, v.shape);
          size_t bytes = v.numElements() * es;
          if (bytes && cu.toHost(out.data(), v.base, bytes) != 0) {
            freeResults();
            return cu.error("copying a result of @" + sig.name +
                            " to the host");
          }
          outs->push_back(std::move(out));
        } else {
          std::vector<uint8_t> span(v.span() * es);
          if (!span.empty() &&
              cu.toHost(span.data(), v.base, span.size()) != 0) {
            freeResults();
            return cu.error("copying a result of @" + sig.name +
                            " to the host");
          }
          outs->push_back(gather(s.dtype, v, span.data()));
        }
      }
    }
    freeResults();
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

llvm::Expected<std::vector<double>>
Runner::timeCalls(llvm::ArrayRef<HostTensor> inputs, unsigned warmup,
                  unsigned n) {
  if (!engine)
    return llvm::createStringError("@%s was compiled without preparing to "
                                   "run (compile-only)",
                                   sig.name.c_str());
  if (llvm::Error e = checkInputs(sig, inputs))
    return std::move(e);
  std::vector<double> times(n);
  if (cuda) {
    if (auto r = invokeCUDA(inputs, warmup, &times); !r)
      return r.takeError();
    return times;
  }
  for (unsigned i = 0; i < warmup; ++i)
    if (auto r = invoke(inputs); !r)
      return r.takeError();
  for (double &t : times) {
    auto s = std::chrono::steady_clock::now();
    auto r = invoke(inputs);
    t = secondsSince(s);
    if (!r)
      return r.takeError();
  }
  return times;
}

llvm::Expected<llvm::SmallVector<HostTensor>>
Runner::invoke(llvm::ArrayRef<HostTensor> inputs) {
  if (!engine)
    return llvm::createStringError("@%s was compiled without preparing to "
                                   "run (compile-only)",
                                   sig.name.c_str());
  if (llvm::Error e = checkInputs(sig, inputs))
    return std::move(e);
  if (cuda)
    return invokeCUDA(inputs, 0, nullptr);
  // Descriptors for the inputs. The compiled code only reads them: entry
  // arguments are bufferized as non-writable.
  std::vector<std::vector<int64_t>> inDescs;
  for (const HostTensor &t : inputs)
    inDescs.push_back(
        makeDescriptor(const_cast<void *>(t.data()), t.shape()));
  auto called = callEntry(*engine, sig, inDescs);
  if (!called)
    return called.takeError();
  std::vector<int64_t> &results = *called;

  // A fresh, contiguous result buffer that no other result shares is
  // adopted as is; anything else (a view, a buffer shared by several
  // results) is copied, and its buffer freed after every copy. Inputs are
  // never freed.
  llvm::SmallVector<ResultView> views = decodeResults(sig, results);
  std::set<void *> inputBuffers;
  for (const HostTensor &t : inputs)
    inputBuffers.insert(const_cast<void *>(t.data()));
  std::map<void *, int> users;
  for (const ResultView &v : views)
    ++users[v.allocated];
  std::set<void *> toFree;
  llvm::SmallVector<HostTensor> outs;
  for (auto [s, v] : llvm::zip(sig.outputs, views)) {
    bool owned = v.allocated && !inputBuffers.count(v.allocated);
    if (owned && v.contiguous() && users[v.allocated] == 1) {
      outs.push_back(HostTensor::adopt(s.dtype, v.shape, v.allocated, v.base,
                                       freeResult));
      continue;
    }
    outs.push_back(gather(s.dtype, v, v.base));
    if (owned)
      toFree.insert(v.allocated);
  }
  for (void *p : toFree)
    freeResult(p);
  return outs;
}
