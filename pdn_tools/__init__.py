"""pdn-tools: read, validate and convert draughts games in PDN."""
from .model import Comment, Game, Move, MoveNumber, Nag, Placeholder, ReadError, Setup, Variation
from .reader import read_games, read_text

__all__ = ["Comment", "Game", "Move", "MoveNumber", "Nag", "Placeholder", "ReadError", "Setup",
           "Variation", "read_games", "read_text"]
