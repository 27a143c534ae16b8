"""The web edition (`make book`, tools/build_book.py): built offline, opened in Chromium.

The book is built once into a temporary folder with every proxy pointed at a closed port
(a download during the build would fail it), then served on 127.0.0.1 and every chapter
page is opened in Debian's Chromium: the page renders its Chinese title, its math and its
figures, no request fails and none leaves 127.0.0.1 (each is recorded and refused). The
learner's rules are checked on the built pages: no solution line of an authoring notebook
is in any page, and a prediction's expected output stays folded until it is opened.
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import socket
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "build_book.py"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

pytestmark = pytest.mark.e2e


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """The built site (its html/ folder), built offline."""
    out = tmp_path_factory.mktemp("book")
    closed = f"http://127.0.0.1:{_closed_port()}"
    env = {**os.environ, "http_proxy": closed, "https_proxy": closed, "HTTP_PROXY": closed,
           "HTTPS_PROXY": closed, "no_proxy": "", "NO_PROXY": "", "PIP_NO_INDEX": "1"}
    proc = subprocess.run([sys.executable, str(TOOL), "--out", str(out)], env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    site = out / "_build" / "html"
    assert (site / "index.html").is_file()
    return site


@pytest.fixture(scope="module")
def site(book):
    """The built site served on a free port of 127.0.0.1."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):  # no line per request in the test output
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet,
                                                                     directory=str(book)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _notebook(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _title(nb: dict) -> str:
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    raise AssertionError("no title")


def _solution_lines(nb: dict) -> set[str]:
    """The lines between ### BEGIN SOLUTION and ### END SOLUTION (nbgrader's markers),
    read here from the authoring notebook: long enough to be an answer, not a stub."""
    found = set()
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        for block in re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", source, re.S):
            for line in block.splitlines():
                line = line.strip()
                if len(line) >= 16 and not line.startswith("#"):
                    found.add(line)
    return found


def _page_text(path: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))


def test_every_chapter_is_a_page_and_the_course_map_links_them(book):
    intro = (book / "intro.html").read_text(encoding="utf-8")
    for path in CHAPTERS:
        assert (book / f"{path.stem}.html").is_file(), path.name
        assert f'href="{path.stem}.html"' in intro, path.name
        assert _title(_notebook(path)) in html.unescape(intro)
    text = _page_text(book / "intro.html")
    assert "Binder" in text and "make lab" in text


def _public_text() -> str:
    """Every chapter's cells with the solution blocks cut out: what may be shown."""
    parts = []
    for path in CHAPTERS:
        for cell in _notebook(path)["cells"]:
            parts.append(re.sub(r"### BEGIN SOLUTION\n.*?### END SOLUTION", "",
                                "".join(cell["source"]), flags=re.S))
    return "\n".join(parts)


def test_no_page_holds_a_solution(book):
    pages = {p.name: _page_text(p) for p in book.glob("*.html")}
    public = _public_text()
    checked = 0
    for path in CHAPTERS:
        nb = _notebook(path)
        for line in _solution_lines(nb):
            if line in public:
                continue  # shown elsewhere on purpose (prose, code a chapter shows)
            checked += 1
            leaks = [name for name, text in pages.items() if line in text]
            assert not leaks, f"{path.name}: solution line {line!r} is in {leaks}"
    assert checked >= 20  # the chapters hold that many answer lines: the check has teeth


def _open(browser, url: str):
    """A fresh page that refuses, and records, every request that leaves 127.0.0.1."""
    context = browser.new_context()
    page = context.new_page()
    outside: list[str] = []
    failed: list[str] = []

    def route(r):
        host = urlsplit(r.request.url).hostname
        if r.request.url.startswith(("data:", "blob:", "about:")) or host == "127.0.0.1":
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("requestfailed", lambda req: None if req.url.startswith("about:")
            else failed.append(f"{req.url} ({req.failure})"))
    page.on("response", lambda resp: failed.append(f"{resp.url} ({resp.status})")
            if resp.status >= 400 else None)
    page.goto(url, wait_until="load")
    return context, page, outside, failed


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_chapter_page_renders_offline(browser, site, chapter):
    nb = _notebook(chapter)
    context, page, outside, failed = _open(browser, f"{site}/{chapter.stem}.html")
    try:
        assert page.locator("html").get_attribute("lang") == "zh-CN"
        assert page.locator("article h1").first.inner_text().strip().rstrip("#").strip() \
            == _title(nb)
        markdown = "".join("".join(c["source"]) for c in nb["cells"]
                           if c["cell_type"] == "markdown")
        if "$" in markdown:  # the chapter's formulas, typeset by the local MathJax
            page.wait_for_function("() => window.MathJax && MathJax.Hub && "
                                   "MathJax.Hub.queue.pending === 0 && "
                                   "document.querySelectorAll('.MathJax').length > 0",
                                   timeout=60_000, polling=250)
            assert page.locator(".MathJax_Error, merror").count() == 0
        broken = page.evaluate("() => [...document.images].filter("
                               "i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
        assert broken == []
        pngs = sum("image/png" in o.get("data", {}) for c in nb["cells"]
                   for o in c.get("outputs", []))
        if pngs:  # a stored figure of a cell the learner's copy keeps is drawn
            assert page.locator("img").count() >= 1
        views = sum(WIDGET_VIEW in o.get("data", {}) for c in nb["cells"]
                    for o in c.get("outputs", []))
        if views:  # each explorer from its saved state, with the note on running it live
            assert page.locator(".bl-explorer").count() >= 1
            assert "make lab" in page.locator(".bl-live").first.inner_text()
        # predictions: folded until the reader opens them
        dropdowns = page.locator("details.sd-dropdown")
        for k in range(dropdowns.count()):
            item = dropdowns.nth(k)
            assert item.evaluate("d => d.open") is False
            assert not item.locator("pre").first.is_visible()
        folds = page.locator("article details:not(.sd-dropdown)")  # the chapters' own folds
        for k in range(folds.count()):
            assert folds.nth(k).evaluate("d => d.open") is False
        if dropdowns.count():
            first = dropdowns.first
            first.locator("summary").click()
            assert first.locator("pre").first.is_visible()
        assert outside == [], f"requests that left 127.0.0.1: {outside}"
        assert failed == [], f"missing assets: {failed}"
    finally:
        context.close()


def test_the_course_map_page_renders_offline(browser, site):
    context, page, outside, failed = _open(browser, f"{site}/index.html")
    try:
        page.wait_for_url("**/intro.html")
        assert page.locator("table a").count() == len(CHAPTERS)
        assert outside == [] and failed == []
    finally:
        context.close()
