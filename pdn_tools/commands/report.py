"""Validation reports: one record per game, as text lines or JSON, and a summary."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from pdn_tools.text.model import Diagnostic, Game, ReadError
from pdn_tools.play.replay import Replay, replay
from pdn_tools.rules.variants import Variant


def move_label(result: Replay, ply: int) -> str:
    """'12... 28x19' for main-line ply `ply` (1-based), numbered from the first player."""
    offset = 0 if result.start is None or result.start.turn == result.variant.first else 1
    index = ply - 1 + offset
    number = index // 2 + 1
    moves = result.game.main_line()
    text = moves[ply - 1].text if ply <= len(moves) else "?"
    return f"{number}{'...' if index % 2 else '.'} {text}"


def _entry(diagnostic: Diagnostic, result: Replay | None) -> dict:
    entry = diagnostic.as_dict()
    if result is not None and result.variant is not None and diagnostic.ply:
        entry["move"] = move_label(result, diagnostic.ply)
    return entry


def check(game: Game | ReadError, variant: Variant | None = None, strict: bool = False) -> dict:
    """The validation record of one game (the JSON object of `validate --format jsonl`)."""
    return checked(game, variant, strict)[0]


def checked(game: Game | ReadError, variant: Variant | None = None,
            strict: bool = False) -> tuple[dict, Replay | None]:
    """The validation record of one game and its replay (None for a game that could not be read)."""
    if isinstance(game, ReadError):
        error = Diagnostic(game.code, game.message, game.line, game.column)
        return {"file": game.file, "game": game.index, "line": game.line, "variant": "unknown",
                "ok": False, "plies": 0, "result": "", "errors": [error.as_dict()],
                "warnings": [w.as_dict() for w in game.warnings]}, None
    result = replay(game, variant, strict)
    return {
        "file": game.file, "game": game.index, "line": game.line,
        "variant": result.variant.name if result.variant else "unknown",
        "ok": result.ok, "plies": len(result.plies) if result.complete else len(game.main_line()),
        "result": game.tag("Result") or game.result or "",
        "errors": [_entry(d, result) for d in result.errors],
        "warnings": [_entry(d, result) for d in game.warnings + result.warnings],
    }, result


def text_lines(record: dict, warnings: bool = True) -> list[str]:
    """`file:line:col: game N, ply P (move 12... 28x19): message` for each problem."""
    lines = []
    kinds = [("", record["errors"])] + ([("warning: ", record["warnings"])] if warnings else [])
    for prefix, entries in kinds:
        for entry in entries:
            where = f"game {record['game']}"
            if entry.get("ply"):
                where += f", ply {entry['ply']}"
                if "move" in entry:
                    where += f" (move {entry['move']})"
            lines.append(f"{record['file']}:{entry['line']}:{entry['column']}: {where}: "
                         f"{prefix}{entry['message']} [{entry['code']}]")
    return lines


def json_line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False)


@dataclass
class Summary:
    """Counts over a batch: games, valid games, problems per code and per variant."""

    games: int = 0
    valid: int = 0
    errors: Counter = field(default_factory=Counter)
    warnings: Counter = field(default_factory=Counter)
    variants: Counter = field(default_factory=Counter)
    invalid_variants: Counter = field(default_factory=Counter)

    def add(self, record: dict) -> None:
        self.games += 1
        self.valid += record["ok"]
        self.variants[record["variant"]] += 1
        if not record["ok"]:
            self.invalid_variants[record["variant"]] += 1
        for entry in record["errors"]:
            self.errors[entry["code"]] += 1
        for entry in record["warnings"]:
            self.warnings[entry["code"]] += 1

    def lines(self) -> list[str]:
        out = [f"{self.games} games, {self.valid} valid, {self.games - self.valid} invalid"]
        for variant, count in sorted(self.variants.items()):
            out.append(f"  {variant}: {count} games, {count - self.invalid_variants[variant]} valid")
        for title, counter in (("errors", self.errors), ("warnings", self.warnings)):
            if counter:
                out.append(f"{title}: " + ", ".join(f"{code} {n}" for code, n in counter.most_common()))
        return out

    def as_dict(self) -> dict:
        return {"games": self.games, "valid": self.valid, "variants": dict(self.variants),
                "invalid_by_variant": dict(self.invalid_variants), "errors": dict(self.errors),
                "warnings": dict(self.warnings)}
