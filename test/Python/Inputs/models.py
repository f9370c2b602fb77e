"""Models for the CLI tests (python -m graphopt import FILE.py:NAME)."""
import torch
import torch.nn as nn


class SimpleModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(10, 20)
        self.relu = nn.ReLU()
        self.linear2 = nn.Linear(20, 2)

    def forward(self, x):
        return self.linear2(self.relu(self.linear1(x)))


def my_function(x, y):
    return torch.add(torch.matmul(x, y), x)


class NeedsArgs(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)
