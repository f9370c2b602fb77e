"""Models for the CLI tests (python -m graphopt import FILE.py:NAME); the
seed models come from test/lib/seed_models.py."""
import sys
from pathlib import Path

import torch.nn as nn

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "lib"))
from seed_models import SimpleModel, my_function  # noqa: E402,F401


class NeedsArgs(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)
