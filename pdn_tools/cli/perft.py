"""`pdn perft` and `pdn variants`: the rules themselves, no games read."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

import click

from pdn_tools.cli.choices import MAX_PERFT_DEPTH
from pdn_tools.cli.options import VARIANT, Writing, format_option, writing_options
from pdn_tools.cli.run import command, output

if TYPE_CHECKING:      # a run imports it, not `pdn perft --help` (docs/start-up.md)
    from pdn_tools.rules.variants import Variant


@command("perft", [
    "pdn perft --variant international --depth 6",
    "pdn perft --variant english --depth 3 --fen 'B:W18:B14' --divide"])
@click.option("--variant", type=VARIANT, required=True, metavar="NAME", help="Variant name or number.")
@click.option("--depth", type=click.IntRange(1, MAX_PERFT_DEPTH), required=True,
              help=f"Plies to search (1 to {MAX_PERFT_DEPTH}).")
@click.option("--fen", help="Start position (default: the variant's initial position).")
@click.option("--divide", "split", is_flag=True, help="Also count below each first move.")
@click.option("--keep-duplicates", is_flag=True,
              help="Count captures that differ only in the order of the pieces taken separately.")
@writing_options(partial=False)
def perft(variant: Variant, depth: int, fen: str | None, split: bool, keep_duplicates: bool,
          writing: Writing) -> None:
    """Count the leaf nodes of the move tree, one line per depth: `depth <d> <count>`."""
    from pdn_tools.rules.fen import FenError, parse_fen
    from pdn_tools.rules.movegen import Position, divided, perft as count_leaves

    try:
        position = parse_fen(variant, fen) if fen else Position.initial(variant)
    except FenError as error:
        raise click.BadParameter(f"{error.message} (at column {error.column + 1})", param_hint="--fen")
    with output(writing) as out:
        if split:
            for move, count in divided(position, depth, keep_duplicates):     # in the variant's notation
                squares = (variant.square_text(move.start), variant.square_text(move.end))
                out.write(f"{('x' if move.captured else '-').join(squares)} {count}\n")
                out.flush()
        for d in range(1, depth + 1):
            out.write(f"depth {d} {count_leaves(position, d, keep_duplicates)}\n")
            out.flush()


class VariantList(ABC):
    """One --format of `pdn variants` (a new format is one subclass and its line in VARIANT_FORMATS)."""

    @abstractmethod
    def lines(self, variants: list[Variant]) -> list[str]:
        """The lines that list `variants`."""


class VariantTable(VariantList):
    """An aligned table."""

    def lines(self, variants: list[Variant]) -> list[str]:
        from pdn_tools.commands import report

        rows = [(variant.name, variant.gametype, _board(variant), _notation(variant), ", ".join(variant.aliases))
                for variant in variants]
        return [line.rstrip() for line in report.table(("variant", "GameType", "board", "notation", "also"), rows)]


class VariantJson(VariantList):
    """One JSON object per variant."""

    def lines(self, variants: list[Variant]) -> list[str]:
        from pdn_tools.commands import report

        return [report.json_line({"name": variant.name, "gametype": variant.gametype, "board": _board(variant),
                                  "notation": _notation(variant), "aliases": list(variant.aliases)})
                for variant in variants]


VARIANT_FORMATS: dict[str, type[VariantList]] = {"text": VariantTable, "json": VariantJson}


def _board(variant: Variant) -> str:
    return f"{variant.rows}x{variant.cols}"


def _notation(variant: Variant) -> str:
    return "algebraic" if variant.alpha else "numeric"


@command("variants", [
    "pdn variants --format text        # name, GameType, board, notation, other names",
    "pdn variants --format json | jq -r 'select(.board == \"8x8\") | .name'"])
@format_option(VARIANT_FORMATS, "text", "An aligned table, or one JSON object per variant (one a line).")
def variants(fmt: str) -> None:
    """List the variants pdn knows: name, GameType number, board, notation and other names.

    Any of the names, or the GameType number, goes after --variant.
    """
    from pdn_tools.rules.variants import VARIANTS

    for line in VARIANT_FORMATS[fmt]().lines(list(VARIANTS.values())):
        click.echo(line)
