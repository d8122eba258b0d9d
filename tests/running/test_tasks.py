"""running/tasks.py: a task given games read by another task (a Dask task's result) leaves them whole, so
that it gives the same records when Dask runs it again: a worker lost with the task's result sends the same
games, held by the worker that read them, to the task once more."""
import functools
import io

from pdn_tools.play.check import record_of
from pdn_tools.play.checking import Checking
from pdn_tools.running.tasks import Options, Task, do_task
from pdn_tools.text.reader import CONSUMED, read_raw

CHECKING = Checking()      # the tests' edge: PDN_TOOLS_PURE picks the engine they run
SMALL = "".join(f'[Event "{i}"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' for i in range(5))
LONG = '[Event "long"]\n1. 32-28 ' + "{c} " * (CONSUMED + 10) + "19-23 *\n\n"    # parsed consuming its tokens


def _records(games, keep):
    work = functools.partial(record_of, checking=CHECKING)
    (records, problem, _), = do_task(Task(), work, list, Options(CHECKING), (games, None), 0, keep)
    assert problem is None
    return records


def test_games_read_by_another_task_give_the_same_records_when_the_task_runs_again():
    games = list(read_raw(io.BytesIO((SMALL + LONG).encode()), "x.pdn", engine=CHECKING.engine))
    first = _records(games, keep=True)
    assert [(r.game, r.name, r.plies, r.result) for r in first] == \
        [(i + 1, str(i), 4, "*") for i in range(5)] + [(6, "long", 2, "*")]
    assert _records(games, keep=True) == first


def test_without_keep_the_games_give_up_their_tokens():
    """Why Dask passes keep: parse_raw drops a game's tokens once read (the memory of a long game), so a
    second run on the same games found them empty: a valid game of no tag and no move, at line 1, in
    each one's place (seen once in CI as a lost worker's range computed again)."""
    games = list(read_raw(io.BytesIO(SMALL.encode()), "x.pdn", engine=CHECKING.engine))
    assert [r.plies for r in _records(games, keep=False)] == [4] * 5
    assert [(r.name, r.plies, r.line) for r in _records(games, keep=False)] == [("", 0, 1)] * 5
