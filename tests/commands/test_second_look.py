"""The audit page's moves worth a second look (`validate --format html --shots`): which moves
qualify, the biggest kept, the section as written and as Chromium shows it, every field escaped."""
import dataclasses
import functools
import io
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from browser import browser_page
from test_escaping import PROPERTY, raw_controls, values, xml_forbidden
from pdn_tools import read_games, read_text
from pdn_tools.cli import cli
from pdn_tools.commands import html_report
from pdn_tools.commands.second_look import PLIES_AFTER, SHOWN, Biggest, SecondLook, second_looks
from pdn_tools.play.check import check
from pdn_tools.play.notation import move_text
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.search import Evaluations
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.names import printable

SAMPLES = Path("samples")
# TTS Example 1 (english/wiegerw-succeed-Tricks_traps_and_shots.pdn), White to move: 24-19 lets Black
# take two, 15x24x31, a compulsory capture (seed 001: "Si tiene la oportunidad de saltar una selección
# de fichas del oponente, puede elegir cuál, pero debe capturar una de ellas"); 27-23 would have kept
# the balance.  After it, the first legal move each ply.
EXAMPLE = "W:W32,27,24,22:B20,15,10,7"


def played_on(plies_after: int, result: str = "0-1", white: str = "Anna") -> str:
    """The example with 24-19 and `plies_after` plies after it, White (the side that moved) named `white`."""
    position = parse_fen(VARIANTS["english"], EXAMPLE)
    move = next(m for m in position.legal_moves() if (m.start, m.end) == (24, 19))
    moves = []
    for _ in range(plies_after + 1):
        moves.append(move_text(position, move))
        position = position.play(move)
        move = position.legal_moves()[0]
    return (f'[GameType "21"]\n[FEN "{EXAMPLE}"]\n[White "{white}"]\n[Result "{result}"]\n\n'
            f'1... {" ".join(moves)} {result}\n\n')


def looks(text: str, depth: int = 3):
    found, unjudged = second_looks(check(read_text(text)[0]), Evaluations(depth))
    assert unjudged == 0
    return found


def run(*args, input=None):
    return CliRunner().invoke(cli, [*map(str, args)], input=input)


def test_a_move_into_a_shot_in_a_game_played_on_is_worth_a_second_look():
    [look] = looks(played_on(PLIES_AFTER))
    assert (look.move, look.ply, look.plies, look.swing, look.forced) == ("1... 24-19", 1, 11, 350, False)
    # 350 (was 250) as depth 4 finds below: the search's free forcing moves now see at depth 3 that
    # 27-23 wins a man, so the best move was worth +1.00, the move played -2.50
    assert look.line_moves[:2] == ("24-19", "15x31") and look.eval == "-2.50"
    assert (look.fen, look.squares, look.alpha, look.variant) == ("W:W22,24,27,32:B7,10,15,20", (24, 19), False,
                                                                  "english")
    assert (look.line, look.column, look.name()) == (6, 6, "Anna \u2013 ?")       # `1... 24-19`
    # English: Black moves first, so 0-1 is White's win (PDN reference §1.7: the first score is the first mover's)
    outcomes = {result: looks(played_on(PLIES_AFTER, result))[0].mover_outcome
                for result in ("0-1", "1-0", "1/2-1/2", "*")}
    assert outcomes == {"0-1": "won", "1-0": "lost", "1/2-1/2": "drew", "*": ""}
    assert looks(played_on(PLIES_AFTER), depth=4)[0].swing == 350     # 27-23 wins a man at depth 4


def test_a_game_resigned_soon_after_or_not_valid_has_none():
    assert looks(played_on(PLIES_AFTER - 1)) == ()
    assert looks(played_on(PLIES_AFTER).replace("15x31", "15-19")) == ()        # illegal: not replayed
    assert len(looks(played_on(PLIES_AFTER, white=""))) == 1
    international = (SAMPLES / "international.pdn").read_text()
    assert looks(international)                                                 # 5... 18-23 into a shot
    assert looks(international.replace('[GameType "20"]', '[GameType "98"]')) == ()     # lidraughts' Antidraughts
    assert looks(international.replace('[GameType "20"]', '[GameType "96"]')) == ()     # and Breakthrough

@functools.cache
def template() -> SecondLook:
    return looks(played_on(PLIES_AFTER))[0]


@given(st.lists(st.tuples(st.integers(0, 5), st.booleans()), max_size=40), st.integers(1, 6))
def test_the_biggest_are_kept_first_come_first_among_equals_forced_ends_after(swings, size):
    biggest = Biggest(size)
    added = [dataclasses.replace(template(), swing=swing, forced=forced, game=index)
             for index, (swing, forced) in enumerate(swings)]
    for look in added:
        biggest.add(look)
    expected = sorted(added, key=lambda look: (look.forced, -look.swing, look.game))[:size]
    assert biggest.ordered() == expected and biggest.added == len(swings)


def expected_looks(paths, depth=3):
    """The moves the page should list, computed game by game: biggest swing first, then input order."""
    found = [look for path in paths for game in read_games(str(path))
             for look in second_looks(check(game), Evaluations(depth))[0]]
    return sorted(found, key=lambda look: look.rank(), reverse=True)[:SHOWN], len(found)


@pytest.fixture(scope="module")
def sample_page(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("second-look") / "page.html"
    result = run("validate", "--format", "html", "--shots", "-o", target, SAMPLES)
    assert result.exit_code == 0, result.output
    return target


def section(page: Path) -> ElementTree.Element:
    root = ElementTree.fromstring(page.read_text(encoding="utf-8").removeprefix("<!DOCTYPE html>\n"))
    return next(element for element in root.iter("section") if element.get("id") == "second-look")


def test_the_page_lists_the_biggest_swings_each_with_its_board_and_says_the_rule(sample_page):
    expected, qualified = expected_looks(sorted(SAMPLES.glob("*.pdn")))
    assert qualified > SHOWN                            # more qualify than are shown
    found = section(sample_page)
    assert found.find("h2").text == f"Moves worth a second look ({SHOWN} of {qualified} moves)"
    rule = "".join(found.find("p").itertext())
    assert "search of depth 3" in rule and f"went on at least {PLIES_AFTER} plies" in rule
    rows = [[("".join(cell.itertext())) for cell in row] for row in found.iter("tr") if row.find("td") is not None]
    assert [(row[1], row[3], row[4]) for row in rows] == [
        (f"{look.swing / 100:.2f} men", f"{look.file}:{look.line}", look.move) for look in expected]
    boards = [div for div in found.iter("div") if div.get("class") == "look"]
    assert [div.get("id") for div in boards] == [f"look-{n}" for n in range(1, SHOWN + 1)]
    for div, look in zip(boards, expected):
        [svg] = div.iter("{http://www.w3.org/2000/svg}svg")
        tinted = [int(rect.get("data-square")) for rect in svg.iter("{http://www.w3.org/2000/svg}rect")
                  if "attempt" in rect.get("class", "")]
        assert tinted == list(dict.fromkeys(look.squares))
        pieces = [use for use in svg.iter("{http://www.w3.org/2000/svg}use")
                  if re.fullmatch("#pdn-[wWbB]", use.get("href"))]
        assert len(pieces) == sum(parse_fen(VARIANTS[look.variant], look.fen).counts(side)[kind]
                                  for side in "WB" for kind in (0, 1))


def test_without_shots_the_page_has_no_such_section_and_text_output_refuses_it(sample_page):
    plain = run("validate", "--format", "html", "-", input=played_on(PLIES_AFTER))
    assert plain.exit_code == 0 and 'id="second-look"' not in plain.stdout and "second look" not in plain.stdout
    result = run("validate", "--shots", "-", input=played_on(PLIES_AFTER))
    assert result.exit_code == 2 and "--shots goes with --format jsonl or html" in result.output


def test_no_move_qualifying_is_said():
    result = run("validate", "--format", "html", "--shots", "-", input=played_on(PLIES_AFTER - 1))
    assert result.exit_code == 0 and "No move qualifies." in result.stdout
    assert "Moves worth a second look (0 of 0 moves)" in result.stdout


def test_worker_processes_give_the_same_page(sample_page, tmp_path):
    target = tmp_path / "page.html"
    assert run("validate", "--format", "html", "--shots", "--jobs", "2", "-o", target, SAMPLES).exit_code == 0
    [ours, theirs] = [re.sub(r'<p class="run">.*?</p>', "", path.read_text(encoding="utf-8"), count=1)
                      for path in (target, sample_page)]
    assert ours == theirs


@pytest.mark.slow
def test_the_section_in_chromium_ordered_boards_drawn_links_land(sample_page):
    expected, _ = expected_looks(sorted(SAMPLES.glob("*.pdn")))
    with browser_page(height=600) as page:
        page.goto(sample_page.as_uri())
        page.click("nav a[href='#second-look']")
        assert page.evaluate("location.hash") == "#second-look"
        assert abs(page.evaluate("document.getElementById('second-look').getBoundingClientRect().top")) < 1
        swings = page.evaluate("[...document.querySelectorAll('table.looks td.swing')].map(c => c.textContent)")
        assert [float(swing.split()[0]) for swing in swings] == sorted((look.swing / 100 for look in expected),
                                                                      reverse=True)
        for number, look in enumerate(expected, 1):
            page.click(f"table.looks a[href='#look-{number}']")
            landed = page.evaluate("""() => {
                const look = document.querySelector(':target');
                const svg = look.querySelector('figure.board svg');
                const box = svg.querySelector('g.board').getBoundingClientRect();
                return {id: look.id, top: look.getBoundingClientRect().top, shown: svg.checkVisibility(),
                        width: box.width, height: box.height,
                        tinted: [...svg.querySelectorAll('rect.attempt')].map(r => +r.dataset.square),
                        caption: look.querySelector('figcaption').textContent,
                        line: look.querySelector('.moves.line').textContent,
                        place: look.querySelector('code.place').textContent};
            }""")
            assert landed["id"] == f"look-{number}" and abs(landed["top"]) < 1
            assert landed["shown"] and landed["width"] > 250 and landed["height"] > 200
            assert landed["tinted"] == list(dict.fromkeys(look.squares))
            assert landed["caption"] == f"before {look.move}" and landed["line"] == " ".join(look.line_moves)
            assert landed["place"] == f"{look.file}:{look.line}:{look.column}"
        assert page.refused == []


@PROPERTY
@given(values, values, values, values, values)
def test_every_field_of_a_second_look_shows_escaped(white, black, file, result, move):
    """Players, file, result and move (the fields that come from the input), in the table and the move's
    section: shown as `printable` makes them, in a well-formed page."""
    look = dataclasses.replace(template(), white=white, black=black, file="f" + file,
                               result=result, move=move)
    page = html_report.AuditPage(depth=3)
    page.add_looks([look])
    out = io.StringIO()
    page.write(out)
    text = out.getvalue()
    assert xml_forbidden(text) == set() and raw_controls(text) == set()
    found = section_of(text)
    [row] = [row for row in found.iter("tr") if row.find("td") is not None]
    cells = ["".join(cell.itertext()) for cell in row]
    assert cells[2:5] == [printable(look.name()), printable(f"{look.file}:{look.line}"), printable(move)]
    assert cells[5] == (printable(result) + ", the side that moved won" if result else "no result")
    [head] = [element for element in found.iter("h3")]
    assert printable(look.name()) in "".join(head.itertext())
    assert [title.text for title in found.iter("{http://www.w3.org/2000/svg}title")] == [printable(f"before {move}")]


def section_of(text: str) -> ElementTree.Element:
    root = ElementTree.fromstring(text.removeprefix("<!DOCTYPE html>\n"))
    return next(element for element in root.iter("section") if element.get("id") == "second-look")


KINGS = ("B:WK1,K2,6,K8,K13,15,K17,K19,24,26,29,30,33,K36,38,41,K42,K45,50"
         ":BK5,7,K10,K14,16,K20,22,K27,K28,K32,34,37")      # a depth-1 search of 62 million nodes


def test_the_page_says_how_many_moves_were_not_judged_and_only_when_some_were():
    """Two games of one move from KINGS: two moves whose search went past the budget (--nodes)."""
    game = f'[GameType "20"]\n[FEN "{KINGS}"]\n[Result "*"]\n\n1... 22x11 *\n\n'
    result = run("validate", "--format", "html", "--shots", "--nodes", "1000", "-o", "-", "-", input=game * 2)
    assert result.exit_code == 0, result.output
    [note] = [p for p in section_of(result.stdout).iter("p") if p.get("class") == "unjudged"]
    assert "".join(note.itertext()).startswith("2 moves not judged: a search went past the node budget (--nodes")
    plain = run("validate", "--format", "html", "--shots", "-o", "-", "-", input=played_on(PLIES_AFTER))
    assert 'class="unjudged"' not in plain.stdout
