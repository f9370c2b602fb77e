//===- SetTarget.cpp - graph-set-target -----------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TargetParser/Host.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHSETTARGETPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {
/// The host's features as LLVM spells them: "+avx2,+fma,-sse4a,...".
std::string hostFeatures() {
  std::vector<std::string> parts;
  for (const auto &f : llvm::sys::getHostCPUFeatures())
    parts.push_back((f.second ? "+" : "-") + f.first().str());
  llvm::sort(parts);
  return llvm::join(parts, ",");
}

struct GraphSetTargetPass
    : public graphopt::impl::GraphSetTargetPassBase<GraphSetTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    std::string cpuName =
        cpu == "host" ? llvm::sys::getHostCPUName().str() : std::string(cpu);
    std::string featureList =
        features == "host" ? hostFeatures() : std::string(features);
    MLIRContext *ctx = &getContext();
    getOperation().walk([&](LLVM::LLVMFuncOp fn) {
      if (!cpuName.empty())
        fn.setTargetCpuAttr(StringAttr::get(ctx, cpuName));
      if (!featureList.empty())
        fn.setTargetFeaturesAttr(
            LLVM::TargetFeaturesAttr::get(ctx, featureList));
    });
  }
};
} // namespace
