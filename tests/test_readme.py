"""The README's Python examples are doctests, run as written from the repository root."""
import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)


def test_readme_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = ROOT.joinpath("README.md").read_text(encoding="utf-8")
    blocks = [(text.count("\n", 0, match.start()) + 1, match.group(1)) for match in _BLOCK.finditer(text)]
    assert len(blocks) >= 5
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    names: dict[str, object] = {}           # the blocks run in order, in one namespace, as in a session
    examples = 0
    for line, block in blocks:
        test = doctest.DocTestParser().get_doctest(block, names, f"README.md:{line}", "README.md", line)
        runner.run(test, clear_globs=False)
        names.update(test.globs)
        examples += len(test.examples)
    results = runner.summarize(verbose=False)
    assert results.failed == 0 and examples >= 20
