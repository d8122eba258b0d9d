"""--shots and --engine on every backend: --jobs and --dask give the bytes of one process, the
search cache and the engine are made once a worker (running/per_worker.py), engines end with
their workers."""
import os
import pickle
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from test_hub import PDN_HUB, fake
from test_second_look import PLIES_AFTER, played_on
from pdn_tools.cli import cli
from pdn_tools.running.per_worker import PerWorker
from pdn_tools.running.pool import shrinking_cuts

SAMPLES = sorted(str(path) for path in Path("samples").glob("*.pdn"))


def run(*args, input=None):
    return CliRunner().invoke(cli, [*map(str, args)], input=input)


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> str:
    """A 135 KB file (cut into byte ranges by --jobs 2) of games into a shot, played on 10 to 19 plies."""
    path = tmp_path_factory.mktemp("big") / "big.pdn"
    results = ("0-1", "1-0", "1/2-1/2", "*")
    path.write_text("".join(played_on(PLIES_AFTER + n % 10, results[n % 4], f"P{n}") for n in range(760)))
    assert len(shrinking_cuts(path.stat().st_size, 2)) > 1
    return str(path)


def same_output(args, *paths, jobs=("--jobs", "2")):
    """The command's output with workers, checked against one process's; that output."""
    one = run(*args, *paths)
    many = run(*args, *jobs, *paths)
    assert one.exit_code == 0, one.output
    assert (many.exit_code, many.stdout, many.stderr) == (one.exit_code, one.stdout, one.stderr)
    return one.stdout


def without_run_line(page: str) -> str:
    return re.sub(r'<p class="run">.*?</p>', "", page, count=1)


@pytest.mark.slow          # whole runs with a pool of workers, searching every position
def test_validate_jsonl_shots_with_jobs_gives_the_same_lines(big):
    lines = same_output(["validate", "--format", "jsonl", "--shots"], big, *SAMPLES)
    assert lines.count('"walked into"') >= 760


@pytest.mark.slow          # whole runs with a pool of workers, searching every position
def test_validate_html_shots_with_jobs_gives_the_same_page(big, tmp_path):
    one, many = tmp_path / "one.html", tmp_path / "many.html"
    assert run("validate", "--format", "html", "--shots", "-o", one, big, *SAMPLES).exit_code == 0
    assert run("validate", "--format", "html", "--shots", "--jobs", "2", "-o", many, big, *SAMPLES).exit_code == 0
    page = one.read_text(encoding="utf-8")
    assert without_run_line(many.read_text(encoding="utf-8")) == without_run_line(page)
    assert "Moves worth a second look (20 of " in page


@pytest.mark.slow          # whole runs with a pool of workers, searching every position
def test_annotate_shots_with_jobs_gives_the_same_games(big):
    assert "$4" in same_output(["annotate", "--shots"], big)


def test_annotate_with_an_engine_a_worker_gives_the_same_games_and_the_engines_end(tmp_path):
    engines = tmp_path / "engines"
    engines.mkdir()
    files = []
    for number in range(12):                            # small files: several tasks for 2 workers
        path = tmp_path / f"game{number}.pdn"
        path.write_text(played_on(number % 3, "*", f"P{number}"))
        files.append(path)
    annotated = same_output(["annotate", "--engine", fake("ok", engines)], *files)
    assert annotated.count("[%line] [%eval") >= 12
    started = [int(name.name) for name in engines.iterdir()]
    assert 2 <= len(started) <= 3                       # one for --jobs 1, at most one a worker
    assert not [pid for pid in started if alive(pid)]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_an_engine_that_fails_in_a_worker_is_one_line_naming_the_game_and_ply(tmp_path):
    path = tmp_path / "games.pdn"
    path.write_text(played_on(PLIES_AFTER))
    one = run("annotate", "--engine", fake("dies"), path)
    many = run("annotate", "--engine", fake("dies"), "--jobs", "2", path)
    assert (many.exit_code, many.stderr) == (one.exit_code, one.stderr) == (
        2, f"pdn: {path}:6:18: game 1, ply 3 (2... 22-17): engine '{fake('dies')}': it ended (exit code 4)\n")


def test_a_search_cache_is_made_once_a_process_and_thread_for_the_run():
    made = []
    searches = PerWorker(lambda: made.append(object()) or made[-1])
    assert searches() is searches() and len(made) == 1
    travelled = pickle.loads(pickle.dumps(PerWorker(dict)))
    assert travelled() is travelled() and travelled() is not PerWorker(dict)()
    again = pickle.loads(pickle.dumps(travelled))
    assert again() is travelled()                       # the run's later tasks find it


def test_engines_made_here_are_closed_by_close():
    class Engine:
        closed = False

        def close(self):
            self.closed = True

    engines = PerWorker(Engine)
    engine = engines()
    engines.close()
    assert engine.closed and engines() is not engine


@pytest.mark.slow
def test_on_a_local_dask_cluster_shots_and_engines_give_the_same_output(big, tmp_path):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    del distributed
    dask = ("--dask", "local:1")
    same_output(["validate", "--format", "jsonl", "--shots"], big, jobs=dask)
    same_output(["annotate", "--shots"], *SAMPLES, jobs=dask)
    engines = tmp_path / "engines"
    engines.mkdir()
    same_output(["annotate", "--engine", fake("ok", engines)], *SAMPLES[:4], jobs=dask)
    started = [int(name.name) for name in engines.iterdir()]
    deadline = time.monotonic() + 10
    while [pid for pid in started if alive(pid)]:
        assert time.monotonic() < deadline, "an engine outlived its Dask worker"
        time.sleep(0.1)
    one, many = tmp_path / "one.html", tmp_path / "many.html"
    assert run("validate", "--format", "html", "--shots", "-o", one, *SAMPLES).exit_code == 0
    assert run("validate", "--format", "html", "--shots", *dask, "-o", many, *SAMPLES).exit_code == 0
    assert without_run_line(many.read_text(encoding="utf-8")) == without_run_line(one.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_pdn_hub_on_workers_gives_what_it_gives_in_one_process():
    same_output(["annotate", "--engine", PDN_HUB, "--engine-depth", "2"], *SAMPLES[:3])
