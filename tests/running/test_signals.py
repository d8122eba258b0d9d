"""running/signals.py: how the resource tracker of multiprocessing is started, and what the processes started
as a signal ends the run do."""
import signal
import subprocess
import sys
from pathlib import Path

import pytest

# The tracker started in a fresh interpreter, then looked at in /proc: its stderr, whether it blocks
# SIGHUP; and this process's stderr and mask as they were.
TRACKER = """
import os, signal, sys
sys.path.insert(0, TESTS)
from processes import children
from pdn_tools.running.signals import start_resource_tracker

stderr = os.readlink("/proc/self/fd/2")
start_resource_tracker()
tracker, = children(os.getpid())
with open(f"/proc/{tracker}/status") as status:
    blocked = int(next(line for line in status if line.startswith("SigBlk:")).split()[1], 16)
print(os.readlink(f"/proc/{tracker}/fd/2"), bool(blocked >> (signal.SIGHUP - 1) & 1),
      os.readlink("/proc/self/fd/2") == stderr, signal.SIGHUP in signal.pthread_sigmask(signal.SIG_BLOCK, set()))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="looks at the tracker in /proc")
def test_the_resource_tracker_keeps_sighup_blocked_and_says_nothing():
    """A SIGHUP to the process group killed the tracker (it ignores only SIGINT and SIGTERM), and the one
    started again printed a KeyError traceback for each semaphore; what it says is multiprocessing's own
    bookkeeping.  This process gets its stderr back, and its mask."""
    script = TRACKER.replace("TESTS", repr(str(Path(__file__).parent.parent)))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.stdout, done.stderr) == ("/dev/null True True False\n", "")


# SIGTERM taken (Terminated, the run unwinding), then a second SIGTERM and a SIGHUP, then a process started
# as a local cluster's nanny starts a worker late: what that process does with the ending signals.
UNWINDING = """
import os, signal, subprocess, sys, time
from pdn_tools.running.signals import ENDING_SIGNALS, Terminated, clean_up_on_signals

clean_up_on_signals()
try:
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(60)
except Terminated:
    for signum in ENDING_SIGNALS:
        os.kill(os.getpid(), signum)            # not taken: the clean-up goes on
    late = subprocess.run([sys.executable, "-c", "import signal; print([signal.getsignal(signum).name "
                           f"for signum in {[int(signum) for signum in ENDING_SIGNALS]}])"],
                          capture_output=True, text=True, timeout=60)
    print(late.stdout.strip(), late.stderr)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="SIGTERM and SIGHUP as on POSIX")
def test_a_process_started_while_a_signal_unwinds_the_run_can_still_be_ended():
    """The clean-up after SIGTERM or SIGHUP ignores a second one; a process it starts meanwhile (a Dask
    worker a local cluster was starting) ended by SIGTERM as any program.  It inherited them ignored: it
    outlived the run that started it, then printed a traceback (its semaphore gone)."""
    done = subprocess.run([sys.executable, "-c", UNWINDING], capture_output=True, text=True, timeout=120)
    assert (done.stdout, done.stderr) == ("['SIG_DFL', 'SIG_DFL'] \n", "")


# A thread that starts processes one after another, as a local cluster's nannies start and restart their
# workers, each handed a queue (a named semaphore) and waiting for this process to end (a pipe's end), while
# the main thread ends the run by SIGTERM, as pdn's main does.
STARTING_LATE = """
import multiprocessing, os, signal, sys, threading, time
from pdn_tools.running.signals import clean_up_on_signals, end_by_signal, start_resource_tracker, Terminated

def worker(queue, alive):
    try:
        alive.recv()
    except EOFError:
        os._exit(1)

def start_workers():
    context = multiprocessing.get_context("spawn")
    while True:
        alive, keep = context.Pipe(duplex=False)
        queue = context.Queue()                 # kept, with its semaphores, as long as this process runs
        context.Process(target=worker, args=(queue, alive), daemon=True).start()
        kept.append((queue, keep))

if __name__ == "__main__":
    kept = []
    clean_up_on_signals()
    start_resource_tracker()                    # as pdn starts it, before a local cluster
    threading.Thread(target=start_workers, daemon=True).start()
    try:
        time.sleep(DELAY)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(60)
    except Terminated as error:
        end_by_signal(error.signum)
"""


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="SIGTERM and SIGHUP as on POSIX")
@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5, 1.0])
def test_a_run_ended_by_a_signal_as_processes_start_says_nothing(tmp_path, delay):
    """A process started as the run ends (a local cluster's worker, 0.3 s into a run SIGTERM ended) found
    the semaphores it was handed unlinked, and printed a traceback on the run's stderr after it ended
    (`run` waits for it: the children hold the pipes until they end)."""
    script = tmp_path / "late.py"
    script.write_text(STARTING_LATE.replace("DELAY", repr(delay)))
    for _ in range(3):
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stderr) == (-signal.SIGTERM, "")
