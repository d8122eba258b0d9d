"""Writing games back as PDN text, losing nothing the model holds."""
from __future__ import annotations

from typing import Iterable, Iterator

from pdn_tools.text.results import RESULTS, read_result
from pdn_tools.text.model import Comment, Element, Game, ReadError, NotatedMove, MoveNumber, Nag, Placeholder, Setup, Variation
from pdn_tools.text.walk import walk

WIDTH = 80


def escape(value: str) -> str:
    """Escape a tag value for writing between double quotes."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(comment: Comment) -> str:
    if comment.kind == "{":
        return "{" + comment.text + "}"
    return comment.kind + comment.text + "\n"      # a line comment ends its line


def _atoms(elements: Iterable[Element]) -> Iterator[str]:
    """The movetext as a run of unbreakable pieces, variations at any depth included; a move
    number and the move right after it make one piece, so that no line ends between them."""
    number = ""
    for atom, element in _pieces(elements):
        if number and isinstance(element, (NotatedMove, Placeholder)):
            atom = f"{number} {atom}"
        elif number:
            yield number
        number = atom if isinstance(element, MoveNumber) else ""
        if not number:
            yield atom
    if number:
        yield number


def _pieces(elements: Iterable[Element]) -> Iterator[tuple[str, Element]]:
    """Each piece of the movetext as written, with the element it writes."""
    for frame in walk(elements):
        element = frame.element
        if isinstance(element, Variation):
            if not frame.closing:
                yield "(", element
                continue
            if element.result:
                yield element.result, element
            yield ")", element
        else:
            yield _atom(element), element


def _atom(element: Element) -> str:
    """One element other than a variation, as written."""
    if isinstance(element, NotatedMove):
        return element.text + element.strength
    if isinstance(element, MoveNumber):
        if element.number == 0 and element.black:     # '...' (or '0...')
            return "..."
        return f"{element.number}..." if element.black else f"{element.number}."
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
        ends_line = atom.endswith("\n")
        atom = atom.rstrip("\n") if ends_line else atom
        glue = "" if not line or line.endswith("(") or atom == ")" else " "
        one_placeholder = line.endswith("-") and atom.startswith("-")     # '- -' reads as one
        if line and (one_placeholder or len(line) + len(glue) + len(atom) > width):
            lines.append(line)
            line, glue = "", ""
        line += glue + atom
        if ends_line:
            lines.append(line)
            line = ""
    if line:
        lines.append(line)
    return "\n".join(lines)


def terminator(game: Game) -> str:
    """The game's written terminator, else its Result tag if it is a result, else '*'."""
    if game.result:
        return game.result
    tag = read_result(game.tag("Result"))
    return tag if tag in RESULTS else "*"


def write_game(game: Game, width: int = WIDTH) -> str:
    """PDN text for one game, ending with a newline and a blank line."""
    parts: list[str] = []
    for comment in game.before:
        parts.append(_comment(comment).rstrip("\n"))
    for name, value in game.tags:
        parts.append(f'[{name} "{escape(value)}"]')
    if game.tags:
        parts.append("")
    parts.append(wrap([*_atoms(game.elements), _tail(game)], width))
    return "\n".join(parts) + "\n\n"


def game_text(game: Game | ReadError) -> str:
    """PDN for a game passed on: written from the model, or as read when it could not be read
    ('' when its text was not kept: a game over --max-game-bytes, cut or binary input)."""
    if isinstance(game, ReadError):
        return game.text.rstrip("\n") + "\n\n" if game.text else ""
    return write_game(game)


def _tail(game: Game) -> str:
    """The terminator and the comments after it, on its line (unbreakable); a line comment
    ends the line, so what follows it goes on the next one."""
    tail = terminator(game)
    for comment in game.after:
        tail += ("" if tail.endswith("\n") else " ") + _comment(comment)
    return tail.rstrip("\n")


def result(game: Game) -> str:
    """The game's result: its Result tag when that is a result, else its terminator."""
    tag = read_result(game.tag("Result"))
    return tag if tag in RESULTS else terminator(game)
