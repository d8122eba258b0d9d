"""Where the external corpus of real PDN files is, and what its MANIFEST says.

The corpus is not part of the repository.  `PDN_CORPUS` names its folder; without it,
`../shared/corpus` beside the checkout is used when it exists.  Tests that read it are
marked `needs_corpus` and skip, saying why, when there is none; a `PDN_CORPUS` that
names no folder is an error (CI sets it so that these tests cannot skip silently).
"""
from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

EXPLICIT = os.environ.get("PDN_CORPUS", "")
CORPUS = Path(EXPLICIT) if EXPLICIT else Path(__file__).resolve().parents[2] / "shared" / "corpus"
AVAILABLE = CORPUS.is_dir()
needs_corpus = pytest.mark.skipif(
    not AVAILABLE, reason=f"needs the external corpus of real PDN files: set PDN_CORPUS (no folder at {CORPUS})")
DATA = Path(__file__).resolve().parent / "data"          # the project's own small fixtures


@dataclass(frozen=True)
class Entry:
    variant: str
    path: Path
    games: int
    exact: bool          # every count the collector made agrees


def manifest() -> list[Entry]:
    """The MANIFEST rows, with their paths below the corpus folder (none without a corpus)."""
    if not AVAILABLE:
        return []
    entries = []
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            games = int(row["games"].split()[0])
            counts = [int(n) for n in re.findall(r"=(\d+)", row["games"])]
            exact = len(counts) >= 3 and all(n == games for n in counts)
            entries.append(Entry(row["variant"], CORPUS / row["variant"] / row["file"].rstrip("/"), games, exact))
    return entries


def corpus_files() -> list[Path]:
    """Every file of the corpus (folders expanded), MANIFEST excluded; none without a corpus."""
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "MANIFEST.tsv") if AVAILABLE else []


def standard_tests(kind: str) -> list[Path]:
    """The PDN standard's own 'succeed' or 'fail' files (wiegerw/pdn), UTF-8 copies."""
    return sorted(p for p in CORPUS.rglob(f"wiegerw-{kind}-*") if p.is_file()) if AVAILABLE else []
