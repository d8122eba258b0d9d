"""`pdn diagram`: squares found by number on every variant's board, pieces, kings, the last move."""
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from corpus import CORPUS, needs_corpus
from pdn_tools.cli import cli
from pdn_tools.play.pictures import PICTURES, format_for

SVG = "{http://www.w3.org/2000/svg}"


def diagram(*args, input=None):
    return CliRunner().invoke(cli, ["diagram", *map(str, args)], input=input)


def svg_of(*args, input=None):
    result = diagram(*args, "--format", "svg", input=input)
    assert result.exit_code == 0, result.output
    return ET.fromstring(result.stdout)


def square(root, number: int) -> tuple[int, int, str, str]:
    """(column, row, name, class) of square `number`, from the SVG's own rectangles."""
    [rect] = [r for r in root.iter(SVG + "rect") if r.get("data-square") == str(number)]
    return int(rect.get("x")) // 40, int(rect.get("y")) // 40, rect.get("data-name"), rect.get("class")


def pieces(root) -> dict[int, str]:
    """Square number -> 'white', 'black king', ... as drawn."""
    return {int(g.get("data-square")): g.get("class").removeprefix("piece ")
            for g in root.iter(SVG + "g") if (g.get("class") or "").startswith("piece")}


def cell(text: str, row: int, col: int) -> str:
    """The three characters of a text board's cell (the board's first line is its border)."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("+"))
    return lines[top + 1 + row][1 + 3 * col:4 + 3 * col]


# variant, GameType, a FEN with a white king and a black man, and where squares lie (col, row from the top-left,
# White at the bottom) with their names, per the reference's numbering tables (§3.1).
BOARDS = [
    ("international", 20, "W:WK46:B5", {1: (1, 0, "1"), 5: (9, 0, "5"), 46: (0, 9, "46"), 50: (8, 9, "50")}),
    ("frisian", 40, "W:WK46:B5", {1: (1, 0, "1"), 5: (9, 0, "5"), 46: (0, 9, "46")}),
    ("english", 21, "B:WK29:B1", {1: (1, 0, "1"), 4: (7, 0, "4"), 29: (0, 7, "29"), 32: (6, 7, "32")}),
    ("pool", 23, "B:WK29:B1", {1: (1, 0, "1"), 29: (0, 7, "29"), 32: (6, 7, "32")}),
    ("italian", 22, "W:WK29:B1", {1: (0, 0, "1"), 4: (6, 0, "4"), 29: (1, 7, "29"), 32: (7, 7, "32")}),
    ("spanish", 24, "W:WK1:B32", {1: (7, 7, "1"), 4: (1, 7, "4"), 29: (6, 0, "29"), 32: (0, 0, "32")}),
    ("portuguese", 28, "W:WK1:B32", {1: (7, 7, "1"), 32: (0, 0, "32")}),
    ("russian", 25, "W:WKa1:Bh8", {29: (0, 7, "a1"), 4: (7, 0, "h8"), 1: (1, 0, "b8"), 32: (6, 7, "g1")}),
    ("brazilian", 26, "W:WKa1:Bh8", {29: (0, 7, "a1"), 4: (7, 0, "h8")}),
    ("czech", 29, "W:WKa1:Bh8", {29: (0, 7, "a1"), 4: (7, 0, "h8")}),
    ("canadian", 27, "W:WK67:B6", {1: (1, 0, "1"), 6: (11, 0, "6"), 67: (0, 11, "67"), 72: (10, 11, "72")}),
    ("thai", 31, "B:WK1:B32", {1: (6, 7, "1"), 4: (0, 7, "4"), 29: (7, 0, "29"), 32: (1, 0, "32")}),
    ("turkish", 30, "W:WKa1:Bh7", {57: (0, 7, "a1"), 1: (0, 0, "a8"), 64: (7, 7, "h1"), 16: (7, 1, "h7")}),
]


@pytest.mark.parametrize("name, gametype, fen, where", BOARDS, ids=[b[0] for b in BOARDS])
def test_every_board_puts_each_square_where_its_numbering_says(name, gametype, fen, where):
    text = f'[GameType "{gametype}"]\n[FEN "{fen}"]\n*\n'
    root = svg_of("-", input=text)
    for number, (col, row, label) in where.items():
        assert square(root, number)[:3] == (col, row, label), (name, number)
    king, man = sorted(pieces(root).items(), key=lambda item: item[1] != "white king")
    assert king[1] == "white king" and man[1] == "black"
    board = diagram("-", input=text).stdout
    col, row, _ = where[king[0]]
    assert cell(board, row, col) == " W "
    col, row, _ = where[man[0]]
    assert cell(board, row, col) == " b "


def test_playing_squares_are_dark_on_dark_boards_and_every_square_plays_in_turkish():
    international = svg_of("-", input='[GameType "20"]\n*\n')
    assert len([r for r in international.iter(SVG + "rect") if r.get("data-square")]) == 50
    assert square(international, 1)[3] == "square playing"
    turkish = svg_of("-", input='[GameType "30"]\n*\n')
    assert len([r for r in turkish.iter(SVG + "rect") if r.get("data-square")]) == 64
    italian = svg_of("-", input='[GameType "22"]\n*\n')
    # Italian and Spanish boards have a light a1: a dark square in the top-left, none in the bottom-left.
    assert square(italian, 1)[:2] == (0, 0)
    assert all(square(italian, n)[:2] != (0, 7) for n in range(1, 33))


REAL = [
    # file, game, ply, move at that ply (start, landing squares...), a piece after it
    (CORPUS / "international" / "horizon-bd-douai-ronde.pdn", 1, 3, (29, 20), (20, "white")),
    (CORPUS / "english" / "wiegerw-succeed-Principles_of_Strategy.pdn", 1, 3, (15, 19), (19, "black")),
    (CORPUS / "russian" / "games-checkers-test.pdn", 2, 7, (25, 22), (22, "white")),
    (CORPUS / "italian" / "games-checkers-ci98-fero.pdn", 1, 1, (23, 19), (19, "white")),
    (CORPUS / "frisian" / "py-draughts-lidraughts-frisian.pdn", 1, 1, (34, 30), (30, "white")),
]


@needs_corpus
@pytest.mark.parametrize("path, game, ply, move, piece", REAL, ids=[r[0].parent.name for r in REAL])
def test_real_games_mark_the_last_move(path, game, ply, move, piece):
    root = svg_of(path, "--game", game, "--ply", ply)
    marked = sorted(int(r.get("data-square")) for r in root.iter(SVG + "rect") if "last" in (r.get("class") or ""))
    assert marked == sorted(move)
    assert pieces(root)[piece[0]] == piece[1]
    assert move[0] not in pieces(root)
    [arrow] = [g for g in root.iter(SVG + "g") if g.get("class") == "last-move"]
    assert arrow.get("data-squares") == " ".join(map(str, move))


@needs_corpus
def test_text_board_marks_the_last_move_and_tells_who_moves():
    path = CORPUS / "international" / "horizon-bd-douai-ronde.pdn"
    board = diagram(path, "--ply", "3").stdout
    lines = board.splitlines()
    assert lines[0] == "Tornado (Frank Mesander) - Dam 2.2 (Harm Jetten), international, after 2. 29-20"
    # Rows 3 and 5 (16-20, 26-30) start on file a: 20 is column 8, 29 column 6.
    assert cell(board, 5, 6) == "[.]" and cell(board, 3, 8) == "[w]"
    assert lines[-1].startswith("Black to move  B:W20,31,")


@needs_corpus
def test_default_is_the_final_position_and_ply_0_the_start():
    path = CORPUS / "russian" / "games-checkers-test.pdn"
    start = diagram(path, "--ply", "0").stdout
    assert "start position" in start.splitlines()[0] and "[" not in start
    final = diagram(path).stdout
    assert final == diagram(path, "--ply", "45").stdout


def test_flip_and_labels():
    text = '[GameType "20"]\n*\n'
    flipped = svg_of("-", "--flip", input=text)
    assert square(flipped, 1)[:2] == (8, 9) and square(flipped, 46)[:2] == (9, 0)
    named = svg_of("-", "--labels", "algebraic", input=text)
    assert square(named, 46)[2] == "a1" and square(named, 1)[2] == "b10"


@needs_corpus
def test_output_file_is_written_with_its_format_from_the_suffix(tmp_path):
    target = tmp_path / "board.svg"
    result = diagram(CORPUS / "russian" / "games-checkers-test.pdn", "-o", target)
    assert result.exit_code == 0 and result.stdout == ""
    assert ET.parse(target).getroot().tag == SVG + "svg"
    assert [p.name for p in tmp_path.iterdir()] == ["board.svg"]


@needs_corpus
def test_bad_ply_and_game_are_usage_errors_with_their_place():
    path = CORPUS / "russian" / "games-checkers-test.pdn"
    result = diagram(path, "--ply", "99")
    assert result.exit_code == 2
    assert f"{path}:1: game 1: ply 99 is out of range: 45 plies replayed (the whole game)" in result.output
    result = diagram(path, "--game", "4")
    assert result.exit_code == 2 and f"{path} has fewer than 4 games" in result.output
    result = diagram("missing.pdn")
    assert result.exit_code == 2 and "pdn: cannot read missing.pdn: no such file" in result.output


def test_an_invalid_game_is_drawn_up_to_its_error_and_reported():
    text = '[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n'
    result = diagram("-", input=text)
    assert result.exit_code == 1
    assert result.stderr == ("<stdin>:2:19: game 1, ply 3 (move 2. 28x51): '51' is not a square of the "
                             "international board [bad-square]\n")
    assert "after 1... 19-23" in result.stdout
    result = diagram("-", "--ply", "3", input=text)
    assert result.exit_code == 2 and "2 plies replayed (the moves before an error or unknown move)" in result.output


def test_a_game_that_cannot_be_read_is_reported_and_not_drawn():
    result = diagram("-", input="1. 32-28 ) *\n")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("<stdin>:1:10: game 1: unexpected ')'")


@pytest.mark.parametrize("tags, error", [
    ('[GameType "99"]', "<stdin>:1:1: game 1: unknown GameType '99' [bad-gametype]"),
    ('[GameType "20"]\n[SetUp "1"]\n[FEN "W:W99:B1"]',
     "<stdin>:3:1: game 1: FEN: square 99 is not a playable square of international [bad-fen]")])
def test_a_game_without_a_start_position_is_reported_and_not_drawn(tags, error):
    """Its error is the game's, not the options': exit 1, as for a game that cannot be read, and no
    usage error blaming a --ply the user did not give."""
    result = diagram("-", input=f"{tags}\n1. 32-28 *\n")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == error + "\n"


def test_dash_output_is_standard_output_as_for_every_command(tmp_path, monkeypatch):
    """`-o -` wrote a file called `-` in the current folder; it is standard output, as elsewhere."""
    monkeypatch.chdir(tmp_path)
    text = '[GameType "20"]\n1. 32-28 *\n'
    result = diagram("-", "-o", "-", input=text)
    assert result.exit_code == 0 and "after 1. 32-28" in result.stdout
    result = diagram("-", "-o", "-", "--format", "svg", input=text)
    assert result.exit_code == 0 and ET.fromstring(result.stdout).tag == SVG + "svg"
    assert list(tmp_path.iterdir()) == []


@needs_corpus
def test_an_output_that_cannot_be_written_is_a_usage_error(tmp_path):
    target = tmp_path / "missing" / "board.svg"
    result = diagram(CORPUS / "russian" / "games-checkers-test.pdn", "-o", target)
    assert result.exit_code == 2 and result.stderr == f"pdn: cannot write {target}: No such file or directory\n"


# ---- readable pictures (issue 16) ----------------------------------------------------------------

def translation(element) -> tuple[float, float]:
    x, y = element.get("transform").removeprefix("translate(").removesuffix(")").split(",")
    return float(x), float(y)


def piece_radius(group) -> float:
    """The disc's radius out to the edge of its outline."""
    disc = next(group.iter(SVG + "circle"))
    return float(disc.get("r")) + float(disc.get("stroke-width")) / 2


@pytest.mark.parametrize("gametype", [20, 21, 22, 24, 27, 31, 40], ids=str)
def test_square_numbers_sit_where_no_piece_covers_them(gametype):
    """Each number's box (its font's digits are at most 0.64 em wide, 0.75 em tall) stays
    clear of the disc of the piece on its square, in the start position where most squares hold one."""
    root = svg_of("-", input=f'[GameType "{gametype}"]\n*\n')
    discs = {int(g.get("data-square")): (*translation(g), piece_radius(g))
             for g in root.iter(SVG + "g") if (g.get("class") or "").startswith("piece")}
    labels = [t for t in root.iter(SVG + "text") if t.get("class") == "label"]
    assert len(labels) == len([r for r in root.iter(SVG + "rect") if r.get("data-square")])
    covered = 0
    for label in labels:
        size = float(label.get("font-size"))
        left, bottom = float(label.get("x")), float(label.get("y"))
        right, top = left + 0.64 * size * len(label.text), bottom - 0.75 * size
        disc = discs.get(int(label.get("data-square")))
        if disc is None:
            continue
        covered += 1
        x, y, r = disc
        nearest = (min(max(x, left), right), min(max(y, top), bottom))
        assert (nearest[0] - x) ** 2 + (nearest[1] - y) ** 2 > r ** 2, label.text
    assert covered >= 16                # Thai starts with 8 men a side


def test_algebraic_boards_name_files_and_ranks_in_the_margin():
    root = svg_of("-", input='[GameType "25"]\n*\n')
    margin = [t.text for g in root.iter(SVG + "g") if g.get("class") == "coordinates" for t in g]
    assert margin == list("abcdefgh") + [str(n) for n in range(8, 0, -1)]
    assert not [t for t in root.iter(SVG + "text") if t.get("class") == "label"]
    flipped = svg_of("-", "--flip", input='[GameType "25"]\n*\n')
    margin = [t.text for g in flipped.iter(SVG + "g") if g.get("class") == "coordinates" for t in g]
    assert margin == list("hgfedcba") + [str(n) for n in range(1, 9)]


CAPTURE = '[White "Alice"]\n[Black "Bob"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'


def test_last_move_is_a_see_through_tint_that_keeps_the_square_colour():
    root = svg_of("-", "--ply", "3", input=CAPTURE)
    tints = [r for r in root.iter(SVG + "rect") if "highlight last" in (r.get("class") or "")]
    assert sorted(int(r.get("data-square")) for r in tints) == [19, 28]
    assert all(0 < float(r.get("fill-opacity")) <= 0.5 for r in tints)
    squares = {r.get("data-square"): r.get("fill") for r in root.iter(SVG + "rect")
               if r.get("class") == "square playing"}
    assert squares["28"] == squares["19"] == squares["1"]       # the board under the tint is unchanged


def test_captured_pieces_are_crossed_out_ghosts_of_what_was_taken():
    root = svg_of("-", "--ply", "3", input=CAPTURE)
    [ghost] = [g for g in root.iter(SVG + "g") if g.get("class") == "captured"]
    assert ghost.get("data-square") == "23"
    assert 23 not in pieces(root)
    assert any(p.get("d", "").count("M") == 2 for p in ghost.iter(SVG + "path"))     # the cross
    root = svg_of("-", "--ply", "2", input=CAPTURE)
    assert not [g for g in root.iter(SVG + "g") if g.get("class") == "captured"]


def test_a_one_step_move_shows_an_arrow_outside_the_landing_piece():
    root = svg_of("-", "--ply", "1", input=CAPTURE)
    [arrow] = [g for g in root.iter(SVG + "g") if g.get("class") == "last-move"]
    [head] = arrow.iter(SVG + "polygon")
    tip = tuple(map(float, head.get("points").split()[0].split(",")))
    [landing] = [g for g in root.iter(SVG + "g") if g.get("data-square") == "28" and "piece" in g.get("class")]
    x, y = translation(landing)
    radius = piece_radius(landing)
    distance = ((tip[0] - x) ** 2 + (tip[1] - y) ** 2) ** 0.5
    assert radius < distance < radius + 4
    start = [float(v) for v in next(arrow.iter(SVG + "polyline")).get("points").split()[0].split(",")]
    assert ((tip[0] - start[0]) ** 2 + (tip[1] - start[1]) ** 2) ** 0.5 > 0.5 * 40 * 1.41 - 1


def test_kings_wear_a_crown_and_men_do_not():
    root = svg_of("-", input='[GameType "20"]\n[FEN "W:WK46,47:BK5,6"]\n*\n')
    crowns = {int(g.get("data-square")) for g in root.iter(SVG + "g") if "piece" in (g.get("class") or "")
              for p in g.iter(SVG + "polygon") if p.get("class") == "crown"}
    assert crowns == {46, 5}


def test_caption_names_players_move_and_side_to_move():
    root = svg_of("-", "--ply", "3", input=CAPTURE)
    lines = [t.text for t in root.iter(SVG + "text") if t.get("class") == "caption"]
    assert lines == ["Alice \u2013 Bob", "international \u00b7 after 2. 28x19 \u00b7 Black to move"]


def test_size_sets_the_picture_width_and_12x12_stays_readable():
    root = svg_of("-", "--size", "300", input='[GameType "27"]\n*\n')
    width, height = int(root.get("width")), int(root.get("height"))
    view = [float(v) for v in root.get("viewBox").split()]
    assert width == 300 and abs(height / width - view[3] / view[2]) < 0.01
    default = svg_of("-", input='[GameType "27"]\n*\n')
    scale = int(default.get("width")) / float(default.get("viewBox").split()[2])
    label = next(t for t in default.iter(SVG + "text") if t.get("class") == "label")
    assert float(label.get("font-size")) * scale >= 10          # pixels, at the default size
    assert diagram("-", "--size", "10", input='[GameType "27"]\n*\n').exit_code == 2


def test_png_output_is_a_png_of_the_size_asked(tmp_path):
    target = tmp_path / "board.png"
    result = diagram("-", "-o", target, "--size", "320", input=CAPTURE)
    assert result.exit_code == 0, result.output
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert int.from_bytes(data[16:20], "big") == 320


def test_png_without_its_extra_exits_2_naming_the_extra(tmp_path, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "resvg_py", None)          # as if not installed
    target = tmp_path / "board.png"
    result = diagram("-", "-o", target, input=CAPTURE)
    assert result.exit_code == 2
    assert result.stderr == ("pdn: writing PNG needs the optional 'png' extra: "
                             "pip install 'pdn-tools[png]'\n")
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_the_text_boards_fen_names_squares_as_its_labels_do():
    """One vocabulary: the FEN under the board follows --labels (the variant's own by default)."""
    cases = [('[GameType "25"]\n1. c3-d4 *\n', (), "B:Wd4,a3,e3,"),
             ('[GameType "25"]\n1. c3-d4 *\n', ("--labels", "numbers"), "B:W18,21,23,"),
             ('[GameType "20"]\n1. 32-28 *\n', (), "B:W28,31,33,"),
             ('[GameType "20"]\n1. 32-28 *\n', ("--labels", "algebraic"), "B:We5,b4,f4,")]
    for text, options, fen in cases:
        board = diagram("-", *options, input=text).stdout
        assert board.splitlines()[-1].startswith(f"Black to move  {fen}"), board


# ---- issue 29: the whole caption shows; a tinted square keeps its number readable ------------

LONG_NAMES = ('[Event "World Championship Match, Wijk aan Zee"]\n[White "Wouterus Mwambwa-Hoogeveen"]\n'
              '[Black "Maximilian WWMM Baba Sy"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n')


def png_rows(data: bytes) -> list[list[tuple[int, ...]]]:
    """The pixels of an 8-bit RGB or RGBA PNG, row by row (filters undone)."""
    import zlib
    chunks, at = [], 8
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        chunks.append((data[at + 4:at + 8], data[at + 8:at + 8 + length]))
        at += 12 + length
    header = dict(chunks)[b"IHDR"]
    width, height, depth, kind = (int.from_bytes(header[0:4], "big"), int.from_bytes(header[4:8], "big"),
                                  header[8], header[9])
    assert depth == 8 and kind in (2, 6)
    step = 3 if kind == 2 else 4
    raw = zlib.decompress(b"".join(body for name, body in chunks if name == b"IDAT"))
    stride, rows, previous = width * step, [], bytearray(width * step)
    for y in range(height):
        kind_of_filter, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            estimate = left + up - corner
            paeth = min((abs(estimate - left), 0, left), (abs(estimate - up), 1, up), (abs(estimate - corner), 2, corner))[2]
            line[x] = (line[x] + (0, left, up, (left + up) // 2, paeth)[kind_of_filter]) & 255
        rows.append([tuple(line[x:x + step]) for x in range(0, stride, step)])
        previous = line
    return rows


def test_a_long_caption_shows_whole_in_the_png(tmp_path):
    pytest.importorskip("resvg_py")
    target = tmp_path / "board.png"
    assert diagram("-", "-o", target, input=LONG_NAMES).exit_code == 0
    rows = png_rows(target.read_bytes())
    below_board = rows[len(rows[0]):]                 # the board is about as tall as the picture is wide
    ink = [y for y, row in enumerate(below_board) if any(sum(pixel[:3]) < 600 for pixel in row[-4:])]
    assert ink == [], "the caption runs into the picture's right edge"
    shown = " ".join(t.text for t in svg_of("-", input=LONG_NAMES).iter(SVG + "text") if t.get("class") == "caption")
    assert shown == ("Wouterus Mwambwa-Hoogeveen \u2013 Maximilian WWMM Baba Sy \u00b7 World Championship Match, "
                     "Wijk aan Zee international \u00b7 after 2... 14x23 \u00b7 White to move")


def test_a_caption_is_wrapped_at_its_width_and_keeps_its_size():
    root = svg_of("-", input=LONG_NAMES)
    sizes = [float(t.get("font-size")) for t in root.iter(SVG + "text") if t.get("class") == "caption"]
    assert len(sizes) > 2 and min(sizes) >= 13                 # wrapped onto more lines, not shrunk


def test_the_numbers_of_tinted_squares_are_drawn_over_the_tint_outlined():
    root = svg_of("-", input=LONG_NAMES)           # the last move 14x23 tints 14 and 23
    order = [(e.get("class"), e.get("data-square")) for e in root.iter() if e.get("data-square") in ("14", "23")]
    for square in ("14", "23"):
        tint = order.index(("highlight last", square))
        assert ("label marked", square) in order[tint:], order
    marked = [t for t in root.iter(SVG + "text") if t.get("class") == "label marked"]
    assert {t.text for t in marked} == {"14", "23"}
    assert all(t.get("fill") == "#ffffff" and t.get("stroke") and t.get("paint-order") == "stroke" for t in marked)


@pytest.mark.parametrize("name", list(PICTURES))
def test_each_picture_class_is_a_format_and_its_suffix_chooses_it(name, tmp_path):
    """A format is one class in PICTURES: a --format choice, chosen by -o FILE's suffix (text: any other),
    the same bytes to stdout as to the file."""
    kind = PICTURES[name]
    option = next(p for p in cli.commands["diagram"].params if p.name == "fmt")
    assert list(option.type.choices) == list(PICTURES)
    target = tmp_path / f"board{kind.suffix or '.txt'}"
    assert format_for(str(target)) == name
    to_file = diagram("-", "--ply", 2, "-o", target, input=CAPTURE)
    to_stdout = diagram("-", "--ply", 2, "--format", name, input=CAPTURE)
    assert to_file.exit_code == to_stdout.exit_code == 0
    assert target.read_bytes() == to_stdout.stdout_bytes and to_stdout.stdout_bytes
    assert to_stdout.stdout_bytes.startswith(b"\x89PNG" if kind.binary else b"Alice - Bob" if name == "text" else b"<svg")
