"""Numbers read from input text, never raising on absurd ones.

Python refuses to convert a string of more than 4,300 digits (`ValueError`), and the
conversion time grows with the square of the length; `int()` also rejects digits such as
'²' that `str.isdigit()` accepts.  Every number taken from input goes through here.
"""
from __future__ import annotations

LONGEST = 4300                   # digits: more than any number the movetext may hold (Python's own limit)


def number(text: str, digits: int = LONGEST) -> int | None:
    """The value of `text` when it is decimal digits only, at most `digits` of them; else None.

    >>> number("12"), number("07"), number("1" * 5000), number("²"), number("")
    (12, 7, None, None, None)
    """
    if not text.isdecimal() or len(text) > digits:
        return None
    return int(text)
