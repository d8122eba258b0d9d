"""Test set-up: the tests' own helpers (tests/corpus.py) and every test module (tests/FOLDER/test_*.py, for
the few that borrow another's strategies) are importable by name; a PDN_CORPUS that
names no folder stops the run (see tests/corpus.py); hypothesis draws repeatable examples."""
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings


# Test files sit in folders named after the package's (tests/text, ..., tests/whole), their names unique across them.
sys.path[:0] = [str(Path(__file__).parent), *sorted(str(folder) for folder in Path(__file__).parent.iterdir()
                                                    if folder.is_dir() and any(folder.glob("test_*.py")))]

from corpus import AVAILABLE, CORPUS, EXPLICIT  # noqa: E402

# Every run draws the same examples, so a test passes or fails for the code, not for the draw;
# HYPOTHESIS_PROFILE=explore draws new ones (the long fuzz in docs/testing.md, "Fuzzing", does too).
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_configure(config: pytest.Config) -> None:
    if EXPLICIT and not AVAILABLE:
        raise pytest.UsageError(f"PDN_CORPUS={EXPLICIT} is not a folder (unset it to skip the corpus tests)")


@pytest.fixture(autouse=True)
def _signals_left_as_found():
    """Each test leaves the process's Ctrl-C, SIGTERM and SIGHUP handling as it found it: the commands
    the later tests start inherit an ignored signal (one ignored here reached a shell loop's test)."""
    import signal
    names = [name for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)]
    before = {name: signal.getsignal(getattr(signal, name)) for name in names}
    yield
    after = {name: signal.getsignal(getattr(signal, name)) for name in names}
    changed = [name for name in names if after[name] != before[name]]
    for name in changed:
        signal.signal(getattr(signal, name), before[name])
    assert not changed, f"the test changed the handling of {changed}"
