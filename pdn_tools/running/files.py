"""Files written atomically: replaced only once complete (their temporary files locked while
written, removed by SIGTERM and SIGHUP too: running/signals.py), given the old file's owner, mode
and attributes; devices and FIFOs written straight; compressed as their names say."""
from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import re
import stat
from typing import IO, TYPE_CHECKING, Any, Callable, Iterable, Iterator, TextIO

from pdn_tools.running.output import CannotWrite, NamedWriter, cannot_write

if TYPE_CHECKING:
    import tempfile

    from _typeshed import ReadableBuffer

TERMINAL = "a terminal; not written to one"
INCOMPLETE = "an input ended before its end: left as it was (--partial writes the games read)"
_TEMPORARY: set[str] = set()        # temporary files being written, removed on SIGTERM and SIGHUP
_SWEPT: set[str] = set()            # folders whose left-over temporary files this process removed


def overwritten_input(outputs: Iterable[str], inputs: Iterable[str]) -> tuple[str, str] | None:
    """(output, input) when writing one of `outputs` ('-': stdout, whatever file it was given) would
    replace or grow a file of `inputs` ('-': stdin): the same file by (st_dev, st_ino), whatever the
    paths (./a.pdn, a symbolic link, a hard link); None when no output is an existing regular file
    among them."""
    written = {}
    for output in outputs:
        with contextlib.suppress(OSError):
            info = os.fstat(1) if output == "-" else os.stat(output)
            if stat.S_ISREG(info.st_mode):
                written[(info.st_dev, info.st_ino)] = output
    if not written:
        return None
    for path in inputs:
        with contextlib.suppress(OSError):
            info = os.fstat(0) if path == "-" else os.stat(path)
            if (info.st_dev, info.st_ino) in written:
                return written[(info.st_dev, info.st_ino)], path
    return None


def _always() -> bool:
    return True


@contextlib.contextmanager
def atomic_output(path: str, complete: Callable[[], bool] = _always, recompress: bool = False) -> Iterator[TextIO]:
    """A UTF-8 text stream written to `path`.

    A regular file (or a symbolic link to one: the target is written, the link kept) that may be
    written is replaced only when the block ends without an error and `complete()` says the output is
    whole (else a CannotWrite says it was not written): written beside it, given its owner,
    group, mode and extended attributes, then renamed over it; on an error or a SIGTERM/SIGHUP nothing is left
    behind.  Anything else (a device such as /dev/null, a FIFO, /dev/stdout) is written
    straight, never replaced.  The text is compressed as `path`'s name says (`games.pdn.gz`:
    gzip, bzip2, xz, zstd), or with `recompress` (a file rewritten in place) as the data of the
    file it replaces is; or not written when that cannot be (a CannotWrite before the block
    runs).  Errors are CannotWrite naming `path`.
    """
    try:
        packer = _packer(path, recompress)
        descriptor = _descriptor_of(path)
        target = None if descriptor is not None else _replaceable(path)
    except OSError as error:
        raise cannot_write(error, path) from None
    if target is None:
        with _straight(path, descriptor, packer) as stream:
            yield stream
    else:
        with _replacing(path, target, complete, packer) as stream:
            yield stream


def _descriptor_of(path: str) -> int | None:
    """The standard descriptor (1 or 2) already open on `path` (`-o /dev/stdout`), if any:
    written through, so that `>>` appends and nothing is truncated or replaced."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    for descriptor in (1, 2):
        with contextlib.suppress(OSError):
            if os.path.samestat(info, os.fstat(descriptor)):
                return descriptor
    return None


def names_a_terminal(path: str) -> bool:
    """Whether `path` is a terminal: `/dev/tty`, `/dev/stdout` on one, a link to one."""
    try:
        if not stat.S_ISCHR(os.stat(path).st_mode):
            return False
        descriptor = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        return os.isatty(descriptor)
    finally:
        os.close(descriptor)


def _replaceable(path: str) -> str | None:
    """The regular file to replace for `path`: itself, or the file a link leads to; None for
    anything that must be written straight (not a regular file).  One that may not be written (its
    mode, a read-only file system) is the OSError open() gives: renaming over it would ignore that."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if path.endswith(("/", os.sep)):        # a folder, which open() would not make a file of either
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path) from None
        return os.path.realpath(path)
    if not stat.S_ISREG(info.st_mode):
        return None
    if not os.access(path, os.W_OK):        # the reason the system gives, as `>` would (never truncated)
        os.close(os.open(path, os.O_WRONLY))
    return os.path.realpath(path)


@contextlib.contextmanager
def _straight(path: str, descriptor: int | None, packer: Any) -> Iterator[TextIO]:
    try:
        opened = os.dup(descriptor) if descriptor is not None else os.open(path, os.O_WRONLY)
    except OSError as error:
        raise cannot_write(error, path) from None
    if packer is not None and os.isatty(opened):        # compressed data: binary, never to a terminal
        os.close(opened)
        raise CannotWrite(errno.ENOTTY, TERMINAL, path)
    writer = _writer(NamedWriter(opened, path, True), packer)
    with io.TextIOWrapper(io.BufferedWriter(writer), encoding="utf-8") as stream:
        yield stream
        stream.flush()
        if isinstance(writer, _Compressing):
            writer.end()


@contextlib.contextmanager
def _replacing(path: str, target: str, complete: Callable[[], bool], packer: Any) -> Iterator[TextIO]:
    try:
        descriptor, temporary = _new_temporary(os.path.dirname(target))
    except OSError as error:            # a file that may be written, in a folder that may not (`>` could)
        folder = isinstance(error, PermissionError) and os.path.exists(target)
        raise cannot_write(error, path, f"its folder cannot take the new file ({error.strerror})" if folder
                           else None) from None
    try:
        writer = _writer(NamedWriter(descriptor, path, True), packer)
        with io.TextIOWrapper(io.BufferedWriter(writer), encoding="utf-8") as stream:
            yield stream
            stream.flush()
            if not complete():
                raise CannotWrite(errno.EIO, INCOMPLETE, path)
            if isinstance(writer, _Compressing):
                writer.end()
            _commit_step(os.fsync, path, descriptor)
        _keep_owner_and_mode(temporary, target, path)
        _commit_step(os.replace, path, temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    finally:
        _TEMPORARY.discard(temporary)


def _packer(path: str, recompress: bool) -> Any:
    """The compressor for the text written to `path`: as its name says, or with `recompress` as the
    data of the file `path` already holds (None: none, or no such file); an OSError when that
    compression cannot be written."""
    from pdn_tools.text.source import compression_named, compressor, compressor_of     # not paid by every start

    if recompress:
        try:
            return compressor_of(path)
        except FileNotFoundError:
            return None
    kind = compression_named(path)
    return None if kind is None else compressor(kind)


def _writer(out: NamedWriter, packer: Any) -> NamedWriter | _Compressing:
    """`out`, or with a `packer` a writer that compresses into it."""
    return out if packer is None else _Compressing(out, packer)


class _Compressing(io.RawIOBase):
    """A raw writer that compresses what it is given into `out` with `packer` (text/source.py's
    `compressor`); `end` writes the end of the compressed data."""

    def __init__(self, out: NamedWriter, packer: Any) -> None:
        super().__init__()
        self.out, self.packer = out, packer

    def writable(self) -> bool:
        return True

    def write(self, data: ReadableBuffer, /) -> int:
        self._put(self.packer.compress(data))
        return memoryview(data).nbytes

    def end(self) -> None:
        self._put(self.packer.flush())

    def _put(self, packed: bytes) -> None:
        view = memoryview(packed)
        while view:
            view = view[self.out.write(view):]

    def close(self) -> None:
        self.out.close()
        super().close()


def _new_temporary(folder: str) -> tuple[int, str]:
    """Create a hidden temporary file in `folder` named with this process's id and locked while it is
    written (so that a later process knows when it is left over: see `remove_left_overs`), its name in
    `_TEMPORARY` before the file exists, so a SIGTERM or SIGHUP at any point finds and removes it.  One
    removed before it was locked (by a process that cannot see this one: `_remove_unlocked`) is made again."""
    remove_left_overs(folder)
    while True:
        temporary = os.path.join(folder, f".pdn-{os.getpid()}-{os.urandom(8).hex()}.tmp")
        _TEMPORARY.add(temporary)
        try:
            descriptor = os.open(temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        except BaseException as error:
            _TEMPORARY.discard(temporary)
            if not isinstance(error, FileExistsError):
                raise
            continue
        with contextlib.suppress(OSError):      # a file system without locks: the process id alone tells
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        if os.fstat(descriptor).st_nlink:
            return descriptor, temporary
        os.close(descriptor)
        _TEMPORARY.discard(temporary)


_LEFT_OVER = re.compile(r"\.pdn-(\d+)-[0-9a-f]{16}\.tmp")


def remove_left_overs(folder: str) -> None:
    """Remove from `folder` the temporary files of processes that ended without removing them
    (SIGKILL, a crash): those whose process id, in their name, belongs to no process now, and whose
    lock no process holds.  One whose process lives (or may: another user's), or whose writer holds
    its lock (a process this one cannot see: in a container, on another machine sharing the folder),
    is kept; a folder that cannot be listed is left.  Each folder is looked at once a process (`split`
    writes many files into one)."""
    if folder in _SWEPT:
        return
    _SWEPT.add(folder)
    with contextlib.suppress(OSError), os.scandir(folder or ".") as entries:
        for entry in entries:
            found = _LEFT_OVER.fullmatch(entry.name)
            if found and not _alive(int(found.group(1))):
                _remove_unlocked(entry.path)


def _remove_unlocked(path: str) -> None:
    """Remove the temporary file `path` unless its writer holds its lock (or it cannot be locked here),
    holding the lock meanwhile: a writer that locks it after sees it gone (`_new_temporary`)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.unlink(path)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _alive(pid: int) -> bool:
    """Whether process `pid` exists (one that cannot be signalled, another user's, does)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):     # none, or past any process id
        return False
    except PermissionError:                         # another user's
        return True
    return True


def _commit_step(step: Callable[..., object], path: str, *args: object) -> None:
    try:
        step(*args)
    except OSError as error:
        raise cannot_write(error, path) from None


def _keep_owner_and_mode(temporary: str, target: str, path: str) -> None:
    """Give the new file the owner, group, mode and extended attributes of the one it replaces (a new
    file: the mode open() would give it).  A file whose owner cannot be kept is not replaced."""
    try:
        old = os.stat(target)
    except FileNotFoundError:
        _commit_step(os.chmod, path, temporary, 0o666 & ~_umask())
        return
    new = os.stat(temporary)
    if (new.st_uid, new.st_gid) != (old.st_uid, old.st_gid):
        try:
            os.chown(temporary, old.st_uid, old.st_gid)
        except OSError as error:
            raise cannot_write(error, path, f"cannot keep its owner and group ({error.strerror})") from None
    _commit_step(os.chmod, path, temporary, stat.S_IMODE(old.st_mode))
    _keep_extended_attributes(temporary, target, path)


def _keep_extended_attributes(temporary: str, target: str, path: str) -> None:
    """Give the new file the extended attributes of the one it replaces (its ACL is one); a file
    whose attributes cannot be kept is not replaced, as one whose owner cannot be."""
    try:
        names = os.listxattr(target)
    except (OSError, AttributeError):       # none on this file system (or this system)
        return
    for name in names:
        try:
            value = os.getxattr(target, name)
            with contextlib.suppress(OSError):
                if os.getxattr(temporary, name) == value:      # given already (an SELinux label)
                    continue
            os.setxattr(temporary, name, value)
        except OSError as error:
            raise cannot_write(error, path, f"cannot keep its extended attribute {name} ({error.strerror})") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def remove_temporaries() -> None:
    """Remove the temporary files being written (SIGTERM or SIGHUP arrived: running/signals.py)."""
    for temporary in list(_TEMPORARY):
        with contextlib.suppress(OSError):
            os.unlink(temporary)


TEMPORARY = "a temporary file"


def temporary_file(mode: str = "w+b", encoding: str | None = None) -> IO[Any]:
    """An unnamed temporary file (tempfile's: in TMPDIR, else /tmp...).  One that cannot be made (no such
    folder can be written, a full disk) is a CannotWrite naming TEMPORARY (`pdn: cannot write a temporary
    file: REASON`, exit 2), not a traceback, nor blamed on the file -o names."""
    import tempfile
    try:
        return tempfile.TemporaryFile(mode, encoding=encoding)
    except OSError as error:
        raise cannot_write(error, TEMPORARY) from None


def temporary_folder(prefix: str) -> tempfile.TemporaryDirectory[str]:
    """A temporary folder, removed with what it holds when its block ends; as `temporary_file` when it
    cannot be made."""
    import tempfile
    try:
        return tempfile.TemporaryDirectory(prefix=prefix)
    except OSError as error:
        raise cannot_write(error, TEMPORARY) from None
