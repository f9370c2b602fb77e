//===- graph-opt.cpp - the graphopt optimizer driver ----------------------===//
//
// mlir-opt with graphopt's dialects, passes and pipelines registered. All
// registration lives in InitAll (and the execution layer's checker behind
// verify-rewrites); this file only calls it.
//
//===----------------------------------------------------------------------===//

#include "graphopt/InitAll.h"
#include "graphopt/Runtime/Runner.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include <string>
#include <utility>
#include <vector>

int main(int argc, char **argv) {
  // Shorthands for the rewrite-rule passes: `--replace-patterns=FILE` and
  // `--load-patterns=FILE` stand for `--graph-replace-patterns` and
  // `--graph-apply-pdl-patterns` with `patterns-file=FILE`;
  // `--verify-rewrites` adds `verify-rewrites=true` to them.
  // `--fusion-report=FILE` stands for `--fusion-form-groups=report=FILE`.
  struct Shorthand {
    const char *flag, *expansion;
    bool takesVerify;
  };
  static constexpr Shorthand kShorthands[] = {
      {"replace-patterns=", "--graph-replace-patterns=patterns-file=", true},
      {"load-patterns=", "--graph-apply-pdl-patterns=patterns-file=", true},
      {"fusion-report=", "--fusion-form-groups=report=", false}};
  std::vector<std::string> storage;
  storage.reserve(argc); // Stable c_str() pointers.
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
    for (const Shorthand &s : kShorthands) {
      for (const char *dashes : {"--", "-"}) {
        std::string prefix = std::string(dashes) + s.flag;
        if (a.rfind(prefix, 0) != 0)
          continue;
        storage.push_back(s.expansion + a.substr(prefix.size()) +
                          (verify && s.takesVerify ? " verify-rewrites=true"
                                                   : ""));
        arg = storage.back().data();
        break;
      }
    }
  }
  argc = args.size();
  argv = args.data();
  mlir::graphopt::registerAllPasses();
  // verify-rewrites runs both versions of a function with the JIT.
  mlir::graphopt::runtime::registerRewriteChecker();
  mlir::DialectRegistry registry;
  mlir::graphopt::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "graphopt optimizer driver\n", registry));
}
