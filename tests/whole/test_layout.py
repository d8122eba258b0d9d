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


def test_the_design_layout_table_names_every_module():
    design = (PACKAGE.parent / "docs" / "design.md").read_text(encoding="utf-8")
    table = design[design.index("## Layout"):design.index("## Adding a variant")]
    modules = sorted(p.relative_to(PACKAGE.parent) for pattern in ("*.py", "*.c") for p in PACKAGE.rglob(pattern)
                     if p.name != "__init__.py")
    missing = [str(m) for m in modules if f"`{m}`" not in table and f"`{m.name}`" not in table]
    assert not missing, f"not in the layout table of docs/design.md: {missing}"
    listed = set(re.findall(r"`(pdn_tools/[^`]+)`", table))
    assert all((PACKAGE.parent / name).exists() for name in listed), "the table names a file that is gone"
