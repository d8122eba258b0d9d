"""benchmarks/run.py's tables: the generator writes well-formed Markdown from given figures, and
docs/benchmarks.md holds, between the generator's markers, tables of that shape (written by it,
not by hand).  Nothing is timed here."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchmarks_run", ROOT / "benchmarks" / "run.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module          # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


run = _run()
FIGURES = [
    run.Figure("`convert --to pdn` ÷ `validate`, CPU", ("4.10x (7.00 / 1.71 s)", "3.90x (2.73 / 0.70 s)"),
               "≤ 1.5x", False),
    run.Figure("`list` ÷ `validate`, CPU", ("0.30x (0.51 / 1.71 s)", "—"), "≤ 1.5x", True),
    run.Figure("a name with a | in it", ("1", "2"), "", None),
]
_CELL = re.compile(r"(?<!\\)\|")


def cells(line: str) -> list[str]:
    """The cells of a Markdown table row (an escaped \\| stays inside its cell)."""
    assert line.startswith("| ") and line.endswith(" |"), line
    return [cell.strip() for cell in _CELL.split(line[1:-1])]


def tables(text: str) -> list[list[str]]:
    """The Markdown tables of a text, each its lines."""
    found: list[list[str]] = []
    previous = ""
    for line in text.splitlines():
        if line.startswith("|"):
            if not previous.startswith("|"):
                found.append([])
            found[-1].append(line)
        previous = line
    return found


def check_table(lines: list[str], header: tuple[str, ...]) -> list[list[str]]:
    """The rows of a well-formed table with this header: a separator row, every row as many cells
    as the header, the last cell met, missed or none.  Returns the rows' cells."""
    assert cells(lines[0]) == list(header)
    assert lines[1] == "|" + "---|" * len(header)
    rows = [cells(line) for line in lines[2:]]
    assert rows, "a table without rows"
    for row in rows:
        assert len(row) == len(header), row
        assert row[-1] in ("met", "**missed**", "—"), row
    return rows


def test_the_generator_writes_one_row_a_figure_in_the_header_columns():
    rows = check_table(run.table(run.ARCHIVE_HEADER, FIGURES).splitlines(), run.ARCHIVE_HEADER)
    assert [row[-1] for row in rows] == ["**missed**", "met", "—"]
    assert rows[0] == ["`convert --to pdn` ÷ `validate`, CPU", "4.10x (7.00 / 1.71 s)", "3.90x (2.73 / 0.70 s)",
                       "≤ 1.5x", "**missed**"]
    assert rows[2][0] == "a name with a \\| in it"


def test_a_figure_with_too_few_values_for_the_columns_is_refused():
    with pytest.raises(ValueError, match="1 values for 2 columns"):
        run.table(run.ARCHIVE_HEADER, [run.Figure("x", ("1",), "", None)])


def test_the_block_holds_its_heading_and_both_tables():
    others = [run.Figure("`pdn --version` ÷ `python -c \"import click\"`, CPU", ("3.90x (233 / 60 ms)",),
                         "≤ 1.3x", False)]
    text = run.block("measured on a loaded machine", FIGURES, others)
    assert text.startswith("measured on a loaded machine\n\n")
    found = tables(text)
    assert len(found) == 2
    check_table(found[0], run.ARCHIVE_HEADER)
    check_table(found[1], run.OTHER_HEADER)


def test_insert_replaces_what_stands_between_the_markers_and_nothing_else():
    page = f"# Title\n\nbefore\n\n{run.BEGIN}\nold table\n{run.END}\n\nafter\n"
    once = run.insert(page, "new table\n")
    assert once == f"# Title\n\nbefore\n\n{run.BEGIN}\nnew table\n{run.END}\n\nafter\n"
    assert run.insert(once, "new table\n") == once


@pytest.mark.parametrize("page", ["no markers\n", f"{run.END}\n{run.BEGIN}\n",
                                  f"{run.BEGIN}\n{run.BEGIN}\n{run.END}\n"])
def test_insert_refuses_a_page_without_one_pair_of_markers_in_order(page):
    with pytest.raises(ValueError, match="the page needs one"):
        run.insert(page, "table\n")


@pytest.mark.parametrize("target, value, met", [(run.Target(most=1.5), 1.5, True), (run.Target(most=1.5), 1.51, False),
                                                (run.Target(least=8), 7.9, False), (run.Target(least=8), 8.0, True)])
def test_a_target_is_met_within_its_bound(target, value, met):
    assert target.met(value) is met


def test_the_benchmarks_page_holds_the_generated_tables_between_the_markers():
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert page.count(run.BEGIN) == 1 and page.count(run.END) == 1
    generated = page[page.index(run.BEGIN) + len(run.BEGIN):page.index(run.END)]
    assert "`python benchmarks/run.py" in generated and "load average" in generated
    found = tables(generated)
    assert len(found) == 2
    names = [row[0] for row in check_table(found[0], run.ARCHIVE_HEADER)]
    assert [f"`{label}` ÷ `validate`, CPU" for label, _ in run.COMMANDS] + [run.LIBRARY_FIGURE] == \
        [n for n in names if "÷" in n]
    check_table(found[1], run.OTHER_HEADER)


def test_the_page_names_the_commit_measured_not_the_one_checked_out_when_it_is_written(tmp_path, monkeypatch):
    """A commit made while the benchmark runs (it takes half an hour) is not the code measured: the
    heading names the commit read when the tree's pdn_tools was copied to be measured."""
    checked_out = iter(["aaaaaaa 2026-12-05", "bbbbbbb 2026-12-05"])
    page = tmp_path / "page.md"
    page.write_text(f"{run.BEGIN}\n{run.END}\n", encoding="utf-8")
    monkeypatch.setattr(run, "commit", lambda path: next(checked_out))

    class Copied:
        def __init__(self, checkout: Path, folder: Path) -> None:
            run.commit(checkout)             # a commit lands while the run goes on

        def pdn(self, args: list[str]) -> None:
            pass
    monkeypatch.setattr(run, "Tree", Copied)
    monkeypatch.setattr(run, "CORPUS", tmp_path)
    (tmp_path / "english").mkdir()
    (tmp_path / "english" / "OCA_2.0.pdn").write_text("", encoding="utf-8")
    monkeypatch.setattr(run, "archive", lambda name, paths, fen, folder, limit: run.Archive(name, paths, 1, fen, True))
    monkeypatch.setattr(run, "measure_archives", lambda *args: [])
    monkeypatch.setattr(run, "measure_others", lambda *args: [])
    monkeypatch.setattr(sys, "argv", ["run.py", "--markdown", str(page)])
    run.main()
    written = page.read_text(encoding="utf-8")
    assert "pdn_tools at aaaaaaa 2026-12-05;" in written and "bbbbbbb" not in written
