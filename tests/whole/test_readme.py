"""The README: task first, short, its two set-up commands at the top, and the test command CI runs.

Its examples (and those of docs/) are run by tests/whole/test_docs.py."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SET_UP = ("python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/pdn validate samples/",
          "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test,dask]' && .venv/bin/python -m pytest -q")


def test_the_readme_starts_with_the_two_set_up_commands():
    text = README.read_text(encoding="utf-8")
    first = re.search(r"^```sh\n(.*?)^```", text, re.S | re.M)
    assert first and first.group(1).splitlines() == list(SET_UP)
    assert text.index(first.group(0)) < text.index("\n## ")       # before any section


def test_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert SET_UP[1] in ci.splitlines()


def test_the_readme_is_short_and_says_what_it_needs():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert "Python 3.11 or later" in text and "pip install '.[png]'" in text
    assert "pdn-tools[" not in text                                # never as if it were on an index
    assert "](docs/index.md)" in text


def test_every_recipe_of_the_readme_runs_on_the_clones_files():
    text = README.read_text(encoding="utf-8")
    commands = [line for block in re.findall(r"^```console\n(.*?)^```", text, re.S | re.M)
                for line in block.splitlines() if line.startswith("$ ")]
    assert len(commands) >= 15
    named = [word for line in commands for word in line.split() if re.match(r"(samples|tests/data)/", word)]
    assert all((ROOT / word.rstrip("/")).exists() for word in named) and len(named) >= 15
