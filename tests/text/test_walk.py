"""text.walk: one walk over movetext, with stable paths, text plies and skipping."""
import copy
import pickle
import subprocess
import sys

from pdn_tools.text.model import Comment, NotatedMove, MoveNumber, Placeholder, Variation
from pdn_tools.text.reader import read_text
from pdn_tools.text.walk import Frame, Path, walk


def _game(movetext: str):
    games = list(read_text(movetext + "\n"))
    assert len(games) == 1
    return games[0]


def _at(elements, path):
    element = None
    for index in path:
        element = elements[index]
        elements = element.elements if isinstance(element, Variation) else []
    return element


def test_frames_in_written_order_with_paths_plies_and_closing_frames():
    game = _game("1. 32-28 {a} 19-23 (1... 18-23 2. 28x19) 2. 28x19 *")
    frames = list(walk(game.elements))
    assert [(type(f.element).__name__, f.path, f.ply, f.closing) for f in frames] == [
        ("MoveNumber", (0,), 0, False), ("NotatedMove", (1,), 0, False), ("Comment", (2,), 1, False),
        ("NotatedMove", (3,), 1, False),
        ("Variation", (4,), 1, False),      # replaces the move at ply 1
        ("MoveNumber", (4, 0), 1, False), ("NotatedMove", (4, 1), 1, False), ("MoveNumber", (4, 2), 2, False),
        ("NotatedMove", (4, 3), 2, False),
        ("Variation", (4,), 3, True),
        ("MoveNumber", (5,), 2, False), ("NotatedMove", (6,), 2, False)]
    assert [f.depth for f in frames if f.path[0] == 4 and not isinstance(f.element, Variation)] == [1] * 4


def test_every_path_leads_back_to_its_element():
    game = _game("1. 32-28 (1. 33-28 (1. 31-27 19-23 (1... 20-24)) 1... 18-23) 19-23 - *")
    for frame in walk(game.elements):
        assert _at(game.elements, frame.path) is frame.element


def test_a_placeholder_counts_as_a_ply_and_the_start_ply_is_kept():
    elements = [Placeholder(), NotatedMove("28-23", ("28", "23"), False), Variation([NotatedMove("27-23", ("27", "23"), False)])]
    frames = list(walk(elements, path=(7,), ply=1))
    assert [(f.path, f.ply) for f in frames] == [((7, 0), 1), ((7, 1), 2), ((7, 2), 2), ((7, 2, 0), 2),
                                                 ((7, 2), 3)]


def test_skip_leaves_the_innermost_line_and_still_closes_it():
    game = _game("1. 32-28 (1. 33-28 {gone} (1. 31-27)) {kept} 19-23 *")
    seen = []
    lines = walk(game.elements)
    for frame in lines:
        seen.append(frame)
        if isinstance(frame.element, NotatedMove) and frame.element.text == "33-28":
            lines.skip()
    texts = [getattr(f.element, "text", None) for f in seen if not isinstance(f.element, (Variation, MoveNumber))]
    assert texts == ["32-28", "33-28", "kept", "19-23"]
    assert [f.closing for f in seen if isinstance(f.element, Variation)] == [False, True]


def test_skip_on_opening_leaves_out_the_whole_variation():
    elements = [Variation([Comment("in"), Variation([Comment("deeper")])]), Comment("out")]
    seen = []
    lines = walk(elements)
    for frame in lines:
        seen.append(frame)
        if isinstance(frame.element, Variation) and not frame.closing:
            lines.skip()
    assert seen == [Frame(elements[0], (0,), 0), Frame(elements[0], (0,), 0, True), Frame(elements[1], (1,), 0)]


def test_any_depth_of_nesting_is_walked():
    depth = 20_000
    innermost = [NotatedMove("32-28", ("32", "28"), False)]
    elements: list = innermost
    for _ in range(depth):
        elements = [Variation(elements)]
    frames = list(walk(elements))
    assert len(frames) == 2 * depth + 1
    assert frames[depth].element is innermost[0] and frames[depth].depth == depth


def test_a_path_pickled_is_equal_to_the_same_path_made_in_another_process():
    """A path's hash is made from hash(None), which differs from one process to the next: a path
    pickled (in a replay's `resolved`, sent by a process pool or Dask) was unequal, and not found as
    a key, where it was read back.  Every protocol, copy and deepcopy."""
    deep = Path.of([3, 1, 4, 1, 5])
    sent = [pickle.dumps({deep: "deep", Path(None, 2): "main"}, protocol)
            for protocol in range(pickle.HIGHEST_PROTOCOL + 1)]
    script = ("import pickle, sys\n"
              "from pdn_tools.text.walk import Path\n"
              "for data in pickle.loads(sys.stdin.buffer.read()):\n"
              "    keys = pickle.loads(data)\n"
              "    assert keys[Path.of([3, 1, 4, 1, 5])] == 'deep' and keys[Path(None, 2)] == 'main', keys\n")
    subprocess.run([sys.executable, "-c", script], input=pickle.dumps(sent), check=True, timeout=60)
    for again in (copy.copy(deep), copy.deepcopy(deep), *(pickle.loads(pickle.dumps(deep, p)) for p in range(6))):
        assert again == deep and hash(again) == hash(deep) and again.indexes() == (3, 1, 4, 1, 5)
