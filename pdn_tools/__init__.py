"""pdn-tools: read, validate and convert draughts games in PDN.

The names below load their modules on first use, so that starting the command line
(and a Ctrl-C while it starts) does not wait for the parser to load.
"""
from importlib import import_module

_HOMES = {"Comment": "text.model", "Game": "text.model", "Move": "text.model", "MoveNumber": "text.model", "Nag": "text.model",
          "Placeholder": "text.model", "ReadError": "text.model", "Setup": "text.model", "Variation": "text.model",
          "read_games": "text.reader", "read_text": "text.reader"}
__all__ = list(_HOMES)


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pdn_tools' has no attribute {name!r}")
    value = globals()[name] = getattr(import_module(f".{home}", __name__), name)
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
