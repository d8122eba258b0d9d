"""Output: files replaced atomically, and a game's PDN text as passed on unchanged."""
from __future__ import annotations

import contextlib
import os
import tempfile
from typing import IO, Iterator

from pdn_tools.text.model import Game, ReadError
from pdn_tools.text.writer import write_game


def game_text(game: Game | ReadError) -> str:
    """PDN for a game passed on: written from the model, or as read when it could not be read."""
    if isinstance(game, ReadError):
        return game.text.rstrip("\n") + "\n\n"
    return write_game(game)


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A text file that replaces `path` only when the block ends without an error
    (written beside it, then renamed); on an error nothing is left behind."""
    folder = os.path.dirname(os.path.abspath(path))
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, prefix=".pdn-", suffix=".tmp",
                                         delete=False)
    try:
        with handle:
            yield handle
        os.chmod(handle.name, os.stat(path).st_mode & 0o7777 if os.path.exists(path) else 0o666 & ~_umask())
        os.replace(handle.name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(handle.name)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
