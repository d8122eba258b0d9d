"""One walk over movetext: every element in written order, into and out of variations.

    for frame in walk(game.elements):
        frame.element, frame.path, frame.ply, frame.closing

A variation gives two frames: one when it opens (before its elements) and one when it
closes (`closing=True`, after them).  `Walk.skip()` leaves the innermost open line: its
remaining elements are not visited, its closing frame still comes (skipping the main line
ends the walk).  The walk keeps its own stack, so any depth of nesting is followed.

A path is the element's index in its line after the indexes of the variations holding
it: `(4,)` is the main line's fifth element, `(4, 0)` the first element of the variation
at `(4,)`.  Paths are stable keys for a game's elements (unlike `id()`).

`ply` counts plies as the text alone tells them, from the `ply` the walk starts at: a move
or a placeholder is one ply, and a variation starts at the ply of the move it replaces
(the last one before it in its line).  Even plies are the first player's to move.
"""
from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator, NamedTuple

from pdn_tools.text.model import Element, Move, Placeholder, Variation

Path = tuple[int, ...]


class Frame(NamedTuple):
    """One step of a walk: an element, where it stands, and the ply there."""

    element: Element
    path: Path
    ply: int
    closing: bool = False          # the second frame of a Variation, after its elements

    @property
    def depth(self) -> int:
        """0 in the walked line, 1 inside its variations, and so on."""
        return len(self.path) - 1


class _Line:
    """An open line of the walk: its elements still to visit and its ply counts."""

    __slots__ = ("items", "path", "ply", "last", "variation")

    def __init__(self, elements: Iterable[Element], path: Path, ply: int, variation: Variation | None) -> None:
        self.items: Iterator[tuple[int, Element]] = enumerate(elements)
        self.path = path
        self.ply = ply                  # the ply of the next move
        self.last = ply                 # the ply of the last move, where a variation starts
        self.variation = variation


class Walk:
    """An iterable walk over `elements` whose paths start with `path` and plies at `ply`."""

    def __init__(self, elements: Iterable[Element], path: Path = (), ply: int = 0) -> None:
        self._elements = elements
        self._path = path
        self._ply = ply
        self._lines: list[_Line] = []

    def skip(self) -> None:
        """Visit no more elements of the innermost open line (a variation just opened
        counts as open)."""
        if self._lines:
            deque(self._lines[-1].items, maxlen=0)      # the loop over them then ends

    def __iter__(self) -> Iterator[Frame]:
        lines = self._lines = [_Line(self._elements, self._path, self._ply, None)]
        while lines:
            line = lines[-1]
            for index, element in line.items:
                path = (*line.path, index)
                if isinstance(element, Variation):
                    lines.append(_Line(element.elements, path, line.last, element))
                    yield Frame(element, path, line.last)
                    break
                yield Frame(element, path, line.ply)
                if isinstance(element, (Move, Placeholder)):
                    line.last = line.ply
                    line.ply += 1
            else:
                lines.pop()
                if line.variation is not None:
                    yield Frame(line.variation, line.path, line.ply, True)


def walk(elements: Iterable[Element], path: Path = (), ply: int = 0) -> Walk:
    """The frames of `elements` (see the module docstring); keep the `Walk` to call `skip()`."""
    return Walk(elements, path, ply)
