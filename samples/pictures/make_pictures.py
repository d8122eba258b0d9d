"""Draw the pictures of docs/ again: `python samples/pictures/make_pictures.py [CORPUS]`.

Diagrams come from `pdn diagram`; the `--show-board` picture is the command's output set
as SVG text; the HTML pages are screenshots taken in headless Chromium (as the tests take
them, tests/browser.py) and kept inside an SVG.  CORPUS (default ../shared/corpus) gives
the stats page a real archive; without it the page summarises tests/data.
"""
from __future__ import annotations

import base64
import subprocess
import sys
import tempfile
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser import browser_page  # noqa: E402


def pdn(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pdn_tools", *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"pdn {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def terminal_svg(text: str, target: Path) -> None:
    """Command output as a picture of a terminal: monospace lines on a dark ground."""
    lines = text.rstrip("\n").splitlines()
    width = 8 * max(len(line) for line in lines) + 24
    height = 17 * len(lines) + 20
    rows = "".join(f'<text x="12" y="{22 + 17 * n}" xml:space="preserve">{escape(line)}</text>'
                   for n, line in enumerate(lines))
    target.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                      f'font-family="DejaVu Sans Mono, monospace" font-size="13.3" fill="#e8e8e8">'
                      f'<rect width="100%" height="100%" rx="6" fill="#1e1e1e"/>{rows}</svg>\n', encoding="utf-8")


def screenshot_svg(page_file: Path, target: Path, width: int, height: int) -> None:
    """A screenshot of a page as Chromium draws it, kept in an SVG."""
    with browser_page(width, height) as page:
        page.goto(page_file.as_uri())
        png = page.screenshot()
    data = base64.b64encode(png).decode("ascii")
    target.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
                      f'<image width="{width}" height="{height}" href="data:image/png;base64,{data}"/></svg>\n',
                      encoding="utf-8")


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "corpus"
    pdn("diagram", str(HERE / "capture.pdn"), "--ply", "3", "-o", str(HERE / "capture.svg"))
    pdn("diagram", str(HERE / "canadian-kings.pdn"), "-o", str(HERE / "canadian-kings.svg"))
    terminal_svg("$ pdn validate --show-board tests/data/show-board.pdn\n"
                 + pdn("validate", "--show-board", "tests/data/show-board.pdn"),
                 HERE / "show-board.svg")
    with tempfile.TemporaryDirectory() as folder:
        audit = Path(folder) / "audit.html"
        pdn("validate", "--format", "html", "-o", str(audit), "tests/data/faults.pdn", "tests/data/variants")
        screenshot_svg(audit, HERE / "audit-report.svg", 1000, 1800)
        stats = Path(folder) / "stats.html"
        archive = [str(corpus / "english" / "OCA_2.0.pdn"), str(corpus / "international")] \
            if corpus.is_dir() else ["tests/data"]
        pdn("stats", "--format", "html", "-o", str(stats), *archive)
        screenshot_svg(stats, HERE / "stats-report.svg", 1000, 1000)


if __name__ == "__main__":
    main()
