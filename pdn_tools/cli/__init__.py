"""The `pdn` command line: `main` the group `cli` and the entry point, `options` the option groups
and the frozen objects they deliver, `run` one command's run; one module per command family.

Exit codes: 0 every game is valid, 1 some game is invalid, 2 usage error or an
input that cannot be read.  Reports go to stdout, progress and notes to stderr.
"""
from pdn_tools.cli.main import SUMMARIES, cli, examples, main

__all__ = ["SUMMARIES", "cli", "examples", "main"]
