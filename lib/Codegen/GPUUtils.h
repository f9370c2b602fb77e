//===- GPUUtils.h - helpers shared by the CUDA codegen passes ---*- C++ -*-===//
//
// Private to lib/Codegen.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_LIB_CODEGEN_GPUUTILS_H
#define GRAPHOPT_LIB_CODEGEN_GPUUTILS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::graphopt {

/// The memref a memref.load or memref.store accesses; null for other ops.
inline Value getAccessedMemRef(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  return Value();
}

} // namespace mlir::graphopt

#endif // GRAPHOPT_LIB_CODEGEN_GPUUTILS_H
