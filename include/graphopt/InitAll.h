//===- InitAll.h - register everything graphopt provides --------*- C++ -*-===//
//
/// \file
/// The one place that registers graphopt's dialects, passes and pipelines,
/// together with the upstream dialects and passes our pipelines use. Every
/// tool, the plugin and the C API go through these functions.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_INITALL_H
#define GRAPHOPT_INITALL_H

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace mlir::graphopt {

/// Adds graphopt's own dialects to `registry`.
void registerGraphOptDialects(DialectRegistry &registry);

/// Adds graphopt's dialects plus every upstream dialect, interface model and
/// LLVM-IR translation that our pipelines create or need.
void registerAllDialects(DialectRegistry &registry);

/// Registers graphopt's passes and pipelines (idempotent).
void registerGraphOptPasses();

/// Registers graphopt's passes and pipelines plus the upstream passes our
/// pipelines are made of (idempotent).
void registerAllPasses();

} // namespace mlir::graphopt

#endif // GRAPHOPT_INITALL_H
