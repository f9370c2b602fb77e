//===- graph-opt.cpp - the graphopt optimizer driver ----------------------===//
//
// mlir-opt with graphopt's dialects, passes and pipelines registered. All
// registration lives in InitAll; this file only calls it.
//
//===----------------------------------------------------------------------===//

#include "graphopt/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  // `--replace-patterns=FILE` is shorthand for the pass flag
  // `--graph-replace-patterns=patterns-file=FILE`.
  std::vector<std::string> storage;
  storage.reserve(argc); // Stable c_str() pointers.
  // `--verify-rewrites` adds `verify-rewrites=true` to it.
  std::vector<char *> args;
  bool verify = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--verify-rewrites" || a == "-verify-rewrites")
      verify = true;
    else
      args.push_back(argv[i]);
  }
  for (char *&arg : args) {
    std::string a = arg;
    // `--fusion-report=FILE` is shorthand for
    // `--fusion-form-groups=report=FILE`.
    for (const char *prefix : {"--fusion-report=", "-fusion-report="}) {
      if (a.rfind(prefix, 0) == 0) {
        storage.push_back("--fusion-form-groups=report=" +
                          a.substr(std::string(prefix).size()));
        arg = storage.back().data();
        break;
      }
    }
    for (const char *prefix : {"--replace-patterns=", "-replace-patterns="}) {
      if (a.rfind(prefix, 0) == 0) {
        storage.push_back("--graph-replace-patterns=patterns-file=" +
                          a.substr(std::string(prefix).size()) +
                          (verify ? " verify-rewrites=true" : ""));
        arg = storage.back().data();
        break;
      }
    }
  }
  argc = args.size();
  argv = args.data();
  mlir::graphopt::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::graphopt::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "graphopt optimizer driver\n", registry));
}
