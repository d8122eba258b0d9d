"""The scanner: text to tokens by one regular expression made from the grammar's terminals."""
from __future__ import annotations

import re
from functools import cached_property

from pdn_tools.text.records import record
from pdn_tools.text.tokens import (ERROR, ESCAPE, FastGame, FastRead, MovesEnd, ScanToken, _fast_tags,
                                   _scanned)

_COARSE = ("TAGS", "COMMENT", "LINE_COMMENT", "SETUP", "RESULT", "STAR", "MOVES", "LPAR", "RPAR")

def _possessive(pattern: str) -> str:
    """`pattern` (a run: 'X(...)*' or '(...)+' as Lark writes it) with its last repetition made
    possessive: nothing follows it, so the match is the same, and the regular expression engine
    keeps no backtracking state per item (a long run used to cost hundreds of bytes per character)."""
    assert pattern.endswith((")*", ")+")), pattern
    return pattern + "+"


def _alternatives(first: dict[str, str], regex: dict[str, str], names: list[str]) -> str:
    parts = {**first, **{name: regex[name] for name in names}}
    return "|".join(f"(?P<{name}>{pattern})" for name, pattern in parts.items())

_MULTILINE = {"COMMENT", "TAGS", "SETUP", "MOVES"}
HOLD = 1 << 22                   # longest comment, tag or setup spanning lines read across scan chunks
# A blank line, then a line that starts a tag pair: a comment or setup never runs across it.
_NEXT_GAME = r'[ \t\f]*\n[ \t\f]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]*"'
_OPENERS = {"{", "[", "/"}
_CLOSERS = {"{": re.compile(r"\}|\n(?=" + _NEXT_GAME + ")"), "/": re.compile(r"/|\n(?=" + _NEXT_GAME + ")"),
            "[": re.compile(r"[\]\n]")}
WHITE_SPACE = re.compile(r"\s")
_LINE_END = re.compile(r"\n")   # what a token cut by the end of a block waits for


@record(slots=True)
class Scanned:
    """What `Scanner.tokens` scanned: tokens, how far (offset, line, column), and for a
    construct left open at the end, the pattern more text must hold to close it."""

    tokens: list[ScanToken]
    consumed: int
    line: int
    column: int
    waiting: re.Pattern[str] | None
    blank: bool = False          # a blank line came after the last token

    def __init__(self, tokens: list[ScanToken], consumed: int, line: int, column: int,
                 waiting: re.Pattern[str] | None, blank: bool = False) -> None:
        self.tokens, self.consumed, self.line, self.column, self.waiting, self.blank = (
            tokens, consumed, line, column, waiting, blank)

class Scanner:
    """The scanners made from the grammar's terminals (`regex`: each terminal's regular expression)."""

    def __init__(self, regex: dict[str, str]) -> None:
        self._regex = regex

    # The four scanners are compiled when first used (a run uses one or two, and each takes 1 to 2.5 ms).
    def _scanner(self, left_out: tuple[str, ...]) -> re.Pattern[str]:
        names = [name for name in _COARSE if name not in left_out]
        return re.compile(_alternatives({"WS": self._regex["_WHITESPACE"]}, self._regex, names)
                          + rf"|(?P<{ERROR}>[^\s{{}}\[\]()/]+|.)")

    @cached_property
    def scanner(self) -> re.Pattern[str]:
        """The text's tokens, a regular expression for each terminal the scanner makes."""
        return self._scanner(())

    @cached_property
    def comment_free(self) -> re.Pattern[str]:
        """The same, for text after a '{' that is never closed: no comment can start there."""
        return self._scanner(("COMMENT",))

    @cached_property
    def _scanner_runs_apart(self) -> re.Pattern[str]:
        """`scanner` without MOVES, for scanning with the compiled core's moves_end (see tokens)."""
        return self._scanner(("MOVES",))

    @cached_property
    def _comment_free_runs_apart(self) -> re.Pattern[str]:
        """`comment_free` without MOVES."""
        return self._scanner(("COMMENT", "MOVES"))

    def tokens(self, text: str, line: int = 1, column: int = 1, end: int | None = None,
               more: bool = False, hold: bool = False, blank: bool = False,
               moves_end: MovesEnd | None = None, fast_game: FastGame | None = None) -> Scanned:
        """Scan `text[:end]` (line ends already '\\n'), which starts at (line, column).

        `more`: more text follows, so the scan stops before a token that reaches `end`
        (and the white space before it), which the caller scans again with more text.
        `hold`: a comment, tag or setup still open at `end` also stops the scan, and
        `Scanned.waiting` says what has to come before scanning it again is worth it.
        White space that reaches `end` is scanned (not scanned again with the next text, which
        made a long run cost the square of its length): `blank`, whether a blank line came
        before `text` since the last token, goes on to the next call in `Scanned.blank`.
        A comment or setup that meets a blank line followed by a tag pair is not open:
        it was never closed, and its opening character is read as text (ERROR).
        `moves_end`: the compiled core's (see Reading), else the regular expression finds runs.
        `fast_game`: the compiled scanner's (see Reading): where white space ends at a '[', the common
        game there (plain tag pairs, runs of plain moves and comments, a result, a line end: nothing
        else, so nothing to warn about) is read at once, its tokens the very ones scanning makes; they come
        as one, its FastTags, which holds the others (splitter.split_games takes them at once).
        """
        stop = len(text) if end is None else end
        out: list[ScanToken] = []
        line_start = 1 - column
        blank_before = blank
        gap, gap_end = None, -1      # (start, line, line_start, tokens kept) of the last white space
        next_bracket = -1            # offset of the next ']' after the last '[' looked at
        last_newline = -2            # offset of the last line end (-1: none), found when first needed
        # With moves_end, the scanners leave MOVES out: where one starts, theirs is the next
        # alternative that matches (LPAR or ERROR), and moves_end says whether and where the
        # MOVES token the full scanner would have matched ends.
        main = self.scanner if moves_end is None else self._scanner_runs_apart    # (comment_free: made when needed)
        scanner, segment_end, pos = main, stop, 0
        if fast_game is not None and text[:1] == "[":
            game = fast_game(text, 0, stop, not more)
            if game is not None:
                pos, line, line_start = _fast_tokens(game, text, 0, line, line_start, blank_before, out)
                if text.startswith("[", pos):
                    pos, line, line_start = _glued_games(fast_game, text, pos, stop, not more, line, line_start, out)
                blank_before = False
        while pos < stop:
            resume = stop
            for match in scanner.finditer(text, pos, segment_end):
                kind: str = match.lastgroup  # type: ignore[assignment]  # every alternative is a named group
                start = match.start()
                end = match.end()
                if moves_end is not None and (kind == ERROR or kind == "LPAR"):
                    run_end = moves_end(text, start, segment_end)
                    if run_end >= 0:
                        kind, end = "MOVES", run_end
                if more and end == stop and (kind != "WS" or "\\" in text[start:end]):
                    if kind != "WS" and gap is not None and gap_end == start:
                        start, line, line_start, kept = gap
                        del out[kept:]
                    return Scanned(out, start, line, start - line_start + 1,
                                   None if kind == "WS" else WHITE_SPACE, blank_before)
                value = match.group() if end == match.end() else text[start:end]
                if kind == "LINE_COMMENT" and more:         # it ends at a line end, not at a block end
                    if last_newline == -2:
                        last_newline = text.rfind("\n", 0, stop)
                    if start > last_newline:
                        if gap is not None and gap_end == start:
                            start, line, line_start, kept = gap
                            del out[kept:]
                        return Scanned(out, start, line, start - line_start + 1, _LINE_END, blank_before)
                if kind == "WS":
                    gap, gap_end = (start, line, line_start, len(out)), end
                    if "\\" in value:
                        out.append(_scanned(ESCAPE, value, start, line, start - line_start + 1, False))
                    newlines = value.count("\n")
                    if newlines:
                        line += newlines
                        line_start = value.rfind("\n") + start + 1
                        blank_before = blank_before or newlines > 1
                    if fast_game is not None and end < segment_end and text[end] == "[" and scanner is main:
                        game = fast_game(text, end, segment_end, not more)
                        if game is not None:
                            pos, line, line_start = _fast_tokens(game, text, end, line, line_start, blank_before,
                                                                 out)
                            if text.startswith("[", pos):
                                pos, line, line_start = _glued_games(fast_game, text, pos, stop, not more, line,
                                                                     line_start, out)
                            blank_before = False
                            break
                    continue
                if kind == ERROR and value in _OPENERS and scanner is main:
                    if value == "[":          # open while no ']' follows (found once per ']')
                        if next_bracket < start:
                            found = text.find("]", start, stop)
                            next_bracket = found if found >= 0 else stop
                        closer = None
                        open_at_end = next_bracket == stop
                    else:
                        closer = _CLOSERS[value].search(text, start + 1, stop)
                        open_at_end = closer is None
                    if open_at_end and hold:
                        if gap is not None and gap_end == start:
                            start, line, line_start, kept = gap
                            del out[kept:]
                        return Scanned(out, start, line, start - line_start + 1, _CLOSERS[value], blank_before)
                    if value == "{":
                        resume = closer.start() if closer is not None else stop
                        out.append(_scanned(kind, value, start, line, start - line_start + 1, blank_before))
                        blank_before = False
                        comment_free = self.comment_free if moves_end is None else self._comment_free_runs_apart
                        scanner, segment_end, pos = comment_free, resume, end
                        break
                out.append(_scanned(kind, value, start, line, start - line_start + 1, blank_before))
                blank_before = False
                if kind in _MULTILINE:
                    newlines = value.count("\n")
                    if newlines:
                        line += newlines
                        line_start = value.rfind("\n") + start + 1
                if end != match.end():      # a run moves_end found: the scan goes on after it
                    pos = end
                    break
            else:
                pos = segment_end
                scanner, segment_end = main, stop
        return Scanned(out, stop, line, stop - line_start + 1, None, blank_before)


_FAST_KINDS = ("MOVES", "COMMENT", "RESULT", "STAR", ESCAPE)      # fast_game's kinds of span, by number


def _glued_games(fast_game: FastGame, text: str, start: int, stop: int, last: bool, line: int, line_start: int,
                 out: list[ScanToken]) -> tuple[int, int, int]:
    """`_fast_tokens` of each game read at once at `start` (a '[' right after the result or '*' of a game
    read at once: `1-0[Event "x"]`) and after it, glued to each other, as long as there is one."""
    while text.startswith("[", start):
        game = fast_game(text, start, stop, last)
        if game is None:
            break
        start, line, line_start = _fast_tokens(game, text, start, line, line_start, False, out)
    return start, line, line_start


def _fast_tokens(game: FastRead, text: str, start: int, line: int, line_start: int, blank: bool,
                 out: list[ScanToken]) -> tuple[int, int, int]:
    """The tokens of a game `fast_game` read at `start` (line `line`, which starts at offset
    `line_start`; `blank`: a blank line came before it), located as the scanner locates them: its
    FastTags added to `out`, holding the others; the offset after them, and the line and its start
    there.  fast_game counted the line ends before each token (its twin in C)."""
    pairs, tags_end, spans, padded, places = game
    rest: list[ScanToken] = []
    column = start - line_start + 1
    if places is None:              # one pair a line
        out.append(_fast_tags(text[start:tags_end], start, line, column, blank, pairs, rest, len(spans) + 1, padded,
                              None, None))
        newlines = len(pairs) - 1
    else:
        placed = [(line + newlines, at - newline_end + 1 if newline_end >= 0 else column + at - start)
                  for at, newlines, newline_end, _ in places]
        escapes = [place for place, (*_, escaped) in zip(placed, places) if escaped]
        out.append(_fast_tags(text[start:tags_end], start, line, column, blank, pairs, rest, len(spans) + 1, padded,
                              placed, escapes or None))
        newlines = text.count("\n", start, tags_end)
    unknown = newlines > 0          # the spans go on from the last pair's line, whose start is found if needed
    line += newlines                # (a line start before the text, < 0, is a known one: a scan from mid-line)
    for begin, end, kind, newlines, newline_end, blank_before in spans:
        if newlines:
            line += newlines
            line_start, unknown = newline_end, False
        elif unknown:               # a span on the last pair's line
            line_start, unknown = text.rfind("\n", start, tags_end) + 1, False
        rest.append(_scanned(_FAST_KINDS[kind], text[begin:end], begin, line, begin - line_start + 1, blank_before))
    return spans[-1][1], line, line_start
