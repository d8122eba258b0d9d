"""Zobrist keys of positions, the same on every run and engine (the search's table keys)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdn_tools.rules.variants import Variant

if TYPE_CHECKING:
    from pdn_tools.rules.tables import _Rules

ZOBRIST_SEED = 0x70646E2D746F6F6C       # "pdn-tool": the keys are the same on every run and engine
_MASK64 = (1 << 64) - 1


def zobrist_key(index: int) -> int:
    """The `index`-th output of SplitMix64 seeded with ZOBRIST_SEED (as `_search.c` computes it):
    index kind * 128 + square number - 1 for a piece of kind 0 (white man), 1 (white king),
    2 (black man) or 3 (black king); 512 for Black to move."""
    z = (ZOBRIST_SEED + (index + 1) * 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


ZOBRIST_SIDE = zobrist_key(512)
_ZOBRIST: dict[Variant, tuple[list[int], ...]] = {}


def zobrist_keys(rl: _Rules) -> tuple[list[int], ...]:
    """The keys of the four piece kinds by padded bit (0 where no square is)."""
    keys = _ZOBRIST.get(rl.variant)
    if keys is None:
        keys = _ZOBRIST[rl.variant] = tuple([zobrist_key(kind * 128 + n - 1) if n else 0 for n in rl.num_of]
                                            for kind in range(4))
    return keys
