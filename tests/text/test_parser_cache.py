"""The parser kept between runs (docs/start-up.md): loaded only from a whole file of the user's own
that nobody else may write, made for this grammar, these options and these versions; any other file
is ignored (the parser is built again, silently) and replaced whole; a folder that cannot be
written keeps nothing; a process reading the file while others write it reads a whole file or none."""
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from corpus import DATA
from pdn_tools.text import builder, grammar

GAMES = sorted((DATA / "variants").glob("*.pdn"))[:6]


def parsed(parser: grammar.PdnParser) -> list[str]:
    """Every game of GAMES parsed by `parser`, as text (positions and warnings included)."""
    from pdn_tools.text.reader import read_raw
    return [repr(parser.parse_game(raw.tokens, False)) for path in GAMES for raw, _ in read_raw(str(path))]


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache folder for this test, and the file the parser is kept in there."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar.PdnParser()
    [kept] = (tmp_path / "pdn-tools").iterdir()
    return kept


@pytest.fixture
def builds(monkeypatch) -> list[int]:
    """Counts the parsers built from the grammar (not loaded)."""
    counted: list[int] = []

    class Counting(grammar.Lark):
        def __init__(self, *args, **kwargs):
            counted.append(1)
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(grammar, "Lark", Counting)
    return counted


def test_a_kept_parser_is_loaded_and_parses_as_a_built_one(cache, builds, capfd, tmp_path, monkeypatch):
    loaded = grammar.PdnParser()
    assert builds == []                                         # loaded, not built
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))       # no folder there: built, not kept
    built = grammar.PdnParser()
    assert builds == [1] and parsed(loaded) == parsed(built)
    assert stat.S_IMODE(cache.parent.stat().st_mode) == 0o700 and stat.S_IMODE(cache.stat().st_mode) == 0o600
    assert capfd.readouterr() == ("", "")


def damage(kept: Path, how: str) -> None:
    """Make the kept file one that must not be loaded, in the way `how` names."""
    data = kept.read_bytes()
    if how == "cut short":                          # an old writer stopped half way, a full disk
        kept.write_bytes(data[:len(data) // 2])
    elif how == "garbage":                          # the right first line, then bytes no pickle reads
        kept.write_bytes(data.split(b"\n", 1)[0] + b"\n" + bytes(range(256)) * 8)
    elif how == "empty":
        kept.write_bytes(b"")
    elif how == "stale":                            # made for another grammar, Lark or Python
        kept.write_bytes(b"0" * 64 + b"\n" + data.split(b"\n", 1)[1])
    elif how == "group-writable":
        kept.chmod(0o620)
    elif how == "world-writable":
        kept.chmod(0o602)
    elif how == "a link":                           # even to a sound copy of the user's own
        copy = kept.with_name("copy")
        copy.write_bytes(data)
        kept.unlink()
        kept.symlink_to(copy)
    elif how == "a folder":
        kept.unlink()
        kept.mkdir()
    elif how == "a FIFO":                           # opening it must not wait for a writer
        kept.unlink()
        os.mkfifo(kept)
    elif how == "unreadable":                       # (root reads it all the same: then it is sound)
        kept.chmod(0)


IGNORED = ["cut short", "garbage", "empty", "stale", "group-writable", "world-writable", "a link"]


@pytest.mark.parametrize("how", IGNORED)
def test_a_file_that_cannot_be_trusted_is_ignored_and_replaced_whole(cache, builds, capfd, how):
    sound = grammar.PdnParser()
    damage(cache, how)
    again = grammar.PdnParser()
    assert builds == [1]                                        # built again, never loaded from it
    assert parsed(again) == parsed(sound)
    assert not cache.is_symlink() and stat.S_IMODE(cache.stat().st_mode) == 0o600
    assert grammar._cached(str(cache), cache.read_bytes().split(b"\n", 1)[0].decode()) is not None
    assert grammar.PdnParser() and builds == [1]                # the new file is loaded
    assert capfd.readouterr() == ("", "")                       # silently: no warning, no traceback


def validated(*paths: Path) -> subprocess.CompletedProcess[str]:
    """`pdn validate PATHS` in a new process (with this test's cache folder), ended if it hangs."""
    return subprocess.run([sys.executable, "-m", "pdn_tools", "validate", *map(str, paths)], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)


@pytest.mark.parametrize("how", ["a folder", "a FIFO", "unreadable"])
def test_what_cannot_be_read_or_replaced_leaves_a_working_parser(cache, how):
    damage(cache, how)
    done = validated(*GAMES)                # a FIFO opened to be read would wait for a writer: never here
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not [name for name in os.listdir(cache.parent) if name.endswith(".tmp")]   # no temporary left


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a file away")
def test_a_file_of_another_user_is_never_loaded(cache, builds):
    os.chown(cache, 4242, 4242)
    grammar.PdnParser()
    assert builds == [1] and cache.stat().st_uid == os.geteuid()         # built, and replaced by the user's own


def test_a_folder_others_can_write_or_of_another_user_keeps_nothing(tmp_path, monkeypatch, builds):
    folder = tmp_path / "pdn-tools"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar.PdnParser()
    grammar.PdnParser()
    assert builds == [1, 1] and list(folder.iterdir()) == []


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), TypeError("another Lark's save")])
def test_a_parser_that_cannot_be_kept_leaves_nothing_and_is_built_again(tmp_path, monkeypatch, builds, capfd, error):
    def failing(self, file, exclude_options=()):
        file.write(b"half a parser")
        raise error
    monkeypatch.setattr(grammar.Lark, "save", failing)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert parsed(grammar.PdnParser()) == parsed(grammar.PdnParser())
    assert builds == [1, 1] and list((tmp_path / "pdn-tools").iterdir()) == []
    assert capfd.readouterr() == ("", "")


def test_a_home_that_cannot_be_written_runs_without_a_cache(tmp_path):
    """No folder can be made under HOME (here /proc, which not even root can write): commands run
    as before, nothing said."""
    env = {key: value for key, value in os.environ.items() if key != "XDG_CACHE_HOME"} | {"HOME": "/proc"}
    done = subprocess.run([sys.executable, "-m", "pdn_tools", "validate", str(GAMES[0])], env=env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize("xdg, home, kept_in", [
    ("cache", "/HOME", "/HOME/.cache"),        # a relative XDG_CACHE_HOME is ignored, as the XDG spec says
    ("", "home", None),                        # a HOME that is relative: no cache at all
    (None, "~", None),                         # as expanduser leaves "~" with HOME unset and no passwd entry
])
def test_a_cache_folder_named_relative_to_the_working_folder_is_not_made(tmp_path, monkeypatch, builds, xdg, home,
                                                                         kept_in):
    """The cache is never made in the folder a command runs in: `XDG_CACHE_HOME=cache pdn validate` made
    ./cache/pdn-tools there, and a HOME that cannot be resolved ./~/.cache/pdn-tools, in every folder run in."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for name, value in (("XDG_CACHE_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value.replace("/HOME", str(tmp_path / "home")))
    grammar.PdnParser()
    grammar.PdnParser()
    assert list(work.iterdir()) == []
    if kept_in is None:
        assert builds == [1, 1]
    else:
        kept = Path(kept_in.replace("/HOME", str(tmp_path / "home")), "pdn-tools")
        assert builds == [1] and len(list(kept.iterdir())) == 1


WRITER = """
import sys
from pdn_tools.text import grammar
path, key, times = sys.argv[1], sys.argv[2], int(sys.argv[3])
lark = grammar.PdnParser().lark
for _ in range(times):
    grammar._keep(lark, path, key)
"""


@pytest.mark.slow          # three writer processes raced for a few seconds
def test_a_reader_never_sees_a_file_half_written(cache):
    """Three processes write the file again and again while this one reads it: each read finds a
    whole parser (the writers rename a finished temporary file over it)."""
    key = cache.read_bytes().split(b"\n", 1)[0].decode()
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(cache), key, "40"], env=os.environ)
               for _ in range(3)]
    reads = 0
    while any(writer.poll() is None for writer in writers) or reads < 20:
        saved = grammar._cached(str(cache), key)
        assert saved is not None and grammar._loaded(saved, builder._Builder(builder.TAG_PAIR)) is not None
        reads += 1
    assert [writer.wait() for writer in writers] == [0, 0, 0]
    assert sorted(os.listdir(cache.parent)) == [cache.name]              # no temporary file left
