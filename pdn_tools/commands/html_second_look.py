"""The audit page's section of the moves worth a second look (--shots; commands/second_look.py
finds them): the rule, a table of them, and each move with the board before it."""
from __future__ import annotations

from typing import IO, Callable

from pdn_tools.commands.html_page import _DOT, _count
from pdn_tools.commands.second_look import PLIES_AFTER, Biggest, SecondLook
from pdn_tools.play import board_svg
from pdn_tools.play.board import Board
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.search import MAN
from pdn_tools.rules.variants import variant_by_name
from pdn_tools.text.names import markup


def write_second_look(out: IO[str], biggest: Biggest, depth: int, squares: Callable[[str, bool], str],
                      unjudged: int = 0) -> None:
    """The moves worth a second look, the biggest of `biggest`: the rule, how many moves were not
    judged when some were (`unjudged`: their search went past the node budget), a table of them
    (each row links to its move), and each move with the board before it (`squares` gives a board
    kind's squares the first time the page needs them)."""
    looks = biggest.ordered()
    out.write(f'<section id="second-look"><h2>Moves worth a second look ({len(looks):,} of '
              f'{_count(biggest.added, "move")})</h2>\n<p class="rule">The moves a search of depth {depth} judges '
              f'walked into a shot ($4), in valid games that went on at least {PLIES_AFTER} plies after '
              f'the move, by the rules its moves are checked by: the {biggest.size} with the biggest swing '
              f'(the men the move keeps less than the best move), biggest first; a move whose scores are a '
              f'forced end of the game (no count of men) comes after them. Players seldom play on long after losing material: such a '
              f'move is more often a transcription error than a blunder, above all in a game the side '
              f'that moved won or drew.</p>\n')
    if unjudged:
        out.write(f'<p class="unjudged">{_count(unjudged, "move")} not judged: a search went past the node budget '
                  f'(--nodes), so they can be neither listed nor ruled out.</p>\n')
    if not looks:
        out.write('<p class="none">No move qualifies.</p>\n</section>\n')
        return
    heads = "".join(f"<th>{name}</th>" for name in ("", "swing", "game", "place", "move", "result"))
    rows = "".join(f'<tr><td class="num"><a href="#look-{number}">{number}</a></td>'
                   f'<td class="num swing">{_swing(look)}</td>'
                   f'<td class="players">{markup(look.name())}</td>'
                   f'<td class="place">{markup(f"{look.file}:{look.line}")}</td>'
                   f'<td class="move">{markup(look.move)}</td><td class="result">{_result(look)}</td></tr>'
                   for number, look in enumerate(looks, 1))
    out.write(f'<div class="scroll"><table class="looks"><thead><tr>{heads}</tr></thead>'
              f'<tbody>{rows}</tbody></table></div>\n')
    for number, look in enumerate(looks, 1):
        out.write(squares(look.variant, look.alpha) + _look_section(number, look) + "\n")
    out.write("</section>\n")


def _swing(look: SecondLook) -> str:
    """`2.50 men`, or `a forced end` when a score is a win (no count of men)."""
    return "a forced end" if look.forced else f"{look.swing / MAN:.2f} men"


def _result(look: SecondLook) -> str:
    """`0-1, the side that moved won`, or `no result`."""
    said = f", the side that moved {look.mover_outcome}" if look.mover_outcome else ""
    return markup(look.result) + said if look.result else "no result"


def _look_section(number: int, look: SecondLook) -> str:
    """A move worth a second look: what and where it is, the board before it (the move tinted),
    and the line that wins the material."""
    variant = variant_by_name(look.variant)
    assert variant is not None                  # a name the worker's replay gave
    board = Board(parse_fen(variant, look.fen), alpha=look.alpha, attempt=look.squares)
    label = f"before {look.move}"
    place = f"{look.file}:{look.line}:{look.column}"
    about = [f"game {look.game} of {markup(look.file)}", markup(look.variant),
             f"ply {look.ply} of {look.plies}", f"result {_result(look)}",
             f"the search's score after the move: {markup(look.eval)}"]
    return (f'<div class="look" id="look-{number}"><h3><span class="number">{number}</span> '
            f'<span class="swing">{_swing(look)}</span> \u00b7 <span class="players">'
            f'{markup(look.name())}</span> \u00b7 <span class="move">{markup(look.move)}</span> \u00b7 '
            f'<code class="place">{markup(place)}</code></h3><p class="about">{_DOT.join(about)}</p>'
            f'<div class="position"><figure class="board">{board_svg.svg(board, label, shared=True)}'
            f'<figcaption>{markup(label)}</figcaption></figure><div class="moves-box"><p>The move and the '
            f'shot it walks into:</p><p class="moves line">{markup(" ".join(look.line_moves))}</p></div></div></div>')
