"""Properties every reading command keeps: a game over --max-game-bytes is accounted for (games in =
games reported), and --rules reaches every command that replays games."""
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from signals import ctrl_c_heard

from pdn_tools import read_text
from pdn_tools.cli import cli

CEILING = "200"
_GAME = '[Event "{event}"]\n[White "w"]\n[Black "b"]\n[Result "*"]\n[GameType "20"]\n\n{comment}1. 32-28 19-23 *\n\n'
BIG = "game 2: game longer than 200 characters: not read (--max-game-bytes) [game-too-large]"


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [*map(str, args)], input=input)


def three_games(folder: Path) -> Path:
    """A file of three games, the second over the ceiling (its comment alone is 400 characters)."""
    path = folder / "three.pdn"
    path.write_text(_GAME.format(event="a", comment="") + _GAME.format(event="big", comment="{" + "z" * 400 + "} ")
                    + _GAME.format(event="c", comment=""))
    return path


def events(text: str) -> list[str]:
    return [game.tag("Event") for game in read_text(text)]


# Each reading command with what its output says of the three games: the big one is not in it, or (list,
# stats) is counted in it.
COMMANDS = {
    "list": ([], lambda out, _: [line.split("\t")[7] for line in out.splitlines()[1:]] == ["a", "big", "c"]),
    "filter": ([], lambda out, _: events(out) == ["a", "c"]),
    "filter --valid": (["--valid"], lambda out, _: events(out) == ["a", "c"]),
    "filter --player": (["--player", "w"], lambda out, _: events(out) == ["a", "c"]),
    "dedupe": (["--by", "moves+tags"], lambda out, _: events(out) == ["a", "c"]),
    "dedupe --report": (["--report"], lambda out, _: out.count("duplicate of") == 1),
    "stats": (["--format", "json"], lambda out, _: (json.loads(out)["games"], json.loads(out)["invalid"]) == (3, 1)),
    "validate": ([], lambda out, _: len(out.splitlines()) == 1),      # its report is its output
    "convert": ([], lambda out, _: events(out) == ["a", "c"]),
    "convert --keep-invalid": (["--keep-invalid"], lambda out, _: events(out) == ["a", "c"]),
    "annotate": (["--ply-count"], lambda out, _: events(out) == ["a", "c"]),
    "split": (["-o", "{tmp}/parts"], lambda _, tmp: sorted(p.name for p in (tmp / "parts").iterdir())
              == ["game-00001.pdn", "game-00002.pdn"]),
}


@pytest.mark.parametrize("name", COMMANDS)
def test_a_game_over_the_ceiling_is_reported_by_every_reading_command(tmp_path, name):
    """Three games in, three accounted for: the one over --max-game-bytes is named on stderr at its
    line, the run exits 1, and the output has the other two (nothing in its place: no blank game, no
    empty file) or counts all three."""
    extra, holds = COMMANDS[name]
    path = three_games(tmp_path)
    command = name.split()[0]
    args = [a.format(tmp=tmp_path) for a in extra]
    result = invoke(command, "--max-game-bytes", CEILING, *args, path)
    assert result.exit_code == 1, result.output
    assert (result.stdout + result.stderr).splitlines().count(f"{path}:9:1: {BIG}") == 1, result.stderr
    assert holds(result.stdout, tmp_path) and "\n\n\n" not in result.stdout, result.stdout


def test_games_over_the_ceiling_are_not_duplicates_of_each_other(tmp_path):
    """Their text is not read, so nothing says they are the same game: dedupe keys each by its place."""
    path = tmp_path / "two.pdn"
    path.write_text(2 * _GAME.format(event="big", comment="{" + "z" * 400 + "} "))
    result = invoke("dedupe", "--report", "--max-game-bytes", CEILING, path)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.count("[game-too-large]") == 2


def test_diagram_reports_the_game_over_the_ceiling_and_draws_the_others(tmp_path):
    path = three_games(tmp_path)
    big = invoke("diagram", "--max-game-bytes", CEILING, "--game", 2, path)
    assert (big.exit_code, big.stderr, big.stdout) == (1, f"{path}:9:1: {BIG}\n", "")
    assert invoke("diagram", "--max-game-bytes", CEILING, "--game", 3, path).exit_code == 0


def test_in_place_keeps_a_file_with_a_game_over_the_ceiling(tmp_path):
    """The game's text is not kept, so it cannot pass through: the file is left as it was, even with
    --keep-invalid (it used to lose the game)."""
    path = three_games(tmp_path)
    before = path.read_bytes()
    result = invoke("convert", "--in-place", "--keep-invalid", "--max-game-bytes", CEILING, path)
    assert result.exit_code == 1 and f"pdn: {path} left unchanged" in result.stderr
    assert path.read_bytes() == before


# ---- --rules wherever games are replayed -----------------------------------------------------------

# English kings shuffling for 25 king moves, then Black (first player) wins: drawn by seed 001 line 52
# ("Se han realizado 25 movimientos sin avanzar una ficha o realizar una captura"), so a wrong-result
# under the seeds; a claim at most under --rules wcdf (reference §4.3: 40 moves each), so valid.
def english_walk() -> str:
    from boards import pdn, setup, wander
    start = setup("english", "W", "Ka1 Kc1", "Kf8 Kh8")
    return pdn(start, wander(start, 25), "1-0") + "\n"


# Every command that replays games, with what its output says of the game when it is valid.
REPLAYING = {
    "validate": ([], lambda out: out == ""),
    "filter": (["--valid"], lambda out: len(read_text(out)) == 1),
    "dedupe": ([], lambda out: len(read_text(out)) == 1),
    "stats": (["--format", "json"], lambda out: json.loads(out)["valid"] == 1),
    "convert": (["--to", "jsonl"], lambda out: json.loads(out)["errors"] == []),
    "annotate": (["--ply-count"], lambda out: '[PlyCount "25"]' in out),
    "split": (["-o", "{tmp}/parts"], lambda out: out.endswith("game-00001.pdn\n")),
    "diagram": ([], lambda out: out != ""),
}


@pytest.mark.parametrize("command", REPLAYING)
def test_every_replaying_command_checks_results_by_the_rules_given(tmp_path, command):
    extra, valid = REPLAYING[command]
    args = [command, *(a.format(tmp=tmp_path) for a in extra), "-"]
    seeds = invoke(*args, input=english_walk())
    assert seeds.exit_code == 1
    assert "drawn on the board by the 25-move rule after ply 25 [wrong-result]" in seeds.stdout + seeds.stderr
    args = [command, "--rules", "wcdf", *(a.format(tmp=tmp_path) for a in extra), "-"]
    if command == "split":
        args.insert(1, "--force")
    wcdf = invoke(*args, input=english_walk())
    assert wcdf.exit_code == 0, wcdf.output
    assert "[wrong-result]" not in wcdf.stdout + wcdf.stderr and valid(wcdf.stdout)


def test_list_reads_tags_only_so_has_no_rules():
    assert "--rules" not in invoke("list", "--help").output
    assert invoke("list", "--rules", "wcdf", "-", input=english_walk()).exit_code == 2


def test_the_dask_entry_point_takes_the_rules_and_the_ceiling(tmp_path):
    pytest.importorskip("distributed")
    from distributed import Client
    from pdn_tools.rules.variants import RULE_SETS
    from pdn_tools.running.distributed import validate

    walk = tmp_path / "walk.pdn"
    walk.write_text(english_walk())
    path = three_games(tmp_path)
    with Client(processes=False, dashboard_address=None) as client:
        assert [r.ok for r in validate(client, [str(walk)])] == [False]
        assert [r.ok for r in validate(client, [str(walk)], rules=RULE_SETS["wcdf"])] == [True]
        records = list(validate(client, [str(path)], max_game_bytes=int(CEILING)))
    assert [r.ok for r in records] == [True, False, True]
    assert records[1].errors[0].code.value == "game-too-large"


# ---- annotate --gametype writes the GameType convert writes -----------------------------------------

SAMPLES = Path(__file__).parents[2] / "samples"


@pytest.mark.parametrize("variant", sorted(p.stem for p in SAMPLES.glob("*.pdn")))
def test_annotate_adds_the_full_gametype_convert_writes(variant):
    """A game without GameType, replayed as `variant`: annotate --gametype adds the tag canonical PDN
    carries (the full form, its notation that of the moves), the one convert writes, not a bare number."""
    from pdn_tools.rules.variants import variant_by_name
    text = "".join(line for line in (SAMPLES / f"{variant}.pdn").read_text().splitlines(keepends=True)
                   if not line.startswith("[GameType"))
    converted = invoke("convert", "--variant", variant, "-", input=text)
    annotated = invoke("annotate", "--gametype", "--variant", variant, "-", input=text)
    assert converted.exit_code == annotated.exit_code == 0, converted.output + annotated.output
    written = [game.tag("GameType") for game in read_text(converted.stdout)]
    added = [game.tag("GameType") for game in read_text(annotated.stdout)]
    assert added == written and len(added) >= 1
    assert added[0] == variant_by_name(variant).gametype_text()
    assert annotated.stderr.startswith(f"<stdin>:1: game 1: GameType {added[0]} added (")


# ---- convert --keep-invalid with a style: the kept games are said to be as read -----------------------

MIXED = '[GameType "20"]\n1. 32-28 19-23 *\n\n[GameType "20"]\n1. 32-28 32-27 *\n\n[GameType "20"]\n1. 33-28 *\n'


@pytest.mark.parametrize("style", [["--squares", "alpha"], ["--captures", "full"], ["--separator", ":"],
                                   ["--captures", "short", "--drop", "comments"],
                                   ["--squares", "alpha", "--fix-results"]])
def test_keep_invalid_with_a_style_writes_the_others_and_names_what_the_kept_game_did_not_get(style):
    """A game that does not replay cannot be rewritten: --keep-invalid passes it through as read (its own
    GameType and squares, so it reads back as itself), the others are rewritten, and stderr says which
    game kept its text and which options it did not get."""
    result = invoke("convert", *style, "--keep-invalid", "-", input=MIXED)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "<stdin>:5:10: game 2, ply 2 (move 1... 32-27): 32-27: no piece on 32 [illegal-move]",
        f"<stdin>:4: game 2: passed through as read (--keep-invalid), not rewritten by {' '.join(style)}"]
    games = read_text(result.stdout)
    assert [game.main_line()[-1].squares for game in games][1] == ("32", "27")     # as read
    if "alpha" in style:
        assert [game.tag("GameType") for game in games] == ["20,W,10,10,A0,0", "20", "20,W,10,10,A0,0"]
        assert "1. d4-e5 g7-f6 *" in result.stdout and "1. 32-28 32-27 *" in result.stdout


def test_keep_invalid_alone_adds_no_note():
    result = invoke("convert", "--keep-invalid", "-", input=MIXED)
    assert result.exit_code == 1 and "passed through" not in result.stderr


@pytest.mark.parametrize("to, options, refused", [
    ("fen", ["--captures", "full"], "--captures changes"), ("fen", ["--separator", ":"], "--separator changes"),
    ("fen", ["--drop", "nags"], "--drop changes"), ("jsonl", ["--drop", "comments"], "--drop changes"),
    ("fen", ["--captures", "short", "--drop", "variations"], "--captures and --drop change")])
def test_a_style_option_the_output_does_not_show_is_a_usage_error(to, options, refused):
    """--to fen writes positions, --to jsonl the main line's moves: an option that would change what
    neither shows (capture style, comments, NAGs, variations) was silently ignored; now refused."""
    result = invoke("convert", "--to", to, *options, "-", input=MIXED)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"pdn: --to {to} does not write what {refused}\n"


@pytest.mark.parametrize("to, options", [("fen", ["--squares", "alpha"]), ("jsonl", ["--separator", ":"]),
                                         ("jsonl", ["--squares", "alpha"])])
def test_a_style_option_the_output_shows_changes_it(to, options):
    text = MIXED.replace("1. 33-28 *", "1. 32-28 19-23 2. 28x19 *")        # a capture
    plain = invoke("convert", "--to", to, "-", input=text)
    styled = invoke("convert", "--to", to, *options, "-", input=text)
    assert styled.exit_code == plain.exit_code == 1 and styled.stdout != plain.stdout


# ---- convert --fix-results honours --jobs -------------------------------------------------------------------

_FIXABLE = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "0-2"]\n\n1. 28x19 0-2\n\n'       # Black has nothing left
_RIGHT = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "2-0"]\n\n1. 28x19 2-0\n\n'
_ILLEGAL = '[GameType "20"]\n[Result "*"]\n\n1. 32-28 32-27 *\n\n'


@pytest.mark.parametrize("where", ["stdout", "-o", "--in-place"])
def test_fix_results_on_workers_writes_what_one_job_writes(tmp_path, monkeypatch, where):
    """--fix-results used to run in this process whatever --jobs said: the games of a file are fixed on
    the workers now, in batches, and the bytes written, the notes and the exit code are one job's."""
    from pdn_tools.commands import fix_results

    text = "".join((_FIXABLE, _RIGHT, _ILLEGAL)[i % 3] for i in range(450))      # three batches of 200 games
    pids = tmp_path / "pids"
    fix_game = fix_results.fix_game

    def recorded(*args, **kwargs):
        with open(pids, "a") as out:
            out.write(f"{os.getpid()}\n")
        return fix_game(*args, **kwargs)

    monkeypatch.setattr(fix_results, "fix_game", recorded)
    outcomes = []
    for jobs in ("1", "2"):
        path = tmp_path / f"games-{jobs}.pdn"
        path.write_text(text)
        out = tmp_path / f"out-{jobs}.pdn"
        args = {"stdout": [], "-o": ["-o", out], "--in-place": ["--in-place"]}[where]
        pids.write_text("")
        result = invoke("convert", "--fix-results", "--jobs", jobs, *args, path)
        written = {"stdout": lambda: result.stdout, "-o": out.read_text, "--in-place": path.read_text}[where]()
        outcomes.append((result.exit_code, written, result.stderr.replace(str(path), "PATH")))
        workers = set(pids.read_text().split())
        assert len(pids.read_text().split()) == 450
        assert workers == {str(os.getpid())} if jobs == "1" else str(os.getpid()) not in workers
    assert outcomes[0] == outcomes[1]
    code, written, notes = outcomes[0]
    assert code == 1 and written.count('[Result "2-0"]') == 300 and written.count("0-2") == 0
    assert notes.count("[illegal-move]") == 150


# ---- no Hub engine outlives the run that started it ----------------------------------------------------------

FAKE_HUB = Path(__file__).parents[1] / "data" / "fake_hub.py"


def ended(pid: int) -> bool:
    """Whether process `pid` has ended: gone, or a zombie (an orphan waits there for init to reap it)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return any(line.split() == ["State:", "Z", "(zombie)"] for line in status)
    except FileNotFoundError:
        return True


def engines_started(folder: Path, process: subprocess.Popen) -> list[int]:
    """The ids of the fake engines started so far, once there is one (the fake writes its id in `folder`)."""
    deadline = time.monotonic() + 30
    while not any(folder.iterdir()):
        assert time.monotonic() < deadline and process.poll() is None, process.stderr.read()
        time.sleep(0.05)
    time.sleep(0.3)                     # the engine is in its search: the fake never answers one
    return [int(path.name) for path in folder.iterdir()]


def annotating_with_a_silent_engine(tmp_path: Path, jobs: str) -> tuple[subprocess.Popen, Path]:
    folder = tmp_path / "engines"
    folder.mkdir()
    games = tmp_path / "games.pdn"
    games.write_text('[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' * 4)
    engine = shlex.join([sys.executable, str(FAKE_HUB), "silent", str(folder)])
    process = subprocess.Popen([sys.executable, "-m", "pdn_tools", "annotate", "--jobs", jobs, "--engine", engine,
                                str(games)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ctrl_c_heard)
    return process, folder


def outlived(pids: list[int]) -> list[int]:
    """Those of `pids` still running 5 s on (killed then, so that a failing test leaves none)."""
    deadline = time.monotonic() + 5
    while not all(map(ended, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in pids if not ended(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_the_engines_end_with_the_run_when_it_is_interrupted(tmp_path, jobs, signum):
    """Ctrl-C or SIGTERM while a worker's engine searches: the run ends by that signal, and so does the
    engine (a worker's used to be left running: the worker waited for its answer, then was killed)."""
    process, folder = annotating_with_a_silent_engine(tmp_path, jobs)
    engines = engines_started(folder, process)
    process.send_signal(signum)
    assert process.wait(30) == -signum
    assert b"Traceback" not in process.stderr.read()
    assert outlived(engines) == []


# Kings on both sides whose capture chains make a search of depth 1 visit some 62 million positions
# (25-40 s on the compiled core) and --shots' depth 3 far more: with a node budget of a billion, minutes.
KINGS = "B:WK1,K2,6,K8,K13,15,K17,K19,24,26,29,30,33,K36,38,41,K42,K45,50:BK5,7,K10,K14,16,K20,22,K27,K28,K32,34,37"


@pytest.mark.slow       # a pdn process searching for a few seconds
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("command", [["annotate", "--shots", "--nodes", "1000000000", "{games}"],
                                     ["perft", "--variant", "international", "--depth", "13", "--divide"]])
def test_a_long_search_ends_at_ctrl_c_or_sigterm(tmp_path, command, signum):
    """Ctrl-C or SIGTERM while --shots' search or perft runs in the compiled core: the run ends by that
    signal at once (the search looks at signals every STOP_EVERY nodes, perft takes the GIL back to look
    every SIGNALS_EVERY nodes; both used to hear them only when they returned, here after minutes).  perft
    with --divide: one core call of depth 12 for its first move; without it, each depth is a call of its
    own, and the signal was heard at the end of the depth running."""
    games = tmp_path / "kings.pdn"
    games.write_text(f'[GameType "20"]\n[SetUp "1"]\n[FEN "{KINGS}"]\n\n1... 22x11 *\n')
    process = subprocess.Popen([sys.executable, "-m", "pdn_tools", *(arg.format(games=games) for arg in command)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ctrl_c_heard)
    time.sleep(3)                       # searching by now
    assert process.poll() is None
    process.send_signal(signum)
    try:
        code = process.wait(10)
    finally:
        process.kill()
    assert code == -signum
    assert b"Traceback" not in process.stderr.read()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_worker_ends_the_run_in_one_line_and_its_engine_with_it(tmp_path):
    """A worker killed (by the kernel when memory runs out, by a user) while its engine searches: the
    run says so in one line, exit 2 (it was a traceback, exit 1), and the engine ends with it."""
    process, folder = annotating_with_a_silent_engine(tmp_path, "2")
    engines = engines_started(folder, process)
    with open(f"/proc/{engines[0]}/stat") as stat:
        worker = int(stat.read().rsplit(")", 1)[1].split()[1])
    assert worker != process.pid
    os.kill(worker, signal.SIGKILL)
    assert process.wait(30) == 2
    assert process.stderr.read().decode() == (
        "pdn: a worker process ended in the middle of its work (killed, or out of memory): the output is not "
        "complete\n")
    assert outlived(engines) == []
