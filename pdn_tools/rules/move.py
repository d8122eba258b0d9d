"""`Move`: a legal move in square numbers, the value every engine answers with."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Move"]


@dataclass(frozen=True, slots=True)
class Move:
    """A move in square numbers: `path` lists every landing square, `captured` in capture order."""

    start: int
    path: tuple[int, ...]
    captured: tuple[int, ...] = ()
    promotes: bool = False

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def __str__(self) -> str:
        return f"{self.start}{'x' if self.captured else '-'}{self.path[-1]}"
