"""The diagnostic codes and the result strings: each kept in one table, docs/codes.md and the
grammar checked against them."""
from pathlib import Path

import pytest

from pdn_tools import read_text
from pdn_tools.text.codes import Code, Severity
from pdn_tools.text.results import RESULTS, Outcome, outcome
from pdn_tools.text.writer import write_game

ROOT = Path(__file__).resolve().parents[2]


def _row(code: Code) -> str:
    strict = "error" if code.severity is Severity.ERROR or code.strict_fatal else "warning"
    return f"| `{code}` | {code.severity} | {strict} | {code.description} |"


def test_the_docs_list_every_code_as_the_table_says():
    readme = ROOT.joinpath("docs", "codes.md").read_text(encoding="utf-8")
    listed = [line for line in readme.splitlines() if line.startswith("| `") and line.count("|") == 5]
    assert listed == [_row(code) for code in Code]


@pytest.mark.parametrize("code", list(Code))
def test_every_code_is_complete(code):
    assert code.value and code.value == code.value.lower() and " " not in code.value
    assert isinstance(code.severity, Severity)
    assert isinstance(code.strict_fatal, bool)
    assert code.description and "\n" not in code.description
    assert code.severity is Severity.WARNING or code.strict_fatal    # an error stays one


def test_codes_are_the_strings_reports_write():
    assert Code("capture-law") is Code.CAPTURE_LAW
    assert f"[{Code.BAD_FEN}]" == "[bad-fen]"


def test_grammar_result_terminal_reads_exactly_the_result_table():
    grammar = ROOT.joinpath("pdn_tools", "text", "pdn.lark").read_text(encoding="utf-8")
    terminal = next(line for line in grammar.splitlines() if line.startswith("RESULT:"))
    alternatives = terminal.split("(?:", 1)[1].split(")", 1)[0]
    written = {text.replace("\\", "") for text in alternatives.split("|")}
    assert written == set(RESULTS) - {"*"}


@pytest.mark.parametrize("text", sorted(set(RESULTS) - {"*"}))
def test_a_result_tag_without_terminator_is_written_as_the_terminator(text):
    game = read_text(f'[Result "{text}"]\n1. 32-28 19-23\n', name="r.pdn")[0]
    assert game.result is None
    assert write_game(game).rstrip().endswith(f"19-23 {text}")


def test_outcomes_of_results():
    assert outcome("1/2:1/2") is Outcome.DRAW and outcome("0:1") is Outcome.SECOND
    assert outcome("0-0") is None and outcome("*") is None and outcome(None) is None
