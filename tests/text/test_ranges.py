"""Byte ranges: over any cut of a file into ranges, every game is read exactly once, as a sequential read
reads it (same text, tokens, lines, columns, warnings)."""
import io
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from corpus import AVAILABLE, CORPUS, DATA, corpus_files
from pdn_tools.text import decoding, ranges
from pdn_tools.text.reader import parse_raw, read_raw


def described(games):
    """Everything a game carries that later steps read, positions included: the game parsed leniently and
    strictly (lines and columns are in the repr), its text and its tokens."""
    return [(raw.name, raw.line, raw.text(), repr(parse_raw(raw, index, False, notes)),
             repr(parse_raw(raw, index, True, notes)), positioned(raw.before + raw.tokens + raw.after))
            for index, (raw, notes) in enumerate(games, 1)]


def described_big(games):
    """`described` for big files, without parsing: a run of moves or of tags that crosses the end of a
    256 KB scan chunk is cut into two tokens (the parser reads them as one), so runs on following lines
    are joined."""
    out = []
    for raw, notes in games:
        tokens = positioned(raw.before + raw.tokens + raw.after)
        joined = tokens[:1]
        for token in tokens[1:]:
            last = joined[-1]
            if token[0] == last[0] in ("MOVES", "TAGS") and token[2] == last[2] + last[1].count("\n") + 1:
                joined[-1] = (last[0], last[1] + "\n" + token[1], last[2], last[3])
            else:
                joined.append(token)
        out.append((raw.name, raw.line, raw.text(), joined, [w.as_dict() for w in raw.warnings],
                    [n.as_dict() for n in notes]))
    return out


def positioned(tokens):
    return [(t.type, str(t), t.line, t.column) for t in tokens]


def read_in_ranges(path, cuts):
    """The games of `path` read range by range, line numbers from the ranges' facts (as a cluster does)."""
    size = path.stat().st_size
    bounds = [0, *sorted(set(c for c in cuts if 0 < c < size)), size]
    spans = list(zip(bounds, bounds[1:])) or [(0, 0)]
    facts = [ranges.facts(str(path), start, end) for start, end in spans]
    if not all(f.plain for f in facts):
        return sequential(path)                   # read whole, as the runners do
    games, first_line = [], 1
    for (start, end), fact in zip(spans, facts):
        games += ranges.read_range(str(path), start, end, first_line, first_line + fact.line_breaks, "shown.pdn")
        first_line += fact.line_breaks
    return games


def sequential(path):
    return list(read_raw(str(path), "shown.pdn"))


# ---- generated files: the awkward cases, cut everywhere --------------------------------------------

TAGS = st.sampled_from(['[Event "Open"]', '[White "Müller"]', '[Result "1-0"]', '[GameType "20"]',
                        '[Round 3]', '[Site "a [b] {c}"]'])
MOVETEXT = st.sampled_from([
    "1. 32-28 19-23 2. 28x19 14x23", "1. 11-15 {a comment\nover two lines} 2. 22-18",
    "1. 32-28 {[Event \"not a tag\"]} 18-23", "1. 32-28 % line comment [Event \"x\"]\n19-23",
    "1. 32-28 ; semicolon comment\n19-23", "1. 32-28 (1. 33-29 {var}) 19-23",
    "{comment with a blank line\n\ninside} 1. 32-28", "1. 32-28 /FEN \"W:W31:B1\"/ 19-23", "1. 32-28 ?? $4",
    "1. 32-28\n\n19-23 2. 38-32", "1. 32-28 1-0[", "prose that is no move 1. 32-28",
    "1. 32-28 {never closed", "1. 32-28 /FEN never closed", "1. 32-28 {closed\n\n[Event \"later\"]}",
    "1. 32-28 [Event \"stray\"] 19-23", "1. 32-28 (1. 33-29 (1. 34-30", "1-0Z 2-0"])
ENDINGS = st.sampled_from([" 1-0", " 0-1", " *", " 2-0", "", " 1-0 {after}", " 1-0 % after"])
TAG_GAP = st.sampled_from(["\n", "\n", "\n\n", "\n \n", " \\r\n\n", "\n" + " " * 70 + "\n\n"])
GAP = st.sampled_from(["\n", "\n\n", "\n\n\n", "\n  \n", "\n\t\n", "\n{between games}\n\n", "\n% note\n\n", " "])


@st.composite
def pdn_files(draw):
    parts = []
    for _ in range(draw(st.integers(1, 8))):
        tags = draw(st.lists(TAGS, max_size=3))         # a blank line may part them: one game or two
        movetext = draw(MOVETEXT) if draw(st.integers(0, 4)) else ""
        parts.append(draw(TAG_GAP).join(tags) + ("\n" if tags else "") + movetext + draw(ENDINGS))
        parts.append(draw(GAP))
    text = "".join(parts)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    data = text.encode(draw(st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16"])), "replace")
    return data


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=pdn_files(), cuts=st.lists(st.integers(0, 4000), max_size=6))
def test_any_cut_reads_every_game_once_as_a_sequential_read(tmp_path, data, cuts):
    path = tmp_path / "cut.pdn"
    path.write_bytes(data)
    assert described(read_in_ranges(path, cuts)) == described(sequential(path))


@pytest.mark.parametrize("newline", ["\r\n", "\r\r\n"])
def test_every_single_cut_of_a_small_file(tmp_path, newline):
    text = ('\ufeff[Event "a"]\r\n1. 32-28 {spans\r\n\r\nlines} 19-23 1-0\r\n\r\n{before b}\r\n\r\n'
            '[Event "b"]\r\n[Result "*"]\r\n\r\n1. 33-29 *\r\n\r\n1. 31-27 0-1 % no tags\r\n\r\n'
            '[Event "c"]\r\n1. 34-30 ; end\r\n2-0\r\n\r\n[Event "d"]\r\n\r\n[Event "e"]\r\n').replace("\r\n", newline)
    path = tmp_path / "small.pdn"
    path.write_bytes(text.encode("utf-8"))
    assert len(ranges._SYNC.findall(path.read_bytes())) == 4      # a blank line, then a tag pair: b, c, d, e
    expected = described(sequential(path))
    assert len(expected) == 6
    for cut in range(path.stat().st_size + 1):
        assert described(read_in_ranges(path, [cut])) == expected, cut
    assert described(read_in_ranges(path, range(1, 400))) == expected


def test_sync_points_found_backwards_and_forwards_agree(tmp_path):
    text = "".join(f'[Event "{i}"]\n1. 32-28 *\n\n' + ("\n" if i % 3 else "") for i in range(300))
    path = tmp_path / "many.pdn"
    path.write_bytes(text.encode())
    data = path.read_bytes()
    expected = [m.end() for m in ranges._SYNC.finditer(data)]
    assert len(expected) == 299
    with open(path, "rb") as stream:
        for offset in _syncs_found_around(stream, data, expected, 97):
            assert ranges.first_sync_from(stream, offset) == min((p for p in expected if p >= offset), default=None)
            assert ranges._line_breaks_between(stream, 0, offset) == ranges.line_breaks(data[:offset])


def _syncs_found_around(stream, data: bytes, expected: list[int], step: int) -> range:
    """The offsets `step` bytes apart, each once the sync points before and after it were found as `expected`
    says."""
    offsets = range(0, len(data), step)
    for offset in offsets:
        before = [p for p in expected if p < offset]
        after = [p for p in expected if p >= offset]
        assert ranges.last_sync_before(stream, offset) == (before[-1] if before else 0)
        assert ranges.first_sync_from(stream, offset, len(data)) == (after[0] if after else None)
    return offsets


def test_facts_tell_a_file_that_is_not_plain_utf8(tmp_path):
    path = tmp_path / "latin.pdn"
    path.write_bytes('[Event "a"]\n1. 32-28 *\n\n[White "Coração"]\n1. 33-29 *\n'.encode("latin-1"))
    spans = ranges.cut(path.stat().st_size, 4)
    assert [ranges.facts(str(path), *span).plain for span in spans] == [True, True, False, True]
    path.write_bytes('[Event "a"]\n1. 32-28 *\n'.encode("utf-16-le"))     # no byte order mark: NUL bytes
    assert [ranges.facts(str(path), *span).plain for span in ranges.cut(path.stat().st_size, 3)] == \
        [False, True, True]
    path.write_bytes("[Event \"é\"]".encode())
    assert [ranges.facts(str(path), start, end).plain for start, end in [(0, 9), (9, 10), (10, 13)]] == \
        [True, True, True]                                                     # a character cut in two
    path.write_bytes(b'[Event "a"]\n\x80\n')          # a stray continuation byte just after an ASCII range
    assert [ranges.facts(str(path), start, end).plain for start, end in [(0, 12), (12, 14)]] == [False, True]


def test_facts_tell_a_range_where_no_game_can_be_anchored(tmp_path):
    path = tmp_path / "games.pdn"
    path.write_bytes(b'[Event "a"]\n1. 32-28 *\n' * 10 + b'\n[Event "b"]\n1. 32-28 *\n' + b"{" + b"x" * 500 + b"}\n")
    size = path.stat().st_size
    blank = path.read_bytes().index(b"\n\n")
    assert [ranges.facts(str(path), start, end).anchors for start, end in
            [(0, 10), (10, blank), (blank, blank + 5), (blank + 5, size)]] == [True, False, True, False]


def test_line_breaks_count_lf_crlf_cr_cr_lf_and_lone_cr_once():
    assert ranges.line_breaks(b"a\nb\r\nc\rd\r\r\ne") == 4
    assert ranges.line_breaks(b"a\r", b"\n") == 0          # the CRLF's line end is counted at its LF
    assert ranges.line_breaks(b"a\r", b"\r\n") == 0        # and CR CR LF's
    assert ranges.line_breaks(b"a\r\r", b"\n") == 0
    assert ranges.line_breaks(b"a\r", b"x") == 1
    assert ranges.line_breaks(b"a\r", b"\rx") == 1
    assert ranges.line_breaks(b"\nb") == 1


WITH_LINE_ENDS = st.binary().map(lambda data: data.replace(b"\x00", b"\r").replace(b"\x01", b"\n"))


DENSE_LINE_ENDS = st.lists(st.sampled_from([b"a", b"\r", b"\n", b"\r\n", b"\r\r\n"]), max_size=12).map(b"".join)


@given(st.one_of(WITH_LINE_ENDS, DENSE_LINE_ENDS), DENSE_LINE_ENDS)
def test_line_breaks_are_the_line_ends_the_reader_finds_ending_in_the_range(data, after):
    """A range's line ends are those whose last byte it holds, the reader's line ends of the whole."""
    ends = [match.end() for match in re.finditer(rb"\r\r?\n|\r|\n", data + after)]
    assert ranges.line_breaks(data, after[:2]) == sum(end <= len(data) for end in ends)


@given(st.lists(st.sampled_from(["a", "[", "\n", "\r", "\r\n", "\r\r\n"]), max_size=40))
def test_the_decoder_and_the_ranges_count_the_same_lines(pieces):
    data = "".join(pieces).encode()
    decoder = decoding.Decoder(io.BytesIO(data))
    text = "".join(decoder.blocks())
    assert text.count("\n") == ranges.line_breaks(data) and decoder.line == text.count("\n") + 1


def test_cut_covers_the_file():
    assert ranges.cut(10, 3) == [(0, 3), (3, 6), (6, 10)]
    assert ranges.cut(0, 4) == [(0, 0)]


# ---- real files --------------------------------------------------------------------------------------

OWN = sorted(DATA.rglob("*.pdn"))
CORPUS_SAMPLE = [p for p in corpus_files() if p.suffix.lower() == ".pdn"][::40] + (
    [CORPUS / "english" / "OCA_2.0.pdn"] if AVAILABLE else [])


@pytest.mark.slow
@pytest.mark.parametrize("path", OWN + CORPUS_SAMPLE, ids=lambda p: p.name)
def test_corpus_files_cut_at_random_offsets(path):
    size = path.stat().st_size
    rng = random.Random(path.name)
    cuts = [rng.randrange(size) for _ in range(12)] if size else []
    compare = described if size < 200_000 else described_big
    assert compare(read_in_ranges(path, cuts)) == compare(sequential(path))


@pytest.mark.parametrize("path", OWN, ids=lambda p: p.name)
def test_a_read_numbered_from_line_n_puts_every_token_and_note_n_minus_1_lines_down(path):
    def lines(games, shift):
        return [([(t.type, str(t), t.line + shift, t.column) for t in raw.before + raw.tokens + raw.after],
                 [(w.code, w.line + shift, w.column) for w in raw.warnings],
                 [(n.code, n.line + shift, n.column) for n in notes]) for raw, notes in games]

    assert lines(read_raw(str(path), line=40), 0) == lines(read_raw(str(path)), 39)


def test_sync_points_after_tag_pairs_found_the_same_in_any_window(tmp_path):
    """A blank line after a tag pair is no sync point (the splitter may go on with the tag section), whatever
    the window a worker reads shows of the white space before it."""
    pieces = [f'[Event "{i}"]' + " " * (i % 97) + "\n" + " " * (i % 89) + "\n" + ("\n" if i % 2 else "")
              + (f'[Site "{i}"]\n1. 32-28 *\n\n' if i % 3 else "") for i in range(600)]
    data = "".join(pieces).encode()
    path = tmp_path / "tags.pdn"
    path.write_bytes(data)
    expected = list(ranges._syncs(data, 0))
    assert 0 < len(expected) < len(ranges._SYNC.findall(data))
    with open(path, "rb") as stream:
        _syncs_found_around(stream, data, expected, 89)
    assert described(read_in_ranges(path, range(500, len(data), 1777))) == described(sequential(path))
