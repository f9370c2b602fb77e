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
/// compiled code read out of bounds.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_RUNTIME_AOTHEADER_H
#define GRAPHOPT_RUNTIME_AOTHEADER_H

#include "llvm/Support/Error.h"

#include <string>

namespace mlir::graphopt::runtime {

struct EntrySignature;

/// The header's text for `sig`, compiled for CUDA (inputs and results are
/// device buffers) or the CPU. Fails when the entry's name is not a C
/// identifier or a type has no C element type.
llvm::Expected<std::string> aotHeaderText(const EntrySignature &sig, bool cuda);

/// Writes aotHeaderText to `path`.
llvm::Error writeAOTHeader(const EntrySignature &sig, bool cuda,
                           llvm::StringRef path);

/// The entry's signature as JSON, which the object exports as the C string
/// `graphopt_<entry>_signature` so that a loader (graphopt.load) needs
/// nothing but the object: {"format": 1, "entry": "main", "cuda": false,
/// "inputs": [{"dtype": "f32", "shape": [2, -1]}, ...], "outputs": [...],
/// "dim_equalities": [{"arg": 0, "dim": 1, "other_arg": 1, "other_dim": 0,
/// "size": 0, "reason": "..."}, ...]} (-1: a dynamic dim; other_arg -1: the
/// dim must equal `size`).
std::string aotSignatureJSON(const EntrySignature &sig, bool cuda);

} // namespace mlir::graphopt::runtime

#endif // GRAPHOPT_RUNTIME_AOTHEADER_H
