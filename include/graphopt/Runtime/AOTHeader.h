//===- AOTHeader.h - C header for an ahead-of-time object -------*- C++ -*-===//
//
/// \file
/// The C header that describes an AOT object's entry point (docs/AOT.md):
/// one descriptor struct per input and result, the object's
/// `_mlir_ciface_<entry>`, and two inline functions written from the entry's
/// signature: `graphopt_<entry>_check`, which compares the inputs' sizes with
/// the static dims and the dims the program needs equal and checks that
/// they are contiguous, and `graphopt_<entry>_run`, which checks and then
/// calls. Both return a status and a message instead of letting the
/// compiled code read out of bounds. For CPU objects also the context API
/// over one tensor struct (`graphopt_<entry>_context_create / _run /
/// _error / _destroy`: element types and ranks checked too, results owned
/// by the context) and the loading of a weights file (externalizeWeights).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_RUNTIME_AOTHEADER_H
#define GRAPHOPT_RUNTIME_AOTHEADER_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::graphopt::runtime {

struct EntrySignature;

/// What `--emit-weights` moved out of an object into its weights file: the
/// data's size (after the file's 64-byte header; a multiple of 64), its
/// checksum (aotWeightsChecksum) and the number of constants.
struct AOTWeights {
  uint64_t bytes = 0;
  uint64_t checksum = 0;
  uint64_t count = 0;
};

/// The first 8 bytes of a weights file; then u64 data bytes, checksum and
/// constant count, zeros to byte 64, and the data.
inline constexpr char kAOTWeightsMagic[9] = "GOWGHT01";

/// The checksum of a weights file's data (`bytes` a multiple of 8): a sum
/// over its 64-bit words, each mixed with its index. The header's C code and
/// graphopt.load compute the same.
uint64_t aotWeightsChecksum(const char *data, uint64_t bytes);

/// Moves every constant of 1 KiB or more of the LLVM-dialect `module` (not
/// splats, not i1) into the weights file at `path`, 64-byte aligned, and
/// rewrites the code to read each through a pointer slot. Adds the exported
/// functions `void graphopt_<entry>_bind_weights(const void *data)`, which
/// points the slots into the file's data, and `const void
/// *graphopt_<entry>_weights_base(void)`, which returns what was bound.
llvm::Expected<AOTWeights> externalizeWeights(mlir::ModuleOp module,
                                              llvm::StringRef entry,
                                              llvm::StringRef path);

/// Links the CPU object at `object` into the shared library `output` with
/// the system's C compiler driver (`cc`, or $CC): `cc -shared object -o
/// output -lm`, plus LLVM's OpenMP runtime (by path, with its directory as
/// the run path) when the object was compiled for several threads.
llvm::Error linkSharedLibrary(llvm::StringRef object, llvm::StringRef output,
                              bool openmp);

/// The header's text for `sig`, compiled for CUDA (inputs and results are
/// device buffers) or the CPU. Fails when the entry's name is not a C
/// identifier or a type has no C element type. `weights`: the object's
/// weights are in a file of their own (externalizeWeights).
llvm::Expected<std::string> aotHeaderText(const EntrySignature &sig, bool cuda,
                                          const AOTWeights *weights = nullptr);

/// Writes aotHeaderText to `path`.
llvm::Error writeAOTHeader(const EntrySignature &sig, bool cuda,
                           llvm::StringRef path,
                           const AOTWeights *weights = nullptr);

/// The entry's signature as JSON, which the object exports as the C string
/// `graphopt_<entry>_signature` so that a loader (graphopt.load) needs
/// nothing but the object: {"format": 1, "entry": "main", "cuda": false,
/// "inputs": [{"dtype": "f32", "shape": [2, -1]}, ...], "outputs": [...],
/// "dim_equalities": [{"arg": 0, "dim": 1, "other_arg": 1, "other_dim": 0,
/// "size": 0, "reason": "..."}, ...]} (-1: a dynamic dim; other_arg -1: the
/// dim must equal `size`), and with `weights` "weights": {"bytes": N,
/// "checksum": "0x..."}.
std::string aotSignatureJSON(const EntrySignature &sig, bool cuda,
                             const AOTWeights *weights = nullptr);

} // namespace mlir::graphopt::runtime

#endif // GRAPHOPT_RUNTIME_AOTHEADER_H
