"""The formats `pdn diagram` draws a board in, one class each in PICTURES (a new format is one
subclass and its line there): a text board, SVG, and PNG (SVG rendered through resvg, the
optional `png` extra)."""
from __future__ import annotations

import os
from abc import ABC, abstractmethod
from typing import ClassVar

from pdn_tools.play.board import Board, caption, caption_lines
from pdn_tools.play.board_svg import svg
from pdn_tools.play.board_text import text
from pdn_tools.play.replay import Replay

PNG_EXTRA = "png"


class MissingExtra(RuntimeError):
    """An optional dependency that is not installed."""


class Picture(ABC):
    """One --format of `pdn diagram`: the board after a ply of a replayed game, with its caption."""

    suffix: ClassVar[str] = ""          # the suffix of -o FILE that asks for this format
    binary: ClassVar[bool] = False      # bytes: never written to a terminal

    @abstractmethod
    def draw(self, result: Replay, board: Board, ply: int | None = None, width: int | None = None) -> str | bytes:
        """The board after `ply` of `result` (None: the last), `width` pixels wide when it is a picture."""


class TextPicture(Picture):
    """A text board under a caption line (board_text.py)."""

    def draw(self, result: Replay, board: Board, ply: int | None = None, width: int | None = None) -> str:
        return text(board, caption(result, ply))


class SvgPicture(Picture):
    """An SVG picture with the caption's lines under the board (board_svg.py)."""

    suffix = ".svg"

    def draw(self, result: Replay, board: Board, ply: int | None = None, width: int | None = None) -> str:
        return svg(board, caption(result, ply), caption_lines(result, ply), width)


class PngPicture(Picture):
    """The SVG picture rendered as PNG bytes."""

    suffix = ".png"
    binary = True

    def draw(self, result: Replay, board: Board, ply: int | None = None, width: int | None = None) -> bytes:
        return png(SvgPicture().draw(result, board, ply, width))


PICTURES: dict[str, type[Picture]] = {"text": TextPicture, "svg": SvgPicture, "png": PngPicture}


def format_for(output: str | None) -> str:
    """The format a file name asks for by its suffix (.svg, .png), else a text board."""
    suffix = os.path.splitext(output or "")[1].lower()
    return next((name for name, kind in PICTURES.items() if kind.suffix == suffix), "text")


def png(picture: str) -> bytes:
    """The SVG `picture` rendered as PNG bytes, through resvg (the optional `png` extra)."""
    try:
        import resvg_py
    except ImportError:
        raise MissingExtra(f"writing PNG needs the optional '{PNG_EXTRA}' extra: "
                           f"pip install 'pdn-tools[{PNG_EXTRA}]'") from None
    data: bytes = bytes(resvg_py.svg_to_bytes(svg_string=picture))
    return data
