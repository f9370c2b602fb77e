//===- RewriteChecker.cpp - check rewrites by running them ----------------===//
//
// The JIT-based implementation of verify-rewrites' checkSameResults
// (graphopt/Dialect/Graph/Transforms/RewriteVerification.h), installed by
// registerRewriteChecker().
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/Transforms/RewriteVerification.h"
#include "graphopt/Runtime/Runner.h"

#include "mlir/IR/Diagnostics.h"

#include <cmath>

using namespace mlir;
using namespace mlir::graphopt::graph;
namespace runtime = mlir::graphopt::runtime;

namespace {

/// The size given to dynamic dims of the compared functions' arguments.
constexpr int64_t kDynamicDimSize = 5;

/// The input sets every check runs, in order.
enum class InputKind { Random, Zeros, Large, Negative };
constexpr InputKind kInputKinds[] = {InputKind::Random, InputKind::Zeros,
                                     InputKind::Large, InputKind::Negative};

StringRef describe(InputKind kind) {
  switch (kind) {
  case InputKind::Random:
    return "random values (seed 1)";
  case InputKind::Zeros:
    return "zeros";
  case InputKind::Large:
    return "large magnitudes";
  case InputKind::Negative:
    return "negative values";
  }
  llvm_unreachable("unknown input kind");
}

llvm::Expected<runtime::HostTensor> makeInput(runtime::DType dtype,
                                              ArrayRef<int64_t> shape,
                                              InputKind kind, uint64_t seed) {
  auto created = runtime::randomTensor(dtype, shape, seed);
  if (!created)
    return created.takeError();
  runtime::HostTensor t = std::move(*created);
  bool isBool = dtype == runtime::DType::I1;
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) {
    double v = t.getDouble(i);
    switch (kind) {
    case InputKind::Random:
      break;
    case InputKind::Zeros:
      v = 0;
      break;
    case InputKind::Large:
      v = isBool ? v : v * 1e4;
      break;
    case InputKind::Negative:
      v = isBool ? v : -std::fabs(v);
      break;
    }
    t.setDouble(i, v);
  }
  return t;
}

/// Compiles `entry` of `module` specialized to `shapes`; compiler
/// diagnostics are appended to the error instead of being emitted.
llvm::Expected<std::unique_ptr<runtime::Runner>>
compile(ModuleOp module, StringRef entry,
        ArrayRef<SmallVector<int64_t>> shapes) {
  std::string diagnostics;
  ScopedDiagnosticHandler collect(module.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += (diagnostics.empty() ? "" : "; ") + diag.str();
    return success();
  });
  runtime::RunnerOptions options;
  options.entry = entry.str();
  options.specializeTo.emplace(shapes.begin(), shapes.end());
  auto runner = runtime::Runner::compile(module, options);
  if (!runner && !diagnostics.empty())
    return llvm::createStringError(llvm::toString(runner.takeError()) + ": " +
                                   diagnostics);
  return runner;
}

} // namespace

/// checkSameResults by compiling and running both programs.
static std::optional<std::string> checkWithJIT(ModuleOp before, ModuleOp after,
                                        StringRef entry,
                                        const ComparedPrograms &names) {
  auto sig = runtime::getEntrySignature(before, entry);
  if (!sig)
    return llvm::toString(sig.takeError());
  SmallVector<SmallVector<int64_t>> shapes;
  for (const runtime::TensorSignature &input : sig->inputs) {
    SmallVector<int64_t> shape(input.shape);
    for (int64_t &d : shape)
      if (d == runtime::kDynamicDim)
        d = kDynamicDimSize;
    shapes.push_back(std::move(shape));
  }

  auto want = compile(before, entry, shapes);
  if (!want)
    return (names.before +
            " does not compile: " + llvm::toString(want.takeError()))
        .str();
  auto got = compile(after, entry, shapes);
  if (!got)
    return (names.after +
            " does not compile: " + llvm::toString(got.takeError()))
        .str();

  for (InputKind kind : kInputKinds) {
    SmallVector<runtime::HostTensor> inputs;
    for (auto [i, pair] : llvm::enumerate(llvm::zip(sig->inputs, shapes))) {
      auto input =
          makeInput(std::get<0>(pair).dtype, std::get<1>(pair), kind, 1 + i);
      if (!input)
        return llvm::toString(input.takeError());
      inputs.push_back(std::move(*input));
    }
    auto expected = (*want)->invoke(inputs);
    if (!expected)
      return llvm::toString(expected.takeError());
    auto actual = (*got)->invoke(inputs);
    if (!actual)
      return llvm::toString(actual.takeError());
    if (expected->size() != actual->size())
      return (names.before + " and " + names.after +
              " return different numbers of results")
          .str();
    for (auto [r, pair] : llvm::enumerate(llvm::zip(*expected, *actual))) {
      auto &[w, g] = pair;
      double rtol = 1e-4, atol = 1e-5;
      if (w.dtype() == runtime::DType::F16)
        rtol = atol = 1e-2;
      else if (w.dtype() == runtime::DType::BF16)
        rtol = atol = 5e-2;
      else if (!runtime::isFloatDType(w.dtype()))
        rtol = atol = 0;
      runtime::Comparison c = runtime::compareTensors(g, w, atol, rtol);
      if (c.ok)
        continue;
      std::string msg;
      llvm::raw_string_ostream os(msg);
      os << "result " << r << " differs on " << describe(kind);
      if (!c.message.empty())
        os << ": " << c.message;
      else
        os << ": worst at " << runtime::formatIndex(c.worstIndex, g.shape())
           << " " << names.before << " gives " << c.worstExpected << ", "
           << names.after << " " << c.worstActual;
      return msg;
    }
  }
  return std::nullopt;
}

void mlir::graphopt::runtime::registerRewriteChecker() {
  graph::setSameResultsChecker(checkWithJIT);
}
