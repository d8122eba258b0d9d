"""Reports on stdout, notes on stderr, and a progress line that never gets in their way.

The progress line (games, games/s, the file being read, the share of bytes read and
the time left) is drawn on stderr only when stderr is a terminal, at most five times a
second; it is erased before any report line or note is written, and at the end.  A command
ends with one tally line on stderr (`22,621 games, all valid, 2.1 s`) when stderr is a
terminal, or when asked (--summary); quiet (-q), neither the progress line nor the tally.
Written here rather than with a progress-bar library: the line must give way to our
own buffered stdout as well as to stderr, which such libraries only do for their own
`write`, and what it shows comes from the inputs, not from a known number of steps.
"""
from __future__ import annotations

import shutil
import sys
import time
from typing import Protocol, TextIO

from pdn_tools.text.names import printable

_INTERVAL = 0.2                     # seconds between two drawings of the progress line
_ERASE = "\r\x1b[K"                 # carriage return, erase to the end of the line


class ByteSource(Protocol):
    """Where the games come from: the file being read and how far reading has got."""

    current: str

    def bytes_read(self) -> int: ...

    def total_bytes(self) -> int | None: ...


class Terminal:
    """stdout for reports (buffered), stderr for notes, and the progress line on stderr."""

    def __init__(self, source: ByteSource | None = None, progress: bool | None = None,
                 out: TextIO | None = None, err: TextIO | None = None, quiet: bool = False,
                 summary: bool = False) -> None:
        self.out_stream = out or sys.stdout
        self.err_stream = err or sys.stderr
        self.source = source
        on_terminal = self.err_stream.isatty()
        self.progress = source is not None and not quiet and (on_terminal if progress is None else progress)
        self.tallied = not quiet and (summary or on_terminal)
        self.games = 0
        self.started = time.monotonic()
        self.drawn_at = 0.0
        self.shown = False

    def out(self, text: str, end: str = "\n") -> None:
        """Write a report line to stdout, buffered (click.echo flushes every line: slow on big runs)."""
        self.erase()
        self.out_stream.write(text + end)

    def note(self, text: str) -> None:
        """Write a note to stderr at once, made `printable` (a note is one line, whatever it quotes)."""
        self.erase()
        self.err_stream.write(printable(text) + "\n")
        self.err_stream.flush()

    def tally(self, text: str) -> None:
        """End with `text`, what the command did, on stderr: on a terminal with the time taken
        (`22,621 games, all valid, 2.1 s`); elsewhere only when asked (--summary), without the time,
        so that the same input gives the same bytes; never when quiet."""
        if self.tallied:
            on_terminal = self.err_stream.isatty()
            self.note(text + (f", {time.monotonic() - self.started:.1f} s" if on_terminal else ""))

    def game_done(self, count: int = 1) -> None:
        """Count a game (or `count` games); redraw the progress line when it is due."""
        self.games += count
        if self.progress:
            now = time.monotonic()
            if now - self.drawn_at >= _INTERVAL:
                self.drawn_at = now
                self._draw(now)

    def erase(self) -> None:
        """Take the progress line off the screen (it comes back at the next drawing)."""
        if self.shown:
            self.err_stream.write(_ERASE)
            self.err_stream.flush()
            self.shown = False

    def close(self) -> None:
        """Erase the progress line and send what is buffered."""
        self.erase()
        self.out_stream.flush()

    def _draw(self, now: float) -> None:
        self.out_stream.flush()         # report lines written so far go out before the line is drawn
        width = shutil.get_terminal_size((80, 24)).columns - 1
        self.err_stream.write(_ERASE + progress_line(self.games, now - self.started, self.source)[:width])
        self.err_stream.flush()
        self.shown = True


class GroupedNotes:
    """Notes on games grouped per file as validate groups warnings: each message once, at its first
    place, with the count of games it was noted on (`(first of 22,621 in this file)`), written when
    a note on another file comes, before a note on an input (`before`) and at the end (`close`); with
    `each`, every note as it comes."""

    def __init__(self, terminal: Terminal, each: bool = False) -> None:
        self.terminal, self.each = terminal, each
        self.file: str | None = None
        self.groups: dict[str, tuple[int, str]] = {}      # message -> (count, its first note)

    def add(self, file: str, where: str, message: str, alike: bool = True) -> None:
        """Count the note `where` + `message` on a game of `file` (written at once unless `alike`)."""
        if self.each or not alike:
            self.terminal.note(where + message)
            return
        if file != self.file:
            self.close()
            self.file = file
        count, first = self.groups.get(message) or (0, where + message)
        self.groups[message] = (count + 1, first)

    def before(self, note: str) -> None:
        """Write `note` (an input's problem: `cannot read ...`) after the groups so far."""
        self.close()
        self.terminal.note(note)

    def close(self) -> None:
        """Write the groups of the file noted last."""
        from pdn_tools.commands.report import first_of

        for count, first in self.groups.values():
            self.terminal.note(first_of(first, count))
        self.groups = {}


def progress_line(games: int, elapsed: float, source: ByteSource | None) -> str:
    """`12,345 games, 812 games/s, 54% of 11.5 MB, 0:14 left, OCA_2.0.pdn`."""
    parts = [f"{games:,} games", f"{games / elapsed:,.0f} games/s" if elapsed > 0 else ""]
    total = source.total_bytes() if source is not None else None
    if source is not None and total:
        share = min(source.bytes_read() / total, 1.0)
        parts.append(f"{share:.0%} of {_size(total)}")
        if share > 0:
            parts.append(f"{_duration(elapsed * (1 - share) / share)} left")
    if source is not None and source.current:
        parts.append(printable(source.current))
    return ", ".join(part for part in parts if part)


def _size(count: int) -> str:
    if count < 1000:
        return f"{count} bytes"
    value = count / 1000
    for unit in ("kB", "MB", "GB"):
        if value < 1000:
            return f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} TB"


def _duration(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def games(count: int) -> str:
    """`1 game`, `22,621 games`."""
    return f"{count:,} game" + ("" if count == 1 else "s")


def validity(count: int, invalid: int, invalid_files: int | None = None, unreadable: int = 0) -> str:
    """`22,621 games, all valid` / `36,287 games, 67 invalid in 41 files`, and unreadable files."""
    where = "" if invalid_files is None else f" in {invalid_files:,} file" + ("" if invalid_files == 1 else "s")
    text = games(count) + (f", {invalid:,} invalid{where}" if invalid else ", all valid" if count else "")
    return text + (f", {unreadable:,} input" + ("" if unreadable == 1 else "s") + " unreadable" if unreadable else "")
