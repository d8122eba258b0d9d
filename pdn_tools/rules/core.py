"""Which move engine runs: the compiled core (`_core`, built from `rules/_*.c`) or pure Python.

The compiled core is optional: `pip install` builds it when a C compiler is there and
installs the pure engine alone otherwise.  An `Engine` value names the choice; it is made
once where a program starts (`engine_from_environment()`, where `PDN_TOOLS_PURE=1` picks the
pure engine, the reference) and handed down to the reader, the positions and the replayer.
Both engines give the same answers, which the tests check in one process.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pdn_tools.rules import laws
from pdn_tools.rules.laws import Law
from pdn_tools.text.records import record

if TYPE_CHECKING:
    from pdn_tools.rules._core import Rules as CompiledRules
    from pdn_tools.rules.movegen import Position
    from pdn_tools.text.tokens import FastGame, MovesEnd, PlainRun
    from pdn_tools.text.writer import NumberedText

# How the compiled core makes and reads the objects it answers with (movegen hands it these with
# the tables): a position like another with given (turn, white, black, kings) by a slot maker (the
# Position class and the descriptors of its slots variant, _rl, _ctr, copied from the other, then
# turn, _white, _black, _kings: no Python code runs per position), a position's (turn, white,
# black, kings), and a slot maker of moves (Move and its slots start, path, captured, promotes).
Makers = tuple[tuple[type, tuple[Any, ...]],
               Callable[["Position"], tuple[str, int, int, int]],
               tuple[type, tuple[Any, ...]]]

__all__ = ["Engine", "Makers", "PURE", "compile_rules", "compiled_module", "compiled_scanner",
           "engine_from_environment", "engine_summary"]


@functools.cache
def compiled_module() -> ModuleType | None:
    """The compiled core's module, or None when it was not built or is older than its sources."""
    try:
        from pdn_tools.rules import _core
    except ImportError:
        return None
    return _core if _built_since(_core, {"rules": (".c", ".h"), "text": (".h",)}) else None


@functools.cache
def compiled_scanner() -> ModuleType | None:
    """The compiled scanner's module (`text/_scan.c`), or None when it was not built or is older than its
    sources."""
    try:
        from pdn_tools.text import _scan
    except ImportError:
        return None
    return _scan if _built_since(_scan, {"text": (".c", ".h")}) else None


def _built_since(module: ModuleType, sources: dict[str, tuple[str, ...]]) -> bool:
    """Whether compiled `module` is at least as new as each C source and header of the package it is built
    from (setup.py's sources and depends: the files `_*` with those endings in those folders).  An install
    holds none; a checkout pulled or switched without building again held a module of other sources, whose
    calls no longer fit the Python code (every command ended in a traceback), and it is built again (as
    setuptools decides it, by these times) before it is used."""
    path = module.__file__
    if path is None:
        return True
    built = os.stat(path).st_mtime_ns
    package = os.path.dirname(os.path.dirname(path))
    for folder, endings in sources.items():
        with os.scandir(os.path.join(package, folder)) as entries:
            if any(entry.name.startswith("_") and entry.name.endswith(endings) and entry.stat().st_mtime_ns > built
                   for entry in entries):
                return False
    return True


@record(frozen=True, slots=True)
class Engine:
    """The move engine: the compiled core (`compiled`) or pure Python.  It also tells the
    reader how to read runs of plain moves (`keeps_runs`, `moves_end`, `plain_run`): on the
    compiled core they stay text, which the core plays without an object per move, and are
    found by the compiled scanner; either way the games read are the same."""

    compiled: bool

    def __init__(self, compiled: bool) -> None:
        if compiled and compiled_module() is None:
            raise ValueError("the compiled core is not built: only the pure engine runs")
        object.__setattr__(self, "compiled", compiled)

    @property
    def name(self) -> str:
        return "compiled" if self.compiled else "pure"

    @property
    def core(self) -> ModuleType | None:
        """The compiled core's module, None for the pure engine."""
        return compiled_module() if self.compiled else None

    @property
    def keeps_runs(self) -> bool:
        """Whether the reader keeps the main line's plain runs as text (the core plays them)."""
        return self.compiled

    @property
    def moves_end(self) -> MovesEnd | None:
        """The compiled end of a MOVES token for the scanner (None: the regular expression)."""
        scanner = compiled_scanner() if self.compiled else None
        return None if scanner is None else scanner.moves_end

    @property
    def plain_run(self) -> PlainRun | None:
        """The compiled test of a run that may stay text (None: the regular expression)."""
        scanner = compiled_scanner() if self.compiled else None
        return None if scanner is None else scanner.plain_run

    @property
    def fast_game(self) -> FastGame | None:
        """The compiled reading of a common game at once for the scanner (None: token by token)."""
        scanner = compiled_scanner() if self.compiled else None
        return None if scanner is None else scanner.fast_game

    @property
    def numbered_text(self) -> NumberedText | None:
        """The compiled canonical movetext, numbered and wrapped, for the writer (None:
        `writer.numbered_text`, its twin)."""
        scanner = compiled_scanner() if self.compiled else None
        return None if scanner is None else scanner.numbered_text


PURE = Engine(False)


def engine_from_environment() -> Engine:
    """The compiled engine when it is built, unless `PDN_TOOLS_PURE` is set (to anything but empty,
    0, false, no or off, in any case): the default of the command line and of the library's entry
    points (read at each call)."""
    return _engine_for(os.environ.get("PDN_TOOLS_PURE", ""))


def engine_summary() -> str:
    """What reads and checks games here, in a line (`pdn --version`): the compiled core and scanner, or
    the pure-Python engine and why.  An install without a C compiler warns only in pip's verbose output."""
    if engine_from_environment().compiled:
        scanner = ("compiled scanner" if compiled_scanner() is not None else
                   f"Python scanner (compiled one {_why_not('pdn_tools.text._scan')})")
        return f"engine: compiled core, {scanner}"
    if compiled_module() is not None:
        return "engine: pure Python, slower (PDN_TOOLS_PURE is set)"
    if _why_not("pdn_tools.rules._core") == "not built":
        return ("engine: pure Python, slower (the compiled core is not built: install again with a C compiler "
                "and Python's headers)")
    return "engine: pure Python, slower (the compiled core is older than its C sources: build it again, pip install -e .)"


def _why_not(name: str) -> str:
    """Why the compiled module `name` (one compiled_module or compiled_scanner did not give) is not used."""
    return "older than its C sources" if sys.modules.get(name) is not None else "not built"


@functools.cache
def _engine_for(pure: str) -> Engine:
    """engine_from_environment's answer for this value of PDN_TOOLS_PURE (made once: a
    replay asks for each game)."""
    return Engine(pure.strip().lower() in _NOT_ASKED and compiled_module() is not None)


_NOT_ASKED = ("", "0", "false", "no", "off")        # PDN_TOOLS_PURE values that do not ask for the pure engine


def compile_rules(bits: Sequence[int], rays: Sequence[Sequence[Sequence[int]]],
                  promo: tuple[Sequence[int], Sequence[int]],
                  man_jumps: tuple[Sequence[int], Sequence[int]],
                  man_steps: tuple[Sequence[int], Sequence[int]],
                  king_steps: Sequence[int], king_jumps: Sequence[int],
                  switches: tuple[bool, bool, bool, bool, bool, bool, Law, int], makers: Makers,
                  engine: Engine) -> CompiledRules | None:
    """The core's Rules for these tables (squares as dense indices, square number - 1), or
    None on the pure engine.  `switches` are flying kings, land behind, immediate removal,
    reverse jumps, promotion in passing, men capture kings, the law and the limit; `makers`
    make and read the positions and moves the core answers with.  A law the
    core does not know (not in laws.LAWS, whose order it numbers its laws by) leaves the
    variant to the pure engine."""
    *flags, law, limit = switches
    module = engine.core
    if module is None or law not in laws.LAWS:
        return None
    rules: CompiledRules = module.Rules(
        bits, rays, promo, man_jumps, man_steps, king_steps, king_jumps,
        (*map(int, flags), laws.LAWS.index(law), limit), makers)    # map, not a generator: no function is made
    return rules
