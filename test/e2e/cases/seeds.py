"""The cases of the two seed articles (shared/seeds/); the models, verbatim,
are in test/lib/seed_models.py.

Article 1 ("Graph mode optimization: XLA/JIT compilation and subgraph
replacement"): `MyModule` (Linear 10->10; traced, saved and loaded with
torch.jit), `my_function` (matmul + add, 128x128), the scripted `if`
function, and the torch.fx rewrite Linear -> Identity.

Article 2 ("torch.jit.script and torch.fx graph rewriting"): `add`
(scripted), `SimpleModel` (Linear 10->20, ReLU, Linear 20->2), the
Conv2d-ReLU-MaxPool2d `Model` (scripted too), and the torch.fx rewrite
relu -> leaky_relu.

Two article snippets do not run as printed; the smallest change that makes
them do what the text says is applied and marked "(fix)":
- article 1 sets a call_module node's target to a module object; FX needs a
  submodule name, so the Identity is registered as a submodule first;
- article 2 runs fx.symbolic_trace on the *scripted* model (FX cannot trace a
  ScriptModule) and matches only the functional relu while the model uses
  nn.ReLU; it traces the nn.Module and rewrites the ReLU module call too.
"""

import os
import tempfile

import torch
import torch.fx
import torch.fx as fx
import torch.nn as nn

from framework import Spec, case
from seed_models import (Model, MyModule, SimpleModel, add, my_function,  # test/lib
                         my_scripted_function)


# ---------------------------------------------------------------- article 1

@case(tags=("seed",))
def seed_my_module_linear():
    # 创建模型
    model = MyModule()
    # 创建输入数据
    x = torch.randn(1, 10)
    return model, (x,)


@case(tags=("seed", "torchscript"))
def seed_my_module_traced():
    """torch.jit.trace, save, load; the loaded ScriptModule is compiled."""
    model = MyModule()
    x = torch.randn(1, 10)
    # 使用Tracing编译模型
    traced_model = torch.jit.trace(model, x)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "traced_model.pt")
        # 保存模型
        traced_model.save(path)
        # 加载模型
        loaded_model = torch.jit.load(path)
    return loaded_model, (x,)


@case(tags=("seed",))
def seed_my_function_matmul_add():
    # 创建输入数据
    x = torch.randn(128, 128)
    y = torch.randn(128, 128)
    return my_function, (x, y)


@case(tags=("seed", "torchscript", "control-flow"))
def seed_scripted_if():
    """Both branches: one compiled program, called with x.sum() > 0 and < 0."""
    x = torch.randn(1, 10)
    y = torch.randn(1, 10)
    if x.sum() <= 0:
        x = -x
    return Spec(my_scripted_function, (x, y), more_inputs=[(-x, y)])


@case(tags=("seed", "fx"))
def seed_fx_linear_to_identity():
    """Article 1, 4.1.1: the Linear layer replaced by Identity with torch.fx;
    the rewritten GraphModule is compiled."""
    # 创建模型
    model = MyModule()
    # 使用 torch.fx 创建 GraphModule
    graph_module = torch.fx.symbolic_trace(model)
    # 修改 GraphModule 的代码
    graph_module.add_submodule("identity", torch.nn.Identity())  # (fix)
    for node in graph_module.graph.nodes:
      if node.op == "call_module" and node.target == "linear":
        node.target = "identity"  # (fix) 将 linear 层替换成 Identity 层
    graph_module.recompile()
    x = torch.randn(1, 10)

    def rewritten(compiled):
        # The rewrite took effect: the model is the identity now.
        assert torch.equal(compiled(x), x), "Linear -> Identity not applied"
    return Spec(graph_module, (x,), post_check=rewritten)


# ---------------------------------------------------------------- article 2

@case(tags=("seed", "torchscript"))
def seed_scripted_add():
    scripted_add = torch.jit.script(add)
    return scripted_add, (torch.randn(1, 10), torch.randn(1, 10))


@case(tags=("seed",))
def seed_simple_model():
    model = SimpleModel()
    return model, (torch.randn(4, 10),)


@case(tags=("seed", "fx"))
def seed_simple_model_fx_new_node():
    """Article 2, 3.2: a new node `new_node(x) = x * 2` added with torch.fx.
    (The article's `graph.insert_node` is not an FX API; the node is inserted
    before the output with `graph.call_function`, which is.)"""
    model = SimpleModel()
    graph_module = fx.symbolic_trace(model)

    def new_node(x):
        return x * 2

    output = next(n for n in graph_module.graph.nodes if n.op == "output")
    with graph_module.graph.inserting_before(output):
        doubled = graph_module.graph.call_function(new_node,
                                                   (output.args[0],))
    output.args = (doubled,)
    graph_module.recompile()
    return graph_module, (torch.randn(4, 10),)


@case(tags=("seed",))
def seed_conv_relu_pool():
    model = Model()
    return model, (torch.randn(1, 3, 32, 32),)


@case(tags=("seed", "torchscript"))
def seed_conv_relu_pool_scripted():
    model = Model()
    # 使用torch.jit.script转换为TorchScript
    scripted_model = torch.jit.script(model)
    return scripted_model, (torch.randn(1, 3, 32, 32),)


@case(tags=("seed", "fx"))
def seed_fx_relu_to_leaky_relu():
    """Article 2, 4.2: relu rewritten to leaky_relu with torch.fx; the
    rewritten GraphModule is compiled."""
    model = Model()
    # 使用torch.fx对模型的计算图进行重写 (fix: the nn.Module, not the
    # ScriptModule, which FX cannot trace)
    graph_module = fx.symbolic_trace(model)

    # 假设我们想将relu替换为leaky_relu
    def leaky_relu(x):
        return torch.nn.functional.leaky_relu(x)

    modules = dict(graph_module.named_modules())
    for node in graph_module.graph.nodes:
        if node.target == torch.nn.functional.relu:
            node.target = leaky_relu
        elif node.op == "call_module" and isinstance(modules[node.target],
                                                     nn.ReLU):  # (fix)
            node.op, node.target = "call_function", leaky_relu
    graph_module.recompile()
    assert "leaky_relu" in graph_module.code, graph_module.code
    x = torch.randn(1, 3, 32, 32)

    def rewritten(compiled):
        # The rewrite took effect: negative pre-activations leak through.
        y = compiled(x)
        assert (y < 0).any(), "relu -> leaky_relu not applied"
    return Spec(graph_module, (x,), post_check=rewritten)
