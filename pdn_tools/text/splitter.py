"""Cutting a file's tokens into games (split_games), each a RawGame: its tokens, not yet parsed."""
from __future__ import annotations

import itertools
from dataclasses import field
from typing import Iterable, Iterator

from pdn_tools.text.builder import TAG_PAIR
from pdn_tools.text.codes import Code
from pdn_tools.text.model import Diagnostic
from pdn_tools.text.records import record
from pdn_tools.text.tokens import ESCAPE, FastTags, ScanToken

_TAGS = ("TAGS",)
_COMMENTS = ("COMMENT", "LINE_COMMENT", "ERROR", "ESCAPE")    # not movetext
TERMINATORS = ("RESULT", "STAR")
MAX_GAME_BYTES = 64 << 20      # a longer game is reported as too large, not kept (see RawGame.too_large)


@record(slots=True)
class RawGame:
    """One game's tokens, as cut from the token stream."""

    tokens: list[ScanToken] = field(default_factory=list)
    name: str = ""                      # the file it came from, as shown in reports
    before: list[ScanToken] = field(default_factory=list)
    after: list[ScanToken] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    too_large: int = 0                  # the limit it is longer than: only its first token is kept

    def __init__(self, tokens: list[ScanToken] | None = None, name: str = "", before: list[ScanToken] | None = None,
                 after: list[ScanToken] | None = None, warnings: list[Diagnostic] | None = None,
                 too_large: int = 0) -> None:
        """Each list left out (or None) is a new empty one."""
        self.tokens = [] if tokens is None else tokens
        self.name = name
        self.before = [] if before is None else before
        self.after = [] if after is None else after
        self.warnings = [] if warnings is None else warnings
        self.too_large = too_large

    @property
    def line(self) -> int:
        first = (self.before or self.tokens or self.after)
        return first[0].line if first else 1

    @property
    def last_line(self) -> int:
        last = (self.after or self.tokens or self.before)
        return last[-1].line + last[-1].count("\n") if last else 1

    def text(self) -> str:
        """The game's tokens laid out on their original lines (joined as they are: a copy of each
        would double a long game's memory), for passing on a game that cannot be read.  A game that no
        result or `*` ends (the next game's tags or its file's end did) gets `*` on a line of its own,
        unless a variation is left open (a `*` inside it would end nothing): so that it ends there when
        read back, whatever game is written after it."""
        parts: list[str] = []
        line = None
        for token in itertools.chain(self.before, self.tokens, self.after):
            if line is not None:
                parts.append("\n" * (token.line - line) if token.line > line else " ")
            parts.append(token)
            line = token.line + token.count("\n")
        ended = bool(self.tokens) and self.tokens[-1].type in TERMINATORS
        if not ended and self.depth() <= 0:
            parts.append("\n*")
        parts.append("\n")
        return "".join(parts)

    def depth(self) -> int:
        """How many variations the game's tokens leave open (below 0: more closed than opened)."""
        kinds = [token.type for token in self.tokens]
        return kinds.count("LPAR") - kinds.count("RPAR")

# ---- splitting into games -------------------------------------------------------

def split_games(tokens: Iterable[ScanToken], max_game_bytes: int = MAX_GAME_BYTES) -> Iterator[RawGame]:
    """Cut the token stream into games.

    A game ends at a terminator outside variations, or where a tag section starts
    after movetext, or after a blank line that follows a tag section, unless the tag pairs
    after that line come straight after the section and name none of its tags (see
    `_Cutter.goes_on`).  The comments
    that go on from the terminator's line go with it (see `_tail_line`); comments on
    later lines go to the next game, before its tags, or into its movetext when it has
    none (as they read when written), or, when only comments follow, to this game.
    A game whose tokens hold more than `max_game_bytes` characters keeps only its first token
    and is marked too large, so memory stays bounded by the limit.
    """
    cutter = _Cutter(max_game_bytes)
    for token in tokens:
        done = cutter.take(token)
        if done is not None:
            yield done
    done = cutter.flush()
    if done is not None:
        yield done
    if cutter.held is not None:
        yield cutter.held


class _Cutter:
    """split_games' state: the game being cut and the last one cut, held back for the
    comments that may still go with it."""

    __slots__ = ("game", "held", "depth", "tail_line", "has_tags", "has_moves", "previous", "limit", "size", "names")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held: RawGame | None = None
        self.previous: ScanToken | None = None
        self._new_game()

    def _new_game(self) -> None:
        self.game = RawGame()
        self.depth = 0
        self.tail_line = 0           # once the game has a terminator: the line its comments go on from
        self.has_tags = self.has_moves = False
        self.size = 0                # characters of the game's tokens
        self.names: set[str] | None = None      # its tags' names, once a blank line in its tags asked for them

    def flush(self) -> RawGame | None:
        """End the game being cut: the game before it, when that one is now complete."""
        game, done = self.game, None
        if game.tokens or game.before or game.after:
            only_comments = not game.too_large and all(t.type in _COMMENTS for t in game.before + game.tokens)
            if only_comments and self.held is not None:
                self.held.after.extend(game.before + game.tokens + game.after)
            else:
                if not self.has_tags:
                    game.tokens, game.before = game.before + game.tokens, []
                done, self.held = self.held, game
        self._new_game()
        return done

    def take(self, token: ScanToken) -> RawGame | None:
        """Add `token`; a game now complete, if one is (one at most a token).  A FastTags brings the
        rest of its game with it: they are taken as each would be taken after it."""
        if type(token) is FastTags:
            return self._take_game(token)
        return self._take_one(token)

    def _take_game(self, tags: FastTags) -> RawGame | None:
        """Take a game's FastTags and its other tokens: after the tags, which may end the game before,
        its runs of moves and comments and its terminator; they change nothing but what they are seen to
        (the game is not too large, and its terminator is outside variations: tags start no variation)."""
        rest = tags.rest
        size = len(tags) + sum(map(len, rest))
        if self.size + size > self.limit:
            done = self._take_one(tags)
            for token in rest:
                done = self._take_one(token) or done
            return done
        done = self._take(tags)
        self.size += size
        terminator = rest[-1]
        self.game.tokens += rest
        self.has_moves = self.has_moves or "MOVES" in [token.type for token in rest]
        self.tail_line = terminator.line          # _tail_line: a result or '*' holds no line end
        self.previous = terminator
        return done

    def _take_one(self, token: ScanToken) -> RawGame | None:
        done = self._take(token)
        game = self.game
        self.size += len(token)
        if self.size > self.limit and not game.too_large:
            game.too_large = self.limit
            first = (game.before or game.tokens or game.after)[:1]
            game.before, game.tokens, game.after = [], first, []
        elif game.too_large:
            del game.tokens[1:], game.before[:], game.after[:]
        return done

    def _take(self, token: ScanToken) -> RawGame | None:
        kind, done = token.type, None
        if self.tail_line:
            if kind == ESCAPE or (kind in _COMMENTS and token.line == self.tail_line):
                self.game.after.append(token)
                self.tail_line = _tail_line(token, self.tail_line)
                self.previous = token
                return None
            if kind in _COMMENTS:
                done = self.flush()
                self.game.before.append(token)
                self.previous = token
                return done
            previous = self.previous
            if kind in _TAGS and previous is not None and previous.type == "RESULT" \
                    and previous.end_pos == token.start_pos:
                self.game.warnings.append(Diagnostic(Code.GLUED_RESULT, "result glued to the next game's tag",
                                                     previous.line, previous.column))
            done = self.flush()
        game = self.game
        if kind in _TAGS:
            if not self.has_moves and self.has_tags and token.blank_before and self.goes_on(token):
                game.warnings.append(Diagnostic(Code.BLANK_IN_TAGS, "a blank line inside the tag section: read as "
                                                "one game", token.line, token.column))
            elif self.has_moves or (self.has_tags and token.blank_before):
                game.warnings.append(Diagnostic(Code.UNTERMINATED, "game not ended by a result or '*' before "
                                                "the next game", token.line, token.column))
                done = self.flush()
                game = self.game
            if not self.has_tags and game.tokens and all(t.type in _COMMENTS for t in game.tokens):
                game.before, game.tokens = game.before + game.tokens, []
            if self.names is not None:
                self.names.update(_tag_names(token))
            self.has_tags = True
        elif kind == "LPAR":
            self.depth += 1
            self.has_moves = True
        elif kind == "RPAR":
            self.depth -= 1
        elif kind in TERMINATORS and self.depth <= 0:
            self.tail_line = _tail_line(token, token.line)
        elif kind not in _COMMENTS:
            self.has_moves = True
        game.tokens.append(token)
        self.previous = token
        return done


    def goes_on(self, tags: ScanToken) -> bool:
        """Whether the tag pairs `tags`, after a blank line, go on with the tag section of the game: they
        come straight after it (white space between) and name none of its tags (a tag named again starts
        a game: real files hold games of tags alone, each followed by a blank line).  text/ranges.py puts
        no sync point where they may (a `]` before the blank line)."""
        if self.previous is None or self.previous.type not in _TAGS:
            return False
        if self.names is None:
            self.names = {name for token in self.game.tokens if token.type in _TAGS for name in _tag_names(token)}
        return self.names.isdisjoint(_tag_names(tags))


def _tag_names(tags: ScanToken) -> set[str]:
    """The names of the tag pairs of a TAGS token."""
    return {match.group("name") or match.group("word") for match in TAG_PAIR.finditer(tags)}


def _tail_line(token: ScanToken, line: int) -> int:
    """The line on which a comment must start to go on from `token`, the last of a game's
    tail (its terminator and the comments after it) so far, `line` being the line it went on
    from: the line where `token` ends, the next one after a line comment (which ends its
    line), `line` still after white space (its line ends part it from what follows)."""
    if token.type == ESCAPE:
        return line
    end = token.line + str(token).count("\n")
    return end + 1 if token.type == "LINE_COMMENT" else end
