"""Test set-up: the tests' own helpers (tests/corpus.py) are importable; a PDN_CORPUS that
names no folder stops the run (see tests/corpus.py)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from corpus import AVAILABLE, CORPUS, EXPLICIT  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    if EXPLICIT and not AVAILABLE:
        raise pytest.UsageError(f"PDN_CORPUS={EXPLICIT} is not a folder (unset it to skip the corpus tests)")
