"""Test set-up: the tests' own helpers (tests/corpus.py) are importable."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
