"""`validate --format html` and `stats --format html`: one self-contained page, checked as
rendered by headless Chromium (boards, counts, charts), with a screenshot kept as an artefact."""
import io
import os
import random
import re
import shlex
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

import pdn_tools
from browser import browser_page
from corpus import DATA
from pdn_tools.cli import cli
from pdn_tools.commands import archive, html_games, html_page, html_report, html_stats
from pdn_tools.play.check import check
from pdn_tools.text.names import printable
from pdn_tools.text.reader import read_games, read_text
from test_escaping import PROPERTY, game_with, raw_controls, values, xml_forbidden

FAULTS = DATA / "faults.pdn"            # one game per error code: 9 games, all invalid
VARIANTS = DATA / "variants"            # one valid game of each of the 13 variants
# International perft depth 1 (reference §6): the 9 first moves.
FIRST_MOVES = "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"


def run(*args, input=None):
    return CliRunner().invoke(cli, [*map(str, args)], input=input)


COMMAND = ["validate", "--format", "html"]


def run_line(page) -> str:
    return page.inner_text(".run")


@pytest.fixture(scope="module")
def audit(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("audit") / "report.html"
    arguments = [*COMMAND, "-o", str(target), str(FAULTS), str(VARIANTS)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "argv", ["/somewhere/bin/pdn", *arguments])      # the command line the page names
        result = run(*arguments)
    assert result.exit_code == 1 and result.stdout == ""
    return target


def xml_page(path: Path) -> ElementTree.Element:
    """The page as the markup holds it (what a browser shows with script off)."""
    return ElementTree.fromstring(path.read_text(encoding="utf-8").removeprefix("<!DOCTYPE html>\n"))


def board_facts(page, game: int) -> dict:
    """What Chromium rendered of the first board of invalid game `game`: sizes in CSS pixels."""
    return page.evaluate("""(number) => {
        const game = document.getElementById('game-' + number);
        const svg = game.querySelector('figure.board svg');
        const box = svg.querySelector('g.board').getBoundingClientRect();
        const tried = [...svg.querySelectorAll('rect.attempt')].map(r => {
            const b = r.getBoundingClientRect();
            return {square: r.dataset.square, x: b.x - box.x, y: b.y - box.y, w: b.width, h: b.height};
        });
        const pieces = [...svg.querySelectorAll('g.board > use')].map(p => p.getAttribute('href'))
            .filter(href => /^#pdn-[wWbB]$/.test(href));
        return {open: game.open, shown: svg.checkVisibility(), width: box.width, height: box.height, tried,
                white: pieces.filter(href => /[wW]$/.test(href)).length,
                black: pieces.filter(href => /[bB]$/.test(href)).length,
                kings: pieces.filter(href => /[WB]$/.test(href)).length,
                legal: game.querySelector('.legal') ? game.querySelector('.legal').textContent : null,
                moves: game.querySelector('.moves').textContent,
                caption: game.querySelector('figcaption').textContent};
    }""", game)


@pytest.mark.slow
def test_audit_page_in_chromium(audit, tmp_path):
    with browser_page() as page:
        page.goto(audit.as_uri())
        totals = page.inner_text(".totals")
        assert totals == "14 files \u00b7 22 games \u00b7 13 valid \u00b7 9 invalid \u00b7 1 warning"
        command, version, date = run_line(page).split(" \u00b7 ")
        assert command == shlex.join(["pdn", *COMMAND, "-o", str(audit), str(FAULTS), str(VARIANTS)])
        assert version == f"pdn-tools {pdn_tools.__version__}" and re.fullmatch(r"20\d\d-\d\d-\d\d \d\d:\d\d UTC", date)
        rows = page.evaluate("""[...document.querySelectorAll('table.files tbody tr')]
                                .map(r => [...r.cells].map(c => c.textContent))""")
        assert rows == [[str(FAULTS), "9", "9", "9", "1",
                         "syntax 1, bad-square 1, illegal-move 1, ambiguous-capture 1, capture-required 1, "
                         "capture-law 1, wrong-result 1, bad-fen 1, bad-gametype 1, result-mismatch 1"]]
        assert page.inner_text("details.clean > summary") == "13 files without problems"
        clean = page.evaluate("[...document.querySelectorAll('details.clean li')].map(li => li.textContent)")
        assert sorted(clean) == sorted(str(path) for path in VARIANTS.iterdir())
        bars = page.evaluate("""[...document.querySelectorAll('figure.codes rect.bar')]
                                .map(b => [b.dataset.label, b.dataset.value, b.getBoundingClientRect().width])""")
        assert sorted(label for label, _, _ in bars) == sorted(
            ["syntax", "bad-square", "illegal-move", "ambiguous-capture", "capture-required", "capture-law",
             "wrong-result", "bad-fen", "bad-gametype"])
        assert {value for _, value, _ in bars} == {"1"} and {round(width) for _, _, width in bars} == {260}
        games = page.evaluate("[...document.querySelectorAll('details.game')].map(d => [d.dataset.code, d.open])")
        assert [code for code, _ in games] == ["syntax", "bad-square", "illegal-move", "ambiguous-capture",
                                               "capture-required", "capture-law", "wrong-result", "bad-fen",
                                               "bad-gametype"]
        assert [opened for _, opened in games] == [True] * 9              # each the first of its group

        # bad-square: 2. 28x51 after 1. 32-28 19-23; 20 men a side, 28 marked; 28x19 is forced.
        board = board_facts(page, 2)
        assert board["shown"] and board["width"] > 250 and abs(board["width"] - board["height"]) < 1
        assert (board["white"], board["black"], board["kings"]) == (20, 20, 0)
        [tried] = board["tried"]
        square = board["width"] / 10
        assert tried["square"] == "28"
        # 28 is on row 6 (26-30 start on file a), column 5: its tint lies inside that cell.
        assert 4 * square < tried["x"] < 4.2 * square and 5 * square < tried["y"] < 5.2 * square
        assert 0.8 * square < tried["w"] < square
        assert board["legal"] == "Legal moves (1): 28x19"
        assert board["moves"] == "1. 32-28 19-23 2. 28x51" and board["caption"] == "before 2. 28x51"

        # illegal-move: 1. 32-26 from the start: both squares marked, the 9 first moves listed.
        board = board_facts(page, 3)
        assert sorted(t["square"] for t in board["tried"]) == ["26", "32"]
        assert board["legal"] == f"Legal moves (9): {FIRST_MOVES}"

        # ambiguous-capture: a white king on 20 against five men.
        board = board_facts(page, 4)
        assert (board["white"], board["black"], board["kings"]) == (1, 5, 1)

        # wrong-result: the position after 28x19.
        board = board_facts(page, 7)
        assert board["open"] and board["shown"] and board["width"] > 250 and (board["white"], board["black"]) == (1, 0)
        assert "Black to move" in board["caption"]

        shot = tmp_path / "audit.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot of the audit page: {shot}")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert page.refused == []                   # nothing but the file itself was loaded


@pytest.mark.slow
def test_the_page_starts_with_the_answer(audit):
    """Totals and run first, then the files with problems, the invalid games, the references, the counts."""
    with browser_page() as page:
        page.goto(audit.as_uri())
        order = page.evaluate("""[...document.querySelectorAll('h1, .totals, .run, nav, h2')]
                                 .map(e => [e.tagName, e.textContent, e.getBoundingClientRect().top])""")
        assert [(tag, text) for tag, text, _ in order] == [
            ("H1", "PDN audit report"), ("P", order[1][1]), ("P", order[2][1]),
            ("NAV", "Files with problems \u00b7 Invalid games \u00b7 References \u00b7 Counts by variant and code"),
            ("H2", "Files with problems (1 of 14)"), ("H2", "Invalid games (9)"), ("H2", "References (9 errors)"),
            ("H2", "Counts by variant and code")]
        tops = [top for _, _, top in order]
        assert tops == sorted(tops) and tops[4] < 900            # the files come on the first screen
        assert page.inner_text("pre.references").splitlines() == [
            f"{FAULTS}:{line}: {code}" for line, code in [
                (3, "syntax"), (7, "bad-square"), (11, "illegal-move"), (17, "ambiguous-capture"),
                (21, "capture-required"), (27, "capture-law"), (31, "wrong-result"), (39, "bad-fen"),
                (43, "bad-gametype")]]
        page.click("button.select")
        assert page.evaluate("getSelection().toString()").splitlines() == page.inner_text("pre.references").splitlines()
        for anchor in page.evaluate("[...document.querySelectorAll('nav a')].map(a => a.hash)"):
            assert page.evaluate("(id) => !!document.getElementById(id)", anchor[1:])


def test_audit_page_is_self_contained(audit):
    text = audit.read_text(encoding="utf-8")
    assert not re.search(r"""(?:src|href)=["'](?!#)""", text)
    assert "@import" not in text and "url(" not in text and "fetch(" not in text


@pytest.fixture(scope="module")
def troubled(tmp_path_factory) -> Path:
    """Four files: c.pdn (5 games, 2 illegal), a.pdn (3 games, 1 illegal), b.pdn (1 game, 2 warnings) and
    a clean d.pdn."""
    folder = tmp_path_factory.mktemp("troubled")
    good, bad = '[GameType "20"]\n1. 32-28 *\n\n', '[GameType "20"]\n1. 32-26 *\n\n'
    (folder / "c.pdn").write_text(bad * 2 + good * 3)
    (folder / "a.pdn").write_text(good + bad + good)
    (folder / "b.pdn").write_text('[GameType "20"]\n1. 032-028 *\n')         # two zero-padded squares
    (folder / "d.pdn").write_text(good)
    target = folder / "report.html"
    assert run(*COMMAND, "-o", target, *(folder / name for name in ("a.pdn", "b.pdn", "c.pdn", "d.pdn"))
               ).exit_code == 1
    return target


def file_order(page) -> list[str]:
    return page.evaluate("""[...document.querySelectorAll('table.files tbody tr')]
                            .map(r => r.cells[0].textContent.split('/').pop())""")


@pytest.mark.slow
def test_the_files_table_sorts_on_a_click(troubled):
    with browser_page() as page:
        page.goto(troubled.as_uri())
        assert file_order(page) == ["c.pdn", "a.pdn", "b.pdn"]           # most errors first
        for column, order in [("warnings", ["b.pdn", "c.pdn", "a.pdn"]), ("games", ["c.pdn", "a.pdn", "b.pdn"]),
                              ("games", ["b.pdn", "a.pdn", "c.pdn"]), ("file", ["a.pdn", "b.pdn", "c.pdn"]),
                              ("file", ["c.pdn", "b.pdn", "a.pdn"]), ("errors", ["c.pdn", "a.pdn", "b.pdn"])]:
            page.click(f"table.files th:text-is('{column}')")
            assert file_order(page) == order, column
        assert page.evaluate("""[...document.querySelectorAll('table.files th[aria-sort]')]
                                .map(th => [th.textContent, th.getAttribute('aria-sort')])""") == [
            ["errors", "descending"]]
        assert page.inner_text("details.clean > summary") == "1 file without problems"
        assert page.is_visible("button.select")                 # shown when the script runs
        assert page.refused == []


def test_with_script_off_the_page_holds_everything_most_errors_first(troubled):
    root = xml_page(troubled)
    files = next(table for table in root.iter("table") if "files" in table.get("class", "").split())
    rows = [[cell.text for cell in row] for row in files.iter("tr") if row.find("td") is not None]
    assert [(row[0].rsplit("/", 1)[1], row[1:5]) for row in rows] == [
        ("c.pdn", ["5", "2", "2", "0"]), ("a.pdn", ["3", "1", "1", "0"]), ("b.pdn", ["1", "0", "0", "2"])]
    [listing] = [element for element in root.iter("details") if element.get("class") == "clean"]
    clean = [item.text for item in listing.iter("li")]
    assert [name.rsplit("/", 1)[1] for name in clean] == ["d.pdn"]
    games = [element.get("id") for element in root.iter("details") if element.get("class") == "game"]
    assert games == ["game-1", "game-2", "game-3"]


GROUPED = [("illegal-move", '[White "Anna"]\n[GameType "20"]\n1. 32-26 *\n\n'),
           ("wrong-result", '[GameType "20"]\n[Result "0-2"]\n[SetUp "1"]\n[FEN "W:W28:B23"]\n1. 28x19 2-0\n\n'),
           ("bad-square", '[White "Anna"]\n[Black "Bram"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n\n')]
# Invalid games 1-9 of grouped.pdn, in file order, by code: 4 illegal, 3 wrong results, 2 bad squares.
GROUPED_ORDER = [0, 1, 0, 2, 1, 0, 0, 2, 1]


@pytest.fixture(scope="module")
def grouped(tmp_path_factory) -> Path:
    """A page whose groups hold at most 2 games (`PER_CODE`), with a valid game first."""
    folder = tmp_path_factory.mktemp("grouped")
    source = folder / "grouped.pdn"
    source.write_text('[GameType "20"]\n1. 32-28 *\n\n' + "".join(GROUPED[kind][1] for kind in GROUPED_ORDER))
    target = folder / "report.html"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(html_report, "PER_CODE", 2)
        assert run(*COMMAND, "-o", target, source).exit_code == 1
    return target


@pytest.mark.slow
def test_each_bar_links_to_its_group_of_games(grouped):
    with browser_page(height=500) as page:
        page.goto(grouped.as_uri())
        bars = page.evaluate("""[...document.querySelectorAll('figure.codes rect.bar')]
                                .map(b => [b.dataset.label, +b.dataset.value])""")
        assert bars == [["illegal-move", 4], ["wrong-result", 3], ["bad-square", 2]]
        for code, count in bars:
            page.click(f"figure.codes rect.bar[data-label='{code}']")
            landed = page.evaluate("""() => {
                const group = document.querySelector(':target');
                return {hash: location.hash, code: group.dataset.code, top: group.getBoundingClientRect().top,
                        title: group.querySelector('h3').textContent,
                        games: [...group.querySelectorAll('details.game')].map(g => [g.id, g.dataset.code, g.open]),
                        more: group.querySelector('.more')?.textContent ?? null};
            }""")
            assert landed["hash"] == f"#code-{code}" and landed["code"] == code
            assert abs(landed["top"]) < 1                                   # scrolled to the top of the view
            numbers = [n + 1 for n, kind in enumerate(GROUPED_ORDER) if GROUPED[kind][0] == code]
            assert len(numbers) == count and landed["title"] == f"{code}: {count} games"
            assert landed["games"] == [[f"game-{n}", code, n == numbers[0]] for n in numbers[:2]]
            assert landed["more"] == (None if count == 2 else
                                      f"and {count - 2} more game{'s' * (count > 3)} with {code}, "
                                      f"not shown: the references name every one.")
        lines = page.inner_text("pre.references").splitlines()
        assert [line.split(": ")[1] for line in lines] == [GROUPED[kind][0] for kind in GROUPED_ORDER]
        # a later game of a group keeps its board as text until it is opened
        shown = "(n) => document.querySelector('#game-' + n + ' figure.board svg')?.checkVisibility() ?? null"
        assert page.evaluate(shown, 1) is True and page.evaluate(shown, 3) is None
        page.click("#game-3 > summary")
        page.wait_for_function(f"n => ({shown})(n) === true", arg=3)    # drawn on the toggle event, just after
        assert page.inner_text("#game-3 .legal") == f"Legal moves (9): {FIRST_MOVES}"
        assert page.evaluate("document.querySelectorAll('#game-3 g.board > use').length") == 41   # board + 40
        assert page.refused == []


@pytest.mark.slow
def test_games_without_players_are_named_by_file_and_index(grouped):
    with browser_page() as page:
        page.goto(grouped.as_uri())
        names = page.evaluate("""Object.fromEntries([...document.querySelectorAll('details.game')]
                                 .map(g => [g.id, g.querySelector('.players').textContent]))""")
    assert names == {"game-1": "Anna \u2013 ?", "game-3": "Anna \u2013 ?",          # illegal-move: White only
                     "game-2": "grouped.pdn, game 3", "game-5": "grouped.pdn, game 6",   # wrong-result: no player
                     "game-4": "Anna \u2013 Bram", "game-8": "Anna \u2013 Bram"}
    assert "?\u00a0\u2013 ?" not in grouped.read_text() and "? \u2013 ?" not in grouped.read_text()


def test_worker_processes_give_the_same_page(audit, tmp_path):
    """The same page but for the run line, which names the command (here with --jobs) and the time."""
    target = tmp_path / "report.html"
    assert run(*COMMAND, "--jobs", "2", "-o", target, FAULTS, VARIANTS).exit_code == 1
    [ours, theirs] = [re.sub(r'<p class="run">.*?</p>', "", path.read_text(encoding="utf-8"), count=1)
                      for path in (target, audit)]
    assert ours == theirs and '<p class="run">' in audit.read_text(encoding="utf-8")


def test_report_sections_wait_in_files_not_in_memory(tmp_path):
    page = html_report.AuditPage()
    source = tmp_path / "bad.pdn"
    source.write_text('[GameType "20"]\n1. 32-26 *\n')
    [game] = read_games(str(source))
    checked = check(game)
    page.add(checked.record, html_games.audit_game(checked))
    [spool] = page.sections.values()
    assert spool.tell() > 1000 and spool.fileno() >= 0 and page.references.tell() > 0   # written out as it came
    assert not [value for value in vars(page).values() if isinstance(value, list)]


# ---- a large archive ------------------------------------------------------------------------------

# A 40-ply international game (samples/international.pdn), and what is made of it.
MAIN_LINE = ("1. 34-29 17-21 2. 31-26 19-24 3. 26x17 12x21 4. 37-31 14-19 5. 41-37 18-23 6. 29x18 13x22 "
             "7. 33-29 24x33 8. 39x26 16-21 9. 26x17 11x22 10. 32-27 19-24 11. 27x18 6-11 12. 18-12 7x18 "
             "13. 43-39 9-13 14. 39-34 18-23 15. 38-33 10-14 16. 44-39 3-9 17. 37-32 8-12 18. 50-44 1-7 "
             "19. 33-28 13-19 20. 49-43 9-13")
# (share of games, text after the tags, error, warnings): as in the corpus, most games have a warning
# (there 96%, here 62%) and few are invalid (there 0.4%, here 2%, a stress).
KINDS = [(0.38, MAIN_LINE + " *", None, 0),
         (0.40, MAIN_LINE + " *", None, 1),                                  # no GameType: inferred-variant
         (0.12, MAIN_LINE.replace("3-9", "03-09") + " *", None, 1),          # zero-padded
         (0.08, MAIN_LINE.replace("26x17", "26-17") + " *", None, 2),        # capture-notation, twice
         (0.010, MAIN_LINE + " 21. 45-41 *", "illegal-move", 0),
         (0.006, '[SetUp "1"]\n[FEN "W:W28:B23"]\n[Result "0-2"]\n1. 28x19 2-0', "wrong-result", 1),
         (0.004, MAIN_LINE + " 21. 28x51 *", "bad-square", 0)]


def write_archive(folder: Path, files: int, per_file: int, seed: int = 29) -> dict[str, int]:
    """`files` files of `per_file` games drawn from KINDS (a fifth without player tags); their totals."""
    chooser = random.Random(seed)
    totals = {"files": files, "games": files * per_file, "invalid": 0, "warnings": 0}
    for number in range(files):
        games = []
        for index in range(per_file):
            share, text, error, warnings = chooser.choices(KINDS, weights=[kind[0] for kind in KINDS])[0]
            tags = "" if chooser.random() < 0.2 else f'[White "W{index}"]\n[Black "B{number}"]\n'
            tags += "" if share == 0.40 else '[GameType "20"]\n'
            games.append(f"{tags}{text}\n\n")
            totals["invalid"] += error is not None
            totals["warnings"] += warnings
        (folder / f"archive-{number:04}.pdn").write_text("".join(games))
    return totals


@pytest.mark.slow
def test_a_page_of_40000_games_loads_with_its_totals(tmp_path):
    """40,000 games in 400 files: the page loads in Chromium and counts them all (load time and size
    are measured in docs/audit-page.md, not asserted)."""
    totals = write_archive(tmp_path, files=400, per_file=100)
    target = tmp_path / "report.html"
    assert run(*COMMAND, "-o", target, tmp_path).exit_code == 1
    with browser_page() as page:
        page.goto(target.as_uri())
        assert page.inner_text(".totals") == (
            f"400 files \u00b7 40,000 games \u00b7 {40000 - totals['invalid']:,} valid \u00b7 "
            f"{totals['invalid']:,} invalid \u00b7 {totals['warnings']:,} warnings")
        bars = page.evaluate("[...document.querySelectorAll('figure.codes rect.bar')].map(b => +b.dataset.value)")
        groups = page.evaluate("""[...document.querySelectorAll('section.group')].map(g =>
            [g.querySelectorAll('details.game').length, g.querySelector('.more')?.textContent ?? ''])""")
        assert sum(bars) == totals["invalid"] and len(groups) == 3
        for count, (listed, more) in zip(bars, groups):
            assert listed == min(count, html_report.PER_CODE)
            assert more.startswith(f"and {count - listed:,} more games") or listed == count
        assert len(page.inner_text("pre.references").splitlines()) == totals["invalid"]
        assert page.evaluate("document.querySelectorAll('table.files tbody tr').length") == 400
        assert page.refused == []


@PROPERTY
@given(values, values, values, st.lists(values, max_size=3), st.booleans())
def test_every_field_the_pages_print_shows_escaped(white, black, name, arguments, named):
    """The run's command line, the file names (table, clean list, game names, references) and the players:
    shown as `printable` makes them, in a well-formed page."""
    file = "f" + name                                  # a name (without one, the reader names it '<stream>')
    checked = game_with(white if named else "", black if named else "", "", "*", file)      # bad-square
    [clean] = read_text('[GameType "20"]\n1. 32-28 *\n', name=file + "2")
    run = html_page.this_run(arguments)
    page, stats = html_report.AuditPage(run=run), archive.Stats()
    page.add(checked.record, html_games.audit_game(checked))
    page.add(check(clean).record, None)
    stats.add(checked.record, "")
    audit, summary = io.StringIO(), io.StringIO()
    page.write(audit)
    html_stats.stats_page(stats, summary, run=run)
    for text in (audit.getvalue(), summary.getvalue()):
        assert xml_forbidden(text) == set() and raw_controls(text) == set()
        root = ElementTree.fromstring(text.removeprefix("<!DOCTYPE html>\n"))
        assert of_class(root, "command") == [printable(shlex.join(["pdn", *arguments]))]
    players = (f"{white or '?'} \u2013 {black or '?'}" if named and (white or black)
               else f"{os.path.basename(file)}, game 1")
    root = ElementTree.fromstring(audit.getvalue().removeprefix("<!DOCTYPE html>\n"))
    assert of_class(root, "players") == [printable(players)]
    assert of_class(root, "references") == [printable(f"{file}:{checked.record.errors[0].line}: bad-square") + "\n"]
    [files] = [table for table in root.iter("table") if table.get("class") == "files sortable"]
    assert [row[0].text for row in files.iter("tr")][1:] == [printable(file)]
    [listing] = [element for element in root.iter("details") if element.get("class") == "clean"]
    assert [item.text for item in listing.iter("li")] == [printable(file + "2")]


def of_class(root: ElementTree.Element, name: str) -> list[str | None]:
    return [element.text for element in root.iter() if element.get("class") == name]


def test_html_report_to_stdout_and_usage_errors():
    result = run("validate", "--format", "html", "-", input='[GameType "20"]\n1. 32-28 *\n')
    assert result.exit_code == 0 and result.stdout.startswith("<!DOCTYPE html>")
    assert "1</span> game \u00b7" in result.stdout and "Every game is valid." in result.stdout
    result = run("validate", "--show-board", "--format", "html", "-", input="*\n")
    assert result.exit_code == 2 and "--show-board goes with --format text" in result.output


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("command", [COMMAND, ["stats", "--format", "html"]], ids=["validate", "stats"])
def test_the_pages_name_the_inputs_that_could_not_be_read(tmp_path, command, jobs):
    """A cut archive, a missing file: the page, written with --partial, says so in its totals and
    lists them with stderr's reason, and never counts the cut file among those without problems."""
    import gzip

    whole = gzip.compress((VARIANTS / "20-international.pdn").read_bytes() * 40)
    (tmp_path / "cut\u202e.pdn.gz").write_bytes(whole[:len(whole) // 2])
    target = tmp_path / "page.html"
    result = run(*command, "-j", jobs, "--partial", "-o", target, tmp_path / "cut\u202e.pdn.gz",
                 tmp_path / "missing.pdn", VARIANTS / "21-english.pdn")
    assert result.exit_code == 2
    notes = [line.removeprefix("pdn: ") for line in result.stderr.splitlines() if line.startswith("pdn: cannot read")]
    assert len(notes) == 2 and {note.split(": ")[1] for note in notes} == {"truncated", "no such file"}
    text = target.read_text(encoding="utf-8")
    root = ElementTree.fromstring(text)
    assert of_class(root, "unreadable") == ["2"]
    assert of_class(root, "input") == notes
    assert any("cut\\u202e.pdn.gz: truncated" in note for note in notes) and "\u202e" not in text
    assert [item.text for item in root.iter("li") if item.get("class") is None and "cut" in (item.text or "")] == []


def test_an_unwritable_report_is_a_usage_error(tmp_path):
    target = tmp_path / "missing" / "report.html"
    result = run("validate", "--format", "html", "-o", target, FAULTS)
    assert result.exit_code == 2 and result.stderr == f"pdn: cannot write {target}: No such file or directory\n"


def test_stats_page_counts_with_thousands_separators():
    stats = archive.Stats()
    stats.years.update({"1999": 1200, "": 10624})
    chart = html_stats._years(stats.years)
    assert "Games per year (10,624 without a year)" in chart and "highest: 1,200 games" in chart


STATS_GAMES = [("1999.05.01", "2-0"), ("1999.06.01", "0-2"), ("1999.07.01", "1-1"), ("2001.01.01", "2-0"),
               ("2001.02.02", "*"), ("", "2-0"), ("0000.00.00", "2-0")]


@pytest.mark.slow
def test_stats_page_in_chromium(tmp_path):
    source = tmp_path / "archive.pdn"
    source.write_text("".join(f'[Date "{date}"]\n[Result "{result}"]\n[GameType "20"]\n1. 32-28 {result}\n\n'
                              for date, result in STATS_GAMES))
    target = tmp_path / "stats.html"
    result = run("stats", "--format", "html", "-o", target, source)
    assert result.exit_code == 0, result.output
    with browser_page() as page:
        page.goto(target.as_uri())
        assert page.inner_text(".totals").startswith("7 games \u00b7 7 valid \u00b7 0 invalid")
        charts = page.evaluate("""Object.fromEntries([...document.querySelectorAll('figure.chart')].map(f => [
            f.classList[1], [...f.querySelectorAll('rect.bar')].map(b => [b.dataset.label, +b.dataset.value,
                Math.round(b.getBoundingClientRect().width), Math.round(b.getBoundingClientRect().height)])]))""")
        assert [bar[:2] for bar in charts["years"]] == [["1999", 3], ["2001", 2]]     # none in 2000
        assert [bar[3] for bar in charts["years"]] == [120, 80]                 # drawn to scale
        assert page.inner_text("figure.years figcaption") == "Games per year (2 without a year)"
        assert page.evaluate("[...document.querySelectorAll('figure.years text')].map(t => t.textContent)") == [
            "1999", "2000", "2001", "highest: 3 games"]
        positions = page.evaluate("""[...document.querySelectorAll('figure.years rect.bar')]
                                     .map(b => b.getBoundingClientRect().x)""")
        assert positions[1] - positions[0] > 1.9 * 28 - 1                      # a gap where 2000 would be
        assert [bar[:2] for bar in charts["outcomes"]] == [["starting side won", 4], ["other side won", 1],
                                                          ["drawn", 1], ["no result", 1]]
        assert [bar[:2] for bar in charts["variants"]] == [["international", 7]]
        shot = tmp_path / "stats.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot of the stats page: {shot}")
        assert page.refused == []
