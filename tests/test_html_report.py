"""`validate --format html` and `stats --format html`: one self-contained page, checked as
rendered by headless Chromium (boards, counts, charts), with a screenshot kept as an artefact."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from browser import browser_page
from corpus import DATA
from pdn_tools.cli import cli
from pdn_tools.commands import html_report

FAULTS = DATA / "faults.pdn"            # one game per error code: 9 games, all invalid
VARIANTS = DATA / "variants"            # one valid game of each of the 13 variants
# International perft depth 1 (reference §6): the 9 first moves.
FIRST_MOVES = "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"


def run(*args, input=None):
    return CliRunner().invoke(cli, [*map(str, args)], input=input)


@pytest.fixture(scope="module")
def audit(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("audit") / "report.html"
    result = run("validate", "--format", "html", "-o", target, FAULTS, VARIANTS)
    assert result.exit_code == 1 and result.stdout == ""
    return target


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
        assert totals == "22 games \u00b7 13 valid \u00b7 9 invalid"
        rows = page.evaluate("""[...document.querySelectorAll('table.files tr')].slice(1)
                                .map(r => [...r.cells].map(c => c.textContent))""")
        assert [str(FAULTS), "9", "0", "9"] in rows
        assert len(rows) == 14 and all(row[1:] == ["1", "1", "0"] for row in rows if row[0] != str(FAULTS))
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
        assert [opened for _, opened in games] == [True] * 5 + [False] * 4

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

        # wrong-result is collapsed: its board shows once opened, with the position after 28x19.
        assert page.evaluate("document.getElementById('game-7').querySelector('figure.board svg')"
                             ".checkVisibility()") is False
        page.click("#game-7 > summary")
        board = board_facts(page, 7)
        assert board["open"] and board["shown"] and board["width"] > 250 and (board["white"], board["black"]) == (1, 0)
        assert "Black to move" in board["caption"]

        shot = tmp_path / "audit.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot of the audit page: {shot}")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert page.refused == []                   # nothing but the file itself was loaded


def test_audit_page_is_self_contained(audit):
    text = audit.read_text(encoding="utf-8")
    assert not re.search(r"""(?:src|href)=["'](?!#)""", text)
    assert "@import" not in text and "url(" not in text and "fetch(" not in text


@pytest.mark.slow
def test_invalid_games_come_in_collapsed_pages(tmp_path, monkeypatch):
    monkeypatch.setattr(html_report, "PAGE", 3)
    source = tmp_path / "bad.pdn"
    source.write_text("".join(f'[GameType "20"]\n1. 32-{n} *\n\n' for n in range(20, 27)))     # 7 illegal
    target = tmp_path / "report.html"
    assert run("validate", "--format", "html", "-o", target, source).exit_code == 1
    text = target.read_text(encoding="utf-8")
    assert re.findall(r'<details class="page"( open="")?><summary>([^<]*)</summary>', text) == [
        (' open=""', "Invalid games 1\u20133"), ("", "Invalid games 4\u20136"), ("", "Invalid games 7\u20137")]
    assert text.count('<details class="game"') == 7
    with browser_page() as page:
        page.goto(target.as_uri())
        shown = "(n) => document.querySelector('#game-' + n + ' figure.board svg')?.checkVisibility() ?? null"
        assert page.evaluate(shown, 2) is True          # first page: drawn at once
        assert page.evaluate(shown, 6) is None          # later and closed: kept as text until opened
        page.click("text=Invalid games 4–6")
        page.click("#game-6 > summary")
        page.wait_for_function(f"n => ({shown})(n) === true", arg=6)    # drawn on the toggle event, just after
        assert page.evaluate(shown, 6) is True
        legal = page.inner_text("#game-6 .legal")
        assert legal == f"Legal moves (9): {FIRST_MOVES}"
        assert page.evaluate("document.querySelectorAll('#game-6 g.board > use').length") == 41   # board + 40
        assert page.refused == []


def test_worker_processes_give_the_same_page(audit, tmp_path):
    target = tmp_path / "report.html"
    assert run("validate", "--format", "html", "--jobs", "2", "-o", target, FAULTS, VARIANTS).exit_code == 1
    assert target.read_bytes() == audit.read_bytes()


def test_report_sections_wait_in_a_file_not_in_memory(tmp_path):
    page = html_report.AuditPage()
    source = tmp_path / "bad.pdn"
    source.write_text('[GameType "20"]\n1. 32-26 *\n')
    from pdn_tools.play.check import check
    from pdn_tools.text.reader import read_games
    [game] = read_games(str(source))
    checked = check(game)
    page.add(checked.record, html_report.audit_game(checked))
    assert page.spool.tell() > 1000 and page.spool.fileno() >= 0           # written out as it came
    assert not [value for value in vars(page).values() if isinstance(value, list)]


def test_html_report_to_stdout_and_usage_errors():
    result = run("validate", "--format", "html", "-", input='[GameType "20"]\n1. 32-28 *\n')
    assert result.exit_code == 0 and result.stdout.startswith("<!DOCTYPE html>")
    assert "1</span> games" in result.stdout and "Every game is valid." in result.stdout
    result = run("validate", "--show-board", "--format", "html", "-", input="*\n")
    assert result.exit_code == 2 and "--show-board goes with --format text" in result.output


def test_an_unwritable_report_is_a_usage_error(tmp_path):
    target = tmp_path / "missing" / "report.html"
    result = run("validate", "--format", "html", "-o", target, FAULTS)
    assert result.exit_code == 2 and result.stderr == f"pdn: cannot write {target}: No such file or directory\n"


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
