"""`pdn` in pipelines, through real processes: a closed stdout, a full disk, workers that
end with their parent."""
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from processes import children, ended, feed, wait_until

from pdn_tools.running.workers import end_with_parent

PDN = [sys.executable, "-m", "pdn_tools"]
GOOD = b'[GameType "20"]\n[Result "*"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
FULL = "pdn: cannot write <stdout>: No space left on device\n"


@pytest.fixture
def valid(tmp_path):
    """A folder of valid games: nothing to report but what a command writes to stdout."""
    folder = tmp_path / "valid"
    folder.mkdir()
    (folder / "a.pdn").write_bytes(GOOD * 40)
    (folder / "b.pdn").write_bytes(GOOD.replace(b"*", b"1-1") * 40)
    return folder


# ---- a closed stdout (`pdn ... | head`) ----------------------------------------------------------

@pytest.fixture
def big(tmp_path):
    """Games enough that every command's output overflows a pipe's buffer (64 KB)."""
    path = tmp_path / "big.pdn"
    path.write_bytes(b"".join(b'[Round "%d"]\n' % number + GOOD for number in range(5000)))
    return path


@pytest.mark.slow          # out of the fast subset (a subprocess per command); CI runs it
@pytest.mark.parametrize("command", [
    ["convert"], ["convert", "--to", "jsonl"], ["convert", "--jobs", "2"], ["validate", "--format", "jsonl"],
    ["filter"], ["dedupe", "--by", "moves+tags"], ["annotate", "--ply-count"], ["split", "-o", "{tmp}"],
])
def test_a_closed_stdout_ends_quietly_as_by_sigpipe(tmp_path, big, command):
    command = [part.replace("{tmp}", str(tmp_path / "split")) for part in command]
    producer = subprocess.Popen(PDN + command + [str(big)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert producer.stdout.readline()                   # `head -1`
        producer.stdout.close()
        _, err = producer.communicate(timeout=120)
    finally:
        producer.kill()
    assert (producer.returncode, err) == (141, b"")


@pytest.mark.slow          # a pdn process per command
@pytest.mark.parametrize("command", [["validate"], ["validate", "--summary"], ["stats"]])
def test_a_stdout_closed_before_anything_is_written_never_gives_1_or_2(valid, command):
    """Every game is valid: exit 0 when nothing had to be written, else 141."""
    producer = subprocess.Popen(PDN + command + [str(valid)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    producer.stdout.close()
    try:
        _, err = producer.communicate(timeout=60)
    finally:
        producer.kill()
    assert err == b"" and producer.returncode in ((0,) if command == ["validate"] else (141,))


# ---- a full disk -----------------------------------------------------------------------------------

@pytest.mark.slow          # out of the fast subset (a subprocess per command); CI runs it
@pytest.mark.parametrize("command", [
    ["validate", "--format", "jsonl", "{samples}"], ["validate", "--summary", "{samples}"],
    ["stats", "{samples}"], ["stats", "--format", "json", "{samples}"], ["convert", "{samples}"],
    ["convert", "--to", "fen", "{samples}"], ["filter", "{samples}"], ["dedupe", "{samples}"],
    ["annotate", "--all", "{samples}"], ["split", "-o", "{tmp}", "{samples}"],
    ["diagram", "{samples}/a.pdn"], ["perft", "--variant", "english", "--depth", "2"],
])
def test_a_full_disk_is_one_line_naming_stdout(tmp_path, valid, command):
    command = [part.replace("{samples}", str(valid)).replace("{tmp}", str(tmp_path / "split")) for part in command]
    with open("/dev/full", "w") as full:
        done = subprocess.run(PDN + command, stdout=full, stderr=subprocess.PIPE, timeout=60, text=True)
    assert (done.returncode, done.stderr) == (2, FULL)


# ---- workers end with the main process --------------------------------------------------------------


@pytest.mark.slow          # a pdn process with workers, killed
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers in /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_workers_end_when_the_main_process_is_killed(signum):
    main = subprocess.Popen(PDN + ["validate", "--jobs", "2", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        threading.Thread(target=feed, args=(main.stdin, GOOD * 20_000), daemon=True).start()
        assert wait_until(lambda: len(children(main.pid)) >= 2, 60)
        workers = children(main.pid)
        main.send_signal(signum)
        main.wait(timeout=60)
        assert wait_until(lambda: all(ended(pid) for pid in workers), 30), workers
    finally:
        main.kill()
        main.communicate(timeout=60)
    assert main.returncode == -signum


WATCHED = """
import os, sys, time
from pdn_tools.running.workers import end_with_parent
parent = os.getpid()
child = os.fork()
if child == 0:
    end_with_parent(parent, kernel=False)
    time.sleep(120)
    os._exit(0)
print(child, flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="watches the process in /proc")
def test_without_the_kernel_signal_a_worker_still_ends_with_its_parent():
    parent = subprocess.Popen([sys.executable, "-c", WATCHED], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
        assert not ended(worker)
        parent.kill()
        parent.wait(timeout=30)
        assert wait_until(lambda: ended(worker), 30)
    finally:
        parent.kill()
        parent.communicate(timeout=30)


def test_a_worker_whose_parent_is_already_gone_ends_at_once():
    child = os.fork()
    if child == 0:
        try:
            end_with_parent(os.getppid() + 1_000_000, kernel=False)     # not its parent: as if it had ended
        finally:
            os._exit(0)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 1


def test_a_ctrl_c_python_cannot_raise_in_a_callback_is_not_printed_and_is_delivered_again(capsys):
    """A SIGINT landing in an import lock's weakref callback (Ctrl-C while Dask loads) was printed as
    'Exception ignored in: <function _get_module_lock.<locals>.cb> ... KeyboardInterrupt', and then lost
    (a run went on to its end); the first Ctrl-C turns the next ones off, so the lost one is raised again
    once Python is out of the callback, and then those after it are off."""
    import signal
    import types

    from pdn_tools.running import signals

    before = signal.getsignal(signal.SIGINT), sys.unraisablehook
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)       # heard, as in a terminal's foreground
        signals.end_on_first_interrupt()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN        # the ones after the first
        with pytest.raises(KeyboardInterrupt):                           # delivered again
            sys.unraisablehook(types.SimpleNamespace(exc_type=KeyboardInterrupt, exc_value=KeyboardInterrupt(),
                                                     exc_traceback=None, err_msg=None, object=None))
            time.sleep(1)
        assert capsys.readouterr().err == ""
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before[0])
        sys.unraisablehook = before[1]
