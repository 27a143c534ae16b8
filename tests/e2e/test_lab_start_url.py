"""`make lab ARGS="--no-browser"` prints a URL; opening it lands on the start page.

The lab is started exactly as ``make lab`` starts it (``python -m bleu_lesson.grading.workspace
--lab -- ARGS``), with Jupyter's folders in a temporary place. The URL it prints (token
included) and the server's root ``/`` must both lead to ``/lab/tree/START_欢迎.ipynb``, which
JupyterLab opens as the page's tree path, not to the launcher (``/lab``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from bleu_lesson.grading import workspace as ws

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
_PRINTED = re.compile(r"http://127\.0\.0\.1:\d+/\S*token=\w+")
_PAGE_CONFIG = re.compile(
    r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """`python -m bleu_lesson.grading.workspace --lab -- --no-browser ...` running; its port and
    the URL it printed."""
    base = tmp_path_factory.mktemp("lab-start")
    course = base / "notebooks"
    shutil.copytree(ROOT / "notebooks", course,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    env = {**os.environ,
           "JUPYTER_CONFIG_DIR": str(base / "config"), "JUPYTER_DATA_DIR": str(base / "data"),
           "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(base / "lab-settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
           "IPYTHONDIR": str(base / "ipython"), "PYTHONUNBUFFERED": "1"}
    env.pop("JUPYTER_TOKEN", None)
    port = _free_port()
    log = base / "lab.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bleu_lesson.grading.workspace", "--course", str(course),
             "--workspace", str(base / "workspace"), "--lab", "--", "--no-browser",
             f"--ServerApp.port={port}", "--ServerApp.ip=127.0.0.1",
             "--ServerApp.port_retries=0"],
            env=env, cwd=base, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        printed = None
        while time.monotonic() < deadline and proc.poll() is None and printed is None:
            found = _PRINTED.search(log.read_text(encoding="utf-8", errors="replace"))
            printed = found.group(0) if found else None
            time.sleep(0.3)
        if printed is None:
            pytest.fail("the lab printed no URL within 90 s:\n"
                        + log.read_text(encoding="utf-8", errors="replace")[-3000:])
        yield port, printed
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # the session this fixture started, by its id
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


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
