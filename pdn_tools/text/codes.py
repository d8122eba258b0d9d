"""Diagnostic codes: one table of every problem pdn-tools reports.

Each code has a severity (an error makes a game invalid; a warning does not), whether
`--strict` turns the warning into an error (the PDN 3.0 reading grammar rejects it),
and a one-line description.  Adding a code is one line here; docs/codes.md's table of
codes is checked against this one.
"""
from __future__ import annotations

from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


_E, _W = Severity.ERROR, Severity.WARNING


class Code(StrEnum):
    """A diagnostic code; the member is the string written in reports (`Code.SYNTAX == "syntax"`)."""

    severity: Severity
    strict_fatal: bool
    description: str

    def __new__(cls, value: str, severity: Severity, strict_fatal: bool, description: str) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.severity, member.strict_fatal, member.description = severity, strict_fatal, description
        return member

    # reading
    SYNTAX = "syntax", _E, True, "the text cannot be read as a PDN game"
    BINARY = "binary", _E, True, "the input is binary data, not PDN text (as `pdn` refuses it)"
    TRUNCATED = "truncated", _E, True, "the input ends before its end: compressed data cut or damaged, a file changed"
    ENCODING = "encoding", _W, False, "the file is not UTF-8; read as UTF-16 or a guessed legacy code page"
    BAD_BYTE = "bad-byte", _W, False, "bytes the file's encoding cannot decode, read as U+FFFD"
    UNCLOSED = "unclosed", _W, True, "a '{' or '/' never closed (it meets the next game): read as text"
    # The PDN 3.0 reading grammar needs no space between a result and the next tag (its own
    # must-accept file Tricks_traps_and_shots.pdn has one), and zero-padded numbers fit it.
    GLUED_RESULT = "glued-result", _W, False, "a result glued to the next game's tag"
    # PDN reads a blank line as white space: the tag pairs after it go on with the tag section.
    BLANK_IN_TAGS = "blank-in-tags", _W, False, "a blank line inside a tag section: read as one game"
    UNTERMINATED = "unterminated", _W, True, "a game not ended by a result or '*' before the next one"
    PROSE = "prose", _W, True, "text outside comments read as a comment"
    LITERAL_ESCAPE = "literal-escape", _W, True, "literal '\\r' or '\\n' text left by a broken export"
    LOOSE_TAG = "loose-tag", _W, True, "a tag value without quotes"
    TAG_NAME = "tag-name", _W, True, "a tag name that is not a PDN identifier"
    DANGLING_NUMBER = "dangling-number", _W, True, "a move number with no move"
    PLACEHOLDER = "placeholder", _W, True, "an unknown move written as '-' or '- -'"
    FORCED_MARK = "forced-mark", _W, True, "'*' glued to a move, read as a forced-move mark"
    STRAY_STRENGTH = "stray-strength", _W, True, "a strength mark without a move"
    ZERO_PADDED = "zero-padded", _W, False, "a zero-padded square or move number"
    UPPERCASE_SQUARE = "uppercase-square", _W, True, "an algebraic square written in upper case"
    GAME_TOO_LARGE = "game-too-large", _E, True, "a game longer than --max-game-bytes: not read"
    # the variant and the start position
    BAD_GAMETYPE = "bad-gametype", _E, True, "a GameType naming no known variant"
    GAMETYPE = "gametype", _W, False, "a GameType read with a caveat (malformed, board size, lidraughts)"
    INFERRED_VARIANT = "inferred-variant", _W, False, "no GameType: the variant was inferred"
    BAD_FEN = "bad-fen", _E, True, "a FEN tag or setup that is not a position of the variant"
    # moves
    BAD_SQUARE = "bad-square", _E, True, "a square that is not on the variant's board"
    ILLEGAL_MOVE = "illegal-move", _E, True, "a move that is not legal in the position"
    AMBIGUOUS_CAPTURE = "ambiguous-capture", _E, True, "a capture that fits several captures"
    CAPTURE_REQUIRED = "capture-required", _E, True, "a quiet move while a capture is compulsory"
    CAPTURE_LAW = "capture-law", _E, True, "a capture the variant's precedence law forbids"
    CAPTURE_NOTATION = "capture-notation", _W, False, "a capture written with '-', or a quiet move with 'x'"
    UNKNOWN_MOVE = "unknown-move", _W, False, "an unknown move: the rest of the game is not checked"
    VARIATION_PLACE = "variation-place", _W, False, "a variation standing for the next move"
    # the result
    WRONG_RESULT = "wrong-result", _E, True, "a Result the final position or a draw rule contradicts"
    RESULT_MISMATCH = "result-mismatch", _W, False, "the Result tag and the terminator disagree"
    DRAW_RULE = "draw-rule", _W, False, "a draw rule applied or could be claimed"
    UNFINISHED = "unfinished", _W, False, "an unknown Result the rules decide"
    FIXED_RESULT = "fixed-result", _W, False, "convert --fix-results changed a Result"
    RESULT_OFF_BOARD = "result-off-board", _W, False, "a Result the board contradicts, decided off the board (Termination)"
    KEPT_RESULT = "kept-result", _W, False, "convert --fix-results left a Result decided off the board"
    RESULT_SPACE = "result-space", _W, False, "white space around a Result value, read without it"
