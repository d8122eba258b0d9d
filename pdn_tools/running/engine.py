"""A Hub engine process (Scan, `pdn hub`, ...) driven for analysis, one position at a time.

The command is split like a shell's words (shlex) and run without a shell.  Each search is
sent after a `ping`, and what comes before its `pong` is left out: lines an engine sends late
(a second `done`) are never taken for the next position's answer.  The engine is
started on the first position and again when a position is of another variant (the protocol
sets the variant before `init`).  Every wait for a line has a deadline; a line that is not
the protocol's, an engine that ends, stays silent, reports an error or gives a move that is
not legal is an `EngineError`.  `close()` (or leaving the `with` block, by an error or Ctrl-C
too) ends the process and reaps it.  An engine runs in a process group of its own, its id written
in the run's registry folder while it runs: when the process that started it ends without closing
it (a pool's worker killed, or still waiting for it as the run ends), the run kills that group
(`end_engines_left`), so no engine outlives the run.
"""
from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import time
from collections import deque
from dataclasses import dataclass
from types import TracebackType
from typing import IO

from pdn_tools.play.hub import Analysis, EngineError, HubError, format_line, parse_line, position_text, read_line_of_moves, \
    read_move, read_score
from pdn_tools.rules.movegen import Position
from pdn_tools.running.files import temporary_file
from pdn_tools.text.names import printable

MAX_LINE = 1 << 16              # bytes: a longer line is not the protocol's
DEFAULT_DEPTH = 8
_QUIT_SECONDS = 1.0             # how long a quitting engine may take before it is killed
_SEARCH_LINES = ("info", "done", "pong", "error")


@dataclass(frozen=True)
class Limits:
    """How deep the engine searches (depth, else seconds a move) and how long we wait for it."""

    depth: int | None = None
    move_time: float | None = None
    timeout: float = 60.0

    def level(self) -> str:
        if self.move_time is not None:
            return format_line("level", move_time=f"{self.move_time:g}")
        return format_line("level", depth=str(self.depth if self.depth is not None else DEFAULT_DEPTH))


class HubEngine:
    """One engine command, its process started when first needed."""

    def __init__(self, command: str, limits: Limits, registry: str | None = None) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as error:
            raise EngineError(f"engine '{printable(command)}': {error}") from None
        if not self.argv:
            raise EngineError("the engine command is empty")
        self.limits = limits
        self.registry = registry                # the folder where the running engine's process id is written
        self.variant: str | None = None         # the variant the running engine plays
        self.process: subprocess.Popen[bytes] | None = None
        self.errors: IO[bytes] | None = None
        self.selector: selectors.BaseSelector | None = None
        self.lines: deque[bytes] = deque()
        self.pending = b""

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def analyse(self, position: Position, variant: str) -> Analysis:
        """The engine's score and best line for `position` (one with a legal move) of `variant`;
        an `EngineError` names the engine command."""
        try:
            return self._analyse(position, variant)
        except EngineError as error:
            raise EngineError(f"engine '{printable(shlex.join(self.argv))}': {error}") from None

    def _analyse(self, position: Position, variant: str) -> Analysis:
        if self.process is None or self.variant != variant:
            self._start(variant)
        self._send("ping", format_line("pos", pos=position_text(position)), self.limits.level(),
                   format_line("go", "analyze"))
        deadline = time.monotonic() + self.limits.timeout
        while self._read(deadline, "pong")[0] != "pong":
            pass                        # what an earlier search said late is not this one's answer
        info: dict[str, str] = {}
        while True:
            command, args = self._read(deadline, "done")
            if command not in _SEARCH_LINES:
                raise EngineError(f"unexpected {command!r} line while searching")
            if command == "info" and ("score" in args or "pv" in args):
                info = args
            if command == "done":
                return _analysis(position, args, info)

    def _start(self, variant: str) -> None:
        self.close()
        self.errors = temporary_file()
        try:
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=self.errors, bufsize=0, process_group=0)
        except OSError as error:
            raise EngineError(f"cannot start it: {error.strerror or error}") from None
        self._register(self.process.pid, True)
        assert self.process.stdout is not None
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + self.limits.timeout
        self._send("hub")
        plays = {"normal"}              # an engine that declares no variant plays international draughts
        current = "normal"
        while (line := self._read(deadline, "wait"))[0] != "wait":
            command, args = line
            if command == "param" and args.get("name") == "variant":
                current = args.get("value", "")
                plays = set(args.get("values", "").split()) | {current}
        if variant not in plays:
            raise EngineError(f"it does not play {variant} (it plays {', '.join(sorted(plays))})")
        if variant != current:
            self._send(format_line("set-param", name="variant", value=variant))
        self._send("init")
        while self._read(deadline, "ready")[0] != "ready":
            pass
        self.variant = variant

    def _send(self, *lines: str) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write("".join(line + "\n" for line in lines).encode())
            self.process.stdin.flush()
        except OSError:
            raise EngineError(self._ended()) from None

    def _read(self, deadline: float, waiting: str) -> tuple[str, dict[str, str]]:
        """The next line that is not blank, as (command, arguments); an `error` line is an error."""
        while True:
            raw = self._raw_line(deadline, waiting)
            text = raw.decode("utf-8", "replace").rstrip("\r")
            if not text.strip():
                continue
            try:
                command, args = parse_line(text)
            except HubError:
                raise EngineError(f"it sent a line that is not the Hub protocol: {printable(text[:80])!r}") from None
            if command == "error":
                raise EngineError(f"the engine says: {printable(args.get('message', ''))}")
            return command, args

    def _raw_line(self, deadline: float, waiting: str) -> bytes:
        assert self.process is not None and self.process.stdout is not None and self.selector is not None
        while not self.lines:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"no answer within {self.limits.timeout:g} s (waiting for {waiting!r})")
            if not self.selector.select(left):
                continue
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                raise EngineError(self._ended())
            *complete, self.pending = (self.pending + chunk).split(b"\n")
            self.lines.extend(complete)
            if len(self.pending) > MAX_LINE or any(len(line) > MAX_LINE for line in complete):
                raise EngineError(f"it sent a line longer than {MAX_LINE} bytes")
        return self.lines.popleft()

    def _ended(self) -> str:
        """Why the engine stopped answering: its exit status and the last line it wrote on stderr."""
        assert self.process is not None and self.errors is not None
        try:
            code = self.process.wait(_QUIT_SECONDS)
        except subprocess.TimeoutExpired:
            return "it closed its output"
        how = f"it ended (killed by signal {-code})" if code < 0 else f"it ended (exit code {code})"
        self.errors.seek(0)
        said = [line for line in self.errors.read()[-4096:].decode("utf-8", "replace").splitlines() if line.strip()]
        return how + (f": {printable(said[-1].strip()[:200])}" if said else "")

    def close(self) -> None:
        """End the engine (`quit`, then killed if it lingers) and reap it."""
        process, self.process, self.variant = self.process, None, None
        self.lines.clear()
        self.pending = b""
        if self.selector is not None:
            self.selector.close()
            self.selector = None
        if process is not None:
            try:
                if process.poll() is None and process.stdin is not None:
                    process.stdin.write(b"quit\n")
                    process.stdin.close()
                process.wait(_QUIT_SECONDS)
            except (OSError, subprocess.TimeoutExpired):
                pass
            finally:
                if process.poll() is None:
                    process.kill()
                process.wait()
                if process.stdout is not None:
                    process.stdout.close()
                self._register(process.pid, False)
        if self.errors is not None:
            self.errors.close()
            self.errors = None


    def _register(self, pid: int, running: bool) -> None:
        """The engine's entry in the registry: made when it starts, removed once it is reaped; a
        registry this process cannot reach (a Dask worker's on another machine) gets none."""
        if self.registry is None:
            return
        path = os.path.join(self.registry, str(pid))
        with contextlib.suppress(OSError):
            if running:
                open(path, "w").close()
            else:
                os.unlink(path)


def end_engines_left(registry: str) -> None:
    """Kill the process group of every engine whose id is still in `registry`: its process ended
    without closing it (killed), or has not yet (the run ends by an error, Ctrl-C or SIGTERM)."""
    for name in os.listdir(registry):
        with contextlib.suppress(ValueError, OSError):
            os.killpg(int(name), signal.SIGKILL)


def _analysis(position: Position, done: dict[str, str], info: dict[str, str]) -> Analysis:
    """The analysis a search's last `info` and its `done` give; a move or line that is not legal
    in `position`, or a score that is not one, is an error."""
    try:
        best = read_move(position, done.get("move", ""))
        line = read_line_of_moves(position, info.get("pv", ""))
        score = read_score(info["score"]) if "score" in info else None
    except HubError as error:
        raise EngineError(f"{error} (position {position_text(position)})") from None
    if not line or line[0] != best:
        line = (best,)
    return Analysis(score, line)
