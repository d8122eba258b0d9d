"""--dask: the workers read their own byte ranges; records come back in input order, the same as --jobs 1."""
import contextlib
import functools
import gzip
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from signals import ctrl_c_heard
from click.testing import CliRunner

from corpus import CORPUS, DATA, needs_corpus
from pdn_tools.cli import cli
from pdn_tools.cli.options import Reading
from pdn_tools.cli.run import Run

distributed = pytest.importorskip(
    "distributed", reason="dask.distributed is not installed (pip install 'pdn-tools[dask]')")

from pdn_tools.running import batch, distributed as on_dask, writing  # noqa: E402
from pdn_tools.commands import archive, convert, report  # noqa: E402
from pdn_tools.play.error_boards import boards_at_errors  # noqa: E402
from pdn_tools.play.check import record_of  # noqa: E402
from pdn_tools.play.checking import Checking  # noqa: E402
from pdn_tools.running.pool import MAX_JOBS  # noqa: E402
from pdn_tools.running.tasks import do_task  # noqa: E402
from pdn_tools.text.reader import CONSUMED  # noqa: E402

CHECKING = Checking()      # the tests' edge: PDN_TOOLS_PURE picks the engine they run
OWN = [str(DATA / "faults.pdn"), str(DATA / "legacy-cp1252-crlf.pdn"), str(DATA / "quirks.pdn")]
# Real files with errors, several warning codes and warnings repeated (grouped per file in the text report).
REAL = [str(CORPUS / "international" / "bruno-BrunoVsScan31.pdn"),
        str(CORPUS / "russian" / "py-draughts-lidraughts-russian.pdn"),
        str(CORPUS / "international" / "wiegerw-fail-Cat.C1.pdn"),
        str(CORPUS / "english" / "wiegerw-succeed-goulds.pdn")]
CORPUS_PATHS = [str(CORPUS / "international" / "horizon-bd-oud-wk2003.pdn"),
                str(CORPUS / "english" / "wiegerw-succeed-goulds.pdn"),
                str(CORPUS / "international" / "games-checkers-Cannes_Open_Tournament_2002.pdn")]


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result


@pytest.fixture(scope="module")
def local_client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  scheduler_kwargs={"dashboard_address": ":0"}) as cluster, \
            distributed.Client(cluster) as client:
        yield client


def _written_address(scheduler_file):
    """The scheduler's address once its file is written whole (it exists empty at first)."""
    try:
        return json.loads(scheduler_file.read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """A scheduler and two workers started as separate processes on loopback; its address."""
    folder = tmp_path_factory.mktemp("cluster")
    started = []

    def start(*args):
        started.append(subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True))
        return started[-1]

    scheduler_file = folder / "scheduler.json"
    start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
          "--scheduler-file", str(scheduler_file))
    try:
        deadline = time.monotonic() + 60
        while not (address := _written_address(scheduler_file)):
            assert time.monotonic() < deadline, "the scheduler did not start within 60 s"
            time.sleep(0.1)
        for _ in range(2):      # once the file is whole: a worker reading it empty would stop
            start("distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file), "--host", "127.0.0.1",
                  "--nthreads", "1", "--no-dashboard")
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, start, scheduler_file
    finally:
        for process in reversed(started):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=20)


def dicts(records):
    return [record.as_dict() for record in records]


def jsonl(result):
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_local_cluster_gives_the_records_of_jobs_1_in_order(local_client):
    expected = jsonl(invoke("validate", "--format", "jsonl", *OWN))
    records = dicts(on_dask.validate(local_client, OWN, range_bytes=700, in_flight=3))
    assert [r["file"] for r in records] == [r["file"] for r in expected]
    assert records == expected


def test_a_work_task_run_again_on_the_games_held_gives_the_same_records(local_client, tmp_path):
    """Dask runs a work task again on the games its read task left on a worker (the worker that held the
    work's result lost, the one holding the games alive): here each range's work task is submitted twice,
    as `_submit` submits it, on the same games, both pinned (strictly) to the worker that read them, so
    that both get the very games read (a task on another worker gets a copy).  Both runs give the records
    of --jobs 1; a work task that gave up the games' tokens (parse_raw without keep) gave the second run
    a game of no tag and no move at line 1 in each one's place.  Ranges of a plain UTF-8 file with a long
    game (its tokens consumed as it is parsed), and of a cp1252 file (read whole by its first range)."""
    games = [f'[Event "{i}"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' for i in range(60)]
    long = '[Event "long"]\n1. 32-28 ' + "{c} " * (CONSUMED + 10) + "19-23 *\n\n"
    (tmp_path / "plain.pdn").write_text("".join(games[:30] + [long] + games[30:]), encoding="utf-8")
    (tmp_path / "legacy.pdn").write_bytes("".join(games).replace("[Event", '[White "Müller"]\n[Event').encode("cp1252"))
    paths = [str(tmp_path / "plain.pdn"), str(tmp_path / "legacy.pdn")]
    expected = jsonl(invoke("validate", "--format", "jsonl", "--jobs", "1", *paths))
    again = []

    def twice(function, *args, **options):
        if "workers" in options:
            options["allow_other_workers"] = False
        future = submit(function, *args, **options)
        if function is do_task and len(args) > 4:           # a range's work, on the games read by another task
            again.append(submit(function, *args, **options))
        return future

    submit, local_client.submit = local_client.submit, twice
    try:
        first = dicts(on_dask.validate(local_client, paths, range_bytes=1000, in_flight=4))
    finally:
        del local_client.submit
    second = dicts(record for future in again for records, _, _ in future.result() for record in records)
    assert len(expected) == 2 * 60 + 1
    assert first == second == expected


@pytest.mark.slow          # whole runs over corpus files, with and without Dask
@needs_corpus
def test_many_small_ranges_of_real_files(local_client):
    expected = jsonl(invoke("validate", "--format", "jsonl", *CORPUS_PATHS))
    assert len(expected) == 190 + 262 + 50
    assert dicts(on_dask.validate(local_client, CORPUS_PATHS, range_bytes=5000, in_flight=4)) == expected


@pytest.mark.slow          # whole runs over a corpus folder, with and without Dask
@needs_corpus
def test_strict_and_folders(local_client):
    folder = str(CORPUS / "czech")
    expected = jsonl(invoke("validate", "--strict", "--format", "jsonl", folder))
    assert dicts(on_dask.validate(local_client, [folder], strict=True, range_bytes=4000)) == expected


def test_small_files_are_gathered_into_tasks_of_about_a_range_in_input_order():
    def file(name, size, parts=1):
        cuts = [(size * i // parts, size * (i + 1) // parts) for i in range(parts)]
        return [on_dask._Span(name, name, number, start, end) for number, (start, end) in enumerate(cuts)]

    files = [file("a", 300), file("b", 500), file("c", 400), file("big", 3000, 3), file("d", 100), file("e", 999)]
    groups = list(on_dask._groups(files, 1000))
    assert [[(s.shown, s.number) for s in group] for group in groups] == \
           [[("a", 0), ("b", 0), ("c", 0)], [("big", 0), ("big", 1), ("big", 2)], [("d", 0), ("e", 0)]]


@pytest.mark.slow
@needs_corpus
def test_a_folder_of_many_small_files_takes_a_few_tasks(local_client):
    folder = str(CORPUS / "international")
    expected = jsonl(invoke("validate", "--format", "jsonl", folder))
    submitted = []

    def counted(function, *args, **options):
        submitted.append(function.__name__)
        return submit(function, *args, **options)

    submit, local_client.submit = local_client.submit, counted
    try:
        records = dicts(on_dask.validate(local_client, [folder], range_bytes=200_000))
    finally:
        del local_client.submit
    assert records == expected
    files = len(list(batch.Inputs((folder,)).files()))
    size = batch.Inputs((folder,)).total_bytes()
    assert files > 1000 and size // 200_000 == 15                # every file is smaller than 200 kB
    assert set(submitted) == {"do_task"} and len(submitted) <= 15 + 1


def test_progress_follows_the_files_and_bytes_collected(local_client):
    inputs = batch.Inputs(tuple(OWN))
    progress = on_dask.Progress(inputs)
    seen = [(progress.current, progress.bytes_read()) for _ in on_dask.run(local_client, inputs, record_of,
                                                                            range_bytes=2000, progress=progress,
                                                                            checking=CHECKING)]
    assert [name for name, _ in seen] == [r["file"] for r in jsonl(invoke("validate", "--format", "jsonl", *OWN))]
    done = [count for _, count in seen]
    assert done == sorted(done) and progress.bytes_read() == progress.total_bytes() == \
           sum(os.path.getsize(path) for path in OWN)


def test_the_folded_ranges_of_validate_add_up_to_the_records_one_by_one():
    records = list(batch.run(batch.Inputs(tuple(OWN)), functools.partial(record_of, checking=CHECKING),
                             checking=CHECKING))
    assert 0 < sum(record.ok for record in records) < len(records)
    whole = report.Summary()
    for record in records:
        whole.add(record)
    for cut in range(len(records) + 1):
        merged, text = report.Summary(), ""
        for part in (records[:cut], records[cut:]):
            lines = report.json_part([(record, report.json_line(record)) for record in part])
            merged.merge(lines.summary)
            text += lines.text
        assert report.json_line(merged.as_dict()) == report.json_line(whole.as_dict())      # keys in order too
        assert text == "".join(report.json_line(record) + "\n" for record in records)


def parts(results, cut, file_of):
    """`results` as a worker folds them: runs of one file, also cut at `cut` (with an empty range there)."""
    def runs(some):
        out = []
        for result in some:
            if not out or file_of(result) != file_of(out[-1][-1]):
                out.append([])
            out[-1].append(result)
        return out
    return [*runs(results[:cut]), [], *runs(results[cut:])]


def record_file(result):
    return result[0].file


@needs_corpus
@pytest.mark.slow
@pytest.mark.parametrize("options", [[], ["--warnings", "each", "--show-board"], ["--quiet"],
                                     ["--ignore", "inferred-variant", "--ignore", "tag-name", "--show-board"]])
def test_the_folded_ranges_of_the_text_report_give_the_report_one_by_one(options):
    expected = invoke("validate", "--summary", *options, *OWN, *REAL)
    show_board = "--show-board" in options
    mode = "each" if "each" in options else "none" if "--quiet" in options else "grouped"
    ignore = frozenset(options[i + 1] for i, option in enumerate(options) if option == "--ignore")
    results = list(Run(Reading(paths=(*OWN, *REAL))).checked(
        boards_at_errors if show_board else batch.no_work))
    assert ("(first of 262 in this file)" in expected.stdout) == (options == [])
    for cut in range(len(results) + 1):
        text, totals, out = report.TextReport(mode, ignore), report.Summary(), ""
        for part in parts(results, cut, record_file):
            folded = report.text_part(part, mode, ignore, report.lines_with_boards)
            out += text.add_part(folded)
            totals.merge(folded.summary)
        out += "".join(line + "\n" for line in [*text.close(), *totals.lines()])
        assert out == expected.stdout, cut


@pytest.mark.slow          # whole runs over corpus files, then every cut of their records
@needs_corpus
def test_the_folded_ranges_of_stats_give_the_stats_one_by_one():
    expected = [invoke("stats", *OWN, *REAL), invoke("stats", "--format", "json", *OWN, *REAL)]
    results = list(Run(Reading(paths=(*OWN, *REAL))).checked(archive.stats_game))
    notes = "".join(line + "\n" for record, _ in results for line in report.text_lines(record, warnings=False))
    assert notes and all(result.stderr == notes for result in expected)
    for cut in range(len(results) + 1):
        totals, folded_notes = archive.Stats(), []
        for part in parts(results, cut, record_file):
            folded = archive.stats_part(part)
            totals.merge(folded.stats)
            folded_notes += folded.notes
        assert "".join(line + "\n" for line in folded_notes) == notes
        assert "".join(line + "\n" for line in totals.lines()) == expected[0].stdout, cut
        assert report.json_line({**totals.as_dict(), "unreadable": []}) + "\n" == expected[1].stdout, cut


@needs_corpus
@pytest.mark.parametrize("to", ["jsonl", "fen", "pdn"])
def test_the_folded_ranges_of_convert_give_the_games_one_by_one(to):
    expected = invoke("convert", "--to", to, *OWN, *REAL)
    work = functools.partial(convert.convert_game, options=convert.Options(to))
    results = list(batch.run(batch.Inputs((*OWN, *REAL)), work, checking=CHECKING))
    assert expected.exit_code == 1 and expected.stderr
    for cut in range(0, len(results) + 1, 7):
        out, notes = io.StringIO(), []
        tally = writing.write_parts(map(writing.written, parts(results, cut, lambda _: "")), out, notes.append)
        assert out.getvalue() == expected.stdout, cut
        assert "".join(line + "\n" for line in notes) == expected.stderr
        assert tally == writing.write_parts([writing.written([one]) for one in results], io.StringIO(),
                                            lambda _: None)


def test_a_missing_file_is_reported_and_the_rest_goes_on(local_client, tmp_path, capsys):
    gone = str(tmp_path / "gone.pdn")
    inputs = batch.Inputs((gone, OWN[0]))
    records = dicts(on_dask.run(local_client, inputs, record_of, checking=CHECKING))
    assert records == jsonl(invoke("validate", "--format", "jsonl", OWN[0]))
    assert inputs.unreadable == 1
    assert f"pdn: cannot read {gone}: no such file" in capsys.readouterr().err


def test_a_fifo_named_on_the_command_line_is_an_unreadable_input_and_the_rest_goes_on(local_client, tmp_path, capsys):
    """`pdn validate --dask ... <(zcat x.pdn.gz) y.pdn`: the workers read files by name (on other machines, maybe),
    which a FIFO of this process is not: it is said in its place, as a file that cannot be read (exit 2), the
    other files are validated; --jobs reads it in the main process instead."""
    fifo = tmp_path / "stream.pdn"
    os.mkfifo(fifo)
    inputs = batch.Inputs((str(fifo), OWN[0]))
    records = dicts(on_dask.run(local_client, inputs, record_of, checking=CHECKING))
    assert records == jsonl(invoke("validate", "--format", "jsonl", OWN[0]))
    assert inputs.unreadable == 1
    assert capsys.readouterr().err == f"pdn: cannot read {fifo}: not a regular file\n"


def test_a_range_a_worker_cannot_read_is_reported_once_per_file(local_client, capsys):
    inputs = batch.Inputs(())
    failed = set()
    for number in range(2):             # two ranges of one file
        span = on_dask._Span("/nowhere/x.pdn", "x.pdn", number, 10 * number, 10 * number + 10)
        future = local_client.submit(open, "/nowhere/x.pdn", pure=False)
        assert list(on_dask._collect([span], future, list, inputs, failed, on_dask.Progress(inputs))) == [[]]
    assert inputs.unreadable == 1
    assert capsys.readouterr().err == "pdn: cannot read x.pdn: No such file or directory\n"


def test_compressed_binary_and_legacy_files_are_read_whole_by_one_worker(local_client, tmp_path):
    text = "".join(f'[Event "{i}"]\n[White "Müller"]\n1. 32-28 19-23 *\n\n' for i in range(400))
    (tmp_path / "big.pdn.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "latin.pdn").write_bytes(text.encode("cp1252"))
    (tmp_path / "plain.pdn").write_bytes(text.encode())
    (tmp_path / "binary.pdn").write_bytes(bytes(range(256)) * 40)
    truncated = gzip.compress(text.encode())
    (tmp_path / "truncated.pdn.gz").write_bytes(truncated[:len(truncated) // 2])
    expected = invoke("validate", "--format", "jsonl", tmp_path)
    inputs = batch.Inputs((str(tmp_path),))
    notes = []
    inputs.note = notes.append
    records = list(on_dask.run(local_client, inputs, record_of, range_bytes=3000, checking=CHECKING))
    assert [report.json_line(r) + "\n" for r in records] == expected.stdout.splitlines(keepends=True)
    assert len(records) >= 400 * 3
    assert "\n".join(notes) + "\n" == expected.stderr
    assert inputs.unreadable == 2 and expected.exit_code == 2


@pytest.mark.slow
def test_commands_on_a_cluster_started_as_separate_processes(scheduler):
    address = scheduler[0]
    for args in (["validate", "--format", "jsonl", "--summary"], ["convert", "--to", "jsonl"],
                 ["convert", "--to", "fen"], ["convert"], ["stats", "--format", "json"], ["stats"], ["validate"],
                 ["validate", "--warnings", "each", "--show-board", "--summary"], ["validate", "--quiet"]):
        expected = invoke(*args, *OWN)
        result = invoke(*args, "--dask", address, *OWN)
        assert (result.exit_code, result.stdout, result.stderr) == \
               (expected.exit_code, expected.stdout, expected.stderr), args
        assert result.stdout


@pytest.mark.slow
def test_a_lost_worker_s_ranges_are_recomputed(scheduler, tmp_path):
    address, start, scheduler_file = scheduler
    text = "".join(f'[Event "{i}"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' for i in range(3000))
    path = tmp_path / "many.pdn"
    path.write_text(text)
    expected = jsonl(invoke("validate", "--format", "jsonl", path))
    doomed = start("distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file), "--host", "127.0.0.1",
                   "--nthreads", "1", "--no-dashboard")
    with distributed.Client(address, timeout=30) as client:
        client.wait_for_workers(3, timeout=60)
        records = []
        for record in on_dask.validate(client, [str(path)], range_bytes=4000, in_flight=12):
            records.append(record.as_dict())
            if len(records) == 50:
                os.killpg(doomed.pid, signal.SIGKILL)
        doomed.wait(timeout=20)
    assert records == expected


def _fetched(client):
    """The keys of the results the workers of `client` fetched from one another."""
    logs = client.run(lambda dask_worker: [str(key) for entry in dask_worker.transfer_incoming_log
                                           for key in entry["keys"]])
    return [key for keys in logs.values() for key in keys]


@pytest.mark.slow
def test_each_range_is_worked_on_by_the_worker_that_read_it(tmp_path):
    text = "".join(f'[Event "{i}"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' for i in range(3000))
    path = tmp_path / "many.pdn"
    path.write_text(text)
    expected = jsonl(invoke("validate", "--format", "jsonl", path))
    with on_dask.connect("local:2") as client:
        records = dicts(on_dask.validate(client, [str(path)], range_bytes=4000, in_flight=8))
        fetched = _fetched(client)
    assert records == expected
    assert len(text) // 4000 > 20
    assert any(key.startswith(("add-", "_count-")) for key in fetched)     # the log does show transfers
    assert [key for key in fetched if key.startswith("_read-")] == []


def test_usage_errors():
    assert "not standard input" in invoke("validate", "--dask", "local:1").stderr
    assert "not with --jobs" in invoke("validate", "--dask", "local:1", "--jobs", "2", OWN[0]).stderr
    assert "not with --dask" in invoke("convert", "--in-place", "--dask", "local:1", OWN[0]).stderr
    assert "not with --dask" in invoke("convert", "--fix-results", "--dask", "local:1", OWN[0]).stderr
    bad = invoke("validate", "--dask", "local:0", OWN[0])
    assert bad.exit_code == 2 and "local:N needs a number of workers N >= 1, not '0'" in bad.stderr


@pytest.mark.parametrize("count", ["1025", "99999999999999999999"])
def test_local_workers_past_the_jobs_bound_are_a_usage_error(count):
    """--dask local:99999999999999999999 sat starting workers (minutes, then the system's refusal):
    local:N takes 1 to MAX_JOBS workers, as --jobs does, checked before anything is read."""
    bad = invoke("validate", "--dask", f"local:{count}", OWN[0])
    assert bad.exit_code == 2 and bad.stdout == ""
    assert f"local:N needs a number of workers N from 1 to {MAX_JOBS}, not '{count}'" in bad.stderr


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_clear_error():
    result = invoke("validate", "--dask", "tcp://127.0.0.1:9", OWN[0])
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.stderr
    assert "Traceback" not in result.stderr


# ---- Dask, safely: loopback only, one-line errors, no tracebacks (issue 25, part 5) -----------------

LISTENING = """
import json, sys, urllib.error, urllib.request
import psutil
from pdn_tools.running.distributed import connect

if __name__ == "__main__":
    with connect("local:2") as client:
        info = client.scheduler_info()
        me = psutil.Process()
        sockets = [c.laddr.ip for p in [me, *me.children(recursive=True)] for c in p.net_connections(kind="inet")
                   if c.status == psutil.CONN_LISTEN]
        try:
            urllib.request.urlopen(client.dashboard_link, timeout=10)
            status = 200
        except urllib.error.HTTPError as error:
            status = error.code
        json.dump({"addresses": [info["address"], *info["workers"],
                                 *[worker["nanny"] for worker in info["workers"].values()]],
                   "link": client.dashboard_link, "status": status, "sockets": sockets}, sys.stdout)
"""


@pytest.mark.slow
def test_a_local_cluster_listens_on_loopback_only_and_serves_nothing_over_http(tmp_path):
    """Every listening socket of a process that starts a local cluster through `connect`, and of its
    workers (a process of its own: nothing else listens there)."""
    script = tmp_path / "listening.py"
    script.write_text(LISTENING)
    found = json.loads(subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                                      check=True).stdout)
    assert len(found["addresses"]) == 5 and all(a.startswith("tcp://127.0.0.1:") for a in found["addresses"])
    assert found["link"].startswith("http://127.0.0.1:") and found["status"] == 404
    # the scheduler, 2 nannies and each one's HTTP server in this process; 2 workers with theirs
    assert len(found["sockets"]) >= 8
    assert set(found["sockets"]) == {"127.0.0.1"}, found


@pytest.mark.parametrize("address", ["foo", "tcp://", "tcp://host:notaport", "", "tcp://host:99999", "host",
                                     "local:x", "tcp://\x1b[2J:1"])
def test_a_malformed_address_is_one_line_before_anything_is_read(address):
    result = invoke("validate", "--dask", address, "missing.pdn")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("pdn: ")
    assert "\x1b" not in result.stderr and "missing.pdn" not in result.stderr


def test_addresses_dask_reads_are_taken():
    for address in ["tcp://10.0.0.1:8786", "sched.example:8786", "tls://[::1]:8786", "local", "local:3"]:
        assert on_dask.check_address(address) == address


def _pdn(*args, **options):
    return subprocess.Popen([sys.executable, "-m", "pdn_tools", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=ctrl_c_heard, **options)


@pytest.mark.slow
def test_a_scheduler_nobody_listens_on_is_one_line_naming_it():
    process = _pdn("validate", "--dask", "tcp://127.0.0.1:9", OWN[0])
    out, err = process.communicate(timeout=120)
    assert process.returncode == 2 and out == b""
    assert err.decode().splitlines() == [err.decode().strip()]
    assert err.startswith(b"pdn: cannot reach the Dask scheduler at tcp://127.0.0.1:9")


@pytest.mark.slow
def test_a_local_cluster_run_leaves_stderr_as_without_dask():
    expected = _pdn("validate", "--format", "jsonl", *OWN, *REAL).communicate(timeout=120)
    process = _pdn("validate", "--format", "jsonl", "--dask", "local:2", *OWN, *REAL)
    assert process.communicate(timeout=300) == expected
    assert b"Traceback" not in expected[1]


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.pdn"
    path.write_text("".join(f'[Event "{i}"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' for i in range(100000)))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("when", [0.3, 0.6, 1.0, 2.0, "running"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_ends_a_local_cluster_run_by_itself_and_nothing_said(big, when, signum):
    """Ctrl-C at the terminal, SIGTERM, or SIGHUP (a terminal closed): the signal to the whole process
    group (pdn and its workers), while the cluster starts or once records come.  A Ctrl-C while the cluster
    started was lost now and then; a SIGTERM then had Dask say that its workers were killed; a SIGHUP
    killed multiprocessing's resource tracker, and the one started again printed KeyError tracebacks."""
    process = _pdn("validate", "--format", "jsonl", "--dask", "local:2", big)
    if when == "running":
        assert process.stdout.readline()
    else:
        time.sleep(when)
    os.killpg(process.pid, signum)                  # once
    try:
        err = process.communicate(timeout=60)[1].decode()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert (process.returncode, err.strip()) == (-signum, "")      # as any program: a shell shows 128 + signum


# A thread started while Ctrl-C is held starts a process, the first of a fresh interpreter (which starts
# multiprocessing's resource tracker): the thread must keep SIGINT blocked, else a Ctrl-C reaching it
# is lost (ignored there).
HELD_WHILE_A_PROCESS_STARTS = """
import multiprocessing, signal, threading
from pdn_tools.running.distributed import _interrupts_held

def start():
    process = multiprocessing.get_context("spawn").Process(target=int)
    process.start()
    process.join()
    print(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set()))

with _interrupts_held():
    thread = threading.Thread(target=start)
    thread.start()
    thread.join()
"""


def test_a_thread_that_starts_a_process_while_ctrl_c_is_held_keeps_it_blocked():
    done = subprocess.run([sys.executable, "-c", HELD_WHILE_A_PROCESS_STARTS], capture_output=True, timeout=60)
    assert (done.stdout, done.stderr) == (b"True\n", b"")


@pytest.mark.slow
def test_a_scheduler_that_goes_away_is_one_line_naming_it(tmp_path, big):
    scheduler_file = tmp_path / "scheduler.json"
    started = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                 "--port", "0", "--no-dashboard", "--scheduler-file", str(scheduler_file)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]
    try:
        deadline = time.monotonic() + 60
        while not (address := _written_address(scheduler_file)):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        started.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                         str(scheduler_file), "--host", "127.0.0.1", "--nthreads", "1",
                                         "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True))
        process = _pdn("validate", "--format", "jsonl", "--dask", address, big)
        assert process.stdout.readline()
        os.killpg(started[0].pid, signal.SIGKILL)
        err = process.communicate(timeout=120)[1].decode()
        assert process.returncode == 2
        assert err == f"pdn: lost the Dask scheduler at {address}: its results stopped coming\n"
    finally:
        for child in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait(timeout=20)


def _dies(game):
    """Work that kills the worker running it."""
    os._exit(3)


@pytest.mark.slow
def test_workers_that_die_on_a_task_are_one_error_naming_the_cluster():
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            pytest.raises(on_dask.DaskError, match=r"^the Dask workers of local:1 died on one task \(.+\)$"):
        with on_dask.connect("local:1") as client:
            list(on_dask.run(client, batch.Inputs((OWN[0],)), _dies, checking=CHECKING))
