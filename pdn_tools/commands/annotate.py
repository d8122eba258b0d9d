"""Annotating replayed games: positions, move counts, forced moves, captures, draw counts, tags.

Annotations are commands in comments of their own, placed after a move and its NAGs:
`{[%fen W:W..:B..] [%moves 9] [%captured 2] [%draw start 25-move rule]}`.  A comment made
only of these commands is recognised as ours and replaced on the next run, so annotating
an annotated game changes nothing; the author's comments are never touched.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from pdn_tools.commands.analysis import Analyse, engine_notes, is_engine_line
from pdn_tools.play.check import Checked
from pdn_tools.rules.draws import DrawTracker
from pdn_tools.rules.fen import to_fen
from pdn_tools.text import results
from pdn_tools.text.model import Comment, Element, Game, Move, Nag, Variation
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import Variant
from pdn_tools.text.writer import game_text, write_game
from pdn_tools.play.replay import Replay

FORCED = 7                      # NAG $7: the only move
_OURS = re.compile(r"\s*(?:\[%(?:fen|moves|captured|draw|eval) [^\]]*\]\s*)+\Z")


@dataclass(frozen=True)
class Options:
    """Which annotations to add."""

    fen: bool = False           # [%fen ...] after each move
    moves: bool = False         # [%moves N]: legal moves the mover had
    forced: bool = False        # $7 on a move that was the only legal one
    captures: bool = False      # [%captured N]: pieces taken by a capture
    draws: bool = False         # [%draw ...] where a draw rule's count starts or ends
    ply_count: bool = False     # [PlyCount] tag
    result: bool = False        # [Result] computed from the final position, when certain
    gametype: bool = False      # [GameType] when the tag is missing

    def any(self) -> bool:
        return any(dataclasses.astuple(self))


def is_ours(element: Element) -> bool:
    """A comment holding nothing but annotation commands."""
    return isinstance(element, Comment) and element.kind == "{" and bool(_OURS.match(element.text))


def choices(position: Position) -> int:
    """Legal moves in `position`, captures differing only in the order of the pieces taken counted once."""
    return len({(m.start, m.end, frozenset(m.captured)) for m in position.legal_moves()})


def annotate(result: Replay, options: Options, engine: Analyse | None = None) -> tuple[Game, list[str]]:
    """A copy of the replayed (valid) game with annotations (an engine's too when given), and
    notes about changed tags."""
    game = result.game
    counts = {p.number: choices(p.before) for p in result.plies} if options.moves or options.forced else {}
    commands = _commands(result, options, counts)
    lines = _engine_commands(result, engine, commands)
    forced = {ply for ply, count in counts.items() if options.forced and count == 1}
    elements = _place(game.elements, commands, forced, lines)
    annotated = dataclasses.replace(game, tags=list(game.tags), elements=elements)
    return annotated, _tags(annotated, result, options)


def _commands(result: Replay, options: Options, counts: dict[int, int]) -> dict[int, list[str]]:
    """The commands to write after each ply; `counts`: the legal moves before each ply."""
    alpha = _replayed(result)[1].alpha
    draws = _draw_counts(result) if options.draws else {}
    out: dict[int, list[str]] = {}
    for ply in result.plies:
        commands = []
        if options.fen:
            commands.append(f"[%fen {to_fen(ply.after, alpha)}]")
        if options.moves:
            commands.append(f"[%moves {counts[ply.number]}]")
        if options.captures and ply.move.captured:
            commands.append(f"[%captured {len(ply.move.captured)}]")
        commands += draws.get(ply.number, [])
        if commands:
            out[ply.number] = commands
    return out


def _engine_commands(result: Replay, engine: Analyse | None, commands: dict[int, list[str]]
                     ) -> dict[int, Variation]:
    """Add the engine's evaluations to `commands`; its best lines by ply."""
    if engine is None:
        return {}
    evals, lines = engine_notes(result, engine)
    for ply, command in evals.items():
        commands.setdefault(ply, []).append(command)
    return lines


def _place(elements: list[Element], commands: dict[int, list[str]], forced: set[int],
           lines: dict[int, Variation]) -> list[Element]:
    """The main line with our old comments and engine lines dropped, and the new ones after each
    move and its NAGs."""
    kept = [e for e in elements if not is_ours(e) and not is_engine_line(e)]
    out: list[Element] = []
    ply = i = 0
    while i < len(kept):
        element = kept[i]
        out.append(element)
        i += 1
        if not isinstance(element, Move):
            continue
        ply += 1
        nags: list[Nag] = []
        while i < len(kept) and isinstance(nag := kept[i], Nag):
            nags.append(nag)
            i += 1
        if ply in forced and all(n.number != FORCED for n in nags):
            out.append(Nag(FORCED))
        out += nags
        if ply in commands:
            out.append(Comment(" ".join(commands[ply])))
        if ply in lines:
            out.append(lines[ply])
    return out


def _draw_counts(result: Replay) -> dict[int, list[str]]:
    """`[%draw ...]` commands where a count of the variant's draw rules starts, ends or draws."""
    tracker = DrawTracker(_replayed(result)[0], result.draw_rules)
    counting: set[str] = set()
    claims = 0
    out: dict[int, list[str]] = {}
    for ply in result.plies:
        king = ply.before.piece_at(ply.move.start) in ("W", "B")
        tracker.update(ply.number, ply.after, king, bool(ply.move.captured))
        now = tracker.running()
        notes = [f"[%draw start {name}]" for name in sorted(now - counting)]
        notes += [f"[%draw end {name}]" for name in sorted(counting - now)]
        notes += [f"[%draw claimable {claim.rule}]" for claim in tracker.claims[claims:]]
        claims = len(tracker.claims)
        event = tracker.event
        if event is not None:
            notes.append(f"[%draw drawn {event.rule}]")
        if notes:
            out[ply.number] = notes
        if event is not None:
            break
        counting = now
    return out


def _tags(game: Game, result: Replay, options: Options) -> list[str]:
    """Set the PlyCount, Result and GameType tags asked for; notes on the tags that changed."""
    notes = []
    if options.ply_count:
        game.set_tag("PlyCount", str(len(game.main_line())))
    computed = result.computed_result() if options.result else None
    stated = results.stated_result(game.tag("Result"), game.result)
    if computed is not None and stated in results.UNKNOWN:
        game.set_tag("Result", computed)
        if game.result is not None:
            game.result = computed
        change = f"Result {stated!r} set to {computed!r}" if stated else f"Result {computed!r} added"
        notes.append(f"{change}: the rules decide the game")
    if options.gametype and game.tag("GameType") is None:
        variant = _replayed(result)[1]
        game.set_tag("GameType", str(variant.gametype))
        notes.append(f"GameType {variant.gametype!r} added ({variant.name})")
    return notes


def _replayed(result: Replay) -> tuple[Position, Variant]:
    """The start position and variant of a replayed game (only those are annotated)."""
    if result.start is None or result.variant is None:
        raise ValueError(f"{result.game.file}:{result.game.line}: game {result.game.index} was not replayed")
    return result.start, result.variant


def annotate_game(checked: Checked, options: Options, engine: Analyse | None = None) -> tuple[str, list[str]]:
    """The game's annotated text with notes on changed tags; a game that is not valid is
    passed on unchanged."""
    game, result = checked.game, checked.replay
    if result is None or not result.ok:
        return game_text(game), []
    annotated, notes = annotate(result, options, engine)
    where = f"{game.file}:{game.line}: game {game.index}: "
    return write_game(annotated), [where + note for note in notes]
