"""`Move`: a legal move in square numbers, the value every engine answers with."""

from __future__ import annotations

from pdn_tools.text.records import record

__all__ = ["Move"]

_set = object.__setattr__          # a frozen record's fields are set so (as @dataclass sets them)


@record(frozen=True, slots=True)
class Move:
    """A move in square numbers: `path` lists every landing square, `captured` in capture order."""

    start: int
    path: tuple[int, ...]
    captured: tuple[int, ...] = ()
    promotes: bool = False

    def __init__(self, start: int, path: tuple[int, ...], captured: tuple[int, ...] = (),
                 promotes: bool = False) -> None:
        _set(self, "start", start)
        _set(self, "path", path)
        _set(self, "captured", captured)
        _set(self, "promotes", promotes)

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def __str__(self) -> str:
        return f"{self.start}{'x' if self.captured else '-'}{self.path[-1]}"
