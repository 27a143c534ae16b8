"""`make lab ARGS="--no-browser"` prints a URL; opening it lands on the start page.

The lab is started exactly as ``make lab`` starts it (``python -m bleu_lesson.grading.workspace
--lab -- ARGS``), with Jupyter's folders in a temporary place. The URL it prints (token
included) and the server's root ``/`` must both lead to ``/lab/tree/START_欢迎.ipynb``, which
JupyterLab opens as the page's tree path, not to the launcher (``/lab``). The lab is the
``started`` fixture of conftest.py.
"""

from __future__ import annotations

import json
import re
import urllib.request
from urllib.parse import unquote, urlsplit

import pytest

from bleu_lesson.grading import workspace as ws

pytestmark = pytest.mark.e2e

_PAGE_CONFIG = re.compile(
    r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)


def _open(url: str) -> tuple[str, str]:
    """Follow the redirects from ``url``: the final URL's path and the page's HTML."""
    with urllib.request.urlopen(url, timeout=30) as resp:
        return urlsplit(resp.geturl()).path, resp.read().decode("utf-8")


def _tree_path(page: str) -> str | None:
    found = _PAGE_CONFIG.search(page)
    assert found, "no JupyterLab page config in the page"
    return json.loads(found.group(1)).get("treePath")


def test_the_printed_url_opens_the_start_page(started):
    _, printed = started
    assert unquote(urlsplit(printed).path) == f"/lab/tree/{ws.START_PAGE}", printed
    path, page = _open(printed)
    assert unquote(path) == f"/lab/tree/{ws.START_PAGE}"
    assert _tree_path(page) == ws.START_PAGE  # the lab opens this notebook, not the launcher


def test_the_servers_root_redirects_to_the_start_page(started):
    port, printed = started
    token = printed.rsplit("token=", 1)[1]
    path, page = _open(f"http://127.0.0.1:{port}/?token={token}")
    assert unquote(path) == f"/lab/tree/{ws.START_PAGE}"
    assert _tree_path(page) == ws.START_PAGE
