"""Writing converted games: to one stream, or each input file into itself, atomically."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import IO, Callable, Iterable

from pdn_tools.commands.convert import Converted
from pdn_tools.play.checking import Checking
from pdn_tools.running import batch
from pdn_tools.running.output import CannotWrite, atomic_output
from pdn_tools.text.names import printable

Note = Callable[[str], None]


@dataclass
class Tally:
    """Games that did not convert without a problem, and of those the games left out; the games read."""

    failed: int = 0
    left_out: int = 0
    games: int = 0


@dataclass(frozen=True)
class Written:
    """Converted games as one text, with their notes and tally: what a worker (--jobs, --dask) sends back
    for a part of a file, so that the main process has nothing to do per game."""

    text: str
    notes: tuple[str, ...]
    tally: Tally


def written(results: list[Converted]) -> Written:
    """The converted games `results` as one Written, in order."""
    tally = Tally(sum(not converted.ok for converted in results), sum(converted.left_out for converted in results),
                  len(results))
    return Written("".join(converted.text for converted in results),
                   tuple(line for converted in results for line in converted.notes), tally)


def write_parts(parts: Iterable[Written], out: IO[str], note: Note) -> Tally:
    """Write each part's text and pass on its notes; the tally of all the parts."""
    tally = Tally()
    for part in parts:
        for line in part.notes:
            note(line)
        out.write(part.text)
        tally.failed += part.tally.failed
        tally.left_out += part.tally.left_out
        tally.games += part.tally.games
    return tally


def write_games(games: Iterable[Converted], out: IO[str], note: Note) -> Tally:
    """Write each converted game's text and pass on its notes (write_parts with a part a game, none
    made); the tally of all the games."""
    tally = Tally()
    write = out.write
    for converted in games:
        for line in converted.notes:
            note(line)
        if converted.text:
            write(converted.text)
        else:
            tally.left_out += 1
        tally.failed += not converted.ok
        tally.games += 1
    return tally


class _Unchanged(Exception):
    """A file to rewrite in place had a game left out, or could not be read through."""


def rewrite_files(inputs: batch.Inputs, work: batch.Work[Converted], jobs: int, note: Note,
                  checking: Checking, start_method: str | None = None) -> int:
    """Convert each input file into itself, atomically; a file with a game left out (one that
    cannot be read) is left unchanged (none is with `Options.keep_invalid`), and one that
    cannot be written is reported (the batch goes on, counted with the unreadable inputs).
    The number of games that did not convert without a problem; each file read by `checking`, by `jobs`
    workers started by `start_method` (pool.run's)."""
    failed = 0
    for path in inputs.files():
        single = batch.Inputs((path,), encoding=inputs.encoding, max_game_bytes=inputs.max_game_bytes)
        tally = Tally()
        links = _hard_links(path)
        try:
            with atomic_output(path) as out:
                tally = write_parts(batch.run(single, work, jobs, fold=written, checking=checking,
                                              start_method=start_method), out, note)
                if single.unreadable or tally.left_out:
                    raise _Unchanged
            if path in single.codecs:
                note(f"pdn: {printable(path)} was {single.codecs[path]}: rewritten as UTF-8")
            if links > 1:       # the file written is a new one: the other names keep the old text
                note(f"pdn: {printable(path)} is a new file; its {links - 1} other hard link(s) keep the old text")
        except _Unchanged:
            note(f"pdn: {printable(path)} left unchanged")
        except CannotWrite as error:
            note(f"pdn: cannot write {printable(path)}: {error.strerror}; left unchanged")
            single.unreadable += 1
        failed += tally.failed
        inputs.unreadable += single.unreadable
    return failed


def _hard_links(path: str) -> int:
    try:
        return os.stat(path).st_nlink
    except OSError:
        return 1
