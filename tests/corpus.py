"""Where the shared corpus of real PDN files is, and what its MANIFEST says."""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"


@dataclass(frozen=True)
class Entry:
    variant: str
    path: Path
    games: int
    exact: bool          # every count the collector made agrees


def manifest() -> list[Entry]:
    """The MANIFEST rows, with their paths below the corpus folder."""
    assert CORPUS.is_dir(), f"the shared corpus is missing at {CORPUS}"
    entries = []
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            games = int(row["games"].split()[0])
            counts = [int(n) for n in re.findall(r"=(\d+)", row["games"])]
            exact = len(counts) >= 3 and all(n == games for n in counts)
            entries.append(Entry(row["variant"], CORPUS / row["variant"] / row["file"].rstrip("/"), games, exact))
    return entries


def corpus_files() -> list[Path]:
    """Every file of the corpus (folders expanded), MANIFEST excluded."""
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "MANIFEST.tsv")


def standard_tests(kind: str) -> list[Path]:
    """The PDN standard's own 'succeed' or 'fail' files (wiegerw/pdn), UTF-8 copies."""
    return sorted(p for p in CORPUS.rglob(f"wiegerw-{kind}-*") if p.is_file())
