"""Game results: every result string PDN files use, and the outcome each one states.

The first score belongs to the player who starts the variant (PDN reference §1.7).
This is the one list of result strings: the writer, the replay's result check,
`convert --fix-results` and `annotate --result` read it, and a test checks the
grammar's RESULT terminal against it.
"""
from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    FIRST = "first"          # the player who starts the variant has won
    SECOND = "second"
    DRAW = "draw"


# Result string -> the outcome it states (None: no outcome, as "0-0", both lose, and "*").
RESULTS: dict[str, Outcome | None] = {
    "2-0": Outcome.FIRST, "1-0": Outcome.FIRST, "1:0": Outcome.FIRST,
    "0-2": Outcome.SECOND, "0-1": Outcome.SECOND, "0:1": Outcome.SECOND,
    "1-1": Outcome.DRAW, "1/2-1/2": Outcome.DRAW, "½-½": Outcome.DRAW, "0.5-0.5": Outcome.DRAW,
    "1/2:1/2": Outcome.DRAW,
    "0-0": None, "*": None,
}
# Result tag values that say the result is not known.
UNKNOWN = ("", "*", "?")


def outcome(result: str | None) -> Outcome | None:
    """The outcome a result string states, None for an unknown or unfinished one."""
    return RESULTS.get(result) if result is not None else None
