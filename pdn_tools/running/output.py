"""Output streams whose errors name the user's path: stdout (UTF-8, shown safely on a terminal),
a stderr that never fails the command, closed standard descriptors taken care of; the errors a
write ends in.  Files replaced atomically are running/files.py."""
from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2     # every command's exit codes (here: the entry point needs no more)
STDOUT = "<stdout>"


# ---- errors that name what the user named ----------------------------------------------------------

class CannotWrite(OSError):
    """A failed write; `filename` is the user's path (or <stdout>), never a temporary file."""


class ClosedPipe(Exception):
    """The reader of a pipe went away (`pdn ... | head`): the command ends quietly.
    Not an OSError, so that click does not turn it into exit 1."""


class WorkerLost(Exception):
    """A worker process of --jobs ended in the middle of its work (killed by a signal, or by the
    kernel when memory ran out): the run cannot be complete; the message says so."""


def cannot_write(error: OSError, path: str, reason: str | None = None) -> CannotWrite:
    """`error` as a CannotWrite naming `path`."""
    return CannotWrite(error.errno, reason or error.strerror or str(error), path)


class NamedWriter(io.RawIOBase):
    """A raw writer on a file descriptor whose errors name `name`; a closed pipe is a ClosedPipe."""

    def __init__(self, descriptor: int, name: str, owned: bool) -> None:
        super().__init__()
        self.descriptor, self.name, self.owned = descriptor, name, owned
        self.dropping = False           # what is left is thrown away (see discard_stdout)

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.descriptor

    def isatty(self) -> bool:
        return os.isatty(self.descriptor)

    def write(self, data: ReadableBuffer, /) -> int:
        if self.dropping:
            return memoryview(data).nbytes
        try:
            return os.write(self.descriptor, data)
        except BrokenPipeError:
            raise ClosedPipe(self.name) from None
        except OSError as error:
            raise cannot_write(error, self.name) from None

    def close(self) -> None:
        if not self.closed and self.owned:
            os.close(self.descriptor)
        super().close()


def _stdout_stream(descriptor: int, errors: str = "strict", line_buffering: bool = False) -> io.TextIOWrapper:
    """A UTF-8 stream on stdout's `descriptor` whose failures say `<stdout>`; on a terminal, a `_ShownText`."""
    shown = _ShownText if descriptor >= 0 and os.isatty(descriptor) else io.TextIOWrapper
    buffer = io.BufferedWriter(NamedWriter(descriptor, STDOUT, False))
    return shown(buffer, encoding="utf-8", errors=errors, line_buffering=line_buffering)


class _ShownText(io.TextIOWrapper):
    """stdout on a terminal: text written as `names.shown_on_terminal` shows it (a tag value's
    escape sequence is seen, not acted on); what goes to a pipe or a file is left as it is."""

    def write(self, text: str, /) -> int:
        from pdn_tools.text.names import shown_on_terminal

        super().write(shown_on_terminal(text))
        return len(text)


class _ForgivingWriter(io.RawIOBase):
    """A raw writer on stderr's descriptor that never fails the command: what it cannot write
    (stderr closed, a full disk, a reader gone) is dropped, and counted in `lost`."""

    def __init__(self, descriptor: int) -> None:
        super().__init__()
        self.descriptor, self.lost = descriptor, 0

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.descriptor

    def isatty(self) -> bool:
        return self.descriptor >= 0 and os.isatty(self.descriptor)

    def write(self, data: ReadableBuffer, /) -> int:
        try:
            return os.write(self.descriptor, data)
        except OSError:
            self.lost += 1
            return memoryview(data).nbytes


class _ClosedReader(io.RawIOBase):
    """What stdin reads when it was closed: an error, as a file that cannot be read gives."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: object, /) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF), "<stdin>")


_STDERR: list[_ForgivingWriter] = []         # the writer under sys.stderr, once guarded


def guard_standard_streams() -> None:
    """Make stdin, stdout and stderr safe in whatever state the command was started with.

    A closed descriptor 0, 1 or 2 is taken by /dev/null, so that no file the command opens
    gets its number (where reports or messages would be written into it), but stays closed
    to the command: reading a closed stdin fails as an unreadable file does, and writing a
    closed stdout as a full disk does (both exit 2, one line).  stderr never fails: what it
    cannot take (closed, `2>/dev/full`) is dropped, and `stderr_lost` says so.
    """
    closed = [descriptor for descriptor in (0, 1, 2) if not _is_open(descriptor)]
    for descriptor in closed:
        null = os.open(os.devnull, os.O_RDONLY if descriptor == 0 else os.O_WRONLY)
        if null != descriptor:          # the lowest free number: a closed one below it is taken first
            os.dup2(null, descriptor)
            os.close(null)
    if 0 in closed:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedReader()), encoding="utf-8")
    if 1 in closed:
        sys.stdout = _stdout_stream(-1)
    current = sys.stderr
    if current is None or 2 in closed or _descriptor(current) == 2:
        writer = _ForgivingWriter(-1 if 2 in closed else 2)
        _STDERR[:] = [writer]
        sys.stderr = io.TextIOWrapper(io.BufferedWriter(writer), encoding=getattr(current, "encoding", "utf-8"),
                                      errors="backslashreplace", line_buffering=True)


def stderr_lost() -> bool:
    """Whether something written to stderr could not be (see `guard_standard_streams`)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.flush()
    return any(writer.lost for writer in _STDERR)


def _is_open(descriptor: int) -> bool:
    try:
        os.fstat(descriptor)
    except OSError:
        return False
    return True


def _descriptor(stream: IO[str]) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def name_stdout_errors() -> None:
    """Replace sys.stdout by a UTF-8 stream whose failures say `<stdout>` (a full disk is a
    CannotWrite, a closed pipe a ClosedPipe).  UTF-8 whatever the locale says: stdout holds the
    bytes `-o FILE` writes, which an ASCII or Latin-1 locale could not encode.  On a terminal,
    control characters are shown as escapes (`_ShownText`).  Left as it is when it is not a
    real descriptor."""
    current = sys.stdout
    try:
        descriptor = current.fileno()
    except (AttributeError, OSError, ValueError):
        return
    current.flush()
    sys.stdout = _stdout_stream(descriptor, current.errors or "strict", bool(current.line_buffering))


def discard_stdout() -> None:
    """Send what is left in stdout's buffer nowhere (after a closed pipe or a full disk), so
    that the interpreter's last flush does not fail again."""
    raw = getattr(getattr(sys.stdout, "buffer", None), "raw", None)
    if isinstance(raw, NamedWriter):
        raw.dropping = True
        return
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
