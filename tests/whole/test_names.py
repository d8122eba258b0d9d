"""Names that say one thing: a public class or function of the package is defined in one module,
so that an import or a search finds the one thing the name means (issue 27: `Move` meant a notated
move and a legal move).  The names defined twice on purpose are listed here with why."""
import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pdn_tools"

# Defined in more than one module on purpose (command functions are click commands named after their work):
SHARED = {
    "main": "the __main__ entry and the command group's",
    "annotate": "the command and the work", "convert": "the command and the work",
    "perft": "the command and the work", "validate": "the command and Dask's library entry point",
    "run": "the process pool's and Dask's backends, one job; rules/steps.py's: a run of moves (not renamed: in work elsewhere)",
    "Options": "each command's own frozen options, and the tasks' (issue 27's ReplayOptions would unite some)",
    "Reading": "the command line's reading options, and text/tokens.py's engine protocol (not renamed: in work elsewhere)",
    "Run": "a command's run, and html_page.py's stamp of the run that made a page (not renamed: in work elsewhere)",
    "cannot_write": "cli/run.py's exit (2) and running/output.py's error value, for the same failure",
    "read_games": "the reader's, and the library's (play/reading.py): the same, read for the environment's engine",
    "read_text": "the reader's, and the library's (play/reading.py): the same, read for the environment's engine",
    "game_name": "a game's name from its tags, and html_games.py's from a record (not renamed: in work elsewhere)",
}


def definitions() -> dict[str, list[str]]:
    """Each public top-level class and function name -> the modules defining it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and not node.name.startswith("_"):
                found[node.name].append(str(path.relative_to(PACKAGE)))
    return found


def test_a_public_name_is_defined_in_one_module():
    twice = {name: modules for name, modules in definitions().items() if len(modules) > 1}
    assert sorted(set(twice) - set(SHARED)) == [], twice
    assert sorted(set(SHARED) - set(twice)) == [], "a shared name listed here is no longer shared"
