"""The ONNX op registry (:data:`REGISTRY`), one module per op family.

:mod:`.core` holds the registry, the node context (:class:`Node`) and the
helpers the families share; importing this package registers every family's
ops: elementwise, reductions (with softmax and scans), linalg, conv (with
pooling), norm, shape, rnn (LSTM, GRU, RNN), attention (with losses and
GatherElements), training (the optimizer updates of the
``ai.onnx.preview.training`` domain).
"""

from . import (attention, control, conv, elementwise, linalg, norm, reductions,  # noqa: F401
               rnn, shape, training)
from .core import (MAX_OPSET, MIN_OPSET, NUMPY_TO_ONNX, ONNX_TO_NUMPY, REGISTRY,  # noqa: F401
                   Node, OpSpec, Sym, Tensor, dtype_name, is_dim, onnx_type_name,
                   shape_text)
