"""Nothing lost, nothing damaged when writing: folders walked whole,
outputs that are not regular files, --in-place through links and of compressed files, signals,
split's prefix."""
import bz2
import gzip
import json
import lzma
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn_tools.cli import cli
from pdn_tools.text.names import printable

PDN = [sys.executable, "-m", "pdn_tools"]
GOOD = '[GameType "20"]\n[Result "*"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
BAD = '[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n\n'


def invoke(args, input=None):
    return CliRunner().invoke(cli, args, input=input)


def wait_for(condition, seconds=30.0):
    """Poll `condition` until it holds or `seconds` pass; whether it held."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


# ---- folders ------------------------------------------------------------------------------------

def test_a_fifo_in_a_folder_is_reported_and_the_batch_goes_on(tmp_path):
    (tmp_path / "a.pdn").write_text(GOOD)
    os.mkfifo(tmp_path / "b.pdn")
    done = invoke(["validate", "--format", "jsonl", str(tmp_path)])
    assert done.exit_code == 2
    assert done.stderr == f"pdn: cannot read {tmp_path / 'b.pdn'}: not a regular file\n"
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [str(tmp_path / "a.pdn")]


def _without_root_reading_rights():
    """In the child, before exec: root loses the rights to read what its mode forbids
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH dropped from the bounding set); others have none."""
    if os.geteuid() == 0:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2):                       # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
            assert libc.prctl(24, capability, 0, 0, 0) == 0     # PR_CAPBSET_DROP


def test_an_unreadable_subfolder_is_reported_like_an_unreadable_file(tmp_path):
    (tmp_path / "a.pdn").write_text(GOOD)
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "c.pdn").write_text(GOOD)
    locked.chmod(0)
    try:
        done = subprocess.run(PDN + ["validate", "--format", "jsonl", str(tmp_path)], capture_output=True,
                              timeout=60, text=True, preexec_fn=_without_root_reading_rights)
    finally:
        locked.chmod(0o755)
    assert done.returncode == 2
    assert done.stderr == f"pdn: cannot read {locked}: Permission denied\n"
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [str(tmp_path / "a.pdn")]


@pytest.mark.slow          # the 990 levels are the point
def test_a_folder_990_levels_deep_is_walked_without_recursion(tmp_path):
    deepest = str(tmp_path)
    for _ in range(990):
        deepest = os.path.join(deepest, "d")
        os.mkdir(deepest)
    Path(deepest, "deep.pdn").write_text(BAD)
    (tmp_path / "top.pdn").write_text(GOOD)
    try:
        result = invoke(["validate", "--format", "jsonl", str(tmp_path)])
        assert result.exit_code == 1, result.output
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert [(r["file"], r["ok"]) for r in records] == [
            (os.path.join(deepest, "deep.pdn"), False), (str(tmp_path / "top.pdn"), True)]
    finally:                                   # rmtree recurses: take the tree down from the bottom
        os.unlink(os.path.join(deepest, "deep.pdn"))
        while deepest != str(tmp_path):
            os.rmdir(deepest)
            deepest = os.path.dirname(deepest)


def test_a_newline_in_a_file_name_cannot_forge_report_lines(tmp_path):
    forged = tmp_path / "a.pdn\nb.pdn:1:1: game 1: all fine"
    forged.mkdir()
    (forged / "x\ty.pdn").write_text(BAD)
    result = invoke(["validate", str(tmp_path)])
    shown = f"{tmp_path}/a.pdn\\nb.pdn:1:1: game 1: all fine/x\\ty.pdn"
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{shown}:2:19: game 1, ply 3 (move 2. 28x51): '51' is not a square of the international board "
        "[bad-square]"]
    jsonl = invoke(["validate", "--format", "jsonl", str(tmp_path)])
    assert json.loads(jsonl.stdout)["file"] == str(forged / "x\ty.pdn")      # JSON keeps the real name
    missing = invoke(["validate", str(tmp_path / "new\nline.pdn")])
    assert missing.exit_code == 2
    assert missing.stderr == f"pdn: cannot read {tmp_path}/new\\nline.pdn: no such file\n"


def test_printable_escapes_controls_separators_and_undecodable_bytes():
    assert printable("plain name.pdn") == "plain name.pdn"
    assert printable("a\nb\rc\td") == "a\\nb\\rc\\td"
    assert printable("esc\x1b[31m\x7f\x85") == "esc\\x1b[31m\\x7f\\x85"
    assert printable("line\u2028sep") == "line\\u2028sep"
    assert printable(os.fsdecode(b"caf\xe9.pdn")) == "caf\\xe9.pdn"
    assert printable("Coração №5.pdn") == "Coração №5.pdn"


# ---- outputs that are not regular files ----------------------------------------------------------

def converted_into_fifo(tmp_path, name):
    """`convert` of GOOD with -o a FIFO named `name`: the result and the bytes a reader got from it."""
    (tmp_path / "a.pdn").write_text(GOOD)
    fifo = tmp_path / name
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = invoke(["convert", str(tmp_path / "a.pdn"), "-o", str(fifo)])
    reader.join(timeout=30)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    return done, b"".join(received)


def test_a_fifo_given_as_output_is_written_straight_not_replaced(tmp_path):
    done, received = converted_into_fifo(tmp_path, "out.fifo")
    assert done.exit_code == 0 and done.stderr == ""
    assert received == b"[Result \"*\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pdn-")] == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pdn-")] == []


def test_dev_null_stays_a_device(tmp_path):
    """Run as root, the rename used to put a regular file in place of /dev/null."""
    (tmp_path / "a.pdn").write_text(GOOD)
    before = os.lstat("/dev/null")
    done = invoke(["convert", str(tmp_path / "a.pdn"), "-o", "/dev/null"])
    after = os.lstat("/dev/null")
    assert done.exit_code == 0 and done.stderr == ""
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


@pytest.mark.slow          # a pdn process per output
def test_dev_stdout_writes_through_stdout_a_pipe_or_an_appended_file(tmp_path):
    (tmp_path / "a.pdn").write_text(GOOD)
    link = os.readlink("/dev/stdout")
    piped = subprocess.run(PDN + ["convert", str(tmp_path / "a.pdn"), "-o", "/dev/stdout"], capture_output=True,
                           timeout=60, text=True)
    assert piped.returncode == 0 and piped.stdout.endswith("1. 32-28 19-23 2. 28x19 14x23 *\n\n")
    log = tmp_path / "log.txt"
    log.write_text("kept\n")
    with open(log, "a") as appended:                    # `>> log`: what was there stays
        done = subprocess.run(PDN + ["convert", str(tmp_path / "a.pdn"), "-o", "/dev/stdout"], stdout=appended,
                              stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 0 and log.read_text() == "kept\n" + piped.stdout
    assert os.readlink("/dev/stdout") == link


# ---- --in-place: links, owner, group, mode -------------------------------------------------------

def test_in_place_through_a_symlink_converts_the_target_and_keeps_the_link(tmp_path):
    target = tmp_path / "real.pdn"
    target.write_text(GOOD.replace("1. 32-28", "1.32-28"))
    link = tmp_path / "link.pdn"
    link.symlink_to(target)
    result = invoke(["convert", "--in-place", str(link)])
    assert result.exit_code == 0 and result.stderr == ""
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == '[Result "*"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'


def test_in_place_keeps_owner_group_and_mode(tmp_path):
    source = tmp_path / "a.pdn"
    source.write_text(GOOD.replace("1. 32-28", "1.32-28"))
    owner = (1234, 5678) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    os.chown(source, *owner)
    source.chmod(0o640)
    result = invoke(["convert", "--in-place", str(source)])
    info = os.stat(source)
    assert result.exit_code == 0 and "1. 32-28" in source.read_text()
    assert ((info.st_uid, info.st_gid), stat.S_IMODE(info.st_mode)) == (owner, 0o640)


def _acl(*entries):
    """A POSIX ACL as its extended attribute holds it: version 2, then (tag, permissions, id) each."""
    return (2).to_bytes(4, "little") + b"".join(
        tag.to_bytes(2, "little") + perm.to_bytes(2, "little") + ident.to_bytes(4, "little")
        for tag, perm, ident in entries)


@pytest.mark.parametrize("how", ["--in-place", "-o"])
def test_a_file_written_again_keeps_its_extended_attributes_and_acl(tmp_path, how):
    """`setfacl -m u:1234:r games.pdn`, `setfattr -n user.source`: the new file renamed over the old one
    had neither; it is given the old one's, as its owner and mode."""
    source, out = tmp_path / "a.pdn", tmp_path / "out.pdn"
    source.write_text(GOOD.replace("1. 32-28", "1.32-28"))
    out.write_text("old\n")
    target = source if how == "--in-place" else out
    acl = _acl((1, 6, 0xFFFFFFFF), (2, 4, 1234), (4, 4, 0xFFFFFFFF), (0x10, 4, 0xFFFFFFFF), (0x20, 4, 0xFFFFFFFF))
    try:
        os.setxattr(target, "user.source", b"the club's archive")
        os.setxattr(target, "system.posix_acl_access", acl)
    except OSError as error:
        pytest.skip(f"no extended attributes here: {error}")
    kept = {name: os.getxattr(target, name) for name in os.listxattr(target)}
    result = invoke(["convert", "--in-place", str(source)] if how == "--in-place" else
                    ["convert", str(source), "-o", str(out)])
    assert result.exit_code == 0 and "1. 32-28" in target.read_text()
    assert {name: os.getxattr(target, name) for name in os.listxattr(target)} == kept
    assert kept["system.posix_acl_access"] == acl


def test_a_file_whose_extended_attributes_cannot_be_kept_is_left_unchanged(tmp_path, monkeypatch):
    old = GOOD.replace("1. 32-28", "1.32-28")
    source = tmp_path / "a.pdn"
    source.write_text(old)
    try:
        os.setxattr(source, "user.source", b"archive")
    except OSError as error:
        pytest.skip(f"no extended attributes here: {error}")

    def refuse(path, name, value, *args):
        raise PermissionError(1, "Operation not permitted", path)
    monkeypatch.setattr(os, "setxattr", refuse)
    result = invoke(["convert", "--in-place", str(source)])
    assert (result.exit_code, result.stderr) == (2, f"pdn: cannot write {source}: cannot keep its extended attribute "
                                                    "user.source (Operation not permitted); left unchanged\n")
    assert source.read_text() == old and os.listdir(tmp_path) == ["a.pdn"]


def test_in_place_gives_a_new_file_other_hard_links_keep_the_old_text(tmp_path):
    """As documented in docs/conventions.md: the file is replaced atomically, so a hard link to it
    still shows the old text, and stderr says so."""
    old = GOOD.replace("1. 32-28", "1.32-28")
    source = tmp_path / "a.pdn"
    source.write_text(old)
    other = tmp_path / "b.pdn"
    os.link(source, other)
    result = invoke(["convert", "--in-place", str(source)])
    assert result.exit_code == 0
    assert result.stderr == f"pdn: {source} is a new file; its 1 other hard link(s) keep the old text\n"
    assert "1. 32-28" in source.read_text() and other.read_text() == old
    assert os.stat(source).st_nlink == 1


@pytest.mark.parametrize("how", ["-o", "--in-place", "split"])
def test_a_file_without_write_permission_is_left_as_it_is(tmp_path, how):
    """`chmod a-w games.pdn` says: not to be changed.  The new file was renamed over it all the same (the
    folder being writable), where `>`, cp and an editor say Permission denied; now so does pdn, exit 2."""
    old = GOOD.replace("1. 32-28", "1.32-28")
    source, target = tmp_path / "a.pdn", tmp_path / "b.pdn"
    source.write_text(old)
    target.write_text("kept\n")
    locked = source if how == "--in-place" else target
    locked.chmod(0o444)
    args = {"-o": ["convert", str(source), "-o", str(target)], "--in-place": ["convert", "--in-place", str(source)]}
    if how == "split":
        target = tmp_path / "game-00001.pdn"
        target.write_text("kept\n")
        target.chmod(0o444)
        locked = target
    command = args.get(how, ["split", "--force", str(source), "-o", str(tmp_path)])
    done = subprocess.run(PDN + command, capture_output=True, timeout=60, text=True,
                          preexec_fn=_without_root_reading_rights)
    assert done.returncode == 2
    assert done.stderr == f"pdn: cannot write {locked}: Permission denied" \
        f"{'; left unchanged' if how == '--in-place' else ''}\n"
    assert locked.read_text() == (old if how == "--in-place" else "kept\n")
    assert not list(tmp_path.glob(".pdn-*"))


@pytest.mark.parametrize("how", ["-o", "--in-place"])
def test_a_writable_file_in_a_folder_that_cannot_be_written_says_it_is_the_folder(tmp_path, how):
    """`>` can write such a file, pdn cannot (the new file is made beside it): 'Permission denied' alone,
    for a file `ls -l` shows writable, did not say why."""
    folder = tmp_path / "locked"
    folder.mkdir()
    target = folder / "a.pdn"
    target.write_text(GOOD.replace("1. 32-28", "1.32-28"))
    target.chmod(0o666)
    folder.chmod(0o555)
    command = ["convert", "--in-place", str(target)] if how == "--in-place" else \
        ["convert", "-", "-o", str(target)]
    try:
        done = subprocess.run(PDN + command, capture_output=True, timeout=60, text=True, input=GOOD,
                              preexec_fn=_without_root_reading_rights)
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2
    assert done.stderr == f"pdn: cannot write {target}: its folder cannot take the new file (Permission denied)" \
        f"{'; left unchanged' if how == '--in-place' else ''}\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a read-only file system needs root")
@pytest.mark.parametrize("how", ["-o", "--in-place"])
def test_a_file_on_a_read_only_file_system_says_so(tmp_path, how):
    """The reason the system gives (EROFS), not 'Permission denied' for every file that cannot be written."""
    mount = tmp_path / "mount"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], check=True)
    try:
        target = mount / "a.pdn"
        target.write_text(GOOD.replace("1. 32-28", "1.32-28"))
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        result = invoke(["convert", "--in-place", str(target)] if how == "--in-place" else
                        ["convert", "-", "-o", str(target)], input=GOOD)
        assert (result.exit_code, result.stderr) == (2, f"pdn: cannot write {target}: Read-only file system"
                                                         f"{'; left unchanged' if how == '--in-place' else ''}\n")
        assert target.read_text() == GOOD.replace("1. 32-28", "1.32-28")
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_file_whose_owner_cannot_be_kept_is_left_unchanged_and_the_batch_goes_on(tmp_path, monkeypatch):
    """Not root: the new file cannot be given the old one's owner and group.  Replacing it
    would change them silently, so it stays as it was; the next file is converted."""
    old = GOOD.replace("1. 32-28", "1.32-28")
    first, second = tmp_path / "a.pdn", tmp_path / "b.pdn"
    first.write_text(old)
    second.write_text(old)
    before = os.stat(first)

    def refuse(path, uid, gid):
        raise PermissionError(1, "Operation not permitted", path)

    monkeypatch.setattr(os, "stat", _owned_by_someone_else(first, os.stat))
    monkeypatch.setattr(os, "chown", refuse)
    result = invoke(["convert", "--in-place", str(first), str(second)])
    assert result.exit_code == 2
    assert result.stderr == (f"pdn: cannot write {first}: cannot keep its owner and group (Operation not "
                             f"permitted); left unchanged\n")
    assert first.read_text() == old and os.lstat(first).st_ino == before.st_ino
    assert "1. 32-28" in second.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdn", "b.pdn"]


def _owned_by_someone_else(path, real_stat):
    """os.stat, but `path` seems to belong to uid/gid 4321."""
    def fake(target, *args, **kwargs):
        info = real_stat(target, *args, **kwargs)
        if str(target) == str(path):
            fields = list(info)
            fields[4], fields[5] = 4321, 4321
            return os.stat_result(fields)
        return info
    return fake


def test_a_write_error_names_the_users_path_not_the_temporary_file(tmp_path):
    (tmp_path / "a.pdn").write_text(GOOD)
    target = tmp_path / "missing-folder" / "out.pdn"
    done = invoke(["convert", str(tmp_path / "a.pdn"), "-o", str(target)])
    assert done.exit_code == 2
    assert done.stderr == f"pdn: cannot write {target}: No such file or directory\n"


# ---- --in-place: compressed files ----------------------------------------------------------------

def _zstd():
    """zstd's compress and decompress (a frame written as a stream does not say its size up front)."""
    zstandard = pytest.importorskip("zstandard")
    return zstandard.compress, lambda data: zstandard.ZstdDecompressor().decompressobj().decompress(data)


FORMATS = {"": lambda: (bytes, bytes), ".gz": lambda: (gzip.compress, gzip.decompress),
           ".bz2": lambda: (bz2.compress, bz2.decompress), ".xz": lambda: (lzma.compress, lzma.decompress),
           ".zst": _zstd}


@pytest.mark.parametrize("suffix", FORMATS)
def test_in_place_writes_a_file_again_in_its_compression_and_leaves_an_unchanged_one_alone(tmp_path, suffix):
    """The file stays in its format (what plain convert writes, compressed again), keeps its mode, and is
    not written at all the second time, its games being the same."""
    compress, decompress = FORMATS[suffix]()
    old = GOOD.replace("1. 32-28", "1.32-28").encode()
    source = tmp_path / f"a.pdn{suffix}"
    source.write_bytes(compress(old))
    source.chmod(0o640)
    result = invoke(["convert", "--in-place", str(tmp_path)])
    assert result.exit_code == 0 and result.stderr == ""
    assert decompress(source.read_bytes()) == invoke(["convert", "-"], input=old).stdout_bytes
    assert stat.S_IMODE(os.stat(source).st_mode) == 0o640
    before, written = os.stat(source), source.read_bytes()
    again = invoke(["convert", "--in-place", str(source)])
    after = os.stat(source)
    assert again.exit_code == 0 and again.stderr == "" and source.read_bytes() == written
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert os.listdir(tmp_path) == [source.name]


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".zst"])
def test_fix_results_in_place_writes_a_compressed_file_again_in_its_compression(tmp_path, suffix):
    compress, decompress = FORMATS[suffix]()
    old = b'[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "0-2"]\n1. 28x19 0-2\n'
    source = tmp_path / f"a.pdn{suffix}"
    source.write_bytes(compress(old))
    result = invoke(["convert", "--fix-results", "--in-place", str(source)])
    assert result.exit_code == 0 and "[fixed-result]" in result.stderr
    assert decompress(source.read_bytes()) == old.replace(b"0-2", b"2-0")


@pytest.mark.parametrize("fix", [False, True], ids=["convert", "fix-results"])
@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".zst"])
def test_in_place_of_a_file_of_several_members_keeps_every_game(tmp_path, suffix, fix):
    """`cat a.pdn.gz b.pdn.gz > both.pdn.gz`: every member (stream, frame) is read, and the file is written
    again as one member holding the games of all of them."""
    compress, _ = FORMATS[suffix]()
    first, second = (FIXABLE, FIXABLE.replace("[Result", "[Event \"b\"]\\n[Result")) if fix else \
        (GOOD.replace("1. 32-28", "1.32-28"), GOOD.replace("2. 28x19", "2.28x19"))
    source = tmp_path / f"a.pdn{suffix}"
    source.write_bytes(compress(first.encode()) + compress(second.encode()))
    expected = invoke(["convert", "--fix-results", "-"] if fix else ["convert", "-"], input=first + second)
    assert expected.stdout.count("[GameType") == 2 and expected.stdout != first + second
    options = ["--fix-results"] if fix else []
    result = invoke(["convert", *options, "--in-place", str(source)])
    assert result.exit_code == 0
    assert invoke(["convert", "--fix-results", str(source)] if fix else ["convert", str(source)]).stdout \
        == expected.stdout
    assert os.listdir(tmp_path) == [source.name]


FIXABLE = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "0-2"]\n1. 28x19 0-2\n\n'


@pytest.mark.parametrize("head", [b"\x1f\x8b", b"\x1f\x8b\x08", b"\x1f\x8b\x08\x0c\0\0\0\0\0\x03\x05"])
def test_in_place_of_a_gzip_file_cut_in_its_header_is_left_unchanged(tmp_path, head):
    """The header is read to keep its name: one cut short is damaged data, said as such, not a traceback."""
    source = tmp_path / "a.pdn.gz"
    source.write_bytes(head)
    result = invoke(["convert", "--in-place", str(source)])
    assert result.exit_code == 2 and isinstance(result.exception, (SystemExit, type(None)))
    assert result.stderr.startswith(f"pdn: cannot read {source}: ") and "Traceback" not in result.stderr
    assert source.read_bytes() == head and os.listdir(tmp_path) == [source.name]


def _gzip_header(data):
    """(name, time) a gzip member's header gives (name None when it gives none)."""
    flags, mtime = data[3], int.from_bytes(data[4:8], "little")
    assert flags & ~0x08 == 0                   # only FNAME, as gzip writes
    return (data[10:data.index(b"\0", 10)] if flags & 0x08 else None), mtime


@pytest.mark.parametrize("fix", [False, True], ids=["convert", "fix-results"])
def test_in_place_of_a_gzip_file_keeps_the_name_its_header_gives(tmp_path, fix):
    """`gzip games.pdn` stores the name games.pdn and the file's time: `gunzip -N` and `gzip -l -N` use them.
    Written again, the name stays and the time is that of the writing, as gzip gives a file just written;
    a header with neither (gzip -n, Python's gzip.compress) stays without."""
    old = FIXABLE if fix else GOOD.replace("1. 32-28", "1.32-28")
    named, bare = tmp_path / "a.pdn.gz", tmp_path / "b.pdn.gz"
    with named.open("wb") as raw, gzip.GzipFile("Games (1).pdn", "wb", fileobj=raw, mtime=1577836800) as packed:
        packed.write(old.encode())
    bare.write_bytes(gzip.compress(old.encode(), mtime=0))
    assert _gzip_header(named.read_bytes()) == (b"Games (1).pdn", 1577836800)
    started = int(time.time())
    options = ["--fix-results"] if fix else []
    result = invoke(["convert", *options, "--in-place", str(named), str(bare)])
    assert result.exit_code == 0
    name, mtime = _gzip_header(named.read_bytes())
    assert name == b"Games (1).pdn" and started <= mtime <= time.time()
    assert _gzip_header(bare.read_bytes()) == (None, 0)
    assert gzip.decompress(named.read_bytes()) == gzip.decompress(bare.read_bytes()) != old.encode()


def test_a_compression_that_cannot_be_written_is_refused_and_the_batch_goes_on(tmp_path, monkeypatch):
    """zstd without the zstandard package: the file is left as it was (exit 2), the others converted."""
    compress, _ = _zstd()
    old = GOOD.replace("1. 32-28", "1.32-28").encode()
    (tmp_path / "a.pdn.zst").write_bytes(compress(old))
    (tmp_path / "b.pdn.gz").write_bytes(gzip.compress(old))
    kept = (tmp_path / "a.pdn.zst").read_bytes()
    monkeypatch.setitem(sys.modules, "zstandard", None)
    result = invoke(["convert", "--in-place", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == (f"pdn: cannot write {tmp_path / 'a.pdn.zst'}: zstd data needs the zstd extra: "
                             "pip install 'pdn-tools[zstd]'; left unchanged\n")
    assert (tmp_path / "a.pdn.zst").read_bytes() == kept
    assert b"1. 32-28" in gzip.decompress((tmp_path / "b.pdn.gz").read_bytes())
    assert sorted(os.listdir(tmp_path)) == ["a.pdn.zst", "b.pdn.gz"]


# ---- -o NAME.gz: compressed as its name says ------------------------------------------------------

# Every command that writes text to -o, with what it writes there (the same as on stdout).
OUTPUTS = [["convert"], ["convert", "--to", "jsonl"], ["filter", "--result", "*"], ["dedupe"], ["annotate", "--fen"],
           ["validate", "--format", "jsonl"], ["list"], ["stats"], ["diagram", "--format", "svg"]]


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".zst", ".GZ"])
@pytest.mark.parametrize("command", OUTPUTS, ids=" ".join)
def test_an_output_named_as_compressed_data_is_written_compressed(tmp_path, suffix, command):
    """`-o games.pdn.gz` used to be plain text under a gzip name: `gunzip` and every other tool refused it."""
    _, decompress = FORMATS[suffix.lower()]()
    (tmp_path / "a.pdn").write_text(GOOD)
    out = tmp_path / f"out{suffix}"
    written = invoke([*command, str(tmp_path / "a.pdn"), "-o", str(out)])
    shown = invoke([*command, str(tmp_path / "a.pdn")])
    assert (written.exit_code, written.stderr) == (shown.exit_code, shown.stderr) == (0, "")
    assert decompress(out.read_bytes()) == shown.stdout_bytes != b""
    assert sorted(os.listdir(tmp_path)) == ["a.pdn", out.name]


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".zst"])
def test_a_compressed_output_reads_back_as_the_same_games(tmp_path, suffix):
    FORMATS[suffix]()
    (tmp_path / "a.pdn").write_text(GOOD + BAD.replace("28x51", "28x19"))
    out = tmp_path / f"out.pdn{suffix}"
    assert invoke(["convert", str(tmp_path / "a.pdn"), "-o", str(out)]).exit_code == 0
    again = invoke(["convert", str(out)])
    assert again.exit_code == 0 and again.stdout == invoke(["convert", str(tmp_path / "a.pdn")]).stdout


def test_a_fifo_named_as_compressed_data_is_written_compressed(tmp_path):
    done, received = converted_into_fifo(tmp_path, "out.pdn.gz")
    assert done.exit_code == 0 and done.stderr == ""
    assert gzip.decompress(received) == invoke(["convert", str(tmp_path / "a.pdn")]).stdout_bytes


def test_an_output_named_zst_without_the_extra_is_refused_before_any_work(tmp_path, monkeypatch):
    (tmp_path / "a.pdn").write_text(GOOD)
    out = tmp_path / "out.pdn.zst"
    out.write_bytes(b"the old output")
    monkeypatch.setitem(sys.modules, "zstandard", None)
    result = invoke(["convert", str(tmp_path / "a.pdn"), "-o", str(out)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"pdn: cannot write {out}: zstd data needs the zstd extra: "
                             "pip install 'pdn-tools[zstd]'\n")
    assert out.read_bytes() == b"the old output" and sorted(os.listdir(tmp_path)) == ["a.pdn", out.name]


@pytest.mark.parametrize("command", [*OUTPUTS, ["convert", "--in-place"], ["split", "--per", "500", "-o"]],
                         ids=" ".join)
@pytest.mark.parametrize("halfway", [False, True], ids=["first write", "halfway"])
def test_a_disk_that_fills_up_halfway_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch, command, halfway):
    """ENOSPC at the first write to the file, or after half the writes went through: one line, exit 2,
    the old file as it was, nothing left beside it."""
    import shutil

    source, out, parts = tmp_path / "a.pdn", tmp_path / "out.pdn", tmp_path / "parts"

    def start():
        source.write_text(GOOD.replace("1. 32-28", "1.32-28") * 3000)
        out.write_text("the old output\n")
        shutil.rmtree(parts, ignore_errors=True)
    real, writes, after = os.write, [], [10 ** 9]

    def fill_up(descriptor, data):
        if descriptor > 2:
            writes.append(len(data))
            if len(writes) > after[0]:
                raise OSError(28, "No space left on device")
        return real(descriptor, data)
    monkeypatch.setattr(os, "write", fill_up)
    if command[0] == "split":           # the part that fails: the first one not written whole before
        target, args = parts / "game-{:05d}.pdn", [*command, str(parts), str(source)]
    elif "--in-place" in command:
        target, args = source, [*command, str(source)]
    else:
        target, args = out, [*command, str(source), "-o", str(out)]
    start()
    if halfway:                 # how many writes (and parts) the command makes
        assert invoke(args).exit_code == 0
        made = len(list(parts.glob("*.pdn")))
        start()
    after[0], writes[:] = len(writes) // 2, []
    if command[0] == "split":
        target = Path(str(target).format(made // 2 + 1 if halfway else 1))
    before = target.read_bytes() if target.exists() else None
    result = invoke(args)
    assert writes
    assert result.exit_code == 2
    assert result.stderr.endswith(f"pdn: cannot write {target}: No space left on device"
                                  f"{'; left unchanged' if '--in-place' in command else ''}\n")
    assert result.stderr.count("pdn: cannot write") == 1
    assert (target.read_bytes() if target.exists() else None) == before
    assert not list(tmp_path.rglob(".pdn-*"))


# ---- signals leave no temporary file -------------------------------------------------------------

@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_writing_leaves_no_temporary_file(tmp_path, signum):
    out = tmp_path / "out.pdn"
    out.write_text("the old output\n")
    producer = subprocess.Popen(PDN + ["convert", "-", "-o", str(out)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        producer.stdin.write(GOOD.encode() * 50)
        producer.stdin.flush()                      # stdin stays open: the conversion is under way
        assert wait_for(lambda: any(tmp_path.glob(".pdn-*.tmp")))
        producer.send_signal(signum)
        _, err = producer.communicate(timeout=60)
    finally:
        producer.kill()
    assert producer.returncode == -signum and b"Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pdn"]
    assert out.read_text() == "the old output\n"


def test_a_signal_just_after_the_temporary_file_is_made_removes_it(tmp_path, monkeypatch):
    """The window between creating the temporary file and knowing its name: a signal there
    must still find it (it once left a .pdn-*.tmp under load)."""
    from pdn_tools.running import files, signals

    real_open = os.open

    def open_then_signal(*args, **kwargs):
        descriptor = real_open(*args, **kwargs)
        monkeypatch.setattr(os, "open", real_open)
        os.kill(os.getpid(), signal.SIGTERM)        # handled at the next bytecode, as in the window
        return descriptor

    saved = {signum: signal.getsignal(signum) for signum in signals.ENDING_SIGNALS}
    try:
        for signum in signals.ENDING_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)
        signals.clean_up_on_signals()
        monkeypatch.setattr(os, "open", open_then_signal)
        with pytest.raises(signals.Terminated):
            with files.atomic_output(str(tmp_path / "out.pdn")) as stream:
                stream.write("never written")
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
    assert list(tmp_path.iterdir()) == []


# ---- split --prefix ------------------------------------------------------------------------------

@pytest.mark.parametrize("prefix, why", [
    *[(prefix, "would write outside the -o folder") for prefix in ("../x", "/abs/x", "sub/x")],
    ("", "names files that start with '-'"), ("-x", "names files that start with '-'"), (".x", "names hidden files")])
def test_split_refuses_a_prefix_that_leaves_the_folder_or_names_parts_read_as_no_file(tmp_path, prefix, why):
    """A prefix with a folder part writes outside the folder; `--prefix ''` wrote -00001.pdn, which
    `pdn validate *` takes for an option, and `.x` hidden parts that `*` skips."""
    (tmp_path / "a.pdn").write_text(GOOD)
    folder = tmp_path / "out"
    result = invoke(["split", str(tmp_path / "a.pdn"), "-o", str(folder), "--prefix", prefix])
    assert result.exit_code == 2
    assert f"Invalid value for '--prefix': '{prefix}' {why}" in result.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.pdn"]


@pytest.mark.parametrize("command", [*OUTPUTS, ["perft", "--depth", "1"]], ids=" ".join)
def test_an_empty_output_name_is_a_usage_error_for_every_command(tmp_path, command):
    """`-o ''` was 'cannot write : Is a directory' for some commands and standard output for diagram."""
    (tmp_path / "a.pdn").write_text(GOOD)
    inputs = [] if command[0] == "perft" else [str(tmp_path / "a.pdn")]
    result = invoke([*command, *inputs, "-o", ""])
    assert result.exit_code == 2 and result.stdout == ""
    assert "Invalid value for '--output' / '-o': an empty name; give a file name, or - for standard output" \
        in result.stderr


@pytest.mark.parametrize("command", [*OUTPUTS, ["diagram", "--format", "png"], ["perft", "--variant", "english",
                                                                                   "--depth", "1"]], ids=" ".join)
def test_an_output_that_is_a_folder_is_one_line_for_every_command(tmp_path, command):
    """`diagram -o FOLDER` was click's usage error ('File ... is a directory.' under a usage line), the
    others `pdn: cannot write FOLDER: Is a directory`: now all say the latter, exit 2."""
    (tmp_path / "a.pdn").write_text(GOOD)
    folder = tmp_path / "out"
    folder.mkdir()
    inputs = [] if command[0] == "perft" else [str(tmp_path / "a.pdn")]
    result = invoke([*command, *inputs, "-o", str(folder)])
    assert (result.exit_code, result.stderr) == (2, f"pdn: cannot write {folder}: Is a directory\n")
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("exists", [False, True])
def test_an_output_named_with_a_trailing_slash_is_a_folder_never_a_file(tmp_path, exists):
    """`-o x.pdn/` (the slash: a folder) wrote a file x.pdn when there was none; when x.pdn was a file,
    it was 'Not a directory'.  Both are now refused, as the system refuses opening such a name."""
    (tmp_path / "a.pdn").write_text(GOOD)
    if exists:
        (tmp_path / "x.pdn").write_text("kept")
    result = invoke(["convert", str(tmp_path / "a.pdn"), "-o", f"{tmp_path / 'x.pdn'}/"])
    reason = "Not a directory" if exists else "Is a directory"
    assert (result.exit_code, result.stderr) == (2, f"pdn: cannot write {tmp_path / 'x.pdn'}/: {reason}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdn", "x.pdn"] if exists else ["a.pdn"]
