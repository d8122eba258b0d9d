"""Archive tools in the manner of pgn-extract: filter, dedupe, stats and split.

Each tool has a per-game function, run by `batch.run` (in worker processes with --jobs),
that checks the game as `validate` does and returns its record with what the tool
needs: the text to pass on, a hash, a year.  Only these small values travel back.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field

from pdn_tools.commands import report
from pdn_tools.rules.fen import FenError, parse_fen, to_fen
from pdn_tools.text.model import Game, ReadError
from pdn_tools.running.output import game_text
from pdn_tools.play.replay import Replay
from pdn_tools.rules.variants import Variant

_YEAR = re.compile(r"\s*(\d{4})")


@dataclass(frozen=True)
class Criteria:
    """What `pdn filter` keeps; a game must meet every criterion given."""

    tags: tuple[tuple[str, re.Pattern], ...] = ()   # tag name, pattern searched in its value
    player: re.Pattern | None = None                # searched in White and Black
    result: str | None = None
    variant: Variant | None = None
    valid: bool | None = None
    min_plies: int | None = None
    max_plies: int | None = None
    position: str | None = None                     # a FEN reached on the main line

    def needs_game(self) -> bool:
        """Whether a criterion looks into the game (a game that cannot be read fails it)."""
        return bool(self.tags or self.player or self.result or self.variant or self.position
                    or self.min_plies is not None or self.max_plies is not None)


def matches(game: Game | ReadError, record: dict, result: Replay | None, criteria: Criteria) -> bool:
    """Whether a checked game meets `criteria`."""
    if criteria.valid is not None and record["ok"] != criteria.valid:
        return False
    if not criteria.needs_game():
        return True
    if isinstance(game, ReadError) or result is None:
        return False
    for name, pattern in criteria.tags:
        value = game.tag(name)
        if value is None or not pattern.search(value):
            return False
    if criteria.player and not any(criteria.player.search(game.tag(side) or "") for side in ("White", "Black")):
        return False
    if criteria.result is not None and criteria.result != (game.tag("Result") or game.result or ""):
        return False
    if criteria.variant is not None and result.variant != criteria.variant:
        return False
    plies = record["plies"]
    if criteria.min_plies is not None and plies < criteria.min_plies:
        return False
    if criteria.max_plies is not None and plies > criteria.max_plies:
        return False
    return criteria.position is None or reaches(result, criteria.position)


def reaches(result: Replay, fen: str) -> bool:
    """Whether the position of `fen` (side to move included) stands on the replayed main line."""
    if result.variant is None or result.start is None:
        return False
    try:
        wanted = parse_fen(result.variant, fen)
    except FenError:
        return False
    return result.start == wanted or any(ply.after == wanted for ply in result.plies)


def filter_game(game: Game | ReadError, criteria: Criteria, strict: bool = False) -> tuple[dict, str | None]:
    """The game's record, and its text when it meets `criteria`."""
    record, result = report.checked(game, None, strict)
    return record, game_text(game) if matches(game, record, result, criteria) else None


# ---- dedupe ---------------------------------------------------------------------------------------

def moves_key(game: Game | ReadError, result: Replay | None) -> str:
    """The game's moves in a canonical form: variant, start position, then each move as
    resolved by the replay (start and landing squares), else as written."""
    if isinstance(game, ReadError):
        return "unreadable\n" + " ".join(game.text.split())
    plies = result.plies if result is not None else []
    variant = result.variant.name if result is not None and result.variant else "?"
    start = to_fen(result.start) if result is not None and result.start else game.tag("FEN", "")
    moves = [f"{p.move.start}-{'-'.join(map(str, p.move.path))}" for p in plies]
    moves += [_written(m.squares, m.capture) for m in game.main_line()[len(plies):]]
    return f"{variant}\n{start}\n{' '.join(moves)}"


def _written(squares: tuple[str, ...], capture: bool) -> str:
    names = [str(int(s)) if s.isdigit() else s.lower() for s in squares]
    return ("x" if capture else "-").join(names)


def dedupe_game(game: Game | ReadError, with_tags: bool, variant: Variant | None = None,
                strict: bool = False) -> tuple[dict, tuple[bytes, str]]:
    """The game's record, a hash of its moves (and tags), and its text."""
    record, result = report.checked(game, variant, strict)
    key = moves_key(game, result)
    if with_tags and isinstance(game, Game):
        key += "\n" + "\n".join(sorted(f"{name}={value}" for name, value in game.tags))
    return record, (hashlib.blake2b(key.encode("utf-8"), digest_size=16).digest(), game_text(game))


# ---- stats ---------------------------------------------------------------------------------------

def stats_game(game: Game | ReadError, variant: Variant | None = None, strict: bool = False) -> tuple[dict, str]:
    """The game's record and the year of its Date tag ('unknown' without one)."""
    record = report.check(game, variant, strict)
    date = game.tag("Date", "") if isinstance(game, Game) else ""
    year = _YEAR.match(date or "")
    return record, year.group(1) if year else "unknown"


@dataclass
class Stats:
    """Counts over an archive: validity, variants, results, years and length."""

    summary: report.Summary = field(default_factory=report.Summary)
    results: Counter = field(default_factory=Counter)
    years: Counter = field(default_factory=Counter)
    plies: int = 0

    def add(self, record: dict, year: str) -> None:
        self.summary.add(record)
        self.results[record["result"] or "none"] += 1
        self.years[year] += 1
        self.plies += record["plies"]

    def as_dict(self) -> dict:
        games = self.summary.games
        return {"games": games, "valid": self.summary.valid, "invalid": games - self.summary.valid,
                "average_plies": round(self.plies / games, 1) if games else 0.0,
                "variants": dict(sorted(self.summary.variants.items())),
                "results": dict(self.results.most_common()),
                "years": dict(sorted(self.years.items())),
                "errors": dict(self.summary.errors.most_common())}

    def lines(self) -> list[str]:
        data = self.as_dict()
        out = [f"{data['games']} games, {data['valid']} valid, {data['invalid']} invalid",
               f"average length: {data['average_plies']} plies"]
        for title in ("variants", "results", "years", "errors"):
            if data[title]:
                out.append(f"{title}: " + ", ".join(f"{key} {n}" for key, n in data[title].items()))
        return out


# ---- split ---------------------------------------------------------------------------------------

def pass_game(game: Game | ReadError, variant: Variant | None = None, strict: bool = False) -> tuple[dict, str]:
    """The game's record and its text, for passing it on unchanged."""
    return report.check(game, variant, strict), game_text(game)
