"""Encodings: UTF-16 and UTF-32 found by their byte order mark or their NUL bytes, the legacy code page
guessed once per file from all its bytes that are not UTF-8, a damaged UTF-8 byte marked
where it is, --encoding to override; every game read, every warning located."""
import codecs
import encodings
import encodings.aliases
import io
import json
import pkgutil
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from pdn_tools import Game, read_games
from pdn_tools.cli import cli
from pdn_tools.text import decoding
from pdn_tools.text.codes import Code

FIVE = "".join(f'[Event "Tournoi n°{i}"]\n[White "Renée"]\n1. 32-28 19-23 *\n\n' for i in range(1, 6))


def read_bytes(data: bytes, **options) -> list:
    return list(read_games(io.BytesIO(data), name="t.pdn", **options))


def codes(game) -> list[tuple]:
    return [(w.code, w.line, w.column, w.message) for w in game.warnings]


class Pipe(io.RawIOBase):
    """A stream that cannot seek, as stdin from a pipe."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        chunk = self._data.read(len(buffer))
        buffer[:len(chunk)] = chunk
        return len(chunk)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("bom", [True, False])
def test_utf16_and_utf32_with_or_without_bom_are_decoded(codec, bom):
    """UTF-32 without a mark was read as UTF-8: five games became one, its NUL bytes prose, exit 0."""
    data = (("\ufeff" if bom else "") + FIVE).encode(codec)
    games = read_bytes(data)
    assert len(games) == 5 and all(isinstance(g, Game) for g in games)
    assert [g.tag("Event") for g in games] == [f"Tournoi n°{i}" for i in range(1, 6)]
    assert all(g.tag("White") == "Renée" and len(g.main_line()) == 2 for g in games)
    assert codes(games[0]) == [(Code.ENCODING, 1, 1, f"not UTF-8; read as {codec}")]


def test_utf16_is_reported_with_the_file_and_converted_to_utf8(tmp_path):
    path = tmp_path / "wide.pdn"
    path.write_bytes(FIVE.encode("utf-16"))
    report = CliRunner().invoke(cli, ["validate", str(path)])
    assert f"{path}:1:1: game 1 (Renée – ?, Tournoi n°1): warning: not UTF-8; read as utf-16-le [encoding]" \
        in report.output
    assert report.exit_code == 0
    converted = CliRunner().invoke(cli, ["convert", str(path)])
    assert converted.exit_code == 0 and converted.stdout_bytes.decode("utf-8").count("[Event") == 5


def test_latin1_word_with_two_accents_in_a_row_is_cp1252():
    games = read_bytes('[Event "x"]\n1. 32-28 *\n\n[White "Coração"]\n1. 32-28 *\n'.encode("latin-1"))
    assert len(games) == 2 and games[1].tag("White") == "Coração"
    assert codes(games[1]) == [(Code.ENCODING, 4, 13, "not UTF-8; read as cp1252")]
    assert codes(games[0]) == []          # the note goes with the game where the first such byte is


def test_code_page_is_guessed_from_the_whole_file_not_its_first_odd_line():
    text = '[Round "№ 1"]\n1. 32-28 *\n\n' + "".join(
        f'[Round "№ {i}"]\n[White "Сергей Фадеев"]\n[Black "Ирина Платонова"]\n1. 32-28 *\n\n' for i in range(2, 5))
    games = read_bytes(text.encode("cp1251"))
    assert [g.tag("Round") for g in games] == [f"№ {i}" for i in range(1, 5)]
    assert games[3].tag("Black") == "Ирина Платонова"
    assert codes(games[0]) == [(Code.ENCODING, 1, 9, "not UTF-8; read as cp1251")]


def test_a_pipe_is_guessed_from_what_follows_its_first_odd_byte():
    text = '[Event "plain"]\n1. 32-28 *\n\n[Round "№ 2"]\n1. 32-28 *\n\n[White "Сергей"]\n1. 32-28 *\n'
    games = list(read_games(io.BufferedReader(Pipe(text.encode("cp1251"))), name="<stdin>"))
    assert [g.tag("Round") for g in games[:2]] == [None, "№ 2"] and games[2].tag("White") == "Сергей"


def test_one_bad_byte_in_utf8_stays_utf8_and_is_marked_where_it_is():
    data = '[Event "a"]\n[White "Müller"]\n1. 32-28 *\n'.encode("utf-8").replace(b"ller", b"ll\xffer")
    [game] = read_bytes(data)
    assert game.tag("White") == "Müll\ufffder"
    assert codes(game) == [(Code.BAD_BYTE, 2, 13, "byte FF is not utf-8: read as U+FFFD")]


def test_encoding_override_reads_as_told_and_is_on_every_reading_command(tmp_path):
    data = '[White "Сергей"]\n1. 32-28 *\n'.encode("cp1251")
    [game] = read_bytes(data, encoding="cp1252")
    assert game.tag("White") == data[8:14].decode("cp1252") and codes(game) == []
    path = tmp_path / "g.pdn"
    path.write_bytes(data)
    for command in ["validate", "convert", "annotate", "filter", "dedupe", "stats", "split", "diagram"]:
        extra = {"split": ["-o", str(tmp_path / "out")], "annotate": ["--all"]}.get(command, [])
        args = [command, "--encoding", "koi8-r", str(path), *extra]
        assert CliRunner().invoke(cli, args).exit_code in (0, 1), command
        wrong = CliRunner().invoke(cli, [command, "--encoding", "no-such-codec", str(path)])
        assert wrong.exit_code == 2 and "unknown encoding 'no-such-codec'" in wrong.output, command
    converted = CliRunner().invoke(cli, ["convert", "--encoding", "cp1251", str(path)])
    assert '[White "Сергей"]' in converted.stdout_bytes.decode("utf-8")


def no_traceback(result) -> bool:
    """Whether a CliRunner run ended by the program's own exit, with no exception escaping."""
    return (result.exception is None or isinstance(result.exception, SystemExit)) and "Traceback" not in result.output


def validated(result) -> list[tuple[str, str]]:
    """(file, White) of each game a `validate --format jsonl` run reported."""
    return [(record["file"].rsplit("/", 1)[-1], record["name"].split(" – ")[0])
            for record in map(json.loads, result.stdout.splitlines())]


@pytest.mark.parametrize("name, family", [("utf-16", "utf-16"), ("utf_16", "utf-16"), ("UTF16", "utf-16"),
                                          ("utf-32", "utf-32")])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_utf16_and_utf32_named_without_a_byte_order_read_files_with_or_without_a_mark(tmp_path, name, family, jobs):
    text = '[White "Сергей"]\n[GameType "21"]\n\n1. 11-15 *\n'
    (tmp_path / "a.pdn").write_bytes(text.encode(f"{family}-be"))                 # no mark, big-endian
    (tmp_path / "b.pdn").write_bytes(text.encode(family))                         # a mark
    (tmp_path / "c.pdn").write_bytes(text.encode(f"{family}-le"))                 # no mark, little-endian
    paths = [str(tmp_path / f"{letter}.pdn") for letter in "abc"]
    done = CliRunner().invoke(cli, ["validate", "--format", "jsonl", "--jobs", jobs, "--encoding", name, *paths])
    assert no_traceback(done) and done.exit_code == 0, done.output
    assert validated(done) == [("a.pdn", "Сергей"), ("b.pdn", "Сергей"), ("c.pdn", "Сергей")]
    [game] = read_bytes(text.encode(f"{family}-le"), encoding=name)
    assert game.tag("White") == "Сергей" and codes(game) == []


def test_a_mark_of_the_codec_named_is_not_read_as_text():
    data = codecs.BOM_UTF16_BE + '[White "Renée"]\n1. 32-28 *\n'.encode("utf-16-be")
    [game] = read_bytes(data, encoding="utf-16-be")
    assert game.tag("White") == "Renée" and codes(game) == []


@pytest.mark.parametrize("name, why", [
    ("idna", "'idna' cannot read a file as pdn does (in blocks, bad bytes replaced): Unsupported error handling"),
    ("punycode", "'punycode' cannot read a file as pdn does (in blocks, bad bytes replaced): Unsupported error"),
    ("undefined", "'undefined' cannot read a file as pdn does (in blocks, bad bytes replaced): undefined encoding"),
    ("rot13", "'rot13' is not a text encoding (it does not decode bytes to text)"),
    ("base64", "'base64' is not a text encoding (it does not decode bytes to text)"),
    ("hex", "'hex' is not a text encoding (it does not decode bytes to text)"),
    ("zlib_codec", "'zlib_codec' is not a text encoding (it does not decode bytes to text)")])
def test_an_encoding_pdn_cannot_read_in_is_a_usage_error_that_says_why(tmp_path, name, why):
    for letter in "ab":
        (tmp_path / f"{letter}.pdn").write_text('[GameType "21"]\n\n1. 11-15 *\n')
    done = CliRunner().invoke(cli, ["validate", "--encoding", name, str(tmp_path / "a.pdn"), str(tmp_path / "b.pdn")])
    assert no_traceback(done) and done.exit_code == 2
    assert f"Error: Invalid value for '--encoding': {why}" in " ".join(done.output.split())
    with pytest.raises(LookupError, match="^" + why[:20]):
        read_bytes(b"1. 32-28 *\n", encoding=name)


def test_a_refused_encoding_ends_a_real_process_with_one_line_and_no_traceback(tmp_path):
    (tmp_path / "a.pdn").write_text('[GameType "21"]\n\n1. 11-15 *\n')
    command = [sys.executable, "-c", "from pdn_tools.cli import main; main()", "validate", str(tmp_path / "a.pdn")]
    for name, code in [("utf-16", 0), ("idna", 2)]:
        done = subprocess.run([*command, "--encoding", name], capture_output=True, text=True, timeout=60)
        assert done.returncode == code and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1].startswith("Error: Invalid value for '--encoding': 'idna' cannot read")


def _fragile(name: str) -> codecs.CodecInfo | None:
    """A codec the probe finds sound (Latin-1) that fails on '@@', which it is not tried on."""

    class Decoder(codecs.IncrementalDecoder):
        def decode(self, data: bytes, final: bool = False) -> str:
            if b"@@" in data:
                raise UnicodeError("@@ met")
            return data.decode("latin-1")

    if name != "pdn_test_fragile":
        return None
    return codecs.CodecInfo(codecs.latin_1_encode, codecs.latin_1_decode, incrementaldecoder=Decoder,
                            name="pdn-test-fragile")


@pytest.fixture
def fragile():
    codecs.register(_fragile)
    yield "pdn-test-fragile"
    codecs.unregister(_fragile)


def test_bytes_a_codec_named_fails_on_make_that_file_unreadable_and_the_batch_goes_on(tmp_path, fragile):
    game = '[White "{}"]\n[GameType "21"]\n\n1. 11-15 *\n\n'
    (tmp_path / "a.pdn").write_text(game.format("x") * 2 + game.format("@@"))
    (tmp_path / "b.pdn").write_text(game.format("y"))
    paths = [str(tmp_path / "a.pdn"), str(tmp_path / "b.pdn")]
    done = CliRunner().invoke(cli, ["validate", "--format", "jsonl", "--encoding", fragile, *paths])
    assert no_traceback(done) and done.exit_code == 2
    assert f"pdn: cannot read {paths[0]}: cannot decode it as pdn-test-fragile after line 1: @@ met" in done.stderr
    assert ("b.pdn", "y") in validated(done)
    fixed = CliRunner().invoke(cli, ["convert", "--fix-results", "--encoding", fragile, *paths])
    assert no_traceback(fixed) and fixed.exit_code == 2 and f"pdn: cannot read {paths[0]}: " in fixed.stderr
    assert '[White "y"]' in fixed.stdout
    [error] = read_games(paths[0], encoding=fragile)
    assert error.code == Code.BINARY and "@@ met" in error.message


def _codec_names() -> list[str]:
    """Every codec name Python lists: the encodings package's modules and every alias."""
    modules = {module.name for module in pkgutil.iter_modules(encodings.__path__)}
    return sorted(modules | set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values()))


@pytest.fixture(scope="module")
def two_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("codecs")
    (folder / "a.pdn").write_bytes('[White "Сергей"]\n[GameType "21"]\n\n1. 11-15 {\xff} *\n'.encode())
    (folder / "b.pdn").write_bytes('[White "Renée"]\n1. 32-28 *\n'.encode("utf-16"))
    return [str(folder / "a.pdn"), str(folder / "b.pdn")]


@pytest.mark.filterwarnings("ignore:invalid escape sequence:DeprecationWarning")     # unicode_escape on '\\]'
@pytest.mark.parametrize("name", _codec_names())
def test_every_codec_python_lists_reads_or_is_a_usage_error(two_files, name):
    done = CliRunner().invoke(cli, ["validate", "--encoding", name, *two_files])
    assert no_traceback(done), (done.exception, done.output)
    assert done.exit_code in (0, 1) or (done.exit_code == 2 and "Invalid value for '--encoding'" in done.output)


def test_in_place_says_the_source_was_another_encoding(tmp_path):
    path = tmp_path / "g.pdn"
    path.write_bytes('[White "Сергей"]\n1. 32-28 *\n'.encode("cp1251"))
    done = CliRunner().invoke(cli, ["convert", "--in-place", str(path)])
    assert done.exit_code == 0 and f"pdn: {path} was cp1251: rewritten as UTF-8" in done.stderr
    assert [g.tag("White") for g in read_games(str(path))] == ["Сергей"]


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(["utf-8", "utf-16", "utf-16-be", "cp1251", "cp1252", "cp866"]),
       st.sampled_from(["\n", "\r\n", "\r", "\r\r\n"]), st.integers(1, 9), st.booleans())
def test_block_size_never_changes_what_is_read(codec, newline, block, pipe):
    text = ('[Event "Сергей"]\n{a comment\nover lines} 1. 32-28 % line\n19-23 *\n\n' if codec != "cp1252"
            else '[Event "Renée"]\n{a comment\nover lines} 1. 32-28 % line\n19-23 *\n\n') * 3
    data = text.replace("\n", newline).encode(codec)
    expected = read_bytes(data)
    saved = decoding.BLOCK
    decoding.BLOCK = block
    try:
        source = io.BufferedReader(Pipe(data)) if pipe else io.BytesIO(data)
        games = list(read_games(source, name="t.pdn"))
    finally:
        decoding.BLOCK = saved
    assert games == expected and [codes(g) for g in games] == [codes(g) for g in expected]
    assert [[(e.line, e.column) for e in g.main_line()] for g in games] == \
        [[(e.line, e.column) for e in g.main_line()] for g in expected]


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]),
       st.lists(st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFFFF, exclude_characters='"\\[]{}',
                                      exclude_categories=("Cs", "Cc")), max_size=6), min_size=1, max_size=4))
def test_wide_text_without_a_mark_reads_as_its_utf8(codec, names):
    """Text of mostly ASCII characters (as PDN is) in UTF-16 or UTF-32 without a byte order mark gives the
    games of its UTF-8: the same games and tags, one encoding warning."""
    text = "".join(f'[Event "{name}"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' for name in names)
    games, expected = read_bytes(text.encode(codec)), read_bytes(text.encode())
    assert [g.tags for g in games] == [g.tags for g in expected] and len(games) == len(names)
    assert codes(games[0])[0] == (Code.ENCODING, 1, 1, f"not UTF-8; read as {codec}")
