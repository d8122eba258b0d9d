"""Every example of README.md and docs/ runs as written, and the docs hold together.

- Each `$ ...` line of a ```console block runs in bash, from a folder holding the clone's
  samples/ and tests/data/ (so files it writes land there, not in the clone), with the
  installed `pdn` first on PATH.  The lines under it, when there are any, are its output
  (stdout and stderr as a terminal shows them; a `...` stands for any text); its exit
  code is 0 unless the line ends with `# exit N`.  The blocks of one page run in order, in
  one folder, so a command may read what an earlier one wrote.  `$ pip install ...` lines are
  instructions, not run (the test runs in the environment the suite was installed in).
- Each ```pycon block is a doctest and each ```python block is run; the blocks of a page
  run in order, in one namespace, in that folder.
- Every relative link of README.md and docs/ names a file of the clone.
- docs/cli.md is what `python docs/make_cli_reference.py` writes.
"""
from __future__ import annotations

import doctest
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
_BLOCK = re.compile(r"^```(console|pycon|python)\n(.*?)^```", re.S | re.M)
_EXIT = re.compile(r"\s#\s*exit (\d+)\s*$")
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _cli_reference() -> ModuleType:
    """docs/make_cli_reference.py, the script that writes docs/cli.md."""
    spec = importlib.util.spec_from_file_location("make_cli_reference", DOCS / "make_cli_reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def blocks(page: Path, kind: str) -> list[tuple[int, str]]:
    """The (line, text) of each ```KIND block of a page."""
    text = page.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(2)) for m in _BLOCK.finditer(text) if m.group(1) == kind]


def commands(block: str) -> list[tuple[str, int, str]]:
    """A console block's (command, exit code, output shown) triples."""
    found: list[tuple[str, int, str]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            code = _EXIT.search(line)
            found.append((line[2:], int(code[1]) if code else 0, ""))
        elif found:
            command, code, shown = found[-1]
            found[-1] = (command, code, shown + line + "\n")
        else:
            raise AssertionError(f"output before any command: {line!r}")
    return found


@pytest.fixture
def clone_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding the clone's samples/ and tests/data/, made the current one."""
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    shutil.copytree(ROOT / "tests" / "data", tmp_path / "tests" / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _slow_if_dask(page: Path) -> object:
    """A page whose Python examples start a Dask cluster is tested with the slow tests."""
    examples = "".join(block for kind in ("console", "pycon", "python") for _, block in blocks(page, kind))
    marks = [pytest.mark.slow] if "--dask" in examples or "distributed import" in examples else []
    return pytest.param(page, id=_name(page), marks=marks)


def _pages_with(*kinds: str) -> list[object]:
    return [_slow_if_dask(p) for p in PAGES if any(blocks(p, kind) for kind in kinds)]


@pytest.mark.slow                    # a pdn process per example line: 3 to 30 s a page
@pytest.mark.parametrize("page", _pages_with("console"))
def test_console_examples_run_as_shown(page: Path, clone_files: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "80"}
    checker = doctest.OutputChecker()
    ran = 0
    for line, block in blocks(page, "console"):
        for command, code, shown in commands(block):
            if command.startswith("pip install "):
                continue
            done = subprocess.run(["bash", "-c", command], cwd=clone_files, env=env, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
            printed = done.stdout if done.stdout.endswith("\n") or not done.stdout else done.stdout + "\n"
            where = f"{_name(page)}:{line}: $ {command}"
            assert done.returncode == code, f"{where}\nexit {done.returncode}, not {code}:\n{done.stdout}"
            if shown:
                assert checker.check_output(shown, printed, doctest.ELLIPSIS), \
                    f"{where}\nshown:\n{shown}\nprinted:\n{printed}"
            ran += 1
    assert ran


@pytest.mark.parametrize("page", _pages_with("pycon", "python"))
def test_python_examples_run(page: Path, clone_files: Path) -> None:
    names: dict[str, object] = {"__name__": "__docs__"}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    text = page.read_text(encoding="utf-8")
    for match in _BLOCK.finditer(text):
        line = text.count("\n", 0, match.start()) + 2
        if match.group(1) == "python":
            exec(compile(match.group(2), f"{_name(page)}:{line}", "exec"), names)
        elif match.group(1) == "pycon":
            test = doctest.DocTestParser().get_doctest(match.group(2), names, f"{_name(page)}:{line}",
                                                       _name(page), line)
            runner.run(test, clear_globs=False)
            names.update(test.globs)
    results = runner.summarize(verbose=False)
    assert results.failed == 0


def test_console_blocks_are_read_as_commands_outputs_and_exit_codes() -> None:
    block = "$ pdn validate a.pdn   # exit 1\na.pdn:1:1: x\n...\n$ pdn list a.pdn\n"
    assert commands(block) == [("pdn validate a.pdn   # exit 1", 1, "a.pdn:1:1: x\n...\n"), ("pdn list a.pdn", 0, "")]


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them (`## Outputs, folders` -> outputs-folders)."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    headings = re.findall(r"^#+ (.*)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_relative_link_names_a_file_of_the_clone(page: Path) -> None:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    wrong = []
    for target in _LINK.findall(text):
        path, _, anchor = target.partition("#")
        linked = page.parent / path if path else page
        if re.match(r"[a-z]+:", path):
            continue
        if not linked.exists():
            wrong.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            wrong.append(target)
    assert not wrong, f"{_name(page)} links to files or headings that do not exist: {wrong}"


def test_anchors_are_made_as_github_makes_them() -> None:
    page = DOCS / "conventions.md"
    assert {"outputs-folders-and-pipelines", "the-command-line-what-every-command-shares"} <= anchors(page)


def test_the_docs_index_links_every_page() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = {(DOCS / target.split("#", 1)[0]).resolve() for target in _LINK.findall(index)}
    missing = [_name(page) for page in DOCS.rglob("*.md") if page.resolve() not in linked | {(DOCS / "index.md")}]
    assert not missing, f"not linked from docs/index.md: {missing}"


def test_every_command_has_its_page() -> None:
    reference = _cli_reference()
    names = reference.commands(reference.help_text())
    missing = [name for name in names if not (DOCS / "commands" / f"{name}.md").exists()]
    assert not missing, f"no docs/commands/NAME.md for {missing}"


@pytest.mark.slow
def test_the_cli_reference_is_fresh() -> None:
    reference = _cli_reference()
    assert reference.TARGET.read_text(encoding="utf-8") == reference.reference(), \
        f"docs/cli.md is stale: run `{reference.COMMAND}`"


def test_pdn_help_gives_each_command_in_a_whole_sentence_and_ends_with_examples() -> None:
    reference = _cli_reference()
    main = reference.help_text()
    section = main.split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
    summaries = [line.split(None, 1)[1] for line in section.splitlines()]
    assert len(summaries) == len(reference.commands(main)) >= 11
    assert all(s[0].isupper() and s.endswith(".") and not s.endswith("...") for s in summaries), summaries
    examples = main.rstrip("\n").rsplit("Examples:\n", 1)[1].splitlines()
    assert len(examples) >= 4 and all(line.strip().startswith("pdn ") for line in examples)
