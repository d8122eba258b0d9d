"""Allocation failure for the compiled core's tests: each call of a case is made again with CPython's
allocators failing from the N-th allocation on (and failing the N-th alone), for N from 0 until the call no
longer reaches a failing one; each must raise MemoryError or give the answer it gives with memory (never a
crash, a half-made tuple or list, or another error).  The hook is _testcapi.set_nomemory (CPython's test
module); the sweep runs in a child process, so that a crash fails the test instead of ending the run."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

# A case makes its inputs afresh (a call may change them) and gives the call to sweep with them.
Case = Callable[[], Callable[[], Any]]
LIMIT = 20_000                  # allocations one call may make before the sweep calls it broken


def hook_missing() -> str | None:
    """Why allocations cannot be made to fail here, or None when they can."""
    if importlib.util.find_spec("_testcapi") is None:
        return "CPython's test module _testcapi is not installed (a build without the test modules)"
    import _testcapi
    if not hasattr(_testcapi, "set_nomemory"):
        return "this CPython's _testcapi has no set_nomemory hook"
    return None


def failing(call: Callable[[], Any], start: int, stop: int) -> Any:
    """call() with the allocations from the start-th up to the stop-th (0: all on) failing: its answer, or
    MemoryError (the class) when it raised that."""
    import _testcapi
    _testcapi.set_nomemory(start, stop)
    try:
        return call()
    except MemoryError:
        return MemoryError
    finally:
        _testcapi.remove_mem_hooks()


def sweep(name: str, case: Case) -> int:
    """Runs the sweep of one case; the number of allocations its call made.  Raises AssertionError on a
    wrong answer."""
    expected = case()()
    for start in range(LIMIT):
        for stop in (start + 1, 0):
            got = failing(case(), start, stop)
            assert got is MemoryError or got == expected, (name, start, stop, got, expected)
        if got is not MemoryError:          # every allocation made before the failing ones: the sweep is done
            return start
    raise AssertionError(f"{name}: more than {LIMIT} allocations")


def check_in_child(test_file: str, name: str) -> None:
    """Runs `test_file`'s case `name` (its CASES) in a child process under PYTHONMALLOC=debug and fails
    on a crash or a wrong answer; skips where the hook is missing."""
    missing = hook_missing()
    if missing is not None:
        pytest.skip(f"allocations cannot be made to fail: {missing}")
    tests = Path(__file__).parent
    env = {**os.environ, "PYTHONMALLOC": "debug", "PYTHONPATH": os.pathsep.join(
        [str(tests), str(Path(test_file).parent), os.environ.get("PYTHONPATH", "")])}
    code = (f"import sys, nomemory, {Path(test_file).stem} as cases; "
            f"print(nomemory.sweep({name!r}, cases.CASES[{name!r}]))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (done.returncode, done.stderr[-3000:])
    assert int(done.stdout) > 0, f"{name}: the call made no allocation: the case does not test it"


def cases_named(cases: Mapping[str, Case]) -> list[str]:
    return sorted(cases)
