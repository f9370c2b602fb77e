// Runs a model compiled ahead of time, in C++, through the context API of
// its generated header (docs/AOT.md), with the context and the results
// held by RAII types. The same command line as run_model.c:
//
//   c++ -std=c++17 -O2 -I. -I<graphopt>/examples/deploy
//       -DMODEL_HEADER='"model.h"' run_model.cpp model.o -o run_model_cpp
//   ./run_model_cpp --weights model.weights --out y.npy x.npy
#include MODEL_HEADER
#include "npy.h"

#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// One context of the compiled model: created with its weights, destroyed
/// with its last results.
class Model {
public:
  explicit Model(const char *weights) {
    char msg[512];
    graphopt_main_context *ctx = nullptr;
    if (graphopt_main_context_create(&ctx, weights, msg, sizeof msg) !=
        GRAPHOPT_AOT_OK)
      throw std::runtime_error(msg);
    ctx_.reset(ctx);
  }

  /// Runs the model; the returned tensors are valid until the next run.
  std::vector<graphopt_aot_tensor>
  operator()(const std::vector<graphopt_aot_tensor> &inputs) {
    std::vector<graphopt_aot_tensor> outputs(GRAPHOPT_MAIN_NUM_OUTPUTS);
    if (graphopt_main_context_run(ctx_.get(), inputs.data(), inputs.size(),
                                  outputs.data(),
                                  outputs.size()) != GRAPHOPT_AOT_OK)
      throw std::runtime_error(graphopt_main_context_error(ctx_.get()));
    return outputs;
  }

private:
  struct Destroy {
    void operator()(graphopt_main_context *c) const {
      graphopt_main_context_destroy(c);
    }
  };
  std::unique_ptr<graphopt_main_context, Destroy> ctx_;
};

struct Array {
  npy_array a{};
  explicit Array(const std::string &path) {
    if (npy_read(path.c_str(), &a))
      throw std::runtime_error("cannot read " + path);
  }
  ~Array() { std::free(a.data); }
  Array(const Array &) = delete;
  Array &operator=(const Array &) = delete;
};

} // namespace

int main(int argc, char **argv) {
  const char *weights = nullptr;
  int repeat = 0;
  std::vector<std::string> outs;
  std::vector<std::unique_ptr<Array>> ins;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "--weights" && i + 1 < argc)
        weights = argv[++i];
      else if (arg == "--repeat" && i + 1 < argc)
        repeat = std::atoi(argv[++i]);
      else if (arg == "--out" && i + 1 < argc)
        outs.push_back(argv[++i]);
      else
        ins.push_back(std::make_unique<Array>(arg));
    }
    std::vector<graphopt_aot_tensor> inputs;
    for (const auto &in : ins) {
      in->a.tensor.shape = in->a.shape;
      inputs.push_back(in->a.tensor);
    }
    Model model(weights);
    std::vector<graphopt_aot_tensor> results = model(inputs);
    for (size_t k = 0; k < outs.size() && k < results.size(); ++k)
      if (npy_write(outs[k].c_str(), &results[k]))
        return 1;
    if (repeat > 0) {
      auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < repeat; ++i)
        model(inputs);
      std::chrono::duration<double, std::milli> ms =
          std::chrono::steady_clock::now() - start;
      std::cout << ms.count() / repeat << " ms per call (" << repeat
                << " calls)\n";
    }
  } catch (const std::exception &e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
