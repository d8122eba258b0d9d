"""Writing games back as PDN text, losing nothing the model holds."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, Sequence

from pdn_tools.text.results import RESULTS, read_result
from pdn_tools.text.model import (Comment, Element, Game, ReadError, NotatedMove, MoveNumber, MoveRun, Nag, Placeholder, Setup,
                                  Variation, movetext_runs, run_texts)
from pdn_tools.text.walk import walk

try:
    from pdn_tools.text import _scan       # the compiled scanner, holding the writer of runs (text/_lines.c)
except ImportError:                         # not built: written in Python, the same text
    _scan = None    # type: ignore[assignment]

WIDTH = 80


def escape(value: str) -> str:
    """Escape a tag value for writing between double quotes."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(comment: Comment) -> str:
    if comment.kind == "{":
        return "{" + comment.text + "}"
    return comment.kind + comment.text + "\n"      # a line comment ends its line


def _atoms(movetext: list[Element | MoveRun] | list[Element]) -> Iterator[str]:
    """The movetext as a run of unbreakable pieces, variations at any depth included; a move
    number and the move right after it make one piece, so that no line ends between them."""
    number = ""
    for atom, kind in _pieces(movetext):
        if number and kind is _MOVE:
            atom = f"{number} {atom}"
        elif number:
            yield number
        number = atom if kind is _NUMBER else ""
        if not number:
            yield atom
    if number:
        yield number


_NUMBER, _MOVE, _OTHER = "number", "move", "other"      # what a piece of movetext writes


def _pieces(movetext: list[Element | MoveRun] | list[Element]) -> Iterator[tuple[str, str]]:
    """Each piece of the movetext as written, with what it writes; the runs of moves kept as
    text are written from their text (as the elements they expand to would be)."""
    if not any(type(element) is MoveRun for element in movetext):
        yield from _walked(movetext)         # type: ignore[arg-type]
        return
    for element in movetext:
        if type(element) is MoveRun:
            for text in element.texts():
                yield (_run_number(text), _NUMBER) if text[-1] == "." else (text, _MOVE)
        elif isinstance(element, Variation):
            yield from _walked([element])
        else:
            yield atom(element), _kind(element)      # type: ignore[arg-type]


def _walked(elements: list[Element]) -> Iterator[tuple[str, str]]:
    """The pieces of model elements, into their variations."""
    for frame in walk(elements):
        element = frame.element
        if isinstance(element, Variation):
            if not frame.closing:
                yield "(", _OTHER
                continue
            if element.result:
                yield element.result, _OTHER
            yield ")", _OTHER
        else:
            yield atom(element), _kind(element)


def _kind(element: Element) -> str:
    return _MOVE if isinstance(element, (NotatedMove, Placeholder)) else _NUMBER if isinstance(element, MoveNumber) else _OTHER


def _run_number(text: str) -> str:
    """A move number of a run's text as its MoveNumber is written ('01.' as '1.')."""
    written = _RUN_NUMBERS.get(text)
    if written is None:
        digits = text.rstrip(".")
        written = _number(int(digits) if digits else 0, text.endswith("..."))
        if len(_RUN_NUMBERS) < 4096:
            _RUN_NUMBERS[text] = written
    return written


_RUN_NUMBERS: dict[str, str] = {}        # a run's move number -> as written


def _number(number: int, black: bool) -> str:
    if number == 0 and black:     # '...' (or '0...')
        return "..."
    return f"{number}..." if black else f"{number}."


def atom(element: Element) -> str:
    """One element other than a variation, as written."""
    if isinstance(element, NotatedMove):
        return element.text + element.strength
    if isinstance(element, MoveNumber):
        return _number(element.number, element.black)
    if isinstance(element, Comment):
        return _comment(element)
    if isinstance(element, Nag):
        return f"${element.number}"
    if isinstance(element, Setup):
        return f'/FEN "{element.fen}"/'
    if isinstance(element, Placeholder):
        return element.text
    raise TypeError(f"not a movetext element: {element!r}")


def wrap(atoms: Iterable[str], width: int = WIDTH) -> str:
    """Join pieces with single spaces into lines of at most `width` characters
    (a longer piece stands alone); no space after '(' or before ')'.  A placeholder
    after a placeholder starts a line: `- -` on one line is one placeholder."""
    lines: list[str] = []
    line = ""
    for atom in atoms:
        ends_line = atom[-1:] == "\n"
        if ends_line:
            atom = atom.rstrip("\n")
        if not line:
            line = atom
        else:
            last = line[-1]
            glued = last == "(" or atom == ")"
            if last == "-" and atom[:1] == "-" or len(line) + (not glued) + len(atom) > width:
                lines.append(line)                 # '- -' on one line reads as one placeholder
                line = atom
            else:
                line += atom if glued else " " + atom
        if ends_line:
            lines.append(line)
            line = ""
    if line:
        lines.append(line)
    return "\n".join(lines)


RUN, MOVE, OTHER = 0, 1, 2      # the kinds of numbered_text's pieces
NumberedText = Callable[[list[tuple[int, str]], int, str, int], str]     # numbered_text, or the compiled one


def numbered_text(pieces: Sequence[tuple[int, str]], ply: int, tail: str, width: int = WIDTH) -> str:
    """The pieces of a main line, each a (kind, text), numbered again from ply `ply` and wrapped
    with `tail` after them (see wrap): a RUN is a run of moves kept as text (its moves, each
    numbered, its move numbers left out), a MOVE a move, numbered, an OTHER any other piece,
    written as it is.  A move at an even ply gets its number (`12. 11-15`), at an odd ply after
    a piece other than a move its number and dots (`12... 22-18`).  The compiled scanner's
    `numbered_text` (text/_wrap.c) writes the same text."""
    return wrap([*_numbered(pieces, ply), tail], width)


def _numbered(pieces: Sequence[tuple[int, str]], ply: int) -> Iterator[str]:
    """numbered_text's pieces, the moves numbered."""
    moved = False                # the last piece written is a move (the next odd ply has no number)
    for kind, text in pieces:
        if kind == OTHER:
            yield text
            moved = False
            continue
        for move in [word for word in run_texts(text) if word[-1] != "."] if kind == RUN else [text]:
            if ply % 2 == 0:
                yield f"{ply // 2 + 1}. {move}"
            elif not moved:
                yield f"{ply // 2 + 1}... {move}"
            else:
                yield move
            moved = True
            ply += 1


def terminator(game: Game) -> str:
    """The game's written terminator, else its Result tag if it is a result, else '*'."""
    return game.result or terminator_of(game.tag("Result"))


def terminator_of(tag: str | None) -> str:
    """`terminator` of a game with no terminator written, whose Result tag is `tag` (None: none)."""
    value = read_result(tag)
    return value if value in RESULTS else "*"


def write_game(game: Game, width: int = WIDTH, atoms: list[str] | None = None, movetext: str | None = None) -> str:
    """PDN text for one game, ending with a newline and a blank line; its movetext as `movetext`
    when given (its lines, the tail included: see numbered_text), else written as `atoms` when
    given (unbreakable pieces, see _atoms), else from the game."""
    if movetext is None:
        movetext = _movetext(game, width) if atoms is None else wrap([*atoms, tail(game)], width)
    return written_game(game.before, game.tags, movetext)


def written_game(before: list[Comment], tags: list[tuple[str, str]], movetext: str) -> str:
    """write_game's text of a game of these comments before its tags, tags and `movetext` (its
    lines, the tail included)."""
    head = "".join([f'[{name} "{value}"]\n' for name, value in tags])
    if "\\" in head or head.count('"') != 2 * len(tags):      # a value to escape (or a name quoting)
        head = "".join([f'[{name} "{escape(value)}"]\n' for name, value in tags])
    if before:
        head = "".join([_comment(comment).rstrip("\n") + "\n" for comment in before]) + head
    return f"{head}\n{movetext}\n\n" if tags else f"{head}{movetext}\n\n"     # a blank line after the tags


_KINDS = {_NUMBER: 1, _MOVE: 2, _OTHER: 3}     # movetext_lines' kinds of piece (0: a run kept as text)


def _movetext(game: Game, width: int) -> str:
    """The game's movetext and tail in lines: written by the compiled writer (text/_lines.c) when it
    holds runs of moves kept as text, each run at once, else from its pieces (_atoms)."""
    movetext = movetext_runs(game)
    if _scan is not None and any(type(element) is MoveRun for element in movetext):
        pieces: list[tuple[str, int]] = []
        for element in movetext:
            if type(element) is MoveRun:
                pieces.append((element.text, 0))
            else:
                pieces += [(text, _KINDS[kind]) for text, kind in _pieces([element])]
        written = _scan.movetext_lines(pieces, tail(game), width)
        if written is not None:
            return written
    return wrap([*_atoms(movetext), tail(game)], width)


def game_text(game: Game | ReadError) -> str:
    """PDN for a game passed on: written from the model, or as read when it could not be read
    ('' when its text was not kept: a game over --max-game-bytes, cut or binary input)."""
    if isinstance(game, ReadError):
        return game.text.rstrip("\n") + "\n\n" if game.text else ""
    return write_game(game)


def tail(game: Game) -> str:
    """The terminator and the comments after it, on its line (unbreakable); a line comment
    ends the line, so what follows it goes on the next one."""
    return tail_of(terminator(game), game.after)


def tail_of(terminator: str, after: list[Comment]) -> str:
    """`tail` of a game whose terminator is written `terminator`, with the comments `after` it."""
    tail = terminator
    for comment in after:
        tail += ("" if tail.endswith("\n") else " ") + _comment(comment)
    return tail.rstrip("\n")


def result(game: Game) -> str:
    """The game's result: its Result tag when that is a result, else its terminator."""
    return result_of(game.tag("Result"), game.result)


def result_of(tag: str | None, written: str | None) -> str:
    """`result` of a game whose Result tag is `tag` (None: no tag) and whose terminator is `written`."""
    value = read_result(tag)
    return value if value in RESULTS else written or "*"
