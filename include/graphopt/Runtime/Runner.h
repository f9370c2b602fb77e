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

struct EntrySignature {
  std::string name;
  llvm::SmallVector<TensorSignature> inputs, outputs;
};

/// Options of Runner::compile.
struct RunnerOptions {
  std::string entry = "main";
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

private:
  Runner() = default;
  EntrySignature sig;
  CompileStats stats;
  /// Data of the large constants, kept out of the LLVM module (LLVM handles
  /// 100 MB of weights as IR constants slowly): 64-byte aligned copies the
  /// JIT'ed code addresses by symbol.
  std::vector<std::unique_ptr<void, void (*)(void *)>> constantData;
  std::unique_ptr<ExecutionEngine> engine;
};

/// Checks `inputs` against `sig` (count, dtype, rank, static dims); the
/// error names the input, the dim and both values.
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
