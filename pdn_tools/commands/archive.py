"""Archive tools in the manner of pgn-extract: filter, dedupe, stats and split.

Each tool has a per-game function, run by `batch.run` (in worker processes with --jobs),
that checks the game as `validate` does and returns its record with what the tool
needs: the text to pass on, a hash, a year.  Only these small values travel back.
"""
from __future__ import annotations

import contextlib
import csv
import functools
import hashlib
import itertools
import io
import os
import re
import stat
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from pdn_tools.commands import report
from pdn_tools.play.check import Checked, Record
from pdn_tools.play.checking import Checking
from pdn_tools.play.main_line import played_moves
from pdn_tools.rules import steps
from pdn_tools.rules.core import Engine
from pdn_tools.rules.fen import FenError, parse_fen, to_fen
from pdn_tools.rules.movegen import Position
from pdn_tools.text.model import (Comment, Diagnostic, Game, MoveNumber, MoveRun, Nag, ReadError, Variation,
                                  movetext_runs)
from pdn_tools.text.names import printable
from pdn_tools.text.reader import RawGame, parse_raw
from pdn_tools.text.results import LABELS, NO_RESULT, Outcome, outcome, read_result, stated_result
from pdn_tools.text.tags import raw_tags, raw_terminator
from pdn_tools.text.writer import game_text
from pdn_tools.play.replay import Replay
from pdn_tools.rules.variants import Variant

LISTED_TAGS = ("White", "Black", "Result", "Date", "Event", "Round", "GameType")
_FORMULA_START = tuple("=+-@")       # a spreadsheet reads a formula from these (OWASP's TAB and CR: made \t, \r)
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]")
_YEAR = re.compile(r"(?<!\d)(?!0000)\d{4}(?!\d)")      # 2004.??.??, 12-08-2021, 17 april 2009; 0000: none


@dataclass(frozen=True)
class Criteria:
    """What `pdn filter` keeps; a game must meet every criterion given."""

    tags: tuple[tuple[str, re.Pattern[str]], ...] = ()   # tag name, pattern searched in its value
    player: re.Pattern[str] | None = None                # searched in White and Black
    result: str | None = None
    variant: Variant | None = None
    valid: bool | None = None
    min_plies: int | None = None
    max_plies: int | None = None
    position: str | None = None                     # a FEN reached on the main line

    def needs_replay(self) -> bool:
        """Whether a criterion needs the game replayed (else its tags decide)."""
        return bool(self.variant or self.position or self.valid is not None
                    or self.min_plies is not None or self.max_plies is not None)

    def needs_game(self) -> bool:
        """Whether a criterion looks into the game (a game that cannot be read fails it)."""
        return bool(self.tags or self.player or self.result or self.variant or self.position
                    or self.min_plies is not None or self.max_plies is not None)


def matches(checked: Checked, criteria: Criteria) -> bool:
    """Whether a checked game meets `criteria`."""
    game, result = checked.game, checked.replay
    if criteria.valid is not None and checked.ok != criteria.valid:
        return False
    if not criteria.needs_game():
        return True
    if isinstance(game, ReadError) or result is None:
        return False
    if not tags_match(dict(reversed(game.tags)), game.result or "", criteria):
        return False
    if criteria.variant is not None and result.variant != criteria.variant:
        return False
    plies = checked.record.plies
    if criteria.min_plies is not None and plies < criteria.min_plies:
        return False
    if criteria.max_plies is not None and plies > criteria.max_plies:
        return False
    return criteria.position is None or reaches(result, criteria.position)


def tags_match(tags: dict[str, str], terminator: str, criteria: Criteria) -> bool:
    """Whether a game with these tags (first value of each) and terminator meets the criteria
    on tags, players and result."""
    for name, pattern in criteria.tags:
        value = tags.get(name)
        if value is None or not pattern.search(value):
            return False
    if criteria.player and not any(criteria.player.search(tags.get(side, "")) for side in ("White", "Black")):
        return False
    return criteria.result is None or result_matches(criteria.result, stated_result(tags.get("Result"), terminator))


def result_matches(wanted: str, result: str) -> bool:
    """Whether `result` states the outcome `wanted` names, however each is spelled (`2-0`, `1-0`
    and `1:0` are all the starting side's win; `first`, `second` and `draw` name an outcome);
    a result that states no outcome (`*`) matches only as written (white space around it aside)."""
    goal = Outcome(wanted) if wanted in Outcome.__members__.values() else outcome(wanted)
    return outcome(result) == goal if goal is not None else read_result(result) == read_result(wanted)


def tag_filtered(raw: RawGame, index: int, notes: list[Diagnostic], criteria: Criteria,
                 checking: Checking) -> Game | ReadError | None:
    """The game, parsed (by `checking`: strictly or not, for its engine) but not replayed, when its tags
    meet `criteria` (None when they do not: then it is not parsed at all)."""
    if not tags_match(raw_tags(raw), raw_terminator(raw), criteria):
        return None
    return parse_raw(raw, index, checking.strict, notes, checking.engine)


def listing_row(raw: RawGame, index: int) -> dict[str, str | int]:
    """`pdn list`'s row for a split game, from its tags alone."""
    tags = raw_tags(raw)
    row: dict[str, str | int] = {"file": raw.name, "line": raw.line, "game": index}
    row.update({name: tags.get(name, "") for name in LISTED_TAGS})
    row["Result"] = stated_result(tags.get("Result"), raw_terminator(raw))
    return row


def cell(value: str | int) -> str:
    """A CSV or TSV cell: the value made `printable` (one line, no tab, no control character), and a
    `'` before a text a spreadsheet would take for a formula (`=`, `+`, `-` or `@` first), unless it
    is a number (`-3`, `+1.5`) or a lone sign."""
    text = printable(str(value))
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


class Rows(ABC):
    """`pdn list`'s rows in one format (a new format is one subclass and its line in ROWS)."""

    def header(self) -> list[str]:
        """The lines before the rows."""
        return []

    @abstractmethod
    def row(self, row: dict[str, str | int]) -> str:
        """One game's row (`listing_row`) as a line."""


class Table(Rows):
    """A table with a header row, one line per game."""

    def header(self) -> list[str]:
        return [self.line(["file", "line", "game", *LISTED_TAGS])]

    def row(self, row: dict[str, str | int]) -> str:
        return self.line(list(row.values()))

    @abstractmethod
    def line(self, values: list[str | int]) -> str:
        """One line of the table."""


class TsvRows(Table):
    """Tab-separated, each `cell` safe for spreadsheets."""

    def line(self, values: list[str | int]) -> str:
        return "\t".join(map(cell, values)) + "\n"


class CsvRows(Table):
    """CSV, each `cell` safe for spreadsheets."""

    def __init__(self) -> None:
        self.buffer = io.StringIO()
        self.writer = csv.writer(self.buffer, lineterminator="\n")

    def line(self, values: list[str | int]) -> str:
        self.buffer.seek(0)
        self.buffer.truncate()
        self.writer.writerow(map(cell, values))
        return self.buffer.getvalue()


class JsonRows(Rows):
    """One JSON object per game, exact values, no header."""

    def row(self, row: dict[str, str | int]) -> str:
        return report.json_text(row) + "\n"


ROWS: dict[str, type[Rows]] = {"tsv": TsvRows, "csv": CsvRows, "jsonl": JsonRows}


def reaches(result: Replay, fen: str) -> bool:
    """Whether the position of `fen` (side to move included) stands on the replayed main line (set up on
    the replay's engine)."""
    if result.variant is None or result.start is None:
        return False
    wanted = _position(result.variant, fen, result.start.engine)
    if wanted is None or result.start == wanted:
        return wanted is not None
    found = _core_reaches(result, wanted)
    return found if found is not None else any(ply.after == wanted for ply in result.plies)


_SKIPPED = (MoveNumber, Comment, Nag, Variation)       # what the main line's plies go past


def _core_reaches(result: Replay, wanted: Position) -> bool | None:
    """Whether a ply of the main line leaves `wanted`, found by the compiled core (`steps.find_run`,
    no ply made) where `_core_runs` can; else None (the plies decide)."""
    found = _core_runs(result, lambda position, text, number, last:
                       steps.find_run(position, text, 0, number, last, wanted), stop=True)
    return None if found is None else any(found)


_Answer = TypeVar("_Answer")


def _core_runs(result: Replay, play: Callable[[Position, str, int, int], tuple[int, int, Position | None, _Answer]],
               stop: bool = False) -> list[_Answer] | None:
    """What `play(position, text, number, last)` answers for each run of the main line, played on
    from ply `number` up to `last`, the main line's last ply resolved: None unless the core plays
    each run whole and the rest is move numbers, comments, NAGs and variations (the plies then
    decide).  With `stop`, the runs end at the first true answer."""
    position, last = result.start, result.ply_count
    if position is None or not steps.runs_text(position):
        return None
    answers: list[_Answer] = []
    number = 0
    for element in movetext_runs(result.game):
        if number == last:
            break
        if type(element) is MoveRun:
            text = element.text
            offset, count, after, answer = play(position, text, number, last)
            answers.append(answer)
            if stop and answer:
                return answers
            number += count
            if offset < len(text) and number < last:         # a move the core leaves to Python
                return None
            position = after or position
        elif not isinstance(element, _SKIPPED):
            return None
    return answers if number == last else None


@functools.lru_cache(maxsize=64)
def _position(variant: Variant, fen: str, engine: Engine) -> Position | None:
    """The position of `fen` in `variant` on `engine` (None when it is none): read once a run, not
    once a game."""
    try:
        return parse_fen(variant, fen, engine)
    except FenError:
        return None


def filter_game(checked: Checked, criteria: Criteria) -> str:
    """The game's text when it meets `criteria` ('' when not, or when its text was not kept)."""
    return game_text(checked.game) if matches(checked, criteria) else ""


# ---- dedupe ---------------------------------------------------------------------------------------

def moves_key(game: Game | ReadError, result: Replay | None) -> str:
    """The game's moves in a canonical form: variant, start position, then each move as
    resolved by the replay (start and landing squares), else as written."""
    if isinstance(game, ReadError):       # one not kept (too large, cut) is like no other game
        return "unreadable\n" + (" ".join(game.text.split()) or f"{game.file}\n{game.index}")
    variant = result.variant.name if result is not None and result.variant else "?"
    start = to_fen(result.start, False) if result is not None and result.start else game.tag("FEN", "")
    written = _core_moves(result) if result is not None and result.complete else None
    if written is None:
        played = played_moves(result) if result is not None else []
        moves = [f"{move.start}-{'-'.join(map(str, move.path))}" for move in played]
        if result is None or not result.complete:          # else every move of the main line was played
            moves += [_written(m.squares, m.capture) for m in itertools.islice(game.moves(), len(played), None)]
        written = " ".join(moves)
    return f"{variant}\n{start}\n{written}"


def _core_moves(result: Replay) -> str | None:
    """The moves of the main line as moves_key writes them (start and landing squares joined by
    "-", moves by " "), written by the compiled core (`steps.write_run` in full) where `_core_runs`
    can; else None."""
    written = _core_runs(result, lambda position, text, number, last:
                         steps.write_run(position, text, 0, number, last, None, "full", "-"))
    return None if written is None else " ".join(piece for piece in written if piece)


def _written(squares: tuple[str, ...], capture: bool) -> str:
    names = [str(int(s)) if s.isdigit() else s.lower() for s in squares]
    return ("x" if capture else "-").join(names)


def dedupe_game(checked: Checked, with_tags: bool) -> tuple[bytes, str]:
    """A hash of the game's moves (and tags), and its text."""
    game = checked.game
    key = moves_key(game, checked.replay)
    if with_tags and isinstance(game, Game):     # repr: no value can pass for other tags (a line break in it)
        key += "\n" + repr(sorted((name, read_result(value) if name == "Result" else value)
                                  for name, value in game.tags))
    return hashlib.blake2b(key.encode("utf-8"), digest_size=16).digest(), game_text(game)


# ---- stats ---------------------------------------------------------------------------------------

def stats_game(checked: Checked) -> str:
    """The year the game's Date tag writes, first or last ('unknown' without one)."""
    game = checked.game
    date = game.tag("Date", "") if isinstance(game, Game) else ""
    year = _YEAR.search(date or "")
    return year.group() if year else "unknown"


@dataclass
class Stats:
    """Counts over an archive: validity, variants, results, years and length."""

    summary: report.Summary = field(default_factory=report.Summary)
    results: Counter[str] = field(default_factory=Counter)
    years: Counter[str] = field(default_factory=Counter)
    plies: int = 0

    def add(self, record: Record, year: str) -> None:
        self.summary.add(record)
        self.results[record.result or "none"] += 1
        self.years[year] += 1
        self.plies += record.plies

    def merge(self, other: Stats) -> None:
        """Add the counts of `other`, the stats of the games that follow these (counts of equal size keep
        their order: the one first seen comes first)."""
        self.summary.merge(other.summary)
        self.results.update(other.results)
        self.years.update(other.years)
        self.plies += other.plies

    def as_dict(self) -> dict[str, object]:
        games = self.summary.games
        return {"games": games, "valid": self.summary.valid, "invalid": games - self.summary.valid,
                "average_plies": round(self.plies / games, 1) if games else 0.0,
                "variants": dict(sorted(self.summary.variants.items())),
                "outcomes": {name: count for name, count, _ in self.outcomes()},
                "results": dict(self.results.most_common()),
                "years": dict(sorted(self.years.items())),
                "errors": dict(self.summary.errors.most_common())}

    def outcomes(self) -> list[tuple[str, int, str]]:
        """(outcome, games, the spellings seen with their counts) per outcome, the starting side's
        wins first; results that state no outcome (`*`, `0-0`, none) last."""
        found: dict[str, Counter[str]] = {}
        for result, count in self.results.most_common():
            stated = outcome(result) if result != "none" else None
            found.setdefault(stated.value if stated is not None else "unknown", Counter())[result] += count
        order = [Outcome.FIRST.value, Outcome.SECOND.value, Outcome.DRAW.value, "unknown"]
        return [(name, sum(found[name].values()),
                 ", ".join(f"{spelling} {n:,}" for spelling, n in found[name].items()))
                for name in order if name in found]

    def lines(self) -> list[str]:
        """The counts as aligned tables."""
        data = self.as_dict()
        out = [f"{self.summary.headline()}; average length {data['average_plies']} plies", ""]
        out += report.table(("variant", "games", "valid", "invalid"), self.summary.variant_rows())
        labels = {**{stated.value: label for stated, label in LABELS.items()}, "unknown": NO_RESULT}
        out += [""] + report.table(("result", "games", "written"),
                                   [(labels[name], count, spellings) for name, count, spellings in self.outcomes()])
        out += [""] + report.table(("year", "games"), sorted(self.years.items()))
        if self.summary.errors:
            out += [""] + report.table(("error", "errors"), self.summary.errors.most_common())
        return out


@dataclass(frozen=True)
class StatsPart:
    """The stats of a range's games and the lines of their errors (for stderr): what a `--dask` worker
    sends back for a range, so that the client has nothing to do per game."""

    stats: Stats
    notes: tuple[str, ...]

    @property
    def summary(self) -> report.Summary:
        return self.stats.summary


def stats_part(results: list[tuple[Record, str]]) -> StatsPart:
    """The StatsPart of `(record, year)` results, in order."""
    stats = Stats()
    notes: list[str] = []
    for record, year in results:
        stats.add(record, year)
        notes += report.text_lines(record, warnings=False)
    return StatsPart(stats, tuple(notes))


# ---- split ---------------------------------------------------------------------------------------

def earlier_parts(folder: str, prefix: str) -> list[str]:
    """The files of an earlier `split` with this prefix in `folder` (PREFIX-00001.pdn, ...), in order."""
    part = re.compile(re.escape(prefix) + r"-[0-9]{5,}\.pdn")     # the digits split writes, not any \d
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, name) for name in os.listdir(folder) if part.fullmatch(name))


def unlink_if_not_a_file(path: str) -> None:
    """Remove `path` when it is a symbolic link, a FIFO, a socket or a device: a part `split` writes
    replaces the entry in its folder, and never writes through it to somewhere else."""
    with contextlib.suppress(FileNotFoundError):
        mode = os.lstat(path).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            os.unlink(path)


def pass_game(checked: Checked) -> str:
    """The game's text, for passing it on unchanged ('' when it was not kept: see `game_text`)."""
    return game_text(checked.game)
