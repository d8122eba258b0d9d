"""Validating huge archives on several machines with Dask (`pip install 'pdn-tools[dask]'`).

    from distributed import Client
    from pdn_tools.running.distributed import validate

    with Client("tcp://scheduler:8786") as client:       # or Client() for a local cluster
        for record in validate(client, ["archive/"]):
            print(report.json_line(record))

The machine that calls `validate` reads the files and cuts them into shards of whole
games (the reader's own splitter finds the game boundaries, so no game is cut and
the workers need no access to the files); each shard is parsed and checked on a
worker.  Records come back in input order and are the records of
`pdn validate --format jsonl`: the same file names, game numbers, lines and
diagnostics.  At most `in_flight` shards are out at once, so memory stays bounded
on the calling machine however large the archive.
"""
from __future__ import annotations

import functools
from collections import deque
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from pdn_tools.running import batch
from pdn_tools.play.check import Record, record_of
from pdn_tools.rules.variants import Variant

if TYPE_CHECKING:
    from distributed import Client

SHARD_GAMES = 1000                   # games per shard: large enough to hide the scheduling cost


def validate(client: Client, paths: Iterable[str], variant: Variant | None = None, strict: bool = False,
             shard_games: int = SHARD_GAMES, in_flight: int | None = None) -> Iterator[Record]:
    """The validation record of every game of `paths` (files or folders of *.pdn), in order,
    computed on the workers of the Dask `client`."""
    inputs = batch.Inputs(tuple(paths))
    work = functools.partial(record_of, variant=variant, strict=strict)
    limit = in_flight or 2 * max(1, len(client.nthreads()))  # type: ignore[no-untyped-call]
    pending: deque[Any] = deque()
    try:
        for shard in batch.batches(inputs.raw_games(), shard_games):
            pending.append(client.submit(batch.run_batch, work, strict, shard, pure=False))
            if len(pending) > limit:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        client.cancel(list(pending))  # type: ignore[no-untyped-call]

