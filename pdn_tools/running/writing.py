"""Writing converted games: to one stream, or each input file into itself, atomically (compressed as it was)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import IO, BinaryIO, Callable, Iterable, Iterator

from pdn_tools.commands.convert import Converted
from pdn_tools.play.checking import Checking
from pdn_tools.running import batch
from pdn_tools.running.files import atomic_output
from pdn_tools.running.output import CannotWrite
from pdn_tools.text.names import printable
from pdn_tools.text.source import NotPdn, input_bytes, watched

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


class _Same(Exception):
    """A file to rewrite in place would be written with the bytes it holds."""


def rewrite_files(inputs: batch.Inputs, work: batch.Work[Converted], jobs: int, note: Note,
                  checking: Checking, start_method: str | None = None) -> int:
    """Convert each input file into itself, atomically, compressed as it is; a file with a game left
    out (one that cannot be read) is left unchanged (none is with `Options.keep_invalid`), one whose
    bytes would stay the same is not written, and one that cannot be written (a compression that
    cannot be) is reported (the batch goes on, counted with the unreadable inputs).
    The number of games that did not convert without a problem; each file read by `checking`, by `jobs`
    workers started by `start_method` (pool.run's)."""
    failed = 0
    for path in inputs.files():
        single = batch.Inputs((path,), encoding=inputs.encoding, max_game_bytes=inputs.max_game_bytes)
        tally = Tally()
        links = _hard_links(path)
        try:
            with atomic_output(path, recompress=True) as out, _Held(path) as held:
                tally = write_parts(held.passed(batch.run(single, work, jobs, fold=written, checking=checking,
                                                          start_method=start_method)), out, note)
                if single.unreadable or tally.left_out:
                    raise _Unchanged
                if held.same():
                    raise _Same
            if path in single.codecs:
                note(f"pdn: {printable(path)} was {single.codecs[path]}: rewritten as UTF-8")
            if links > 1:       # the file written is a new one: the other names keep the old text
                note(f"pdn: {printable(path)} is a new file; its {links - 1} other hard link(s) keep the old text")
        except _Same:
            pass
        except _Unchanged:
            note(f"pdn: {printable(path)} left unchanged")
        except CannotWrite as error:
            _not_written(path, error, note)
            single.unreadable += 1
        failed += tally.failed
        inputs.unreadable += single.unreadable
    return failed


def rewrite_file(path: str, data: bytes, note: Note) -> bool:
    """Write `data` into the file `path` in place of what it holds, atomically, compressed as it is;
    False when it cannot be written (noted: the file is left unchanged)."""
    try:
        with atomic_output(path, recompress=True) as out:
            out.buffer.write(data)
    except CannotWrite as error:
        _not_written(path, error, note)
        return False
    return True


def _not_written(path: str, error: CannotWrite, note: Note) -> None:
    note(f"pdn: cannot write {printable(path)}: {error.strerror}; left unchanged")


class _Held:
    """The bytes a file holds (decompressed), compared with the parts written in its place as they pass."""

    def __init__(self, path: str) -> None:
        self.raw: BinaryIO | None = None
        self.bytes: BinaryIO | None = None          # None once the parts differ, or when it cannot be read
        try:
            self.raw = watched(path)
            self.bytes = input_bytes(self.raw)
        except (NotPdn, OSError):                   # reading it says why
            pass

    def __enter__(self) -> _Held:
        return self

    def __exit__(self, *error: object) -> None:
        if self.raw is not None:
            self.raw.close()

    def passed(self, parts: Iterable[Written]) -> Iterator[Written]:
        """`parts`, each compared with the next bytes of the file as it passes."""
        for part in parts:
            if self.bytes is not None:
                data = part.text.encode()
                if self.bytes.read(len(data)) != data:
                    self.bytes = None
            yield part

    def same(self) -> bool:
        """Whether the parts passed hold every byte of the file, and no other."""
        return self.bytes is not None and not self.bytes.read(1)


def _hard_links(path: str) -> int:
    try:
        return os.stat(path).st_nlink
    except OSError:
        return 1
