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

#include "RunnerInternal.h"
#include "graphopt/Dialect/Graph/IR/HeapConstants.h"
#include "graphopt/Runtime/AOTHeader.h"
#include "graphopt/Runtime/CompileCache.h"

#include "graphopt/Pipelines/Pipelines.h"
#include "graphopt/Runtime/Allocator.h"

#include "graphopt/Dialect/Graph/Analysis/DimEquivalence.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/xxhash.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <map>
#include <sched.h>
#include <set>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::graphopt::runtime;
using namespace mlir::graphopt::runtime::detail;

/// Constants at least this large are kept out of the LLVM module.
static constexpr size_t kExternalConstantMinBytes =
    graphopt::kHeapConstantMinBytes;

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
    return llvm::createStringError("%s has a type graphopt cannot pass: "
                                   "only ranked tensors and memrefs",
                                   what.str().c_str());
  std::string name;
  llvm::raw_string_ostream(name) << shaped.getElementType();
  std::optional<DType> dtype = parseDType(name);
  if (!dtype)
    return llvm::createStringError(
        "%s has element type %s; graphopt runs f32, f16, bf16, f64, i1, i8, "
        "i16, i32, i64, ui8, ui16, ui32, ui64",
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
        "@%s is not a func.func: graphopt reads tensor shapes and element "
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
        "no function @%s in the module (functions: %s)",
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
  sig.dimEqualities = graphopt::getArgDimEqualities(fn);
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

/// The host's LLVM target, its code emitter and its assembly parser (the
/// generated code's inline assembly: the AMX kernels' permission request).
static void initializeNativeTarget() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
}

/// Writes `m` to `path` as text (--dump-llvm-ir); nothing when `path` is
/// empty.
static llvm::Error writeLLVMIR(const llvm::Module &m, StringRef path) {
  if (path.empty())
    return llvm::Error::success();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError("cannot write %s: %s", path.str().c_str(),
                                   ec.message().c_str());
  m.print(os, nullptr);
  return llvm::Error::success();
}

/// Step 7 (ahead of time): compiles the LLVM-dialect `module` to a
/// relocatable, position-independent object for the host.
/// With `weightsPath`, the large constants go to that file instead
/// (externalizeWeights) and `weights` describes it.
/// With `irPath`, the optimized LLVM IR is written there too
/// (--dump-llvm-ir).
static llvm::Error emitObject(ModuleOp module, StringRef path,
                              StringRef weightsPath, StringRef irPath,
                              unsigned optLevel, const EntrySignature &sig,
                              bool cuda, std::optional<AOTWeights> &weights) {
  initializeNativeTarget();
  // Only the _mlir_ciface_ wrappers are the object's interface: the
  // functions they wrap (an entry called "main" among them) become
  // internal, so the object links into any program.
  OwningOpRef<ModuleOp> copy = module.clone();
  for (auto fn : copy->getOps<LLVM::LLVMFuncOp>())
    if (!fn.isExternal() && !fn.getName().starts_with("_mlir_ciface_") &&
        copy->lookupSymbol(("_mlir_ciface_" + fn.getName()).str()))
      fn.setLinkage(LLVM::Linkage::Internal);
  if (!weightsPath.empty()) {
    auto moved = externalizeWeights(*copy, sig.name, weightsPath);
    if (!moved)
      return moved.takeError();
    weights = *moved;
  }
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*copy, ctx);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  // The entry's signature, for loaders (graphopt.load): a C string
  // `graphopt_<entry>_signature` (aotSignatureJSON). Not for an entry whose
  // name is no C identifier (the header refuses those too).
  if (llvm::all_of(sig.name,
                   [](char c) { return llvm::isAlnum(c) || c == '_'; }) &&
      !sig.name.empty() && !llvm::isDigit(sig.name[0])) {
    llvm::Constant *text = llvm::ConstantDataArray::getString(
        ctx, aotSignatureJSON(sig, cuda, weights ? &*weights : nullptr),
        /*AddNull=*/true);
    new llvm::GlobalVariable(*llvmModule, text->getType(), /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage, text,
                             "graphopt_" + sig.name + "_signature");
  }
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
  if (llvm::Error e = writeLLVMIR(*llvmModule, irPath))
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

std::string mlir::graphopt::runtime::describePipelineOptions() {
  std::string text;
  llvm::raw_string_ostream os(text);
  CompilePipelineOptions().print(os);
  return text;
}

/// Graph programs run to completion: a cycle of func.calls reachable from
/// the entry would recurse until the stack or the heap is gone.
static llvm::Error checkNoRecursion(ModuleOp module, StringRef entry) {
  // Depth-first over the call graph; `path` is the current call chain.
  llvm::SmallVector<func::FuncOp> path;
  llvm::DenseSet<Operation *> done;
  std::function<std::optional<std::string>(func::FuncOp)> visit =
      [&](func::FuncOp fn) -> std::optional<std::string> {
    if (done.contains(fn))
      return std::nullopt;
    if (llvm::is_contained(path, fn)) {
      std::string chain;
      bool on = false;
      for (func::FuncOp f : path) {
        on |= f == fn;
        if (on)
          chain += "@" + f.getName().str() + " -> ";
      }
      return chain + "@" + fn.getName().str();
    }
    path.push_back(fn);
    std::optional<std::string> cycle;
    fn.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (callee && !callee.isExternal() && (cycle = visit(callee)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    path.pop_back();
    done.insert(fn);
    return cycle;
  };
  auto fn = module.lookupSymbol<func::FuncOp>(entry);
  if (!fn)
    return llvm::Error::success();
  if (std::optional<std::string> cycle = visit(fn))
    return llvm::createStringError(
        "recursive calls are not supported (%s): a compiled program has no "
        "recursion limit; write the repetition as graph.loop",
        cycle->c_str());
  return llvm::Error::success();
}

/// Step 0 of compile: every `dense_resource<NAME>` constant given its data,
/// from `given` (out of band, by NAME: RunnerOptions::constantData) or else
/// from the file's `dialect_resources` section. Large f32 ones stay
/// resources that borrow the data (HeapConstants.h); the others are made
/// ordinary dense constants. A resource
/// without data, of the wrong size or of an element type that is not
/// whole bytes (i1: one byte per element) is an error naming the op.
static llvm::Error
inlineResourceConstants(ModuleOp module,
                        const llvm::StringMap<llvm::ArrayRef<char>> &given) {
  std::string error;
  AttrTypeReplacer replacer;
  llvm::DenseMap<uint64_t, llvm::SmallVector<DenseResourceElementsHandle, 1>>
      byHash;
  replacer.addReplacement(
      [&](DenseResourceElementsAttr attr) -> std::optional<Attribute> {
        if (!error.empty())
          return std::nullopt;
        DenseResourceElementsHandle handle = attr.getRawHandle();
        StringRef key = handle.getKey();
        ShapedType type = attr.getType();
        llvm::raw_string_ostream os(error);
        ArrayRef<char> data;
        if (auto it = given.find(key); it != given.end())
          data = it->second;
        else if (AsmResourceBlob *blob = handle.getBlob())
          data = blob->getData();
        else {
          os << "dense_resource<" << key << "> : " << type
             << " has no data (neither the file's dialect_resources section "
                "nor the caller gives it)";
          return std::nullopt;
        }
        Type element = type.getElementType();
        unsigned bits =
            element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
        if (bits != 1 && (bits == 0 || bits % 8)) {
          os << "dense_resource<" << key << "> : " << type << ": element type "
             << element << " is not supported out of band";
          return std::nullopt;
        }
        int64_t expected = type.getNumElements() * std::max(1u, bits / 8);
        if (static_cast<int64_t>(data.size()) != expected) {
          os << "dense_resource<" << key << "> : " << type << " has "
             << data.size() << " bytes of data; the type needs " << expected;
          return std::nullopt;
        }
        // A large f32 weight stays a resource, its data where it is (the
        // caller's, read during the compile only; the file's): kept out of
        // the context, as the constants derived from it are
        // (HeapConstants.h).
        // Equal data is one resource, as equal dense constants are one
        // attribute (a model whose layers were copied from one: the
        // passes then see the same weight, and kernels stay identical).
        if (element.isF32() && data.size() >= graphopt::kHeapConstantMinBytes) {
          uint64_t hash = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
              reinterpret_cast<const uint8_t *>(data.data()), data.size()));
          for (DenseResourceElementsHandle seen : byHash[hash])
            if (seen.getBlob()->getData() == data)
              return DenseResourceElementsAttr::get(type, seen);
          AsmResourceBlob *blob = handle.getBlob();
          if (!blob || blob->getData().data() != data.data())
            handle.getResource()->setBlob(
                AsmResourceBlob(data, alignof(float), /*deleter=*/nullptr,
                                /*dataIsMutable=*/false));
          byHash[hash].push_back(handle);
          return attr;
        }
        if (bits == 1) {
          llvm::SmallVector<bool> values;
          values.reserve(data.size());
          for (char c : data)
            values.push_back(c != 0);
          return DenseElementsAttr::get(type, values);
        }
        return DenseElementsAttr::getFromRawBuffer(type, data);
      });
  Operation *failed = nullptr;
  module->walk([&](Operation *op) {
    replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                               /*replaceLocs=*/false, /*replaceTypes=*/false);
    if (error.empty())
      return WalkResult::advance();
    failed = op;
    return WalkResult::interrupt();
  });
  if (!failed)
    return llvm::Error::success();
  std::string where;
  llvm::raw_string_ostream os(where);
  os << failed->getLoc() << ": " << failed->getName() << ": " << error;
  return llvm::createStringError(where);
}

/// Step 1 of compile: the entry's signature (with its run-time dim
/// equalities), the module specialized to `options.specializeTo`, recursion
/// refused, and every function but the entry private (symbol DCE then drops
/// what the entry does not call).
static llvm::Expected<EntrySignature>
prepareEntry(ModuleOp module, const RunnerOptions &options) {
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
  if (llvm::Error e = checkNoRecursion(module, options.entry))
    return std::move(e);
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal())
      fn.setVisibility(fn.getName() == options.entry
                           ? SymbolTable::Visibility::Public
                           : SymbolTable::Visibility::Private);
  return sig;
}

/// Step 2: the compile pipeline's options from their textual form; an
/// unknown name or a bad value is an error listing the options.
static llvm::Error
parseCompileOptions(StringRef text, graphopt::CompilePipelineOptions &compile) {
  std::string why;
  llvm::raw_string_ostream os(why);
  if (succeeded(compile.parseFromString(text, os)))
    return llvm::Error::success();
  // The option parser prints a bad value's message itself (to stderr).
  StringRef reason = StringRef(why).trim();
  reason.consume_front("<Pass-Options-Parser>: ");
  std::string all = describePipelineOptions(), names;
  for (StringRef item : llvm::split(StringRef(all).trim("{}"), ' '))
    names += (names.empty() ? "" : ", ") + item.split('=').first.str();
  return llvm::createStringError(
      "bad compile options '%s': %s (the compile pipeline's options: %s)",
      text.str().c_str(),
      reason.empty() ? "a value does not parse" : reason.str().c_str(),
      names.c_str());
}

/// Step 8a (JIT only): large constants (model weights) leave the LLVM
/// module: their data is copied to 64-byte aligned host memory (owned by
/// `owned`) and the globals become external symbols resolved to it. This
/// keeps LLVM from optimizing and emitting hundreds of megabytes of IR
/// constants (ResNet-50: ~1 minute otherwise). Returns symbol -> address.
namespace {
/// A constant kept out of the LLVM module: its symbol, host copy and size.
struct ExternalConstant {
  std::string name;
  void *data;
  size_t size;
};
} // namespace

/// `data` copied to 64-byte aligned host memory owned by `owned`, as the
/// compiled code expects of a global: constant `name`'s host copy.
static llvm::Expected<ExternalConstant>
alignedCopy(StringRef name, ArrayRef<char> data,
            std::vector<std::unique_ptr<void, void (*)(void *)>> &owned) {
  size_t bytes = std::max<size_t>((data.size() + 63) / 64 * 64, 64);
  void *p = std::aligned_alloc(64, bytes);
  if (!p)
    return llvm::createStringError("cannot allocate %zu bytes for constant "
                                   "@%s",
                                   data.size(), name.str().c_str());
  std::memcpy(p, data.data(), data.size());
  owned.emplace_back(p, std::free);
  return ExternalConstant{name.str(), p, data.size()};
}

static llvm::Expected<llvm::SmallVector<ExternalConstant>>
externalizeConstants(
    ModuleOp module,
    std::vector<std::unique_ptr<void, void (*)(void *)>> &owned) {
  llvm::SmallVector<ExternalConstant> externals;
  // Globals with the same data (a resource at two shapes) share one copy.
  // (Their data is found for all before any is taken over, which leaves
  // its resource empty.)
  llvm::SmallVector<std::pair<LLVM::GlobalOp, ArrayRef<char>>> large;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    std::optional<ArrayRef<char>> raw =
        graphopt::rawConstantData(global.getValueOrNull());
    if (raw && raw->size() >= kExternalConstantMinBytes)
      large.push_back({global, *raw});
  }
  llvm::DenseMap<const char *, void *> placed;
  for (auto [global, data] : large) {
    void *&at = placed[data.data()];
    if (!at) {
      // A packed weight made at compile time is taken over as it is.
      if (void *heap = graphopt::takeHeapConstant(global.getValueOrNull())) {
        owned.emplace_back(heap, std::free);
        at = heap;
      } else {
        auto copy = alignedCopy(global.getSymName(), data, owned);
        if (!copy)
          return copy.takeError();
        at = copy->data;
      }
    }
    externals.push_back({global.getSymName().str(), at, data.size()});
    global.removeValueAttr();
    global.setLinkage(LLVM::Linkage::External);
  }
  return externals;
}

std::optional<std::string>
mlir::graphopt::runtime::detail::besideThisLibrary(llvm::StringRef name) {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&besideThisLibrary), &info) ||
      !info.dli_fname)
    return std::nullopt;
  llvm::SmallString<256> path(info.dli_fname);
  llvm::sys::path::remove_filename(path);
  llvm::sys::path::append(path, name);
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  return path.str().str();
}

const std::string &mlir::graphopt::runtime::findOpenMPRuntimeLibrary() {
  static const std::string path = [] {
    if (std::optional<std::string> next =
            detail::besideThisLibrary("libomp.so.5"))
      return *next;
    llvm::StringRef built = GRAPHOPT_LIBOMP;
    if (!built.empty() && llvm::sys::fs::exists(built))
      return built.str();
    return std::string();
  }();
  return path;
}

/// Step 5a (JIT only): the shared libraries the compiled code calls into,
/// by absolute path (the JIT resolves library symbols only for those).
static llvm::Expected<llvm::SmallVector<std::string>>
jitLibraries(const RunnerOptions &options,
             const graphopt::CompilePipelineOptions &compile,
             StringRef cudaRuntime) {
  // (memrefCopy, which memref.copy of non-contiguous views may call, is
  // graphopt's own: runtimeSymbols.)
  llvm::SmallVector<std::string> libs;
  for (const std::string &lib : options.sharedLibs) {
    if (!llvm::sys::fs::exists(lib))
      return llvm::createStringError("shared library '%s' does not exist",
                                     lib.c_str());
    llvm::SmallString<256> path(lib);
    llvm::sys::fs::make_absolute(path);
    // The JIT only warns about a library it cannot load; load it first (it
    // stays loaded, as the JIT would keep it) to report why.
    std::string why;
    if (!llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &why)
             .isValid())
      return llvm::createStringError("shared library '%s' does not load: %s",
                                     lib.c_str(), why.c_str());
    libs.push_back(path.str().str());
  }
  // Parallel loops call the OpenMP runtime (__kmpc_*).
  if (compile.threads > 1)
    libs.push_back(findOpenMPRuntimeLibrary());
  // CUDA: the mgpu* functions the host code calls.
  if (!cudaRuntime.empty())
    libs.push_back(cudaRuntime.str());
  return libs;
}

/// The symbols the compiled code gets from the runner rather than from a
/// library: the runtime allocator and the externalized constants (resolved
/// explicitly, not through the process's global symbol table, which would
/// need libGraphOpt.so loaded RTLD_GLOBAL).
static llvm::orc::SymbolMap
runtimeSymbols(llvm::orc::MangleAndInterner &interner,
               llvm::ArrayRef<ExternalConstant> constants) {
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
  add("memrefCopy", reinterpret_cast<void *>(&graphopt_memref_copy));
  for (const ExternalConstant &c : constants)
    add(c.name, c.data);
  return map;
}

/// What, besides the module, decides the machine code of a CPU program:
/// the compile cache's key text.
static std::string
cacheConfiguration(const RunnerOptions &options,
                   const graphopt::CompilePipelineOptions &compile,
                   llvm::ArrayRef<std::string> libs) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "graphopt compile cache 1\nlibrary " << libraryBuildId()
     << "\ncpu " << llvm::sys::getHostCPUName() << "\nfeatures";
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> names;
  for (auto &f : features)
    names.push_back((f.second ? "+" : "-") + f.first().str());
  llvm::sort(names);
  for (const std::string &f : names)
    os << " " << f;
  os << "\nentry " << options.entry << "\nopt " << options.optLevel
     << "\npipeline ";
  compile.print(os);
  os << "\nlibraries";
  for (const std::string &lib : libs)
    os << " " << lib;
  return text;
}

static std::string frameObjects(llvm::ArrayRef<std::string> objects);

/// Records in `stats` how storing the compiled program in the cache went;
/// a failure is also a warning, once per process (a read-only cache
/// directory is not worth one per compile).
static void noteCacheStore(Runner::CompileStats &stats, llvm::Error stored,
                           const CompileCache &cache, StringRef key) {
  if (stored) {
    stats.cache = Runner::CompileStats::Cache::NotStored;
    stats.cacheNote = llvm::toString(std::move(stored));
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      llvm::errs() << "graphopt: warning: " << stats.cacheNote
                   << " (compiled programs are not cached; set "
                      "GRAPHOPT_CACHE_DIR to a writable directory, or to "
                      "'off')\n";
    return;
  }
  stats.cache = Runner::CompileStats::Cache::Stored;
  stats.cacheNote = cache.entryPath(key);
}

/// --timing's report of a compile: the phases' seconds (`llvmPhase`
/// describes the LLVM phase) and what the cache did.
static void printCompileTiming(const Runner::CompileStats &stats,
                               StringRef llvmPhase) {
  llvm::errs() << llvm::format("graphopt: lowering %.3f s, ",
                               stats.lowerSeconds)
               << llvmPhase << "\n";
  if (stats.cache == Runner::CompileStats::Cache::Stored)
    llvm::errs() << "graphopt: compile cache: stored " << stats.cacheNote
                 << "\n";
  else if (stats.cache == Runner::CompileStats::Cache::NotStored)
    llvm::errs() << "graphopt: compile cache: not stored (" << stats.cacheNote
                 << ")\n";
}

/// The object code `engine` compiled (ExecutionEngine hands it out only as
/// a file, written in the cache's directory).
static llvm::Expected<std::string> engineObject(CompileCache &cache,
                                                ExecutionEngine &engine) {
  auto file = cache.temporaryFile();
  if (!file)
    return file.takeError();
  auto [fd, temp] = std::move(*file);
  ::close(fd);
  engine.dumpToObjectFile(temp);
  auto object = llvm::MemoryBuffer::getFile(temp, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  llvm::sys::fs::remove(temp);
  if (!object || (*object)->getBufferSize() == 0)
    return llvm::createStringError("the JIT's object code could not be "
                                   "read back for the compile cache");
  return (*object)->getBuffer().str();
}

/// Step 9 (cache miss): the program's objects and the constants they
/// address, as the entry of `key`.
static llvm::Error storeInCache(CompileCache &cache, StringRef key,
                                llvm::ArrayRef<std::string> objects,
                                llvm::ArrayRef<ExternalConstant> externals) {
  std::vector<CachedConstant> constants;
  for (const ExternalConstant &c : externals)
    constants.push_back(
        {c.name, llvm::ArrayRef<char>(static_cast<const char *>(c.data),
                                      c.size)});
  return cache.store(key, frameObjects(objects), constants);
}

namespace {
/// A program loaded from the compile cache.
struct LoadedProgram {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  void (*entryFn)(void **) = nullptr;
  std::vector<std::unique_ptr<void, void (*)(void *)>> constants;
};
} // namespace

/// The JIT's description of this machine (the native target initialized).
static llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostMachine() {
  initializeNativeTarget();
  return llvm::orc::JITTargetMachineBuilder::detectHost();
}

/// A target machine for the host (hostMachine()'s), for LLVM's optimizer.
static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
hostTargetMachine() {
  auto jtmb = hostMachine();
  if (!jtmb)
    return jtmb.takeError();
  return jtmb->createTargetMachine();
}

/// hostMachine() and the data layout of its target.
static llvm::Expected<
    std::pair<llvm::orc::JITTargetMachineBuilder, llvm::DataLayout>>
hostMachineAndLayout() {
  auto jtmb = hostMachine();
  if (!jtmb)
    return jtmb.takeError();
  auto layout = jtmb->getDefaultDataLayoutForTarget();
  if (!layout)
    return layout.takeError();
  return std::make_pair(std::move(*jtmb), std::move(*layout));
}

/// The name of the packed wrapper ExecutionEngine adds for `fn`.
static std::string packedName(StringRef fn) { return ("_mlir_" + fn).str(); }

/// Adds `_mlir_<fn>(void **args)`, the packed wrapper ExecutionEngine adds
/// for each function (args[i] points at argument i, the last at the
/// result, if any), for `fn`.
static void addPackedWrapper(llvm::Module &module, llvm::Function &fn) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::IRBuilder<> b(ctx);
  auto *ptrTy = llvm::PointerType::get(ctx, 0);
  auto *wrapper = llvm::Function::Create(
      llvm::FunctionType::get(b.getVoidTy(), {ptrTy}, false),
      llvm::GlobalValue::ExternalLinkage, packedName(fn.getName()), module);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", wrapper));
  llvm::Value *args = wrapper->getArg(0);
  llvm::SmallVector<llvm::Value *> values;
  for (auto [i, arg] : llvm::enumerate(fn.args())) {
    llvm::Value *slot = b.CreateLoad(
        ptrTy, b.CreateConstGEP1_64(ptrTy, args, static_cast<int64_t>(i)));
    values.push_back(b.CreateLoad(arg.getType(), slot));
  }
  llvm::Value *result = b.CreateCall(&fn, values);
  if (!fn.getReturnType()->isVoidTy()) {
    llvm::Value *slot =
        b.CreateLoad(ptrTy, b.CreateConstGEP1_64(ptrTy, args, fn.arg_size()));
    b.CreateStore(result, slot);
  }
  b.CreateRetVoid();
}

/// One part of a split module (bitcode) optimized and compiled to a host
/// object in a context of its own.
static llvm::Expected<std::string> compilePart(StringRef bitcode,
                                               unsigned optLevel) {
  llvm::LLVMContext ctx;
  auto module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(bitcode, "graphopt-part"), ctx);
  if (!module)
    return module.takeError();
  auto jtmb = hostMachine();
  if (!jtmb)
    return jtmb.takeError();
  jtmb->setCodeGenOptLevel(
      static_cast<llvm::CodeGenOptLevel>(std::min(optLevel, 3u)));
  auto tm = jtmb->createTargetMachine();
  if (!tm)
    return tm.takeError();
  if (llvm::Error e =
          makeOptimizingTransformer(optLevel, 0, tm->get())(module->get()))
    return std::move(e);
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if ((*tm)->addPassesToEmitFile(pm, os, nullptr,
                                 llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit objects");
  pm.run(**module);
  return std::string(buffer.begin(), buffer.end());
}

/// The LLVM-dialect `module` translated to LLVM IR in `ctx`, with the
/// host's data layout and target triple.
static llvm::Expected<std::unique_ptr<llvm::Module>>
translateForHost(ModuleOp module, llvm::LLVMContext &ctx) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, ctx);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  auto host = hostMachineAndLayout();
  if (!host)
    return host.takeError();
  llvmModule->setDataLayout(host->second);
  llvmModule->setTargetTriple(host->first.getTargetTriple());
  return std::move(llvmModule);
}

/// --dump-llvm-ir for a compile that neither runs nor writes an object
/// (--compile-only): the module translated and optimized for the host as
/// the JIT would, written to `path`.
static llvm::Error dumpHostLLVMIR(ModuleOp module, StringRef path,
                                  unsigned optLevel) {
  llvm::LLVMContext ctx;
  auto llvmModule = translateForHost(module, ctx);
  if (!llvmModule)
    return llvmModule.takeError();
  auto tm = hostTargetMachine();
  if (!tm)
    return tm.takeError();
  if (llvm::Error e =
          makeOptimizingTransformer(optLevel, 0, tm->get())(llvmModule->get()))
    return e;
  return writeLLVMIR(**llvmModule, path);
}

/// The cores this process may use (defined with the thread choice, step 3).
static int64_t availableCores();

/// Step 8 (CPU): the LLVM-dialect `module` as host objects. Its functions
/// are split into up to kCompileParts modules (llvm::SplitModule, balanced
/// by size; the split depends only on the module, so the objects are the
/// same whatever the thread count), each optimized and compiled on one of
/// `threads` threads. LLVM's time is mostly per function (the O3 function
/// pipeline, instruction selection, scheduling, register allocation), and
/// the kernels are noinline functions: little is lost across the parts.
/// (Optimizing the whole module first and splitting only code generation
/// left ResNet-18's LLVM time at 4.1 s on two threads against 5.2 s on
/// one; this way 2.7-2.8 s.)
static constexpr unsigned kCompileParts = 8;
static llvm::Expected<std::vector<std::string>>
compileObjects(ModuleOp module, StringRef entry, unsigned optLevel,
               unsigned threads) {
  llvm::LLVMContext ctx;
  auto translated = translateForHost(module, ctx);
  if (!translated)
    return translated.takeError();
  std::unique_ptr<llvm::Module> llvmModule = std::move(*translated);
  llvm::Function *fn = llvmModule->getFunction(("_mlir_ciface_" + entry).str());
  if (!fn || fn->isDeclaration())
    return llvm::createStringError("no function _mlir_ciface_%s in the "
                                   "compiled module",
                                   entry.str().c_str());
  addPackedWrapper(*llvmModule, *fn);
  unsigned defined = 0;
  for (llvm::Function &f : *llvmModule)
    defined += !f.isDeclaration();
  unsigned parts = std::max(1u, std::min(kCompileParts, defined));
  std::vector<llvm::SmallString<0>> bitcodes;
  llvm::SplitModule(
      *llvmModule, parts,
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::SmallString<0> bitcode;
        llvm::raw_svector_ostream os(bitcode);
        llvm::WriteBitcodeToFile(*part, os);
        bitcodes.push_back(std::move(bitcode));
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  std::vector<std::string> objects(bitcodes.size()), errors(bitcodes.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < bitcodes.size();) {
      auto object = compilePart(bitcodes[i].str(), optLevel);
      if (object)
        objects[i] = std::move(*object);
      else
        errors[i] = llvm::toString(object.takeError());
    }
  };
  std::vector<std::thread> pool;
  unsigned n = std::max<unsigned>(
      1, std::min<unsigned>(threads, static_cast<unsigned>(bitcodes.size())));
  for (unsigned t = 1; t < n; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
  for (const std::string &e : errors)
    if (!e.empty())
      return llvm::createStringError("code generation failed: %s", e.c_str());
  return objects;
}

/// The objects of a program, framed in one blob for the compile cache:
/// u64 count, u64 size of each, then their bytes.
static std::string frameObjects(llvm::ArrayRef<std::string> objects) {
  std::string blob;
  auto put = [&](uint64_t v) {
    blob.append(reinterpret_cast<const char *>(&v), sizeof(v));
  };
  put(objects.size());
  for (const std::string &o : objects)
    put(o.size());
  for (const std::string &o : objects)
    blob += o;
  return blob;
}

static llvm::Expected<llvm::SmallVector<StringRef>>
unframeObjects(StringRef blob) {
  auto get = [&](size_t at) {
    uint64_t v;
    std::memcpy(&v, blob.data() + at, sizeof(v));
    return v;
  };
  auto bad = [] { return llvm::createStringError("malformed object list"); };
  if (blob.size() < 8)
    return bad();
  uint64_t count = get(0);
  if (count > (blob.size() - 8) / 8)
    return bad();
  size_t pos = 8 + 8 * count;
  llvm::SmallVector<StringRef> objects;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t size = get(8 + 8 * i);
    if (size > blob.size() - pos)
      return bad();
    objects.push_back(blob.substr(pos, size));
    pos += size;
  }
  if (pos != blob.size())
    return bad();
  return objects;
}

/// Step 5c/8: object code in a JIT of its own (set up as ExecutionEngine
/// sets up its own: the RuntimeDyld linker, the perf and GDB listeners,
/// `libs` and this process for undefined symbols), its externalized
/// constants at `constants` (aligned host copies).
static llvm::Error loadObjects(LoadedProgram &parts,
                               llvm::ArrayRef<StringRef> objects,
                               llvm::ArrayRef<ExternalConstant> constants,
                               StringRef entry,
                               llvm::ArrayRef<std::string> libs);

/// Step 5c: a program from the compile cache: its objects loaded, its
/// constants copied to aligned host memory.
static llvm::Error loadCachedProgram(LoadedProgram &parts,
                                     const CachedProgram &program,
                                     StringRef entry,
                                     llvm::ArrayRef<std::string> libs) {
  auto objects = unframeObjects(program.object);
  if (!objects)
    return objects.takeError();
  llvm::SmallVector<ExternalConstant> constants;
  for (const CachedConstant &c : program.constants) {
    auto copy = alignedCopy(c.name, c.data, parts.constants);
    if (!copy)
      return copy.takeError();
    constants.push_back(std::move(*copy));
  }
  return loadObjects(parts, *objects, constants, entry, libs);
}

static llvm::Error loadObjects(LoadedProgram &parts,
                               llvm::ArrayRef<StringRef> objects,
                               llvm::ArrayRef<ExternalConstant> constants,
                               StringRef entry,
                               llvm::ArrayRef<std::string> libs) {
  auto host = hostMachineAndLayout();
  if (!host)
    return host.takeError();
  const llvm::DataLayout &layout = host->second;
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(host->first)
          .setObjectLinkingLayerCreator(
              [](llvm::orc::ExecutionSession &session)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                auto layer =
                    std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                        session, [](const llvm::MemoryBuffer &) {
                          return std::make_unique<llvm::SectionMemoryManager>();
                        });
                if (auto *gdb =
                        llvm::JITEventListener::createGDBRegistrationListener())
                  layer->registerJITEventListener(*gdb);
                if (auto *perf =
                        llvm::JITEventListener::createPerfJITEventListener())
                  layer->registerJITEventListener(*perf);
                return layer;
              })
          .create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  char prefix = layout.getGlobalPrefix();
  for (const std::string &lib : libs) {
    auto generator =
        llvm::orc::DynamicLibrarySearchGenerator::Load(lib.c_str(), prefix);
    if (!generator)
      return generator.takeError();
    main.addGenerator(std::move(*generator));
  }
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(), layout);
  if (llvm::Error e = main.define(llvm::orc::absoluteSymbols(
          runtimeSymbols(interner, constants))))
    return e;
  for (StringRef object : objects)
    if (llvm::Error e = (*jit)->addObjectFile(
            llvm::MemoryBuffer::getMemBufferCopy(object, "graphopt-object")))
      return e;
  auto fn = (*jit)->lookup(packedName("_mlir_ciface_" + entry.str()));
  if (!fn)
    return fn.takeError();
  parts.entryFn = fn->toPtr<void (*)(void **)>();
  parts.jit = std::move(*jit);
  return llvm::Error::success();
}

/// The cores this process may run on (its affinity mask: taskset and
/// container limits are honoured).
static int64_t availableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    return std::max(1, CPU_COUNT(&set));
  return 1;
}

/// Step 3: the CPU code's thread count. Not given: the available cores for
/// the JIT, 1 for an AOT object (which would otherwise need libomp) and for
/// CUDA. More than 1 needs the OpenMP runtime.
static llvm::Error chooseThreads(graphopt::CompilePipelineOptions &compile,
                                 const RunnerOptions &options) {
  bool cpuJIT = compile.target == "cpu" && options.objectFile.empty();
  if (!compile.threads.hasValue())
    compile.threads =
        cpuJIT && !findOpenMPRuntimeLibrary().empty() ? availableCores() : 1;
  if (compile.threads < 1)
    return llvm::createStringError("threads=%lld: give 1 or more",
                                   (long long)compile.threads);
  if (compile.threads > 1 && findOpenMPRuntimeLibrary().empty())
    return llvm::createStringError(
        "threads=%lld needs LLVM's OpenMP runtime, which this build of "
        "graphopt did not find (install libomp-22-dev and rebuild)",
        (long long)compile.threads);
  return llvm::Error::success();
}

Runner::~Runner() {
  // The large constants' host memory goes away: their device copies,
  // cached by host address, must not outlive it (small ones are checked
  // by content on use).
  engine.reset();
  loaded.reset();
  if (cuda)
    for (auto &data : constantData)
      cuda->forgetConstant(data.get());
}

namespace {
double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}
} // namespace

namespace {
/// Where a program runs, chosen in step 4.
struct TargetSetup {
  bool cuda = false;
  /// CUDA emulation: the CUDA pipeline's host side and runtime library
  /// over the emulated driver (host memory), kernels compiled to loops.
  bool emulate = false;
  /// CUDA: the runtime library's host API, loaded.
  std::unique_ptr<Runner::CUDAHostAPI> api;
  /// CUDA: the chip compiled for (the GPU's own, else sm_90).
  std::string chip;
};
} // namespace

/// Step 4: the target. CUDA: load the runtime library, choose the driver
/// (the emulated one for CUDA emulation: one driver per process) and, when
/// the program is to run, start it and take the chip from the GPU.
static llvm::Expected<TargetSetup>
prepareTarget(const graphopt::CompilePipelineOptions &compile,
              const RunnerOptions &options) {
  TargetSetup setup;
  std::string target = compile.target;
  setup.cuda = target == "cuda";
  setup.emulate = setup.cuda && options.cudaEmulate;
  if (!setup.cuda && target != "cpu")
    return llvm::createStringError("unknown target '%s': use cpu or cuda",
                                   target.c_str());
  if (!setup.cuda)
    return setup;
  setup.chip = compile.chip.hasValue() ? std::string(compile.chip) : "";
  auto api = loadCUDAHostAPI();
  if (!api)
    return api.takeError();
  setup.api = std::move(*api);
  Runner::CUDAHostAPI &cuda = *setup.api;
  if (setup.emulate) {
    // The emulated driver, next to the runtime library, is chosen
    // explicitly (before the runtime starts: one driver per process; a
    // runtime already started with another is reported below).
    llvm::SmallString<256> driver(cuda.path);
    llvm::sys::path::remove_filename(driver);
    llvm::sys::path::append(driver, "libGraphOptCUDAEmulator.so");
    (void)cuda.useDriver(driver.c_str());
  }
  if (!options.compileOnly) {
    int current = cuda.device();
    if (options.cudaDevice >= 0 && current >= 0 &&
        current != options.cudaDevice)
      return llvm::createStringError(
          "CUDA device %d requested, but this process already runs CUDA "
          "programs on device %d (one device per process): run it in a "
          "separate process",
          options.cudaDevice, current);
    if (cuda.init(options.cudaDevice) != 0)
      return cuda.error("the CUDA target cannot run on this machine (compile "
                        "it without running: compile-only, or an object "
                        "file for ahead-of-time use)");
    // The driver is chosen once per process: emulated and real programs
    // cannot share one (their device memory differs).
    StringRef driver = cuda.driverPath();
    bool emulated = driver.ends_with("libGraphOptCUDAEmulator.so");
    if (emulated != setup.emulate)
      return llvm::createStringError(
          "this process runs CUDA programs through %s; %s needs %s: run it "
          "in a separate process",
          driver.str().c_str(),
          setup.emulate ? "CUDA emulation" : "a GPU program",
          setup.emulate ? "the emulated driver (libGraphOptCUDAEmulator.so)"
                        : "the CUDA driver");
    if (setup.chip.empty()) {
      int cc = cuda.computeCapability();
      if (cc > 0)
        setup.chip = "sm_" + std::to_string(cc);
    }
  }
  if (setup.chip.empty())
    setup.chip = "sm_90";
  return setup;
}

/// Step 5b: the compile cache's program for `key`, loaded; nullopt on a
/// miss. An entry that is damaged or does not load is a warning, removed.
static std::optional<LoadedProgram>
lookUpCache(CompileCache &cache, StringRef key, StringRef entry,
            llvm::ArrayRef<std::string> libs) {
  std::string note;
  std::optional<CachedProgram> hit = cache.lookup(key, note);
  if (hit) {
    LoadedProgram loaded;
    llvm::Error e = loadCachedProgram(loaded, *hit, entry, libs);
    if (!e)
      return loaded;
    note = "ignoring the compile cache entry " + cache.entryPath(key) +
           " (it does not load: " + llvm::toString(std::move(e)) +
           ") and removing it";
    llvm::sys::fs::remove(cache.entryPath(key));
  }
  if (!note.empty())
    llvm::errs() << "graphopt: warning: " << note << "\n";
  return std::nullopt;
}

/// Step 6: the compile pipeline, in place (graph to LLVM dialect).
static llvm::Error lowerModule(ModuleOp module,
                               const graphopt::CompilePipelineOptions &compile,
                               const RunnerOptions &options,
                               const TargetSetup &target) {
  if (target.cuda) {
    // The 8-bit floats are lowered for the CPU only (graph-expand-float8).
    WalkResult f8 = module.walk([&](Operation *op) {
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        if (mlir::graphopt::graph::isFloat8(getElementTypeOrSelf(t))) {
          op->emitError() << "8-bit float tensors (" << t
                          << ") are not supported by the CUDA target; "
                             "cast them to f16 or f32 (docs/CUDA.md)";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (f8.wasInterrupted())
      return llvm::createStringError("lowering @%s for CUDA failed",
                                     options.entry.c_str());
  }
  PassManager pm(module.getContext());
  if (options.timing)
    pm.enableTiming();
  // The input was verified when parsed; the passes' output is verified once,
  // at the end, unless every pass is (verifyEach).
  pm.enableVerifier(options.verifyEach);
  pm.addPass(createSymbolDCEPass());
  buildCompilePipeline(pm, compile);
  std::string where = target.cuda ? "CUDA (" + target.chip + ")" : "the CPU";
  if (failed(pm.run(module)))
    return llvm::createStringError("lowering @%s for %s failed",
                                   options.entry.c_str(), where.c_str());
  if (!options.verifyEach && failed(verify(module)))
    return llvm::createStringError(
        "lowering @%s for %s produced invalid IR (a graphopt bug; compile "
        "with verify-each to find the pass)",
        options.entry.c_str(), where.c_str());
  return llvm::Error::success();
}

/// Step 8b (JIT): the LLVM-dialect module compiled by MLIR's
/// ExecutionEngine (LLVM optimization at `optLevel`, then machine code),
/// with the libraries and the runtime symbols resolvable. The object code
/// is kept for the compile cache when `keepObject`.
static llvm::Expected<std::unique_ptr<ExecutionEngine>>
createEngine(ModuleOp module, const RunnerOptions &options, unsigned optLevel,
             llvm::ArrayRef<std::string> libs,
             llvm::ArrayRef<ExternalConstant> externals, bool keepObject) {
  auto tm = hostTargetMachine();
  if (!tm)
    return tm.takeError();
  auto optimize = makeOptimizingTransformer(optLevel, 0, tm->get());
  std::string dumpPath = options.dumpLLVMIR;
  auto transformer = [&](llvm::Module *m) -> llvm::Error {
    if (llvm::Error e = optimize(m))
      return e;
    return writeLLVMIR(*m, dumpPath);
  };
  llvm::SmallVector<StringRef> libRefs(libs.begin(), libs.end());
  ExecutionEngineOptions eo;
  eo.sharedLibPaths = libRefs;
  eo.transformer = transformer;
  eo.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(optLevel, 3u));
  eo.enableObjectDump = keepObject;
  auto engine = ExecutionEngine::create(module, eo);
  if (!engine)
    return engine.takeError();
  (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    return runtimeSymbols(interner, externals);
  });
  return std::move(*engine);
}

/// The steps, in order: 1 the entry, 2 the pipeline options, 3 threads,
/// 4 the target, 5 the libraries and the compile cache (a hit ends here),
/// 6 lowering, 7 the AOT object, 8 the JIT, 9 storing in the cache.
llvm::Expected<std::unique_ptr<Runner>>
Runner::compile(ModuleOp module, const RunnerOptions &options) {
  if (llvm::Error e = inlineResourceConstants(module, options.constantData))
    return std::move(e);
  auto sig = prepareEntry(module, options);
  if (!sig)
    return sig.takeError();

  CompilePipelineOptions compile;
  if (llvm::Error e = parseCompileOptions(options.pipeline, compile))
    return std::move(e);
  if (llvm::Error e = chooseThreads(compile, options))
    return std::move(e);
  auto target = prepareTarget(compile, options);
  if (!target)
    return target.takeError();
  if (!options.weightsFile.empty() &&
      (options.objectFile.empty() || target->cuda))
    return llvm::createStringError(
        "a weights file holds the weights of a CPU object: give an object "
        "file too, and target=cpu");
  // CPU buffers come from the runtime's caching allocator, so repeated
  // calls reuse memory; results are released through it too. (CUDA
  // buffers come from the device's stream-ordered pool.)
  // An object written for ahead-of-time use calls malloc/free instead, so
  // that it needs no graphopt library on the CPU.
  bool runtimeAllocator = !target->cuda && options.objectFile.empty();
  compile.runtimeAllocator = runtimeAllocator;
  compile.cpuEmulation = target->emulate;
  if (target->cuda && !target->emulate)
    compile.chip = target->chip;

  // The libraries the code will call, and the compile cache: a CPU
  // program compiled here before (same module, options, CPU and library)
  // is loaded instead of compiled.
  llvm::SmallVector<std::string> libs;
  std::optional<CompileCache> cache;
  std::string cacheKey;
  if (!options.compileOnly) {
    auto found = jitLibraries(options, compile,
                              target->api ? StringRef(target->api->path) : "");
    if (!found)
      return found.takeError();
    libs = std::move(*found);
    // A hit runs no pipeline, so it could write no report: a compile asked
    // for one is not looked up (nor stored: the same program compiled
    // without the report option is another key).
    bool reports = !compile.fusionReport.getValue().empty() ||
                   !compile.memoryReport.getValue().empty();
    if (!target->cuda && options.objectFile.empty() &&
        options.dumpLLVMIR.empty() && !reports)
      cache = CompileCache::fromEnvironment();
  }
  if (cache) {
    auto t1 = std::chrono::steady_clock::now();
    cacheKey =
        CompileCache::key(module, cacheConfiguration(options, compile, libs));
    if (std::optional<LoadedProgram> loaded =
            lookUpCache(*cache, cacheKey, options.entry, libs)) {
      std::unique_ptr<Runner> runner(new Runner());
      runner->sig = std::move(*sig);
      runner->loaded = std::move(loaded->jit);
      runner->entryFn = loaded->entryFn;
      runner->constantData = std::move(loaded->constants);
      runner->freeResult = _mlir_memref_to_llvm_free;
      runner->stats.jitSeconds = secondsSince(t1);
      runner->stats.cache = CompileStats::Cache::Hit;
      runner->stats.cacheNote = cache->entryPath(cacheKey);
      if (options.timing)
        llvm::errs() << llvm::format(
            "graphopt: compile cache hit (%s), loaded in %.3f s\n",
            runner->stats.cacheNote.c_str(), runner->stats.jitSeconds);
      return runner;
    }
  }

  auto t0 = std::chrono::steady_clock::now();
  if (llvm::Error e = lowerModule(module, compile, options, *target))
    return std::move(e);
  double lowerTime = secondsSince(t0);

  if (!options.objectFile.empty()) {
    std::optional<AOTWeights> weights;
    if (llvm::Error e = emitObject(
            module, options.objectFile, options.weightsFile, options.dumpLLVMIR,
            options.optLevel, *sig, target->cuda, weights))
      return std::move(e);
    if (!options.headerFile.empty())
      if (llvm::Error e = writeAOTHeader(*sig, target->cuda, options.headerFile,
                                         weights ? &*weights : nullptr))
        return std::move(e);
  }

  std::unique_ptr<Runner> runner(new Runner());
  runner->sig = std::move(*sig);
  runner->stats.lowerSeconds = lowerTime;
  if (options.compileOnly) {
    if (options.objectFile.empty() && !options.dumpLLVMIR.empty())
      if (llvm::Error e =
              dumpHostLLVMIR(module, options.dumpLLVMIR, options.optLevel))
        return std::move(e);
    return runner;
  }
  // Global constructors (CUDA's kernel loading) run through the engine,
  // which a cached object does not have.
  if (cache && !module.getOps<LLVM::GlobalCtorsOp>().empty()) {
    runner->stats.cache = CompileStats::Cache::NotStored;
    runner->stats.cacheNote = "the program has global constructors";
    cache.reset();
  }
  auto externals = externalizeConstants(module, runner->constantData);
  if (!externals)
    return externals.takeError();
  auto t1 = std::chrono::steady_clock::now();
  // The CPU JIT compiles the module itself, in parts on several threads,
  // and loads the objects as a compile-cache hit would; ExecutionEngine
  // stays for CUDA programs (global constructors load the kernels) and
  // for dumping the LLVM IR.
  if (!target->cuda && options.dumpLLVMIR.empty() &&
      module.getOps<LLVM::GlobalCtorsOp>().empty()) {
    unsigned threads = options.compileThreads > 0
                           ? options.compileThreads
                           : static_cast<unsigned>(availableCores());
    auto objects =
        compileObjects(module, options.entry, options.optLevel, threads);
    if (!objects)
      return objects.takeError();
    llvm::SmallVector<StringRef> refs(objects->begin(), objects->end());
    LoadedProgram loaded;
    if (llvm::Error e =
            loadObjects(loaded, refs, *externals, options.entry, libs))
      return std::move(e);
    runner->loaded = std::move(loaded.jit);
    runner->entryFn = loaded.entryFn;
    runner->freeResult =
        runtimeAllocator ? _mlir_memref_to_llvm_free : std::free;
    double jitTime = secondsSince(t1);
    runner->stats.jitSeconds = jitTime;
    if (cache)
      noteCacheStore(runner->stats,
                     storeInCache(*cache, cacheKey, *objects, *externals),
                     *cache, cacheKey);
    if (options.timing)
      printCompileTiming(runner->stats,
                         llvm::formatv("LLVM {0:f3} s ({1} parts, {2} threads)",
                                       jitTime, objects->size(), threads)
                             .str());
    return runner;
  }
  // CPU emulation of CUDA (a testing aid) compiles at -O1 at most: its
  // kernels are scalar loops over blocks and threads, which -O3 takes ~4x
  // longer to compile than -O1 for no faster run (ResNet-50: LLVM 37.7 ->
  // 9.9 s, the call 6.6 s either way; docs/CUDA.md).
  unsigned optLevel =
      target->emulate ? std::min(options.optLevel, 1u) : options.optLevel;
  auto engine = createEngine(module, options, optLevel, libs, *externals,
                             /*keepObject=*/cache.has_value());
  if (!engine)
    return engine.takeError();
  runner->engine = std::move(*engine);
  runner->cuda = std::move(target->api);
  runner->freeResult = runtimeAllocator ? _mlir_memref_to_llvm_free : std::free;
  // Run the module's constructors (CUDA: they load the kernels) now that
  // every symbol resolves, and materialize the code, so that compile time
  // is not charged to the first call.
  // (Lookup first: it reports unresolved symbols as an error, where
  // initialize() would abort.)
  auto fn = runner->engine->lookupPacked("_mlir_ciface_" + options.entry);
  if (!fn)
    return fn.takeError();
  runner->entryFn = *fn;
  runner->engine->initialize();
  // CUDA: the kernels were loaded by the module's constructors.
  if (runner->cuda && runner->cuda->getError())
    return runner->cuda->error("loading the kernels failed");
  double jitTime = secondsSince(t1);
  runner->stats.jitSeconds = jitTime;
  if (cache) {
    auto object = engineObject(*cache, *runner->engine);
    noteCacheStore(runner->stats,
                   object ? storeInCache(*cache, cacheKey, *object, *externals)
                          : object.takeError(),
                   *cache, cacheKey);
  }
  if (options.timing)
    printCompileTiming(runner->stats,
                       llvm::formatv("LLVM JIT {0:f3} s", jitTime).str());
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
  for (const ArgDimEquality &e : sig.dimEqualities) {
    int64_t got = inputs[e.arg].shape()[e.dim];
    int64_t want = e.otherArg < 0 ? e.size
                                    : inputs[e.otherArg].shape()[e.otherDim];
    if (got == want)
      continue;
    std::string other =
        e.otherArg < 0
            ? std::string("the static size")
            : "dim " + std::to_string(e.otherDim) + " of input " +
                  std::to_string(e.otherArg);
    return llvm::createStringError(
        "input %u of @%s: dim %u is %lld but %s is %lld; the program needs "
        "them equal%s%s%s",
        e.arg, sig.name.c_str(), e.dim, (long long)got, other.c_str(),
        (long long)want, e.reason.empty() ? "" : " for ", e.reason.c_str(),
        got == 1 || want == 1
            ? " (a dynamic dim of size 1 is not broadcast at run time)"
            : "");
  }
  return llvm::Error::success();
}

llvm::Error Runner::checkCallable(llvm::ArrayRef<HostTensor> inputs) const {
  if (!engine && !loaded)
    return llvm::createStringError("@%s was compiled without preparing to "
                                   "run (compile-only)",
                                   sig.name.c_str());
  return checkInputs(sig, inputs);
}

llvm::Expected<std::vector<double>>
Runner::timeCalls(llvm::ArrayRef<HostTensor> inputs, unsigned warmup,
                  unsigned n) {
  if (llvm::Error e = checkCallable(inputs))
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

llvm::Expected<Runner::PreparedCall>
Runner::prepareCall(llvm::ArrayRef<HostTensor> inputs) const {
  if (cuda)
    return llvm::createStringError("@%s: prepared calls are for CPU programs",
                                   sig.name.c_str());
  if (llvm::Error e = checkCallable(inputs))
    return std::move(e);
  PreparedCall call;
  for (const HostTensor &t : inputs) {
    call.inputStarts.push_back(call.inputWords.size());
    llvm::append_range(call.inputWords, makeDescriptor(nullptr, t.shape()));
  }
  for (const TensorSignature &s : sig.outputs) {
    if (llvm::is_contained(s.shape, kDynamicDim))
      return llvm::createStringError("@%s: result %zu has a dynamic shape (%s)",
                                     sig.name.c_str(), call.outputBytes.size(),
                                     s.str().c_str());
    call.resultWords += 3 + 2 * s.shape.size();
    int64_t n = 1;
    for (int64_t d : s.shape)
      n *= d;
    call.outputBytes.push_back(n * dtypeSize(s.dtype));
  }
  return call;
}

llvm::Error Runner::invokeInto(const PreparedCall &call,
                               const void *const *inputs,
                               void *const *outputs) {
  // The descriptors on the stack for the usual few inputs and results.
  llvm::SmallVector<int64_t, 48> words(call.inputWords.begin(),
                                       call.inputWords.end());
  for (auto [i, start] : llvm::enumerate(call.inputStarts)) {
    std::memcpy(&words[start], &inputs[i], sizeof(void *));
    std::memcpy(&words[start + 1], &inputs[i], sizeof(void *));
  }
  llvm::SmallVector<int64_t, 48> results(call.resultWords, 0);
  llvm::SmallVector<int64_t *, 8> descs;
  for (unsigned start : call.inputStarts)
    descs.push_back(&words[start]);
  if (llvm::Error e = callPacked(entryFn, sig, results.data(), descs))
    return e;

  // Copy every result out, then free the buffers the program allocated
  // for them, each once (results may share one; inputs are never freed).
  llvm::SmallVector<void *, 8> freed;
  size_t at = 0;
  for (auto [i, s] : llvm::enumerate(sig.outputs)) {
    ResultView v = decodeResult(s, &results[at]);
    at += 3 + 2 * s.shape.size();
    if (call.outputBytes[i]) {
      if (v.contiguous())
        std::memcpy(outputs[i], v.base, call.outputBytes[i]);
      else
        copyStrided(static_cast<uint8_t *>(outputs[i]), s.dtype, v, v.base);
    }
    bool input = false;
    for (unsigned k = 0; k < call.inputStarts.size(); ++k)
      input |= v.allocated == inputs[k];
    if (v.allocated && !input && !llvm::is_contained(freed, v.allocated))
      freed.push_back(v.allocated);
  }
  for (void *p : freed)
    freeResult(p);
  return llvm::Error::success();
}

llvm::Expected<llvm::SmallVector<HostTensor>>
Runner::invoke(llvm::ArrayRef<HostTensor> inputs) {
  if (llvm::Error e = checkCallable(inputs))
    return std::move(e);
  if (cuda)
    return invokeCUDA(inputs, 0, nullptr);
  // Descriptors for the inputs. The compiled code only reads them: entry
  // arguments are bufferized as non-writable.
  std::vector<std::vector<int64_t>> inDescs;
  for (const HostTensor &t : inputs)
    inDescs.push_back(
        makeDescriptor(const_cast<void *>(t.data()), t.shape()));
  auto called = callEntry(entryFn, sig, inDescs);
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
