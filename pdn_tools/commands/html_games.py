"""An invalid game on the audit page: what a worker sends back of it (`audit_game`), and its section
(its errors, and the board before each failed move), whose boards after the first game of a group
wait as text until the game is opened."""
from __future__ import annotations

from dataclasses import dataclass

from pdn_tools.commands.html_page import _DOT, _short
from pdn_tools.commands.second_look import players
from pdn_tools.play import board_svg
from pdn_tools.play.board import board_after, caption_lines
from pdn_tools.play.check import Checked, Record
from pdn_tools.play.error_boards import ErrorBoard, error_boards, moves_text
from pdn_tools.text.model import Game, ReadError
from pdn_tools.text.names import markup


@dataclass(frozen=True)
class InvalidGame:
    """What the report shows of an invalid game (plain strings: it travels from worker processes)."""

    white: str
    black: str
    event: str
    date: str
    variant: str
    alpha: bool
    boards: tuple[ErrorBoard, ...]
    final: str              # SVG of the last position reached, when no move failed (e.g. a wrong result)
    final_label: str
    moves: str              # the main line as far as it was replayed


def audit_game(checked: Checked) -> InvalidGame | None:
    """For an invalid game, what its section of the report shows (work for the command line's `Run.checked`)."""
    game, result = checked.game, checked.replay
    if checked.ok:
        return None
    if result is None or isinstance(game, ReadError) or result.variant is None:
        tags = game if isinstance(game, Game) else None
        return InvalidGame(_tag(tags, "White"), _tag(tags, "Black"), _tag(tags, "Event"),
                           _tag(tags, "Date"), checked.record.variant, False, (), "", "", "")
    boards = tuple(error_boards(result, with_svg=True))
    alpha = result.variant.alpha
    moves = game.main_line()
    if moves:
        alpha = moves[0].squares[0][:1].isalpha()
    final, label = "", ""
    if not boards and result.final is not None:
        board = board_after(result, None, alpha)
        final = board_svg.svg(board, "last position", shared=True)
        label = caption_lines(result)[1]
    replayed = moves_text(result, len(result.plies)) if result.plies else ""
    return InvalidGame(_tag(game, "White"), _tag(game, "Black"), _tag(game, "Event"), _tag(game, "Date"),
                       result.variant.name, alpha, boards, final, label, replayed)


def _tag(game: Game | None, name: str) -> str:
    return (game.tag(name) or "") if game is not None else ""


def _game_section(number: int, record: Record, game: InvalidGame, first: bool) -> str:
    """Invalid game `number`, on one line: a <details> whose summary names it, open if it is the
    `first` of its group; the others keep their boards as text until opened."""
    code, message = (record.errors[0].code, record.errors[0].message) if record.errors else ("", "")
    place = f"{record.file}:{record.line}"
    later = not first
    opened = "" if later else ' open=""'
    head = (f'<details class="game" id="game-{number}" data-code="{markup(code)}"{opened}>'
            f'<summary><span class="number">{number}</span> <span class="place">{markup(place)}</span> '
            f'<span class="players">{markup(game_name(record, game))}</span> <span class="code">{markup(code)}</span> '
            f'<span class="message">{markup(_short(message))}</span></summary>')
    about = [f"game {record.game} of {markup(record.file)}", markup(game.variant)]
    about += [markup(value) for value in (game.event, game.date) if value]
    body = [f'<p class="about">{_DOT.join(about)}</p>', _errors(record)]
    body += [_board_block(board, later) for board in game.boards]
    if game.final:
        body.append(f'<div class="position"><figure class="board">{_waiting(game.final, later)}'
                    f'<figcaption>{markup(game.final_label)}</figcaption></figure>'
                    f'<div class="moves-box"><p class="moves">{markup(game.moves) or "no move"}</p></div></div>')
    elif not game.boards and game.moves:
        body.append(f'<p class="moves">{markup(game.moves)}</p>')
    return head + "".join(body) + "</details>"


def game_name(record: Record, game: InvalidGame) -> str:
    """`White – Black` (`?` for a missing one), or `OCA.pdn, game 17` when neither player is named."""
    return players(game.white, game.black, record.file, record.game)



def _errors(record: Record) -> str:
    items = []
    for problem in record.errors:
        where = f"{record.file}:{problem.line}:{problem.column}"
        move = f" (move {problem.move})" if problem.move is not None else ""
        items.append(f'<li><code class="where">{markup(where)}</code>{markup(move)}: '
                     f'<span class="text">{markup(problem.message)}</span> '
                     f'<span class="code">[{markup(problem.code)}]</span></li>')
    return f'<ul class="errors">{"".join(items)}</ul>'


def _waiting(picture: str, later: bool) -> str:
    """A board drawn at once, or kept as text until its game is opened."""
    return f'<script type="text/x-svg" class="board">{picture}</script>' if later else picture


def _board_block(board: ErrorBoard, later: bool) -> str:
    moves = f"{markup(board.played)} <mark>{markup(board.label)}</mark>"
    legal = " ".join(f"<code>{markup(move)}</code>" for move in board.legal) or "none"
    return (f'<div class="position"><figure class="board">{_waiting(board.svg, later)}'
            f'<figcaption>before {markup(board.label)}</figcaption></figure>'
            f'<div class="moves-box"><p class="moves">{moves}</p>'
            f'<p class="legal">Legal moves ({len(board.legal)}): {legal}</p></div></div>')
