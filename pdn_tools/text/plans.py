"""The plan recorder: a Lark parse's builder calls noted, to build later games of the same shape without Lark."""
from __future__ import annotations

from functools import wraps
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from pdn_tools.text.tokens import ScanToken

if TYPE_CHECKING:
    from pdn_tools.text.builder import _Builder

Built = TypeVar("Built")
# What a builder call was given, one child each: (TOKEN, index of the token), (BUILT, index of an
# earlier call's result) or (NONE, 0).
TOKEN, BUILT, NONE = 0, 1, 2
ChildSpec = tuple[int, int]
# The calls Lark made to build a game of one shape, in order: (method, its children); the last one's
# result is the Game.
Plan = tuple[tuple[Callable[["_Builder", list[Any]], Any], tuple[ChildSpec, ...]], ...]


class _Recording:
    """The builder calls of one parse by Lark, noted as a Plan while they are made."""

    def __init__(self, tokens: list[ScanToken]) -> None:
        self.tokens = {id(token): index for index, token in enumerate(tokens)}
        self.results: dict[int, int] = {}
        self.kept: list[object] = []           # the results, alive while their ids are used
        self.calls: list[tuple[Callable[[_Builder, list[Any]], Any], tuple[ChildSpec, ...]]] = []
        self.complete = True                   # False once a child was none of the above

    def specs(self, children: list[Any]) -> tuple[ChildSpec, ...]:
        out: list[ChildSpec] = []
        for child in children:
            if child is None:
                out.append((NONE, 0))
            elif id(child) in self.tokens:
                out.append((TOKEN, self.tokens[id(child)]))
            elif id(child) in self.results:
                out.append((BUILT, self.results[id(child)]))
            else:
                self.complete = False
        return tuple(out)

    def add(self, method: Callable[[_Builder, list[Any]], Any], specs: tuple[ChildSpec, ...], result: object) -> None:
        self.results[id(result)] = len(self.calls)
        self.kept.append(result)
        self.calls.append((method, specs))


def _recorded(method: Callable[[_Builder, list[Any]], Built]) -> Callable[[_Builder, list[Any]], Built]:
    """A builder method whose calls are noted while the builder records (see PdnParser._parse)."""
    @wraps(method)
    def call(builder: _Builder, children: list[Any]) -> Built:
        recording = builder.recording
        if recording is None:
            return method(builder, children)
        specs = recording.specs(children)        # before the call: `variation` takes its result off
        result = method(builder, children)
        recording.add(method, specs, result)
        return result
    return call
