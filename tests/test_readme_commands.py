"""Every shell command in README.md and docs/*.md works as written, after `make`.

The commands are read from the fenced ``bash``/``sh`` blocks and run one by one, in their
block's order, from the root of a scratch copy of the repository (the files git knows, and
``.venv`` linked to this one), the way a newcomer pastes them. A command passes when it
exits with 0. A few are not run, each for the reason in ``POLICY`` (long-running servers,
the whole test suite, another package manager); a few run in a short form (``--version``,
pytest's collection only); a server (``make lab``, ``make lab-student``) is started as
written, here as root too when the tests run as root, and stopped once it serves. Downloads
are impossible here: the data URL points at a closed port, so ``make data`` runs only when
the data is already local (then it downloads nothing).

The commands not run here are not skipped tests: one test lists them, each with why and
the test that runs the same thing instead, and checks that test exists.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bleu_lesson.data.datasets import TOY_CORPUS

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
VENV_BIN = ROOT / ".venv" / "bin"
TIMEOUT = 180  # s, per command

# (pattern, action, reason). Actions: "elsewhere" (not run here: the reason says why and
# names the test that runs the same thing); "serve" (started as written, stopped once it
# serves); "help" (PROGRAM SUBCOMMAND --version); "collect" (pytest --co); "data" (run only
# with the WMT22 data on this machine). The first matching pattern wins; a command
# matching none is run as written.
POLICY: list[tuple[str, str, str]] = [
    (r"^make (lab|lab-student)\b", "serve", ""),
    (r"^python -m bleu_lesson\.grading\.workspace --lab\b", "elsewhere",
     "is the pip route's `make lab`: it needs the `pip install .` before it; `make lab` runs "
     "the same command with the venv's python and is served above, and "
     "tests/test_workspace.py checks the JupyterLab command it starts"),
    (r"^make e2e\b", "elsewhere", "is the browser tests, tests/e2e/, which `make test` runs"),
    (r"^make test\b", "elsewhere", "runs the whole test suite, which this test is part of; "
                                   "CI runs `make test` (.ci/run)"),
    (r"^make notebooks\b", "elsewhere", "re-executes every chapter (minutes of CPU); "
                                        "tests/test_run_notebooks.py runs its tool on chapters"),
    (r"^make bench\b", "elsewhere", "runs every benchmark (minutes of CPU); "
                                    "tests/test_run_benchmarks.py runs its tool"),
    (r"^make book\b", "elsewhere", "builds the web edition (a minute or two); "
                                   "tests/e2e/test_book.py builds it and opens every page"),
    (r"^make lint\b", "elsewhere", "CI runs `make lint` itself, before the tests (.ci/run)"),
    (r"^make (clean|distclean)\b", "elsewhere", "deletes the caches (and .venv) this run is "
                                                "using"),
    (r"^(make data|\S*bleu-lesson data)\b(?!.*--help)", "data", ""),
    (r"^conda ", "elsewhere", "the conda route needs conda and builds a whole environment; "
                             "tests/test_packaging.py checks environment.yml lists the same "
                             "packages as pyproject.toml"),
    (r"^pip install\b", "elsewhere", "installs into the current environment; `make venv` "
                                     "makes the same install (editable) for every run, and "
                                     "tests/test_packaging.py checks the metadata pip reads"),
    (r"\bbleu-lesson check submissions/", "elsewhere", "needs the students' "
                                                      "submissions/*.ipynb; "
                                                      "tests/test_check_cli.py runs `check` "
                                                      "on submissions it writes"),
    (r"^(cd \S+|nbgrader )", "elsewhere", "the nbgrader route works inside a course folder "
                                          "with students' submissions; "
                                          "tests/test_nbgrader.py runs generate_assignment "
                                          "and autograde on chapter 04"),
    (r"^(\S*/)?jupyter lab\b", "help", "starts a server: --version shows it is installed"),
    (r"bleu_lesson\.grading\.workspace\b.*--lab\b", "skip", "starts JupyterLab on the learner's "
                                                         "workspace; tests/test_workspace.py "
                                                         "makes the workspace"),
    (r"^\S*pytest\b", "collect", "collection only: the suite itself runs the notebooks"),
]


@dataclass
class Command:
    doc: str
    line: int
    text: str
    block: list[Command] = field(default_factory=list, repr=False)
    conda: bool = False  # in a block that activates a conda environment first
    pip: bool = False    # in a block for an environment of the reader's own

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def _commands() -> list[Command]:
    found = []
    for path in DOCS:
        doc = path.relative_to(ROOT).as_posix()
        block: list[Command] | None = None
        pending = ""
        start = 0
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            stripped = raw.strip()
            if stripped.startswith("```"):
                if block is None and stripped[3:].strip() in ("bash", "sh", "shell"):
                    block = []
                elif block is not None:
                    conda = any(c.text.startswith("conda activate") for c in block)
                    pip = any(c.text.startswith("pip install") for c in block)
                    for c in block:
                        c.block, c.conda, c.pip = block, conda, pip
                    found += block
                    block = None
                continue
            if block is None:
                continue
            line = re.sub(r"\s+#\s.*$", "", raw).strip()  # a trailing comment
            if not line or line.startswith("#"):
                continue
            if not pending:
                start = number
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            block.append(Command(doc, start, pending + line))
            pending = ""
    return found


COMMANDS = _commands()


def policy(command: Command) -> tuple[str, str]:
    if command.conda and not command.text.startswith("conda "):
        return "elsewhere", ("runs inside the conda environment the block creates; "
                             "tests/test_packaging.py checks environment.yml")
    for pattern, action, reason in POLICY:
        if re.search(pattern, command.text):
            return action, reason
    return "run", ""


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """A copy of the repository's files (mtimes kept, so make sees an up-to-date venv)."""
    if not (VENV_BIN / "bleu-lesson").exists():
        pytest.skip("needs the project's virtualenv: run `make venv` first")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: cannot tell the repository's files")
    copy = tmp_path_factory.mktemp("clone") / "bleu-lesson"
    for name in listed.stdout.decode().split("\0"):
        source = ROOT / name
        if name and source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    (copy / ".venv").symlink_to(ROOT / ".venv", target_is_directory=True)
    return copy


@pytest.fixture(scope="module")
def environment() -> dict[str, str]:
    with socket.socket() as probe:  # a port nothing listens on: no download can happen
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env.update({"BLEU_LESSON_DATA_URL": f"http://127.0.0.1:{port}", "PYTHONUTF8": "1"})
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if Path(p).resolve() != VENV_BIN.resolve())
    return env


def _venv_is_current() -> bool:
    return subprocess.run(["make", "-q", "venv"], cwd=ROOT, capture_output=True).returncode == 0


def _data_is_local() -> bool:
    from bleu_lesson.data.datasets import DATASETS, DatasetNotFoundError, fetch_dataset

    try:
        for name in DATASETS:
            fetch_dataset(name, download=False)
    except (DatasetNotFoundError, ValueError):
        return False
    return True


_done: set[str] = set()
_checked: set[tuple[str, bool]] = set()
#: what a server or data command printed, by its text: the docs repeat `make lab` and
#: `make data` word for word (README in two languages, the guides), and the same command in
#: the same copy does the same thing, so it is started once and each place asserts on that
_outcomes: dict[str, tuple[bool, str]] = {}


def _run(command: Command, scratch: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    action, _ = policy(command)
    text = command.text
    if action == "help":  # the program and subcommand, asked for their version
        text = " ".join(shlex.split(text)[:2]) + " --version"
    elif action == "collect":
        text += " --co -q -p no:cacheprovider"
    env = dict(env)
    if command.pip or any(c.text.startswith("source .venv/bin/activate")
                          for c in command.block[:command.block.index(command)]):
        # the reader's activated environment: its programs first on PATH
        env["PATH"] = f"{scratch / '.venv' / 'bin'}{os.pathsep}{env['PATH']}"
        env["VIRTUAL_ENV"] = str(scratch / ".venv")
    return subprocess.run(["bash", "-c", text], cwd=scratch, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)


def test_the_docs_have_commands():
    assert len(COMMANDS) >= 20, [c.text for c in COMMANDS]
    texts = {c.text for c in COMMANDS}
    for needed in ("make lab", "make test", "make data", "pip install .",
                   "source .venv/bin/activate"):
        assert needed in texts, needed


RUN_HERE = [c for c in COMMANDS if policy(c)[0] != "elsewhere"]
ELSEWHERE = [c for c in COMMANDS if policy(c)[0] == "elsewhere"]


def test_commands_run_elsewhere_say_why_and_their_test_exists():
    """Not a skip each: a deliberate list. Every documented command this test does not run
    says why, and the test it names as running the same thing exists."""
    assert ELSEWHERE and len(RUN_HERE) > len(ELSEWHERE)
    for command in ELSEWHERE:
        reason = policy(command)[1]
        assert reason, command
        for named in re.findall(r"(?:tests|\.ci)/[\w./]+?(?=[,;)]|\s|$)", reason):
            assert (ROOT / named).exists() or named.startswith(".ci/"), (command.id, named)


def _serve(command: Command, scratch: Path, env: dict[str, str]) -> tuple[bool, str]:
    """Start a server command as written; whether it served within the time limit (then it
    is stopped), and what it printed."""
    env = {**env, "BROWSER": "true"}  # Python's webbrowser: "open" the page with `true`
    log = scratch / f".serve-{command.line}.log"
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(["bash", "-c", command.text], cwd=scratch, env=env,
                                stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    served = False
    try:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and proc.poll() is None:
            text = log.read_text(encoding="utf-8", errors="replace")
            if re.search(r"https?://(127\.0\.0\.1|localhost):\d+/lab", text):
                served = True
                break
            time.sleep(0.5)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # the session this test started, by its id
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    return served, log.read_text(encoding="utf-8", errors="replace")


@pytest.mark.parametrize("command", RUN_HERE, ids=[c.id for c in RUN_HERE])
def test_command_works_as_written(command: Command, scratch, environment):
    action, reason = policy(command)
    if command.text.startswith("make ") and not _venv_is_current():
        pytest.skip("`make` would reinstall the venv (pyproject.toml is newer): run `make venv`")
    if action == "data" and not _data_is_local():
        pytest.skip(f"`{command.text}` would download the WMT22 data; tests never download "
                    "(run `make data` once to test it)")
    for earlier in command.block[:command.block.index(command)]:  # what it builds on
        if earlier.id not in _done and policy(earlier)[0] == "run":
            _run(earlier, scratch, environment)
            _done.add(earlier.id)
    if action == "serve":
        if command.text not in _outcomes:
            _outcomes[command.text] = _serve(command, scratch, environment)
        served, log = _outcomes[command.text]
        _done.add(command.id)
        assert served, f"{command.id}: `{command.text}` did not serve JupyterLab:\n{log[-3000:]}"
        return
    if action == "help":  # one check per program and environment is enough
        key = (" ".join(shlex.split(command.text)[:2]), command.pip)
        if key in _checked:
            return
        _checked.add(key)
    if action == "data" and command.text in _outcomes:
        ok, stderr = _outcomes[command.text]
    else:
        result = _run(command, scratch, environment)
        ok, stderr = result.returncode == 0, result.stderr
        assert ok, (
            f"{command.id}: `{command.text}` exited with {result.returncode}\n"
            f"--- stdout\n{result.stdout[-2000:]}\n--- stderr\n{result.stderr[-2000:]}")
        if action == "data":
            _outcomes[command.text] = ok, stderr
    _done.add(command.id)
    assert ok and "Traceback" not in stderr, stderr


def test_example_files_are_chapter_07s_corpus():
    folder = ROOT / "examples"

    def lines(name: str) -> tuple[str, ...]:
        return tuple((folder / name).read_text(encoding="utf-8").splitlines())

    assert lines("toy.src.zh") == TOY_CORPUS.source
    assert lines("toy.ref.A.en") == TOY_CORPUS.references["A"]
    assert lines("toy.ref.B.en") == TOY_CORPUS.references["B"]
    assert lines("toy.hyp.good.en") == TOY_CORPUS.systems["good"]
    assert lines("toy.hyp.weak.en") == TOY_CORPUS.systems["weak"]
    assert [tuple(x.split("\t")) for x in lines("toy.refs.tsv")] == list(
        zip(TOY_CORPUS.references["A"], TOY_CORPUS.references["B"]))


def test_readme_names_the_seed_text_and_its_variable():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "BLEU_LESSON_SEED_DIR" in readme and "not distributed" in readme


def test_every_command_parses_as_shell():
    for command in COMMANDS:
        assert shlex.split(command.text), command


def test_readme_tells_a_newcomer_what_they_need():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    for needed in ("make lab", "make test", "make data", "8 MB", "(optional)", "Chromium",
                   "/usr/bin/chromium", "tests/e2e", "source .venv/bin/activate",
                   "pip install .", "bleu_lesson.grading.workspace --lab", "Settings",
                   "Language"):
        assert needed in quick, needed
    assert quick.index("make lab") < quick.index("make test") < quick.index("make data")
    chinese = readme.split("## 快速开始", 1)[1].split("\n## ", 1)[0]
    for needed in ("make lab", "make test", "make data", "BLEU_LESSON_WMT22_DIR", "Chromium",
                   "pip install .", "中文"):
        assert needed in chinese, needed
