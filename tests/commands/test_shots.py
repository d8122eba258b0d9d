"""Shots: rules.search.judge on hand-made positions, `annotate --shots`, `validate --shots`."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn_tools import read_text
from pdn_tools.cli import cli
from pdn_tools.commands.annotate import Options as Annotations, annotate_game, shots
from pdn_tools.play.check import check
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.movegen import Move
from pdn_tools.rules.search import (MISSED, NOT_JUDGED, SHOT, WALKED_INTO, Evaluations, Judgement, SearchResult,
                                   eval_text, judge)
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.model import Variation

ENGLISH = VARIANTS["english"]
# TTS Example 1 (english/wiegerw-succeed-Tricks_traps_and_shots.pdn): White to move has the shot
# 27-23 20x27 23-18, which wins a man: the captures are compulsory (seed 001: "Si tiene la
# oportunidad de saltar una selección de fichas del oponente, puede elegir cuál, pero debe
# capturar una de ellas").
EXAMPLE = "W:W32,27,24,22:B20,15,10,7"
GAME = f'[GameType "21"]\n[FEN "{EXAMPLE}"]\n[Result "*"]\n\n1. {{opening}} 27-23 $3 20x27 2. 23-18 *\n'
MISSING = f'[GameType "21"]\n[FEN "{EXAMPLE}"]\n[Result "*"]\n\n1. 22-17 *\n'


def judged(move: Move, depth: int = 4) -> Judgement:
    pos = parse_fen(ENGLISH, EXAMPLE)
    return judge([(pos, move, pos.play(move))], Evaluations(depth))[0]


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_the_shot_played():
    judgement = judged(Move(27, (23,)))
    assert judgement.kind == SHOT and judgement.score == 100
    assert [str(m) for m in judgement.line[:3]] == ["27-23", "20x27", "23-18"]


def test_the_shot_missed():
    judgement = judged(Move(22, (17,)))
    assert judgement.kind == MISSED and judgement.score == 0
    assert str(judgement.line[0]) == "27-23"           # the shot White had


def test_a_move_into_a_shot():
    """24-19 lets Black take two: 15x24x31 (a compulsory capture, seed 001 as above)."""
    judgement = judged(Move(24, (19,)))
    assert judgement.kind == WALKED_INTO and judgement.score == -250
    assert [str(m) for m in judgement.line[:2]] == ["24-19", "15x31"]


def test_nothing_to_say_and_too_shallow_to_see():
    pos = parse_fen(ENGLISH, "W:W32:B1")
    move = Move(32, (27,))
    assert judge([(pos, move, pos.play(move))], Evaluations(4))[0].kind is None
    assert judged(Move(27, (23,)), depth=2).kind is None       # the shot needs depth 3


def test_a_combinations_later_moves_are_not_shots_again():
    """After the shot, White's 23-18 (the gain already in hand) is not judged a second shot."""
    pos = parse_fen(ENGLISH, EXAMPLE)
    plies = []
    for move in (Move(27, (23,)), Move(20, (27,), (24,)), Move(23, (18,))):
        after = pos.play(move)
        plies.append((pos, move, after))
        pos = after
    assert [j.kind for j in judge(plies, Evaluations(4))] == [SHOT, None, None]


def test_eval_text():
    assert [eval_text(s) for s in (100, -250, 0, 99_999, -99_996)] == ["+1.00", "-2.50", "+0.00", "#1", "#-2"]


def test_cache_counts_hits():
    evaluate = Evaluations(2)
    pos = parse_fen(ENGLISH, EXAMPLE)
    evaluate(pos)
    evaluate(pos)
    evaluate(pos, 0)
    assert (evaluate.hits, evaluate.misses) == (1, 2)


# An international position whose depth-1 search visits some 62 million nodes (docs/analysis.md), and a
# game of one move from it.
KINGS = ("B:WK1,K2,6,K8,K13,15,K17,K19,24,26,29,30,33,K36,38,41,K42,K45,50"
         ":BK5,7,K10,K14,16,K20,22,K27,K28,K32,34,37")
KINGS_GAME = f'[GameType "20"]\n[FEN "{KINGS}"]\n[Result "*"]\n\n1... 22x11 *\n'


def test_a_move_whose_search_goes_past_the_budget_is_not_judged_and_the_cut_is_never_served_as_an_answer():
    pos = parse_fen(VARIANTS["international"], KINGS)
    move = next(m for m in pos.legal_moves() if str(m) == "22x11")
    evaluate = Evaluations(3, nodes=1_000)
    assert judge([(pos, move, pos.play(move))], evaluate) == [Judgement(NOT_JUDGED, None)]
    assert evaluate(pos) is None and evaluate(pos) is None and evaluate.base(pos) is None     # cached, still cut
    assert evaluate.results[(id(pos.variant), pos.hash(), 3)] == (pos.variant, SearchResult(None, None, (), 1_001, None))
    assert judge([(pos, move, pos.play(move))], Evaluations(0, nodes=10 ** 9))[0].kind != NOT_JUDGED


def test_annotate_and_validate_say_which_moves_were_not_judged_and_reannotating_keeps_the_bytes():
    annotated = run("annotate", "--shots", "--nodes", "1000", "-", input=KINGS_GAME)
    assert annotated.exit_code == 0, annotated.output
    assert "1... 22x11 {[%unjudged nodes 1000]} *" in annotated.stdout and "[%eval" not in annotated.stdout
    assert annotated.stderr == ("<stdin>:1: game 1: moves not judged ([%unjudged]): a search went past --nodes "
                                "1,000; a larger --nodes judges them\n")
    assert run("annotate", "--shots", "--nodes", "1000", "-", input=annotated.stdout).stdout == annotated.stdout
    assert "unjudged" not in run("annotate", "--shots", "--depth", "0", "--nodes", "1000000", "-",
                                 input=annotated.stdout).stdout          # a budget that does: replaced
    validated = run("validate", "--format", "jsonl", "--shots", "--nodes", "1000", "-", input=KINGS_GAME)
    assert validated.exit_code == 0, validated.output
    assert json.loads(validated.stdout)["shots"] == [{"ply": 1, "move": "1... 22x11", "kind": "not judged",
                                                      "eval": None, "line": []}]


OPENING = '[GameType "21"]\n[Result "*"]\n\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 *\n'


@pytest.mark.parametrize("text, nodes, unjudged", [(GAME, 100, 3), (OPENING, 1, 8), (OPENING, 1_000, 4),
                                                   (GAME, None, 0), (OPENING, None, 0)])
def test_the_unjudged_note_is_said_exactly_when_the_search_did_not_judge_a_move(text, nodes, unjudged):
    """annotate's [%unjudged] commands and its note follow the kinds the search gives, move by move: a
    tiny budget leaves every move unjudged, 1,000 nodes half the opening's (the others judged), no
    budget none (no note)."""
    checked = check(read_text(text)[0])
    kinds = [j.kind for j in shots(checked.replay, Evaluations(3, nodes))]
    assert kinds.count(NOT_JUDGED) == unjudged
    written, notes = annotate_game(checked, Annotations(shots=True, depth=3, nodes=nodes))
    assert re.findall(r"\[%(eval|unjudged) ", written) == ["unjudged" if k == NOT_JUDGED else "eval" for k in kinds]
    said = [note for _, note, _ in notes if "[%unjudged]" in note]
    assert said == ([] if not unjudged else
                    [f"moves not judged ([%unjudged]): a search went past --nodes {nodes:,}; a larger --nodes judges them"])


@pytest.mark.parametrize("command", [["annotate", "--shots"], ["validate", "--format", "jsonl", "--shots"]])
@pytest.mark.parametrize("value, message", [("0", "0 is not in the range x>=1"), ("-5", "-5 is not in the range x>=1"),
                                            ("many", "'many' is not a valid integer")])
def test_a_bad_node_budget_is_a_usage_error(command, value, message):
    result = run(*command, "--nodes", value, "-", input=GAME)
    assert (result.exit_code, result.stdout) == (2, "")
    assert "--nodes" in result.output and message in result.output


def test_annotate_shots_writes_nags_lines_and_evals_and_keeps_the_authors():
    result = run("annotate", "--shots", "--depth", "4", "-", input=GAME)
    assert result.exit_code == 0, result.output
    text = result.stdout
    # English: Black moves first, so White's first move is numbered 1... as move_label numbers it
    assert "{opening} 27-23 $1 $3 {[%eval +1.00]} ({[%line]} 1... 27-23 2. 20x27 23-18" in text
    game = read_text(text)[0]
    (line,) = [e for e in game.elements if isinstance(e, Variation)]
    assert [m.text for m in line.elements if hasattr(m, "squares")][:3] == ["27-23", "20x27", "23-18"]
    missed = run("annotate", "--shots", "--depth", "4", "-", input=MISSING).stdout
    assert "22-17 $2 {[%eval +0.00]} ({[%line]} 1... 27-23 2. 20x27 23-18" in missed


@pytest.mark.parametrize("source", sorted(str(p) for p in Path("samples").glob("*.pdn")))
def test_annotating_with_shots_twice_is_annotating_once_and_reads_back(tmp_path, source):
    """Every variant's sample: the same bytes the second time; the output is valid PDN whose
    variations replay and whose main line is the game's."""
    once = run("annotate", "--shots", "--depth", "2", source)
    twice = run("annotate", "--shots", "--depth", "2", "-", input=once.stdout)
    assert once.exit_code == 0 and "[%eval " in once.stdout and "[%line]" in once.stdout
    assert twice.stdout == once.stdout
    annotated = tmp_path / "annotated.pdn"
    annotated.write_text(once.stdout)
    assert run("validate", "--quiet", str(annotated)).exit_code == 0      # variations replay
    assert [m.text for m in read_text(once.stdout)[0].main_line()] == \
        [m.text for m in read_text(open(source).read())[0].main_line()]


def test_validate_jsonl_shots_field():
    result = run("validate", "--format", "jsonl", "--shots", "--depth", "4", "-", input=GAME + "\n" + MISSING)
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["shots"] == [{"ply": 1, "move": "1... 27-23", "kind": "shot", "eval": "+1.00",
                               "line": ["27-23", "20x27", "23-18", "7-11", "32x23", "11-16", "18x11", "10-14"]}]
    assert second["shots"][0]["kind"] == "missed" and second["shots"][0]["line"][0] == "27-23"
    plain = json.loads(run("validate", "--format", "jsonl", "-", input=GAME).stdout)
    assert "shots" not in plain


def test_validate_shots_usage_errors():
    result = run("validate", "--shots", "-", input=GAME)
    assert result.exit_code == 2
    assert "--shots goes with --format jsonl or html" in result.output


def test_annotate_needs_something_to_do_and_a_sane_depth():
    result = run("annotate", "-", input=GAME)
    assert result.exit_code == 2 and "--shots" in result.output
    result = run("annotate", "--shots", "--depth", "-1", "-", input=GAME)
    assert result.exit_code == 2 and "--depth" in result.output


def test_an_invalid_game_passes_unchanged_and_has_no_shots_field():
    bad = '[GameType "21"]\n[Result "*"]\n\n1. 11-16 11-15 *\n'
    result = run("annotate", "--shots", "-", input=bad + "\n" + GAME)
    assert result.exit_code == 1
    assert result.stdout.startswith(bad) and "$1" in result.stdout
    record = json.loads(run("validate", "--format", "jsonl", "--shots", "-", input=bad).stdout)
    assert not record["ok"] and "shots" not in record


def test_annotate_shots_with_jobs_gives_the_same_output():
    source = "samples/english.pdn"
    assert run("annotate", "--shots", "--jobs", "2", source).stdout == run("annotate", "--shots", source).stdout


def test_depth_and_nodes_go_with_shots():
    for command in (["annotate", "--fen"], ["validate", "--format", "jsonl"]):
        for option in ("--depth", "--nodes"):
            result = run(*command, option, "4", "-", input=GAME)
            assert result.exit_code == 2 and f"{option} goes with --shots" in result.output


def test_shots_and_an_engine_are_one_or_the_other():
    result = run("annotate", "--shots", "--engine", "pdn hub", "-", input=GAME)
    assert (result.exit_code, result.stdout) == (2, "")
    assert "--shots and --engine both write [%eval]: choose one" in result.output


def test_the_searches_kept_are_kept_for_their_variant_not_its_name():
    """A library user's variant named as a built-in one (the Brazilian rules, which are the
    international rules on 8x8, named 'russian') is searched on its own, not served the built-in's
    kept results for a position of the same pieces."""
    import dataclasses

    own = dataclasses.replace(VARIANTS["brazilian"], name="russian")
    fen = "W:W21,22,K30:B9,10,14"
    builtin, mine = parse_fen(VARIANTS["russian"], fen), parse_fen(own, fen)
    evaluate = Evaluations(4)
    assert builtin.hash() == mine.hash()
    assert evaluate(builtin) == Evaluations(4)(builtin)
    assert evaluate(mine) == Evaluations(4)(mine)
    assert (evaluate.hits, evaluate.misses) == (0, 2)
    assert evaluate(builtin) == Evaluations(4)(builtin) and evaluate.hits == 1
