"""A game's PDN text as passed on by the tools that copy games through."""
from __future__ import annotations

from .model import Game, ReadError
from .writer import write_game


def game_text(game: Game | ReadError) -> str:
    """PDN for a game passed on: written from the model, or as read when it could not be read."""
    if isinstance(game, ReadError):
        return game.text.rstrip("\n") + "\n\n"
    return write_game(game)
