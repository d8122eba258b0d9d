"""Every game that reads writes to text that reads back as the same game: a property over
fuzzed text (token soup from PDN's own pieces and hostile characters), not only the corpus."""
import collections
import dataclasses
import io
import itertools
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from boards import random_move
from corpus import corpus_files, needs_corpus

from pdn_tools import Game, ReadError, read_games
from pdn_tools.commands.annotate import Options as Annotations, annotate, annotate_game
from pdn_tools.commands.convert import Options as ConvertOptions, convert, convert_game
from pdn_tools.play.notation import Style, move_text, result_fixes
from pdn_tools.play.check import check
from pdn_tools.play.replay import Replay, replay
from pdn_tools.play.variant_choice import choose_variant
from pdn_tools.rules.fen import parse_fen, to_fen
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import VARIANTS, Variant, variant_by_name
from pdn_tools.text.model import Comment
from pdn_tools.text.results import RESULTS
from pdn_tools.text.writer import result as writer_result, terminator, write_game

# `PDN_FUZZ_EXAMPLES=20000 pytest tests/whole/test_round_trip.py tests/whole/test_robustness.py` runs the long fuzz.
EXAMPLES = int(os.environ.get("PDN_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=EXAMPLES <= 300,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_PIECES = ['[', ']', '"', '\\', '{', '}', '(', ')', '/', '%', ';', '$', '*', '!', '?', '-', 'x', ':', '.', '...',
           ' ', '\t', '\n', '\n\n', '\r', '\\n', '\\r', '½', '²', '\ufeff', '\x00',
           '1.', '12...', '32-28', '19-23', '28x19', 'c3-d4', 'ed4', '07-12', 'C3', '1-0', '0-1', '2-0', '1-1',
           '1/2-1/2', '0-0', '$7', '(?)', '!?', '- -', 'FEN', 'W:W31-50:B1-20', '[Event "E"]', '[Round 17]',
           '[GameType "20"]', '[Type de jeu "20"]', '[Name} "v"]', '[a "x\\"y"]', '[Na}me 17]', '[A(b) 1]',
           '[x) y]', '[Round "11.1]', '[Game # 612]', '[a b\\]', 'Event', 'GameType', 'word']


@st.composite
def pdn_soup(draw) -> str:
    """Text made of PDN's pieces, quirks and hostile characters, in any order."""
    pieces = draw(st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=4)), max_size=60))
    return "".join(pieces)


def read(text: str) -> list:
    return list(read_games(io.BytesIO(text.encode("utf-8", "surrogatepass")), name="fuzz.pdn"))


def assert_round_trip(text: str) -> None:
    """Each game of `text` reads back from its written text as itself (with the terminator
    PDN requires: a game without one is written with its Result or '*')."""
    for game in read(text):
        if isinstance(game, Game):
            written = write_game(game)
            again = read(written)
            expected = dataclasses.replace(game, result=terminator(game))
            assert again == [expected], f"read {text!r}\nwrote {written!r}\nread back {again!r}"


def assert_file_round_trip(text: str) -> None:
    """The games of `text`, written one after the other (twice, so that each game has one
    after it), read back as themselves: every comment stays with its game."""
    games = [dataclasses.replace(g, result=terminator(g)) for g in read(text) if isinstance(g, Game)] * 2
    written = "".join(write_game(game) for game in games)
    again = read(written)
    assert again == games, f"read {text!r}\nwrote {written!r}\nread back {again!r}"


@FUZZ
@given(pdn_soup())
def test_every_game_read_from_fuzzed_text_writes_back_as_itself(text):
    assert_round_trip(text)


@FUZZ
@given(pdn_soup())
def test_the_games_of_fuzzed_text_written_together_read_back_as_themselves(text):
    assert_file_round_trip(text)


@FUZZ
@given(st.lists(st.tuples(st.text(min_size=1, max_size=12), st.text(max_size=12)), max_size=4), pdn_soup())
def test_every_tag_name_and_value_read_writes_back(tags, movetext):
    text = "".join(f'[{name} "{value}"]\n' for name, value in tags) + movetext
    assert_round_trip(text)


def test_found_by_the_long_fuzz():
    """A move number 0 is not the ellipsis; a comment after a line comment after the result;
    text before the moves of a game without tags, after another game; placeholders '-' and
    '- -' that must not be written as '- - -'."""
    for text in ["0.", "1. 32-28 0. 19-23 *", "*%\n[", "1. 32-28 * % one\n{two} ;three\n{four}",
                 "*\n[*", "*\n01/2-1/2", "-\n- -", "-\n-\n-", "1. - \n- - 2. 32-28 *"]:
        assert_round_trip(text)
        assert_file_round_trip(text)


def test_text_before_the_moves_of_a_game_without_tags_is_its_movetext_wherever_it_stands():
    """Read after another game or first in its file, a game without tags has its leading
    comments (and unreadable text, warned where it stands) in its movetext, as written."""
    for text in ["*\n[ 1. 32-28 *", "[ 1. 32-28 *"]:
        games = read(text)
        game = games[-1]
        assert len(games) == text.count("*") and isinstance(game, Game)
        assert game.before == [] and game.elements[0].text == "["
        warning = game.warnings[0]
        assert (warning.code, warning.line, warning.column) == ("prose", text.count("\n") + 1, 1)
        assert warning.message == "text '[' read as a comment"
        assert_round_trip(text)
        assert_file_round_trip(text)


def test_strict_reading_locates_text_before_the_moves_of_a_game_without_tags():
    games = list(read_games(io.BytesIO(b"*\n\n01 1. 32-28 *"), strict=True, name="fuzz.pdn"))
    assert isinstance(games[0], Game) and isinstance(games[1], ReadError)
    assert str(games[1]) == "fuzz.pdn:3:1: game 2: unexpected '01'"


_TAIL_PIECES = {"%line\n": "line", ";semi\n": "semi", "{brace}": "brace", "{two\nlines}": "two\nlines",
                "\n": None, "\n\n": None, " ": None}
_NEXT_GAMES = {"": [], '[Event "2"]\n1. 19-23 *\n': [], "1. 19-23 *\n": [], "{lead} 1. 19-23 *\n": ["lead"]}


def test_every_comment_after_a_result_stays_with_its_game_through_a_whole_file_round_trip():
    """A result, then line comments, brace comments (on one line or two), line ends and
    blank lines in every order of up to three, then a next game: no comment is lost, and
    each is read with the same game again from the written file (where another game follows)."""
    orders = itertools.chain.from_iterable(itertools.product(_TAIL_PIECES, repeat=n) for n in range(4))
    for pieces, (following, leading) in itertools.product(orders, _NEXT_GAMES.items()):
        text = '[Event "1"]\n1. 32-28 *' + "".join(pieces) + "\n" + following
        games = read(text)
        assert [type(g) for g in games] == [Game] * (2 if following else 1), text
        comments = [c.text for g in games for c in g.before + g.elements + g.after if isinstance(c, Comment)]
        assert comments == [_TAIL_PIECES[p] for p in pieces if _TAIL_PIECES[p]] + leading, text
        assert_file_round_trip(text)


# ---- games of every variant: what pdn-tools writes it reads back as the same games --------------

_STYLES = [Style(captures, squares, separator, fix_results=fix)
           for captures, squares, separator, fix in itertools.product(
               (None, "short", "full"), (None, "numeric", "alpha"), (None, "x", ":"), (False, True))]
_OUTPUTS = ("pdn", "jsonl", "fen")


@dataclasses.dataclass(frozen=True)
class Meaning:
    """What a game is, whoever wrote it: variant, start position, moves as square paths, result.
    A capture written short stands for every path that takes the same pieces (PDN 3.0), so
    `moves` gives each move's start, end and pieces taken, and `paths` the exact path."""

    variant: str | None
    start: Position | None
    moves: tuple[tuple[int, int, frozenset[int]], ...]
    paths: tuple[tuple[int, ...], ...]
    result: str
    complete: bool = True            # every main-line move replays
    checked: bool = True             # its result is checked (not for lidraughts' own other games)


def meaning(game: Game, replayed: Replay | None = None) -> tuple[Meaning, list[Position]]:
    """The game replayed with no option (or `replayed`), and the positions after each of its plies."""
    replayed = replayed or replay(game)
    paths = tuple((ply.move.start, *ply.move.path) for ply in replayed.plies)
    moves = tuple((ply.move.start, ply.move.end, frozenset(ply.move.captured)) for ply in replayed.plies)
    name = None if replayed.variant is None else replayed.variant.name
    return (Meaning(name, replayed.start, moves, paths, writer_result(game), replayed.complete,
                    choose_variant(game).check_results),
            [ply.after for ply in replayed.plies])


def notation(game: Game) -> set[bool]:
    """Whether each main-line move of `game` is written in algebraic squares (True) or numbers."""
    return {move.text[:1].isalpha() for move in game.main_line()}


def exact_paths(output: str, style: Style) -> bool:
    """Whether `output` in `style` gives every capture's path as the game had it: JSON lines do,
    and PDN with full captures or moves as written; short captures name the pieces taken."""
    return output == "jsonl" or style.captures == "full" or not style.rewrites_moves


def loose(found: Meaning) -> Meaning:
    """`found` without its exact paths (its moves' start, end and pieces taken stay)."""
    return dataclasses.replace(found, paths=())


def expected_result(game: Game, style: Style, replayed: Replay | None = None) -> str:
    """The Result a conversion in `style` should write: the game's (its Result tag when that is a
    result, else its terminator), with what --fix-results sets: a tag or terminator that says
    otherwise than the final position, or a missing tag."""
    tag, end = game.tag("Result"), game.result
    if style.fix_results:
        new_tag, new_end = result_fixes(game, replayed or replay(game))
        tag, end = new_tag or tag, new_end or end
    return tag if tag in RESULTS else end or "*"


def read_back(variant: Variant, output: str, text: str, last_only: bool = False) -> list[tuple[Meaning, list[Position]]]:
    """The games of a conversion's `output` text, read as pdn-tools writes them, with the
    positions after their plies (`last_only`: the final one alone, to read fewer FENs)."""
    if output == "pdn":
        games = read(text)
        assert all(isinstance(game, Game) for game in games), games
        return [(found, positions[-1:] if last_only else positions)
                for found, positions in map(meaning, games)]
    if output == "jsonl":
        out = []
        for line in text.splitlines():
            record = json.loads(line)
            named = variant_by_name(record["variant"])
            assert named is not None
            paths = tuple(tuple(_square(named, square) for square in move["path"]) for move in record["moves"])
            taken = [frozenset(_square(named, square) for square in move["captured"]) for move in record["moves"]]
            moves = tuple((path[0], path[-1], captured) for path, captured in zip(paths, taken))
            fens = [move["fen"] for move in record["moves"]]
            after = [parse_fen(named, fen) for fen in (fens[-1:] if last_only else fens)]
            out.append((Meaning(named.name, parse_fen(named, record["fen"]), moves, paths, record["result"]), after))
        return out
    lines = text.splitlines()
    positions = [parse_fen(variant, line.split("\t")[2]) for line in (lines[:1] + lines[1:][-1:] if last_only else lines)]
    return [(Meaning(variant.name, positions[0], (), (), ""), positions[1:])]


def _square(variant: Variant, square: int | str) -> int:
    number = variant.parse_square(str(square))
    assert number is not None, square
    return number


def assert_written_games_read_back(text: str, styles: list[Style] = _STYLES) -> None:
    """Every game of `text` converted in every style to every output, and annotated, reads
    back (with no option) as the same game: same variant, start, moves and result."""
    for game in read(text):
        assert isinstance(game, Game)
        source, positions = meaning(game)
        assert source.complete and source.variant is not None
        variant = VARIANTS[source.variant]
        for style, output in itertools.product(styles, _OUTPUTS):
            converted = convert_game(game, ConvertOptions(output, style))
            assert converted.text, converted.notes
            expected = dataclasses.replace(source, result=expected_result(game, style))
            if output != "pdn":     # JSON lines and FENs give the moves replayed, not how results are checked
                expected = dataclasses.replace(expected, checked=True, complete=True)
            again = read_back(variant, output, converted.text)
            if output == "fen":              # positions only: the start, then after each ply
                again = [(dataclasses.replace(again[0][0], moves=source.moves, paths=source.paths,
                                              result=expected.result), again[0][1])]
            if not exact_paths(output, style):
                again, expected = [(loose(found), after) for found, after in again], loose(expected)
            assert again == [(expected, positions)], f"{style} {output}\n{text}\nwrote\n{converted.text}"
            if output == "pdn" and style.squares is None:       # a style changes only what it names
                assert notation(read(converted.text)[0]) == notation(game), f"{style}\n{text}\nwrote\n{converted.text}"
        annotated, _ = annotate(replay(game), Annotations(*[True] * 8))
        again = read_back(variant, "pdn", write_game(annotated))
        assert again == [(dataclasses.replace(source, result=writer_result(annotated)), positions)]
        assert writer_result(annotated) in (source.result, replay(game).computed_result())


@st.composite
def random_games(draw: st.DrawFn, variants: list[Variant] | None = None) -> str:
    """A legal random game of a variant (any, or one of `variants`), from the start or from a
    set-up position reached by random moves, its moves written in a random style, its Result
    right, wrong or unknown, its GameType bare, in full, lidraughts' own or left out (inferred)."""
    variant = draw(st.sampled_from(variants or list(VARIANTS.values())))
    position = Position.initial(variant)
    for _ in range(draw(st.sampled_from((0, 0, 6, 20)))):
        move = random_move(draw, position)
        if move is None:
            break
        position = position.play(move)
    start = position
    style = draw(st.sampled_from(_STYLES))
    moves = []
    for _ in range(draw(st.integers(0, 40))):
        move = random_move(draw, position)
        if move is None:
            break
        moves.append(move_text(position, move, style))
        position = position.play(move)
    alpha = draw(st.booleans())
    lidraughts = [str(entry.number) for entry in variant.lidraughts]        # 96, 97, 98: replayed by its moves
    tags = {"GameType": draw(st.sampled_from((str(variant.gametype), variant.gametype_text(alpha), "", *lidraughts)))}
    if start != Position.initial(variant):
        tags["FEN"] = to_fen(start, alpha)
    tags["Result"] = draw(st.sampled_from((*variant.results, "*")))
    first = "1. " if start.turn == variant.first else "1... "
    return "".join(f'[{name} "{value}"]\n' for name, value in tags.items() if value) + first + " ".join(moves) + \
        f" {tags['Result']}\n"


def test_found_by_the_long_round_trip():
    """A Canadian capture that goes round (51x38x27x14x25x38) is written short as 51x38, which
    stands as well for the way round the other side (51x38x25x14x27x38): the same pieces."""
    text = ('[FEN "W:Wh6,g5,b4,d4,f4,h4,j4,l4,a3,e3,g3,i3,k3,b2,d2,f2,h2,j2,l2,a1,c1,e1,g1,i1,k1:Bb12,d12,f12,h12,'
            'j12,l12,a11,c11,e11,g11,i11,k11,b10,f10,h10,j10,l10,a9,c9,e9,g9,k9,l8,c7,e7,k7,a5"]\n[Result "*"]\n'
            '1. 40-34 43:56:45 51:38:27:14:25:38 22-28 *\n')
    assert_written_games_read_back(text, [Style(separator=":"), Style(captures="full", squares="alpha")])


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS)
def test_a_game_in_the_other_notation_keeps_it_in_every_style_without_squares(variant):
    """Each variant's game written in the squares that are not its own (an English game in
    `c3-d4`, a Russian one in numbers), its GameType saying so: a style that rewrites its moves
    without --squares writes them in its squares still (assert_written_games_read_back)."""
    alpha = not variant.alpha
    position, moves = Position.initial(variant), []
    for ply in range(16):
        legal = sorted(position.legal_moves(), key=lambda move: (move.start, move.path))
        if not legal:
            break
        move = legal[ply * 7 % len(legal)]
        moves.append(move_text(position, move, Style(squares="alpha" if alpha else "numeric")))
        position = position.play(move)
    text = f'[GameType "{variant.gametype_text(alpha)}"]\n1. {" ".join(moves)} *\n'
    assert_written_games_read_back(text, [style for style in _STYLES if style.squares is None])


@settings(FUZZ, max_examples=max(1, EXAMPLES // 3))
@given(random_games(), st.sampled_from(_STYLES))
def test_a_random_game_of_any_variant_written_in_any_style_and_output_reads_back_as_itself(text, style):
    assume(inferred_or_named(text))
    assert_written_games_read_back(text, [style])


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS)
@settings(FUZZ, max_examples=max(1, EXAMPLES // 300))
@given(st.data())
def test_random_games_of_each_variant_read_back_as_themselves_in_every_style_and_output(variant, data):
    text = data.draw(random_games([variant]))
    assume(inferred_or_named(text))
    assert_written_games_read_back(text)


def inferred_or_named(text: str) -> bool:
    """Whether each game of `text` has a GameType or is one of a variant its moves are tried as."""
    return all(game.tag("GameType") is not None or replay(game).complete for game in read(text))


# ---- every real file, in every style -------------------------------------------------------------

CORPUS_CASES = [("pdn", Style())] + [("pdn", Style(c, q, x)) for c, q, x in itertools.product(
    ("short", "full"), ("numeric", "alpha"), ("x", ":"))] + [("pdn", Style(fix_results=True))] + [
    ("pdn", Style(captures="full")), ("pdn", Style(separator=":"))] + [
    (output, Style(squares=q)) for output, q in itertools.product(("jsonl", "fen"), ("numeric", "alpha"))]


def case_name(output: str, style: Style) -> str:
    options = [f"--{name.replace('_', '-')} {value}" for name, value in
               (("captures", style.captures), ("squares", style.squares), ("separator", style.separator)) if value]
    return " ".join([f"--to {output}", *options] + (["--fix-results"] if style.fix_results else []))


def corpus_round_trip(path: Path, first: int = 0, stride: int = 1) -> tuple[collections.Counter[str], list[str]]:
    """Counts for one file: games, games left out by each conversion (they do not replay), games
    read back as themselves per conversion (and annotate --all); the games that are not, why.
    Game k of the corpus (counted from `first`) goes through conversion i (annotate --all last)
    when (k + i) % stride == 0: a stride of 1 is every conversion of every game."""
    counts: collections.Counter[str] = collections.Counter()
    failures = []
    with open(path, "rb") as handle:
        games = list(read_games(handle, name=str(path)))
    for number, game in enumerate(games, first):
        counts["games"] += 1
        chosen = [(number + i) % stride == 0 for i in range(len(CORPUS_CASES) + 1)]
        if not isinstance(game, Game):
            counts["unreadable"] += 1
            continue
        checked = check(game)
        assert checked.replay is not None
        source, positions = meaning(game, checked.replay)
        variant = checked.replay.variant
        for output, style in itertools.compress(CORPUS_CASES, chosen):
            name = case_name(output, style)
            converted = convert(checked, ConvertOptions(output, style))
            if not converted.text:
                counts[f"{name}: left out"] += 1
                continue
            expected = dataclasses.replace(source, result=expected_result(game, style, checked.replay))
            if output != "pdn":     # JSON lines and FENs give the moves replayed, not how results are checked
                expected = dataclasses.replace(expected, checked=True, complete=True)
            assert variant is not None
            try:
                again = read_back(variant, output, converted.text, last_only=True)
            except AssertionError as error:         # a game written that does not read
                failures.append(f"{path}:{game.line}: game {game.index}: {name}: {error}")
                continue
            if output == "fen":
                again = [(dataclasses.replace(again[0][0], moves=source.moves, paths=source.paths,
                                              result=expected.result), again[0][1])]
            if not exact_paths(output, style):
                again, expected = [(loose(found), after) for found, after in again], loose(expected)
            kept = output != "pdn" or style.squares is not None or notation(read(converted.text)[0]) == notation(game)
            if again == [(expected, positions[-1:])] and kept:     # a style without --squares keeps the squares
                counts[name] += 1
            else:
                failures.append(f"{path}:{game.line}: game {game.index}: {name}")
        if not chosen[-1]:
            continue
        text, _ = annotate_game(checked, Annotations(*[True] * 8))
        annotated = read(text)
        if len(annotated) == 1 and isinstance(annotated[0], Game) and meaning(annotated[0])[0] == \
                dataclasses.replace(source, result=writer_result(annotated[0])):
            counts["annotate --all"] += 1
        else:
            failures.append(f"{path}:{game.line}: game {game.index}: annotate --all")
    return counts, failures


@needs_corpus
@pytest.mark.slow
def test_every_game_of_the_corpus_reads_back_as_itself_in_every_style_and_output():
    """Every real file converted in every style (and annotated) reads back as the same games;
    the counts are printed (`pytest -s`).  Every conversion of every game takes about an hour of
    CPU: by default each game goes through one conversion in turn (every file through at least
    one, every conversion through thousands of games); PDN_CORPUS_ROUND_TRIP=all runs them all."""
    total: collections.Counter[str] = collections.Counter()
    failures = []
    files = corpus_files()
    stride = 1 if os.environ.get("PDN_CORPUS_ROUND_TRIP") == "all" else len(CORPUS_CASES) + 1
    for path in files:
        counts, failed = corpus_round_trip(path, total["games"], stride)
        total += counts
        failures += failed
    print(f"\n{len(files)} files", *(f"{name}: {count}" for name, count in sorted(total.items())), sep="\n")
    assert not failures, "\n".join(failures[:50])


@settings(FUZZ, max_examples=max(1, EXAMPLES // 3))
@given(random_games(), st.sampled_from(_STYLES), st.sampled_from(("-", "- -", "- 32-28")), st.booleans())
def test_a_game_cut_by_an_unknown_move_reads_back_as_itself_in_any_style(text, style, unknown, tagged):
    """A valid game whose main line an unknown move (`-`, `- -`) cuts short, with or without its
    GameType: what convert writes in any style reads back as the same variant, start and plies,
    the moves after the unknown one as they were."""
    head, _, last = text.rstrip("\n").rpartition(" ")
    if not tagged:
        head = "\n".join(line for line in head.split("\n") if not line.startswith("[GameType "))
    game = read(f"{head} {unknown} {last}\n")[0]
    assert isinstance(game, Game)
    checked = check(game)
    assume(checked.replay is not None and not checked.record.errors)
    source, positions = meaning(game, checked.replay)
    converted = convert(checked, ConvertOptions("pdn", style))
    again = read(converted.text)
    assert len(again) == 1 and isinstance(again[0], Game), converted.text
    expected = dataclasses.replace(source, result=expected_result(game, style, checked.replay))
    found = [meaning(again[0])]
    if not exact_paths("pdn", style):
        found, expected = [(loose(meaning), after) for meaning, after in found], loose(expected)
    assert found == [(expected, positions)], f"{style}\n{text}\nwrote\n{converted.text}"
    assert [move.text for move in again[0].main_line()][len(positions):] == \
        [move.text for move in game.main_line()][len(positions):]
