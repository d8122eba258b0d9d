"""Types of the compiled move core (pdn_tools/rules/_*.c); see pdn_tools.rules.core."""

import threading
from collections.abc import Mapping, Sequence
from typing import Any, Callable

from pdn_tools.rules.core import Makers
from pdn_tools.rules.draws import CoreLimits
from pdn_tools.rules.laws import CaptureRecord

class Rules:
    def __init__(self, bits: Sequence[int], rays: Sequence[Sequence[Sequence[int]]],
                 promo: Sequence[Sequence[int]], man_jumps: Sequence[Sequence[int]],
                 man_steps: Sequence[Sequence[int]], king_steps: Sequence[int],
                 king_jumps: Sequence[int],
                 switches: tuple[int, int, int, int, int, int, int, int], makers: Makers, /) -> None: ...
    def has_capture(self, ci: int, own: int, opp: int, kings: int, /) -> bool: ...
    def has_move(self, ci: int, own: int, opp: int, kings: int, counter: int, /) -> bool: ...
    def capture_records(self, ci: int, own: int, opp: int, kings: int, starts: int | None,
                        law: bool, /) -> list[CaptureRecord]: ...
    def legal_records(self, ci: int, own: int, opp: int, kings: int, /) -> list[CaptureRecord]: ...
    def quiet_moves(self, ci: int, own: int, opp: int, kings: int, counter: int, /
                    ) -> list[tuple[int, int]]: ...
    def run(self, elements: Sequence[object], index: int, position: Any,
            known: Mapping[str, int | None], kinds: tuple[type, ...],
            quiet_move_of: Mapping[int, Any], /
            ) -> tuple[int, list[tuple[Any, Any, Any, bool]]]: ...
    def run_text(self, text: str, offset: int, position: Any, seen: dict[Any, int] | None,
                 since: Any, quiet: int, limits: CoreLimits | tuple[()],
                 record: list[Any] | None = ..., quiet_move_of: Mapping[int, Any] = ...,
                 ply_maker: Callable[..., Any] = ..., run: object = ..., number: int = ..., /
                 ) -> tuple[int, int, Any, Any, Any, int]: ...
    def name_squares(self, numbers: Sequence[int | None], /) -> None: ...
    def perft(self, ci: int, own: int, opp: int, kings: int, counter: int, opp_counter: int,
              depth: int, keep: bool, /) -> int: ...
    def pieces(self, side: int, kings: int, known: dict[int, frozenset[int]], most: int, /
               ) -> tuple[frozenset[int], frozenset[int]]: ...
    def fen(self, white: int, black: int, kings: int, black_to_move: bool, /) -> str: ...
    def zobrist(self, white: int, black: int, kings: int, black_to_move: bool, /) -> int: ...
    def search(self, ci: int, own: int, opp: int, kings: int, counter: int, opp_counter: int, depth: int,
               nodes: int, king_value: int, extensions: int, stop: threading.Event | None, /
               ) -> tuple[int, list[tuple[int, tuple[int, ...], tuple[int, ...], bool]], int, int]: ...

def moves_hint(text: str, wanted: int, /) -> tuple[int, int]: ...

LAW_FREE: int
LAW_COUNT: int
LAW_COUNT_KINGS: int
LAW_ITALIAN: int
LAW_FRISIAN: int
LAW_KING: int
