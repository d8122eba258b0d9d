"""`pdn diagram`: the board after a ply of one game, as text, SVG or PNG."""
from __future__ import annotations

import os
import sys

import click

from pdn_tools.cli.choices import PICTURE_FORMATS
from pdn_tools.cli.options import Needs, Reading, Writing, format_option, reading_options, writing_options
from pdn_tools.cli.run import command, not_to_terminal, write_file
from pdn_tools.running.output import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from pdn_tools.text.names import printable


def _picture(fmt: str | None, output: str | None) -> bool:
    """Whether a picture is drawn (SVG or PNG, by --format or the suffix of -o FILE), not a text board."""
    from pdn_tools.play.pictures import format_for

    return (fmt or format_for(output)) != "text"


@command("diagram", [
    "pdn diagram games.pdn --game 3 --ply 24             # text board after ply 24 of game 3",
    "pdn diagram games.pdn --game 3 -o final.svg"])
@click.argument("path", default="-")
@click.option("--game", "number", type=click.IntRange(1), default=1, show_default=True, help="Game of PATH.")
@click.option("--ply", type=click.IntRange(0), help="Plies played: 0 is the start  [default: the last].")
@format_option(PICTURE_FORMATS, None,
               "Text board or picture  [default: from the suffix of -o FILE (.svg, .png), else text].")
@click.option("--size", type=click.IntRange(64, 8192), metavar="PIXELS", cls=Needs, needs=lambda params:
              _picture(params["fmt"], params["output"]), what="goes with --format svg or png",
              help="Width of the picture  [default: 50 pixels a square].")
@click.option("--labels", type=click.Choice(["numbers", "algebraic"]),
              help="Square names  [default: the variant's notation].")
@click.option("--flip", is_flag=True, help="Black at the bottom.")
@writing_options(partial=False, help="File to write (atomically; FILE.gz .bz2 .xz .zst compressed).")
@reading_options(paths=False, jobs=False, quiet=None)
def diagram(path: str, number: int, ply: int | None, fmt: str | None, size: int | None, labels: str | None,
            flip: bool, writing: Writing, reading: Reading) -> None:
    """Draw the position after a ply of one game of PATH (a file or - for stdin)."""
    from pdn_tools.commands import report
    from pdn_tools.play.board import DiagramError, board_after
    from pdn_tools.play.check import check_by
    from pdn_tools.play.pictures import PICTURES, MissingExtra, format_for
    from pdn_tools.running import batch
    from pdn_tools.text.reader import parse_raw

    output = None if writing.to_stdout() else writing.output     # `-o -`: standard output, as everywhere
    if os.path.isdir(path):
        raise click.BadParameter(f"{printable(path)} is a folder: name one file", param_hint="PATH")
    if path == "-" and sys.stdin.isatty():
        raise click.UsageError("name the file to draw from (or - for stdin)")
    form = PICTURES[fmt or format_for(output)]()
    if form.binary:
        not_to_terminal(writing)
    checking = reading.checking()
    inputs = batch.Inputs((path,), encoding=reading.encoding, max_game_bytes=reading.max_game_bytes)
    found = next((raw for index, raw in enumerate(inputs.raw_games(checking.engine), 1) if index == number), None)
    if found is None:
        if inputs.unreadable:
            sys.exit(EXIT_USAGE)
        raise click.BadParameter(f"{printable(path)} has fewer than {number} games", param_hint="--game")
    game = parse_raw(found[0], found[1], checking.strict, found[2], checking.engine)
    checked = check_by(game, checking)
    record, replayed = checked.record, checked.replay
    for line in report.text_lines(record, warnings=False):
        click.echo(line, err=True)
    if replayed is None or replayed.start is None:     # not read, or no position to start from: reported
        sys.exit(EXIT_INVALID)
    alpha = None if labels is None else labels == "algebraic"
    try:
        board = board_after(replayed, ply, alpha, flip)
    except DiagramError as error:
        raise click.BadParameter(f"{printable(game.file)}:{game.line}: game {number}: {error}", param_hint="--ply")
    try:
        picture = form.draw(replayed, board, ply, size)
    except MissingExtra as error:
        click.echo(f"pdn: {error}", err=True)
        sys.exit(EXIT_USAGE)
    if output:
        write_file(output, [picture])
    elif isinstance(picture, bytes):
        sys.stdout.buffer.write(picture)
    else:
        click.echo(picture, nl=False)
    sys.exit(EXIT_OK if record.ok else EXIT_INVALID)
