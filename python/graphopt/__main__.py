"""``python -m graphopt``: see graphopt/cli.py."""
import sys

from .cli import main

sys.exit(main())
