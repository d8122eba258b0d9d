"""running/signals.py: how the resource tracker of multiprocessing is started."""
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
