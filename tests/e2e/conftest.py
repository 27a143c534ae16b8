"""End-to-end fixtures: one JupyterLab server (``lab``), the lab as ``make lab`` starts it
(``started``) and one headless Chromium, each started once per session (per worker under
``make test``, where tests/conftest.py groups the browser tests) and only when a test needs it.

The server serves a temporary copy of ``notebooks/`` in which every chapter is its learner
copy (``make_student_copy``: what ``make lab`` puts into the workspace, stubs in place of
the solutions), with Jupyter settings of its own
(config, data, runtime, lab settings and workspaces in temporary folders), so neither the
user's Jupyter set-up nor the tests' runs leak into the other. Kernels are looked up on
the usual path (the venv's ``share/jupyter`` holds the ``python3`` kernel of the course),
and the session checks that ``python3`` runs the Python of the tests.

Chromium is Debian's (``/usr/bin/chromium``), driven by Playwright; Playwright's own browser
downloads are never used. Without Chromium or the ``playwright`` package every test in this
folder is skipped, with the reason in pytest's summary.

When a test fails, a screenshot and the page's text are written to the artifacts folder
(``BLEU_LESSON_E2E_ARTIFACTS``, or ``e2e-artifacts`` in pytest's temporary folder) and the
paths are added to the failure report.
"""

from __future__ import annotations

import contextlib
import importlib.util
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

import pytest

from bleu_lesson.cli.nbschema import python_m

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = ROOT / "notebooks"
E2E_DIR = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # we may run as root, in a container
    "--disable-gpu",
    "--disable-dev-shm-usage",  # /dev/shm is small in containers
    "--disable-background-networking",  # the network is closed: no calls to Google
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVER_START_TIMEOUT = 90  # s: the first start of JupyterLab on 2 cores is slow
TOKEN = "bleu-lesson-e2e-" + os.urandom(8).hex()


def e2e_unavailable() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists():
        return (f"{CHROMIUM} not found: the browser tests use Debian's Chromium "
                "(apt-get install -y chromium)")
    if importlib.util.find_spec("playwright") is None:
        return ("the playwright package is not installed (pip install -e '.[test]'); "
                "it drives /usr/bin/chromium, no browser download is needed")
    return None


def pytest_collection_modifyitems(config, items):
    mine = [item for item in items if E2E_DIR in Path(str(item.fspath)).resolve().parents]
    if not mine:
        return
    reason = e2e_unavailable()
    if reason is None:
        return
    for item in mine:
        item.add_marker(pytest.mark.skip(reason=reason), append=False)  # before any other skip


# --- the JupyterLab server -----------------------------------------------------------

def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """A running JupyterLab: its base URL, token, notebook folder and REST helpers."""

    def __init__(self, url: str, token: str, root_dir: Path, log: Path) -> None:
        self.url, self.token, self.root_dir, self.log = url, token, root_dir, log

    def api(self, path: str, method: str = "GET") -> object:
        req = urllib.request.Request(f"{self.url}{path}", method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def notebook_url(self, name: str) -> str:
        """The notebook alone in a new workspace: no tabs (and kernels) of earlier tests."""
        workspace = "e2e-" + re.sub(r"[^\w-]+", "-", Path(name).stem)
        return f"{self.url}/lab/workspaces/{workspace}/tree/{name}?reset&token={self.token}"

    def shutdown_sessions(self) -> None:
        """Stop every kernel this test started (each chapter gets a fresh one)."""
        with contextlib.suppress(OSError, ValueError):
            for session in self.api("/api/sessions"):
                with contextlib.suppress(OSError):
                    self.api(f"/api/sessions/{session['id']}", method="DELETE")

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "<no server log>"


def _wait_until_up(proc: subprocess.Popen, lab: Lab) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with code {proc.returncode}:\n"
                               f"{lab.log_tail()}")
        try:
            lab.api("/api/status")
            return
        except (OSError, ValueError):
            time.sleep(0.3)
    raise RuntimeError(f"JupyterLab did not answer /api/status within {SERVER_START_TIMEOUT} s:\n"
                       f"{lab.log_tail()}")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    proc.terminate()  # SIGTERM: the server shuts its kernels down
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def lab(tmp_path_factory) -> Lab:
    """JupyterLab on a free localhost port, serving the chapters' learner copies."""
    from bleu_lesson.grading.course import make_student_copy

    base = tmp_path_factory.mktemp("jupyterlab")
    root_dir = base / "notebooks"
    shutil.copytree(NOTEBOOK_DIR, root_dir,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    for path in sorted(root_dir.glob("[0-9][0-9]_*.ipynb")):
        copy = make_student_copy(json.loads(path.read_text(encoding="utf-8")), path.name)
        path.write_text(json.dumps(copy, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
    # empty user settings: the lab shows the environment's defaults, which the course
    # installs (jupyter-settings/bleu-lesson.json: Chinese interface, no news popup)
    settings_dir = base / "lab-settings"
    settings_dir.mkdir()

    env = dict(os.environ)
    env.update({
        "JUPYTER_CONFIG_DIR": str(base / "config"),
        # user data (kernels, extensions) off; the venv's share/jupyter, where the course's
        # python3 kernel lives, and JUPYTER_PATH, if set, are still searched
        "JUPYTER_DATA_DIR": str(base / "data"),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(settings_dir),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
        "IPYTHONDIR": str(base / "ipython"),  # no user profile or startup files in the kernel
        "PYTHONUNBUFFERED": "1",
    })
    env.pop("JUPYTER_TOKEN", None)
    port = _free_port()
    cmd = [*python_m("jupyterlab"),  # as `python -m jupyterlab`, a second less CPU
           "--no-browser", f"--ServerApp.port={port}", "--ServerApp.ip=127.0.0.1",
           "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}",
           f"--ServerApp.root_dir={root_dir}", "--LabApp.expose_app_in_browser=True",
           "--ServerApp.open_browser=False"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log = base / "jupyterlab.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=env, cwd=root_dir, stdout=out,
                                stderr=subprocess.STDOUT)
    server = Lab(f"http://127.0.0.1:{port}", TOKEN, root_dir, log)
    try:
        _wait_until_up(proc, server)
        _check_kernel(server)
        yield server
    finally:
        _stop(proc)


def _check_kernel(lab: Lab) -> None:
    """The notebooks' kernel, python3, must run this Python (the course's venv): the tests
    compute the expected numbers with the bleu_lesson that this Python imports."""
    specs = lab.api("/api/kernelspecs")["kernelspecs"]
    assert "python3" in specs, f"no python3 kernel; the server sees {sorted(specs)}"
    argv0 = specs["python3"]["spec"]["argv"][0]
    found = shutil.which(argv0) or argv0  # a bare "python" is looked up on PATH
    ours = Path(sys.executable).absolute()
    assert Path(found).absolute().parent == ours.parent, (
        f"the python3 kernel runs {argv0} ({found}), not the tests' Python {ours}: "
        "run `make venv` (it installs the venv's python3 kernel)")


# --- the lab as `make lab` starts it ---------------------------------------------

_LAB_PRINTED = re.compile(r"http://127\.0\.0\.1:\d+/\S*token=\w+")


@pytest.fixture(scope="session")
def started(tmp_path_factory):
    """`python -m bleu_lesson.grading.workspace --lab -- --no-browser ...` running (the lab
    ``make lab`` starts); its port and the URL it printed. One for the session: the tests of
    its start URL and of the learner's first view share it."""
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
            found = _LAB_PRINTED.search(log.read_text(encoding="utf-8", errors="replace"))
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


# --- the browser ---------------------------------------------------------------------

@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                      args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(request, browser, lab, artifacts_dir):
    """A new page (its own context: no storage shared between chapters)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    messages: list[str] = []
    page.on("console", lambda msg: messages.append(f"[console.{msg.type}] {msg.text}"))
    page.on("pageerror", lambda exc: messages.append(f"[pageerror] {exc}"))
    request.node.e2e_console = messages  # saved by the failure hook below
    try:
        yield page
    finally:
        context.close()
        lab.shutdown_sessions()


@pytest.fixture(scope="session")
def artifacts_dir(tmp_path_factory) -> Path:
    value = os.environ.get("BLEU_LESSON_E2E_ARTIFACTS")
    folder = Path(value) if value else tmp_path_factory.getbasetemp() / "e2e-artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


_NOTEBOOK_TEXT_JS = """() => {
  const panel = window.jupyterapp?.shell?.currentWidget;
  if (!panel || !panel.content || !panel.content.widgets) return '';
  return panel.content.widgets.map((cell, i) => {
    const prompt = cell.node.querySelector('.jp-InputPrompt')?.textContent ?? '';
    const outputs = [...cell.node.querySelectorAll('.jp-OutputArea-output')]
      .map(o => `  [${o.dataset.mimeType ?? 'output'}] ${o.textContent}`).join('\\n');
    return `--- cell ${i} ${cell.model.type} ${prompt}\\n${cell.model.sharedModel.getSource()}`
      + (outputs ? `\\n>>> outputs:\\n${outputs}` : '');
  }).join('\\n');
}"""


def _page_text(page) -> str:
    """What the page shows (innerText) and, cell by cell, the notebook's sources and outputs
    (off-screen cells are skipped by innerText: JupyterLab uses content-visibility)."""
    parts = ["=== page (innerText)", page.inner_text("body", timeout=10_000)]
    with contextlib.suppress(Exception):
        parts += ["=== notebook, cell by cell", page.evaluate(_NOTEBOOK_TEXT_JS)]
    return "\n".join(parts)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failed test, save what the browser showed before the page is closed."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        item.e2e_failed = True  # a page shared between tests is not used again
    if report.when != "call" or not report.failed:
        return
    page = getattr(item, "funcargs", {}).get("page")
    if page is None or page.is_closed():
        return
    folder = item.funcargs.get("artifacts_dir")
    if folder is None:
        return
    stem = re.sub(r"[^\w.-]+", "_", item.name)
    saved = []
    with contextlib.suppress(Exception):
        shot = folder / f"{stem}.png"
        page.screenshot(path=str(shot), full_page=False, timeout=10_000)
        saved.append(f"screenshot: {shot}")
    with contextlib.suppress(Exception):
        text = folder / f"{stem}.txt"
        text.write_text(_page_text(page), encoding="utf-8")
        saved.append(f"page text:  {text}")
    with contextlib.suppress(Exception):
        console = folder / f"{stem}.console.log"
        console.write_text("\n".join(getattr(item, "e2e_console", [])), encoding="utf-8")
        saved.append(f"console:    {console}")
    if saved:
        report.sections.append(("e2e artifacts", "\n".join(saved)))
