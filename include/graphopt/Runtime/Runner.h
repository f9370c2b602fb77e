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

#include "graphopt/Runtime/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <vector>

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

/// Dynamic input dim `dim` of input `input` must equal dim `otherDim` of
/// input `otherInput`, or `size` when `otherInput` is -1 (see
/// graphopt/Dialect/Graph/Analysis/DimEquivalence.h).
struct DimEquality {
  unsigned input = 0, dim = 0;
  int64_t otherInput = -1;
  unsigned otherDim = 0;
  int64_t size = 0;
  /// The op that needs them equal ("graph.add at model.mlir:3:8").
  std::string reason;
};

struct EntrySignature {
  std::string name;
  llvm::SmallVector<TensorSignature> inputs, outputs;
  /// Checked once per call by checkInputs: the compiled code assumes them.
  llvm::SmallVector<DimEquality> dimEqualities;
};

/// Options of Runner::compile.
struct RunnerOptions {
  std::string entry = "main";
  /// "cpu" (the host) or "cuda" (an NVIDIA GPU through
  /// libGraphOptCUDARuntime; inputs and results are copied to and from the
  /// device around each call).
  std::string target = "cpu";
  /// CUDA: chip ("sm_90"; empty: the GPU's own, sm_90 without a GPU), PTX
  /// features (empty: +ptx80) and device code format ("isa": PTX compiled
  /// by the driver at load time, no toolkit needed; "bin"/"fatbin": ptxas
  /// at compile time).
  std::string cudaChip, cudaFeatures, cudaFormat = "isa";
  /// CUDA, testing aid: compile with the CUDA pipeline but run its generic
  /// and one-thread kernels as loops on the host (cpu-emulation; no GPU,
  /// no matmul or reduction kernels).
  bool cudaEmulate = false;
  /// Write the compiled host object (for CUDA with the device code
  /// embedded) here, for ahead-of-time use: link it with libGraphOpt's
  /// runtime (CPU: libmlir_c_runner_utils and the allocator; CUDA:
  /// libGraphOptCUDARuntime) and call _mlir_ciface_<entry>.
  std::string objectFile;
  /// Compile (and write objectFile) without preparing to run: no GPU needed.
  bool compileOnly = false;
  /// Graph-level optimization before lowering.
  bool optimize = true;
  /// Tile and vectorize (off: scalar loops, for debugging).
  bool vectorize = true;
  /// Fuse elementwise chains (off: one loop nest per op, for comparison).
  bool fuse = true;
  /// Write the fusion report here ("-": stderr; *.json: JSON).
  std::string fusionReport;
  /// Flash-attention lowering of attention (off: expanded into separate ops).
  bool flashAttention = true;
  /// LLVM optimization level for the JIT (0-3).
  unsigned optLevel = 3;
  /// Print per-pass and per-phase timing to stderr.
  bool timing = false;
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
};

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
  /// optimization and lowering to LLVM) and LLVM code generation in the JIT.
  struct CompileStats {
    double lowerSeconds = 0, jitSeconds = 0;
  };
  const CompileStats &compileStats() const { return stats; }

  /// Calls the entry function. `inputs` must pass checkInputs.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  invoke(llvm::ArrayRef<HostTensor> inputs);

  /// Times `n` calls after `warmup` untimed ones; seconds per call. CPU:
  /// wall clock of invoke. CUDA: CUDA events around the call of the
  /// compiled code alone, with the inputs already in device memory (the
  /// copies to and from the host are not timed).
  llvm::Expected<std::vector<double>>
  timeCalls(llvm::ArrayRef<HostTensor> inputs, unsigned warmup, unsigned n);

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
