"""Capture-precedence laws: which of the complete captures available may be played.

A law is a key function over capture records: the lawful captures are those with the
greatest key.  A record is the move generator's internal capture:
(start bit, landing bits, captured bits in order, promotes, moved piece is a king,
captured mask).  `kings` is the mask of every king on the board before the capture.
"""
from __future__ import annotations

from typing import Callable

# (start, path, captured, promotes, by a king, captured mask), in internal bits
CaptureRecord = tuple[int, tuple[int, ...], tuple[int, ...], bool, bool, int]
Key = tuple[int, ...]
Law = Callable[[CaptureRecord, int], Key]


def free(record: CaptureRecord, kings: int) -> Key:
    """Any complete capture (English, pool, Russian, Thai)."""
    return ()


def count(record: CaptureRecord, kings: int) -> Key:
    """The most pieces (international, Brazilian, Canadian, Turkish)."""
    return (len(record[2]),)


def count_kings(record: CaptureRecord, kings: int) -> Key:
    """The most pieces, then the most kings (Spanish and Portuguese "quality")."""
    return len(record[2]), (record[5] & kings).bit_count()


def italian(record: CaptureRecord, kings: int) -> Key:
    """The most pieces, then with a king, then the most kings, then the earliest king."""
    captured = record[2]
    order = sum(1 << (31 - i) for i, bit in enumerate(captured) if kings >> bit & 1)
    return len(captured), record[4], (record[5] & kings).bit_count(), order


def frisian(record: CaptureRecord, kings: int) -> Key:
    """The most value, a king worth a little less than two men (FRIS Art. 11; DCTL's
    encoding), then with a king."""
    taken_kings = (record[5] & kings).bit_count()
    return (len(record[2]) + taken_kings) * 64 - taken_kings, record[4]


def king(record: CaptureRecord, kings: int) -> Key:
    """A king must capture if it can (Czech)."""
    return (record[4],)


LAWS: tuple[Law, ...] = (free, count, count_kings, italian, frisian, king)


def lawful(law: Law, records: list[CaptureRecord], kings: int) -> list[CaptureRecord]:
    """The records `law` allows: those with the greatest key."""
    if law is free or len(records) < 2:
        return records
    keys = [law(record, kings) for record in records]
    best = max(keys)
    return [record for record, key in zip(records, keys) if key == best]
