"""Reading PDN: bytes → text blocks → tokens → games, streamed one game at a time.

The input is decoded in blocks (its encoding found once per file, see decoding.py),
scanned into tokens block by block, split into games at terminators and tag
sections (splitter.py), and each game is parsed on its own.  Memory is bounded by the longest
game, never by the longest line.  A game that cannot be
read becomes a `ReadError` and reading goes on, so games in = games reported.
`engine` (a rules.core.Engine, see tokens.Reading) says how runs of plain moves are read:
found by the compiled core's scanner and kept as text for it to play, or as model elements
(None); the games read are the same.
"""
from __future__ import annotations

import io
import re
from typing import Iterable, Iterator, Sequence

from pdn_tools.text.codes import Code
from pdn_tools.text.decoding import CannotDecode, Decoder
from pdn_tools.text.grammar import parser, unreadable
from pdn_tools.text.scanner import HOLD, WHITE_SPACE as _WHITE_SPACE
from pdn_tools.text.tokens import Reading, ScanToken
from pdn_tools.text.model import Comment, Diagnostic, Game, ReadError
from pdn_tools.text.source import NotPdn, Source, cut_of, input_bytes, opened_source
from pdn_tools.text.splitter import MAX_GAME_BYTES as MAX_GAME_BYTES, RawGame as RawGame, TERMINATORS, split_games

CONSUMED = 4096                # tokens of a game beyond which they are freed as it is parsed (see parse_raw)


# ---- scanning ---------------------------------------------------------------------------

_OVERLAP = 256                # characters of a waiting construct searched again with the next block


def scan(blocks: Iterable[str], line: int = 1, engine: Reading | None = None) -> Iterator[ScanToken]:
    """Tokens of the whole text, given in blocks, its first line numbered `line`.

    Each block is scanned up to its last line end (else its last white space); the rest
    waits for the next block.  A comment, tag or setup still open waits, without being
    scanned again, until a block brings what can close it; one spanning lines that grows
    past HOLD characters is read as it stands (so memory stays bounded).
    """
    pdn = parser()
    moves_end = None if engine is None else engine.moves_end
    fast_game = None if engine is None else engine.fast_game
    pending: list[str] = []       # text not scanned yet
    size = 0
    column = 1
    waiting: re.Pattern[str] | None = None
    multiline = False             # the waiting text holds a line end
    blank = False                 # a blank line came after the last token
    for block, last in _with_last(blocks):
        if last:
            yield from pdn.tokens("".join(pending) + block, line, column, blank=blank, moves_end=moves_end,
                                  fast_game=fast_game).tokens
            return
        closing = False           # the block may close the construct that waits
        if waiting is not None:
            tail = pending[-1][-_OVERLAP:] if pending else ""
            multiline = multiline or "\n" in block
            closing = waiting.search(tail + block) is not None
            if not closing and not (multiline and size + len(block) > HOLD):
                pending.append(block)
                size += len(block)
                continue
        text = "".join(pending) + block if pending else block
        hold = not (multiline and len(text) > HOLD)
        end = len(text) if closing and waiting is not _WHITE_SPACE else _scan_end(text, len(text) - len(block))
        scanned = pdn.tokens(text, line, column, end, more=True, hold=hold, blank=blank, moves_end=moves_end,
                             fast_game=fast_game)
        yield from scanned.tokens
        rest = text[scanned.consumed:]
        pending, size = ([rest], len(rest)) if rest else ([], 0)
        line, column, waiting, blank = scanned.line, scanned.column, scanned.waiting, scanned.blank
        multiline = waiting is not None and "\n" in rest


def _with_last(blocks: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Each block, and whether it is the last one.  A last block with no line end in it (a text
    whose last line has no line end: the decoder hands that line over on its own) comes joined
    to the block before it, so that a game ending on that line is scanned whole (and read at once
    when it is common); the scanner's tokens are the same wherever a text is cut.  One block is
    read ahead, two after a block with no line end."""
    held: list[str] = []        # a block, and the one after it while that one may be the last
    for block in blocks:
        if len(held) == 2:
            yield held.pop(0), False
        if held and "\n" in block:
            yield held.pop(), False
        held.append(block)
    if len(held) == 2:
        held[:] = [held[0] + held[1]]
    if held:
        yield held[0], True


def _scan_end(text: str, new: int) -> int:
    """Where to stop scanning `text` (whose last `len(text) - new` characters are new): after
    its last line end, else after its last white space that cannot be inside a move or a
    placeholder (`1- 6`, `28x 19`, `- -` hold one), else at its end."""
    end = text.rfind("\n", new) + 1
    if end:
        return end
    cut = None
    for cut in _CUT.finditer(text, new):
        pass
    return cut.start() + 1 if cut is not None else len(text)


# White space that starts a run after a character that cannot join it to an item (`1- 6`,
# `28x 19` and `- -` hold white space).
_CUT = re.compile(r"(?<![-xX: \t\f])[ \t\f]")


# ---- public API ---------------------------------------------------------------------

class RawGames:
    """The games of `source` split but not parsed, each with the file's warnings (encoding,
    undecodable bytes) that fall within it or before it; the last game takes the rest.
    Once iterated, `codec` is the encoding the text was read in ('utf-8', 'cp1251', ...), and `cut`
    says why the source ended before its end (compressed data cut or damaged, a file changed while
    read: see decoding.cut_of), if it did; then the text after the last terminator is cut: a last
    game not ended by its terminator is not yielded, and nothing after a terminator goes with the
    game it ends.
    `line` numbers the source's first line (a range read from within a file: text/ranges.py);
    a game longer than `max_game_bytes` characters is marked too large (see split_games)."""

    def __init__(self, source: Source, name: str | None = None, encoding: str | None = None, line: int = 1,
                 max_game_bytes: int = MAX_GAME_BYTES, engine: Reading | None = None) -> None:
        self.source, self.name, self.encoding, self.line = source, name, encoding, line
        self.max_game_bytes, self.engine = max_game_bytes, engine
        self.codec = "utf-8"
        self.cut: Diagnostic | None = None

    def __iter__(self) -> Iterator[tuple[RawGame, list[Diagnostic]]]:
        stream, shown, opened = opened_source(self.source)
        decoder = Decoder(stream, self.encoding, line=self.line)
        try:
            previous: RawGame | None = None
            try:
                for raw in split_games(scan(decoder.blocks(), self.line, self.engine), self.max_game_bytes):
                    raw.name = self.name or shown
                    if previous is not None:
                        yield previous, _notes_until(decoder.warnings, previous.last_line) if decoder.warnings else []
                    previous = raw
            except CannotDecode as error:           # bytes a codec the user named fails on
                raise NotPdn(str(error)) from None
            reason = cut_of(stream)
            if previous is not None and reason is not None and _ended(previous):
                previous.after = []         # what follows its terminator is cut text, not its comments
            if previous is not None and (reason is None or _ended(previous)):
                yield previous, _notes_until(decoder.warnings, None)
            if reason is not None:
                self.cut = Diagnostic(Code.TRUNCATED, f"{reason}; the text stops in line {decoder.line}",
                                      decoder.line, decoder.column)
        finally:
            self.codec = decoder.codec
            if opened:
                stream.close()


def _ended(raw: RawGame) -> bool:
    """Whether `raw` holds its terminator (a result or '*' outside variations)."""
    depth = 0
    for token in raw.tokens:
        depth += (token.type == "LPAR") - (token.type == "RPAR")
        if depth <= 0 and token.type in TERMINATORS:
            return True
    return False


def read_raw(source: Source, name: str | None = None, encoding: str | None = None, line: int = 1,
             max_game_bytes: int = MAX_GAME_BYTES, engine: Reading | None = None) -> RawGames:
    """The games of `source` split but not parsed, each with the file's warnings (see RawGames)."""
    return RawGames(source, name, encoding, line, max_game_bytes, engine)


def _notes_until(notes: list[Diagnostic], line: int | None) -> list[Diagnostic]:
    """Take from `notes` (in line order) those up to `line` (all when None)."""
    count = len(notes) if line is None else next((i for i, n in enumerate(notes) if n.line > line), len(notes))
    taken = notes[:count]
    del notes[:count]
    return taken


def read_games(source: Source, strict: bool = False, name: str | None = None,
               encoding: str | None = None, *, max_game_bytes: int = MAX_GAME_BYTES,
               engine: Reading | None = None) -> Iterator[Game | ReadError]:
    """Stream the games of a PDN source: a path, '-' for stdin, or a file object.

    Yields a `Game` for each game read and a `ReadError` for each game that could
    not be read (with file, line, column and game index).  Never raises on bad
    input; lenient quirks are recorded as warnings (errors when `strict`).
    `encoding` names the codec of the input instead of detecting it (LookupError
    when Python knows no such text codec, or pdn cannot read a file in it: see
    decoding.known_encoding).  A game longer than `max_game_bytes` characters
    is a ReadError (game-too-large), its memory bounded by the limit.  Compressed input (gzip,
    bzip2, xz) is decompressed.  Binary data is one ReadError (code `binary`, as `pdn` refuses
    it), and so are bytes that a codec named fails on (after the games before them); input that
    ends before its end (compressed data cut or damaged, a file changed while read) gives its
    complete games, then a ReadError with code `truncated` in place of the rest.
    `engine` reads runs of moves its way (see the module's docstring); the games are the same.
    """
    stream, shown, opened = opened_source(source)
    try:
        index = 0
        try:
            games = read_raw(input_bytes(stream), name or shown, encoding, max_game_bytes=max_game_bytes,
                             engine=engine)
            for index, (raw, file_warnings) in enumerate(games, 1):
                yield parse_raw(raw, index, strict, file_warnings, engine)
        except NotPdn as error:         # binary data, or bytes a codec named fails on
            yield ReadError(name or shown, index + 1, 1, 1, str(error), Code.BINARY)
            return
        if games.cut is not None:
            cut = games.cut
            yield ReadError(name or shown, index + 1, cut.line, cut.column, cut.message, cut.code)
    finally:
        if opened:
            stream.close()


def read_text(text: str, strict: bool = False, name: str = "<string>",
              engine: Reading | None = None) -> list[Game | ReadError]:
    """All games of a PDN string (for tests and small inputs); a lone surrogate in it (text decoded
    with errors='surrogateescape') is read as '?'."""
    if not isinstance(text, str):
        raise TypeError(f"read_text takes a str, not {type(text).__name__}: read_games(io.BytesIO(data)) reads bytes")
    return list(read_games(io.BytesIO(text.encode("utf-8", "replace")), strict, name, engine=engine))


def parse_raw(raw: RawGame, index: int, strict: bool = False,
              file_warnings: Sequence[Diagnostic] = (), engine: Reading | None = None, *,
              keep: bool = False) -> Game | ReadError:
    """Parse one split game (game `index` of its file) into a Game or a ReadError.

    `raw` gives up its tokens: they are dropped once read, so that a long game's tokens (a
    Python object each, several times the text they hold) are not kept while the game is
    replayed by whoever still holds `raw` (the generators that cut it, a batch loop).  Those of
    a game of more than CONSUMED tokens are freed while it is parsed, each once built into the
    model; its text is kept until then instead, for the ReadError it may be.  With `keep`, `raw`
    stays whole (a copy of its lists gives them up): a Dask task's input, which Dask may hand to a
    task again.  `engine`: see the module's docstring."""
    if keep:
        raw = RawGame(list(raw.tokens), raw.name, list(raw.before), list(raw.after), raw.warnings, raw.too_large)
    try:
        return _parsed(raw, index, strict, file_warnings, engine)
    finally:
        raw.tokens, raw.before, raw.after = [], [], []


def _parsed(raw: RawGame, index: int, strict: bool, file_warnings: Sequence[Diagnostic],
            engine: Reading | None) -> Game | ReadError:
    pdn = parser()
    name = raw.name
    warnings = list(file_warnings) + raw.warnings
    if raw.too_large:
        start = raw.tokens[0]
        return ReadError(name, index, start.line, start.column, f"game longer than {raw.too_large} characters: "
                         "not read (--max-game-bytes)", Code.GAME_TOO_LARGE, "", warnings)
    line, consume = raw.line, len(raw.tokens) > CONSUMED
    kept = raw.text() if consume else None

    def text() -> str:
        return kept if kept is not None else raw.text()
    parsed = pdn.parse_game(raw.tokens, strict, consume, engine)
    if strict:
        problems = [w for w in raw.warnings if w.code.strict_fatal]
        problems += [parsed] if isinstance(parsed, Diagnostic) else []
        if problems:
            first = min(problems, key=lambda d: (d.line, d.column))
            return ReadError(name, index, first.line, first.column, first.message, first.code,
                             text(), warnings)
    if isinstance(parsed, Diagnostic):
        return ReadError(name, index, parsed.line, parsed.column, parsed.message, parsed.code,
                         text(), warnings)
    if raw.before or raw.after:
        outside = [t for t in raw.before + raw.after if t.type == "ERROR"]
        if outside and strict:
            first = unreadable(outside[0], strict=True)
            return ReadError(name, index, first.line, first.column, first.message, first.code, text(), warnings)
        warnings += [unreadable(t) if t in ("{", "/") else Diagnostic(Code.PROSE, f"text {str(t)[:20]!r} read as a "
                                                                      "comment", t.line, t.column) for t in outside]
        parsed.before = [_comment(t) for t in raw.before if t.type != "ESCAPE"]
        parsed.after = [_comment(t) for t in raw.after if t.type != "ESCAPE"]
    parsed.line, parsed.index, parsed.file = line, index, name
    parsed.warnings = warnings + parsed.warnings if warnings else parsed.warnings
    return parsed


def _comment(token: ScanToken) -> Comment:
    if token.type == "COMMENT":
        return Comment(str(token)[1:-1])
    if token.type == "ERROR":
        return Comment(str(token).replace("}", ")"))
    return Comment(str(token)[1:], str(token)[0])
