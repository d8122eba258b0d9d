"""JSON lines stay one line a record for every line reader, whatever the games' text holds."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from pdn_tools.cli import cli
from pdn_tools.play.check import Problem, Record
from pdn_tools.text.codes import Code

# U+0085, U+2028 and U+2029 are valid raw in JSON, but str.splitlines (and many line readers)
# break on them: in a tag value they cut a record in two.
GAMES = "".join(f'[Event "a{char}b"]\n[GameType "20"]\n1. 32-28 19-23 *\n\n' for char in "\x85\u2028\u2029")


@pytest.mark.parametrize("arguments", [["validate", "--format", "jsonl"], ["convert", "--to", "jsonl"],
                                       ["list", "--format", "jsonl"]])
def test_each_record_is_one_line_for_any_line_reader(arguments: list[str]) -> None:
    result = CliRunner().invoke(cli, [*arguments, "-"], input=GAMES.encode())
    lines = result.output.splitlines()
    assert len(lines) == 3
    assert [json.loads(line)["game"] for line in lines] == [1, 2, 3]
    assert "\\u2028" in lines[1]


def test_records_travel_between_processes_unchanged():
    """Records and their problems are pickled as their fields (they come back from --jobs
    workers and Dask): what is loaded equals what was sent, enums and tuples included."""
    import pickle

    from pdn_tools.play.check import check
    from pdn_tools.text.reader import read_text

    games = read_text('[Event "x"]\n1. 11-15 23-19 *\n\n[GameType "20"]\n1. 99-98 *\n')
    records = [check(game).record for game in games]
    assert records[0].warnings                # no GameType: the variant was inferred
    assert records[1].errors
    assert pickle.loads(pickle.dumps(records, pickle.HIGHEST_PROTOCOL)) == records


TEXTS = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(["", "a\x85b", "\u2028", '"\\', "\x00\x1f"])
PROBLEMS = st.builds(Problem, st.sampled_from(list(Code)), TEXTS, st.integers(0, 10**6), st.integers(0, 10**4),
                     st.none() | st.integers(0, 999), st.none() | TEXTS)


@settings(max_examples=500)
@pytest.mark.slow
@given(st.builds(Record, TEXTS, st.integers(1, 10**6), TEXTS, st.integers(0, 10**6), TEXTS, st.booleans(),
                 st.integers(0, 10**4), TEXTS, st.lists(PROBLEMS, max_size=3).map(tuple),
                 st.lists(PROBLEMS, max_size=3).map(tuple)))
def test_a_record_is_written_as_json_encodes_its_fields(record: Record) -> None:
    """report.json_line writes a Record without making its dict (validate writes one a game):
    the same text as the JSON encoder gives for Record.as_dict, line separators escaped."""
    from pdn_tools.commands import report

    assert report.json_line(record) == report.json_text(record.as_dict())


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("arguments, summary", [(["validate", "--format", "jsonl", "--summary"], "summary"),
                                                (["stats", "--format", "json"], None)])
def test_the_counts_name_the_inputs_that_could_not_be_read(tmp_path, arguments, summary, jobs) -> None:
    """A cut archive and a missing file: the summary's `unreadable` names them (as given, exactly),
    so that the counts are not read as those of every input."""
    import gzip

    game = '[GameType "20"]\n1. 32-28 19-23 *\n\n'
    whole = gzip.compress(game.encode() * 200)
    cut = tmp_path / "cut\x1b.pdn.gz"
    cut.write_bytes(whole[:len(whole) // 2])
    (tmp_path / "whole.pdn").write_text(game)
    result = CliRunner().invoke(cli, [*arguments, "-j", jobs, str(cut), str(tmp_path / "missing.pdn"),
                                      str(tmp_path / "whole.pdn")])
    assert result.exit_code == 2
    counts = json.loads(result.stdout.splitlines()[-1])
    counts = counts[summary] if summary else counts
    assert sorted(counts["unreadable"]) == [str(cut), str(tmp_path / "missing.pdn")]
    result = CliRunner().invoke(cli, [*arguments, str(tmp_path / "whole.pdn")])
    counts = json.loads(result.stdout.splitlines()[-1])
    assert result.exit_code == 0 and (counts[summary] if summary else counts)["unreadable"] == []
