"""What a run makes once in each process that works on its games, whatever the backend (this
process, --jobs workers, Dask workers): the search cache of --shots, shared by the games a worker
is sent (openings repeat), and the Hub engine of --engine, one process a worker.

The per-game work holds a `PerWorker`: its maker and a token naming the run.  The work is pickled
with every task, so the value itself cannot travel with it (a cache would start empty at each task,
an engine cannot be pickled); the first task of a run in a process makes the value, the later ones
find it here.  This module's table is that store: it holds only values made for runs, never a
choice (those come in the maker's arguments).
"""
from __future__ import annotations

import os
import threading
import uuid
from multiprocessing import util
from typing import Any, Callable, Generic, TypeVar

from pdn_tools.commands import html_games
from pdn_tools.commands.annotate import Options, annotate_game, shots_json_line
from pdn_tools.commands.second_look import SecondLook, second_looks
from pdn_tools.play.check import Checked
from pdn_tools.rules.search import Evaluations
from pdn_tools.running.engine import HubEngine

T = TypeVar("T")
_KEPT = 16                  # values a process keeps: a Dask worker lives through many runs
_made: dict[tuple[str, int, int], Any] = {}         # (run's token, process, thread) -> its value
_lock = threading.Lock()
_finalizing: set[int] = set()                       # processes whose values are closed at exit


class PerWorker(Generic[T]):
    """A value `make()` makes once in each process (and thread) that asks for it, kept there for
    the run's later games.  A value with a `close` method (an engine) is closed when its process
    ends, or by `close()` in the process that calls it."""

    def __init__(self, make: Callable[[], T]) -> None:
        self.make = make
        self.token = uuid.uuid4().hex

    def __call__(self) -> T:
        key = (self.token, os.getpid(), threading.get_ident())
        value = _made.get(key)
        if value is None:
            value = self.make()
            with _lock:
                _made[key] = value
                _close_at_exit()
                while len(_made) > _KEPT:           # the oldest run's (dicts keep their order)
                    _close(_made.pop(next(iter(_made))))
        return value

    def close(self) -> None:
        """Close the values this process made for the run (those of its workers close as they end)."""
        with _lock:
            mine = [key for key in _made if key[0] == self.token and key[1] == os.getpid()]
            for key in mine:
                _close(_made.pop(key))


def _close(value: Any) -> None:
    close = getattr(value, "close", None)
    if close is not None:
        close()


def _close_at_exit() -> None:
    """Close this process's values when it ends: a pool's worker ends by os._exit (no atexit), after
    multiprocessing's exit functions, which run these finalizers (and at exit in the main process)."""
    if os.getpid() not in _finalizing:
        _finalizing.add(os.getpid())
        util.Finalize(None, _close_all, exitpriority=10)


def _close_all() -> None:
    with _lock:
        mine = [key for key in _made if key[1] == os.getpid()]
        for key in mine:
            _close(_made.pop(key))


# ---- the work of --shots and --engine, on any backend -------------------------------------------------

def annotated(checked: Checked, options: Options, evaluate: PerWorker[Evaluations] | None,
              engine: PerWorker[HubEngine] | None) -> tuple[str, list[tuple[str, str, bool]]]:
    """annotate's work: `annotate_game` with this worker's search cache and engine."""
    return annotate_game(checked, options, None if evaluate is None else evaluate(),
                         None if engine is None else engine().analyse)


def shots_line(checked: Checked, evaluate: PerWorker[Evaluations]) -> str:
    """`validate --format jsonl --shots`' work: the record with its shots, as a JSON line."""
    return shots_json_line(checked, evaluate())


def audited(checked: Checked, evaluate: PerWorker[Evaluations] | None
            ) -> tuple[html_games.InvalidGame | None, tuple[tuple[SecondLook, ...], int]]:
    """`validate --format html`'s work: what the page shows of an invalid game, and with --shots
    (`evaluate`) the game's moves worth a second look and its count of moves not judged."""
    return html_games.audit_game(checked), ((), 0) if evaluate is None else second_looks(checked, evaluate())
