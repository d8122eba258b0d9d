"""The compiled scanner and movetext writers out of memory: fast_game's tokens (tag pairs, their places,
spans, zero-padded items), numbered_text and movetext_lines, called with the allocations failing from the
N-th on (and with the N-th alone failing), raise MemoryError or answer as with memory; never a crash or a
half-made answer (tests/nomemory.py; each case runs in a child process under PYTHONMALLOC=debug)."""
from __future__ import annotations

from typing import Any

import pytest

from nomemory import Case, check_in_child
from pdn_tools.rules import core

PADDED = '[Event "x"]\n01.05-10 7-11\n 02... 10x 04 {a\nb} 3. 11-15 2-0[Event "y"]'
SPACED = '\t[A "x"] [B "y\\"z"]\n  [C "w\\\\v"]\n[D "\u00e9"]\n{c} 1. 11-15 23-19 *\n'   # pairs' places, escapes undone
ESCAPED = '[A "x"]\\r\n[B "y"]\\n\n1. 11-15 *\n'       # literal escapes between tags and as white space
WIDE = '[Event "\U0001d11e"]\n' + " ".join(f"{n}. {n % 30 + 1}-{n % 30 + 5}" for n in range(1, 80)) + "\n*\n"


def scanner() -> Any:
    module = core.compiled_scanner()
    assert module is not None, "the compiled scanner (pdn_tools/text/_scan.c) was not built"
    return module


CASES: dict[str, Case] = {
    "fast_game": lambda: lambda: [scanner().fast_game(text, 1 if text[0] == "\t" else 0, len(text), False)
                                  for text in (PADDED, SPACED, ESCAPED, WIDE)],
    "numbered_text": lambda: lambda: scanner().numbered_text(
        [(0, "32-28 19-23 28x19"), (2, "{a comment}"), (1, "14x23"), (2, "$1"), (0, "33-28 23x32 37x28")],
        0, "*", 20),
    "movetext_lines": lambda: lambda: scanner().movetext_lines(
        [("32-28 19-23 28x19", 0), ("{a comment \u00e9}", 3), ("14x23 33-28", 0)], "1-0", 12),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_scanner_out_of_memory_raises_memory_error_or_answers_right(name: str) -> None:
    check_in_child(__file__, name)
