"""Headless Chromium for tests that look at the HTML pages as a reader would.

Debian's `chromium` (installed by `.ci/run` when missing), driven through Playwright's
Python package with `executable_path`, so that no browser is ever downloaded.  Without
a Chromium the browser tests skip, saying why, except in CI (`CI` set), where they fail.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from typing import Iterator

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def need_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    message = f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@contextlib.contextmanager
def browser_page(width: int = 1100, height: int = 900) -> Iterator:
    """A Playwright page of a fresh Chromium profile; every request other than file:// is
    refused and recorded in `page.refused`."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="pdn-chromium-") as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=FLAGS, headless=True,
            viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.refused = []

            def guard(route) -> None:
                if route.request.url.startswith("file://"):
                    route.continue_()
                else:
                    page.refused.append(route.request.url)
                    route.abort()

            page.route("**/*", guard)
            yield page
        finally:
            context.close()
