//===- graph-run.cpp - JIT-run, check and benchmark a graph program -------===//
//
// graph-run model.mlir --input=2x3xf32=1,2,3,4,5,6 --input=@y.npy
//           [--expected-output=@want.npy --atol=1e-5 --rtol=1e-5]
//           [--output=@out.npy] [--benchmark=100] [--timing]
//
// Compilation and calls live in the runtime library (Runtime/Runner.h); this
// file parses flags and prints.
//
//===----------------------------------------------------------------------===//

#include "graphopt/InitAll.h"
#include "graphopt/Runtime/AOTHeader.h"
#include "graphopt/Runtime/HostTensor.h"
#include "graphopt/Runtime/Runner.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

using namespace mlir;
using namespace mlir::graphopt::runtime;
namespace cl = llvm::cl;

static cl::OptionCategory category("graph-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string> entry("entry", cl::desc("Function to run"),
                                  cl::init("main"), cl::cat(category));
static cl::list<std::string>
    inputs("input",
           cl::desc("An input, in order: 2x3xf32=1,2,3,4,5,6, f32=1.5, "
                    "4x4xf32=0 (splat) or @file.npy (an f32 file feeds a "
                    "bf16 input)"),
           cl::cat(category));
static cl::opt<int64_t>
    seed("seed",
         cl::desc("Make the inputs not given with --input random, from this "
                  "seed (floats in [-1,1), ints in [-8,8])"),
         cl::init(-1), cl::cat(category));
static cl::list<std::string>
    outputs("output", cl::desc("Write result i to @file.npy (in order)"),
            cl::cat(category));
static cl::list<std::string> expected(
    "expected-output",
    cl::desc("Expected value of result i, same syntax as --input; exit 1 on "
             "mismatch"),
    cl::cat(category));
static cl::opt<double> absTol("atol", cl::desc("Absolute tolerance"),
                              cl::init(1e-5), cl::cat(category));
static cl::opt<double> relTol("rtol", cl::desc("Relative tolerance"),
                              cl::init(1e-5), cl::cat(category));
static cl::opt<unsigned>
    benchmark("benchmark",
              cl::desc("Time N calls after warm-up; print median and min"),
              cl::init(0), cl::cat(category));
static cl::opt<unsigned> warmup("warmup",
                                cl::desc("Untimed calls before --benchmark"),
                                cl::init(3), cl::cat(category));
static cl::opt<bool> timing("timing",
                            cl::desc("Print per-pass and compile-phase times"),
                            cl::init(false), cl::cat(category));
static cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass of the compile pipeline (a "
             "debugging aid for pass authors; slower: by default it is "
             "verified once, after the pipeline)"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> optimize("optimize",
                              cl::desc("Run graph-level optimization"),
                              cl::init(true), cl::cat(category));
static cl::opt<bool>
    vectorize("vectorize", cl::desc("Tile and vectorize (off: scalar loops)"),
              cl::init(true), cl::cat(category));
static cl::opt<bool>
    fuse("fuse", cl::desc("Operator fusion: fusion groups generated as one "
                          "tiled loop nest each (off: one loop nest and "
                          "buffer per op, to measure what fusion buys)"),
         cl::init(true), cl::cat(category));
static cl::opt<std::string>
    fusionReport("fusion-report",
                 cl::desc("Write the fusion report (every producer -> "
                          "consumer edge, fused or not, and why) to this "
                          "file; '-' for stderr, a .json name for JSON"),
                 cl::value_desc("file"), cl::init(""), cl::cat(category));
static cl::opt<std::string> memoryReport(
    "memory-report",
    cl::desc("Write the memory report of the compiled entry (CPU: its heap "
             "buffers and their bytes, the peak live at once against one "
             "buffer per tensor, the largest buffers) to this file; '-' for "
             "stderr"),
    cl::value_desc("file"), cl::init(""), cl::cat(category));
static cl::list<std::string>
    sharedLibs("shared-lib",
               cl::desc("A shared library providing external kernels "
                        "(fusion.custom_call callees); repeatable"),
               cl::value_desc("path"), cl::cat(category));
static cl::opt<bool> flashAttention(
    "flash-attention",
    cl::desc("Compile attention as a tiled online-softmax loop nest (off: "
             "as separate matmul, softmax and elementwise ops)"),
    cl::init(true), cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level"),
                                  cl::init(3), cl::Prefix, cl::cat(category));
static cl::opt<std::string>
    dumpLLVMIR("dump-llvm-ir",
               cl::desc("Write the optimized LLVM IR here: what the JIT "
                        "compiles, or with --emit-object what the object is "
                        "compiled from (also with --compile-only)"),
               cl::init(""), cl::cat(category));
static cl::opt<bool> specialize(
    "specialize-shapes",
    cl::desc("Compile for the given input shapes (dynamic dims fixed to "
             "them; default). Off: compile the dynamic-shape code"),
    cl::init(true), cl::cat(category));
static cl::opt<std::string>
    target("target",
           cl::desc("Where to run: cpu (the host, default) or cuda (an "
                    "NVIDIA GPU: inputs are copied to the device before the "
                    "call and results back after it)"),
           cl::init("cpu"), cl::cat(category));
static cl::opt<std::string>
    cudaChip("cuda-chip",
             cl::desc("CUDA chip to compile for (default: the GPU's own, "
                      "e.g. sm_90; sm_90 when compiling without a GPU); "
                      "sm_90a adds the Hopper wgmma matmul kernel"),
             cl::init(""), cl::cat(category));
static cl::opt<std::string>
    cudaFeatures("cuda-features",
                 cl::desc("PTX features (default +ptx80)"), cl::init(""),
                 cl::cat(category));
static cl::opt<std::string> cudaFormat(
    "cuda-format",
    cl::desc("Device code embedded in the program: isa (PTX, compiled by "
             "the driver when loaded; default), bin (cubin from ptxas) or "
             "fatbin"),
    cl::init("isa"), cl::cat(category));
static cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    cl::desc("Options of the compile pipeline, by name, space-separated "
             "(\"vector-width=8 fuse-elementwise=false\"; the list: graph-opt "
             "--help, under --graph-compile-pipeline). Applied after the "
             "flags above, which are shorthands for some of them"),
    cl::value_desc("options"), cl::init(""), cl::cat(category));
/// --threads, registered in main (see there).
static cl::opt<int64_t> *threadsFlag = nullptr;
static cl::opt<bool> cudaEmulate(
    "cuda-emulate",
    cl::desc("With --target=cuda, a testing aid for machines without a GPU: "
             "compile with the CUDA pipeline but run its generic and "
             "one-thread kernels as loops on the CPU (no tensor-core or "
             "warp-reduction kernels; docs/CUDA.md)"),
    cl::init(false), cl::cat(category));
static cl::opt<int> cudaDevice(
    "cuda-device",
    cl::desc("With --target=cuda, the GPU to run on (its ordinal; default: "
             "GRAPHOPT_CUDA_DEVICE from the environment, else 0)"),
    cl::init(-1), cl::cat(category));
static cl::opt<std::string> emitObject(
    "emit-object",
    cl::desc("Ahead-of-time: write the compiled program as a host object "
             "file (position independent; for cuda with the device code "
             "embedded) exporting _mlir_ciface_<entry>; see docs/AOT.md"),
    cl::init(""), cl::cat(category));
static cl::opt<unsigned> compileThreads(
    "compile-threads",
    cl::desc("CPU JIT: threads for LLVM code generation (the module is split "
             "by function into parts; the code does not depend on the "
             "count); default 0: the cores the process may use"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string> emitHeader(
    "emit-header",
    cl::desc("With --emit-object: also write a C header for the object's "
             "entry (descriptor types, _mlir_ciface_<entry>, and "
             "graphopt_<entry>_run, which checks the inputs' sizes and "
             "returns a status with a message instead of crashing); see "
             "docs/AOT.md"),
    cl::init(""), cl::cat(category));
static cl::opt<std::string> emitWeights(
    "emit-weights",
    cl::desc("With --emit-object (CPU): write the weights (constants of 1 "
             "KiB or more) to this file instead of the object; the header's "
             "context maps and checks it at creation; see docs/AOT.md"),
    cl::init(""), cl::cat(category));
static cl::opt<std::string> emitShared(
    "emit-shared",
    cl::desc("Ahead-of-time (CPU): also link the object into this shared "
             "library with the system's C compiler driver (cc, or $CC); "
             "without --emit-object the object is a temporary file"),
    cl::init(""), cl::cat(category));
static cl::opt<bool> compileOnly(
    "compile-only",
    cl::desc("Compile (and write --emit-object) without running: no GPU "
             "needed; --input, if given, only fixes the shapes"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("Do not print results"),
                           cl::init(false), cl::cat(category));

static int fail(const llvm::Twine &msg) {
  llvm::errs() << "graph-run: error: " << msg << "\n";
  return 1;
}

static llvm::Expected<HostTensor> loadTensor(StringRef spec) {
  if (spec.starts_with("@"))
    return readNpy(spec.drop_front());
  return parseTensorLiteral(spec);
}

/// --emit-shared: links the object just written. Objects compiled for
/// several threads call LLVM's OpenMP runtime.
static llvm::Error linkShared(const RunnerOptions &options) {
  if (emitShared.empty())
    return llvm::Error::success();
  bool openmp = false;
  llvm::SmallVector<StringRef> words;
  StringRef(options.pipeline).split(words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef option : words)
    if (option.consume_front("threads="))
      openmp = option != "1";
  return linkSharedLibrary(options.objectFile, emitShared, openmp);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // libLLVM registers a hidden --threads of its own; rename it so that
  // --threads is graph-run's (registered here, after the rename).
  if (cl::Option *other = cl::getRegisteredOptions().lookup("threads"))
    other->setArgStr("llvm-threads");
  static cl::opt<int64_t> threads(
      "threads",
      cl::desc("Threads of the generated CPU code (default: the cores this "
               "process may use, from its affinity mask; 1: "
               "single-threaded, no OpenMP runtime)"),
      cl::init(0), cl::cat(category));
  threadsFlag = &threads;
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "graph-run: JIT-compile a graph program for the host CPU or an NVIDIA "
      "GPU, run it, check and benchmark it\n");

  registerRewriteChecker();
  DialectRegistry registry;
  mlir::graphopt::registerAllDialects(registry);
  mlir::graphopt::registerAllPasses();
  MLIRContext context(registry);

  auto t0 = std::chrono::steady_clock::now();
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("could not parse " + inputFile);
  double parseTime =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  if (timing)
    llvm::errs() << llvm::format("graph-run: parse %.3f s\n", parseTime);

  // Check what we can before compiling.
  auto sig = getEntrySignature(*module, entry);
  if (!sig) {
    std::string message = llvm::toString(sig.takeError());
    if (StringRef(message).starts_with("no function @"))
      message += "; choose one with --entry";
    return fail(message);
  }
  if (target != "cpu" && target != "cuda")
    return fail("--target=" + target + " is not a target: use cpu or cuda");
  if (cudaFormat != "isa" && cudaFormat != "bin" && cudaFormat != "fatbin")
    return fail("--cuda-format=" + cudaFormat +
                " is not a format: use isa, bin or fatbin");
  RunnerOptions options;
  options.entry = entry;
  // The flags that are pipeline options, then --pipeline-options (later
  // values win).
  {
    std::string text;
    llvm::raw_string_ostream os(text);
    auto flag = [](bool b) { return b ? "true" : "false"; };
    os << "target=" << target << " optimize=" << flag(optimize)
       << " vectorize=" << flag(vectorize)
       << " fuse-elementwise=" << flag(fuse)
       << " flash-attention=" << flag(flashAttention);
    if (!fusionReport.empty())
      os << " fusion-report=" << fusionReport;
    if (!memoryReport.empty())
      os << " memory-report=" << memoryReport;
    if (!cudaChip.empty())
      os << " chip=" << cudaChip;
    if (!cudaFeatures.empty())
      os << " features=" << cudaFeatures;
    os << " format=" << cudaFormat;
    if (threadsFlag->getNumOccurrences())
      os << " threads=" << *threadsFlag;
    if (!pipelineOptions.empty())
      os << " " << pipelineOptions;
    options.pipeline = text;
  }
  options.cudaEmulate = cudaEmulate;
  if (cudaDevice.getNumOccurrences() && cudaDevice < 0)
    return fail("--cuda-device must be a device ordinal (0, 1, ...), got " +
                llvm::Twine(cudaDevice.getValue()));
  options.cudaDevice = cudaDevice;
  options.objectFile = emitObject;
  // --emit-shared links an object: the given one, or a temporary one.
  std::optional<llvm::FileRemover> temporaryObject;
  if (!emitShared.empty()) {
    if (target != "cpu")
      return fail("--emit-shared links a CPU object: for --target=cuda link "
                  "the object with -lGraphOptCUDARuntime (docs/AOT.md)");
    if (emitObject.empty()) {
      llvm::SmallString<128> path;
      if (std::error_code ec =
              llvm::sys::fs::createTemporaryFile("graphopt", "o", path))
        return fail("cannot create a temporary object file: " + ec.message());
      options.objectFile = path.str().str();
      temporaryObject.emplace(path);
    }
  }
  if (!emitHeader.empty() && emitObject.empty() && emitShared.empty())
    return fail("--emit-header describes an object: give --emit-object too");
  options.headerFile = emitHeader;
  // An object for no named CPU runs on any x86-64 (SSE2): say so, since
  // the kernels are blocked for wider vectors (ResNet-18: ~3x slower than
  // for the host).
  if (!options.objectFile.empty() && target == "cpu" &&
      StringRef(pipelineOptions).find("target-cpu=") == StringRef::npos)
    llvm::errs() << "graph-run: note: the object is compiled for a generic "
                    "x86-64 CPU (SSE2, runs anywhere); for this machine's "
                    "vector units give --pipeline-options=target-cpu=host "
                    "(or x86-64-v3, x86-64-v4, znver4, ...)\n";
  if (!emitWeights.empty() && options.objectFile.empty())
    return fail("--emit-weights holds an object's weights: give --emit-object "
                "too");
  options.weightsFile = emitWeights;
  options.compileThreads = compileThreads;
  for (const std::string &lib : sharedLibs)
    options.sharedLibs.push_back(lib);
  options.optLevel = optLevel;
  options.timing = timing;
  options.verifyEach = verifyEach;
  options.dumpLLVMIR = dumpLLVMIR;
  if (compileOnly) {
    if (!expected.empty() || !outputs.empty() || benchmark > 0)
      return fail("--compile-only runs nothing: drop --expected-output, "
                  "--output and --benchmark");
    options.compileOnly = true;
    // Inputs given with --input only fix the shapes to compile for.
    if (specialize && !inputs.empty()) {
      llvm::SmallVector<llvm::SmallVector<int64_t>> shapes;
      for (auto [i, spec] : llvm::enumerate(inputs)) {
        auto t = loadTensor(spec);
        if (!t)
          return fail("input " + llvm::Twine(i) + ": " +
                      llvm::toString(t.takeError()));
        shapes.emplace_back(t->shape().begin(), t->shape().end());
      }
      // The inputs not given keep their declared shapes; if one of those is
      // dynamic, the dynamic-shape code is compiled.
      bool complete = true;
      for (size_t i = shapes.size(); i < sig->inputs.size(); ++i) {
        complete &= !llvm::is_contained(sig->inputs[i].shape, kDynamicDim);
        shapes.push_back(sig->inputs[i].shape);
      }
      if (complete)
        options.specializeTo = std::move(shapes);
    }
    auto runner = Runner::compile(*module, options);
    if (!runner)
      return fail(llvm::toString(runner.takeError()));
    if (llvm::Error e = linkShared(options))
      return fail(llvm::toString(std::move(e)));
    if (!emitObject.empty())
      llvm::outs() << "wrote " << emitObject << "\n";
    if (!emitShared.empty())
      llvm::outs() << "wrote " << emitShared << "\n";
    if (!emitHeader.empty())
      llvm::outs() << "wrote " << emitHeader << "\n";
    if (!emitWeights.empty())
      llvm::outs() << "wrote " << emitWeights << "\n";
    return 0;
  }
  auto count = [](size_t n, StringRef noun) {
    return std::to_string(n) + " " + noun.str() + (n == 1 ? "" : "s");
  };
  if (inputs.size() > sig->inputs.size())
    return fail("@" + entry + " takes " + count(sig->inputs.size(), "input") +
                " but " + std::to_string(inputs.size()) +
                " were given with --input");
  if (inputs.size() < sig->inputs.size() && seed < 0)
    return fail("@" + entry + " takes " + count(sig->inputs.size(), "input") +
                " but " + std::to_string(inputs.size()) +
                " were given; pass the rest with --input or make them random "
                "with --seed=N");
  llvm::SmallVector<HostTensor> args;
  for (auto [i, spec] : llvm::enumerate(inputs)) {
    auto t = loadTensor(spec);
    if (!t)
      return fail("input " + llvm::Twine(i) + ": " +
                  llvm::toString(t.takeError()));
    // NumPy has no bf16 or 8-bit floats: an f32 file feeds such an input
    // (rounded to nearest even), as it does for expected outputs.
    if (i < sig->inputs.size() &&
        (sig->inputs[i].dtype == DType::BF16 ||
         isFloat8DType(sig->inputs[i].dtype)) &&
        t->dtype() == DType::F32) {
      HostTensor conv(sig->inputs[i].dtype, t->shape());
      for (int64_t k = 0; k < t->numElements(); ++k)
        conv.setDouble(k, t->getDouble(k));
      *t = std::move(conv);
    }
    args.push_back(std::move(*t));
  }
  for (size_t i = args.size(); i < sig->inputs.size(); ++i) {
    const TensorSignature &s = sig->inputs[i];
    if (llvm::is_contained(s.shape, kDynamicDim))
      return fail("input " + llvm::Twine(i) + " (" + s.str() +
                  ") has dynamic dims; give it with --input");
    auto t = randomTensor(s.dtype, s.shape, seed + i);
    if (!t)
      return fail("input " + llvm::Twine(i) + ": " +
                  llvm::toString(t.takeError()));
    args.push_back(std::move(*t));
  }
  if (expected.size() > sig->outputs.size() ||
      outputs.size() > sig->outputs.size())
    return fail("@" + entry + " has " + llvm::Twine(sig->outputs.size()) +
                " results, fewer than --expected-output/--output given");

  if (!(absTol >= 0) || !(relTol >= 0))
    return fail("--atol and --rtol must be non-negative numbers");
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel) +
                " is not a level: use -O0 to -O3");
  if (!dumpLLVMIR.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream probe(dumpLLVMIR, ec);
    if (ec)
      return fail("cannot write --dump-llvm-ir file '" + dumpLLVMIR +
                  "': " + ec.message());
  }

  if (specialize) {
    llvm::SmallVector<llvm::SmallVector<int64_t>> shapes;
    for (const HostTensor &t : args)
      shapes.emplace_back(t.shape().begin(), t.shape().end());
    options.specializeTo = std::move(shapes);
  }

  // Refuse bad inputs before spending time on compilation.
  if (llvm::Error e = checkInputs(*sig, args))
    return fail(llvm::toString(std::move(e)));

  auto runner = Runner::compile(*module, options);
  if (runner)
    if (llvm::Error e = linkShared(options))
      return fail(llvm::toString(std::move(e)));
  if (!runner)
    return fail(llvm::toString(runner.takeError()));

  auto t1 = std::chrono::steady_clock::now();
  auto results = (*runner)->invoke(args);
  if (!results)
    return fail(llvm::toString(results.takeError()));
  if (timing)
    llvm::errs() << llvm::format(
        "graph-run: first call %.6f s\n",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t1)
            .count());

  int status = 0;
  for (auto [i, r] : llvm::enumerate(*results)) {
    if (!quiet) {
      llvm::outs() << "result " << i << ": " << sig->outputs[i].str() << " = "
                   << r.typeString() << "\n";
      printTensor(llvm::outs(), r);
      llvm::outs() << "\n";
    }
    if (i < outputs.size()) {
      StringRef path = outputs[i];
      if (!path.consume_front("@"))
        return fail("--output must be @file.npy, got '" + outputs[i] + "'");
      if (llvm::Error e = writeNpy(path, r))
        return fail(llvm::toString(std::move(e)));
    }
    if (i < expected.size()) {
      auto want = loadTensor(expected[i]);
      if (!want)
        return fail("expected output " + llvm::Twine(i) + ": " +
                    llvm::toString(want.takeError()));
      HostTensor w = std::move(*want);
      // Floats compare with floats of any width (an f32 file for an f16 or
      // bf16 result); otherwise the dtypes must match.
      if (w.dtype() != r.dtype() &&
          !(isFloatDType(w.dtype()) && isFloatDType(r.dtype())))
        return fail("expected output " + llvm::Twine(i) + " is " +
                    dtypeName(w.dtype()) + " but result " + llvm::Twine(i) +
                    " is " + sig->outputs[i].str());
      if (w.dtype() != r.dtype()) {
        // Compare numerically; the expected file may be wider (f4 for f16).
        HostTensor conv(r.dtype(), w.shape());
        for (int64_t k = 0; k < w.numElements(); ++k)
          conv.setDouble(k, w.getDouble(k));
        w = std::move(conv);
      }
      Comparison c = compareTensors(r, w, absTol, relTol);
      if (!c.ok) {
        status = 1;
        llvm::errs() << "graph-run: result " << i << " MISMATCH";
        if (!c.message.empty()) {
          llvm::errs() << ": " << c.message << "\n";
          continue;
        }
        auto g9 = [](double v) {
          char buf[32];
          std::snprintf(buf, sizeof(buf), "%.9g", v);
          return std::string(buf);
        };
        std::string got = g9(c.worstActual), want = g9(c.worstExpected);
        if (!isFloatDType(r.dtype()) && !isFloatDType(w.dtype())) {
          got = std::to_string(r.getInt(c.worstIndex));
          want = std::to_string(w.getInt(c.worstIndex));
        }
        std::string rule =
            isFloatDType(r.dtype())
                ? (llvm::Twine("outside atol=") + g9(absTol) +
                   " rtol=" + g9(relTol))
                      .str()
                : std::string("differ (integers compare exactly)");
        llvm::errs() << llvm::format(
            ": %lld of %lld elements %s; worst at %s: got %s, expected %s "
            "(abs error %.3g)\n",
            (long long)c.mismatches, (long long)r.numElements(), rule.c_str(),
            formatIndex(c.worstIndex, r.shape()).c_str(), got.c_str(),
            want.c_str(), c.worstAbsError);
      } else {
        llvm::outs() << "result " << i << ": matches expected (atol=" << absTol
                     << ", rtol=" << relTol << ")\n";
      }
    }
  }

  if (benchmark > 0) {
    // CPU: wall clock of each call; CUDA: CUDA events around the call, the
    // inputs already on the device.
    auto timed = (*runner)->timeCalls(args, warmup, benchmark);
    if (!timed)
      return fail(llvm::toString(timed.takeError()));
    std::vector<double> times = std::move(*timed);
    std::sort(times.begin(), times.end());
    double median =
        times.size() % 2
            ? times[times.size() / 2]
            : 0.5 * (times[times.size() / 2 - 1] + times[times.size() / 2]);
    llvm::outs() << llvm::format(
        "benchmark: @%s %u runs (%u warm-up): median %.6f ms, min %.6f ms%s\n",
        entry.c_str(), (unsigned)benchmark, (unsigned)warmup, median * 1e3,
        times.front() * 1e3,
        (*runner)->isCUDA() ? " (CUDA events, data on the device)" : "");
  }
  return status;
}
