"""`pdn hub`: the built-in search as a Hub engine on stdin and stdout."""
from __future__ import annotations

import sys
import threading

import click

from pdn_tools import __version__
from pdn_tools.cli.choices import HUB_MAX_DEPTH
from pdn_tools.cli.run import command


@command("hub", [
    "pdn hub                                 # the built-in search as a Hub engine on stdin/stdout",
    "pdn hub --depth 8 < commands.txt         # searches 8 plies unless a level sets the depth"])
@click.option("--depth", type=click.IntRange(1, HUB_MAX_DEPTH), default=6, show_default=True,
              help="Plies searched when the GUI gives no depth (`level depth=N` does).")
def hub(depth: int) -> None:
    """Run the built-in search as a Hub engine on stdin and stdout.

    The protocol is the one of Scan and lidraughts: a Hub GUI, or `annotate --engine 'pdn hub'`,
    can use the built-in search through it."""
    from pdn_tools.commands import hub_engine

    lock = threading.Lock()

    def send(lines: list[str]) -> None:
        with lock:                      # the search's worker thread sends too
            for answer in lines:
                sys.stdout.write(answer + "\n")
            sys.stdout.flush()

    session = hub_engine.Session(depth, __version__, send)
    for line in sys.stdin:
        send(session.answer(line.rstrip("\r\n")))
        if session.quit:
            break
    session.wait()
