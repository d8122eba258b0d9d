"""Data flows one way: text -> rules -> play -> commands -> running -> cli.  A module imports
only from its own layer and the layers below it (function-level imports included), so
there is no import cycle such as the one fen and movegen had."""
import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "pdn_tools"
LAYERS = ["text", "rules", "play", "commands", "running", "cli"]
# Within rules: variants hold their draw rules and laws; the FEN format (plain values) builds on
# variants; a variant's move tables (tables) on the pure generator (bitboards, which reads them
# in type hints only) and on Move; movegen (Position, Position.from_fen, Position.fen) on all.
RULES_ORDER = ["laws", "draws", "variants", "fen", "move", "bitboards", "tables", "zobrist", "movegen"]
# The one import up the order, inside a function: fen's parse_fen, kept for its callers, returns
# a Position (it is Position.from_fen; fen cannot import movegen at module level, which imports it).
UPWARD = {("fen", "movegen")}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _imports(path: Path) -> set[str]:
    """The pdn_tools names a module imports at run time (not those for type checkers only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            node.body = []
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pdn_tools"):
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names if alias.name.startswith("pdn_tools")}
    return names


MODULES = sorted(p for layer in LAYERS for p in (PACKAGE / layer).glob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_down_the_layers(path):
    layer = path.parent.name
    for name in _imports(path):
        used = _layer(name)
        if used in LAYERS:
            assert LAYERS.index(used) <= LAYERS.index(layer), f"{path.name} imports {name}"
        if layer == used == "rules":
            own, other = path.stem, name.split(".")[2] if len(name.split(".")) > 2 else ""
            if other in RULES_ORDER and own in RULES_ORDER and (own, other) not in UPWARD:
                assert RULES_ORDER.index(other) <= RULES_ORDER.index(own), f"{path.name} imports {name}"


def test_the_imports_up_the_order_are_inside_functions():
    for own, other in UPWARD:
        tree = ast.parse((PACKAGE / "rules" / f"{own}.py").read_text(encoding="utf-8"))
        top = [node for node in tree.body if isinstance(node, ast.ImportFrom) and node.module]
        assert not [node for node in top if node.module.endswith(f".{other}")], f"{own} imports {other}"


MAX_LINES = 500      # issue 27: a module longer than this does more than one job; no exception today


def test_no_module_of_python_or_c_is_over_500_lines():
    sources = [p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".c", ".h") and "__pycache__" not in p.parts]
    long = {str(p.relative_to(PACKAGE)): n for p in sources if (n := len(p.read_text(encoding="utf-8").splitlines()))
            > MAX_LINES}
    assert len(sources) > 90 and not long


def test_the_design_layout_table_names_every_module():
    design = (PACKAGE.parent / "docs" / "design.md").read_text(encoding="utf-8")
    table = design[design.index("## Layout"):design.index("## Adding a variant")]
    modules = sorted(p.relative_to(PACKAGE.parent) for pattern in ("*.py", "*.c") for p in PACKAGE.rglob(pattern)
                     if p.name != "__init__.py")
    missing = [str(m) for m in modules if f"`{m}`" not in table and f"`{m.name}`" not in table]
    assert not missing, f"not in the layout table of docs/design.md: {missing}"
    listed = set(re.findall(r"`(pdn_tools/[^`]+)`", table))
    assert all((PACKAGE.parent / name).exists() for name in listed), "the table names a file that is gone"


# The tests are laid out like the package: tests/LAYER/ holds the tests of pdn_tools/LAYER/, tests/whole/
# the suites that cut across the layers; tests/ itself holds only the helpers they share (and data/).
TESTS = PACKAGE.parent / "tests"
ACROSS = "whole"


def test_the_layers_are_the_package_folders():
    folders = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert sorted(folders) == sorted(LAYERS)


def test_every_test_file_sits_in_the_folder_of_a_layer_or_in_whole():
    files = sorted(TESTS.rglob("test_*.py"))
    misplaced = [str(p.relative_to(TESTS)) for p in files if p.parent.parent != TESTS
                 or p.parent.name not in {*LAYERS, ACROSS}]
    assert not misplaced, f"not in tests/LAYER/ or tests/{ACROSS}/: {misplaced}"
    names = [p.name for p in files]
    assert sorted(set(names)) == sorted(names), "two test files of one name (pytest imports each by its name)"


# `from pdn_tools.X import a, b` or `import pdn_tools.X`: in a test's code or in a program it runs (Python in a
# string), at any indent; in a module, at the top level (the first column) only.
_IMPORT = r"(?:from (pdn_tools[\w.]*) import (\([^)]*\)|[^;\n]*)|import (pdn_tools[\w.]*))"
TEST_IMPORT = re.compile(rf"(?:^[ \t]*|[;\"'] *){_IMPORT}", re.MULTILINE)
TOP_IMPORT = re.compile(rf"^{_IMPORT}", re.MULTILINE)


def _imported(source: str, pattern: re.Pattern[str]) -> set[str]:
    """The pdn_tools modules `source` imports, each with the packages above it; a name of the package's
    top stands for the module it comes from."""
    import pdn_tools
    homes = {name: f"pdn_tools.{home}" for name, home in pdn_tools._HOMES.items()}
    homes |= {name: f"pdn_tools.{home}" for name, (home, _) in pdn_tools._RENAMED.items()}
    names = set()
    for module, imported, plain in pattern.findall(source):
        names.add(module or plain)
        for name in re.sub(r"#[^\n]*", "", imported).strip("()").split(","):
            name = name.split(" as ")[0].strip()
            names.add(homes.get(name, f"{module}.{name}") if name else module)
    return {".".join(name.split(".")[:n]) for name in names for n in range(1, name.count(".") + 2)}


def _loaded_with(module: str) -> set[str]:
    """The pdn_tools modules importing `module` imports (its top-level imports, not its functions');
    the command line's commands are loaded when a test runs them (cli/main.py's COMMANDS)."""
    path = PACKAGE.parent / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = path.with_suffix("") / "__init__.py"
    names = _imported(path.read_text(encoding="utf-8"), TOP_IMPORT)
    if module == "pdn_tools.cli.main":
        from pdn_tools.cli.main import COMMANDS
        names |= {f"pdn_tools.cli.{home}" for home, _, _ in COMMANDS.values()}
    return names


def test_every_module_is_imported_by_a_test():
    """The suite covers every module: a test imports it, or a module a test imports loads it."""
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
               for p in PACKAGE.rglob("*.py")}
    tested = set().union(*(_imported(p.read_text(encoding="utf-8"), TEST_IMPORT) for p in TESTS.rglob("test_*.py")))
    tested &= modules
    todo = list(tested)
    while todo:
        found = _loaded_with(todo.pop()) & modules - tested
        tested |= found
        todo += found
    assert sorted(modules - tested) == []


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_folder_and_module_says_first_what_it_holds(path):
    """Issue 27: each folder's __init__.py, and each module, opens with a docstring."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert docstring and len(docstring.split()) >= 3


def test_the_package_holds_no_symbolic_link():
    """A checkout without symbolic links (Windows, git's core.symlinks=false, a zip of the repository)
    turns each into a one-line file holding its target: a link in the package (the grammar was one) left
    every command of such a checkout, and of an install made from it, unable to read a game."""
    assert [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*") if path.is_symlink()] == []
