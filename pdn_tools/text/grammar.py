"""The PDN grammar: text/pdn.lark (grammars/pdn.lark links to it) loaded, its Lark LALR parser (cached between runs), games parsed.

The scanner (text/scanner.py) turns text into Lark tokens in one pass; the reader splits that
token stream into games; `parse_game` runs the LALR parser over one game's tokens and builds the
model directly through an inline transformer (text/builder.py, no parse tree); a game whose token
types Lark has parsed before is built by the same transformer calls, without Lark (text/plans.py).
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pkgutil
import re
import stat
import sys
from functools import lru_cache
from typing import Any, Iterable, Iterator, cast

import lark
from lark import Lark, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from pdn_tools.text.builder import TAG_PAIR, _Builder, _Context, _fast_built, _StrictError
from pdn_tools.text.codes import Code
from pdn_tools.text.model import Diagnostic, Game
from pdn_tools.text.patterns import lazy
from pdn_tools.text.plans import BUILT, TOKEN, Plan, _Recording
from pdn_tools.text.scanner import _OPENERS, Scanner, _alternatives, _possessive
from pdn_tools.text.tokens import ERROR, ESCAPE, FastTags, Reading, ScanToken, _comment_token

def grammar_text() -> str:
    """The PDN grammar, pdn_tools/text/pdn.lark (grammars/pdn.lark links to it), as the package holds
    it, whatever the install's layout."""
    data = pkgutil.get_data("pdn_tools.text", "pdn.lark")      # by the package's loader, zipped or not
    assert data is not None, "the loader of pdn_tools.text reads no files"
    return data.decode("utf-8")


def _ours(info: os.stat_result) -> bool:
    """Whether a file or folder is the user's own and nobody else may write to it."""
    user = os.getuid() if hasattr(os, "getuid") else info.st_uid        # no owners to compare on Windows
    return info.st_uid == user and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _cache_file(key: str) -> str | None:
    """Where the parser named `key` is kept between runs (a new process loads it in about 2 ms, builds
    it in 15 to 30): a file in the user's cache folder; None when that folder cannot be made, or is
    not the user's own, or others could write to it (what it holds is unpickled), or would be relative to
    the working folder (a relative XDG_CACHE_HOME is ignored, as the XDG spec says; a HOME that is not
    absolute, or none, keeps nothing)."""
    root = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(root):
        root = os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(root, "pdn-tools")
    if not os.path.isabs(folder):
        return None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.stat(folder)
    except OSError:
        return None
    return os.path.join(folder, f"parser-{key[:16]}.lark") if stat.S_ISDIR(info.st_mode) and _ours(info) else None


def _cached(path: str, key: str) -> bytes | None:
    """The parser kept at `path` for `key`, as Lark saved it; None unless that file can be trusted: a
    regular file (not a link) of the user's own that nobody else may write to, read whole, made for
    `key` (its first line).  Unpickling anything else could run another's code.  (Opened without
    waiting: a FIFO put there does not hold the command up.)"""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        with open(os.open(path, flags), "rb") as file:
            info = os.fstat(file.fileno())
            data = file.read() if stat.S_ISREG(info.st_mode) and _ours(info) else b""
    except OSError:
        return None
    head, _, saved = data.partition(b"\n")
    return saved if head == key.encode() else None


def _loaded(saved: bytes, transformer: Transformer[ScanToken, Game]) -> Lark | None:
    """The parser Lark saved in `saved`, calling `transformer` as it parses (Lark.load does the same,
    without the transformer); None when `saved` is not one (cut short, damaged, of another Lark)."""
    try:
        return Lark.__new__(Lark)._load(io.BytesIO(saved), transformer=transformer)
    except Exception:           # unpickling damaged bytes can raise anything: the parser is built again
        return None


def _keep(lark: Lark, path: str, key: str) -> None:
    """Write the parser to `path` for later runs: to a temporary file of the same folder renamed over
    `path`, so that another process (--jobs, a Dask worker) reads a whole file or none.  A parser that
    cannot be kept (a folder that cannot be written, a full disk, a Lark that saves otherwise) is
    built again by the next run."""
    temporary = f"{path}.{os.getpid()}-{os.urandom(4).hex()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        with open(os.open(temporary, flags, 0o600), "wb") as file:
            file.write(key.encode() + b"\n")
            lark.save(file, exclude_options=("transformer",))
        os.replace(temporary, path)
    except Exception:           # a cache: nothing it fails to keep may stop the command
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _lark(text: str, transformer: Transformer[ScanToken, Game], **options: Any) -> Lark:
    """The Lark parser of grammar `text` with `options`, loaded from the user's cache folder, else built
    (and kept there).  The file is named by the grammar, the options and the versions of Lark and
    Python, so a change of any is a new file (docs/start-up.md)."""
    key = hashlib.sha256(f"{text}{sorted(options.items())}{lark.__version__}{sys.version}".encode()).hexdigest()
    path = _cache_file(key)
    saved = None if path is None else _cached(path, key)
    loaded = None if saved is None else _loaded(saved, transformer)
    if loaded is not None:
        return loaded
    built = Lark(text, transformer=transformer, **options)
    if path is not None:
        _keep(built, path, key)
    return built

class _TokenList(Lexer):
    """A 'lexer' that hands Lark the tokens the scanner already made."""

    def __init__(self, lexer_conf: object) -> None:
        pass

    # Lark hands a custom lexer the parser's input itself (here the token list), not a LexerState.
    def lex(self, tokens: Iterable[ScanToken]) -> Iterator[ScanToken]:  # type: ignore[override]
        return iter(tokens)

_PLANS_KEPT = 4096        # shapes of game whose builder calls are kept
_PLANNED_TOKENS = 4096    # tokens of the longest game whose builder calls are kept

class PdnParser(Scanner):
    """The Lark LALR parser and the scanners made from its terminals. Build once."""

    def __init__(self) -> None:
        text = grammar_text()
        # One Lark for the parser and the terminals' regular expressions: the inner rules `tags` and
        # `moves` are start symbols only so that their terminals are compiled (games start at `start`).
        self._builder = _Builder(TAG_PAIR)
        self.lark = _lark(text, self._builder, parser="lalr", lexer=_TokenList, start=["start", "tags", "moves"])
        regex = {t.name: t.pattern.to_regexp() for t in self.lark.terminals}
        for name in ("TAGS", "MOVES", "_WHITESPACE"):
            regex[name] = _possessive(regex[name])
        super().__init__(regex)
        fine = ["MOVE", "MOVENUMBER", "ELLIPSIS", "STRENGTH", "NAG", "PLACEHOLDER"]
        self._builder.fine = lazy(_alternatives({}, regex, fine))
        self._plans: dict[tuple[str, ...], Plan] = {}

    def parse_game(self, tokens: list[ScanToken], strict: bool = False, consume: bool = False,
                   reading: Reading | None = None) -> Game | Diagnostic:
        """Parse one game's tokens into a Game, or a located syntax Diagnostic.

        Leniently, text no terminal matches is kept as a comment (a parenthesised
        group holding such text, e.g. a prose remark, becomes one comment) and a
        warning says so; in strict mode it is a syntax error.
        `consume`: `tokens` is emptied as Lark reads it, so that each token is freed once built
        into the model (a long game's tokens weigh several times its model).  `reading`: how runs
        of plain moves are read (see Reading; None: each as model elements).
        """
        first = tokens[0] if tokens else None
        if type(first) is FastTags and len(tokens) == first.size and not (strict and _escaped(first)):
            return _fast_built(first, tokens, reading)
        context = _Context([], strict, reading is not None and reading.keeps_runs,
                           None if reading is None else reading.plain_run)
        self._builder.context = context
        try:
            shape = tuple([token.type for token in tokens])
            if ERROR in shape or ESCAPE in shape:
                if consume:
                    tokens[:] = self._recover(_drained(tokens))      # the caller's list is the one emptied
                else:
                    tokens = self._recover(tokens)
                shape = tuple([token.type for token in tokens])
            last = tokens[-1:]
            game = self._parse(tokens, shape, consume)
        except _StrictError as error:
            return error.diagnostic
        except UnexpectedInput as error:
            return _syntax_error(error, last)
        game.warnings = context.warnings
        return game

    def _parse(self, tokens: list[ScanToken], shape: tuple[str, ...], consume: bool) -> Game:
        """The Game the inline transformer builds from `tokens`, whose types are `shape`.

        LALR(1) decides from token types alone, so every game whose tokens have the same types
        (its shape) is parsed by the same reductions, and Lark calls the builder in the same order
        with the same kinds of children.  The first game of a shape is parsed by Lark, which
        also reports any syntax error; its builder calls are noted (a Plan), and later games of
        that shape are built by making those calls on their own tokens.  A game of more than
        _PLANNED_TOKENS tokens is parsed by Lark alone: its shape hardly comes back, and its plan
        would cost memory in the game's size for as long as it is kept; so is a game whose tokens
        are consumed (emptied from `tokens` as Lark reads them)."""
        if consume:
            return cast(Game, self.lark.parse(_drained(tokens), start="start"))
        plan = self._plans.get(shape)
        builder = self._builder
        if plan is None and len(tokens) > _PLANNED_TOKENS:
            return cast(Game, self.lark.parse(tokens, start="start"))
        if plan is not None:
            built: list[Any] = []
            for method, specs in plan:
                built.append(method(builder, [tokens[index] if kind == TOKEN else built[index] if kind == BUILT
                                              else None for kind, index in specs]))
            return cast(Game, built[-1])
        builder.recording = recording = _Recording(tokens)
        try:
            game = cast(Game, self.lark.parse(tokens, start="start"))
        finally:
            builder.recording = None
        if recording.complete:
            if len(self._plans) >= _PLANS_KEPT:
                self._plans.clear()
            self._plans[shape] = tuple(recording.calls)
        return game

    def _recover(self, tokens: Iterable[ScanToken]) -> list[ScanToken]:
        """Turn unreadable text into comments (warned) and drop literal escapes."""
        out: list[ScanToken] = []
        groups: list[list[int]] = []     # [index in out of '(', holds prose]
        for token in tokens:
            if token.type == ESCAPE:
                self._builder._quirk(token.line, token.column, Code.LITERAL_ESCAPE,
                                     "literal '\\r' or '\\n' text read as white space")
                continue
            if token.type == ERROR:
                if self._builder.context.strict:
                    raise _StrictError(unreadable(token, strict=True))
                if groups and token not in _OPENERS:
                    groups[-1][1] = True
                else:
                    self._builder.context.warnings.append(unreadable(token))
                    token = _comment_token(token.replace("}", ")"), token)
            elif token.type == "LPAR":
                groups.append([len(out), False])
            elif token.type == "RPAR" and groups:
                start, prose = groups.pop()
                if prose:
                    opening = out[start]
                    text = " ".join(str(t) for t in out[start + 1:])
                    self._builder._quirk(opening.line, opening.column, Code.PROSE,
                                         f"parenthesised text {_show(text)} read as a comment")
                    del out[start:]
                    token = _comment_token(text.replace("}", ")"), opening)
            out.append(token)
        return out

def _escaped(tags: FastTags) -> bool:
    """Whether a game read at once holds a literal escape, which is an error when strict (Lark reports it)."""
    return bool(tags.escapes) or any(token.type == ESCAPE for token in tags.rest)


def _drained(tokens: list[ScanToken]) -> Iterator[ScanToken]:
    """The tokens in order, each taken off the list as it is given."""
    tokens.reverse()
    while tokens:
        yield tokens.pop()

def unreadable(token: ScanToken, strict: bool = False) -> Diagnostic:
    """The diagnostic for text no terminal reads (kept as a comment when lenient): a '{' or
    '/' that is never closed, else prose (a syntax error when `strict`)."""
    if token in ("{", "/"):
        what = "comment" if token == "{" else "setup"
        return Diagnostic(Code.UNCLOSED, f"{str(token)!r} opens a {what} that is never closed"
                          + ("" if strict else ": read as text"), token.line, token.column)
    glued = _GLUED_RESULT.match(token)
    if glued:
        text = f"result {glued.group(1)!r} glued to {_show(token[glued.end(1):])}"
        return Diagnostic(Code.SYNTAX if strict else Code.PROSE, text if strict else text + ": read as a comment",
                          token.line, token.column)
    if strict:
        return Diagnostic(Code.SYNTAX, f"unexpected {_show(token)}", token.line, token.column)
    return Diagnostic(Code.PROSE, sys.intern(f"text {_show(token)} read as a comment"), token.line, token.column)


_GLUED_RESULT = lazy(r"(2-0|0-2|1-1|0-0|1-0|0-1|1:0|0:1|½-½|0\.5-0\.5)(?=[A-Za-z])")

def _show(token: str) -> str:
    value = str(token)
    return repr(value if len(value) <= 20 else value[:20] + "...")


def _syntax_error(error: UnexpectedInput, tokens: list[ScanToken]) -> Diagnostic:
    token = getattr(error, "token", None)
    if token is None or token.type == "$END":
        last = tokens[-1] if tokens else None
        line = last.line if last else 1
        column = last.column if last else 1
        return Diagnostic(Code.SYNTAX, "unexpected end of game (unclosed variation?)", line, column)
    hint = ""
    if token.type == "TAGS":
        hint = " (tag pair after movetext)"
    elif token.type == "RPAR":
        hint = " (')' without '(')"
    elif token.type in ("RESULT", "STAR"):
        hint = " (movetext after the result)"
    return Diagnostic(Code.SYNTAX, f"unexpected {_show(token)}{hint}", token.line, token.column)


@lru_cache(maxsize=1)
def parser() -> PdnParser:
    """The process-wide parser (building it compiles the LALR tables)."""
    return PdnParser()
