"""--jobs whatever way its worker processes start: fork (Linux's default up to Python 3.13), forkserver
(the default from 3.14) or spawn.  Every command that takes --jobs writes, byte for byte, what --jobs 1
writes, over small files grouped into tasks, a file cut into byte ranges and stdin split here; the
workers end with the main process, and Ctrl-C ends a run quietly, however they started."""
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from processes import descendants, ended, feed, wait_until
from signals import ctrl_c_heard

from pdn_tools.cli import cli
from pdn_tools.running import pool

METHODS = [method for method in ("fork", "forkserver", "spawn") if method in multiprocessing.get_all_start_methods()]
PDN = [sys.executable, "-m", "pdn_tools"]
COMMAND = [sys.executable, "-c", "from pdn_tools.cli import main; main()"]     # no main module for spawn to load
# The processes a run starts besides its workers: the fork server and the resource tracker of semaphores.
HELPERS = {"fork": 0, "forkserver": 2, "spawn": 1}


def _game(number: int) -> str:
    """A short English game; every 7th with a non-ASCII comment, every 50th invalid."""
    moves = "1. 11-15 23-19 2. 8-11 22-17" if number % 7 else "1. 11-15 23-18 {café} 2. 8-11 17-13"
    if number % 50 == 0:
        moves = "1. 11-15 23-19 2. 8-31"
    return f'[Event "game {number}"]\n[GameType "21"]\n[Result "*"]\n\n{moves} *\n\n'


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """A folder of small files (a task takes several; one is binary), a file cut into byte ranges, and
    the text of stdin (split here into batches of games): the inputs of every command below."""
    root = tmp_path_factory.mktemp("inputs")
    small = root / "small"
    small.mkdir()
    for part in range(4):
        (small / f"part{part}.pdn").write_text("".join(_game(n) for n in range(part * 30 + 1, part * 30 + 31)))
    (small / "part2b.pdn").write_bytes(bytes(range(256)) * 4)            # binary: cannot be read
    big = root / "big.pdn"
    big.write_text("".join(_game(n) for n in range(1, 2501)))
    assert len(pool._ranges_of(str(big), big.stat().st_size, None, 2) or []) > 2        # read by ranges
    stdin = "".join(_game(n) for n in range(1, 451))                    # three batches (pool._BATCH)
    return [str(small), str(big), "-"], stdin


def _run(args, stdin, jobs, method=None):
    extra = ["--jobs", str(jobs)] + (["--start-method", method] if method else [])
    result = CliRunner().invoke(cli, [*args, *extra], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout_bytes, result.stderr_bytes


COMMANDS = {
    "validate-text": ["validate", "--summary"],
    "validate-jsonl": ["validate", "--format", "jsonl"],
    "validate-html": ["validate", "--format", "html"],
    "stats": ["stats", "--format", "json"],
    "convert": ["convert", "--to", "jsonl"],
    "convert-pdn": ["convert", "--drop", "comments"],
    "fix-results": ["convert", "--fix-results"],            # a whole file's games at a time: ordered_map
    "annotate": ["annotate", "--all", "--shots", "--depth", "2"],
    "filter": ["filter", "--valid", "--min-plies", "4"],
    "dedupe": ["dedupe", "--report"],
}


@pytest.mark.parametrize("method", METHODS)
def test_validate_with_jobs_writes_what_one_job_writes(sources, method):
    """The cheap member: validate over grouped files, byte ranges and stdin batches."""
    paths, stdin = sources
    command = COMMANDS["validate-jsonl"] + paths
    one = _run(command, stdin, 1)
    assert one[0] == 2 and one[1].count(b"\n") == 4 * 30 + 2500 + 450
    assert _run(command, stdin, 2, method) == one


@pytest.mark.slow           # some 30 runs with workers: a spawned worker loads the modules anew
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_with_jobs_writes_what_one_job_writes(sources, name, method):
    paths, stdin = sources
    command = COMMANDS[name] + (paths if name != "fix-results" else paths[1:])      # whole files: not the binary
    one = _run(command, stdin, 1)
    assert one[1] and _run(command, stdin, 2, method) == one


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_split_and_in_place_with_jobs_write_the_files_one_job_writes(sources, tmp_path, method):
    """The commands that write files: split's parts, and convert --in-place's rewritten inputs."""
    paths, stdin = sources
    written = {}
    for jobs in (1, 2):
        folder = tmp_path / f"in-place-{jobs}"
        folder.mkdir()
        for path in (Path(paths[0]) / "part1.pdn", Path(paths[1])):
            (folder / path.name).write_bytes(path.read_bytes())
        results = (_run(["split", "--per", "400", "-o", str(tmp_path / f"split-{jobs}"), *paths], stdin, jobs, method),
                   _run(["convert", "--in-place", str(folder)], None, jobs, method))
        files = {f"{part.parent.name[:-2]}/{part.name}": part.read_bytes()
                 for part in sorted([*folder.iterdir(), *(tmp_path / f"split-{jobs}").iterdir()])}
        written[jobs] = [result[0] for result in results], files
    assert len(written[1][1]) == 2 + 8 and written[1] == written[2]


# ---- the workers' lifetime, through real processes --------------------------------------------


GOOD = b'[GameType "20"]\n[Result "*"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'


@pytest.mark.slow          # a pdn process with workers, killed
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers in /proc")
@pytest.mark.parametrize("method", METHODS)
def test_workers_and_their_helpers_end_when_the_main_process_is_killed(method):
    """SIGKILL leaves nothing behind: a fork server's workers (whose parent is the server, which lives
    while they do) see the main process's end by multiprocessing's pipe from it."""
    main = subprocess.Popen(PDN + ["validate", "--jobs", "2", "--start-method", method, "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        threading.Thread(target=feed, args=(main.stdin, GOOD * 20_000), daemon=True).start()
        assert wait_until(lambda: len(descendants(main.pid)) >= 2 + HELPERS[method], 60)
        workers = descendants(main.pid)
        main.kill()
        main.wait(timeout=60)
        assert wait_until(lambda: all(ended(pid) for pid in workers), 30), workers
    finally:
        main.kill()
        main.communicate(timeout=60)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers in /proc")
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_a_hang_up_or_terminate_to_the_group_ends_the_run_quietly(method, signum):
    """SIGHUP (a terminal closed) or SIGTERM to the whole group while the workers run: the run ends by that
    signal with nothing on stderr.  multiprocessing's resource tracker (forkserver, spawn) died of a
    SIGHUP, and the one started again as pdn cleaned up printed a KeyError traceback for each semaphore
    it was told of (running/signals.py, start_resource_tracker)."""
    main = subprocess.Popen(COMMAND + ["validate", "--format", "jsonl", "--jobs", "2", "--start-method", method, "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        threading.Thread(target=feed, args=(main.stdin, GOOD * 20_000), daemon=True).start()
        assert main.stdout.readline()           # the workers' first records
        os.killpg(main.pid, signum)
        _, err = main.communicate(timeout=60)
    finally:
        main.kill()
    assert (main.returncode, err.strip()) == (-signum, b"")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers in /proc")
@pytest.mark.parametrize("method", METHODS)
def test_ctrl_c_while_workers_start_is_quiet(method):
    """Ctrl-C to the whole group as the first worker starts (a spawned worker's interpreter loading the
    modules): the worker holds it back until it ignores it, and the run ends by SIGINT with nothing on
    stderr: no worker's traceback, no resource tracker's "leaked semaphore objects".  (Without the
    holding back, one run in five or so showed a worker's KeyboardInterrupt under spawn.)"""
    main = subprocess.Popen(COMMAND + ["validate", "--jobs", "2", "--start-method", method, "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=ctrl_c_heard)
    try:
        threading.Thread(target=feed, args=(main.stdin, GOOD * 20_000), daemon=True).start()
        assert wait_until(lambda: len(descendants(main.pid)) >= 1 + HELPERS[method], 60)
        os.killpg(main.pid, signal.SIGINT)
        _, err = main.communicate(timeout=60)
    finally:
        main.kill()
    assert (main.returncode, err.strip()) == (-signal.SIGINT, b"")      # (the line end click writes)
