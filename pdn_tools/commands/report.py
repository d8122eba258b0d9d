"""Validation reports: one record per game, as text lines or JSON, and a summary."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from pdn_tools.running.output import printable
from pdn_tools.text.model import Diagnostic, Game, ReadError
from pdn_tools.play.replay import Replay, replay
from pdn_tools.rules.variants import Variant
from pdn_tools.text.tags import game_name, tag_pairs


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
        return {"file": game.file, "game": game.index, "name": game_name(dict(reversed(tag_pairs(game.text)))),
                "line": game.line, "variant": "unknown",
                "ok": False, "plies": 0, "result": "", "errors": [error.as_dict()],
                "warnings": [w.as_dict() for w in game.warnings]}, None
    result = replay(game, variant, strict)
    return {
        "file": game.file, "game": game.index, "name": game_name(dict(reversed(game.tags))), "line": game.line,
        "variant": result.variant.name if result.variant else "unknown",
        "ok": result.ok, "plies": len(result.plies) if result.complete else len(game.main_line()),
        "result": game.tag("Result") or game.result or "",
        "errors": [_entry(d, result) for d in result.errors],
        "warnings": [_entry(d, result) for d in game.warnings + result.warnings],
    }, result


def game_label(record: dict) -> str:
    """`game 3 (Anna Visser – Bram de Wit, Open round 2)`: the index, and the name when tags give one."""
    return f"game {record['game']} ({record['name']})" if record.get("name") else f"game {record['game']}"


def problem_line(record: dict, entry: dict, warning: bool) -> str:
    """`file:line:col: game N (name), ply P (move 12... 28x19): [warning: ]message [code]`."""
    where = game_label(record)
    if entry.get("ply"):
        where += f", ply {entry['ply']}"
        if "move" in entry:
            where += f" (move {entry['move']})"
    return (f"{printable(record['file'])}:{entry['line']}:{entry['column']}: {where}: "
            f"{'warning: ' if warning else ''}{entry['message']} [{entry['code']}]")


def numbered_lines(record: dict, warnings: bool = True) -> list[tuple[str, int | None]]:
    """A line for each error (and warning) of a game, in their order in the file, each with
    its error's index in the record's errors (None for a warning)."""
    problems: list[tuple[dict, int | None]] = list(zip(record["errors"], range(len(record["errors"]))))
    problems += [(entry, None) for entry in record["warnings"]] if warnings else []
    problems.sort(key=lambda problem: (problem[0]["line"], problem[0]["column"]))
    return [(problem_line(record, entry, index is None), index) for entry, index in problems]


def text_lines(record: dict, warnings: bool = True) -> list[str]:
    """A line for each error (and warning) of a game, in their order in the file."""
    return [line for line, _ in numbered_lines(record, warnings)]


class TextReport:
    """validate's text report.  Every error, as its game comes; warnings one by one (`each`),
    grouped per file (`grouped`: one line per code, its first place in the file, with the
    count) or left out (`none`); `ignore` leaves warning codes out."""

    def __init__(self, warnings: str = "grouped", ignore: frozenset[str] = frozenset()) -> None:
        self.mode, self.ignore = warnings, ignore
        self.file: str | None = None
        self.groups: dict[str, list] = {}          # code -> [count, line of its first warning]

    def lines(self, record: dict, render: Callable[..., list[str]] = text_lines) -> list[str]:
        """The lines to write once `record` is in (a file's groups when the next file starts);
        `render(record, warnings=...)` makes a game's own lines."""
        out = self.close() if record["file"] != self.file else []
        self.file = record["file"]
        shown = dict(record, warnings=[w for w in record["warnings"] if w["code"] not in self.ignore])
        out += render(shown, warnings=self.mode == "each")
        if self.mode == "grouped":
            for entry in shown["warnings"]:
                group = self.groups.setdefault(entry["code"], [0, problem_line(record, entry, True)])
                group[0] += 1
        return out

    def close(self) -> list[str]:
        """The grouped warnings of the file read last."""
        lines = [first if count == 1 else f"{first} (first of {count:,} in this file)"
                 for count, first in self.groups.values()]
        self.groups = {}
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

    def headline(self) -> str:
        return f"{self.games:,} games, {self.valid:,} valid, {self.games - self.valid:,} invalid"

    def variant_rows(self) -> list[tuple[str, int, int, int]]:
        return [(variant, count, count - self.invalid_variants[variant], self.invalid_variants[variant])
                for variant, count in sorted(self.variants.items())]

    def code_rows(self) -> list[tuple[str, str, int]]:
        return ([(code, "error", n) for code, n in self.errors.most_common()]
                + [(code, "warning", n) for code, n in self.warnings.most_common()])

    def lines(self) -> list[str]:
        """The summary as aligned tables: games per variant, problems per code."""
        out = [self.headline(), ""] + table(("variant", "games", "valid", "invalid"), self.variant_rows())
        if self.errors or self.warnings:
            out += [""] + table(("code", "kind", "count"), self.code_rows())
        return out

    def as_dict(self) -> dict:
        return {"games": self.games, "valid": self.valid, "variants": dict(self.variants),
                "invalid_by_variant": dict(self.invalid_variants), "errors": dict(self.errors),
                "warnings": dict(self.warnings)}


def table(header: tuple[str, ...], rows: list[tuple[str | int, ...]]) -> list[str]:
    """`rows` aligned in columns under `header`: numbers (with thousands separators) to the
    right, text to the left."""
    numeric = [bool(rows) and all(isinstance(row[i], int) for row in rows) for i in range(len(header))]
    cells = [list(header)] + [[f"{value:,}" if isinstance(value, int) else value for value in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return ["  ".join(cell.rjust(width) if right else cell.ljust(width)
                      for cell, width, right in zip(row, widths, numeric)).rstrip() for row in cells]
