"""The library's reading entry points (`pdn_tools.read_games`, `pdn_tools.read_text`): the reader's,
with runs of moves read for the engine that will replay them, the environment's unless given, so
that a script's `replay(game)` takes the compiled path as `pdn` does.  The games are the same."""
from __future__ import annotations

from typing import Iterator

from pdn_tools.rules.core import Engine, engine_from_environment
from pdn_tools.text import reader
from pdn_tools.text.model import Game, ReadError
from pdn_tools.text.reader import MAX_GAME_BYTES
from pdn_tools.text.source import Source


def read_games(source: Source, strict: bool = False, name: str | None = None,
               encoding: str | None = None, *, max_game_bytes: int = MAX_GAME_BYTES,
               engine: Engine | None = None) -> Iterator[Game | ReadError]:
    """`text.reader.read_games` (its docstring says all), read for `engine` (None: the
    environment's, `PDN_TOOLS_PURE`); a `max_game_bytes` that is not an int is a TypeError, one
    below 1 a ValueError, raised at once."""
    if not isinstance(max_game_bytes, int):
        raise TypeError(f"max_game_bytes must be an int, not {type(max_game_bytes).__name__}")
    if max_game_bytes < 1:
        raise ValueError(f"max_game_bytes must be 1 or more, not {max_game_bytes}")
    return reader.read_games(source, strict, name, encoding, max_game_bytes=max_game_bytes,
                             engine=engine_from_environment() if engine is None else engine)


def read_text(text: str, strict: bool = False, name: str = "<string>",
              engine: Engine | None = None) -> list[Game | ReadError]:
    """All games of a PDN string (`text.reader.read_text`), read for `engine` as read_games."""
    return reader.read_text(text, strict, name, engine=engine_from_environment() if engine is None else engine)
