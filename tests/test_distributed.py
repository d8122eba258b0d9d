"""Validating on a Dask cluster gives the records of `pdn validate --format jsonl`."""
import json

import pytest
from click.testing import CliRunner

from corpus import CORPUS, needs_corpus
from pdn_tools.cli import cli

distributed = pytest.importorskip(
    "distributed", reason="dask.distributed is not installed (pip install 'pdn-tools[dask]')")

from pdn_tools.running.distributed import validate  # noqa: E402

PATHS = [str(CORPUS / "international" / "horizon-bd-oud-wk2003.pdn"),
         str(CORPUS / "english" / "wiegerw-succeed-goulds.pdn"),
         str(CORPUS / "international" / "games-checkers-Cannes_Open_Tournament_2002.pdn")]


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


@needs_corpus
def test_shards_give_the_records_of_validate_in_order(client):
    expected = [json.loads(line) for line in
                CliRunner().invoke(cli, ["validate", "--format", "jsonl", *PATHS]).output.splitlines()]
    records = list(validate(client, PATHS, shard_games=37, in_flight=3))
    assert len(records) == 190 + 262 + 50
    assert [record.as_dict() for record in records] == expected


@needs_corpus
def test_strict_and_folders(client):
    folder = str(CORPUS / "czech")
    expected = [json.loads(line) for line in
                CliRunner().invoke(cli, ["validate", "--strict", "--format", "jsonl", folder]).output.splitlines()]
    assert [r.as_dict() for r in validate(client, [folder], strict=True, shard_games=50)] == expected
