"""All e2e cases; importing this package registers them (framework.REGISTRY).

    seeds.py         the models of the seed articles, verbatim
    ops_basic.py     single ops and small compositions of the first op set
    ops_v2.py        the second op set (docs/design/graph-ops-v2.md)
    models.py        ResNet, Transformer, GPT-2 block, LSTM/GRU, MobileNet
    control_flow.py  TorchScript if/loops
    features.py      graphopt.compile features: caching, dynamic batch,
                     NumPy in/out, errors, the torch.compile backend
"""

from . import seeds, ops_basic, ops_v2, models, control_flow, features  # noqa: F401
