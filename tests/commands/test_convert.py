"""`pdn convert`: output forms, invalid games, files written atomically, and round trips on the corpus."""
import itertools
import json
import os

import pytest
from click.testing import CliRunner

from corpus import CORPUS, corpus_files, needs_corpus
from pdn_tools import MoveNumber, ReadError, read_games, read_text
from pdn_tools.running.batch import Inputs, run
from pdn_tools.cli import cli
from pdn_tools.running.files import atomic_output
from pdn_tools.play.notation import Style, canonical_game, canonical_tags, move_text
from pdn_tools.rules.movegen import Position
from pdn_tools.play.checking import Checking
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.writer import terminator, write_game

GOOD = '[Black "B"]\n[GameType "20"]\n[White "W"]\n[Event "E"]\n3. 32-28 19-23 28x19 {c} 14x23 *\n'
BAD = '[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n'
UNREADABLE = '[GameType "20"]\n1. 32-28 ) *\n'
KING = '[GameType "20"]\n[FEN "W:WK47:B14,19,29,31,42"]\n1. 47x38x24x13x36 *\n'


def invoke(args, input=None):
    return CliRunner().invoke(cli, args, input=input)


def test_canonical_pdn_orders_tags_and_numbers_moves():
    result = invoke(["convert", "-"], input=GOOD)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == ('[Event "E"]\n[White "W"]\n[Black "B"]\n[GameType "20"]\n\n'
                             "1. 32-28 19-23 2. 28x19 {c} 2... 14x23 *\n\n")


def test_jsonl_gives_the_replayed_path_of_a_short_capture():
    result = invoke(["convert", "--to", "jsonl", "-"], input=KING.replace("47x38x24x13x36", "47x38x24x36"))
    [record] = [json.loads(line) for line in result.stdout.splitlines()]
    assert set(record) == {"file", "game", "tags", "variant", "fen", "moves", "result", "errors"}
    assert record["errors"] == []
    assert record["tags"] == {"GameType": "20", "FEN": "W:WK47:B14,19,29,31,42"}
    assert (record["variant"], record["fen"], record["result"]) == ("international", "W:WK47:B14,19,29,31,42", "*")
    assert record["moves"] == [{"ply": 1, "text": "47x38x24x36", "path": [47, 38, 24, 13, 36],
                                "captured": [42, 29, 19, 31], "fen": "B:WK36:B14"}]


def test_fen_lines_name_the_game_by_file_and_index(tmp_path):
    path = tmp_path / "a.pdn"
    path.write_text(BAD + KING)
    result = invoke(["convert", "--to", "fen", str(path)])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [f"{path}:2\t0\tW:WK47:B14,19,29,31,42", f"{path}:2\t1\tB:WK36:B14"]


def test_a_game_that_does_not_replay_is_reported_and_left_out():
    result = invoke(["convert", "--captures", "short", "-"], input=GOOD + BAD)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "<stdin>:7:19: game 2, ply 3 (move 2. 28x51): '51' is not a square of the international board "
        "[bad-square]"]
    assert result.stdout.count("[GameType") == 1


def test_keep_invalid_passes_the_games_through_unchanged():
    result = invoke(["convert", "--captures", "full", "--keep-invalid", "-"], input=BAD + UNREADABLE)
    assert result.exit_code == 1
    assert result.stdout == BAD.replace("\n1.", "\n\n1.") + "\n" + UNREADABLE + "\n"
    assert result.stderr.splitlines()[1:] == [      # each kept game is said to be as read (leftovers)
        "<stdin>:1: game 1: passed through as read (--keep-invalid), not rewritten by --captures full",
        "<stdin>:4:10: game 2: unexpected ')' (')' without '(') [syntax]",
        "<stdin>:4: game 2: passed through as read (--keep-invalid), not rewritten by --captures full"]


def test_plain_pdn_needs_no_replay_but_an_unreadable_game_is_left_out():
    """The game with a bad square is written (plain PDN needs no replay), its problem on stderr."""
    result = invoke(["convert", "-"], input=BAD + UNREADABLE)
    assert result.exit_code == 1 and "28x51" in result.stdout and ")" not in result.stdout
    assert result.stderr.splitlines() == [
        "<stdin>:2:19: game 1, ply 3 (move 2. 28x51): '51' is not a square of the international board "
        "[bad-square]",
        "<stdin>:4:10: game 2: unexpected ')' (')' without '(') [syntax]"]


def test_unreadable_input_exits_2_and_the_batch_goes_on(tmp_path):
    (tmp_path / "a.pdn").write_text(GOOD)
    result = invoke(["convert", str(tmp_path / "missing.pdn"), str(tmp_path / "a.pdn")])
    assert result.exit_code == 2 and "cannot read" in result.stderr and "32-28" in result.stdout


@pytest.mark.parametrize("args, words", [
    (["--in-place", "-"], "--in-place"),
    (["--in-place", "-o", "x.pdn", "a.pdn"], "--in-place"),
    (["--to", "jsonl", "--keep-invalid", "-"], "--keep-invalid"),
    (["--drop", "comments,moves", "-"], "cannot drop moves"),
    (["--captures", "long", "-"], "long"),
])
def test_usage_errors_exit_2_with_a_message(args, words):
    result = invoke(["convert", *args], input="")
    assert result.exit_code == 2 and words in result.stderr


def test_output_file_is_written_atomically(tmp_path):
    out = tmp_path / "out.pdn"
    result = invoke(["convert", "-o", str(out), "-"], input=GOOD)
    assert result.exit_code == 0 and result.stdout == "" and out.read_text().startswith('[Event "E"]')
    missing = invoke(["convert", "-o", str(tmp_path / "no" / "out.pdn"), "-"], input=GOOD)
    assert missing.exit_code == 2 and "cannot write" in missing.stderr and missing.exception.code == 2
    assert sorted(os.listdir(tmp_path)) == ["out.pdn"]


def test_an_error_while_writing_leaves_the_old_file_and_nothing_else(tmp_path):
    out = tmp_path / "out.pdn"
    out.write_text("old")
    with pytest.raises(RuntimeError), atomic_output(str(out)) as stream:
        stream.write("new")
        raise RuntimeError("disk full")
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["out.pdn"]


def test_in_place_rewrites_each_file_but_not_one_with_an_invalid_game(tmp_path):
    good, bad = tmp_path / "good.pdn", tmp_path / "bad.pdn"
    good.write_text(GOOD)
    bad.write_text(GOOD + BAD)
    result = invoke(["convert", "--in-place", "--captures", "short", str(good), str(bad)])
    assert result.exit_code == 1 and f"{bad} left unchanged" in result.stderr
    assert good.read_text().startswith('[Event "E"]') and bad.read_text() == GOOD + BAD
    assert invoke(["convert", "--in-place", "--captures", "short", "--keep-invalid", str(bad)]).exit_code == 1
    assert bad.read_text().startswith('[Event "E"]') and "28x51" in bad.read_text()
    assert sorted(os.listdir(tmp_path)) == ["bad.pdn", "good.pdn"]


def test_fix_results_writes_the_settled_result_and_says_so():
    text = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "0-2"]\n1. 28x19 0-2\n'
    assert invoke(["convert", "-"], input=text).stdout.count("0-2") == 2
    result = invoke(["convert", "--fix-results", "-"], input=text)
    assert result.exit_code == 0 and result.stdout.count("2-0") == 2 and "0-2" not in result.stdout
    assert result.stderr.splitlines()[0] == ("<stdin>:3:1: game 1: warning: Result tag '0-2' set to '2-0', "
                                             "as the final position settles it [fixed-result]")
    assert invoke(["convert", "--to", "jsonl", "-"], input=text).exit_code == 1      # wrong-result


@needs_corpus
def test_jobs_keep_the_input_order():
    path = str(CORPUS / "international" / "wiegerw-succeed-wk2003.pdn")
    one = invoke(["convert", "--to", "jsonl", path])
    two = invoke(["convert", "--to", "jsonl", "--jobs", "2", path])
    assert one.stdout == two.stdout and one.exit_code == two.exit_code and len(one.stdout.splitlines()) > 20


# ---- round trips -------------------------------------------------------------------------------

def _without_numbers(elements: list) -> list:
    return [type(e)(_without_numbers(e.elements), e.result) if hasattr(e, "elements") else e
            for e in elements if not isinstance(e, MoveNumber)]


def _round_trip(game) -> str | None:
    """Why writing the canonical game and reading it back does not give the same game, if it does not."""
    if isinstance(game, ReadError):
        return None
    back = read_text(write_game(canonical_game(game)), name=game.file)
    if len(back) != 1 or isinstance(back[0], ReadError):
        return f"{game.file} game {game.index}: canonical text does not read back: {back}"
    same = (back[0].tags == canonical_tags(game.tags) and back[0].result == terminator(game)
            and (back[0].before, back[0].after) == (game.before, game.after)
            and _without_numbers(back[0].elements) == _without_numbers(game.elements))
    return None if same else f"{game.file} game {game.index}: differs after the round trip"


@pytest.mark.slow
@needs_corpus
def test_canonical_text_reads_back_as_the_same_game_for_the_whole_corpus(tmp_path):
    # What replay reads (tags by name, moves, variations, setups, the terminator) survives the
    # round trip, so `validate` gives the same verdict and moves.  OCA: its first 500 games.
    sample = tmp_path / "oca-sample.pdn"
    games = itertools.islice(read_games(CORPUS / "english" / "OCA_2.0.pdn"), 500)
    sample.write_text("".join(write_game(g) for g in games if not isinstance(g, ReadError)))
    paths = [str(p) for p in corpus_files() if p.name != "OCA_2.0.pdn"] + [str(sample)]
    problems = [p for p in run(Inputs(tuple(paths)), _round_trip, jobs=2, checking=Checking()) if p]
    assert problems[:5] == [] and len(problems) == 0


def _validate(path) -> list[tuple]:
    result = invoke(["validate", "--format", "jsonl", str(path)])
    return [(r["game"], r["ok"], r["plies"], [e["code"] for e in r["errors"]])
            for r in map(json.loads, result.stdout.splitlines())]


def _paths(path) -> list[list]:
    result = invoke(["convert", "--to", "jsonl", str(path)])
    return [[m["path"] for m in json.loads(line)["moves"]] for line in result.stdout.splitlines()]


SAMPLES = [("english", "wiegerw-succeed-gem.pdn"), ("international", "wiegerw-succeed-schildpad.pdn"),
           ("international", "bruno-Partie_avec_FEN1.pdn"), ("russian", "draughts-games-belarus64M2015-round1.pdn"),
           ("italian", "games-checkers-ci98-fero.pdn"), ("frisian", "py-draughts-lidraughts-frisian.pdn"),
           ("czech", "wiegerw-succeed-mrcd2006.pdn"), ("spec-tests", "wiegerw-succeed-variation.pdn")]


@pytest.mark.parametrize("folder, name", SAMPLES)
def test_converted_games_validate_the_same_with_the_same_moves(tmp_path, folder, name):
    source = CORPUS / folder / name
    out = tmp_path / "out.pdn"
    invoke(["convert", "--keep-invalid", "-o", str(out), str(source)])
    assert _validate(out) == _validate(source)
    assert _paths(out) == _paths(source)


@pytest.mark.parametrize("folder, name", SAMPLES[:5])
def test_full_captures_then_short_gives_the_canonical_short_form(tmp_path, folder, name):
    source = CORPUS / folder / name
    short, full = tmp_path / "short.pdn", tmp_path / "full.pdn"
    invoke(["convert", "--captures", "short", "-o", str(short), str(source)])
    invoke(["convert", "--captures", "full", "-o", str(full), str(source)])
    again = invoke(["convert", "--captures", "short", str(full)])
    assert again.exit_code == 0 and again.stdout == short.read_text()
    assert _paths(full) == _paths(short)


@needs_corpus
def test_russian_games_go_from_algebraic_to_numeric_and_back(tmp_path):
    source = CORPUS / "russian" / "draughts-games-belarus64W2016-round9.pdn"
    numeric = tmp_path / "numeric.pdn"
    alpha = invoke(["convert", "--squares", "alpha", "--separator", ":", str(source)]).stdout
    invoke(["convert", "--squares", "numeric", "-o", str(numeric), str(source)])
    assert "c3-d4" in alpha and "c3-d4" not in numeric.read_text() and "22-18" in numeric.read_text()
    assert '[GameType "25,W,8,8,N2,0"]' in numeric.read_text()        # the notation of its moves
    back = invoke(["convert", "--squares", "alpha", "--separator", ":", str(numeric)])
    # the bare 25 (algebraic by default) comes back in full, as the numeric file's GameType was
    assert back.exit_code == 0 and back.stdout == alpha.replace('[GameType "25"]', '[GameType "25,W,8,8,A0,0"]')
    assert _validate(numeric) == _validate(source)


# White's 28x19 takes Black's last piece: White has won, the Result says Black did.
GAME = '[GameType "20"]\n[Result "*"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
WRONG_RESULT = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "0-2"]\n1. 28x19 0-2\n\n'
WRONG_RESULT_LINE = ("{file}:7:1: game 2: Result '0-2' (a win for Black, the other side), but White has won on the "
                     "board (Black, to move, has no move) [wrong-result]")


# ---- convert keeps a game whose only error is its Result ------------------------------------------

@pytest.mark.parametrize("to", ["pdn", "jsonl", "fen"])
def test_convert_writes_a_game_whose_only_error_is_its_result(tmp_path, to):
    source = tmp_path / "games.pdn"
    source.write_text(GAME + WRONG_RESULT + GAME)
    result = invoke(["convert", "--to", to, str(source)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [WRONG_RESULT_LINE.format(file=source)]
    if to == "pdn":
        assert result.stdout.count("[GameType") == 3            # games in = games out
        assert '[Result "0-2"]' in result.stdout and "1. 28x19 0-2" in result.stdout   # the stated Result
    elif to == "jsonl":
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert [r["game"] for r in records] == [1, 2, 3]
        assert records[1]["result"] == "0-2" and records[1]["moves"][0]["path"] == [28, 19]
        assert [e["code"] for e in records[1]["errors"]] == ["wrong-result"]
        assert (records[1]["errors"][0]["line"], records[1]["errors"][0]["column"]) == (7, 1)
        assert records[0]["errors"] == [] and records[2]["errors"] == []
    else:
        assert {line.split("\t")[0] for line in result.stdout.splitlines()} == {
            f"{source}:1", f"{source}:2", f"{source}:3"}


def test_convert_with_a_style_keeps_the_game_but_leaves_out_one_that_does_not_replay(tmp_path):
    source = tmp_path / "games.pdn"
    source.write_text(WRONG_RESULT + BAD + "\n")
    result = invoke(["convert", "--captures", "full", str(source)])
    assert result.exit_code == 1
    assert "1. 28x19 0-2" in result.stdout and "28x51" not in result.stdout
    assert [line.rsplit("[", 1)[1] for line in result.stderr.splitlines()] == ["wrong-result]", "bad-square]"]


def test_in_place_rewrites_a_file_whose_only_error_is_a_result(tmp_path):
    source = tmp_path / "games.pdn"
    source.write_text(GAME + WRONG_RESULT.replace("1. 28x19", "1.28x19"))
    result = invoke(["convert", "--in-place", str(source)])
    assert result.exit_code == 1 and "left unchanged" not in result.stderr
    assert "[wrong-result]" in result.stderr
    text = source.read_text()
    assert text.count("[GameType") == 2 and "1. 28x19 0-2" in text and '[Result "0-2"]' in text


# ---- one square vocabulary per variant; canonical PDN says which variant it replayed ---------------

RUSSIAN = '[GameType "25"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n'


def test_canonical_pdn_carries_the_gametype_of_the_variant_it_replayed():
    """An international game without GameType (most real 10x10 files), written in algebraic
    squares, used to read back as Russian (`b4-a5: no piece on b4`): the GameType says
    international, board size and notation of the moves included (PDN 3.0 restriction 6)."""
    for squares, gametype in (("alpha", "20,W,10,10,A0,0"), ("numeric", "20,W,10,10,N2,0")):
        result = invoke(["convert", "--squares", squares, "-"], input="1. 31-26 20-24 *\n")
        assert result.exit_code == 0 and f'[GameType "{gametype}"]' in result.stdout
        assert invoke(["validate", "--warnings", "none", "-"], input=result.stdout).exit_code == 0
    assert invoke(["convert", "-"], input=GOOD).stdout.count("GameType") == 1      # its own is kept


def test_a_gametype_that_names_another_notation_or_variant_is_written_again():
    alpha = invoke(["convert", "--squares", "numeric", "-"], input=RUSSIAN).stdout
    assert '[GameType "25,W,8,8,N2,0"]' in alpha and "22-18" in alpha
    forced = invoke(["convert", "--variant", "russian", "-"], input='[GameType "20"]\n1. c3-d4 *\n').stdout
    assert '[GameType "25,W,8,8,A0,0"]' in forced


def test_lidraughts_own_gametype_number_stays_when_the_notation_changes():
    """96 (Breakthrough) is replayed by international moves, its results not checked: written
    again in full for algebraic squares, it must still say 96."""
    result = invoke(["convert", "--squares", "alpha", "-"], input='[GameType "96"]\n1. 32-28 19-23 2-0\n')
    assert '[GameType "96,W,10,10,A0,0"]' in result.stdout and "1. d4-e5 g7-f6 2-0" in result.stdout


def test_algebraic_squares_are_tried_on_every_board_they_fit():
    """After the 8x8 variants, the 10x10 and 12x12 ones."""
    for variant in ("international", "canadian", "russian"):
        position, moves = Position.initial(VARIANTS[variant]), []
        for _ in range(2):                          # the first moves, in algebraic squares
            move = position.legal_moves()[-1]
            moves.append(move_text(position, move, Style(squares="alpha")))
            position = position.play(move)
        result = invoke(["convert", "--to", "jsonl", "-"], input=f"1. {' '.join(moves)} *\n")
        assert result.exit_code == 0 and json.loads(result.stdout)["variant"] == variant, result.output


def test_fen_and_jsonl_use_the_variants_squares_and_switch_with_squares():
    fen = invoke(["convert", "--to", "fen", "-"], input=RUSSIAN).stdout.splitlines()
    assert fen[1] == "<stdin>:1\t1\tB:Wd4,a3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"
    numeric = invoke(["convert", "--to", "fen", "--squares", "numeric", "-"], input=RUSSIAN).stdout.splitlines()
    assert numeric[1] == "<stdin>:1\t1\tB:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    [record] = [json.loads(line) for line in invoke(["convert", "--to", "jsonl", "-"], input=RUSSIAN).stdout.splitlines()]
    assert record["fen"].startswith("W:Wa3,c3,") and record["moves"][2]["path"] == ["d4", "f6"]
    assert record["moves"][2]["captured"] == ["e5"]
    result = invoke(["convert", "--to", "jsonl", "--squares", "numeric", "-"], input=RUSSIAN)
    [record] = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["moves"][2]["path"] == [18, 11] and record["moves"][2]["text"] == "18x11"
    assert record["fen"].startswith("W:W21,22,")
    [record] = [json.loads(line) for line in invoke(["convert", "--to", "jsonl", "--squares", "alpha", "-"],
                                                   input=GOOD).stdout.splitlines()]
    assert record["moves"][0]["path"] == ["d4", "e5"] and record["fen"].startswith("W:Wb4,d4,")


def test_perft_divide_names_moves_in_the_variants_squares():
    russian = invoke(["perft", "--variant", "russian", "--depth", "1", "--divide"]).stdout.splitlines()
    assert russian[:2] == ["c3-b4 1", "e3-d4 1"] and russian[-1] == "depth 1 7"
    assert invoke(["perft", "--variant", "international", "--depth", "1", "--divide"]).stdout.startswith("31-26 1\n")


# ---- a style option changes only what it names: without --squares the squares stay the game's ------

ENGLISH_ALPHA = '[GameType "21,B,8,8,A0,0"]\n1. e3-d4 f6-e5 2. d4xf6 e7xg5 3. f2-e3 g7-f6 *\n'   # numeric variant
RUSSIAN_NUMERIC = '[GameType "25,W,8,8,N2,0"]\n1. 22-18 11-16 2. 23-19 16x14 *\n'              # algebraic variant
KING_ALPHA = '[GameType "20,W,10,10,A0,0"]\n[FEN "W:WKc1:Bh8,g7,g5,b4,d2"]\n1. c1xe3xh6xf8xa3 *\n'
STYLE_OPTIONS = [["--captures", "full"], ["--captures", "short"], ["--separator", ":"], ["--separator", "x"],
                 ["--captures", "full", "--separator", ":"], ["--fix-results", "--captures", "short"],
                 ["--fix-results"], ["--drop", "comments"]]


def _squares(text: str) -> list[str]:
    """The squares of the moves of PDN `text`'s movetext, as written."""
    movetext = [line for line in text.splitlines() if line and not line.startswith("[")]
    words = " ".join(movetext).split()
    return [square for word in words if any(c in word for c in "-x:") and word not in ("1-0", "0-1", "2-0", "0-2")
            for square in word.replace(":", "-").replace("x", "-").split("-")]


def _tag(text: str, name: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(f"[{name} ")]


@pytest.mark.parametrize("options", STYLE_OPTIONS, ids=" ".join)
@pytest.mark.parametrize("source", [ENGLISH_ALPHA, RUSSIAN_NUMERIC, KING_ALPHA], ids=["english-alpha",
                                                                                      "russian-numeric", "king-alpha"])
def test_a_style_without_squares_keeps_the_games_squares_and_gametype(tmp_path, source, options):
    """English (numeric by default) written in algebraic squares stays algebraic, Russian
    (algebraic by default) written in numbers stays numeric: the GameType and FEN tags as they
    were, and what is written reads back as the same games."""
    path, out = tmp_path / "in.pdn", tmp_path / "out.pdn"
    path.write_text(source)
    result = invoke(["convert", *options, "-o", str(out), str(path)])
    assert result.exit_code == 0, result.output
    written = out.read_text()
    alpha = [square[:1].isalpha() for square in _squares(source)]
    assert [square[:1].isalpha() for square in _squares(written)] == [alpha[0]] * len(_squares(written))
    assert len(set(alpha)) == 1 and _squares(written)
    assert _tag(written, "GameType") == _tag(source, "GameType")
    assert _tag(written, "FEN") == _tag(source, "FEN")
    assert _validate(out) == _validate(path) and _paths(out) == _paths(path)


def test_a_style_writes_the_games_own_squares():
    assert "1. e3-d4 f6-e5 2. d4:f6 e7:g5 3. f2-e3 g7-f6 *" in \
        invoke(["convert", "--separator", ":", "-"], input=ENGLISH_ALPHA).stdout
    assert "1. 22-18 11-16 2. 23-19 16x23x14 *" in \
        invoke(["convert", "--captures", "full", "-"], input=RUSSIAN_NUMERIC).stdout
    # --squares still switches them, the GameType and FEN with them
    numeric = invoke(["convert", "--squares", "numeric", "--separator", ":", "-"], input=ENGLISH_ALPHA).stdout
    assert '[GameType "21,B,8,8,N1,0"]' in numeric and "1. 10-15 22-18 2. 15:22 26:17" in numeric
    alpha = invoke(["convert", "--squares", "alpha", "--captures", "full", "-"], input=RUSSIAN_NUMERIC).stdout
    assert '[GameType "25,W,8,8,A0,0"]' in alpha and "2. e3-f4 g5xe3xc5 *" in alpha
    king = invoke(["convert", "--squares", "numeric", "-"], input=KING_ALPHA).stdout
    assert '[FEN "W:WK47:B14,19,29,31,42"]' in king and '[GameType "20,W,10,10,N2,0"]' in king


@pytest.mark.parametrize("moves, gametype", [("1. 32-28 19-23 2. 28x19 14x23 *", "20,W,10,10,N2,0"),
                                             ("1. c3-d4 f6-e5 2. d4xf6 g7xe5 *", "25,W,8,8,A0,0")])
def test_a_style_keeps_the_squares_of_a_game_without_gametype(moves, gametype):
    """No GameType: the squares as its moves are written, and the GameType plain convert writes."""
    plain = invoke(["convert", "-"], input=moves + "\n").stdout
    full = invoke(["convert", "--captures", "full", "--separator", ":", "-"], input=moves + "\n").stdout
    assert f'[GameType "{gametype}"]' in plain and f'[GameType "{gametype}"]' in full
    assert full == plain.replace("x", ":")


@pytest.mark.parametrize("source, gametype", [('[GameType "21"]\n1. e3-d4 f6-e5 2. d4xf6 e7xg5 *\n', "21,B,8,8,A0,0"),
                                              ('[GameType "25"]\n1. 22-18 11-16 2. 23-19 16x14 *\n', "25,W,8,8,N2,0")])
def test_a_style_keeps_the_squares_a_bare_gametype_does_not_name(source, gametype):
    """A GameType without a notation field, moves not in the variant's own squares: the moves stay as
    written and the GameType is written in full, as plain convert writes it."""
    plain = invoke(["convert", "-"], input=source).stdout
    styled = invoke(["convert", "--separator", ":", "-"], input=source).stdout
    assert f'[GameType "{gametype}"]' in plain and styled == plain.replace("x", ":")


def test_jsonl_with_a_style_writes_the_moves_in_the_games_squares():
    """The moves' text as the style writes it, in the game's squares; paths and FENs in the
    variant's own, as always."""
    result = invoke(["convert", "--to", "jsonl", "--captures", "full", "-"], input=ENGLISH_ALPHA)
    [record] = [json.loads(line) for line in result.stdout.splitlines()]
    assert [move["text"] for move in record["moves"]][:4] == ["e3-d4", "f6-e5", "d4xf6", "e7xg5"]
    assert record["moves"][0]["path"] == [10, 15] and record["tags"]["GameType"] == "21,B,8,8,A0,0"
