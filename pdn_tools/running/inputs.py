"""The inputs of a command: the files named, folders expanded by globs, stdin; each read game by game
(text/source.py opens it), those that cannot be read (or not to their end) noted; how far reading has got."""
from __future__ import annotations

import fnmatch
import os
import re
import stat
import sys
from dataclasses import field
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, NamedTuple, TypeVar

from pdn_tools.text.model import Diagnostic
from pdn_tools.text.names import printable
from pdn_tools.rules.core import Engine
from pdn_tools.text.reader import MAX_GAME_BYTES, RawGame, read_raw
from pdn_tools.text.source import CUT, NotPdn, cut_of, input_bytes, reason, watched
from pdn_tools.text.records import record


T = TypeVar("T")
DEFAULT_GLOBS = ("*.pdn", "*.pdn.gz", "*.pdn.bz2", "*.pdn.xz", "*.pdn.zst")


def _note(text: str) -> None:
    print(printable(text), file=sys.stderr)


class Unread(NamedTuple):
    """An input that cannot be read (or not to its end), to be said in its place among the games:
    `pdn: cannot read PATH: TEXT`, or the note `TEXT` itself when `whole`."""

    path: str
    text: str
    whole: bool = False


@record()
class Inputs:
    """The files named on the command line, folders expanded (files matching `globs`,
    compressed ones included); unreadable ones are noted.  Knows how far reading has got."""

    paths: tuple[str, ...]
    globs: tuple[str, ...] = DEFAULT_GLOBS
    note: Callable[[str], None] = _note
    unreadable: int = 0
    cut: int = 0                                   # of those, inputs that ended before their end
    current: str = ""                              # the file being read
    _done: int = 0                                 # bytes of the files read to their end
    _reading: BinaryIO | None = None               # the file being read, as bytes on disk
    _total: int | None = None
    encoding: str | None = None                    # the codec to read them in, else detected
    max_game_bytes: int = MAX_GAME_BYTES           # a longer game is reported as too large
    codecs: dict[str, str] = field(default_factory=dict)    # files read in another codec than UTF-8
    failed: set[str] = field(default_factory=set)           # files the workers could not read to their end
    unread: list[tuple[str, str]] = field(default_factory=list)     # (path, note) of each input not read whole
    _held: list[Unread] | None = None              # inputs not read, kept to be said later (`held`)

    def __init__(self, paths: tuple[str, ...], globs: tuple[str, ...] = DEFAULT_GLOBS,
                 note: Callable[[str], None] = _note, unreadable: int = 0, cut: int = 0, current: str = "",
                 _done: int = 0, _reading: BinaryIO | None = None, _total: int | None = None,
                 encoding: str | None = None, max_game_bytes: int = MAX_GAME_BYTES,
                 codecs: dict[str, str] | None = None, failed: set[str] | None = None,
                 unread: list[tuple[str, str]] | None = None, _held: list[Unread] | None = None) -> None:
        """`codecs`, `failed` and `unread` left out (or None): new empty ones."""
        self.paths, self.globs, self.note, self.unreadable, self.cut, self.current = (
            paths, globs, note, unreadable, cut, current)
        self._done, self._reading, self._total = _done, _reading, _total
        self.encoding, self.max_game_bytes = encoding, max_game_bytes
        self.codecs = {} if codecs is None else codecs
        self.failed = set() if failed is None else failed
        self.unread = [] if unread is None else unread
        self._held = _held

    def files(self, streams: bool = False) -> Iterator[str]:
        """The files to read, folders expanded.  A file named that is not a regular one (a FIFO
        such as `<(zcat x.pdn.gz)`, /dev/stdin, a device) is read through once as a stream when
        `streams`, else reported (rewriting in place or reading by byte ranges needs a regular
        file); one found in a folder is always reported."""
        for entry in self.entries(streams):
            if isinstance(entry, Unread):
                self.report(entry)
            else:
                yield entry

    def entries(self, streams: bool = False) -> Iterator[str | Unread]:
        """`files`, with each input that cannot be read in its place, not said: the caller says it
        (`report`) when the games before it are done, as `files` does."""
        for path in self.paths or ("-",):
            if path == "-":
                yield path
            elif os.path.isdir(path):
                yield from self._folder(path)
            elif os.path.isfile(path) and os.access(path, os.R_OK):
                yield path
            elif streams and os.path.exists(path) and not os.path.isfile(path):
                yield path                          # opening it says whether it can be read
            else:
                yield Unread(path, "no such file" if not os.path.lexists(path) else
                             "not readable" if os.path.isfile(path) else "not a regular file")

    def named_files(self) -> Iterator[str]:
        """The files to read ('-': stdin), folders expanded, with no note for those that cannot be read."""
        for path in self.paths or ("-",):
            yield from self._matching(path)[0] if os.path.isdir(path) else [path]

    def cannot_read(self, path: str, reason: str) -> None:
        """Report an input that cannot be read (the batch goes on) and count it."""
        if self._held is not None:
            self._held.append(Unread(path, reason))
            return
        self.cut += reason.startswith(CUT)
        self.unread_note(path, f"pdn: cannot read {printable(path)}: {reason}")

    def unread_note(self, path: str, text: str) -> None:
        """Count an input not read (or not to its end) and note why; the note is kept for the pages
        that report on the run (the audit page, the stats page)."""
        if self._held is not None:
            self._held.append(Unread(path, text, whole=True))
            return
        self.unreadable += 1
        self.unread.append((path, printable(text)))
        self.note(text)

    def report(self, unread: Unread) -> None:
        """Say and count an input that cannot be read, found earlier (`entries`, `held`)."""
        if unread.whole:
            self.unread_note(unread.path, unread.text)
        else:
            self.cannot_read(unread.path, unread.text)

    def held(self, items: Iterator[T], held: list[Unread]) -> Iterator[T]:
        """`items` (a reading of these inputs), the inputs it finds unreadable kept in `held` in order,
        neither said nor counted: the caller says them (`report`) once the games read before them are done
        (workers are a few tasks behind)."""
        while True:
            self._held = held
            try:
                item = next(items, None)
            finally:
                self._held = None
            if item is None:
                return
            yield item

    def _folder(self, path: str) -> list[str | Unread]:
        chosen, skipped, problems = self._matching(path)
        found: list[str | Unread] = [Unread(name, reason) for name, reason in problems]
        if not chosen and not problems:
            names = ", ".join(os.path.relpath(name, path) for name in skipped[:5])
            more = f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
            skips = f"skipped {names}{more}" if skipped else "it holds no files"
            found.append(Unread(path, f"pdn: nothing to read in {printable(path)}: no file matches "
                                      f"{' '.join(self.globs)}; {skips} (choose with --glob PATTERN)", whole=True))
        return found + list(chosen)

    def _matching(self, folder: str) -> tuple[list[str], list[str], list[tuple[str, str]]]:
        """(files below `folder` that match a glob, files that do not, and the matching entries
        and subfolders that cannot be read with the reason), sorted."""
        chosen: list[str] = []
        skipped: list[str] = []
        problems: list[tuple[str, str]] = []
        wanted = re.compile("|".join(fnmatch.translate(pattern.lower()) for pattern in self.globs)).match
        for found, kind, reason in folder_entries(folder):
            matches = wanted(os.path.basename(found).lower()) is not None
            if kind == "file":
                (chosen if matches else skipped).append(found)
            elif kind == "folder" or (kind == "other" and matches):
                problems.append((found, reason))
        return chosen, skipped, problems

    def raw_games(self, engine: Engine) -> Iterator[tuple[RawGame, int, list[Diagnostic]]]:
        """The games of every input, split (for `engine`) but not parsed."""
        for path in self.files(streams=True):
            yield from self.raw_games_of(path, engine)

    def raw_games_of(self, path: str, engine: Engine) -> Iterator[tuple[RawGame, int, list[Diagnostic]]]:
        """The games of one input ('-': stdin), split (for `engine`: see text/reader.py) but not
        parsed; a file that cannot be read (or not to its end) is noted."""
        self.current = "<stdin>" if path == "-" else path
        try:
            if path == "-":
                yield from self._games(input_bytes(sys.stdin.buffer), path, engine)
                return
            with watched(path) as raw:
                self._reading = raw if raw.seekable() else None     # a stream has no position
                yield from self._games(input_bytes(raw), path, engine)
                self._done += os.fstat(raw.fileno()).st_size
        except NotPdn as error:
            self.cannot_read(path, str(error))
        except OSError as error:
            self.cannot_read(path, reason(error))
        finally:
            self._reading = None

    def read_by_workers(self, path: str, size: int) -> None:
        """Note that the workers read `size` bytes of `path` (for the progress line)."""
        self.current = path
        self._done += size

    def _games(self, stream: BinaryIO, path: str, engine: Engine) -> Iterator[tuple[RawGame, int, list[Diagnostic]]]:
        games = read_raw(stream, name="<stdin>" if path == "-" else path, encoding=self.encoding,
                         max_game_bytes=self.max_game_bytes, engine=engine)
        for index, (raw, notes) in enumerate(games, 1):
            yield raw, index, notes
        if games.codec != "utf-8":
            self.codecs[path] = games.codec
        if games.cut is not None:
            self.cannot_read(path, games.cut.message)

    def contents(self, streams: bool = False) -> Iterator[tuple[str, bytes]]:
        """(path, its whole content, decompressed) for each input, for commands that rewrite files
        (named streams read too when `streams`: see `files`)."""
        for path in self.files(streams):
            try:
                if path == "-":
                    yield path, input_bytes(sys.stdin.buffer).read()
                    continue
                with watched(path) as raw:
                    stream = input_bytes(raw)
                    data = stream.read()
                cut = cut_of(stream)
                if cut is not None:
                    self.cannot_read(path, cut)
                    continue
                yield path, data
            except NotPdn as error:
                self.cannot_read(path, str(error))
            except OSError as error:
                self.cannot_read(path, str(getattr(error, "strerror", None) or error))

    def bytes_read(self) -> int:
        """Bytes read so far of the named files (on disk: compressed bytes for compressed files)."""
        return self._done + (self._reading.tell() if self._reading is not None else 0)

    def total_bytes(self) -> int | None:
        """The size of every file to read (None when that is only stdin)."""
        if self._total is None:
            sizes = []
            for path in self.paths:
                if os.path.isdir(path):
                    sizes += [os.path.getsize(name) for name in self._matching(path)[0]]
                elif path != "-" and os.path.isfile(path):
                    sizes.append(os.path.getsize(path))
            self._total = sum(sizes)
        return self._total or None


def folder_entries(folder: str) -> list[tuple[str, str, str]]:
    """Every entry below `folder` but its subfolders, as (path, kind, reason), sorted as their paths' parts
    (as pathlib sorts them) and named as pathlib joins them: kind 'file' (a regular file or a link to one),
    'link' (a link to a folder: not followed), 'other' (a FIFO, a device, a broken link: the reason says
    which), or 'folder' for a subfolder that cannot be listed (the reason says why).  The walk keeps its own
    stack: no depth is too deep.  Strings, not Paths: a Path an entry made walking a folder of 1,600 files
    take 20 ms."""
    found: list[tuple[tuple[str, ...], str, str, str]] = []
    top = str(Path(folder))
    stack: list[tuple[str, tuple[str, ...]]] = [(top, ())]
    while stack:
        current, parts = stack.pop()
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    name = entry.name
                    path = name if current == "." else os.path.join(current, name)
                    if entry.is_dir(follow_symlinks=False):
                        stack.append((path, (*parts, name)))
                    else:
                        found.append(((*parts, name), path, *_kind(entry)))
        except OSError as error:
            found.append((parts, current, "folder", error.strerror or str(error)))
    found.sort()
    return [(path, kind, reason) for _, path, kind, reason in found]


def _kind(entry: os.DirEntry[str]) -> tuple[str, str]:
    if entry.is_file(follow_symlinks=False):        # from the listing: no stat for a plain file
        return "file", ""
    try:
        mode = entry.stat().st_mode
    except FileNotFoundError:
        return "other", "no such file (a broken link)"
    except OSError as error:
        return "other", error.strerror or str(error)
    if stat.S_ISREG(mode):
        return "file", ""
    return ("link", "") if stat.S_ISDIR(mode) else ("other", "not a regular file")
