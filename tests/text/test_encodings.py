"""Encodings: UTF-16 found by its byte order mark or its NUL bytes, the legacy code page
guessed once per file from all its bytes that are not UTF-8, a damaged UTF-8 byte marked
where it is, --encoding to override; every game read, every warning located."""
import io

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


@pytest.mark.parametrize("codec, bom, shown", [("utf-16-le", True, "utf-16-le"), ("utf-16-be", True, "utf-16-be"),
                                               ("utf-16-le", False, "utf-16-le"), ("utf-16-be", False, "utf-16-be")])
def test_utf16_with_or_without_bom_is_decoded(codec, bom, shown):
    data = (("\ufeff" if bom else "") + FIVE).encode(codec)
    games = read_bytes(data)
    assert len(games) == 5 and all(isinstance(g, Game) for g in games)
    assert [g.tag("Event") for g in games] == [f"Tournoi n°{i}" for i in range(1, 6)]
    assert all(g.tag("White") == "Renée" and len(g.main_line()) == 2 for g in games)
    assert codes(games[0]) == [(Code.ENCODING, 1, 1, f"not UTF-8; read as {shown}")]


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


def test_in_place_says_the_source_was_another_encoding(tmp_path):
    path = tmp_path / "g.pdn"
    path.write_bytes('[White "Сергей"]\n1. 32-28 *\n'.encode("cp1251"))
    done = CliRunner().invoke(cli, ["convert", "--in-place", str(path)])
    assert done.exit_code == 0 and f"pdn: {path} was cp1251: rewritten as UTF-8" in done.stderr
    assert [g.tag("White") for g in read_games(str(path))] == ["Сергей"]


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(["utf-8", "utf-16", "utf-16-be", "cp1251", "cp1252", "cp866"]),
       st.sampled_from(["\n", "\r\n", "\r"]), st.integers(1, 9), st.booleans())
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
