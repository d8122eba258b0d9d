"""pdn-tools: read, validate and convert draughts games in PDN; a typed library of boards and rules.

The names below load their modules on first use, so that starting the command line
(and a Ctrl-C while it starts) does not wait for the parser to load.  The board API:
`Position.initial(variant)` or `Position.from_fen(variant, fen)`, `position.legal_moves()`,
`position.play(move)`, `move_text(position, move, Style(...))`, `position.fen()`,
`perft(position, depth)`, `svg(Board(position))`; `game.headers` maps tag names to values,
`replay(game).mainline()` gives the plies with their positions, `check(game)` the record
`pdn validate` reports.  Examples: docs/library.md.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.1.0"        # the distribution's version too (pyproject.toml reads it here)

if TYPE_CHECKING:     # each name imported `as` itself: an explicit re-export, for `mypy --strict` in users' scripts
    from pdn_tools.play.board import Board as Board
    from pdn_tools.play.board_svg import svg as svg
    from pdn_tools.play.check import Checked as Checked, Record as Record, check as check
    from pdn_tools.play.notation import Style as Style, move_text as move_text
    from pdn_tools.play.replay import Ply as Ply, Replay as Replay, full_path as full_path, replay as replay
    from pdn_tools.rules.fen import FenError as FenError, parse_fen as parse_fen, to_fen as to_fen
    from pdn_tools.rules.movegen import Move as _LegalMove, Position as Position, perft as perft
    from pdn_tools.rules.variants import VARIANTS as VARIANTS, Variant as Variant, variant_by_name as variant_by_name
    from pdn_tools.text.codes import Code as Code
    from pdn_tools.text.model import (Comment as Comment, Game as Game, MoveNumber as MoveNumber, Nag as Nag,
                                      NotatedMove as NotatedMove, Placeholder as Placeholder,
                                      ReadError as ReadError, Setup as Setup, Variation as Variation)
    from pdn_tools.play.reading import read_games as read_games, read_text as read_text
    LegalMove = _LegalMove               # the names _RENAMED gives: aliases, exported as assigned
    Move = NotatedMove

_HOMES = {"Comment": "text.model", "Game": "text.model", "NotatedMove": "text.model", "MoveNumber": "text.model", "Nag": "text.model",
          "Placeholder": "text.model", "ReadError": "text.model", "Setup": "text.model", "Variation": "text.model",
          "read_games": "play.reading", "read_text": "play.reading", "Code": "text.codes",
          "Variant": "rules.variants", "VARIANTS": "rules.variants", "variant_by_name": "rules.variants",
          "Position": "rules.movegen", "perft": "rules.movegen",
          "FenError": "rules.fen", "parse_fen": "rules.fen", "to_fen": "rules.fen",
          "replay": "play.replay", "Replay": "play.replay", "Ply": "play.replay", "full_path": "play.replay",
          "Style": "play.notation", "move_text": "play.notation",
          "check": "play.check", "Checked": "play.check", "Record": "play.check",
          "Board": "play.board", "svg": "play.board_svg"}
_RENAMED = {"LegalMove": ("rules.movegen", "Move"),      # a legal move, apart from a notated move
            "Move": ("text.model", "NotatedMove")}       # the notated move's first name, kept for scripts
__all__ = [*_HOMES, *_RENAMED, "__version__"]


def __getattr__(name: str) -> object:
    home, attribute = _RENAMED.get(name) or (_HOMES.get(name), name)
    if home is None:
        raise AttributeError(f"module 'pdn_tools' has no attribute {name!r}")
    value = globals()[name] = getattr(import_module(f".{home}", __name__), attribute)
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
