"""Write docs/cli.md again from `pdn --help` and every `pdn COMMAND --help`:
`python docs/make_cli_reference.py` (tests/whole/test_docs.py fails when docs/cli.md is stale).

The help is taken from the installed command line as a user sees it, 80 columns wide; the
commands are those `pdn --help` lists, so a new command gets its section without an edit here.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = HERE / "cli.md"
COMMAND = "python docs/make_cli_reference.py"
_RUN_AS_PDN = "import sys; sys.argv[0] = 'pdn'; from pdn_tools.__main__ import main; main()"


def help_text(*command: str) -> str:
    """`pdn [COMMAND] --help` as printed on an 80-column terminal."""
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-c", _RUN_AS_PDN, *command, "--help"],
                          capture_output=True, text=True, env=env, check=True)
    return done.stdout


def commands(main_help: str) -> list[str]:
    """The command names of the `Commands:` section of `pdn --help`."""
    section = main_help.split("\nCommands:\n", 1)[1]
    names = []
    for line in section.splitlines():
        if not line.startswith("  ") or line.startswith("   "):
            break
        names.append(line.split()[0])
    return names


def reference() -> str:
    """The text of docs/cli.md."""
    main_help = help_text()
    parts = ["# Command-line reference", "",
             f"Generated from `pdn --help` and each `pdn COMMAND --help` by `{COMMAND}`; do not edit.",
             "The manual of each command is in [commands/](index.md#commands).", "",
             "## pdn", "", "```text", main_help.rstrip("\n"), "```", ""]
    for name in commands(main_help):
        parts += [f"## pdn {name}", "", "```text", help_text(name).rstrip("\n"), "```", ""]
    return "\n".join(parts)


if __name__ == "__main__":
    TARGET.write_text(reference(), encoding="utf-8")
    print(f"wrote {TARGET}")
