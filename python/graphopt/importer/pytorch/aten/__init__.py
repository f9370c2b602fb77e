"""ATen op -> ``graph`` dialect mappings, one module per op family, shared by
the ``torch.export``/``torch.fx`` and TorchScript importers.

:mod:`.core` holds the registry (:func:`~.core.op`), argument binding, type
promotion and the emission context; importing this package registers every
family's mappings: elementwise (with comparisons and casts), linalg (matrix
products, attention), shape (with padding, creation ops, sizes and
scalars), reductions (with softmax), nn (normalization, convolution and
pooling, recurrent layers), more (ops composed of other graph ops: log1p,
atan2, flip, roll, pixel_shuffle, reflection padding, norms, cdist, unfold,
prefix scans, ...), sorting (sort, argsort, kthvalue, median, quantile),
special (erfc, lgamma, digamma, Bessel i0/i1, entr), quantized (PT2E's
quantize/dequantize per tensor and per channel).
"""

from . import (elementwise, linalg, more, nn, quantized, reductions, shape,  # noqa: F401
               sorting, special)
from .core import (POISON, Context, SymInt, _python_dtype, bind, emit_op,  # noqa: F401
                   is_poisoned, lookup, norm_dim, qualified_name, result_dtype,
                   supported_ops, to_graph_value)
