"""A folder's files, found by strings: named and sorted as pathlib names and sorts them (the order
of a batch's files and the names its reports give), whatever the names and the way the folder is
written."""
import os
import tempfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from pdn_tools.running.inputs import Inputs, folder_entries

NAMES = st.text(alphabet="ab-._ A0é", min_size=1, max_size=4).filter(lambda name: name not in (".", ".."))
TREES = st.recursive(st.dictionaries(NAMES, st.none(), max_size=4),
                     lambda inner: st.dictionaries(NAMES, st.none() | inner, max_size=4), max_leaves=12)


def _made(folder: Path, tree: dict) -> None:
    for name, inner in tree.items():
        if inner is None:
            (folder / name).write_text("")
        else:
            (folder / name).mkdir()
            _made(folder / name, inner)


def _by_paths(folder: str) -> list[str]:
    """Every file below `folder`, as pathlib finds, names and sorts them."""
    return [str(path) for path in sorted(path for path in Path(folder).rglob("*") if not path.is_dir())]


@settings(max_examples=60, deadline=None)
@given(TREES, st.sampled_from(["{}", "{}/", "{}//", "{}/.", "./top", "top/", ".//top/./", "top/sub/.."]))
def test_the_files_of_a_folder_are_named_and_sorted_as_pathlib_does(tree, written):
    with tempfile.TemporaryDirectory() as place:
        (Path(place) / "top").mkdir()
        (Path(place) / "top" / "sub").mkdir()
        _made(Path(place) / "top", tree)
        folder = written.format(os.path.join(place, "top"))
        here = os.getcwd()
        os.chdir(place)
        try:
            assert [path for path, _, _ in folder_entries(folder)] == _by_paths(folder)
            assert {kind for _, kind, _ in folder_entries(folder)} <= {"file"}
        finally:
            os.chdir(here)


def test_the_current_folder_names_its_files_without_dot(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    for name in ("b.pdn", "a-1.pdn", "sub/a.pdn", "sub/x.txt"):
        (tmp_path / name).write_text("")
    monkeypatch.chdir(tmp_path)
    chosen, skipped, problems = Inputs((".",))._matching(".")
    assert (chosen, skipped, problems) == (["a-1.pdn", "b.pdn", "sub/a.pdn"], ["sub/x.txt"], [])
    assert [path for path, *_ in folder_entries(".")] == _by_paths(".")


def test_links_and_other_entries_keep_their_kinds(tmp_path):
    (tmp_path / "games.pdn").write_text("")
    (tmp_path / "folder").mkdir()
    (tmp_path / "to-games.pdn").symlink_to(tmp_path / "games.pdn")
    (tmp_path / "to-folder").symlink_to(tmp_path / "folder")
    (tmp_path / "broken.pdn").symlink_to(tmp_path / "nowhere")
    os.mkfifo(tmp_path / "fifo.pdn")
    found = {os.path.basename(path): (kind, reason) for path, kind, reason in folder_entries(str(tmp_path))}
    assert found == {"games.pdn": ("file", ""), "to-games.pdn": ("file", ""), "to-folder": ("link", ""),
                     "broken.pdn": ("other", "no such file (a broken link)"),
                     "fifo.pdn": ("other", "not a regular file")}
