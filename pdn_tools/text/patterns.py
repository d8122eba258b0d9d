"""Regular expressions compiled when first used: `lazy(pattern)` for one a module keeps but a run may never use.

Compiling a regular expression runs Python's own parser of them: some 11,000 instructions a
character of the pattern, at every start.  A one-game `pdn validate` on the compiled engine uses
none of the reader's patterns for moves and tags that the pure engine and unusual games need
(about 20 M instructions of them, docs/start-up.md).  `lazy(pattern)` compiles the pattern the
first time one of its methods is asked for, then keeps the compiled pattern's methods as its own
attributes: later calls cost what the compiled pattern's own do.
"""
from __future__ import annotations

import re
from typing import Any, cast

_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "split", "sub", "subn")


class _Lazy:
    """A pattern and its flags, compiled when a method is first asked for."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern, self.flags = pattern, flags

    def __getattr__(self, name: str) -> Any:
        """Any attribute of the compiled pattern: compiled on the first, its methods kept as this one's."""
        compiled = self.__dict__.get("compiled")
        if compiled is None:
            compiled = self.compiled = re.compile(self.pattern, self.flags)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, compiled when first used (its methods alone: not for
    `isinstance` nor as the pattern argument of the `re` functions)."""
    return cast(re.Pattern[str], _Lazy(pattern, flags))
