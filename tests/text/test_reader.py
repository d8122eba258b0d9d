"""The reader: encodings, line ends, splitting games, lenient quirks, strict mode."""
import io

import pytest

from pdn_tools import Game, ReadError, read_games, read_text
from pdn_tools.text import decoding, reader


def read_bytes(data: bytes, strict: bool = False) -> list:
    return list(read_games(io.BytesIO(data), strict=strict, name="t.pdn"))


def test_bom_does_not_drop_the_first_tag():
    games = read_bytes(b'\xef\xbb\xbf[Event "E"]\n[Site "S"]\n1. 32-28 *\n')
    assert games[0].tags == [("Event", "E"), ("Site", "S")]


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r", b"\r\r\n"])
def test_line_ends_and_line_numbers(newline):
    data = newline.join([b'[Event "E"]', b"", b"1. 32-28 19-23", b"2. 28x19 ) *"])
    error = read_bytes(data)[0]
    assert isinstance(error, ReadError)
    assert (error.line, error.column) == (4, 10)


def test_a_crlf_file_converted_again_is_read_as_it_was_written():
    """CR CR LF (a CRLF file whose line ends were converted again, or '\\r\\n' written in a Windows
    text-mode file) is one line end: each tag pair was a game of its own (one game read as eight)."""
    data = b'[Event "E"]\n[White "W"]\n[Black "B"]\n[Result "*"]\n\n{a\ncomment} 1. 11-15 23-19 *\n\n' \
           b'[Event "F"]\n\n1. 9-14 22-17 *\n'
    converted = read_bytes(data.replace(b"\n", b"\r\r\n"))
    assert converted == read_bytes(data) and len(converted) == 2
    assert [(e.line, e.column) for e in converted[0].main_line()] == [(7, 13), (7, 19)]
    assert converted[0].elements[0].text == "a\ncomment"


@pytest.mark.parametrize("text, lines", [("a\r\r\nb", ["a", "b"]), ("a\r\r\r\nb", ["a", "", "b"]),
                                         ("a\r\r\rb", ["a", "", "", "b"]), ("a\r\n\r\nb", ["a", "", "b"]),
                                         ("a\r\n\rb", ["a", "", "b"]), ("a\n\r\nb", ["a", "", "b"])])
def test_line_ends_are_cr_cr_lf_cr_lf_lf_or_a_lone_cr_taken_from_the_left(text, lines):
    assert decoding.lines_of(text) == "\n".join(lines)


def test_mixed_line_ends():
    games = read_bytes(b'[Event "A"]\r\n\r\n1. 32-28 *\n[Event "B"]\r1. 33-29 *\r\n')
    assert [g.tag("Event") for g in games] == ["A", "B"]


@pytest.mark.parametrize("name, codec", [("Sébastien Grégoire", "cp1252"), ("Сергей Фадеев", "cp1251"),
                                         ("Сергей Фадеев", "cp866")])
def test_legacy_code_pages(name, codec):
    data = f'[White "{name}"]\n1. 32-28 *\n'.encode(codec)
    game = read_bytes(data)[0]
    assert game.tag("White") == name
    assert game.warnings[0].code == "encoding" and codec in game.warnings[0].message


def test_utf8_is_read_without_warning():
    game = read_bytes('[Black "高文龙"]\n*\n'.encode())[0]
    assert game.tag("Black") == "高文龙" and game.warnings == []


def test_game_without_moves_does_not_end_the_read():
    games = read_text('[FEN "W:W31-50:B1-20"] *\n[FEN "W:W31:B1"] *\n[Event "x"]\n1. 32-28 *')
    assert len(games) == 3 and games[0].elements == [] and games[2].main_line()[0].text == "32-28"


def test_header_only_games_are_split_at_the_blank_line():
    games = read_text('[Event "A"]\n[Result "*"]\n\n[Event "B"]\n\n1. 32-28 *\n')
    assert [g.tag("Event") for g in games] == ["A", "B"]


def test_duplicate_tag_in_one_block_stays_one_game():
    games = read_text('[Event "A"]\n[Black "b"]\n[Event "B"]\n\n1. 9-14 *\n')
    assert len(games) == 1 and games[0].tags[2] == ("Event", "B")


def test_result_glued_to_next_tag_is_split_and_warned():
    games = read_text('1. 32-28 1-1[Result "0-2"]\n1. 33-29 0-2')
    assert [g.result for g in games] == ["1-1", "0-2"]
    assert games[0].warnings[0].code == "glued-result"


def test_glued_result_is_accepted_in_strict_mode():
    # The PDN 3.0 standard's own must-accept file Tricks_traps_and_shots.pdn glues
    # `0-1[Event ...]`: the standard's reading grammar wins over calling it a quirk.
    games = read_text('1. 32-28 0-1[Event "B"]\n1. 33-29 *', strict=True)
    assert all(isinstance(g, Game) for g in games)


def test_unquoted_tag_value_is_a_warning_leniently_and_an_error_strictly():
    game = read_text('[Round 17]\n[Game # 612]\n1. 32-28 *')[0]
    assert game.tags == [("Round", "17"), ("Game", "# 612")]
    assert [w.code for w in game.warnings] == ["loose-tag", "loose-tag"]
    error = read_text('[Round 17]\n1. 32-28 *', strict=True)[0]
    assert isinstance(error, ReadError) and (error.line, error.column, error.code) == (1, 1, "loose-tag")


def test_zero_padded_numbers_are_warned_but_accepted_strictly():
    game = read_text("01.33-29 07-12 *")[0]
    assert [m.squares for m in game.main_line()] == [("33", "29"), ("07", "12")]
    assert {w.code for w in game.warnings} == {"zero-padded"}
    # The PDN 3.0 reading grammar allows leading zeros (NUMSQUARE 0[1-9], MOVENUMBER
    # [0-9]+); only its writing rules forbid them, so strict reading accepts them.
    strict = read_text("1. 33-29 07-12 *", strict=True)[0]
    assert isinstance(strict, Game) and strict.warnings[0].code == "zero-padded"


def test_move_number_without_a_move():
    # PDN 3.0 grammar.rst: `1. 2-0` (an empty game) is not covered by the reading grammar.
    game = read_text("1. 2-0")[0]
    assert game.warnings[0].code == "dangling-number"
    error = read_text("1. 32-28 19-23 2.\n2-0", strict=True)[0]
    assert isinstance(error, ReadError) and (error.line, error.column) == (1, 16)


def test_game_without_terminator_before_the_next_game():
    games = read_text('[Event "A"]\n1. 32-28\n[Event "B"]\n1. 33-29 *')
    assert len(games) == 2 and games[0].warnings[0].code == "unterminated"
    error = read_text('[Event "A"]\n1. 32-28\n[Event "B"]\n1. 33-29 *', strict=True)[0]
    assert isinstance(error, ReadError) and (error.line, error.column) == (3, 1)
    # the last game of a file needs no terminator
    assert isinstance(read_text('[Event "A"]\n1. 32-28', strict=True)[0], Game)


def test_unknown_move_placeholders():
    game = read_text("1. - - 2. - - *")[0]
    assert [w.code for w in game.warnings] == ["placeholder", "placeholder"]
    assert isinstance(read_text("1. - - *", strict=True)[0], ReadError)


def test_prose_in_parentheses_becomes_a_comment():
    game = read_text("1. 11-15 (Roberto's first choice, the Wilderness 1.) 23-19 *")[0]
    assert game.elements[2].text == "Roberto's first choice, the Wilderness 1."
    assert game.warnings[0].code == "prose"
    error = read_text("1. 11-15 (Roberto's first choice) 23-19 *", strict=True)[0]
    assert isinstance(error, ReadError) and error.column == 11


def test_literal_backslash_r_text_is_white_space():
    game = read_text('[Event "E"]\\r\n[Site "S"]\\r\n1. 32-28 19-23\\r\n*')[0]
    assert game.tags == [("Event", "E"), ("Site", "S")]
    assert [m.text for m in game.main_line()] == ["32-28", "19-23"]
    assert {w.code for w in game.warnings} == {"literal-escape"}


def test_bad_game_does_not_stop_the_batch():
    games = read_text('[Event "1"]\n1. 32-28 ) *\n[Event "2"]\n1. 33-29 *\n')
    assert isinstance(games[0], ReadError) and games[0].index == 1 and games[0].line == 2
    assert str(games[0]).startswith("<string>:2:10: game 1: ")
    assert isinstance(games[1], Game) and games[1].index == 2


def test_comments_before_tags_and_after_the_result():
    games = read_text('{ 200 games }\n[Event "A"]\n1. 32-28 2-0 {end}\n% next\n[Event "B"]\n*\n{tail}\n')
    assert games[0].before[0].text == " 200 games " and games[0].after[0].text == "end"
    assert games[1].before[0].text == " next" and games[1].after[0].text == "tail"
    assert len(games) == 2


@pytest.mark.parametrize("block", [1, 2, 3, 8, 13])
def test_constructs_cut_by_the_read_block_are_read_whole(monkeypatch, block):
    monkeypatch.setattr(decoding, "BLOCK", block)
    games = read_text('[FEN "W:W31-50:\nB1-20"]\n1. 32-28 {a comment\nover lines} 19-23 *\n' * 3)
    assert len(games) == 3
    assert games[2].tag("FEN") == "W:W31-50:\nB1-20"
    assert games[2].elements[2].text == "a comment\nover lines"
    assert games[2].main_line()[1].line == 2 * 4 + 4     # third game of four lines each


def test_reads_from_path_text_stream_and_stdin(tmp_path, monkeypatch):
    path = tmp_path / "g.pdn"
    path.write_bytes(b"1. 32-28 *\n")
    assert len(list(read_games(path))) == 1
    assert len(list(read_games(io.StringIO("1. 32-28 * 1. 33-29 *")))) == 2

    class Stdin:
        buffer = io.BytesIO(b"1. 32-28 *")
    monkeypatch.setattr("sys.stdin", Stdin)
    [game] = read_games("-")
    assert game.file == "<stdin>"


def test_reading_streams_one_game_at_a_time():
    data = io.BytesIO(b"1. 32-28 *\n" * 100_000)
    games = read_games(data)
    next(games)
    assert data.tell() < 1_200_000 / 2     # far from the end after one game


def test_several_comments_between_games_are_all_kept():
    games = read_text('1. 32-28 *\n\n{Vet}\n{van}\n[Event "b"]\n1. 33-29 *\n')
    assert [c.text for c in games[1].before] == ["Vet", "van"]


@pytest.mark.parametrize("text", ['{c} [Event "e"]\n1. 32-28 19-23 * {after}\n', "1. 32-28 (19-23\n"])
def test_a_parsed_game_keeps_no_tokens(text):
    """parse_raw takes the split game's tokens (a long game's weigh several times its text), so that
    the generators and loops still holding the RawGame do not keep them while the game is replayed."""
    (raw, notes), = reader.read_raw(io.BytesIO(text.encode()))
    assert raw.tokens
    game = reader.parse_raw(raw, 1, False, notes)
    assert (raw.tokens, raw.before, raw.after) == ([], [], [])
    assert isinstance(game, Game) or game.text == "1. 32-28 ( 19-23\n"    # a ReadError keeps its text


def test_a_text_file_partly_read_gives_the_games_after_where_it_stands(tmp_path):
    """A text file whose first lines a script read itself: the rest is read from where the text stream
    stands, not from its binary buffer, which the text layer has read ahead of it."""
    path = tmp_path / "g.pdn"
    path.write_text("; a header line the script skips\n" + "".join(f'[Event "e{n}"]\n1. 32-28 *\n\n' for n in range(3)))
    with open(path, encoding="utf-8") as stream:
        stream.readline()
        assert [game.tag("Event") for game in read_games(stream)] == ["e0", "e1", "e2"]
    with open(path, encoding="utf-8") as stream:
        stream.readline()
        stream.readline()
        assert [game.tag("Event") for game in read_games(stream)] == [None, "e1", "e2"]
    with open(path, encoding="utf-8") as stream:
        for line in stream:          # a loop left early: the stream will not tell where it stands
            break
        assert [game.tag("Event") for game in read_games(stream)] == ["e0", "e1", "e2"]


def test_a_text_stream_of_any_class_is_read_as_text(tmp_path):
    """A stream whose read() gives str that is not an io.TextIOBase (a SpooledTemporaryFile in text
    mode), and a text file opened by its descriptor (its name an int): games, named by a str."""
    import os
    import tempfile
    with tempfile.SpooledTemporaryFile(mode="w+", encoding="utf-8") as stream:
        stream.write("1. 32-28 * 1. 33-29 *")
        stream.seek(0)
        assert [game.main_line()[0].text for game in read_games(stream)] == ["32-28", "33-29"]
    path = tmp_path / "g.pdn"
    path.write_bytes(b"1. 32-28 )\n")
    with open(os.open(path, os.O_RDONLY), encoding="utf-8") as stream:
        [error] = read_games(stream)
    assert isinstance(error, ReadError) and isinstance(error.file, str)



@pytest.mark.parametrize("source", [b"1. 32-28 *", bytearray(b"1. 32-28 *"), memoryview(b"1. 32-28 *"), None, 3])
def test_a_source_that_is_no_path_nor_stream_is_a_type_error(source):
    """Bytes (PDN data or a file name) and other values are refused with a TypeError naming what
    read_games takes, not an AttributeError from inside the reader."""
    with pytest.raises(TypeError, match="a path, '-' or a file object"):
        list(read_games(source))


def test_a_string_with_a_lone_surrogate_is_read_with_it_replaced():
    """read_text of a str holding a lone surrogate (text decoded with errors='surrogateescape', a file
    name from os.fsdecode) raised UnicodeEncodeError; the surrogate is read as '?', the games as usual."""
    games = read_text('[Event "caf\udce9"]\n1. 32-28 *\n\n[Event "b"]\n1. 33-29 *\n')
    assert [game.tag("Event") for game in games] == ["caf?", "b"]


@pytest.mark.parametrize("text", [b"1. 32-28 *", None])
def test_read_text_of_no_string_is_a_type_error_saying_what_it_takes(text):
    with pytest.raises(TypeError, match="read_text takes a str"):
        read_text(text)
