"""What the commands' options show in `pdn COMMAND --help` (choices, defaults, the draw rule sets'
lines), as plain data: a command's help imports none of the modules they come from (the reader, the
rules, the writers), which only a run needs (docs/start-up.md).  tests/cli/test_start.py checks that each
is its source's."""
from __future__ import annotations

MAX_GAME_BYTES = 64 << 20                       # text.reader.MAX_GAME_BYTES
SHOTS_DEPTH = 3                                 # rules.search.SHOTS_DEPTH
SHOTS_NODES = 1_000_000                         # rules.search.SHOTS_NODES
ENGINE_DEPTH = 8                                # running.engine.DEFAULT_DEPTH
HUB_MAX_DEPTH = 64                              # commands.hub_engine.MAX_DEPTH
MAX_JOBS = 1024                                 # running.pool.MAX_JOBS
MAX_PERFT_DEPTH = 63                            # rules.movegen.MAX_PERFT_DEPTH
CONVERT_FORMATS = ("pdn", "jsonl", "fen")       # commands.convert.WRITERS
LIST_FORMATS = ("tsv", "csv", "jsonl")          # commands.archive.ROWS
PICTURE_FORMATS = ("text", "svg", "png")        # play.pictures.PICTURES
DEFAULT_RULES = "seeds"                         # rules.variants.DEFAULT_RULES
RULE_SETS = {                                   # rules.variants.RULE_SETS: each one's description
    "seeds": "the seed texts' rules, else the reference's (the default)",
    "wcdf": "English tournament play (EDA/WCDF, reference §4.3): repetition and 40 moves each without a man "
            "move or capture are claims"}
WARNING_CODES = (                               # text.codes.Code: the warnings' codes, in order
    "encoding", "bad-byte", "unclosed", "glued-result", "blank-in-tags", "unterminated", "prose", "literal-escape",
    "loose-tag", "tag-name", "dangling-number", "placeholder", "forced-mark", "stray-strength", "zero-padded",
    "uppercase-square", "gametype", "inferred-variant", "capture-notation", "unknown-move", "variation-place",
    "result-mismatch", "draw-rule", "unfinished", "fixed-result", "result-off-board", "kept-result", "result-space")
