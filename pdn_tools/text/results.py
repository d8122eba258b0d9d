"""Game results: every result string PDN files use, the outcome each one states, how a Result
value is read, and the tags that say a game was decided off the board.

The first score belongs to the side that starts the variant (PDN reference §1.7).
This is the one list of result strings: the writer, the replay's result check,
`convert --fix-results` and `annotate --result` read it, and a test checks the
grammar's RESULT terminal against it.  Every reader of a Result value (validate's
record, stats, filter --result, list, dedupe) reads it through `read_result`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum


class Outcome(StrEnum):
    FIRST = "first"          # the side that starts the variant has won
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
# How reports (stats text and HTML) name each outcome; and a result that states none.
LABELS = {Outcome.FIRST: "starting side won", Outcome.SECOND: "other side won", Outcome.DRAW: "drawn"}
NO_RESULT = "no result"

# The tags that can say a game was decided off the board: only Termination (PGN standard
# §9.8.1, which lidraughts and PlayStrategy write); no other tag of the standards or of the
# corpus's files says how a game ended.  A value says so when one of its words (case-folded)
# is below: PGN's "abandoned", "adjudication", "death", "emergency", "rules infraction" and
# "time forfeit", and the usual words for the rest (resignation, forfeit, a draw by agreement,
# a default, a disqualification, a walkover).  "normal" and "unterminated" (PGN's other two)
# say nothing off the board, nor does any value without one of these words.
OFF_BOARD_TAGS = ("Termination",)
OFF_BOARD_WORDS = frozenset({
    "abandoned", "abandonment", "adjudicated", "adjudication", "agreed", "agreement", "death",
    "default", "defaulted", "disqualification", "disqualified", "emergency", "forfeit", "forfeited",
    "forfeits", "infraction", "resign", "resignation", "resigned", "resigns", "time", "timeout",
    "walkover"})
_WORD = re.compile(r"[^\W\d_]+")


def read_result(value: str | None) -> str | None:
    """A Result value as read: without the white space around it (`' 0-1'` is `0-1`)."""
    return None if value is None else value.strip()


def stated_result(tag: str | None, terminator: str | None) -> str:
    """The result a game states: its Result tag's value as read, else its terminator, else ''."""
    return read_result(tag) or terminator or ""


def outcome(result: str | None) -> Outcome | None:
    """The outcome a result string states, None for an unknown or unfinished one."""
    read = read_result(result)
    return RESULTS.get(read) if read is not None else None


def off_board(tags: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """The first (name, value) tag saying the game was decided off the board, else None."""
    for name, value in tags:
        if name in OFF_BOARD_TAGS and not OFF_BOARD_WORDS.isdisjoint(_WORD.findall(value.casefold())):
            return name, value
    return None
