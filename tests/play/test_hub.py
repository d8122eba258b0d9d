"""Hub engines: the protocol, `pdn hub` (the built-in search as an engine) and `annotate --engine`,
end to end on `pdn hub` and on every error path with a scripted fake engine (data/fake_hub.py)."""
import os
import queue
import random
import shlex
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
from signals import ctrl_c_heard
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from corpus import DATA
from test_round_trip import random_games
from pdn_tools import read_text
from pdn_tools.cli import cli
from pdn_tools.commands.annotate import Options as Annotations, annotate_game
from pdn_tools.commands.hub_engine import Session
from pdn_tools.play.check import check
from pdn_tools.play.hub import (Analysis, HubError, Score, format_line, hub_variant, hub_move_text, parse_line, position_text,
                                read_line_of_moves, read_move, read_position, read_score, score_text)
from pdn_tools.rules import core
from pdn_tools.text.names import printable
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.search import WIN, first_move, search
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.model import Comment, Variation

PDN_HUB = shlex.join([sys.executable, "-m", "pdn_tools", "hub"])
FAKE = DATA / "fake_hub.py"
GAME = """[Event "Hub test"]
[GameType "20"]

1. 32-28 $1 {the author's comment} 19-23 2. 28x19 14x23 3. 37-32 10-14 *
"""
# White's king on 1 takes three men to 9 by two routes (7, 14 and 24 or 30): `1x9` names both.
AMBIGUOUS = """[GameType "20"]
[FEN "W:WK1:B7,14,24,30"]

1. 1x29x20x9 *
"""


def fake(mode, pidfile=None):
    return shlex.join([sys.executable, str(FAKE), mode, *([str(pidfile)] if pidfile else [])])


def annotate(*args, input=GAME):
    return CliRunner().invoke(cli, ["annotate", *map(str, args), "-"], input=input)


def gone(pidfile):
    """Whether the process whose id `pidfile` holds is gone (reaped: a zombie still answers kill 0)."""
    pid = int(pidfile.read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# ---- the protocol ---------------------------------------------------------------------------------

def random_position(variant, rng, plies):
    position = Position.initial(variant)
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
    return position


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.integers(0, 2**32), st.integers(0, 60))
def test_positions_and_moves_read_back_whatever_order_the_captured_squares_come_in(name, seed, plies):
    rng = random.Random(seed)
    position = random_position(VARIANTS[name], rng, plies)
    assert read_position(position_text(position), position.variant) == position
    for move in position.legal_moves():
        squares = hub_move_text(move).split("x")
        taken = squares[2:]
        rng.shuffle(taken)
        found = read_move(position, "x".join(squares[:2] + taken) if move.captured else hub_move_text(move))
        assert (found.start, found.end, set(found.captured)) == (move.start, move.end, set(move.captured))


@given(st.text(st.characters(min_codepoint=33, max_codepoint=126, blacklist_characters='="'), min_size=1),
       st.dictionaries(st.from_regex(r"[a-z][a-z-]{0,8}", fullmatch=True),
                       st.text(st.characters(min_codepoint=32, max_codepoint=126, blacklist_characters='"'))))
def test_a_line_formatted_parses_back(command, pairs):
    line = format_line(command, **{name.replace("-", "_"): value for name, value in pairs.items()})
    assert parse_line(line) == (command, pairs)


@given(st.text(), st.text())
def test_any_value_is_written_as_one_line_that_parses_back_to_one_value(message, name):
    """A value has no escape in the protocol: a `"` in it ended the quoted value early (pdn hub
    answered `set-param name=variant value="it's"` with `error message="unknown variant "it's""`,
    which no client reads back), and a line break would end the line (a command after it read as
    the next line).  format_line writes `"` as `'` and what `printable` escapes as its escape, so
    the line is one line, read back by parse_line as the one value, unchanged when it was safe."""
    line = format_line("error", message=message, version=name)
    assert len(f"{line}\n".splitlines()) == 1 and "\r" not in line and "\n" not in line
    expected = {"message": printable(message).replace('"', "'"), "version": printable(name).replace('"', "'")}
    assert parse_line(line) == ("error", expected)


def test_pdn_hub_s_error_quoting_the_request_is_one_line_of_the_protocol():
    answer = Session(2, "1").answer
    assert answer("set-param name=variant value=\"it's\"") == ['error message="unknown variant \'it\'s\'"']
    assert parse_line(answer("set-param name=variant value=\"it's\"")[0])[1] == {"message": "unknown variant 'it's'"}


@pytest.mark.parametrize("line", ['info score="0.1', "=x", "", "done move=\x1b[2J"])
def test_a_line_that_is_not_the_protocol_is_an_error(line):
    with pytest.raises(HubError, match="not a Hub line"):
        parse_line(line)


def test_a_capture_naming_two_is_refused_and_its_taken_squares_settle_it():
    position = parse_fen(VARIANTS["international"], "W:WK1:B7,14,24,30")
    with pytest.raises(HubError, match="1x9 names 2 captures: write the taken squares"):
        read_move(position, "1x9")
    assert set(read_move(position, "1x9x14x30x7").captured) == {7, 14, 30}
    with pytest.raises(HubError, match="1x9x14x31x7 is not a legal move"):
        read_move(position, "1x9x14x31x7")
    with pytest.raises(HubError, match="a square is taken twice"):
        read_move(position, "1x9x14x14x7")


@pytest.mark.parametrize("text, centi, plies, shown", [
    ("0.25", 25, None, "+0.25"), ("-1", -100, None, "-1.00"), ("0.00", 0, None, "0.00"),
    ("99.97", 9997, 3, "#+3"), ("-99.95", -9995, -5, "#-5"), ("89.90", 8990, None, "+89.90")])
def test_scores_in_men_and_forced_ends(text, centi, plies, shown):
    score = read_score(text)
    assert (score.centi, score.plies, score.text()) == (centi, plies, shown)
    assert score.negated().text() == (shown.replace("+", "-") if "+" in shown else shown.replace("-", "+"))


@pytest.mark.parametrize("text", ["abc", "100.5", "nan", "inf"])
def test_a_score_that_is_not_one_is_an_error(text):
    with pytest.raises(HubError, match="score"):
        read_score(text)


def test_the_search_scores_go_out_as_scan_writes_them_and_read_back():
    assert score_text(WIN - 7, WIN) == "99.93" and read_score("99.93") == Score(9993, 7)
    assert score_text(-(WIN - 2), WIN) == "-99.98"
    assert score_text(250, WIN) == "2.50" and score_text(20_000, WIN) == "88.99"     # never read as 89.xx


def test_variant_names_are_scan_s_where_scan_plays_them():
    assert hub_variant(VARIANTS["international"]) == "normal"
    assert hub_variant(VARIANTS["international"], 98) == "losing"    # lidraughts' antidraughts
    assert hub_variant(VARIANTS["frisian"], 97) == "frisian"
    assert hub_variant(VARIANTS["english"]) == "english"


# ---- pdn hub ----------------------------------------------------------------------------------------

def test_pdn_hub_speaks_the_protocol():
    start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
    lines = "\n".join(["hub", "init", f"pos pos={start}", "level depth=2", "go analyze", "ping", "quit",
                       "go analyze"]) + "\n"
    result = CliRunner().invoke(cli, ["hub"], input=lines)
    assert result.exit_code == 0
    out = result.stdout.splitlines()
    assert out[0].startswith("id name=pdn-tools") and out[3] == "wait" and out[4] == "ready"
    command, info = parse_line(out[5])
    expected = search(read_position(start, VARIANTS["international"]), 2)
    assert command == "info" and info["score"] == score_text(expected.score, WIN)
    assert info["pv"] == " ".join(hub_move_text(move) for move in expected.line)
    assert out[6] == format_line("done", move=hub_move_text(expected.best), ponder=hub_move_text(expected.line[1]))
    assert out[7:] == ["pong"]          # nothing after quit


@pytest.mark.parametrize("pure", ["0", "1"])
def test_stop_ends_a_deep_search_with_the_last_complete_iteration_s_move(pure):
    """`go analyze` to depth 40 (hours on the start position), `stop` half a second later: `info`
    and `done` come within seconds, the move legal and the line's depth below 40; `ping` sent
    with `stop` is answered after `done`, and the engine goes on."""
    start = Position.initial(VARIANTS["international"])
    process = subprocess.Popen(shlex.split(PDN_HUB), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PDN_TOOLS_PURE": pure})
    answers = queue.Queue()
    threading.Thread(target=lambda: [answers.put(line.rstrip("\n")) for line in process.stdout], daemon=True).start()

    def send(*lines):
        process.stdin.write("".join(line + "\n" for line in lines))
        process.stdin.flush()

    def read():     # a depth-40 search never ends within this wait: an answer at all is the stop's
        return answers.get(timeout=20)

    try:
        send("init")
        assert read() == "ready"
        send(f"pos pos={position_text(start)}", "level depth=40", "go analyze")
        time.sleep(0.5)
        assert answers.empty()                          # still searching
        stopped = time.monotonic()
        send("stop", "ping")
        command, info = parse_line(read())
        done = read()
        assert command == "info" and 1 <= int(info["depth"]) < 40
        assert parse_line(done)[0] == "done" and read() == "pong"
        assert read_move(start, parse_line(done)[1]["move"]) in start.legal_moves()
        assert read_line_of_moves(start, info["pv"])[0] == read_move(start, parse_line(done)[1]["move"])
        send("level depth=1", "go analyze", "quit")
        assert parse_line(read())[0] == "info" and parse_line(read())[0] == "done"
        assert process.wait(10) == 0
    finally:
        process.kill()
        process.wait()


# An international position whose depth-1 search visits some 62 million nodes (docs/analysis.md).
KINGS = ("B:WK1,K2,6,K8,K13,15,K17,K19,24,26,29,30,33,K36,38,41,K42,K45,50"
         ":BK5,7,K10,K14,16,K20,22,K27,K28,K32,34,37")


@pytest.mark.parametrize("pure", ["0", "1"])
def test_stop_cuts_even_the_first_iteration_and_the_answer_is_the_search_s_first_move(pure):
    """On KINGS, `stop` a quarter of a second after `go`, in the first iteration: `info` says depth 0 and
    no score or line, `done` gives the first move of the search's order (a legal one), within seconds."""
    kings = parse_fen(VARIANTS["international"], KINGS)
    process = subprocess.Popen(shlex.split(PDN_HUB), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PDN_TOOLS_PURE": pure})
    answers = queue.Queue()
    threading.Thread(target=lambda: [answers.put(line.rstrip("\n")) for line in process.stdout], daemon=True).start()
    try:
        process.stdin.write(f"init\npos pos={position_text(kings)}\nlevel depth=3\ngo think\n")
        process.stdin.flush()
        assert answers.get(timeout=20) == "ready"
        time.sleep(0.25)
        assert answers.empty()                          # still in its first iteration
        stopped = time.monotonic()
        process.stdin.write("stop\n")
        process.stdin.flush()
        command, info = parse_line(answers.get(timeout=10))
        done = parse_line(answers.get(timeout=10))
        assert time.monotonic() - stopped < 10
        assert command == "info" and info["depth"] == "0" and "score" not in info and "pv" not in info
        assert done == ("done", {"move": hub_move_text(first_move(kings))})
        assert read_move(kings, done[1]["move"]) in kings.legal_moves()
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize("pure", ["0", "1"])
def test_a_node_limit_cuts_the_first_iteration_reproducibly(monkeypatch, pure):
    monkeypatch.setenv("PDN_TOOLS_PURE", pure)
    session = Session(2, "test")
    kings = parse_fen(VARIANTS["international"], KINGS)
    session.answer(f"pos pos={position_text(kings)}")
    session.answer("level depth=3 nodes=2000")
    assert session.position.engine.compiled is (pure == "0" and core.compiled_module() is not None)
    assert session.answer("go think") == [format_line("info", depth="0", nodes="2001"),
                                          format_line("done", move=hub_move_text(first_move(kings)))]
    start = Position.initial(VARIANTS["international"])
    session.answer(f"pos pos={position_text(start)}")
    limit = search(start, 1).nodes + 1
    session.answer(f"level depth=4 nodes={limit}")      # the second iteration is cut: the first's move answers
    command, info = parse_line(session.answer("go think")[0])
    assert info["depth"] == "1" and info["nodes"] == str(limit + 1) and info["pv"]
    session.answer("level depth=2")                     # a level without nodes has no limit
    assert parse_line(session.answer("go think")[0])[1]["depth"] == "2"


@pytest.mark.parametrize("lines, error", [
    (["go think"], "no position: send pos first"),
    (["pos pos=Wbbb"], "a international position is W or B and 50 squares"),
    (["set-param name=variant value=killer"], "unknown variant 'killer'"),
    (["level depth=0"], "depth '0' is not a number from 1 to 64"),
    (["level nodes=0"], "nodes '0' is not a number of 1 or more"),
    (["level depth=3 nodes=-5"], "nodes '-5' is not a number of 1 or more"),
    (['info "x'], "not a Hub line"),
    (["set-param name=variant value=english", "pos pos=W" + "e" * 32, "go think"],
     "the side to move has no legal move"),
])
def test_pdn_hub_answers_a_bad_request_with_an_error_line(lines, error):
    session = Session(2, "test")
    answers = [answer for line in lines for answer in session.answer(line)]
    assert format_line("error", message=error) in answers


@pytest.mark.parametrize("threaded", [False, True])
def test_a_search_that_fails_still_answers_go_with_an_error_line_and_done(monkeypatch, threaded):
    def failing(*args, **kwargs):
        raise RuntimeError("out of nodes")
    monkeypatch.setattr("pdn_tools.commands.hub_engine.search", failing)
    sent: list[str] = []
    session = Session(2, "test", sent.extend if threaded else None)
    session.answer("pos pos=" + position_text(Position.initial(VARIANTS["international"])))
    answers = session.answer("go think")
    session.wait()
    assert answers + sent == [format_line("error", message="the search failed: RuntimeError: out of nodes"), "done"]


def test_pdn_hub_plays_every_variant_it_declares_and_applies_the_moves_sent():
    session = Session(1, "test")
    declared = parse_line(session.answer("hub")[1])[1]["values"].split()
    assert "normal" in declared and "english" in declared and "frisian" in declared
    session.answer("set-param name=variant value=english")
    english = Position.initial(VARIANTS["english"])
    session.answer(f"pos pos={position_text(english)} moves=\"{hub_move_text(english.legal_moves()[0])}\"")
    assert session.position == english.play(english.legal_moves()[0])


# ---- annotate --engine, end to end on pdn hub ------------------------------------------------------------

def test_annotating_with_pdn_hub_evaluates_every_move_and_keeps_the_author_s_notes():
    result = annotate("--engine", PDN_HUB, "--engine-depth", "2")
    assert result.exit_code == 0, result.output
    game = read_text(result.stdout)[0]
    evals = [e.text for e in game.elements if isinstance(e, Comment) and e.text.startswith("[%eval")]
    assert len(evals) == 6
    # each evaluation is the search's, from White's view, of the position after the move
    position = Position.initial(VARIANTS["international"])
    for ply, move in enumerate(["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"]):
        position = position.play(next(m for m in position.legal_moves() if f"{m.start}{'x' if m.captured else '-'}"
                                      f"{m.end}" == move))
        score = search(position, 2).score * (1 if position.turn == "W" else -1)
        assert evals[ply] == f"[%eval {Score(score).text()}]"
    assert "32-28 $1 {[%eval" in result.stdout and "{the author's comment}" in result.stdout
    assert any(isinstance(e, Variation) for e in game.elements)
    again = annotate("--engine", PDN_HUB, "--engine-depth", "2", input=result.stdout)
    assert again.stdout == result.stdout
    plain = annotate("--fen", input=result.stdout)          # without the engine, its notes go
    assert "%eval" not in plain.stdout and "(" not in plain.stdout
    assert CliRunner().invoke(cli, ["validate", "-"], input=result.stdout).exit_code == 0


def test_the_best_line_is_a_variation_only_where_the_engine_prefers_another_move():
    result = annotate("--engine", fake("ok"))           # the fake searches 1 ply deep
    assert result.exit_code == 0
    game = read_text(result.stdout)[0]
    position, expected = Position.initial(VARIANTS["international"]), []
    for move in game.main_line():
        best = search(position, 1).best
        played = next(m for m in position.legal_moves() if (m.start, m.end) == tuple(map(int, move.squares)))
        expected.append(best != played)
        position = position.play(played)
    after, ply = [False] * len(expected), 0
    for element in game.elements:
        ply += element in game.main_line()
        after[ply - 1] |= isinstance(element, Variation)
    assert after == expected and any(expected)


@pytest.fixture(scope="module")
def plain():
    """GAME annotated by the fake engine without a fault."""
    ok = annotate("--engine", fake("ok"))
    assert ok.exit_code == 0 and "%eval" in ok.stdout
    return ok.stdout


@pytest.mark.parametrize("mode", ["shuffled", "chatty", "stale"])
def test_captured_squares_in_any_order_a_chatty_engine_and_late_lines_give_the_same_annotation(plain, mode):
    other = annotate("--engine", fake(mode))
    assert (other.exit_code, other.stdout) == (0, plain)


def test_an_engine_that_gives_no_score_gives_lines_but_no_evaluation():
    result = annotate("--engine", fake("no-score"))
    assert result.exit_code == 0 and "%eval" not in result.stdout


# ---- annotate --engine: the error paths ---------------------------------------------------------------------

ERRORS = [
    ("dead", "<stdin>:4:4: game 1, ply 1 (1. 32-28): engine '{cmd}': it ended (exit code 3): "
             "fake: cannot find its data folder"),
    ("dies", "<stdin>:4:45: game 1, ply 3 (2. 28x19): engine '{cmd}': it ended (exit code 4)"),
    ("silent", "<stdin>:4:4: game 1, ply 1 (1. 32-28): engine '{cmd}': no answer within 2 s (waiting for 'done')"),
    ("silent-start", "<stdin>:4:4: game 1, ply 1 (1. 32-28): engine '{cmd}': no answer within 2 s "
                     "(waiting for 'wait')"),
    ("garbage", "engine '{cmd}': it sent a line that is not the Hub protocol: 'info score=\"0.10'"),
    ("unknown", "engine '{cmd}': unexpected 'bestmove' line while searching"),
    ("illegal", "engine '{cmd}': 1-2 is not a legal move (position W"),
    ("error", "engine '{cmd}': the engine says: out of memory"),
    ("bad-pv", "engine '{cmd}': move 2 of the line: 50-45 is not a legal move"),
    ("long-line", "engine '{cmd}': it sent a line longer than 65536 bytes"),
    ("bad-score", "engine '{cmd}': score '1e999' is out of range"),
    ("init-error", "<stdin>:4:4: game 1, ply 1 (1. 32-28): engine '{cmd}': the engine says: cannot load data/eval"),
]


@pytest.mark.parametrize("mode, message", [
    pytest.param(mode, message, id=mode, marks=[pytest.mark.slow] if mode.startswith("silent") else [])
    for mode, message in ERRORS])                  # the silent ones wait out the 2 s timeout: slow
def test_an_engine_that_fails_is_one_line_naming_it_and_the_ply_exit_2_and_reaped(tmp_path, mode, message):
    pidfile = tmp_path / "pid"
    command = fake(mode, pidfile)
    timeout = 2 if mode.startswith("silent") else 30        # a slow start is not the fault tested
    result = annotate("--engine", command, "--engine-timeout", timeout)
    assert result.exit_code == 2
    assert result.stdout == ""                      # never a wrong annotation: the game is not written
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pdn: <stdin>:4:") and message.format(cmd=command) in lines[0]
    assert "Traceback" not in result.output
    assert gone(pidfile)


def test_an_ambiguous_capture_from_the_engine_is_an_error():
    result = annotate("--engine", fake("ambiguous"), input=AMBIGUOUS)
    assert result.exit_code == 2
    assert result.stderr.startswith("pdn: <stdin>:4:4: game 1, ply 1 (1. 1x29x20x9): engine '")
    # which of the ambiguous captures the search prefers is its tie order's business
    assert re.search(r": 1x\d+ names 2 captures: write the taken squares \(position WWeeeeebeeeeeebeeeeeeeeeb",
                     result.stderr)


def test_a_final_position_without_a_move_gets_no_evaluation():
    result = annotate("--engine", fake("ok"), input='[GameType "20"]\n[FEN "W:W28:B23"]\n\n1. 28x19 *\n')
    assert result.exit_code == 0 and "1. 28x19 *" in result.stdout and "%eval" not in result.stdout


def test_an_engine_that_does_not_play_the_variant_is_refused_naming_what_it_plays():
    english = (DATA / "variants").glob("21-*.pdn")
    result = annotate("--engine", fake("normal-only"), input=next(english).read_text(encoding="utf-8"))
    assert result.exit_code == 2
    assert "it does not play english (it plays normal)" in result.stderr


def test_the_games_before_a_failure_are_written_and_a_file_output_is_not(tmp_path):
    short = GAME.replace("19-23 2. 28x19 14x23 3. 37-32 10-14 ", "")      # one ply: two searches
    result = annotate("--engine", fake("dies"), input=short + "\n" + GAME)   # the third is game 2's first
    assert result.exit_code == 2 and "game 2, ply 1 (1. 32-28)" in result.stderr
    assert [len(game.main_line()) for game in read_text(result.stdout)] == [1]
    assert "[%eval" in result.stdout
    out = tmp_path / "out.pdn"
    result = annotate("--engine", fake("dies"), "-o", out, input=short + "\n" + GAME)
    assert result.exit_code == 2 and not out.exists()


@pytest.mark.parametrize("args, message", [
    (["--engine", ""], "the engine command is empty"),
    (["--engine", "'unclosed"], "No closing quotation"),
    (["--engine-depth", "3", "--fen"], "--engine-depth goes with --engine"),
    (["--engine", "x", "--engine-depth", "3", "--engine-time", "1"], "choose --engine-depth or --engine-time"),
])
def test_engine_options_that_do_not_fit_are_usage_errors(args, message):
    result = annotate(*args)
    assert result.exit_code == 2 and message in result.output


def test_the_engine_command_is_not_run_by_a_shell(tmp_path):
    marker, pidfile = tmp_path / "injected", tmp_path / "pid"
    result = annotate("--engine", f"{fake('ok', pidfile)} ; touch {marker} $(touch {marker})")
    assert result.exit_code == 0 and not marker.exists()        # ';', 'touch', ... are the fake's arguments
    assert gone(pidfile)


@pytest.mark.slow          # a pdn process and its engine process, interrupted
def test_ctrl_c_ends_the_command_and_the_engine(tmp_path):
    pidfile = tmp_path / "pid"
    process = subprocess.Popen([sys.executable, "-m", "pdn_tools", "annotate", "--engine", fake("silent", pidfile),
                                "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=ctrl_c_heard)
    process.stdin.write(GAME.encode())
    process.stdin.close()
    deadline = time.monotonic() + 30
    while not pidfile.exists() or not pidfile.read_text().strip():
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    assert process.wait(30) == -signal.SIGINT          # as Ctrl-C ends any program (a shell shows 130)
    assert b"Traceback" not in process.stderr.read()
    deadline = time.monotonic() + 5
    while not gone(pidfile):
        assert time.monotonic() < deadline, "the engine outlived pdn"
        time.sleep(0.05)


# ---- the annotations, as a class: random games of every variant, the engine in process ----------------------

def in_process(position, variant):
    """An engine in this process: the search 1 ply deep, as `pdn hub` answers."""
    result = search(position, 1)
    return Analysis(read_score(score_text(result.score, WIN)), result.line)


@settings(max_examples=40, deadline=None)
@given(random_games())
def test_engine_annotations_read_back_validate_and_annotating_twice_is_once(text):
    checked = check(read_text(text)[0])
    once, _ = annotate_game(checked, Annotations(), engine=in_process)
    twice, _ = annotate_game(check(read_text(once)[0]), Annotations(), engine=in_process)
    assert twice == once
    again = check(read_text(once)[0])
    assert again.record.ok == checked.record.ok
    if checked.replay is not None and checked.replay.ok:
        assert [p.move for p in again.replay.plies] == [p.move for p in checked.replay.plies]
        assert again.record.ok                        # the engine's lines replay: a bad one is an error
        with_moves = [p for p in again.replay.plies if p.after.has_move()]
        assert once.count("[%eval") >= len(with_moves)
    else:
        assert "[%eval" not in once                   # a game that is not valid passes unchanged
