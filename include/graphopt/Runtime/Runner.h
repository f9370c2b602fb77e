//===- Runner.h - JIT-compile and call graph programs -----------*- C++ -*-===//
//
/// \file
/// Compiles a module (graph dialect or any upstream level down to the LLVM
/// dialect) for the host CPU with the MLIR ExecutionEngine and calls its
/// entry function on HostTensors. Inputs are checked against the entry's
/// signature before any call, so a wrong count, dtype or shape is an error
/// message, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_RUNTIME_RUNNER_H
#define GRAPHOPT_RUNTIME_RUNNER_H

#include "graphopt/Dialect/Graph/Analysis/DimEquivalence.h"
#include "graphopt/Runtime/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <vector>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace mlir {
class ExecutionEngine;
class DefaultTimingManager;
} // namespace mlir

namespace mlir::graphopt::runtime {

/// The type of one entry argument or result.
struct TensorSignature {
  DType dtype;
  /// kDynamicDim for dynamic dims.
  llvm::SmallVector<int64_t> shape;
  /// The entry takes/returns a memref (an already bufferized program).
  bool isMemRef = false;
  /// "tensor<?x10xf32>" (or "memref<...>") for messages.
  std::string str() const;
};

struct EntrySignature {
  std::string name;
  llvm::SmallVector<TensorSignature> inputs, outputs;
  /// The dynamic input dims the program needs equal (to each other or to a
  /// static size; `arg` is the input index). Checked once per call by
  /// checkInputs: the compiled code assumes them.
  llvm::SmallVector<ArgDimEquality> dimEqualities;
};

/// Options of Runner::compile: the compile pipeline's options in their
/// textual form, and what the runner itself does (entry, specialization,
/// AOT output, the JIT).
struct RunnerOptions {
  std::string entry = "main";
  /// The compile pipeline's options (CompilePipelineOptions in
  /// graphopt/Pipelines/Pipelines.h, also `graph-opt
  /// --graph-compile-pipeline='...'`), each by its name, e.g.
  /// "target=cuda chip=sm_80 fuse-elementwise=false". Every entry point
  /// (graph-run, the C API, Python) forwards its options here, so every
  /// pipeline option is reachable from each; an unknown name or a bad value
  /// is an error from compile(). `runtime-allocator` and `cpu-emulation` are
  /// set by the runner; `chip` defaults to the GPU's own when one is
  /// present.
  std::string pipeline;
  /// CUDA, testing aid: compile with the CUDA pipeline but run its generic
  /// and one-thread kernels as loops on the host (cpu-emulation; no GPU,
  /// no matmul or reduction kernels).
  bool cudaEmulate = false;
  /// CUDA: the device to run on (its ordinal); -1 takes GRAPHOPT_CUDA_DEVICE
  /// from the environment, else device 0. A process runs CUDA programs on
  /// one device: a program asking for another than the one already in use
  /// is an error.
  int cudaDevice = -1;
  /// Write the compiled host object (for CUDA with the device code
  /// embedded) here, for ahead-of-time use: link it with libGraphOpt's
  /// runtime (CPU: libmlir_c_runner_utils and the allocator; CUDA:
  /// libGraphOptCUDARuntime) and call _mlir_ciface_<entry>.
  std::string objectFile;
  /// With objectFile: write the C header of the object's entry here
  /// (AOTHeader.h: descriptor types, checked call).
  std::string headerFile;
  /// With objectFile (CPU): the object's large constants go to this file
  /// instead, mapped and bound at run time (docs/AOT.md).
  std::string weightsFile;
  /// Compile (and write objectFile) without preparing to run: no GPU needed.
  bool compileOnly = false;
  /// LLVM optimization level for the JIT (0-3).
  unsigned optLevel = 3;
  /// CPU JIT: threads LLVM code generation runs on (the module is split
  /// into parts by function; the code is the same for any count); 0: the
  /// cores this process may use.
  unsigned compileThreads = 0;
  /// Print per-pass and per-phase timing to stderr.
  bool timing = false;
  /// Run MLIR's verifier after every pass of the compile pipeline (a
  /// debugging aid for pass authors: it was ~30% of ResNet-50's pipeline
  /// time). Off, the module is verified once, when the pipeline is done.
  bool verifyEach = false;
  /// Write the LLVM IR handed to the JIT (after LLVM optimization) here.
  std::string dumpLLVMIR;
  /// Shared libraries whose symbols the compiled code may call (the kernels
  /// of fusion.custom_call ops).
  llvm::SmallVector<std::string> sharedLibs;
  /// When set, the entry's dynamic argument dims are fixed to these shapes
  /// before compiling (one per argument): shapes then propagate statically,
  /// inconsistent inputs are a compile-time diagnostic naming the op and
  /// dims, and the code is specialized. The runner then accepts only these
  /// shapes.
  std::optional<llvm::SmallVector<llvm::SmallVector<int64_t>>> specializeTo;
  /// The data of the module's `dense_resource<NAME>` constants given out of
  /// band, by NAME (raw little-endian elements, the tensor's size exactly):
  /// read during compile() only, which makes them ordinary dense constants
  /// first (inlineResourceConstants). Importers pass large weights this way
  /// instead of printing them as hex text and parsing them back.
  llvm::StringMap<llvm::ArrayRef<char>> constantData;
};

/// Installs the JIT-based check behind `verify-rewrites`
/// (graphopt/Dialect/Graph/Transforms/RewriteVerification.h): graph-opt,
/// graph-run and the C API call it at start-up; idempotent.
void registerRewriteChecker();

/// The names and default values of the compile pipeline's options, as
/// "{name=value ...}" (for tools and bindings that list them).
std::string describePipelineOptions();

/// A compiled entry function, callable many times.
class Runner {
public:
  ~Runner();

  /// Reads the signature of `options.entry`, lowers `module` in place with
  /// the CPU pipeline and JIT-compiles it.
  static llvm::Expected<std::unique_ptr<Runner>>
  compile(ModuleOp module, const RunnerOptions &options);

  const EntrySignature &signature() const { return sig; }

  /// Wall-clock seconds of the compile phases: the MLIR pipeline (graph
  /// optimization and lowering to LLVM) and LLVM code generation in the JIT
  /// (or, on a compile cache hit, loading the cached object); and what the
  /// compile cache (CompileCache.h) did.
  struct CompileStats {
    double lowerSeconds = 0, jitSeconds = 0;
    enum class Cache { Off, Hit, Stored, NotStored } cache = Cache::Off;
    /// The cache entry's path (Hit, Stored), or why it was not stored.
    std::string cacheNote;
  };
  const CompileStats &compileStats() const { return stats; }

  /// Calls the entry function. `inputs` must pass checkInputs.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  invoke(llvm::ArrayRef<HostTensor> inputs);

  /// A call whose inputs have fixed shapes and whose results are copied
  /// into caller buffers (CPU programs with static result shapes): checked
  /// once by prepareCall, then run by invokeInto with only the data
  /// pointers, no allocation but the program's own (the Python package's
  /// per-call path). Immutable: one may be run from several threads as far
  /// as the program may.
  struct PreparedCall {
    /// The input descriptors, consecutive, their data pointers to be
    /// filled in; where each one starts.
    llvm::SmallVector<int64_t> inputWords;
    llvm::SmallVector<unsigned> inputStarts;
    /// Words of the result descriptors; bytes of each result.
    size_t resultWords = 0;
    llvm::SmallVector<size_t> outputBytes;
  };
  /// Prepares calls with inputs shaped as `inputs` (their data is not
  /// read): an error when they do not pass checkInputs, for a CUDA
  /// program, or when a result's shape is not static.
  llvm::Expected<PreparedCall>
  prepareCall(llvm::ArrayRef<HostTensor> inputs) const;
  /// Runs a prepared call: `inputs[i]` points at input i's data, laid out
  /// contiguously as prepared; result i is copied to `outputs[i]`
  /// (outputBytes[i] bytes, contiguous).
  llvm::Error invokeInto(const PreparedCall &call, const void *const *inputs,
                         void *const *outputs);

  /// Times `n` calls after `warmup` untimed ones; seconds per call. CPU:
  /// wall clock of invoke. CUDA: CUDA events around the call of the
  /// compiled code alone, with the inputs already in device memory (the
  /// copies to and from the host are not timed).
  llvm::Expected<std::vector<double>>
  timeCalls(llvm::ArrayRef<HostTensor> inputs, unsigned warmup, unsigned n);

  /// CUDA: calls the entry on device memory, with no copy through the
  /// host: `inputs` are shaped and typed as the call needs (checkInputs),
  /// their data device pointers of contiguous buffers; result i is copied
  /// on the device into `outputs[i]`, a device buffer of the result's
  /// (static) shape. The work goes to `stream` (a CUstream of the
  /// runtime's device; null: the runtime's own stream) and is complete on
  /// return. An error for a CPU program or a result of dynamic shape.
  llvm::Error invokeOnDevice(llvm::ArrayRef<HostTensor> inputs,
                             llvm::ArrayRef<void *> outputs, void *stream);

  bool isCUDA() const { return cuda != nullptr; }

  /// The CUDA runtime's host API (CUDARuntime.h), loaded at run time.
  struct CUDAHostAPI;

private:
  Runner() = default;
  EntrySignature sig;
  CompileStats stats;
  /// Data of the large constants, kept out of the LLVM module (LLVM handles
  /// 100 MB of weights as IR constants slowly): 64-byte aligned copies the
  /// JIT'ed code addresses by symbol.
  std::vector<std::unique_ptr<void, void (*)(void *)>> constantData;
  std::unique_ptr<ExecutionEngine> engine;
  /// A program loaded from the compile cache runs in a JIT of its own
  /// (the object code only: no MLIR module, no LLVM IR).
  std::unique_ptr<llvm::orc::LLJIT> loaded;
  /// The entry's packed wrapper (`_mlir_ciface_<entry>`), looked up once
  /// when the program is loaded.
  void (*entryFn)(void **) = nullptr;
  std::unique_ptr<CUDAHostAPI> cuda;
  /// Releases a CPU result buffer (the runtime allocator's free, or
  /// std::free for code compiled with malloc/free).
  void (*freeResult)(void *) = nullptr;
  /// An error if the program was compiled without an engine or `inputs`
  /// do not match the signature.
  llvm::Error checkCallable(llvm::ArrayRef<HostTensor> inputs) const;
  /// CUDA: uploads `inputs`, calls, downloads and frees the results (and
  /// the uploads). With `timed`, the inputs are uploaded once and each of
  /// the `timed->size()` calls is timed with CUDA events.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  invokeCUDA(llvm::ArrayRef<HostTensor> inputs, unsigned warmup,
             std::vector<double> *timed);
};

/// The path of libGraphOptCUDARuntime.so (next to libGraphOpt.so, else in
/// the build tree), or an error saying that graphopt was built without the
/// CUDA toolkit.
llvm::Expected<std::string> findCUDARuntimeLibrary();

/// The path of LLVM's OpenMP runtime (libomp.so.5), which multi-threaded
/// CPU code calls: the copy next to libGraphOpt.so (the Python wheel bundles
/// one), else the one found when graphopt was built; empty when there is
/// neither (compiled code then runs on one thread).
const std::string &findOpenMPRuntimeLibrary();

/// Checks `inputs` against `sig` (count, dtype, rank, static dims, and the
/// dynamic dims the program needs equal); the error names the input, the
/// dim and both values.
llvm::Error checkInputs(const EntrySignature &sig,
                        llvm::ArrayRef<HostTensor> inputs);

/// Fixes the dynamic dims of `name`'s tensor arguments to `shapes` (one per
/// argument) and re-verifies the module; a conflict is reported as the op's
/// diagnostic and an error.
llvm::Error specializeEntry(ModuleOp module, llvm::StringRef name,
                            llvm::ArrayRef<llvm::SmallVector<int64_t>> shapes);

/// Reads the signature of function `name` in `module` (func.func with
/// ranked tensor or memref arguments and results).
llvm::Expected<EntrySignature> getEntrySignature(ModuleOp module,
                                                 llvm::StringRef name);

} // namespace mlir::graphopt::runtime

#endif // GRAPHOPT_RUNTIME_RUNNER_H
