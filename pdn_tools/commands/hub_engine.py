"""`pdn hub`: the built-in search as a Hub engine, so that any Hub GUI (or `annotate --engine`)
can use it.

A `Session` answers the protocol's lines one at a time.  Searches are by depth (`level depth=N`,
else the session's depth for every other level) and nodes (`level nodes=N`: a node limit), never
time, so answers are reproducible unless stopped.  Given a `send` function, a session searches in
a worker thread and sends `info` and `done` when the search ends, so that `stop` ends it early.
A search cut by `stop` or its node limit answers with the best move of its last complete
iteration, as Hub engines do; cut before its first iteration ended, with the first move of the
search's order (`rules.search.first_move`: the capture taking most, else the lowest start and end
squares), its `info` saying `depth=0` and no score or line.  Any other line waits for the search's
answer first (`ping` after `go` gets `pong` after `done`, and `quit` quits after it: a script
piping `go` and `quit` gets the whole search; send `stop` first to cut it).  Without `send` a
search runs to its end before `go` returns.  A search that fails answers with an `error` line
and `done`, so that a GUI waiting for `done` is not left waiting.  `ponder-hit` and the lines it does not know are
ignored, as the protocol asks.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

from pdn_tools.play.hub import HubError, format_line, hub_variant, hub_move_text, parse_line, read_move, \
    read_position, score_text
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.search import WIN, first_move, search
from pdn_tools.rules.variants import VARIANTS, Variant

MAX_DEPTH = 64
_PLAYED = {hub_variant(variant): variant for variant in VARIANTS.values()}


class Session:
    """The state of one engine session: its variant, position and search depth."""

    def __init__(self, depth: int, version: str, send: Callable[[list[str]], None] | None = None) -> None:
        self.default_depth = self.depth = depth
        self.nodes: int | None = None           # `level nodes=N`: the search's node limit
        self.version = version
        self.variant: Variant = VARIANTS["international"]
        self.position: Position | None = None
        self.quit = False
        self.send = send
        self.stop = threading.Event()
        self.worker: threading.Thread | None = None

    def answer(self, line: str) -> list[str]:
        """The lines to send back for `line` now (a search's answer comes later, through `send`)."""
        if not line.strip():
            return []
        try:
            command, args = parse_line(line)
            if command == "stop":
                self.stop.set()
                return []
            self.wait()
            handlers = {"hub": self._hub, "set-param": self._set_param, "init": self._init, "ping": self._ping,
                        "quit": self._quit, "pos": self._pos, "level": self._level, "go": self._go}
            return handlers.get(command, self._unknown)(args)
        except HubError as error:
            return [format_line("error", message=str(error))]

    def _hub(self, args: dict[str, str]) -> list[str]:
        return [format_line("id", name="pdn-tools", version=self.version),
                format_line("param", name="variant", value=hub_variant(self.variant), type="enum",
                            values=" ".join(_PLAYED)),
                format_line("param", name="depth", value=str(self.default_depth), type="int", min="1",
                            max=str(MAX_DEPTH)),
                "wait"]

    def _set_param(self, args: dict[str, str]) -> list[str]:
        name, value = args.get("name"), args.get("value", "")
        if name == "variant":
            if value not in _PLAYED:
                raise HubError(f"unknown variant {value!r}")
            self.variant, self.position = _PLAYED[value], None
        elif name == "depth":
            self.default_depth = self.depth = _depth(value)
        return []

    def _init(self, args: dict[str, str]) -> list[str]:
        return ["ready"]

    def _ping(self, args: dict[str, str]) -> list[str]:
        return ["pong"]

    def _quit(self, args: dict[str, str]) -> list[str]:
        self.quit = True
        return []

    def _pos(self, args: dict[str, str]) -> list[str]:
        self.position = None
        position = read_position(args.get("pos", ""), self.variant)
        for move in args.get("moves", "").split():
            position = position.play(read_move(position, move))
        self.position = position
        return []

    def _level(self, args: dict[str, str]) -> list[str]:
        self.depth = _depth(args["depth"]) if "depth" in args else self.default_depth
        self.nodes = _nodes(args["nodes"]) if "nodes" in args else None
        return []

    def wait(self) -> None:
        """Wait for the running search's answer to be sent."""
        if self.worker is not None:
            self.worker.join()
            self.worker = None

    def _go(self, args: dict[str, str]) -> list[str]:
        if self.position is None:
            raise HubError("no position: send pos first")
        if not self.position.legal_moves():
            return [format_line("error", message="the side to move has no legal move"), "done"]
        self.stop.clear()
        if self.send is None:
            return self._answer_search(self.position, self.depth, self.nodes)
        send, position, depth, nodes = self.send, self.position, self.depth, self.nodes
        self.worker = threading.Thread(target=lambda: send(self._answer_search(position, depth, nodes)), daemon=True)
        self.worker.start()
        return []

    def _answer_search(self, position: Position, depth: int, nodes: int | None) -> list[str]:
        """The search's lines, or an `error` line and `done` when the search fails (the GUI waits for `done`)."""
        try:
            return self._search(position, depth, nodes)
        except Exception as error:  # noqa: BLE001 - any failure must still answer the `go`
            return [format_line("error", message=f"the search failed: {type(error).__name__}: {error}"), "done"]

    def _search(self, position: Position, depth: int, nodes: int | None) -> list[str]:
        """The `info` and `done` lines of a search of `position` to `depth` (or until stopped or past
        `nodes`); `depth=0` and the first move of the search's order when no iteration completed."""
        result = search(position, depth, nodes, stop=self.stop)
        if result.score is None:
            return [format_line("info", depth="0", nodes=str(result.nodes)),
                    format_line("done", move=hub_move_text(first_move(position)))]
        assert result.best is not None
        line = " ".join(hub_move_text(move) for move in result.line)
        info = format_line("info", depth=str(result.depth), score=score_text(result.score, WIN),
                           nodes=str(result.nodes), pv=line)
        ponder = {"ponder": hub_move_text(result.line[1])} if len(result.line) > 1 else {}
        return [info, format_line("done", move=hub_move_text(result.best), **ponder)]

    def _unknown(self, args: dict[str, str]) -> list[str]:
        return []


def _nodes(text: str) -> int:
    if not text.isdecimal() or int(text) < 1:
        raise HubError(f"nodes {text!r} is not a number of 1 or more")
    return int(text)


def _depth(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_DEPTH:
        raise HubError(f"depth {text!r} is not a number from 1 to {MAX_DEPTH}")
    return int(text)
