"""Checking a replayed game's Result against its final position and the draw rules, and saying
what a result means in a variant's colours."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pdn_tools.rules.draws import CLAIMED
from pdn_tools.text.codes import Code
from pdn_tools.text.results import Outcome, off_board, outcome, read_result
from pdn_tools.text.model import Diagnostic
from pdn_tools.rules.variants import Variant

if TYPE_CHECKING:
    from pdn_tools.play.replay import Replay


def _check_result(result: Replay) -> None:
    """Compare the Result tag (else the terminator) with what the rules say."""
    game, variant = result.game, result.variant
    assert variant is not None
    tag, terminator = read_result(game.tag("Result")), game.result
    if tag is not None and terminator is not None and tag != terminator and terminator != "*":
        result.warnings.append(Diagnostic(Code.RESULT_MISMATCH, f"Result tag {_said(tag, variant)} but the movetext "
                                          f"ends with {_said(terminator, variant)}", *_at(result)))
    claimed = tag if tag not in (None, "", "?") else terminator
    draw, plies = result.draw, result.ply_count
    for claim in result.claims:
        how = "may be claimed" if claim.how == CLAIMED else "would apply by a rule no text gives"
        if claim.ply < plies:
            message = f"a draw by the {claim.rule} {how} after ply {claim.ply}; play went on"
        elif claimed is not None and outcome(claimed) in (Outcome.FIRST, Outcome.SECOND):
            message = f"a draw by the {claim.rule} {how} after the last move, but Result is {_said(claimed, variant)}"
        else:
            continue
        result.warnings.append(Diagnostic(Code.DRAW_RULE, message, *_at(result), claim.ply))
    if draw is not None and draw.ply < plies:
        result.warnings.append(Diagnostic(Code.DRAW_RULE, f"a draw by the {draw.rule} applies after ply {draw.ply}; "
                                          f"play went on", *_at(result), draw.ply))
    if claimed is None:
        return
    truth = result.outcome()
    if truth is None:
        return
    stated = outcome(claimed)
    if stated == truth:
        return
    message = f"Result {_said(claimed, variant)}, but {board_verdict(result, truth)}"
    decided = off_board(game.tags)
    if stated is None:
        result.warnings.append(Diagnostic(Code.UNFINISHED, message, *_at(result)))
    elif decided is not None:
        result.warnings.append(Diagnostic(Code.RESULT_OFF_BOARD, f"{message}; {decided[0]} {decided[1]!r} says the "
                                          f"game was decided off the board", *_at(result)))
    else:
        result.errors.append(Diagnostic(Code.WRONG_RESULT, message, *_at(result)))


def _at(result: Replay) -> tuple[int, int]:
    """Where the diagnostics about a game's result point: its Result tag, else its start."""
    return result.game.tag_position("Result")


def _said(text: str, variant: Variant) -> str:
    return f"{text!r} ({meaning(text, variant)})"


def meaning(result: str, variant: Variant) -> str:
    """Whose win `result` means in `variant`, in its colours: in english `1-0` is 'a win for Black,
    the starting side', `0-1` 'a win for White, the other side'; else 'a draw', 'a loss for both
    sides' (`0-0`) or 'no result'."""
    stated = outcome(result)
    if stated is None:
        return "a loss for both sides" if read_result(result) == "0-0" else "no result"
    if stated is Outcome.DRAW:
        return "a draw"
    first = stated is Outcome.FIRST
    return f"a win for {_colour(variant.first, first)}, the {'starting' if first else 'other'} side"


def board_verdict(result: Replay, truth: Outcome) -> str:
    """What the board says of a game it settles as `truth` (`result.outcome()`): 'White has won on
    the board (Black, to move, has no move)' or 'the game is drawn on the board by …'."""
    draw, variant = result.draw, result.variant
    assert variant is not None
    if draw is not None and truth is Outcome.DRAW:
        return f"the game is drawn on the board by the {draw.rule} after ply {draw.ply}"
    first = truth is Outcome.FIRST
    return (f"{_colour(variant.first, first)} has won on the board ({_colour(variant.first, not first)}, "
            f"to move, has no move)")


def _colour(first: str, starting: bool) -> str:
    """The colour of the variant's starting side (its `first`), or of the other side."""
    return "White" if (first == "W") == starting else "Black"
