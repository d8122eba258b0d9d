"""A hypothesis property run briefly in the fast subset and at length in the slow one: the test as
written draws a few examples (of each variant, say), its slow twin, which CI runs, as many as before."""
from __future__ import annotations

from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis.strategies import SearchStrategy


def at_length(test: Callable[..., None], examples: int, **strategies: SearchStrategy[Any]) -> Callable[..., None]:
    """The slow twin of the hypothesis test `test`: its inner test given `strategies` (those of `test`),
    `examples` of them, with the parametrization of `test`, marked slow.  Bind it to a test name:
    `test_x_at_length = at_length(test_x, 25, data=st.data())`."""
    inner = test.hypothesis.inner_test  # type: ignore[attr-defined]
    twin = settings(max_examples=examples, deadline=None)(given(**strategies)(inner))
    twin.pytestmark = [*getattr(test, "pytestmark", []), pytest.mark.slow.mark]  # type: ignore[attr-defined]
    return twin
