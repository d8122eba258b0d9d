"""The `pdn` command line."""
from __future__ import annotations

import sys

import click

from .reader import read_games


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdn-tools")
def main() -> None:
    """Read, validate and convert draughts games in PDN."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--strict", is_flag=True, help="Report tolerated quirks of real files as errors.")
def validate(paths: tuple[str, ...], strict: bool) -> None:
    """Check every game of PATHS (files, folders, or - for stdin)."""
    from .reader import iter_paths
    bad = 0
    for path in iter_paths(paths):
        for game in read_games(path, strict=strict):
            if not hasattr(game, "tags"):
                click.echo(str(game))
                bad += 1
    sys.exit(1 if bad else 0)
