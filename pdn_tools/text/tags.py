"""Tags without the movetext: the fast paths that need no parse and no replay.

`pdn list` and `pdn filter --tag/--player/--result` read a game's tag pairs and
terminator from the tokens the reader split it into; reports name a game by its
players, event and round.
"""
from __future__ import annotations

from collections.abc import Sequence

from pdn_tools.text.builder import TAG_PAIR, unescape
from pdn_tools.text.reader import RawGame

_UNKNOWN = ("", "?", "-")


def tag_pairs(text: str) -> list[tuple[str, str]]:
    """The (name, value) pairs of the tag sections in `text`, in order."""
    pairs = []
    for match in TAG_PAIR.finditer(text):
        quoted = match.group("quoted")
        if quoted is None:
            pairs.append((match.group("word"), match.group("loose").strip().strip('"')))
        else:
            pairs.append((match.group("name"), unescape(quoted)))
    return pairs


def raw_tags(raw: RawGame) -> dict[str, str]:
    """The first value of each tag of a split game (as `Game.tag` gives it), without parsing."""
    tags: dict[str, str] = {}
    for token in raw.tokens:
        if token.type == "TAGS":
            for name, value in tag_pairs(str(token)):
                tags.setdefault(name, value)
    return tags


def raw_terminator(raw: RawGame) -> str:
    """The result or '*' that ends a split game ('' when it has none)."""
    for token in reversed(raw.tokens):
        if token.type in ("RESULT", "STAR"):
            return str(token)
    return ""


def game_name(tags: Sequence[tuple[str, str]]) -> str:
    """What a person recognises a game by, from its tag pairs (the first of a name counts):
    `White – Black, Event round R` (parts that are unknown left out; '' when none is known)."""
    found: dict[str, str] = {}
    for name, value in tags:            # one pass, no dict of every tag: reports name each game
        if name in _NAMING and name not in found:
            value = value.strip()
            found[name] = "" if value in _UNKNOWN else value
    get = found.get
    white, black, event, round_ = get("White", ""), get("Black", ""), get("Event", ""), get("Round", "")
    players = f"{white or '?'} – {black or '?'}" if white or black else ""
    occasion = f"{event} round {round_}" if event and round_ else event or (f"round {round_}" if round_ else "")
    return f"{players}, {occasion}" if players and occasion else players or occasion


_NAMING = frozenset(("White", "Black", "Event", "Round"))
