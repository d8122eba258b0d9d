"""Which move engine runs: the compiled core (`_core`, built from `_core.c`) or pure Python.

The compiled core is optional: `pip install` builds it when a C compiler is there and
installs the pure engine alone otherwise.  `PDN_TOOLS_PURE=1` in the environment forces the
pure engine (the reference; both give the same answers, which the tests check).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from pdn_tools.rules import laws
from pdn_tools.rules.laws import Law
from pdn_tools.text.grammar import keep_runs_as_text, scan_runs_with

if TYPE_CHECKING:
    from pdn_tools.rules.draws import CoreLimits

__all__ = ["ACTIVE", "ENGINE", "CompiledRules", "compile_rules", "compiled_module"]

CaptureRecord = tuple[int, tuple[int, ...], tuple[int, ...], bool, bool, int]


class CompiledRules(Protocol):
    """A variant's tables in the compiled core; bitboards in movegen's padded-bit layout."""

    def has_capture(self, ci: int, own: int, opp: int, kings: int, /) -> bool: ...

    def has_move(self, ci: int, own: int, opp: int, kings: int, counter: int, /) -> bool: ...

    def capture_records(self, ci: int, own: int, opp: int, kings: int, starts: int | None,
                        law: bool, /) -> list[CaptureRecord]: ...

    def legal_records(self, ci: int, own: int, opp: int, kings: int, /) -> list[CaptureRecord]: ...

    def quiet_moves(self, ci: int, own: int, opp: int, kings: int, counter: int, /
                    ) -> list[tuple[int, int]]: ...

    def run(self, elements: Sequence[object], index: int, position: Any,
            known: Mapping[str, int | None], kinds: tuple[type, ...],
            quiet_move_of: Mapping[int, Any], move_type: type, /
            ) -> tuple[int, list[tuple[Any, Any, Any, bool]]]: ...

    def run_text(self, text: str, offset: int, position: Any, seen: dict[Any, int] | None,
                 since: Any, quiet: int, limits: CoreLimits | tuple[()], /
                 ) -> tuple[int, int, Any, Any, Any, int]: ...

    def name_squares(self, numbers: Sequence[int | None], /) -> None: ...

    def perft(self, ci: int, own: int, opp: int, kings: int, counter: int, opp_counter: int,
              depth: int, keep: bool, /) -> int: ...


def compiled_module() -> ModuleType | None:
    """The compiled core's module whatever PDN_TOOLS_PURE says (the differential tests
    compare it with the pure engine), or None when it was not built."""
    try:
        from pdn_tools.rules import _core
    except ImportError:
        return None
    return _core


_FORCED_PURE = os.environ.get("PDN_TOOLS_PURE", "") not in ("", "0")
ACTIVE = None if _FORCED_PURE else compiled_module()       # the module the engine uses
ENGINE = "pure" if ACTIVE is None else "compiled"
keep_runs_as_text(ACTIVE is not None)         # the core reads the main line's plain runs as text
scan_runs_with(*(None, None) if ACTIVE is None else (ACTIVE.moves_end, ACTIVE.plain_run))   # and finds them

def compile_rules(bits: Sequence[int], rays: Sequence[Sequence[Sequence[int]]],
                  promo: tuple[Sequence[int], Sequence[int]],
                  man_jumps: tuple[Sequence[int], Sequence[int]],
                  man_steps: tuple[Sequence[int], Sequence[int]],
                  king_steps: Sequence[int], king_jumps: Sequence[int],
                  switches: tuple[bool, bool, bool, bool, bool, bool, Law, int],
                  module: ModuleType | None) -> CompiledRules | None:
    """The core's Rules for these tables (squares as dense indices, square number - 1), or
    None when the pure engine runs.  `switches` are flying kings, land behind, immediate
    removal, reverse jumps, promotion in passing, men capture kings, the law and the limit;
    `module` is the compiled module (ACTIVE for the engine's choice).  A law the core does
    not know (not in laws.LAWS, whose order it numbers its laws by) leaves the variant to
    the pure engine."""
    *flags, law, limit = switches
    if module is None or law not in laws.LAWS:
        return None
    rules: CompiledRules = module.Rules(
        bits, rays, promo, man_jumps, man_steps, king_steps, king_jumps,
        (*(int(flag) for flag in flags), laws.LAWS.index(law), limit))
    return rules
