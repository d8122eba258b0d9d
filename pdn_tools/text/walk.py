"""One walk over movetext: every element in written order, into and out of variations.

    for frame in walk(game.elements):
        frame.element, frame.path, frame.ply, frame.closing

A variation gives two frames: one when it opens (before its elements) and one when it
closes (`closing=True`, after them).  `Walk.skip()` leaves the innermost open line: its
remaining elements are not visited, its closing frame still comes (skipping the main line
ends the walk).  The walk keeps its own stack, so any depth of nesting is followed.

A path is the element's index in its line after the indexes of the variations holding
it: `(4,)` is the main line's fifth element, `(4, 0)` the first element of the variation
at `(4,)`.  Paths are stable keys for a game's elements (unlike `id()`).  A `Path` reads as
that tuple, but is made from its parent's in constant time and memory (a tuple per element
would cost the square of the nesting depth), and is hashed and compared in constant time.

`ply` counts plies as the text alone tells them, from the `ply` the walk starts at: a move
or a placeholder is one ply, and a variation starts at the ply of the move it replaces
(the last one before it in its line).  Even plies are the first player's to move.
"""
from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator, NamedTuple, Union

from pdn_tools.text.model import Element, NotatedMove, Placeholder, Variation


class Path:
    """A path: its last index and the path of the line holding it (None for the main line).

    Equal to the tuple of its indexes (not a key in the same dict as tuples: its hash is its
    own), hashed in constant time (from its parent's hash).
    Two equal paths made apart (two walks of one game) are compared up to their first shared
    ancestor; a comparison that finds them equal then hands the first one's ancestors the
    second's (equal values, so no path changes), so each later comparison of their
    descendants stops at once: comparing stays constant time amortized at any depth."""

    __slots__ = ("parent", "index", "size", "_hash")
    parent: Path | None
    index: int
    size: int
    _hash: int

    def __init__(self, parent: Path | None, index: int) -> None:
        self.parent, self.index = parent, index
        self.size = 1 if parent is None else parent.size + 1
        self._hash = hash((None if parent is None else parent._hash, index))

    @staticmethod
    def of(indexes: Iterable[int], parent: Path | None = None) -> Path | None:
        """The path of `indexes` below `parent` (None when both are empty)."""
        for index in indexes:
            parent = Path(parent, index)
        return parent

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[int]:
        return iter(self.indexes())

    def __getitem__(self, position: int) -> int:
        return self.indexes()[position]

    def indexes(self) -> tuple[int, ...]:
        """The path as a tuple (time and memory in its length)."""
        out: list[int] = []
        node: Path | None = self
        while node is not None:
            out.append(node.index)
            node = node.parent
        return tuple(reversed(out))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple):
            return self.indexes() == other
        if not isinstance(other, Path):
            return NotImplemented
        a: Path | None = self
        b: Path | None = other
        visited: list[tuple[Path, Path]] = []
        while a is not b:
            if a is None or b is None or a.index != b.index or a.size != b.size or a._hash != b._hash:
                return False
            visited.append((a, b))
            a, b = a.parent, b.parent
        for mine, theirs in visited:        # equal: share the other's ancestors (see above)
            mine.parent = theirs.parent
        return True

    def __repr__(self) -> str:
        return repr(self.indexes())

    def __reduce__(self) -> tuple[type[Path], tuple[Path | None, int]]:
        """Pickled as its parent and index, its hash made again where it is read (hash(None), which
        it is made from, differs from one process to the next)."""
        return Path, (self.parent, self.index)


PathLike = Union[Path, tuple[int, ...]]


class Frame(NamedTuple):
    """One step of a walk: an element, where it stands, and the ply there."""

    element: Element
    path: Path
    ply: int
    closing: bool = False          # the second frame of a Variation, after its elements

    @property
    def depth(self) -> int:
        """0 in the walked line, 1 inside its variations, and so on."""
        return self.path.size - 1


class _Line:
    """An open line of the walk: its elements still to visit and its ply counts."""

    __slots__ = ("items", "path", "ply", "last", "variation")

    def __init__(self, elements: Iterable[Element], path: Path | None, ply: int, variation: Variation | None) -> None:
        self.items: Iterator[tuple[int, Element]] = enumerate(elements)
        self.path = path
        self.ply = ply                  # the ply of the next move
        self.last = ply                 # the ply of the last move, where a variation starts
        self.variation = variation


class Walk:
    """An iterable walk over `elements` whose paths start with `path` and plies at `ply`."""

    def __init__(self, elements: Iterable[Element], path: PathLike | None = None, ply: int = 0) -> None:
        self._elements = elements
        self._path = path if path is None or isinstance(path, Path) else Path.of(path)
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
                path = Path(line.path, index)
                if isinstance(element, Variation):
                    lines.append(_Line(element.elements, path, line.last, element))
                    yield Frame(element, path, line.last)
                    break
                yield Frame(element, path, line.ply)
                if isinstance(element, (NotatedMove, Placeholder)):
                    line.last = line.ply
                    line.ply += 1
            else:
                lines.pop()
                if line.variation is not None:
                    assert line.path is not None
                    yield Frame(line.variation, line.path, line.ply, True)


def walk(elements: Iterable[Element], path: PathLike | None = None, ply: int = 0) -> Walk:
    """The frames of `elements` (see the module docstring); keep the `Walk` to call `skip()`."""
    return Walk(elements, path, ply)
