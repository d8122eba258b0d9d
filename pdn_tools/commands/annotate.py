"""Annotating replayed games: positions, move counts, forced moves, captures, draw counts, tags.

Annotations are commands in comments of their own, placed after a move and its NAGs:
`{[%fen W:W..:B..] [%moves 9] [%captured 2] [%draw start 25-move rule] [%eval +1.00]}`.  A
comment made only of these commands is recognised as ours and replaced on the next run, so
annotating an annotated game changes nothing; the author's comments are never touched.
With `shots`, the search (`rules.search`) judges each move: a shot `$1`, a missed shot `$2`,
a move walking into a shot `$4`, each with its line as a variation that opens with the
comment `{[%line]}`; a move whose search went past the node budget is not judged:
`[%unjudged nodes N]` (N: the budget) instead of its `[%eval ...]`.  Every variation pdn writes (--shots, --engine) opens with a comment that
starts with `[%line]` and holds only annotation commands: that is how it is recognised as ours.
What a run's games share (each variant's GameType, a fresh draw tracker's counters) is kept by
its Options (`Kept`), never by the module.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

from pdn_tools.commands.analysis import LINE, Analyse, engine_notes
from pdn_tools.commands.convert import square_names
from pdn_tools.commands.report import json_text
from pdn_tools.play.check import Checked, line_text, with_shots
from pdn_tools.play.notation import Style, written_alpha
from pdn_tools.rules import steps
from pdn_tools.rules.draws import DrawRules, DrawTracker
from pdn_tools.rules.fen import to_fen
from pdn_tools.text import results
from pdn_tools.text.model import Comment, Element, Game, MoveNumber, MoveRun, Nag, NotatedMove, Variation, movetext_runs
from pdn_tools.rules.movegen import Move as LegalMove, Position
from pdn_tools.rules.search import (MISSED, NOT_JUDGED, SHOT, SHOTS_DEPTH as SHOTS_DEPTH,
                                    SHOTS_NODES as SHOTS_NODES, WALKED_INTO, Evaluations, Judgement, eval_text, judge)
from pdn_tools.rules.variants import Variant
from pdn_tools.text.writer import (WIDTH, _run_number, atom, game_text, tail_of, terminator_of, wrap, write_game,
                                   written_game)
from pdn_tools.play.replay import Replay

FORCED = 7                      # NAG $7: the only move
_OURS = re.compile(r"\s*(?:\[%(?:fen|moves|captured|draw|eval|unjudged) [^\]]*\]\s*)+\Z")
SHOT_NAGS = {SHOT: 1, MISSED: 2, WALKED_INTO: 4}
_AS_WRITTEN = Style()           # the moves as they are written: --gametype's notation is theirs
KEEP = 256                      # what Kept keeps of each kind, at most (a run meets a few variants and starts)


class Kept:
    """What the games of one run (of one Options) share, made once: each variant's GameType value and
    the note on its adding, and a fresh DrawTracker's counters for each start and draw rules (they
    depend on nothing else); at most KEEP of each, all dropped when full.  Pickled empty: a worker's
    copy of the options keeps its own."""

    __slots__ = ("gametypes", "counts")

    def __init__(self) -> None:
        self.gametypes: dict[tuple[str, bool], tuple[Variant, str, Alike]] = {}   # name, alpha -> the variant's
        self.counts: dict[tuple[Position, DrawRules | None], tuple[steps.DrawCounts | None]] = {}    # (None,): none

    def __reduce__(self) -> tuple[type[Kept], tuple[()]]:
        return Kept, ()

    def gametype(self, variant: Variant, alpha: bool) -> tuple[str, Alike]:
        """`variant.gametype_text(alpha)` and the note on its adding (made again for another variant
        of the same name)."""
        kept = self.gametypes.get((variant.name, alpha))
        if kept is None or kept[0] is not variant:
            if len(self.gametypes) >= KEEP:
                self.gametypes.clear()
            full = variant.gametype_text(alpha)
            kept = self.gametypes[variant.name, alpha] = variant, full, Alike(f"GameType {full} added ({variant.name})")
        return kept[1], kept[2]

    def fresh_counts(self, start: Position, rules: DrawRules | None) -> steps.DrawCounts | None:
        """The counters of a fresh `DrawTracker(start, rules)` as steps.annotate_line takes them; None
        when the core cannot count from there (an ending's count running or waiting)."""
        key = (start, rules)
        kept = self.counts.get(key)
        if kept is None:
            if len(self.counts) >= KEEP:
                self.counts.clear()
            kept = self.counts[key] = (_fresh_counts(start, rules),)
        return kept[0]


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
    shots: bool = False         # $1 / $2 / $4 with their lines, and [%eval ...], from the search
    depth: int = SHOTS_DEPTH    # the search's depth for shots
    nodes: int | None = SHOTS_NODES     # the node budget of each of its searches (None: no budget)
    kept: Kept = dataclasses.field(default_factory=Kept, init=False, repr=False, compare=False)     # not a choice

    def any(self) -> bool:
        return any(getattr(self, f.name) is True for f in dataclasses.fields(self))

    @functools.cached_property
    def asks(self) -> int:
        """The commands asked of the core's annotate_line, as its bits (_CORE_ASKS)."""
        return sum(bit for name, bit in _CORE_ASKS if getattr(self, name))


def is_ours(element: Element) -> bool:
    """A comment holding nothing but annotation commands, or a variation pdn wrote (--shots,
    --engine): one opening with such a comment that starts with `[%line]`."""
    if isinstance(element, Variation):
        first = element.elements[0] if element.elements else None
        if not isinstance(first, Comment) or first.kind != "{":
            return False
        text = first.text.strip()
        return text.startswith(LINE) and (text == LINE or bool(_OURS.match(text[len(LINE):])))
    return isinstance(element, Comment) and element.kind == "{" and bool(_OURS.match(element.text))


class Notes(NamedTuple):
    """What to add after each ply: commands (its comment), NAGs, a variation; and the moves of the main
    line --shots did not judge (the search said NOT_JUDGED)."""

    commands: dict[int, list[str]]
    nags: dict[int, set[int]]
    lines: dict[int, Variation]
    unjudged: int = 0


def annotate(result: Replay, options: Options, evaluate: Evaluations | None = None,
             engine: Analyse | None = None) -> tuple[Game, list[str]]:
    """A copy of the replayed (valid) game with annotations, and notes about changed tags;
    `evaluate` (shared by the games of a run) answers the searches of --shots, `engine` (a Hub
    engine, --engine) adds its evaluations and best lines."""
    return _annotated(result, options, _notes(result, options, evaluate, engine))


def _annotated(result: Replay, options: Options, added: Notes) -> tuple[Game, list[str]]:
    """The annotated copy of the game, made of elements (`added` after its moves), and notes about
    changed tags."""
    game = result.game
    elements = _place(game.elements, added.commands, added.nags, added.lines)
    plies = sum(1 for element in elements if isinstance(element, NotatedMove))
    tags, terminator, _, notes = _tags(game, plies, result, options)
    return dataclasses.replace(game, tags=tags, result=terminator, elements=elements), notes


def _notes(result: Replay, options: Options, evaluate: Evaluations | None, engine: Analyse | None) -> Notes:
    """The commands, NAGs and variations to add after each ply of the main line."""
    counts = {p.number: p.before.choices() for p in result.plies} if options.moves or options.forced else {}
    commands = _commands(result, options, counts)
    nags: dict[int, set[int]] = {ply: {FORCED} for ply, count in counts.items() if options.forced and count == 1}
    lines = _engine_commands(result, engine, commands)
    unjudged = 0
    if options.shots:
        evaluate = evaluate or Evaluations(options.depth, options.nodes)
        for ply, judgement in zip(result.plies, shots(result, evaluate)):
            if judgement.kind == NOT_JUDGED:        # a search went past its budget: no score
                commands.setdefault(ply.number, []).append(f"[%unjudged nodes {evaluate.nodes}]")
                unjudged += 1
                continue
            assert judgement.score is not None      # a move judged has its score
            commands.setdefault(ply.number, []).append(f"[%eval {eval_text(judgement.score)}]")
            if judgement.kind is not None:
                nags.setdefault(ply.number, set()).add(SHOT_NAGS[judgement.kind])
                lines[ply.number] = _variation(result, ply.number, ply.before, judgement.line)
    return Notes(commands, nags, lines, unjudged)


def _commands(result: Replay, options: Options, counts: dict[int, int]) -> dict[int, list[str]]:
    """The commands to write after each ply; `counts`: the legal moves before each ply."""
    alpha = _replayed(result)[1].alpha
    plies = result.plies
    columns: list[list[str]] = []           # a column a command asked for: its text after each ply, or ''
    if options.fen:
        columns.append([f"[%fen {ply.after.fen(alpha)}]" for ply in plies])
    if options.moves:
        columns.append([f"[%moves {counts[ply.number]}]" for ply in plies])
    if options.captures:
        columns.append([f"[%captured {len(ply.move.captured)}]" if ply.move.captured else "" for ply in plies])
    draws = _draw_counts(result) if options.draws else {}
    out: dict[int, list[str]] = {}
    for ply, row in zip(plies, zip(*columns) if columns else [()] * len(plies)):
        commands = [command for command in row if command]
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


def shots(result: Replay, evaluate: Evaluations) -> list[Judgement]:
    """The search's judgement of each ply of the main line."""
    return judge([(ply.before, ply.move, ply.after) for ply in result.plies], evaluate)


def _variation(result: Replay, ply: int, before: Position, line: tuple[LegalMove, ...]) -> Variation:
    """`line` (from the position before main-line ply `ply`) as a variation opening with LINE."""
    start = result.start
    assert start is not None and result.variant is not None
    index = ply - 1 + (0 if start.turn == result.variant.first else 1)
    elements: list[Element] = [Comment(LINE)]
    for text in line_text(before, line):
        if index % 2 == 0 or len(elements) == 1:
            elements.append(MoveNumber(index // 2 + 1, index % 2 == 1))
        elements.append(NotatedMove(text, tuple(re.split("[-x]", text)), "x" in text))
        index += 1
    return Variation(elements)


def _place(elements: list[Element], commands: dict[int, list[str]], added: dict[int, set[int]],
           lines: dict[int, Variation]) -> list[Element]:
    """The main line with our old comments and variations dropped and the new ones after each move
    and its NAGs (`added`: the NAGs to add to each ply, unless it has them)."""
    kept = [e for e in elements if not is_ours(e)]
    out: list[Element] = []
    ply = i = 0
    while i < len(kept):
        element = kept[i]
        out.append(element)
        i += 1
        if not isinstance(element, NotatedMove):
            continue
        ply += 1
        nags: list[Nag] = []
        while i < len(kept) and isinstance(nag := kept[i], Nag):
            nags.append(nag)
            i += 1
        have = {n.number for n in nags}
        out += [Nag(number) for number in sorted(added.get(ply, set()) - have)]
        out += nags
        if ply in commands:
            out.append(Comment(" ".join(commands[ply])))
        if ply in lines:
            out.append(lines[ply])
    return out


def _atoms(movetext: list[Element | MoveRun], commands: dict[int, list[str]], added: dict[int, set[int]]
           ) -> tuple[list[str], int] | None:
    """The pieces `write_game` writes (as writer._atoms cuts them) of the main line `_place` makes,
    each run kept as text written from its words (no element made), and the main line's moves
    counted; None when the movetext holds what `_place` alone places (a variation, a setup, a
    placeholder)."""
    atoms: list[str] = []
    number = ""                     # a move number, written with the move after it
    ply = 0
    nags: list[int] = []            # the NAGs written after move `ply`, while they come
    after = False                   # whether the NAGs and comment of move `ply` are still to come

    def piece(text: str, kind: str) -> None:
        nonlocal number, ply, after
        if after:
            if nags or ply in added:
                atoms.extend(f"${n}" for n in sorted(added.get(ply, set()) - set(nags)))
                atoms.extend(f"${n}" for n in nags)
                nags.clear()
            if ply in commands:
                atoms.append("{" + " ".join(commands[ply]) + "}")
            after = False
        if kind == "move":
            atoms.append(f"{number} {text}" if number else text)
            number = ""
            ply += 1
            after = True
            return
        if number:
            atoms.append(number)
        number = text if kind == "number" else ""
        if kind == "other":
            atoms.append(text)

    for element in movetext:
        kind = type(element)
        if kind is MoveRun:
            for text in element.texts():            # type: ignore[union-attr]
                if text[-1] == ".":
                    piece(_run_number(text), "number")
                else:
                    piece(text, "move")
        elif kind is Nag and after:
            nags.append(element.number)             # type: ignore[union-attr]
        elif kind is MoveNumber:
            piece(atom(element), "number")          # type: ignore[arg-type]
        elif kind is NotatedMove or kind is Nag or kind is Comment:
            if not is_ours(element):                # type: ignore[arg-type]
                piece(atom(element), "move" if kind is NotatedMove else "other")     # type: ignore[arg-type]
        elif not (kind is Variation and is_ours(element)):     # type: ignore[arg-type]
            return None
    piece("", "end")
    return atoms, ply


# What the core's annotate_line writes (rules/_annotated.c): the kinds of the pieces of a main line,
# and the commands asked, as bits.
_CORE_PIECES: dict[type, int] = {MoveRun: 0, NotatedMove: 0, MoveNumber: 1, Nag: 2, Comment: 3}
_CORE_ASKS = (("fen", 1), ("moves", 2), ("forced", 4), ("captures", 8))


def _core_game(result: Replay, options: Options) -> tuple[str, list[str]] | None:
    """The annotated game's text and notes about changed tags, its main line with its tail written
    by the compiled core as _atoms, _commands, _draw_counts and wrap write them
    (`steps.annotate_line`), when the main line holds runs kept as text, moves written in square
    numbers without a strength, move numbers, NAGs and comments, and the core plays every move (the
    draws it does not count, an ending's, counted by _draw_counts and written by it); else None."""
    start, variant = _replayed(result)
    if not steps.runs_text(start):
        return None
    game = result.game
    pieces: list[tuple[str | int, int]] = []
    for element in movetext_runs(game):
        kind = _CORE_PIECES.get(type(element))
        if kind is None:
            if not (type(element) is Variation and is_ours(element)):
                return None
        elif kind == 0:             # a run kept as text, or a move alone played as one
            if type(element) is NotatedMove and element.strength:
                return None
            pieces.append((element.text, 0))                             # type: ignore[union-attr]
        elif kind == 2:
            pieces.append((element.number, 2))                           # type: ignore[union-attr]
        elif kind == 1 or not is_ours(element):                         # type: ignore[arg-type]
            pieces.append((atom(element), kind))                         # type: ignore[arg-type]
    counts = options.kept.fresh_counts(start, result.draw_rules) if options.draws else None
    tags, _, end, notes = _tags(game, result.ply_count, result, options)      # the tail written with the Result set
    names, tail, head = square_names(variant) if variant.alpha else None, tail_of(end, game.after), \
        None if game.before else tags
    written = None if options.draws and counts is None else \
        steps.annotate_line(start, pieces, result.ply_count, names, options.asks, counts, tail, WIDTH, head)
    if written is None and options.draws:       # the core leaves the draws to Python (an ending's count): their
        drawn = _draw_notes(result)             # commands counted here, the line played and written by the core
        if drawn is not None:
            written = steps.annotate_line(start, pieces, result.ply_count, names, options.asks, drawn, tail, WIDTH,
                                          head)
    if written is None or written[1] != result.ply_count:
        return None
    text, _, whole = written            # the whole game's text, or its movetext when Python writes the head
    return text if whole else written_game(game.before, tags, text), notes


def _fresh_counts(start: Position, rules: DrawRules | None) -> steps.DrawCounts | None:
    """Kept.fresh_counts, made."""
    tracker = DrawTracker(start, rules)
    limits = tracker.core_limits()
    if limits is None or tracker.event is not None:
        return None
    quiet = tracker.rules.quiet
    return (None if quiet is None else quiet.name), tracker.seen, tracker.since, tracker.quiet, limits


def _draw_notes(result: Replay) -> list[str | None] | None:
    """_draw_counts' commands as the core's annotate_line takes them: item N those after ply N, joined;
    None when one is not ASCII (Python writes the game)."""
    notes: list[str | None] = [None] * (result.ply_count + 1)
    for ply, commands in _draw_counts(result).items():
        joined = notes[ply] = " ".join(commands)
        if not joined.isascii():
            return None
    return notes


def _draw_counts(result: Replay) -> dict[int, list[str]]:
    """`[%draw ...]` commands where a count of the variant's draw rules starts, ends or draws."""
    tracker = DrawTracker(_replayed(result)[0], result.draw_rules)
    counting: set[str] = set()
    claims = 0
    out: dict[int, list[str]] = {}
    for ply in result.plies:
        move = ply.move
        tracker.update(ply.number, ply.after, ply.before.piece_at(move.start) in ("W", "B"), bool(move.captured))
        if not (counting or tracker.started or tracker.quiet) and len(tracker.claims) == claims \
                and tracker.event is None:
            continue                # the common ply: no count runs, nothing is claimable or draws
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


# An annotated game's head: its tags, its terminator written after the movetext (Game.result), that
# terminator as writer.terminator writes it (its tail's start), and the notes on its tags.
Head = tuple[list[tuple[str, str]], str | None, str, list[str]]


def _tags(game: Game, plies: int, result: Replay, options: Options) -> Head:
    """The head of the annotated replayed `game`: its tags with the PlyCount (the main line's `plies`),
    Result and GameType asked for set (a new list when one is: the game's are left as they are), its
    terminator (the Result set when one was written), and notes on the tags that changed."""
    tags, terminator = game.tags, game.result
    first = dict(reversed(tags))            # each name's first value
    notes = []
    if options.ply_count:
        tags = _set_tag(tags, first, "PlyCount", str(plies))
    tag = first.get("Result")
    computed = result.computed_result() if options.result else None
    if computed is not None:
        stated = results.stated_result(tag, terminator)
        if stated in results.UNKNOWN:
            tags = _set_tag(tags, first, "Result", computed)
            tag = computed
            if terminator is not None:
                terminator = computed
            change = f"Result {stated!r} set to {computed!r}" if stated else f"Result {computed!r} added"
            notes.append(f"{change}: the rules decide the game")
    if options.gametype and "GameType" not in first:     # the full one, as convert writes it
        variant = _replayed(result)[1]
        full, note = options.kept.gametype(variant, written_alpha(game, variant, _AS_WRITTEN))    # as variant_tags
        tags = [*tags, ("GameType", full)]
        notes.append(note)
    return tags, terminator, terminator or terminator_of(tag), notes


def _set_tag(tags: list[tuple[str, str]], first: dict[str, str], name: str, value: str) -> list[tuple[str, str]]:
    """A copy of `tags` (whose names' first values are `first`) with `name` set as Game.set_tag sets
    it: the first of its name, else added last."""
    if name not in first:
        return [*tags, (name, value)]
    tags = list(tags)
    tags[[key for key, _ in tags].index(name)] = (name, value)
    return tags


def _replayed(result: Replay) -> tuple[Position, Variant]:
    """The start position and variant of a replayed game (only those are annotated)."""
    if result.start is None or result.variant is None:
        raise ValueError(f"{result.game.file}:{result.game.line}: game {result.game.index} was not replayed")
    return result.start, result.variant


def annotate_game(checked: Checked, options: Options, evaluate: Evaluations | None = None,
                  engine: Analyse | None = None) -> tuple[str, list[tuple[str, str, bool]]]:
    """The game's annotated text with notes on changed tags, each (where: `FILE:LINE: game N: `, what,
    whether it may be grouped with the file's alike: a GameType added, not a Result set); a game
    that is not valid is passed on unchanged.  `evaluate`: the search results shared by a run's games (--shots);
    `engine`: a Hub engine (--engine)."""
    result = checked.replay
    if result is None or not result.ok:
        return game_text(checked.game), []
    game = result.game
    written = None if options.shots or engine is not None else _core_game(result, options)
    if written is not None:         # the main line played and written by the core
        text, notes = written
    else:
        added = _notes(result, options, evaluate, engine)
        placed = None if added.lines else _atoms(movetext_runs(game), added.commands, added.nags)
        if placed is None:
            annotated, notes = _annotated(result, options, added)
            text = write_game(annotated)
        else:                       # the movetext written from the runs' words: no element made
            atoms, plies = placed
            tags, _, end, notes = _tags(game, plies, result, options)
            text = written_game(game.before, tags, wrap([*atoms, tail_of(end, game.after)]))
        if added.unjudged:
            notes = [*notes, _unjudged_note(options.nodes)]
    where = f"{game.file}:{game.line}: game {game.index}: "
    return text, [(where, note, isinstance(note, Alike)) for note in notes]


def _unjudged_note(nodes: int | None) -> Alike:
    """The note on a game some of whose moves --shots did not judge (grouped per file)."""
    budget = "its node budget" if nodes is None else f"--nodes {nodes:,}"
    return Alike(f"moves not judged ([%unjudged]): a search went past {budget}; a larger --nodes judges them")


class Alike(str):
    """A note said alike of many games of a file, made so where it is made (`_tags`: a GameType added, to
    every game of an archive without GameType tags): annotate groups these per file and message; other
    notes (a Result set) are written for each game."""

    __slots__ = ()


def shots_json_line(checked: Checked, evaluate: Evaluations) -> str:
    """`validate --format jsonl --shots`' line of a checked game: its record with the moves judged."""
    return json_text(with_shots(checked, evaluate).as_dict())
