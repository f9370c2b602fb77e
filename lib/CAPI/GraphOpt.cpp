//===- GraphOpt.cpp - C API of libGraphOpt.so -----------------------------===//
//
// Thin wrappers: every function converts C data to the C++ runtime's types,
// calls it, and turns llvm::Error and MLIR diagnostics into strings.
//
//===----------------------------------------------------------------------===//

#include "graphopt-c/GraphOpt.h"

#include "graphopt/InitAll.h"
#include "graphopt/Runtime/Allocator.h"
#include "graphopt/Runtime/CompileCache.h"
#include "graphopt/Runtime/Runner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::runtime;

namespace {
char *dupString(llvm::StringRef s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  std::memcpy(p, s.data(), s.size());
  p[s.size()] = 0;
  return p;
}

void setError(char **error, llvm::StringRef message) {
  if (error)
    *error = dupString(message);
}

std::unique_ptr<MLIRContext> makeContext() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    runtime::registerRewriteChecker();
  });
  DialectRegistry registry;
  registerAllDialects(registry);
  auto ctx = std::make_unique<MLIRContext>(registry);
  // The JIT and the compiler run on the caller's thread; no pool needed.
  ctx->disableMultithreading();
  return ctx;
}

/// Collects every diagnostic of the context, formatted "loc: severity: msg".
struct DiagnosticCollector {
  DiagnosticCollector(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &d) {
          llvm::raw_string_ostream os(text);
          os << d.getLocation() << ": ";
          switch (d.getSeverity()) {
          case DiagnosticSeverity::Error:
            os << "error: ";
            break;
          case DiagnosticSeverity::Warning:
            os << "warning: ";
            break;
          case DiagnosticSeverity::Note:
            os << "note: ";
            break;
          case DiagnosticSeverity::Remark:
            os << "remark: ";
            break;
          }
          os << d << "\n";
          for (Diagnostic &note : d.getNotes())
            os << "  " << note.getLocation() << ": note: " << note << "\n";
          return success();
        }) {}
  std::string message(llvm::StringRef what) const {
    std::string m = what.str();
    if (!text.empty())
      m += ":\n" + text;
    return m;
  }
  std::string text;
  ScopedDiagnosticHandler handler;
};

std::optional<DType> toDType(int32_t d) {
  switch (d) {
  case GRAPHOPT_F32:
    return DType::F32;
  case GRAPHOPT_F16:
    return DType::F16;
  case GRAPHOPT_BF16:
    return DType::BF16;
  case GRAPHOPT_I1:
    return DType::I1;
  case GRAPHOPT_I32:
    return DType::I32;
  case GRAPHOPT_I64:
    return DType::I64;
  case GRAPHOPT_F64:
    return DType::F64;
  case GRAPHOPT_I8:
    return DType::I8;
  case GRAPHOPT_I16:
    return DType::I16;
  case GRAPHOPT_U8:
    return DType::U8;
  case GRAPHOPT_U16:
    return DType::U16;
  case GRAPHOPT_U32:
    return DType::U32;
  case GRAPHOPT_U64:
    return DType::U64;
  case GRAPHOPT_F8E4M3FN:
    return DType::F8E4M3FN;
  case GRAPHOPT_F8E5M2:
    return DType::F8E5M2;
  case GRAPHOPT_F8E4M3FNUZ:
    return DType::F8E4M3FNUZ;
  case GRAPHOPT_F8E5M2FNUZ:
    return DType::F8E5M2FNUZ;
  }
  return std::nullopt;
}

int32_t fromDType(DType d) {
  switch (d) {
  case DType::F32:
    return GRAPHOPT_F32;
  case DType::F16:
    return GRAPHOPT_F16;
  case DType::BF16:
    return GRAPHOPT_BF16;
  case DType::I1:
    return GRAPHOPT_I1;
  case DType::I32:
    return GRAPHOPT_I32;
  case DType::I64:
    return GRAPHOPT_I64;
  case DType::F64:
    return GRAPHOPT_F64;
  case DType::I8:
    return GRAPHOPT_I8;
  case DType::I16:
    return GRAPHOPT_I16;
  case DType::U8:
    return GRAPHOPT_U8;
  case DType::U16:
    return GRAPHOPT_U16;
  case DType::U32:
    return GRAPHOPT_U32;
  case DType::U64:
    return GRAPHOPT_U64;
  case DType::F8E4M3FN:
    return GRAPHOPT_F8E4M3FN;
  case DType::F8E5M2:
    return GRAPHOPT_F8E5M2;
  case DType::F8E4M3FNUZ:
    return GRAPHOPT_F8E4M3FNUZ;
  case DType::F8E5M2FNUZ:
    return GRAPHOPT_F8E5M2FNUZ;
  }
  return -1;
}

struct SignatureView {
  int32_t dtype;
  std::vector<int64_t> shape;
};

SignatureView view(const TensorSignature &s) {
  SignatureView v{fromDType(s.dtype), {}};
  for (int64_t d : s.shape)
    v.shape.push_back(d == kDynamicDim ? -1 : d);
  return v;
}
} // namespace

struct graphopt_program {
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<Runner> runner;
  std::vector<SignatureView> inputs, outputs;
};

struct graphopt_call {
  Runner *runner;
  Runner::PreparedCall call;
  int numInputs;
};

struct graphopt_results {
  llvm::SmallVector<HostTensor> tensors;
};

extern "C" {

const char *graphopt_version(void) { return "0.1.0"; }

const char *graphopt_pipeline_options(void) {
  static const std::string text = describePipelineOptions();
  return text.c_str();
}

void graphopt_string_free(char *s) { std::free(s); }

void graphopt_hash128(const void *data, size_t size, uint64_t out[2]) {
  llvm::XXH128_hash_t h = llvm::xxh3_128bits(
      llvm::ArrayRef<uint8_t>(static_cast<const uint8_t *>(data), size));
  out[0] = h.low64;
  out[1] = h.high64;
}

size_t graphopt_release_cached_memory(void) {
  return runtime::releaseCachedBlocks();
}

char *graphopt_cache_directory(void) {
  std::optional<CompileCache> cache = CompileCache::fromEnvironment();
  return cache ? strdup(cache->directory().str().c_str()) : nullptr;
}

/// The passes of `pipeline` to add to a pass manager on the top-level
/// module: graph-opt's `--pass-pipeline` form, `builtin.module(...)`, names
/// that module, so its parentheses are taken off (added to the module's
/// pass manager as they were, they were nested under it and ran on the
/// modules inside the module: none, so nothing ran); the unwrapped form
/// (`graph-optimize-pipeline`, `func.func(canonicalize)`) is kept.
static std::string moduleLevelPipeline(StringRef pipeline) {
  StringRef text = pipeline.trim();
  StringRef anchor = "builtin.module(";
  if (!text.starts_with(anchor) || !text.ends_with(")"))
    return text.str();
  // Only if the anchor's parenthesis is the one closed at the end.
  int depth = 0;
  for (size_t i = anchor.size() - 1; i < text.size(); ++i) {
    if (text[i] == '(')
      ++depth;
    else if (text[i] == ')' && --depth == 0)
      return i + 1 == text.size()
                 ? text.drop_front(anchor.size()).drop_back().str()
                 : text.str();
  }
  return text.str();
}

char *graphopt_transform(const char *mlirText, const char *pipeline,
                         int debugLocations, char **error) {
  auto ctx = makeContext();
  DiagnosticCollector diags(*ctx);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(mlirText, ctx.get(), "<input>");
  if (!module) {
    setError(error, diags.message("cannot parse the module"));
    return nullptr;
  }
  if (pipeline && *pipeline) {
    PassManager pm(ctx.get());
    std::string parseErr;
    llvm::raw_string_ostream es(parseErr);
    if (failed(parsePassPipeline(moduleLevelPipeline(pipeline), pm, es))) {
      setError(error, "bad pass pipeline '" + std::string(pipeline) +
                          "': " + parseErr);
      return nullptr;
    }
    if (failed(pm.run(*module))) {
      setError(error, diags.message("the pass pipeline failed"));
      return nullptr;
    }
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  OpPrintingFlags flags;
  if (debugLocations)
    flags.enableDebugInfo(/*prettyForm=*/true);
  module->print(os, flags);
  return dupString(out);
}

graphopt_program *graphopt_compile(const char *mlirText, const char *entry,
                                   const char *options, char **error) {
  return graphopt_compile_with_constants(mlirText, entry, options, nullptr, 0,
                                         error);
}

graphopt_program *graphopt_compile_with_constants(
    const char *mlirText, const char *entry, const char *options,
    const graphopt_constant_data *constants, int numConstants, char **error) {
  auto program = std::make_unique<graphopt_program>();
  program->context = makeContext();
  DiagnosticCollector diags(*program->context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      mlirText, program->context.get(), "<input>");
  if (!module) {
    setError(error, diags.message("cannot parse the module"));
    return nullptr;
  }
  RunnerOptions ro;
  ro.entry = entry && *entry ? entry : "main";
  // Runner options by name; every other key=value is a compile pipeline
  // option, forwarded as is (Runner::compile names an unknown one).
  llvm::SmallVector<llvm::StringRef> items;
  llvm::StringRef(options ? options : "").split(items, ' ', -1, false);
  llvm::SmallVector<std::string> pipeline;
  for (llvm::StringRef item : items) {
    auto kv = item.split('=');
    llvm::StringRef key = kv.first, value = kv.second;
    auto flag = [&](bool &b) -> bool {
      if (value != "0" && value != "1")
        return false;
      b = value == "1";
      return true;
    };
    bool ok = true;
    if (key == "compile-only")
      ok = flag(ro.compileOnly);
    else if (key == "cuda-emulate")
      ok = flag(ro.cudaEmulate);
    else if (key == "cuda-device")
      ok = !value.getAsInteger(10, ro.cudaDevice) && ro.cudaDevice >= 0;
    else if (key == "timing")
      ok = flag(ro.timing);
    else if (key == "verify-each")
      ok = flag(ro.verifyEach);
    else if (key == "object-file")
      ro.objectFile = value.str();
    else if (key == "header-file")
      ro.headerFile = value.str();
    else if (key == "weights-file")
      ro.weightsFile = value.str();
    else if (key == "compile-threads")
      ok = !value.getAsInteger(10, ro.compileThreads);
    else if (key == "dump-llvm-ir")
      ro.dumpLLVMIR = value.str();
    else if (key == "shared-libs") {
      llvm::SmallVector<llvm::StringRef> libs;
      value.split(libs, ',', -1, false);
      for (llvm::StringRef l : libs)
        ro.sharedLibs.push_back(l.str());
    } else if (key == "opt-level")
      ok = !value.getAsInteger(10, ro.optLevel) && ro.optLevel <= 3;
    else if (key == "specialize") {
      llvm::SmallVector<llvm::SmallVector<int64_t>> shapes;
      llvm::SmallVector<llvm::StringRef> args;
      value.split(args, ';');
      for (llvm::StringRef a : args) {
        shapes.emplace_back();
        llvm::SmallVector<llvm::StringRef> dims;
        if (!a.empty())
          a.split(dims, 'x');
        for (llvm::StringRef d : dims) {
          int64_t v;
          if (d.getAsInteger(10, v) || v < 0)
            ok = false;
          else
            shapes.back().push_back(v);
        }
      }
      ro.specializeTo = std::move(shapes);
    } else if (!item.contains('=')) {
      setError(error, "compile option '" + item.str() + "' has no value "
                      "(write name=value)");
      return nullptr;
    } else {
      pipeline.push_back(item.str());
    }
    if (!ok) {
      setError(error, "bad value in compile option '" + item.str() + "'");
      return nullptr;
    }
  }
  ro.pipeline = llvm::join(pipeline, " ");
  for (int i = 0; i < numConstants; ++i) {
    const graphopt_constant_data &c = constants[i];
    if (!c.name || c.size < 0 || (c.size && !c.data)) {
      setError(error, "constant data " + std::to_string(i) +
                          ": no name, a negative size or no data");
      return nullptr;
    }
    ro.constantData[c.name] = llvm::ArrayRef<char>(
        static_cast<const char *>(c.data), static_cast<size_t>(c.size));
  }
  auto runner = Runner::compile(*module, ro);
  if (!runner) {
    setError(error, diags.message(llvm::toString(runner.takeError())));
    return nullptr;
  }
  program->runner = std::move(*runner);
  for (const TensorSignature &s : program->runner->signature().inputs)
    program->inputs.push_back(view(s));
  for (const TensorSignature &s : program->runner->signature().outputs)
    program->outputs.push_back(view(s));
  return program.release();
}

void graphopt_program_destroy(graphopt_program *program) { delete program; }

int graphopt_program_num_inputs(const graphopt_program *p) {
  return p->inputs.size();
}
int graphopt_program_num_outputs(const graphopt_program *p) {
  return p->outputs.size();
}

static graphopt_tensor signatureTensor(const SignatureView &v) {
  return {v.dtype, static_cast<int32_t>(v.shape.size()), v.shape.data(),
          nullptr};
}
graphopt_tensor graphopt_program_input(const graphopt_program *p, int i) {
  return signatureTensor(p->inputs.at(i));
}
graphopt_tensor graphopt_program_output(const graphopt_program *p, int i) {
  return signatureTensor(p->outputs.at(i));
}
double graphopt_program_lower_seconds(const graphopt_program *p) {
  return p->runner->compileStats().lowerSeconds;
}
double graphopt_program_codegen_seconds(const graphopt_program *p) {
  return p->runner->compileStats().jitSeconds;
}
int graphopt_program_cache_status(const graphopt_program *p) {
  return static_cast<int>(p->runner->compileStats().cache);
}

/// `inputs` as HostTensors borrowing the caller's buffers (the compiled
/// code only reads inputs), or with no data when only their dtypes and
/// shapes are needed; an error message in `*error` for an unknown dtype.
static std::optional<llvm::SmallVector<HostTensor>>
borrowInputs(int numInputs, const graphopt_tensor *inputs, bool withData,
             char **error) {
  llvm::SmallVector<HostTensor> args;
  for (int i = 0; i < numInputs; ++i) {
    const graphopt_tensor &t = inputs[i];
    std::optional<DType> dt = toDType(t.dtype);
    if (!dt) {
      setError(error, "input " + std::to_string(i) + ": unknown dtype code " +
                          std::to_string(t.dtype));
      return std::nullopt;
    }
    args.push_back(HostTensor::adopt(*dt, llvm::ArrayRef(t.shape, t.rank),
                                     nullptr, withData ? t.data : nullptr,
                                     [](void *) {}));
  }
  return args;
}

/// Runs `program` on borrowed `inputs`; the results, or an error message in
/// `*error`.
static std::optional<llvm::SmallVector<HostTensor>>
runProgram(graphopt_program *program, int numInputs,
           const graphopt_tensor *inputs, char **error) {
  auto borrowed = borrowInputs(numInputs, inputs, /*withData=*/true, error);
  if (!borrowed)
    return std::nullopt;
  llvm::SmallVector<HostTensor> &args = *borrowed;
  DiagnosticCollector diags(*program->context);
  auto results = program->runner->invoke(args);
  if (!results) {
    setError(error, diags.message(llvm::toString(results.takeError())));
    return std::nullopt;
  }
  return std::move(*results);
}

graphopt_results *graphopt_program_run(graphopt_program *program,
                                       int numInputs,
                                       const graphopt_tensor *inputs,
                                       char **error) {
  auto results = runProgram(program, numInputs, inputs, error);
  if (!results)
    return nullptr;
  auto *r = new graphopt_results();
  r->tensors = std::move(*results);
  return r;
}

/// True when `outputs` are `numOutputs` buffers for the `count` results of
/// @`name`, result i of the dtype and shape `result(i)` gives; otherwise an
/// error message in `*error`.
static bool outputsFit(
    llvm::StringRef name, size_t count, int numOutputs,
    const graphopt_tensor *outputs,
    llvm::function_ref<std::pair<DType, llvm::ArrayRef<int64_t>>(int)> result,
    char **error) {
  if (static_cast<size_t>(numOutputs) != count) {
    setError(error, "@" + name.str() + " has " + std::to_string(count) +
                        " result(s), " + std::to_string(numOutputs) +
                        " output buffer(s) given");
    return false;
  }
  for (int i = 0; i < numOutputs; ++i) {
    const graphopt_tensor &o = outputs[i];
    auto [dtype, shape] = result(i);
    if (o.dtype != fromDType(dtype) ||
        !llvm::equal(shape, llvm::ArrayRef(o.shape, o.rank))) {
      setError(error, "output " + std::to_string(i) +
                          ": the buffer's dtype or shape differs from the "
                          "result's");
      return false;
    }
  }
  return true;
}

int graphopt_program_run_into(graphopt_program *program, int numInputs,
                              const graphopt_tensor *inputs, int numOutputs,
                              const graphopt_tensor *outputs, char **error) {
  auto results = runProgram(program, numInputs, inputs, error);
  if (!results)
    return 0;
  auto result = [&](int i) {
    const HostTensor &r = (*results)[i];
    return std::make_pair(r.dtype(), r.shape());
  };
  if (!outputsFit(program->runner->signature().name, results->size(),
                  numOutputs, outputs, result, error))
    return -1;
  for (int i = 0; i < numOutputs; ++i) {
    const HostTensor &r = (*results)[i];
    if (r.sizeInBytes())
      std::memcpy(outputs[i].data, r.data(), r.sizeInBytes());
  }
  return 1;
}

int graphopt_program_run_device(graphopt_program *program, int numInputs,
                                const graphopt_tensor *inputs, int numOutputs,
                                const graphopt_tensor *outputs, void *stream,
                                char **error) {
  auto args = borrowInputs(numInputs, inputs, /*withData=*/true, error);
  if (!args)
    return 0;
  Runner &runner = *program->runner;
  const EntrySignature &sig = runner.signature();
  auto result = [&](int i) {
    const TensorSignature &s = sig.outputs[i];
    return std::make_pair(s.dtype, llvm::ArrayRef<int64_t>(s.shape));
  };
  if (runner.isCUDA() && !outputsFit(sig.name, sig.outputs.size(), numOutputs,
                                     outputs, result, error))
    return -1;
  llvm::SmallVector<void *> out;
  for (int i = 0; i < numOutputs; ++i)
    out.push_back(outputs[i].data);
  DiagnosticCollector diags(*program->context);
  if (llvm::Error e = runner.invokeOnDevice(*args, out, stream)) {
    setError(error, diags.message(llvm::toString(std::move(e))));
    return 0;
  }
  return 1;
}

graphopt_call *
graphopt_program_prepare_call(graphopt_program *program, int numInputs,
                              const graphopt_tensor *inputs, int numOutputs,
                              const graphopt_tensor *outputs, char **error) {
  auto args = borrowInputs(numInputs, inputs, /*withData=*/false, error);
  if (!args)
    return nullptr;
  Runner &runner = *program->runner;
  auto call = runner.prepareCall(*args);
  if (!call) {
    setError(error, llvm::toString(call.takeError()));
    return nullptr;
  }
  const EntrySignature &sig = runner.signature();
  auto result = [&](int i) {
    const TensorSignature &s = sig.outputs[i];
    return std::make_pair(s.dtype, llvm::ArrayRef<int64_t>(s.shape));
  };
  if (!outputsFit(sig.name, sig.outputs.size(), numOutputs, outputs, result,
                  error))
    return nullptr;
  return new graphopt_call{&runner, std::move(*call), numInputs};
}

int graphopt_call_run(graphopt_call *call, void *const *data, char **error) {
  if (llvm::Error e =
          call->runner->invokeInto(call->call, data, data + call->numInputs)) {
    setError(error, llvm::toString(std::move(e)));
    return 0;
  }
  return 1;
}

void graphopt_call_destroy(graphopt_call *call) { delete call; }

int graphopt_results_count(const graphopt_results *r) {
  return r->tensors.size();
}

graphopt_tensor graphopt_results_get(const graphopt_results *r, int i) {
  const HostTensor &t = r->tensors[i];
  return {fromDType(t.dtype()), static_cast<int32_t>(t.rank()),
          t.shape().data(), const_cast<void *>(t.data())};
}

void graphopt_results_destroy(graphopt_results *r) { delete r; }

} // extern "C"
