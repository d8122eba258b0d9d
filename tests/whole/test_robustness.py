"""Damaged input never breaks reading, validating or converting: every game is reported,
problems are located errors, and the games around a damaged one are read as before."""
import dataclasses
import gzip
import io
import json
import contextlib
import os
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time

import pytest
from signals import ctrl_c_heard, ctrl_c_ignored
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from corpus import AVAILABLE, CORPUS, DATA, needs_corpus
from pdn_tools import ReadError, read_games
from pdn_tools.cli import cli
from pdn_tools.text.scanner import HOLD
from pdn_tools.text.model import Game
from pdn_tools.play.check import Problem, check
from pdn_tools.text.writer import terminator, write_game

SOURCES = [
    "english/OCA_2.0.pdn", "english/shashkispark-generated_here_1.pdn", "english/raven-sample.pdn",
    "english/games-checkers-British_Computer_Championship_2002.pdn", "international/horizon-bd-douai-ronde.pdn",
    "international/horizon-bd-truus20090418-1.pdn", "russian/games-checkers-abatsiev.pdn",
    "frisian/py-draughts-lidraughts-frisian.pdn", "czech/wiegerw-succeed-mrcd2006.pdn",
]
# The long fuzz: PDN_FUZZ_EXAMPLES=20000 pytest tests/whole/test_robustness.py tests/whole/test_round_trip.py (docs/testing.md).
EXAMPLES = int(os.environ.get("PDN_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, derandomize=EXAMPLES <= 200, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _samples() -> list[tuple[bytes, bytes]]:
    """(first game, the two games after it) as bytes, cut from real files at game starts
    (from the project's own fixtures when there is no corpus)."""
    out = []
    paths = [CORPUS / name for name in SOURCES] if AVAILABLE else sorted(DATA.rglob("*.pdn"))
    for path in paths:
        with open(path, "rb") as handle:
            data = handle.read(60_000)
        lines = data.splitlines(keepends=True)
        starts = [i for i, line in enumerate(lines) if line.startswith(b"[")
                  and (i == 0 or not lines[i - 1].startswith(b"["))]
        if len(starts) >= 4:
            out.append((b"".join(lines[:starts[1]]), b"".join(lines[starts[1]:starts[3]])))
        else:
            out.append((b"", data[:4000]))
    return out


SAMPLES = _samples()


@st.composite
def damaged(draw) -> tuple[bytes, bytes]:
    """A sample whose later games are damaged in one of the ways real files are."""
    first, rest = draw(st.sampled_from(SAMPLES))
    kind = draw(st.sampled_from(["flip", "truncate", "delete", "duplicate", "unicode", "line-ends"]))
    if kind == "flip":
        for _ in range(draw(st.integers(1, 8))):
            at = draw(st.integers(0, len(rest) - 1))
            rest = rest[:at] + bytes([rest[at] ^ (1 << draw(st.integers(0, 7)))]) + rest[at + 1:]
    elif kind == "truncate":
        rest = rest[:draw(st.integers(0, len(rest)))]
    elif kind in ("delete", "duplicate"):
        tokens = rest.split(b" ")
        at = draw(st.integers(0, len(tokens) - 1))
        tokens[at:at + 1] = [] if kind == "delete" else [tokens[at]] * draw(st.integers(2, 4))
        rest = b" ".join(tokens)
    elif kind == "unicode":
        at = draw(st.integers(0, len(rest)))
        rest = rest[:at] + draw(st.text(min_size=1, max_size=20)).encode("utf-8", "surrogatepass") + rest[at:]
    else:
        ending = draw(st.sampled_from([b"\r\n", b"\r", b"\n\r", b"", b"\n\n"]))
        rest = rest.replace(b"\r\n", b"\n").replace(b"\n", ending)
    return first, rest


def _content(game: Game | ReadError) -> tuple:
    if isinstance(game, ReadError):
        return game.line, game.column, game.message
    return game.tags, game.elements, game.result


def _located(problem: Problem) -> bool:
    return isinstance(problem.line, int) and isinstance(problem.column, int) and problem.line >= 1 \
        and problem.column >= 1 and bool(problem.message)


def _cli(args: list[str], data: bytes):
    result = CliRunner().invoke(cli, args, input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code in (0, 1), result.output
    return result


@pytest.mark.slow
@FUZZ
@given(damaged())
def test_damaged_games_are_reported_and_located(sample):
    first, rest = sample
    data = first + rest
    games = list(read_games(io.BytesIO(data), name="damaged.pdn"))
    strict = list(read_games(io.BytesIO(data), strict=True, name="damaged.pdn"))
    assert len(strict) == len(games)
    for game in games + strict:
        assert isinstance(game, (Game, ReadError))
        if isinstance(game, ReadError):
            assert game.line >= 1 and game.column >= 1 and str(game).startswith("damaged.pdn:")
        record = check(game).record
        assert all(_located(problem) for problem in record.errors)
    before = list(read_games(io.BytesIO(first)))
    if before and getattr(before[-1], "result", None) is not None:    # damage after a result stays after it
        assert [_content(g) for g in games[:len(before)]] == [_content(g) for g in before]
    records = [json.loads(line) for line in _cli(["validate", "--format", "jsonl", "-"], data).output.splitlines()]
    assert [r["game"] for r in records] == list(range(1, len(games) + 1))      # games in = games reported
    read_back = [dataclasses.replace(game, result=terminator(game)) for game in games if isinstance(game, Game)]
    for game in read_back:                                                  # write, read: the same game
        again = list(read_games(io.BytesIO(write_game(game).encode())))
        assert again == [game], write_game(game)
    written = "".join(write_game(game) for game in read_back * 2)           # and the same games, together
    assert list(read_games(io.BytesIO(written.encode()))) == read_back * 2, written
    assert "Traceback" not in _cli(["convert", "--keep-invalid", "-"], data).output
    for command in _FAST_PATHS:                 # each command's compiled path meets the same damage
        assert "Traceback" not in _cli([*command, "-"], data).output, command


# The commands with a path of their own on the compiled core (annotate_line, write_run, find_run, the
# movetext writers): a damaged game that reaches one must end as a report, never a traceback.
_FAST_PATHS = (["annotate", "--all", "--result"], ["convert", "--to", "jsonl"], ["convert", "--to", "fen"],
               ["convert", "--captures", "full", "--squares", "alpha"], ["dedupe"],
               ["filter", "--position", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"])


def _nested(depth: int, closed: bool = True) -> str:
    opened = "(1. 33-29 " * depth
    return '[GameType "20"]\n1. 32-28 ' + opened + (")" * depth if closed else "") + " 19-23 *\n"


@pytest.mark.slow
def test_ten_thousand_nested_variations_read_validate_and_convert():
    text = _nested(10_000) + _nested(2)
    games = list(read_games(io.BytesIO(text.encode())))
    assert [type(g) for g in games] == [Game, Game]
    assert check(games[0]).ok and check(games[1]).ok
    assert write_game(games[0]).count("(") == 10_000
    records = _cli(["validate", "--format", "jsonl", "-"], text.encode()).output.splitlines()
    assert len(records) == 2 and all(json.loads(line)["ok"] for line in records)
    converted = _cli(["convert", "-"], text.encode()).output
    assert converted.count("(") == 10_002


def test_unclosed_deep_nesting_is_a_located_error_and_the_next_game_is_read():
    text = _nested(10_000, closed=False) + _nested(1)
    games = list(read_games(io.BytesIO(text.encode())))
    assert isinstance(games[0], ReadError) and games[0].line == 2 and "unexpected" in games[0].message
    assert isinstance(games[1], Game) and check(games[1]).ok


@pytest.mark.slow          # the 50 MB are the point
def test_a_50_megabyte_line_is_read_as_one_game():
    size = 50 * 1024 * 1024
    comment = "x" * size
    text = f'[GameType "20"]\n1. 32-28 {{{comment}}} 19-23 * [GameType "20"] 1. 32-28 *\n'
    data = text.encode()
    del text, comment
    games = list(read_games(io.BytesIO(data)))
    assert [type(g) for g in games] == [Game, Game]
    assert len(games[0].elements[2].text) == size and check(games[0]).ok


def test_an_unclosed_comment_does_not_hold_the_rest_of_a_large_file():
    game = b'[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
    filler = b"%" + b"x" * 1000 + b"\n"
    data = b"{ never closed\n" + filler * (2 * HOLD // len(filler)) + game * 2
    start = time.process_time()
    games = list(read_games(io.BytesIO(data)))
    assert time.process_time() - start < 30
    assert len(games) == 2 and all(check(g).ok for g in games)
    assert (games[0].warnings[0].code, games[0].warnings[0].line) == ("unclosed", 1)


# ---- closed pipes and Ctrl-C ------------------------------------------------------------------

BIG = CORPUS / "english" / "OCA_2.0.pdn"
INTERRUPTED = -signal.SIGINT        # ended by Ctrl-C as any program: killed by SIGINT (a shell shows 130)
COMMAND = [sys.executable, "-c", "from pdn_tools.cli import main; main()", "validate", "--format", "jsonl"]


# One job, and two started each way (fork: Linux's default up to Python 3.13; forkserver: from 3.14).
JOBS = [["--jobs", "1"]] + [["--jobs", "2", "--start-method", method] for method in ("fork", "forkserver", "spawn")]


@pytest.mark.slow          # a pdn process reading a corpus file, with workers
@needs_corpus
@pytest.mark.parametrize("jobs", JOBS, ids=" ".join)
def test_closed_pipe_ends_quietly_with_workers(jobs):
    producer = subprocess.Popen(COMMAND + jobs + [str(BIG)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, preexec_fn=ctrl_c_heard)
    producer.stdout.readline()
    producer.stdout.close()
    _, err = producer.communicate(timeout=60)
    assert err == b"" and producer.returncode == 141            # as a process ended by SIGPIPE


@pytest.mark.slow          # a pdn process reading a corpus file, with workers
@needs_corpus
@pytest.mark.parametrize("jobs", JOBS, ids=" ".join)
def test_ctrl_c_ends_quietly_with_workers(jobs):
    producer = subprocess.Popen(COMMAND + jobs + [str(BIG)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, preexec_fn=ctrl_c_heard)
    producer.stdout.readline()                   # running: imports done, workers started
    os.killpg(producer.pid, signal.SIGINT)       # as a terminal sends it: to the whole group
    _, err = producer.communicate(timeout=60)
    assert b"Traceback" not in err and err.strip() == b"" and producer.returncode == INTERRUPTED


@pytest.mark.slow          # three pdn processes reading a corpus file
@needs_corpus
def test_ctrl_c_held_down_while_it_ends_still_ends_by_sigint():
    """Ctrl-C pressed again and again until the process is gone: the ones after the first land
    while it shuts down, where Python has given SIGINT back its default action (killed: -2)."""
    for _ in range(3):
        producer = subprocess.Popen(COMMAND + ["--jobs", "1", str(BIG)], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True, preexec_fn=ctrl_c_heard)
        producer.stdout.readline()
        while producer.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(producer.pid, signal.SIGINT)
            time.sleep(0.001)
        _, err = producer.communicate(timeout=60)
        assert (producer.returncode, err.strip()) == (INTERRUPTED, b"")


@needs_corpus
def test_ctrl_c_stops_a_shell_loop_over_files():
    """Bash goes on with a loop after a Ctrl-C unless the command was killed by SIGINT (an exit status
    of 130 let `for f in *.pdn; do pdn validate "$f"; done` go on to the next file)."""
    loop = f'for f in 1 2; do {shlex.join(COMMAND)} --jobs 1 {shlex.quote(str(BIG))}; echo next >&2; done'
    shell = subprocess.Popen(["bash", "-c", loop], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True, preexec_fn=ctrl_c_heard)
    shell.stdout.readline()
    os.killpg(shell.pid, signal.SIGINT)
    _, err = shell.communicate(timeout=60)
    assert (shell.returncode, err.strip()) == (INTERRUPTED, b"")


@needs_corpus
@pytest.mark.slow                   # two whole runs over OCA each: about 6 s
@pytest.mark.parametrize("start", [COMMAND, [sys.executable, "-m", "pdn_tools", "validate", "--format", "jsonl"]])
def test_a_ctrl_c_ignored_from_the_start_stays_ignored(start):
    """A script's background job starts with SIGINT ignored, so that Ctrl-C at the terminal reaches the
    foreground alone (as Python leaves it, and as SIGTERM/SIGHUP under nohup): pdn goes on to the end."""
    expected = subprocess.run(start + [str(BIG)], capture_output=True, timeout=120)
    producer = subprocess.Popen(start + [str(BIG)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, preexec_fn=ctrl_c_ignored)
    first = producer.stdout.readline()
    os.killpg(producer.pid, signal.SIGINT)
    rest = producer.stdout.read()           # through the reader's buffer (communicate would skip it)
    err = producer.stderr.read()
    assert (producer.wait(120), err, first + rest) == (expected.returncode, b"", expected.stdout)


# What the `pdn` script does, with a mark once its entry module (two imports) is in.
STARTING = [sys.executable, "-c", "import sys; from pdn_tools.__main__ import main; "
            "print('loading', flush=True); sys.argv[0] = 'pdn'; main()"]


@needs_corpus
@pytest.mark.parametrize("delay", [0.0, 0.02, 0.05, 0.1, 0.2])
def test_ctrl_c_while_loading_ends_quietly(delay):
    """Interrupted while its modules load (once Python itself has started): no traceback."""
    producer = subprocess.Popen(STARTING + ["validate", str(BIG)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, preexec_fn=ctrl_c_heard)
    assert producer.stdout.readline() == b"loading\n"
    time.sleep(delay)
    os.killpg(producer.pid, signal.SIGINT)
    _, err = producer.communicate(timeout=60)
    assert b"Traceback" not in err and err.strip() == b"" and producer.returncode == INTERRUPTED, err


# A signal delivered as the module MODULE loads (as the command line loads, `pdn_tools.cli`, or later as a
# command runs, `pdn_tools.running.batch`), at the PLACE: while a class is made whose attribute is named
# (two failures seen: `RuntimeError: Error calling __set_name__`, Python 3.11); where Python cannot
# raise a KeyboardInterrupt, which is only "ignored" there: in a weakref callback (an import lock's, as a
# command's modules load: a CI run then went on to validate the whole file), in a `__del__`, in a
# collector's callback.  Reproduced without timing.
INTERRUPTED_AS_A_MODULE_LOADS = """
import gc, importlib.abc, importlib.util, os, signal, sys, weakref
sys.argv[1:] = ["validate", os.devnull]

def interrupt(*args):
    os.kill(os.getpid(), signal.SIGNAL)     # its handler runs before this function returns
    sum(range(1000))

class Interrupting:
    def __set_name__(self, owner, name):
        interrupt()

class Dying:
    def __del__(self):
        interrupt()

def collected(phase, info):
    gc.callbacks.remove(collected)
    interrupt()

class Thing:
    pass

def class_made():
    class Made:
        attribute = Interrupting()

def weakref_callback():
    thing = Thing()
    ref = weakref.ref(thing, interrupt)
    del thing

def finalizer():
    Dying()

def collector_callback():
    gc.callbacks.append(collected)
    gc.collect()

class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "MODULE":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        load = spec.loader.exec_module

        def exec_module(module):
            PLACE()
            load(module)
        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Finder())
from pdn_tools.__main__ import main
main()
print("ran: the interrupt was lost")
"""


def _interrupted_as_a_module_loads(module: str, place: str, signum: signal.Signals) -> subprocess.CompletedProcess:
    script = INTERRUPTED_AS_A_MODULE_LOADS.replace("MODULE", module).replace("PLACE", place)
    return subprocess.run([sys.executable, "-c", script.replace("SIGNAL", signum.name)], capture_output=True,
                          timeout=60, preexec_fn=ctrl_c_heard)


@pytest.mark.parametrize("module, signum", [("pdn_tools.cli", signal.SIGINT),
                                            ("pdn_tools.running.batch", signal.SIGINT),
                                            ("pdn_tools.running.batch", signal.SIGTERM)])
def test_a_signal_while_a_class_is_made_during_an_import_ends_quietly(module, signum):
    done = _interrupted_as_a_module_loads(module, "class_made", signum)
    assert (done.returncode, done.stdout, done.stderr.strip()) == (-signum, b"", b"")   # click ends a line it cut


@pytest.mark.parametrize("place", ["weakref_callback", "finalizer", "collector_callback"])
@pytest.mark.parametrize("module, signum", [("pdn_tools.cli", signal.SIGINT), ("pdn_tools.running.batch", signal.SIGINT),
                                            ("pdn_tools.running.batch", signal.SIGTERM),
                                            ("pdn_tools.running.batch", signal.SIGHUP)])
def test_a_signal_landing_where_python_cannot_raise_it_still_ends_the_run(module, signum, place):
    """Before, a Ctrl-C there was lost (the run went on to its end, exit 0), and a SIGTERM or SIGHUP was
    printed as 'Exception ignored in: ... Terminated' and lost too."""
    done = _interrupted_as_a_module_loads(module, place, signum)
    assert (done.returncode, done.stdout, done.stderr.strip()) == (-signum, b"", b"")


# A Ctrl-C delivered as the entry point calls STEP: the noted one (the loading handler still in), or
# one that lands in the command line's own handler before the command runs (two failures seen).
INTERRUPTED_AT_A_STEP = """
import os, signal, sys
from pdn_tools.__main__ import main
from pdn_tools.running import MODULE
step = MODULE.STEP

def interrupted_first(*args):
    os.kill(os.getpid(), signal.SIGINT)
    return step(*args)

MODULE.STEP = interrupted_first
sys.argv[1:] = ["validate", os.devnull]
main()
print("ran: the interrupt was lost")
"""


@pytest.mark.parametrize("step", ["signals.end_on_first_interrupt", "output.guard_standard_streams",
                                  "output.name_stdout_errors", "signals.clean_up_on_signals"])
def test_ctrl_c_at_each_step_of_the_start_ends_quietly(step):
    module, name = step.split(".")
    script = INTERRUPTED_AT_A_STEP.replace("MODULE", module).replace("STEP", name)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60, preexec_fn=ctrl_c_heard)
    assert (done.returncode, done.stdout, done.stderr.strip()) == (INTERRUPTED, b"", b"")


NAMED = ('[Event "Café ∑"]\n[White "Müller"]\n[Black "Лиепая"]\n[Result "1-0"]\n[GameType "20"]\n\n'
         '1. 32-28 {Ж} 19-23 2. 28x19 14x23 1-0\n\n[Event "Zoë"]\n[GameType "20"]\n\n1. 32-28 19-51 *\n')
STDOUT_COMMANDS = [["list"], ["filter", "--tag", "White=Müller"], ["validate"], ["validate", "--format", "jsonl"],
                   ["validate", "--format", "html"], ["convert", "--to", "pdn"], ["convert", "--to", "jsonl"],
                   ["convert", "--to", "fen"], ["convert", "--squares", "alpha"], ["annotate", "--all"],
                   ["stats"], ["stats", "--format", "json"], ["stats", "--format", "html"], ["dedupe"],
                   ["diagram", "--format", "text"], ["diagram", "--format", "svg"]]


@pytest.mark.slow          # pdn processes
@pytest.mark.parametrize("command", STDOUT_COMMANDS, ids=" ".join)
def test_stdout_is_utf8_whatever_the_locale(tmp_path, command):
    """A locale that cannot encode the games' names (ASCII, Latin-1): stdout holds the UTF-8 bytes
    that `-o FILE` writes, in one encoding, never a traceback."""
    source = tmp_path / "named.pdn"
    source.write_text(NAMED if command[0] != "diagram" else NAMED.split("\n\n[Event")[0] + "\n",
                      encoding="utf-8")
    written = tmp_path / "written"
    run = [*PDN, *command, str(source)]
    by_file = subprocess.run([*run, "-o", str(written)], capture_output=True)
    for encoding in ("ascii", "latin-1"):
        env = {**os.environ, "PYTHONIOENCODING": encoding, "LC_ALL": "C", "LANG": "C"}
        done = subprocess.run(run, capture_output=True, env=env)
        assert (done.returncode, b"Traceback" in done.stderr) == (by_file.returncode, False), done.stderr
        assert done.stdout == written.read_bytes().replace(b" -o " + bytes(written), b"")  # a page quotes its command


NO_TEMPORARY = """
import sys, tempfile
tempfile.tempdir = "/proc"          # TMPDIR a folder nothing can be made in (not even by root)
sys.argv = ["pdn", *sys.argv[1:]]
from pdn_tools.__main__ import main
main()
"""


@pytest.mark.parametrize("output", [[], ["-o", "out"]], ids=["stdout", "-o"])
@pytest.mark.parametrize("command", [["validate", "--format", "html"], ["annotate", "--engine", "ENGINE", "--all"]],
                         ids=" ".join)
def test_a_temporary_file_that_cannot_be_made_is_one_line_and_exit_2(tmp_path, command, output):
    """No usable temporary folder (TMPDIR and /tmp full, read-only or missing): `pdn validate --format html`
    ended in a FileNotFoundError traceback, exit 1, and annotate --engine -o OUT said `cannot write OUT: No
    such file or directory`; it is a file that cannot be written: `pdn: cannot write a temporary file:
    REASON`, exit 2, and nothing written."""
    (tmp_path / "games.pdn").write_text('[GameType "21"]\n\n1. 11-15 24-20 2. 15-19 *\n', encoding="utf-8")
    engine = f"{sys.executable} -m pdn_tools hub"
    done = subprocess.run([sys.executable, "-c", NO_TEMPORARY, *[engine if word == "ENGINE" else word for word in command],
                           "games.pdn", *output], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
                          cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "") and done.stderr.startswith("pdn: cannot write a temporary file: ")
    assert len(done.stderr.splitlines()) == 1 and sorted(os.listdir(tmp_path)) == ["games.pdn"]


# ---- files named on the command line that are not regular files ----------------------------------

PDN = [sys.executable, "-m", "pdn_tools"]
GOOD = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
BAD = '[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n\n'


def _feed(fifo, data: bytes) -> threading.Thread:
    """A thread that writes `data` to the FIFO `fifo` once a reader opens it."""
    def write() -> None:
        with open(fifo, "wb") as stream:
            stream.write(data)
    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _records(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


@pytest.mark.parametrize("packed", [False, True])
def test_a_fifo_named_on_the_command_line_is_read_as_a_stream(tmp_path, packed):
    """`pdn validate <(zcat x.pdn.gz)` names a FIFO: its games are read (compressed or not),
    every one reported, errors located in it."""
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    data = (GOOD + BAD + GOOD).encode()
    writer = _feed(fifo, gzip.compress(data) if packed else data)
    done = subprocess.run(PDN + ["validate", "--format", "jsonl", str(fifo)], capture_output=True, text=True,
                          timeout=60)
    writer.join(timeout=60)
    records = _records(done.stdout)
    assert (done.returncode, done.stderr) == (1, "")
    assert [(r["file"], r["game"], r["ok"]) for r in records] == [(str(fifo), 1, True), (str(fifo), 2, False),
                                                                 (str(fifo), 3, True)]
    error = records[1]["errors"][0]
    assert (error["line"], error["column"], error["ply"]) == (5, 19, 3)
    assert error["message"] == "'51' is not a square of the international board"


@pytest.mark.slow          # a pdn process per command
def test_dev_stdin_and_process_substitution_are_read(tmp_path):
    source = tmp_path / "games.pdn.gz"
    source.write_bytes(gzip.compress((GOOD + BAD).encode()))
    piped = subprocess.run(PDN + ["validate", "/dev/stdin"], input=(BAD + GOOD).encode(), capture_output=True,
                           timeout=60)
    assert piped.returncode == 1 and piped.stdout.decode() == ("/dev/stdin:2:19: game 1, ply 3 (move 2. 28x51): "
                                                               "'51' is not a square of the international board "
                                                               "[bad-square]\n")
    if shutil.which("bash"):
        command = " ".join(PDN) + f" validate --format jsonl <(zcat {source}) {source}"
        done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
        records = _records(done.stdout)
        assert done.returncode == 1 and [r["ok"] for r in records] == [True, False, True, False]
        assert records[0]["file"].startswith("/dev/fd/") and records[2]["file"] == str(source)


@pytest.mark.slow          # a pdn process per command
def test_a_fifo_is_not_rewritten_in_place_nor_waited_for(tmp_path):
    """Rewriting needs a regular file: a FIFO named with --in-place is reported, never opened."""
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    for args in (["convert", "--in-place"], ["convert", "--in-place", "--fix-results"]):
        done = subprocess.run(PDN + args + [str(fifo)], capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stderr) == (2, f"pdn: cannot read {fifo}: not a regular file\n")
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


# ---- standard streams closed or full ------------------------------------------------------------

def _started_with(stream: str):
    """What the child starts with: descriptor 0, 1 or 2 closed (`2>&-`) or stderr on /dev/full."""
    if stream == "full":
        return {"stderr": open("/dev/full", "wb")}
    closing = {"stdin": 0, "stdout": 1, "stderr": 2}[stream]
    return {"preexec_fn": lambda: os.close(closing)}


def _pdn(args: list[str], stream: str, **extra):
    started = _started_with(stream)
    if stream != "stdout":
        extra.setdefault("stdout", subprocess.PIPE)
    if stream not in ("stderr", "full"):
        extra.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(PDN + args, timeout=120, **started, **extra)


@pytest.mark.slow          # out of the fast subset (a subprocess per command); CI runs it
@pytest.mark.parametrize("stream", ["stderr", "full"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_or_full_stderr_loses_messages_not_output_nor_the_exit_code(tmp_path, stream, jobs):
    """stats reports the invalid game on stderr: the message is lost, the table on stdout is
    whole and the exit code says the game was invalid (no traceback, no hang)."""
    source = tmp_path / "games.pdn"
    source.write_text(GOOD + BAD + GOOD)
    stats = _pdn(["stats", "--jobs", jobs, "--format", "json", str(source)], stream)
    assert stats.returncode == 1 and json.loads(stats.stdout)["games"] == 3
    validated = _pdn(["validate", "--jobs", jobs, "--format", "jsonl", str(source)], stream)
    assert validated.returncode == 1 and [r["ok"] for r in _records(validated.stdout.decode())] == [True, False, True]


@pytest.mark.slow          # a pdn process per command
@pytest.mark.parametrize("stream", ["stderr", "full"])
def test_a_lost_message_makes_a_successful_run_exit_2_and_damages_nothing(tmp_path, stream):
    """--in-place says on stderr that a Latin-1 file was rewritten as UTF-8: the file is rewritten
    whole (no message written into it), and the lost message turns exit 0 into 2 (documented)."""
    source = tmp_path / "games.pdn"
    source.write_bytes('[White "Coração"]\n1. 32-28 19-23 *\n'.encode("latin-1"))
    assert _pdn(["convert", "--in-place", str(source)], stream).returncode == 2
    assert source.read_text(encoding="utf-8") == '[White "Coração"]\n[GameType "20,W,10,10,N2,0"]\n\n1. 32-28 19-23 *\n\n'
    quiet = _pdn(["validate", "--format", "jsonl", str(source)], stream)       # nothing for stderr: 0
    assert quiet.returncode == 0 and _records(quiet.stdout.decode())[0]["ok"]


def test_a_closed_stdout_is_one_line_exit_2():
    done = _pdn(["validate", "--format", "jsonl", "-"], "stdout", input=GOOD.encode())
    assert (done.returncode, done.stderr) == (2, b"pdn: cannot write <stdout>: Bad file descriptor\n")


def test_a_closed_stdin_is_an_unreadable_input():
    done = _pdn(["validate", "-"], "stdin")
    assert (done.returncode, done.stdout, done.stderr) == (2, b"", b"pdn: cannot read -: Bad file descriptor\n")
