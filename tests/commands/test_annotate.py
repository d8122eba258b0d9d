"""`pdn annotate`: each annotation on real games, idempotence, tags, invalid games passed on."""
import re

import pytest
from click.testing import CliRunner

from hypothesis import given, settings

from boards import king_games
from corpus import CORPUS, needs_corpus
from test_hub import in_process
from test_round_trip import random_games
from pdn_tools import Comment, read_games, read_text
from pdn_tools.cli import cli
from pdn_tools.commands.annotate import Alike, Options as Annotations, annotate_game, is_ours
from pdn_tools.play.check import check
from pdn_tools.rules.search import Evaluations
from pdn_tools.text.model import Variation

DOUAI = CORPUS / "international" / "horizon-bd-douai-ronde.pdn"          # 3 games, no GameType
STRATEGY = CORPUS / "english" / "wiegerw-succeed-Principles_of_Strategy.pdn"   # author comments


def annotate(*args, input=None):
    return CliRunner().invoke(cli, ["annotate", *map(str, args)], input=input)


def first_game(text: str):
    return read_text(text)[0]


def after_move(text: str, move: str) -> str:
    """What follows the first `move` of the text, up to the next move number."""
    start = text.index(f" {move}") if f" {move}" in text else text.index(f"{move}")
    return re.split(r"\s\d+\.\s", text[start + len(move) + 1:], maxsplit=1)[0]


@needs_corpus
def test_fen_moves_forced_and_captures_on_a_real_game():
    result = annotate("--fen", "--moves", "--forced", "--captures", DOUAI)
    assert result.exit_code == 0
    game = first_game(result.stdout)
    moves = game.main_line()
    assert [m.text for m in moves[:4]] == ["34-29", "20-24", "29-20", "15-24"]
    elements = game.elements
    first = elements[elements.index(moves[0]) + 1]
    assert first == Comment("[%fen B:W29,31,32,33,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                            "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20] [%moves 9]")
    # 2. 29-20 (written with '-') is White's only move, a capture of one man: $7 then the comment.
    third = elements.index(moves[2])
    assert elements[third + 1].number == 7
    assert elements[third + 2].text.endswith("[%moves 1] [%captured 1]")
    # 15x24 was one of two captures: no $7.
    assert "$7" not in after_move(result.stdout, "15-24")


@needs_corpus
def test_annotating_twice_is_annotating_once():
    sources = [DOUAI, STRATEGY, CORPUS / "russian" / "games-checkers-test.pdn",
               CORPUS / "italian" / "games-checkers-ci98-fero.pdn",
               CORPUS / "frisian" / "py-draughts-lidraughts-frisian.pdn",
               CORPUS / "czech" / "wiegerw-fail-mrdrcd08.pdn"]
    for source in sources:
        once = annotate("--all", "--result", source)
        twice = annotate("--all", "--result", "-", input=once.stdout)
        assert once.stdout and twice.stdout == once.stdout, source
        assert twice.exit_code == once.exit_code


@needs_corpus
def test_author_comments_are_kept_and_ours_follow_the_move():
    original = [g for g in read_games(STRATEGY)]
    result = annotate("--moves", STRATEGY)
    annotated = read_text(result.stdout)
    assert len(annotated) == len(original) == 16
    for before, after in zip(original, annotated):
        theirs = [e for e in before.elements if isinstance(e, Comment)]
        kept = [e for e in after.elements if isinstance(e, Comment) and not e.text.startswith("[%moves")]
        assert kept == theirs
    # Game 2, before 6. 4-8: 3-8 4-8 6-10 7-10 9-14 11-15 11-16 19-23 19-24 (perft --divide agrees).
    assert "6. 4-8 {[%moves 9]} {To support man on 19}" in result.stdout.replace("\n", " ")


def test_an_old_annotation_is_replaced_not_added_to():
    text = '[GameType "20"]\n1. 32-28 {[%moves 99]} {mine} 19-23 *\n'
    result = annotate("--moves", "-", input=text)
    assert "1. 32-28 {[%moves 9]} {mine} 19-23 {[%moves 9]} *" in result.stdout


@needs_corpus
def test_ply_count_and_gametype_tags_are_set_and_noted():
    result = annotate("--ply-count", "--gametype", DOUAI)
    games = read_text(result.stdout)
    assert [g.tag("PlyCount") for g in games] == ["139", "124", "128"]        # as validate counts
    assert {g.tag("GameType") for g in games} == {"20,W,10,10,N2,0"}     # the full one, as convert writes
    assert result.stderr.splitlines() == [f"{DOUAI}:1: game 1: GameType 20,W,10,10,N2,0 added (international) "
                                          "(first of 3 in this file)"]


def test_notes_are_grouped_per_file_and_message_or_written_each(tmp_path):
    """A note said of many games of a file (a GameType added to every game of an archive without
    one) is one line, at its first place, with the count, as validate groups warnings; another
    message, or another file, is a line of its own; a Result set is noted for each game, as it
    comes; --notes each writes one line a game."""
    a, b = tmp_path / "a.pdn", tmp_path / "b.pdn"
    a.write_text('1. 11-15 23-19 *\n\n1. 9-13 22-18 *\n\n[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "*"]\n'
                 '1. 28x19 *\n\n1. 10-14 24-20 *\n')
    b.write_text("1. 11-15 *\n")
    added = "GameType 21,B,8,8,N1,0 added (english)"
    decided = "Result '*' set to '2-0': the rules decide the game"
    grouped = annotate("--gametype", "--result", a, b)
    assert grouped.exit_code == 0
    assert grouped.stderr.splitlines() == [f"{a}:5: game 3: {decided}", f"{a}:1: game 1: {added} (first of 3 in this file)",
                                           f"{b}:1: game 1: {added}"]
    each = annotate("--gametype", "--result", "--notes", "each", a, b)
    assert each.stdout == grouped.stdout
    assert each.stderr.splitlines() == [f"{a}:1: game 1: {added}", f"{a}:3: game 2: {added}",
                                        f"{a}:5: game 3: {decided}", f"{a}:10: game 4: {added}",
                                        f"{b}:1: game 1: {added}"]


def test_a_computed_result_is_set_only_when_asked_and_never_silently():
    text = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "*"]\n1. 28x19 *\n'
    plain = annotate("--ply-count", "-", input=text)
    assert first_game(plain.stdout).tag("Result") == "*" and plain.stderr == ""
    result = annotate("--result", "-", input=text)
    game = first_game(result.stdout)
    assert (game.tag("Result"), game.result) == ("2-0", "2-0")
    assert result.stderr == "<stdin>:1: game 1: Result '*' set to '2-0': the rules decide the game\n"


def test_a_stated_result_is_never_replaced():
    text = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "1-0"]\n1. 28x19 1-0\n'
    result = annotate("--result", "-", input=text)
    assert first_game(result.stdout).tag("Result") == "1-0" and result.stderr == ""


def test_draw_rule_counts_start_end_and_draw():
    quiet = '[GameType "20"]\n[FEN "W:WK46:B15"]\n1. 46-37 15-20 *\n'
    result = annotate("--draws", "-", input=quiet)
    assert "46-37 {[%draw start 25-move rule]} 15-20 {[%draw end 25-move rule]}" in result.stdout
    # Two kings shuffle (no capture is possible from corners); the start recurs after plies 4 and 8.
    shuffle = '[GameType "20"]\n[FEN "W:WK50:BK1"]\n1. 50-45 1-6 2. 45-50 6-1 3. 50-45 1-6 4. 45-50 6-1 *\n'
    result = annotate("--draws", "-", input=shuffle)
    flat = result.stdout.replace("\n", " ")
    assert "1. 50-45 {[%draw start 25-move rule] [%draw start 5-move rule]} 1-6 2." in flat
    assert flat.endswith("6-1 {[%draw drawn 3-fold repetition]} *  ")      # seed 002 line 20
    assert flat.count("[%draw") == 3


def test_invalid_and_unreadable_games_pass_unchanged_and_are_reported():
    bad = '[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n'
    unreadable = "1. 32-28 ) *\n"
    result = annotate("--all", "-", input=bad + "\n" + unreadable)
    assert result.exit_code == 1
    written = '[GameType "20"]\n\n1. 32-28 19-23 2. 28x51 *\n'        # the model as read, written back
    assert result.stdout == written + "\n" + unreadable + "\n"
    assert result.stderr.splitlines() == [
        "<stdin>:2:19: game 1, ply 3 (move 2. 28x51): '51' is not a square of the international board [bad-square]",
        "<stdin>:4:10: game 2: unexpected ')' (')' without '(') [syntax]"]


def test_usage_errors_exit_2():
    result = annotate("-", input="")
    assert result.exit_code == 2 and "choose what to annotate" in result.output
    result = annotate("--fen", "missing.pdn")
    assert result.exit_code == 2 and "pdn: cannot read missing.pdn: no such file" in result.output


@pytest.mark.parametrize("jobs", ["2"])
def test_jobs_keep_the_output(jobs):
    one = annotate("--all", DOUAI).stdout
    assert annotate("--all", "--jobs", jobs, DOUAI).stdout == one


@needs_corpus
def test_draw_counts_on_real_games_start_before_they_end():
    sources = [DOUAI, CORPUS / "international" / "horizon-bd-oud-2-remises-dam22.pdn",
               CORPUS / "russian" / "games-checkers-test.pdn",
               CORPUS / "pool" / "games-checkers-3_vs_1_King_Theory.phn"]
    seen = set()
    for source in sources:
        for game in read_text(annotate("--draws", source).stdout):
            running: set[str] = set()
            for comment in (e for e in game.elements if isinstance(e, Comment)):
                for what, rule in re.findall(r"\[%draw (start|end|drawn|claimable) ([^\]]+)\]", comment.text):
                    seen.add((what, rule))
                    if what == "start":
                        assert rule not in running
                        running.add(rule)
                    elif what == "end":
                        running.remove(rule)
    assert {("start", "25-move rule"), ("end", "25-move rule"), ("start", "15-move rule"),
            ("start", "3 kings against 1")} <= seen
    flat = annotate("--draws", DOUAI).stdout.replace("\n", " ")
    assert "57. 12-07 46-41 {[%draw start 25-move rule]}" in flat       # Black's first king move


@needs_corpus
def test_computed_results_on_real_games():
    source = CORPUS / "international" / "bruno-Partie_avec_FEN1.pdn"
    result = annotate("--result", source)
    assert result.stderr.splitlines() == [
        f"{source}:2: game 1: Result '*' set to '2-0': the rules decide the game",
        f"{source}:35: game 3: Result '*' set to '2-0': the rules decide the game"]
    assert [g.tag("Result") for g in read_text(result.stdout)][::2] == ["2-0", "2-0"]
    # A double forfeit (the terminator 0-0, no Result tag) is a result: it stays.
    forfeit = annotate("--result", CORPUS / "international" / "horizon-bd-douai-cerberus.pdn")
    game = read_text(forfeit.stdout)[0]
    assert forfeit.stderr == "" and (game.tag("Result"), game.result) == (None, "0-0")


# ---- one mark for the variations pdn writes: --shots and --engine --------------------------------------------

AUTHORS = " ({[%eval +0.50]}) ({[%line] by hand}) "      # an author's variations, however they look like ours


@settings(max_examples=30, deadline=None)
@given(random_games())
def test_shots_then_engine_or_engine_then_shots_is_the_second_alone_and_the_author_s_lines_stay(text):
    """Every variation --shots or --engine writes opens with `{[%line] ...}` and is recognised (`is_ours`)
    and made again by either: annotating with one after the other gives what the second alone gives, but
    for the NAGs --shots adds ($1, $2, $4), which stay (a NAG cannot be told from the author's)."""
    *moves, result = text.rsplit(" ", 1)
    text = "".join(moves) + (AUTHORS if read_text(text)[0].main_line() else " ") + result

    def annotated(source: str, shots: bool) -> str:
        options = Annotations(shots=shots, depth=1)
        return annotate_game(check(read_text(source)[0]), options, Evaluations(1),
                             None if shots else in_process)[0]

    def without_nags(annotated: str) -> str:        # and without the line breaks, which move with them
        return "".join(re.sub(r"\s\$\d+", " ", annotated).split())

    shots, engine = annotated(text, True), annotated(text, False)
    assert annotated(engine, True) == shots
    assert without_nags(annotated(shots, False)) == without_nags(engine)
    assert re.findall(r"\$\d+", annotated(shots, False)) == re.findall(r"\$\d+", shots)
    for once in (shots, engine):
        game = read_text(once)[0]
        ours = [e for e in game.elements if isinstance(e, Variation) and is_ours(e)]
        assert [e for e in game.elements if isinstance(e, Variation) and not is_ours(e)] == \
            [e for e in read_text(text)[0].elements if isinstance(e, Variation)]           # the author's
        assert all(line.elements[0].text.startswith("[%line]") for line in ours)


# ---- the fast path: the movetext written from the runs' words, compiled = pure -------------------

from hypothesis import strategies as st  # noqa: E402

from fuzz import at_length  # noqa: E402
from test_fast_plies import COMPILED, PURE, played_games  # noqa: E402
from pdn_tools.commands.annotate import _atoms, annotate as annotate_replay  # noqa: E402
from pdn_tools.play.replay import replay  # noqa: E402
from pdn_tools.rules.variants import VARIANTS  # noqa: E402
from pdn_tools.text.model import movetext_runs  # noqa: E402
from pdn_tools.text.writer import write_game  # noqa: E402

OPTION_NAMES = ("fen", "moves", "forced", "captures", "draws", "ply_count", "result", "gametype")
# What may follow a move: an author's comment, NAGs (one pdn adds too), our old comment between them.
AFTER_MOVES = ("{c}", "$7", "$1 $3 {c}", "{[%moves 3]} $7", "$3 {[%fen W:W1:B2]} $7", "{[%line]}")


@st.composite
def annotated_texts(draw: st.DrawFn, name: str) -> str:
    """A played game with NAGs and old annotations of ours after some moves, its GameType now and then
    left out."""
    text = draw(played_games(name))
    pieces = text.split("{c}")
    text = pieces[0] + "".join(draw(st.sampled_from(AFTER_MOVES)) + piece for piece in pieces[1:])
    return text.replace("{[%line]}", "({[%line] [%eval +0.10]})") if draw(st.booleans()) else text.split("\n", 1)[1]


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_annotating_from_the_runs_is_annotating_the_elements(name, data):
    """Every annotation (any of them together) of a game read with its runs kept as text and written
    from their words (`annotate_game` on the compiled engine) is the game annotated element by element
    and written from its elements, and what the pure engine writes: the same text, the same notes."""
    text = data.draw(annotated_texts(name))
    chosen = data.draw(st.lists(st.sampled_from(OPTION_NAMES), min_size=1, unique=True))
    options = Annotations(**{option: True for option in chosen})
    written = {}
    for engine in (COMPILED, PURE):
        checked = check(read_text(text, engine=engine)[0], engine=engine)
        if checked.replay is None or not checked.replay.ok:
            return
        written[engine] = annotate_game(checked, options)
        assert _atoms(movetext_runs(checked.game), {}, {}) is not None        # the fast path is taken
        elements, notes = annotate_replay(replay(read_text(text, engine=engine)[0], engine=engine), options)
        where = f"{elements.file}:{elements.line}: game {elements.index}: "
        assert written[engine] == (write_game(elements), [(where, note, isinstance(note, Alike)) for note in notes]), text
    assert written[COMPILED] == written[PURE]


test_annotating_from_the_runs_is_annotating_the_elements_at_length = at_length(
    test_annotating_from_the_runs_is_annotating_the_elements, 20, data=st.data())


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_choices_count_the_legal_moves_without_the_order_of_captures(name, data):
    """`Position.choices` (annotate's [%moves N], the compiled core's count) is the number of legal
    moves, captures that differ only in the order of the pieces taken counted once, on both engines."""
    from pdn_tools.rules.movegen import Position

    for engine in (COMPILED, PURE):
        position = Position.initial(VARIANTS[name], engine)
        for _ in range(data.draw(st.integers(0, 60), label="plies")):
            legal = position.legal_moves()
            assert position.choices() == len({(m.start, m.end, frozenset(m.captured)) for m in legal})
            if not legal:
                break
            position = position.play(legal[data.draw(st.integers(0, len(legal) - 1))])


test_choices_count_the_legal_moves_without_the_order_of_captures_at_length = at_length(
    test_choices_count_the_legal_moves_without_the_order_of_captures, 25, data=st.data())


# ---- the compiled core writes the main line (rules/_annotated.c), = the Python writer --------------

from pdn_tools.commands.annotate import _core_game  # noqa: E402

CORE_GAMES = [
    '[GameType "21"]\n$5 1. 10-15 $3 $7 22-18 {x} 2. 15x22 % a line comment\n26x17 3... 9-13 004. 30-26 13x22 *',
    '[Event "x"]\n1.10-15 22-18 2. 15x22 $7 {[%moves 2]} 26x17 3. 9-13 30-26 {c} 13x22 {[%fen W:W1:B2]} 4. 25x18 *',
    '[GameType "20"]\n[FEN "W:WK46:B15"]\n1. 46-37 15-20 2. 37-41 *',
    '[GameType "20"]\n[FEN "W:WK46,K47:B15,K4"]\n1. 46-37 4-9 2. 37-41 9-13 3. 41-36 15-20 4. 36x9x25 *',
]


@pytest.mark.parametrize("text", CORE_GAMES)
@pytest.mark.parametrize("chosen", [OPTION_NAMES, ("fen",), ("moves", "forced"), ("captures",), ("draws",),
                                    ("ply_count", "result")])
def test_the_core_writes_these_main_lines_as_the_elements_are_written(text, chosen):
    """Runs with NAGs, comments, a line comment, numbers glued to moves or padded, draw counts
    starting and ending, squares named: the core writes the game (`_core_game`) as it is annotated
    element by element, and as the pure engine writes it."""
    options = Annotations(**{option: True for option in chosen})
    checked = check(read_text(text, engine=COMPILED)[0], engine=COMPILED)
    assert checked.replay is not None and checked.replay.ok
    assert _core_game(checked.replay, options) is not None
    elements, notes = annotate_replay(replay(read_text(text, engine=COMPILED)[0], engine=COMPILED), options)
    where = f"{elements.file}:{elements.line}: game {elements.index}: "
    pure = check(read_text(text, engine=PURE)[0], engine=PURE)
    assert annotate_game(checked, options) == (write_game(elements), [(where, note, isinstance(note, Alike)) for note in notes]) \
        == annotate_game(pure, options)


@pytest.mark.parametrize("path", ["core", "runs", "elements"])
def test_a_note_is_said_alike_where_it_is_made_not_by_its_words(path):
    """A GameType added is a note alike of the file's games (grouped per file and message), a Result set
    is not: `_tags` makes the first an `Alike`, and annotate_game says so of exactly those, whatever
    their words, on each way a game is written (the compiled core, the runs' words, the elements)."""
    text = '[FEN "W:W28:B23"]\n[Result "*"]\n1. 28x19 ' + ("(1. 28x19) *" if path == "elements" else "{c} *")
    engine = PURE if path == "runs" else COMPILED
    checked = check(read_text(text, engine=engine)[0], engine=engine)
    options = Annotations(result=True, gametype=True)
    assert checked.replay is not None and checked.replay.ok
    assert (_core_game(checked.replay, options) is not None) == (path == "core")
    assert (_atoms(movetext_runs(checked.game), {}, {}) is None) == (path == "elements")
    _, notes = annotate_game(checked, options)
    assert [(type(note), note.split()[0], alike) for _, note, alike in notes] == \
        [(str, "Result", False), (Alike, "GameType", True)]


ENDING_GAMES = [
    # a repetition that draws (the tracker decides at the start: kings alone make the 5-move rule's ending)
    '[GameType "20"]\n[FEN "W:WK50:BK1"]\n1. 50-45 1-6 2. 45-50 6-1 3. 50-45 1-6 4. 45-50 6-1 *\n',
    # endings that arise in the line (the 16-move rule, then the 5-move rule) and end (a problem's solution)
    '[GameType "20"]\n[FEN "W:W33,34,35,38,41,43:B16,19,22,25,28,31"]\n1. 41-36 28x48 2. 36x18 48x30 3. 35x13 '
    '25-30 4. 13-8 30-34 5. 8-2 34-40 6. 2-35 40-45 7. 35-44 45-50 8. 44-6 16-21 9. 18-12 21-27 10. 12-7 27-31 '
    '11. 7-1 31-36 12. 1-12 50-44 13. 6x50 36-41 14. 12-23 41-47 15. 50-33 47-36 16. 23-41 36x47 17. 33-15 1-0\n',
]


@pytest.mark.parametrize("text", ENDING_GAMES)
@pytest.mark.parametrize("chosen", [("draws",), OPTION_NAMES])
def test_the_draws_the_core_does_not_count_are_counted_by_python_and_written_by_the_core(text, chosen):
    """An ending's count (and a draw it makes) the core does not count: Python counts the draws
    (_draw_counts), the core plays and writes the line with them (it left the whole game to the
    Python writer before), as the pure engine's Python writer writes it."""
    options = Annotations(**{option: True for option in chosen})
    checked = check(read_text(text, engine=COMPILED)[0], engine=COMPILED)
    assert checked.replay is not None and checked.replay.ok
    assert _core_game(checked.replay, options) is not None
    pure = check(read_text(text, engine=PURE)[0], engine=PURE)
    written = annotate_game(checked, options)
    assert written == annotate_game(pure, options)
    assert "[%draw start" in written[0] and ("16-move" in written[0]) == (text is ENDING_GAMES[1])


def test_the_core_leaves_moves_written_by_square_names_to_python():
    """Moves written by square names: the Python writer writes them; the first ending game is
    written by the core."""
    checked = check(read_text(ENDING_GAMES[0], engine=COMPILED)[0], engine=COMPILED)
    assert checked.replay is not None
    assert _core_game(checked.replay, Annotations(draws=True)) is not None
    assert "[%draw drawn 3-fold repetition]" in annotate_game(checked, Annotations(draws=True))[0]
    named = check(read_text('[GameType "25"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *', engine=COMPILED)[0], engine=COMPILED)
    assert named.replay is not None and named.replay.ok         # squares written by name: Python writes
    assert _core_game(named.replay, Annotations(fen=True)) is None


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_kings_annotated_by_the_core_are_annotated_by_python(name, data):
    """Positions with kings (draw counts start, end, draw; kings crown): the compiled engine's
    annotation (the core's, or Python's where the core leaves the game) is the pure engine's."""
    text = data.draw(king_games(name))
    chosen = data.draw(st.lists(st.sampled_from(OPTION_NAMES), min_size=1, unique=True))
    options = Annotations(**{option: True for option in chosen})
    written = []
    for engine in (COMPILED, PURE):
        checked = check(read_text(text, engine=engine)[0], engine=engine)
        written.append(annotate_game(checked, options))
    assert written[0] == written[1], text


@pytest.mark.parametrize("text", ['[GameType "21"]\n1. 10-15 $99999999999999999999 22-18 *\n',
                                  '[GameType "21"]\n$99999999999999999999 1. 10-15 22-18 *\n'])
def test_a_nag_beyond_a_c_long_is_annotated_as_the_pure_engine_annotates_it(text):
    """The reader takes NAG numbers of up to 4,300 digits; the core's annotate_line leaves one beyond a C
    long to Python (it raised OverflowError: a traceback from `pdn annotate`)."""
    written = {engine: annotate_game(check(read_text(text, engine=engine)[0], engine=engine),
                                     Annotations(fen=True))[0] for engine in (COMPILED, PURE)}
    assert written[COMPILED] == written[PURE] and "$99999999999999999999" in written[PURE]
    result = annotate("--all", "-", input=text)
    assert result.exit_code == 0 and "$99999999999999999999" in result.stdout and result.stderr == ""


# ---- the head made once (annotate._tags); what a run keeps: test_annotate_kept ----

from hypothesis import strategies as st  # noqa: E402,F811

from pdn_tools.commands import annotate as annotating  # noqa: E402
from pdn_tools.text import results, writer  # noqa: E402
from pdn_tools.text.model import Game  # noqa: E402

HEAD_NAMES = ("Event", "Result", "PlyCount", "GameType", "White")
HEAD_VALUES = ("", "1-0", "0-1", "*", "?", '"1-0"', "21", "x")
MOVES = ('1. 11-15 22-18 2. 15x22 25x18', '[FEN "W:W18:B14"]\n1. 18x9')     # the second: White wins


def _head_set_on_a_copy(game, plies, result, options):
    """What _tags gave before it made the head at once: Game.set_tag on a copy of the game."""
    head = Game(list(game.tags), [], game.result, game.before, game.after)
    notes = []
    if options.ply_count:
        head.set_tag("PlyCount", str(plies))
    computed = result.computed_result() if options.result else None
    stated = None if computed is None else results.stated_result(head.tag("Result"), head.result)
    if computed is not None and stated in results.UNKNOWN:
        head.set_tag("Result", computed)
        if head.result is not None:
            head.result = computed
        change = f"Result {stated!r} set to {computed!r}" if stated else f"Result {computed!r} added"
        notes.append(f"{change}: the rules decide the game")
    if options.gametype and head.tag("GameType") is None:
        variant = result.variant
        full = variant.gametype_text(annotating.written_alpha(game, variant, annotating._AS_WRITTEN))
        head.set_tag("GameType", full)
        notes.append(f"GameType {full} added ({variant.name})")
    return head.tags, head.result, writer.terminator(head), notes


@settings(max_examples=300, deadline=None)
@given(tags=st.lists(st.tuples(st.sampled_from(HEAD_NAMES), st.sampled_from(HEAD_VALUES)), max_size=6),
       moves=st.sampled_from(MOVES), terminator=st.sampled_from(["", " *", " 1-0", " 0-1"]),
       chosen=st.lists(st.sampled_from(("ply_count", "result", "gametype")), unique=True))
def test_the_head_is_made_as_set_tag_made_it_on_a_copy(tags, moves, terminator, chosen):
    """_tags sets PlyCount, Result and GameType (tags repeated, missing, a result unknown or not) as
    Game.set_tag set them on a copy of the game: the same tags, terminator, written terminator and
    notes; the game's own tags are left as they were."""
    gametype = [] if any(name == "GameType" for name, _ in tags) else [("GameType", "21")]
    head = "".join(f'[{name} "{writer.escape(value)}"]\n' for name, value in [*gametype, *tags])
    game = read_text(f"{head}{moves}{terminator}\n")[0]
    checked = check(game)
    if checked.replay is None or not checked.replay.ok:
        return
    options = Annotations(**{option: True for option in chosen})
    before = list(game.tags)
    assert annotating._tags(game, 7, checked.replay, options) == _head_set_on_a_copy(game, 7, checked.replay, options)
    assert game.tags == before


@settings(max_examples=150, deadline=None)
@given(tags=st.lists(st.tuples(st.sampled_from(HEAD_NAMES), st.sampled_from(HEAD_VALUES + ("a\\b", "é", "x\"y"))),
                     max_size=5),
       before=st.sampled_from(["", "{before}\n", "% a line\n"]), moves=st.sampled_from(MOVES),
       chosen=st.lists(st.sampled_from(OPTION_NAMES), min_size=1, unique=True))
def test_the_core_writes_the_head_as_the_writer_writes_it(tags, before, moves, chosen):
    """The core writes the whole game, its head too (write_head in _annotated.c): tags escaped, repeated,
    set, not ASCII (Python writes that head), comments before them (Python writes those): the text
    written from the elements, and the pure engine's."""
    gametype = [] if any(name == "GameType" for name, _ in tags) else [("GameType", "21")]
    head = "".join(f'[{name} "{writer.escape(value)}"]\n' for name, value in [*gametype, *tags])
    text = f"{before}{head}{moves} *\n"
    options = Annotations(**{option: True for option in chosen})
    checked = check(read_text(text, engine=COMPILED)[0], engine=COMPILED)
    if checked.replay is None or not checked.replay.ok:
        return
    assert _core_game(checked.replay, options) is not None
    elements, notes = annotate_replay(replay(read_text(text, engine=COMPILED)[0], engine=COMPILED), options)
    where = f"{elements.file}:{elements.line}: game {elements.index}: "
    pure = check(read_text(text, engine=PURE)[0], engine=PURE)
    noted = [(where, note, note.startswith("GameType ")) for note in notes]
    assert annotate_game(checked, options) == (write_game(elements), noted) == annotate_game(pure, options)
