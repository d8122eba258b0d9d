"""Draw rules of each variant, each with the text it comes from.

A `DrawTracker` is fed every position of a game's main line.  Its `event` is the first
draw a rule imposes by itself (the game is drawn once that ply has been played); its
`claims` are the first plies at which the other rules could have ended the game: a
repetition the players must claim, or a rule found in no rule text, which is reported
and never makes a Result wrong.

Counts are in plies (one player's move): "25 moves each" is 50 plies.  An ending's count
starts at the ply that made it (that ply is not counted) and runs while the ending lasts;
an ending that gives way to another and comes back later counts afresh.  A ply-0 ending
(a game set up in it) counts from the first move.
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Iterable, NamedTuple

if TYPE_CHECKING:       # the variants hold their draw rules: no import of the move generator here
    from pdn_tools.rules.movegen import Position
    from pdn_tools.rules.variants import Variant

# How a rule ends a game.
AUTOMATIC = "automatic"     # the text says the game is drawn: a win after it is a wrong Result
CLAIMED = "claimed"         # the text lets a player claim the draw: a warning
UNWRITTEN = "unwritten"     # no rule text says so (another program's choice): a warning

# (men, kings) of one side
Material = tuple[int, int]
# DrawTracker.core_limits(): what the compiled core counts by
CoreLimits = tuple[int, bool, int, bool, bool, bytes | None]


# The rules' records are NamedTuples: every start makes these classes, and a frozen dataclass takes some
# 0.7 ms to make (it compiles its methods), a NamedTuple 0.15 (docs/start-up.md).
class Repetition(NamedTuple):
    """The same pieces on the same squares with the same side to move, `times` times."""

    source: str
    how: str = AUTOMATIC
    times: int = 3
    name: str = "3-fold repetition"


class QuietLimit(NamedTuple):
    """`plies` in a row in which only kings move and nothing is taken."""

    name: str
    plies: int
    source: str
    how: str = AUTOMATIC


class Endgame(NamedTuple):
    """An ending that must be won within `limit` from the ply it arose.

    `material` holds the (strong side, weak side) piece counts of the ending.  The ending
    begins when the material is there and the extra conditions hold; it lasts while the
    material stays in the set (any change of material starts it again when `exact`).
    """

    name: str
    limit: int                                        # plies, or the strong side's moves
    material: frozenset[tuple[Material, Material]]
    source: str
    strong_moves: bool = False                        # `limit` counts the strong side's moves
    exact: bool = False                               # a change of material starts the count again
    lone_king_alone_on_diagonal: bool = False         # begins with the lone king alone on the long diagonal
    strong_king_on_diagonal: bool = False             # begins with a strong king on the long diagonal
    men_on: tuple[int, ...] = ()                      # (strong man, weak man) squares, White strong
    keeps_deadline_of: tuple[str, ...] = ()           # a capture out of these keeps their deadline if sooner
    how: str = AUTOMATIC


class DrawRules(NamedTuple):
    repetition: Repetition
    quiet: QuietLimit | None = None
    endgames: tuple[Endgame, ...] = ()


def _against_lone_king(strong: Iterable[Material]) -> frozenset[tuple[Material, Material]]:
    return frozenset((side, (0, 1)) for side in strong)


def _with_kings(total: int) -> list[Material]:
    """Every (men, kings) of `total` pieces with at least one king."""
    return [(total - kings, kings) for kings in range(1, total + 1)]


def _balance(low: int, high: int) -> frozenset[tuple[Material, Material]]:
    """Both sides have kings, low..high pieces in all (FMJD-64 7.2.6)."""
    return frozenset((one, other) for total in range(low, high + 1) for count in range(1, total)
                     for one in _with_kings(count) for other in _with_kings(total - count))


THREE_WITH_A_KING = _against_lone_king([(2, 1), (1, 2), (0, 3)])
TWO_OR_ONE_WITH_A_KING = _against_lone_king([(1, 1), (0, 2), (0, 1)])

# Seed 002 (international), lines 20-25; line 25: a win on the last counted move beats the draw.
INTERNATIONAL = DrawRules(
    Repetition("seed 002 line 20: 'Repetición. Las mismas piezas en las mismas casillas, con el mismo "
               "bando al turno, por tercera vez.'"),
    QuietLimit("25-move rule", 50, "seed 002 line 21: 'Durante 25 jugadas seguidas de cada jugador solo "
               "se han movido damas, sin mover ningún peón y sin captura.'"),
    (
        Endgame("16-move rule", 32, THREE_WITH_A_KING, "seed 002 line 22: 'Tres damas, dos damas y un peón, o "
                "una dama y dos peones contra una dama: cada jugador puede hacer como máximo otras 16 jugadas.'"),
        Endgame("5-move rule on the long diagonal", 10, THREE_WITH_A_KING, "seed 002 line 23: 'Cuando la dama "
                "solitaria es la única pieza en la gran diagonal ... quedan como máximo cinco jugadas más por "
                "bando.'", lone_king_alone_on_diagonal=True),
        Endgame("5-move rule", 10, TWO_OR_ONE_WITH_A_KING, "seed 002 line 24: 'Dos damas, dama y peón, o una "
                "dama contra una dama: como máximo cinco jugadas más por bando. Si una captura convierte un final "
                "de dieciséis jugadas en uno de estos, se aplica el plazo que venza primero.'",
                keeps_deadline_of=("16-move rule", "5-move rule on the long diagonal")),
    ),
)
# Seed 000 (Canadian), lines 42-45: no long-diagonal rule, no carried-over deadline.
CANADIAN = DrawRules(
    Repetition("seed 000 line 42: 'Se repite la misma posición por tercera vez.'"),
    QuietLimit("25-move rule", 50, "seed 000 line 43: 'Se realizan 25 movimientos consecutivos de cada "
               "jugador sin desplazamiento de peón ni captura.'"),
    (
        Endgame("16-move rule", 32, THREE_WITH_A_KING, "seed 000 line 44: 'tres piezas de un lado (una de "
                "ellas por lo menos que sea dama) contra una dama, tras jugar cada jugador 16 movimientos.'"),
        Endgame("5-move rule", 10, TWO_OR_ONE_WITH_A_KING, "seed 000 line 45: 'una dama o dos piezas de un "
                "lado (una de ellas por lo menos que sea dama) contra una dama, tras jugar cada jugador 5 "
                "movimientos.'"),
    ),
)
# FMJD-64 rules 7.2.3-7.2.8, as quoted by lidraughts (reference §4.3); Brazilian too.
FMJD64 = DrawRules(
    Repetition("FMJD-64 7.2.3: the same position a third time, the same side to move"),
    QuietLimit("15-move rule", 30, "FMJD-64 7.2.5: 15 moves with only kings moving, no man moved, no capture"),
    (
        Endgame("3 kings against 1", 15, _against_lone_king((0, kings) for kings in range(3, 13)),
                "FMJD-64 7.2.4: three kings or more against a lone king, not won by the strong side's 15th "
                "move", strong_moves=True),
        Endgame("5-move rule on the long diagonal", 10, THREE_WITH_A_KING, "FMJD-64 7.2.7: 3 kings, 2 kings "
                "and a man or a king and 2 men against a lone king on the long diagonal: 5 moves",
                lone_king_alone_on_diagonal=True),
        Endgame("5-move rule", 10, TWO_OR_ONE_WITH_A_KING, "FMJD-64 7.2.8: 2 kings, a king and a man or a "
                "king against a lone king: 5 moves"),
        Endgame("30-move balance rule", 60, _balance(4, 5), "FMJD-64 7.2.6: both sides with kings, 4 or 5 "
                "pieces, the balance unchanged for 30 moves", exact=True),
        Endgame("60-move balance rule", 120, _balance(6, 7), "FMJD-64 7.2.6: both sides with kings, 6 or 7 "
                "pieces, the balance unchanged for 60 moves", exact=True),
    ),
)
# Seed 001 (straight checkers), lines 46-52: "Se declara un empate si se produce cualquiera de estas
# condiciones".  Its "25 movimientos" are read as 25 single moves (plies) in all: the seeds count a
# "movimiento" as one player's move (seed 003 line 35: "12 jugadas (24 movimientos)") and say "de
# cada jugador" where they mean each player's (seed 000 line 43); seed 001 does not.
ENGLISH = DrawRules(
    Repetition("seed 001 line 48: 'Se repite la misma situación por tercera vez (no necesariamente "
               "consecutiva).'"),
    QuietLimit("25-move rule", 25, "seed 001 line 52: 'Se han realizado 25 movimientos sin avanzar una ficha o "
               "realizar una captura.' (25 single moves in all)"),
)
# English tournament play, as the reference gives the EDA/WCDF wording (§4.3): both draws are
# claims.  Not a default (no seed says so): the `wcdf` rule set of variants.RULE_SETS.
ENGLISH_TOURNAMENT = DrawRules(
    Repetition("EDA/WCDF (reference §4.3): the same position three times, claimed", CLAIMED),
    QuietLimit("40-move rule", 80, "EDA/WCDF (reference §4.3): 40 moves each with no uncrowned man "
               "advanced and no piece removed, claimed", CLAIMED),
)
# Seed 003 (Spanish), rules 25-26: agreement, a claimed repetition and two move limits.
SPANISH = DrawRules(
    Repetition("seed 003 line 33 (25c): 'Cuando una misma posición se dé tres veces, siendo el mismo jugador "
               "el que esté en turno de juego y asi se reclame.'", CLAIMED),
    None,
    (
        Endgame("forzosa (3 kings against 1)", 24, _against_lone_king([(0, 3)]), "seed 003 line 35 (26a): "
                "'Forzosa (3 damas con diagonal principal contra una dama) : Máximo de 12 jugadas (24 "
                "movimientos) incluyendo el movimiento de captura final.'", strong_king_on_diagonal=True),
        Endgame("saque de peón", 64, frozenset({((1, 2), (1, 1))}), "seed 003 line 36 (26b): 'Saque de peón "
                "(2 Damas con d.p. y un peón en la casilla 2, contra una dama y peón en casilla 9; al contrario "
                "para las negras) : Máximo de 32 jugadas (64 movimientos) hasta lograr ganar el juego, "
                "convertir en dama el peón o capturar el peón contrario.'",
                strong_king_on_diagonal=True, men_on=(2, 9)),
    ),
)
ITALIAN = DrawRules(
    Repetition("no rule text found (reference §4.3): a claim at most", CLAIMED),
    QuietLimit("40 king moves each", 80, "no rule text: pydraughts' rule (reference §4.3)", UNWRITTEN),
)
POOL = DrawRules(
    Repetition("DCTL, APCA (reference §4.3): three repetitions, claimed", CLAIMED),
    None,
    (Endgame("3 kings against 1", 13, _against_lone_king([(0, 3)]), "Wikipedia 'Pool checkers' (reference "
             "§4.3): the player with 3 kings must win within 13 moves", strong_moves=True),),
)
FRISIAN = DrawRules(
    Repetition("no rule text found (reference §4.3): a claim at most", CLAIMED),
    None,
    (
        Endgame("2 kings against 1", 7, _against_lone_king([(0, 2)]), "FRIS Art. 18, 21 (reference §4.3): "
                "the stronger side must win within 7 moves", strong_moves=True),
        Endgame("1 king against 1", 4, _against_lone_king([(0, 1)]), "no rule text: lidraughts' 2 moves each "
                "for FRIS 'drawn at once unless a capture is possible or forced' (reference §4.3)",
                how=UNWRITTEN),
    ),
)
# Czech, Turkish, Thai.
REPETITION_ONLY = DrawRules(Repetition("no rule text found (reference §4.3): a claim at most", CLAIMED))


class DrawEvent(NamedTuple):
    rule: str
    ply: int              # the game could be drawn once this ply has been played
    how: str = AUTOMATIC
    source: str = ""

    @property
    def claimable(self) -> bool:
        """True when the draw is only a player's right (or no text's), not the rules' verdict."""
        return self.how != AUTOMATIC


class _Count(NamedTuple):
    deadline: int                        # the ply after which the ending is drawn
    material: tuple[Material, Material]  # (White, Black) when it began


@cache
def _men_go_back(man_steps: tuple[str, ...]) -> bool:
    """Whether men of these steps can move backwards (a position may then come back)."""
    return any(step not in ("f", "fl", "fr") for step in man_steps)


class DrawTracker:
    """Watches a main line: the first automatic draw, and the draws that could be claimed."""

    def __init__(self, start: Position, rules: DrawRules | None = None) -> None:
        """Watch the line from `start` under `rules` (the variant's own draw rules by default)."""
        self.rules = start.variant.draws if rules is None else rules
        # Positions since the last irreversible move (a capture, or a man's step forward):
        # no earlier one can come back.  The table is filled only once a reversible move is
        # made, from `since`, the position that move left.
        self.seen: dict[Position, int] = {}
        self.since = start
        self.men_go_back = _men_go_back(start.variant.man_steps)
        self.quiet = 0
        self.started: dict[str, _Count] = {}            # running ending counts by rule name
        self.material: tuple[Material, Material] | None = None   # when the endings were looked at
        self.waiting = False          # an ending's material is there, its other conditions are not
        self.event: DrawEvent | None = None
        self.claims: list[DrawEvent] = []
        self.endings: bytes | None = None     # ending_materials(rules), found when core_limits first needs it
        if self.rules.endgames:
            self._endgames(0, start, False)

    def update(self, ply: int, position: Position, king_moved: bool, captured: bool) -> None:
        """Account for the position after `ply`, whose move moved a king or a man and
        captured or not."""
        if self.event is not None:
            return
        rules = self.rules
        repetition = rules.repetition
        seen = self.seen
        if captured or not (king_moved or self.men_go_back):
            seen.clear()
            self.since = position
        else:
            if not seen:
                seen[self.since] = 1
            count = seen[position] = seen.get(position, 0) + 1
            if count >= repetition.times and self._draw(repetition.name, ply, repetition.how, repetition.source):
                return
        quiet = rules.quiet
        if quiet is not None:
            self.quiet = self.quiet + 1 if king_moved and not captured else 0
            if self.quiet >= quiet.plies and self._draw(quiet.name, ply, quiet.how, quiet.source):
                return
        if rules.endgames:
            self._endgames(ply, position, captured)

    def core_limits(self) -> CoreLimits | None:
        """What the compiled core needs to count plies in update()'s stead (Position.run_text):
        (repetitions, whether reaching them notes a draw, the quiet limit or 0, whether reaching
        it notes a draw, whether men go back, the materials that can make or keep an ending
        (`ending_materials`, None when the variant has no endings)); None while an ending's
        count is running or waiting (update() looks at every ply then).

        With no ending running or waiting, update() after a position whose material is in no
        ending leaves the tracker as it was but for `material`, and `material` decides
        nothing more: `_endgames` calls `_arise` when the material changes, and `_arise` from
        an empty `started` depends only on the position (the `before` it reads is empty); when
        the material is the same as `material`, `_arise` made started = {} and waiting = False
        from it, which means it is in no ending, so calling `_arise` again would make them so
        again.  So the core may play any ply whose position after it has no king or a material
        outside the table, whatever `material` holds, and must leave the others to update()."""
        if self.started or self.waiting:
            return None
        rules = self.rules
        repetition, quiet = rules.repetition, rules.quiet
        endings = self.endings
        if endings is None and rules.endgames:      # looked up once a tracker, not at each run (it hashes the rules)
            endings = self.endings = ending_materials(rules)
        return (repetition.times, self._notes(repetition.name, repetition.how),
                0 if quiet is None else quiet.plies, quiet is not None and self._notes(quiet.name, quiet.how),
                self.men_go_back, endings)

    def _notes(self, rule: str, how: str) -> bool:
        """Whether reaching `rule` would note something (_draw)."""
        return how == AUTOMATIC or not self.claims or all(claim.rule != rule for claim in self.claims)

    def running(self) -> set[str]:
        """The names of the move counts running now."""
        quiet = self.rules.quiet
        return set(self.started) | ({quiet.name} if quiet is not None and self.quiet else set())

    def _draw(self, rule: str, ply: int, how: str, source: str) -> bool:
        """Note a draw; True when it ends the game."""
        if how == AUTOMATIC:
            self.event = DrawEvent(rule, ply, how, source)
            return True
        if all(claim.rule != rule for claim in self.claims):
            self.claims.append(DrawEvent(rule, ply, how, source))
        return False

    def _endgames(self, ply: int, position: Position, captured: bool) -> None:
        if not position.has_kings():        # every ending has a king
            self.started, self.material, self.waiting = {}, None, False
            return
        material = (position.counts("W"), position.counts("B"))
        if material != self.material or self.waiting:
            self._arise(ply, position, material, captured)
        for endgame in self.rules.endgames:
            count = self.started.get(endgame.name)
            if count is not None and ply >= count.deadline and self._draw(endgame.name, ply, endgame.how,
                                                                            endgame.source):
                return

    def _arise(self, ply: int, position: Position, material: tuple[Material, Material], captured: bool) -> None:
        """Which endings run after `ply`: those going on, and those the ply made."""
        before, started, waiting = self.started, {}, False
        white, black = material
        for endgame in self.rules.endgames:
            if (white, black) in endgame.material:
                strong = "W"
            elif (black, white) in endgame.material:
                strong = "B"
            else:
                continue
            count = before.get(endgame.name)
            if count is not None and (not endgame.exact or count.material == material):
                started[endgame.name] = count
                continue
            if not _begins(endgame, position, strong):
                waiting = True
                continue
            if endgame.strong_moves:     # the strong side's n-th move from here
                deadline = ply + 2 * endgame.limit - (position.turn == strong)
            else:
                deadline = ply + endgame.limit
            if captured:
                deadline = min([deadline] + [before[name].deadline for name in endgame.keeps_deadline_of
                                             if name in before])
            started[endgame.name] = _Count(deadline, material)
        self.started, self.material, self.waiting = started, material, waiting


def _begins(endgame: Endgame, position: Position, strong: str) -> bool:
    """Whether the ending's conditions other than material hold, `strong` the strong side."""
    variant = position.variant
    diagonal = long_diagonal(variant)
    if endgame.lone_king_alone_on_diagonal:
        lone_king = position.pieces("B" if strong == "W" else "W")[1]
        if {square for square in diagonal if position.piece_at(square)} != lone_king:
            return False
    if endgame.strong_king_on_diagonal and not position.pieces(strong)[1] & diagonal:
        return False
    if endgame.men_on:
        squares = endgame.men_on if strong == "W" else tuple(variant.num_squares + 1 - sq for sq in endgame.men_on)
        weak = "B" if strong == "W" else "W"
        return position.piece_at(squares[0]) == strong.lower() and position.piece_at(squares[1]) == weak.lower()
    return True


# The side of `ending_materials`' table: a count of men or kings this high is in no ending.
MATERIAL_SIDE = 16


@cache
def ending_materials(rules: DrawRules) -> bytes:
    """A table of the materials in some ending of `rules`, either side strong: byte
    ((white men * S + white kings) * S + black men) * S + black kings, S = MATERIAL_SIDE,
    is 1 when (white, black) or (black, white) is in an `Endgame.material`.  Counts of S or
    more are never an ending (checked here)."""
    side = MATERIAL_SIDE
    table = bytearray(side ** 4)
    for endgame in rules.endgames:
        for strong, weak in endgame.material:
            if max(strong + weak) >= side:
                raise ValueError(f"{endgame.name}: a material count of {side} or more")
            for (white_men, white_kings), (black_men, black_kings) in ((strong, weak), (weak, strong)):
                table[((white_men * side + white_kings) * side + black_men) * side + black_kings] = 1
    return bytes(table)


@cache
def long_diagonal(variant: Variant) -> frozenset[int]:
    """The squares of the long diagonal, corner to corner: a1-h8 where a1 is playable
    (international 46 to 5, seed 002 line 23), else h1-a8 (Spanish: 'la gran diagonal o
    diagonal principal a la derecha del jugador', seed 003 line 6)."""
    size = variant.rows
    a1_playable = variant.square_at(size - 1, 0) is not None
    cells = [(size - 1 - i, i) if a1_playable else (i, i) for i in range(size)]
    return frozenset(square for cell in cells if (square := variant.square_at(*cell)) is not None)
