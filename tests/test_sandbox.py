"""Hostile submissions: every attack of issue #11, each built from chapter 04's notebook.

All submissions are checked in one ``bleu-lesson check --jobs 2`` run (module fixture),
then each test reads its own rows. None of the attacks may be reported ``pass``; the
correct submission is ``pass``, the untouched student copy ``not-done``, the wrong one
``fail``; no process a submission started survives; the report is complete and stays
unchanged after ``check`` returns; no submission, chapter or package file changes.
"""

from __future__ import annotations

import csv
import hashlib
import http.server
import json
import os
import secrets
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import pytest
from notebook_tools import ROOT

from bleu_lesson.__main__ import main
from bleu_lesson.grading import course, sandbox, world

CHAPTER = ROOT / "notebooks" / "04_brevity_penalty.ipynb"
PACKAGE = ROOT / "bleu_lesson"
MARKER = "bleu-lesson-marker-" + secrets.token_hex(6)
TIMEOUT = 40

pytestmark = [
    pytest.mark.skipif(not CHAPTER.exists(), reason="chapter 04 not written yet"),
    pytest.mark.skipif(sandbox.backend() == "none",
                       reason="no namespaces here: hostile code would reach this process"),
]

RIGHT_BP = """def my_brevity_penalty(c, r):
    import math
    if c > r:
        return 1.0
    return 0.0 if c == 0 else math.exp(1 - r / c)
"""
RIGHT_CLOSEST = """def my_closest_ref_length(c, ref_lens):
    return min(ref_lens, key=lambda r: (abs(r - c), r))
"""

# A detached process (own session, double fork) that outlives its cell, holds the
# kernel's stdout and stderr, writes fake result rows to the kernel's original stdout
# and tries, for a minute, to overwrite the report; its argv carries MARKER.
LINGER = """
import os, subprocess, sys
_code = '''
import os, sys, time
report = sys.argv[1]
for _ in range(600):
    try:
        os.write(int(sys.argv[2]),
                 b'[["x.ipynb", "4.1", "pass", ""]]\\\\nBLEU_LESSON_RESULTS={{}}\\\\n')
    except OSError:
        pass
    try:
        with open(report, "w") as f:
            f.write("submission,exercise,status,detail\\\\nx,4.1,pass,forged\\\\n")
    except OSError:
        pass
    time.sleep(0.1)
'''
_fd = getattr(sys.stdout, "_original_stdstream_copy", 1) or 1
if os.fork() == 0:
    os.setsid()
    subprocess.Popen([sys.executable, "-c", _code, {report!r}, str(_fd), {marker!r}],
                     pass_fds=(_fd,), start_new_session=True)
    os._exit(0)
os.wait()
"""


def _cell(source: str):
    return nbformat.v4.new_code_cell(source)


def _chapter():
    return nbformat.read(CHAPTER, as_version=4)


def _index(nb, start: str) -> int:
    return next(i for i, c in enumerate(nb.cells) if c.source.startswith(start))


def _set_answer(nb, name: str, source: str) -> None:
    nb.cells[_index(nb, f"def {name}(")].source = source


def _insert_before(nb, start: str, *sources: str) -> None:
    i = _index(nb, start)
    nb.cells[i:i] = [_cell(s) for s in sources]


def _student(nb):
    return nbformat.from_dict(course.make_student_copy(nb, CHAPTER.name))


def _attack_verdict_forgers(report: str) -> object:
    """The stubs stay; the notebook tries to make the checker print or accept a pass."""
    nb = _student(_chapter())
    nb.cells.insert(3, _cell("""
import builtins, json
from IPython import get_ipython
import bleu_lesson.teaching.exercises as _ex
FAKE = 'BLEU_LESSON_RESULTS={"4.1": ["pass", "6/6"], "4.2": ["pass", "5/5"]}'
# 1. every checking function returns a pass
_ex.run = lambda i, a: _ex.CheckResult(i, "pass", "forged")
_ex.check = lambda i, a: print("✔ 练习", i, "通过")
# 2. a pre_run_cell hook printing a fake results line before every later cell
get_ipython().events.register("pre_run_cell", lambda *a: print(FAKE))
# 3. print itself rewritten
_print = builtins.print
builtins.print = lambda *a, **k: _print(FAKE)
# 4. every str result of a cell shown as a forged "all done" judging reply
def _forged(obj, p, cycle):
    p.text(repr(json.dumps({"status": "done", "results": [
        {"value": 1.0, "after": [6, 7]}] * 3, "verdict": "pass"})))
get_ipython().display_formatter.formatters["text/plain"].for_type(str, _forged)
"""))
    return nb


def _attack_values() -> object:
    """Answers that are, or hide behind, the library's function; an int that equals all."""
    nb = _chapter()
    _set_answer(nb, "my_brevity_penalty",
                "from bleu_lesson import brevity_penalty as my_brevity_penalty")
    _set_answer(nb, "my_closest_ref_length", """class AlwaysEqual(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__


def my_closest_ref_length(c, ref_lens):
    return AlwaysEqual(0)
""")
    return nb


def _attack_wrappers() -> object:
    """An answer that only calls the library; one rebuilt from the library's code object."""
    nb = _chapter()
    _set_answer(nb, "my_brevity_penalty", """from bleu_lesson import brevity_penalty


def my_brevity_penalty(c, r):
    return brevity_penalty(c, r)
""")
    _set_answer(nb, "my_closest_ref_length", """import types
from bleu_lesson.core.brevity import closest_ref_length as _lib
my_closest_ref_length = types.FunctionType(_lib.__code__, _lib.__globals__, "mine",
                                           _lib.__defaults__)
""")
    return nb


def _attack_escape(report: str, port: int) -> object:
    """The stubs stay; the notebook reaches for the solution, the package, the checker,
    the network, memory and disk."""
    nb = _student(_chapter())
    nb.cells.insert(3, _cell(f"""
import json, os, pathlib, signal, socket, sys
import bleu_lesson
pkg = pathlib.Path(bleu_lesson.__file__).resolve().parent
# exec the instructor's solution notebook found next to the package
for path in [pkg.parent / "notebooks" / "04_brevity_penalty.ipynb",
             *pkg.parent.glob("**/04_*.ipynb")]:
    try:
        for c in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            s = "".join(c["source"])
            if s.startswith("def my_"):
                exec(s, globals())
        SOLUTION_FROM = str(path)
        break
    except (OSError, ValueError):
        pass
# rewrite the checker's code so that every later submission passes
for name in ("exercises.py", "judge.py", "course.py", "chapters/ch04.py", "chapters/__init__.py"):
    try:
        with open(pkg / name, "a", encoding="utf-8") as f:
            f.write("\\n# tampered\\n")
    except OSError:
        pass
# kill the checker: the parent, and every process in reach
for target in (os.getppid(), 1):
    try:
        os.kill(target, signal.SIGKILL)
    except OSError:
        pass
try:
    os.kill(-1, signal.SIGKILL)
except OSError:
    pass
# overwrite the report directly, and the originals
for target in ({report!r}, {str(CHAPTER)!r}):
    try:
        with open(target, "w") as f:
            f.write("forged")
    except OSError:
        pass
# the network, even the checker's own machine
try:
    s = socket.create_connection(("127.0.0.1", {port}), timeout=2)
    s.sendall(b"GET /leak HTTP/1.0\\r\\n\\r\\n")
except OSError:
    pass
# memory and disk without limit
try:
    hog = bytearray(3 * 1024 ** 3)
except MemoryError:
    hog = None
try:
    with open("big.bin", "wb") as f:
        f.write(b"x" * (300 * 1024 ** 2))
except OSError:
    pass
"""))
    nb.cells.insert(4, _cell(LINGER.format(report=report, marker=MARKER)))
    return nb


def _correct_with_lingering_process(report: str) -> object:
    """Right answers; a detached process holds the kernel's stdout and outlives the cell."""
    nb = _chapter()
    _set_answer(nb, "my_brevity_penalty", RIGHT_BP)
    _set_answer(nb, "my_closest_ref_length", RIGHT_CLOSEST)
    nb.cells.insert(3, _cell(LINGER.format(report=report, marker=MARKER)))
    return nb


def _hangs_after_first_exercise(report: str, spin: bool = True) -> object:
    """Chapter 04 with 4.1 right, then a cell that never ends: it spins on the CPU, or
    (spin=False) sleeps in a loop, which the limit stops alike without taking a core from
    the tests running beside it for the whole TIMEOUT."""
    nb = _chapter()
    _set_answer(nb, "my_brevity_penalty", RIGHT_BP)
    _insert_before(nb, "def my_closest_ref_length(", LINGER.format(report=report,
                                                                   marker=MARKER),
                   "while True:\n    pass" if spin else
                   "while True:\n    import time\n    time.sleep(1)")
    return nb


def _wrong() -> object:
    nb = _chapter()
    _set_answer(nb, "my_brevity_penalty", """def my_brevity_penalty(c, r):
    import math
    return math.exp(1 - r / c) if c else 0.0   # penalises long candidates too
""")
    _set_answer(nb, "my_closest_ref_length", """def my_closest_ref_length(c, ref_lens):
    return min(ref_lens, key=lambda r: abs(r - c))   # ties go to the first listed
""")
    return nb


def _sorting_in_place() -> object:
    nb = _chapter()
    _set_answer(nb, "my_closest_ref_length", """def my_closest_ref_length(c, ref_lens):
    ref_lens.sort()   # changes the caller's list
    return min(ref_lens, key=lambda r: (abs(r - c), r))
""")
    _set_answer(nb, "my_brevity_penalty", """def my_brevity_penalty(c, r):
    return object()   # not a value
""")
    return nb


def _hashes(paths) -> dict[str, str]:
    return {str(p): hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in paths}


def _marker_processes() -> list[str]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if MARKER.encode() in cmdline:
            found.append(proc.name)
    return found


class _Listener(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.hits.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    report = tmp / "report.csv"
    server = http.server.HTTPServer(("127.0.0.1", 0), _Listener)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    subs = {
        "forgers": _attack_verdict_forgers(str(report)),
        "values": _attack_values(),
        "wrappers": _attack_wrappers(),
        "correct": _correct_with_lingering_process(str(report)),
        "hang": _hangs_after_first_exercise(str(report), spin=False),
        "student": _student(_chapter()),
        "wrong": _wrong(),
        "mutates": _sorting_in_place(),
    }
    if sandbox.backend() == "bwrap":  # elsewhere the host's files are in reach
        subs["escape"] = _attack_escape(str(report), server.server_address[1])
    paths = {}
    for name, nb in subs.items():
        paths[name] = tmp / f"{name}_04_brevity_penalty.ipynb"
        nbformat.write(nb, paths[name])
    watched = [*paths.values(), *sorted((ROOT / "notebooks").glob("*.ipynb")),
               *sorted(PACKAGE.rglob("*.py"))]
    before = _hashes(watched)
    private_temp = tmp / "temp"  # the machine's temporary folder is shared
    private_temp.mkdir()
    temp_made = private_temp.stat().st_mtime_ns
    saved, tempfile.tempdir = tempfile.tempdir, str(private_temp)
    try:
        start = time.monotonic()
        code = main(["check", *map(str, paths.values()), "--timeout", str(TIMEOUT),
                     "--jobs", "2", "--report", str(report)])
        elapsed = time.monotonic() - start
    finally:
        tempfile.tempdir = saved
    text = report.read_text(encoding="utf-8")
    with open(report, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    server.shutdown()
    return {"code": code, "rows": rows, "paths": paths, "report": report, "text": text,
            "before": before, "watched": watched, "elapsed": elapsed,
            "temp": private_temp, "temp_made": temp_made, "hits": list(_Listener.hits)}


def _status(run, name: str) -> dict[str, str]:
    sub = str(run["paths"][name])
    return {r["exercise"]: r["status"] for r in run["rows"] if r["submission"] == sub}


def _detail(run, name: str, exercise: str) -> str:
    sub = str(run["paths"][name])
    return next(r["detail"] for r in run["rows"]
                if r["submission"] == sub and r["exercise"] == exercise)


def test_the_checker_survives_and_reports_every_submission(run):
    assert run["code"] == 0
    assert [(r["submission"], r["exercise"]) for r in run["rows"]] == [
        (str(p), ex) for p in run["paths"].values() for ex in ("4.1", "4.2")]


def test_no_attack_is_reported_pass(run):
    for name in ("forgers", "values", "wrappers", "escape", "student", "wrong", "mutates"):
        if name not in run["paths"]:
            continue
        statuses = _status(run, name)
        assert "pass" not in statuses.values(), (name, statuses)


def test_forged_results_lines_hooks_and_patched_checkers_change_nothing(run):
    assert set(_status(run, "forgers").values()) <= {"not-done", "error", "fail"}
    assert "forged" not in run["text"]


def test_the_librarys_own_function_and_an_equal_to_all_int_fail(run):
    # judged where the library's brevity module does not exist: the name is an absent
    assert _status(run, "values") == {"4.1": "fail", "4.2": "fail"}
    assert "a stand-in for a library or bleu_lesson module" in _detail(run, "values", "4.1")
    assert "期望 (expected)" in _detail(run, "values", "4.2")


def test_calling_the_library_fails_with_a_detail_that_says_so(run):
    assert _status(run, "wrappers") == {"4.1": "fail", "4.2": "not-done"}
    assert "a stand-in for a library or bleu_lesson module" in _detail(run, "wrappers", "4.1")
    # the code object it copies does not exist where the answer is judged
    assert "is not defined where it is judged" in _detail(run, "wrappers", "4.2")


@pytest.mark.skipif(sandbox.backend() != "bwrap",
                    reason="only bubblewrap hides the instructor's notebooks")
def test_escape_attempts_find_no_solution_and_leave_everything_intact(run):
    # where it is judged, the cell kills every process it may (its uid's): the judging
    # process too, so the submission has no judged value at all, an error, never a pass
    assert _status(run, "escape") == {"4.1": "error", "4.2": "error"}
    assert "judging sent no reply" in _detail(run, "escape", "4.1")
    assert run["hits"] == []  # the sandbox has no network, not even 127.0.0.1


def test_originals_package_and_submissions_are_unchanged(run):
    assert _hashes(run["watched"]) == run["before"]


def test_correct_submission_passes_despite_a_process_holding_its_output(run):
    assert _status(run, "correct") == {"4.1": "pass", "4.2": "pass"}
    assert "hidden" in _detail(run, "correct", "4.1")


def test_a_hang_keeps_earlier_verdicts_and_names_the_cell(run):
    assert _status(run, "hang") == {"4.1": "pass", "4.2": "timeout"}
    detail = _detail(run, "hang", "4.2")
    assert "while True:" in detail and "cell" in detail
    assert "did not finish" in _detail(run, "hang", "4.1")
    # the limit is hard: held pipes and a hung kernel do not stretch it much
    assert run["elapsed"] < TIMEOUT + 60


def test_student_copy_wrong_and_mutating_answers(run):
    assert _status(run, "student") == {"4.1": "not-done", "4.2": "not-done"}
    assert _status(run, "wrong") == {"4.1": "fail", "4.2": "fail"}
    assert _status(run, "mutates") == {"4.1": "fail", "4.2": "fail"}
    assert "changed its input" in _detail(run, "mutates", "4.2")
    assert "not a plain value" in _detail(run, "mutates", "4.1")


def test_no_process_survives_and_the_report_stays(run):
    assert _marker_processes() == []
    time.sleep(1.5)  # a survivor would rewrite the report every 0.1 s
    assert run["report"].read_text(encoding="utf-8") == run["text"]
    assert _marker_processes() == []


def test_no_temporary_folder_is_left(run):
    # but the judging world's copies of Python and of numpy, which are this process's (made
    # by the first world, here or earlier) and removed at its exit: test_world_copy.py
    kept = {world.numpy_copy()}
    if sandbox.backend() == "bwrap":
        kept.add(sandbox.python_copy().root)
    assert [p for p in run["temp"].iterdir() if p not in kept] == []
    assert run["temp"].stat().st_mtime_ns > run["temp_made"]  # sandboxes were made there


def test_fallback_without_namespaces_still_kills_the_group(tmp_path):
    nb = _chapter()
    _set_answer(nb, "my_brevity_penalty", RIGHT_BP)
    _set_answer(nb, "my_closest_ref_length", RIGHT_CLOSEST)
    nb.cells.insert(3, _cell(f"""import subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", {MARKER!r}])"""))
    path = tmp_path / "04_fallback.ipynb"
    nbformat.write(nb, path)
    rows = course.check_submission(path, timeout=60, sandbox="none")
    assert [(r.exercise, r.status) for r in rows] == [("4.1", "pass"), ("4.2", "pass")]
    assert _marker_processes() == []
    assert "NONE" in sandbox.describe("none") and "WARNING" in sandbox.describe("none")


@pytest.mark.skipif(not sandbox._probe(["unshare", "--pid", "--fork", "--net", "true"]),
                    reason="unshare cannot make namespaces here")
@pytest.mark.skipif(bool(sandbox.refusal("unshare")),
                    reason="unshare would run student code as root here: refused")
def test_unshare_backend_kills_even_detached_processes(tmp_path):
    nb = _correct_with_lingering_process(str(tmp_path / "r.csv"))  # setsid + double fork
    path = tmp_path / "04_unshare.ipynb"
    nbformat.write(nb, path)
    rows = course.check_submission(path, timeout=60, sandbox="unshare")
    assert [(r.exercise, r.status) for r in rows] == [("4.1", "pass"), ("4.2", "pass")]
    assert _marker_processes() == []  # (the host's files are in reach: see the docs)


@pytest.mark.skipif(not sandbox._probe(["unshare", "--pid", "--fork", "--mount", "true"]),
                    reason="unshare cannot make namespaces here")
@pytest.mark.skipif(bool(sandbox.refusal("unshare")),
                    reason="unshare would run student code as root here: refused")
def test_unshare_backend_makes_the_package_read_only_and_hides_the_notebooks():
    import subprocess
    import sys

    probe = ("import os, json; print(json.dumps(["
             f"os.listdir({str(ROOT / 'notebooks')!r}), "
             f"os.access({str(PACKAGE / 'teaching' / 'exercises.py')!r}, os.W_OK), "
             f"os.access({str(PACKAGE)!r}, os.W_OK)]))")
    with sandbox.Sandbox(kind="unshare") as box:
        proc = box.start([sys.executable, "-c", probe], stdout=subprocess.PIPE)
        out, _ = proc.communicate(timeout=60)
    assert json.loads(out) == [[], False, False]
    assert (ROOT / "notebooks" / CHAPTER.name).exists()  # only hidden inside


def test_ctrl_c_kills_the_running_kernels_at_once(tmp_path, monkeypatch):
    broken = tmp_path / "broken_04.ipynb"
    broken.write_text("{ not json", encoding="utf-8")
    hang = tmp_path / "hang_04_brevity_penalty.ipynb"
    nbformat.write(_hangs_after_first_exercise(str(tmp_path / "r.csv")), hang)
    (tmp_path / "temp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))
    seen = []

    def interrupt(row):
        seen.append(row)
        if len(seen) == 1:
            time.sleep(8)  # let the other kernel start and reach its endless loop
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        course.check_submissions([broken, hang], timeout=600, jobs=2, on_row=interrupt)
    deadline = time.monotonic() + 20
    while (_marker_processes() or list((tmp_path / "temp").iterdir())) and \
            time.monotonic() < deadline:
        time.sleep(0.2)
    assert _marker_processes() == []
    assert list((tmp_path / "temp").iterdir()) == []
    assert [r.status for r in seen] == ["error"]


def test_limits_are_validated():
    with pytest.raises(ValueError, match="memory"):
        sandbox.Limits(memory=0)
    with pytest.raises(ValueError, match="kind"):
        sandbox.Sandbox(kind="docker")


def test_sandbox_hides_the_host_and_runs_as_nobody():
    if sandbox.backend() != "bwrap":
        pytest.skip("bubblewrap not available")
    import subprocess
    import sys

    probe = ("import os, json; print(json.dumps([os.getuid(), os.getpid(), "
             f"os.path.exists({str(ROOT / 'notebooks')!r}), "
             f"os.access({str(PACKAGE)!r}, os.W_OK)]))")
    with sandbox.Sandbox() as box:
        proc = box.start([sys.executable, "-c", probe], stdout=subprocess.PIPE)
        out, _ = proc.communicate(timeout=60)
        workdir = box.workdir
    uid, pid, sees_notebooks, can_write = json.loads(out)
    if os.geteuid() == 0:
        assert uid in sandbox.UID_POOL or uid == sandbox.NOBODY
    else:
        assert uid == os.geteuid()
    assert pid < 10  # its own PID namespace
    assert not sees_notebooks and not can_write
    assert not workdir.exists()


def test_sealed_socket_folder_cannot_be_changed_from_inside():
    if sandbox.backend() != "bwrap" or os.geteuid() != 0:
        pytest.skip("needs bubblewrap as root (the kernel runs as nobody)")
    import subprocess
    import sys

    with sandbox.Sandbox() as box:
        sock = box.ipcdir / "k-1"
        sock.write_text("stands for a socket")
        box.seal_sockets()
        probe = (f"import os\ntry:\n    os.unlink({str(sock)!r}); os.symlink('/run', "
                 f"{str(sock)!r}); print('replaced')\nexcept OSError as e:\n    print(e.errno)")
        proc = box.start([sys.executable, "-c", probe], stdout=subprocess.PIPE)
        out, _ = proc.communicate(timeout=60)
        assert out.decode().strip() == "13"  # EACCES
        assert sock.read_text() == "stands for a socket"


def test_resource_limits_hold_inside():
    import subprocess
    import sys

    probe = """
import os, subprocess, sys
out = []
try:
    block = bytearray(1024 ** 3)
    out.append("allocated")
except MemoryError:
    out.append("MemoryError")
try:
    with open("big.bin", "wb") as f:
        f.write(b"x" * (2 * 1024 ** 2))
    out.append("wrote")
except OSError as e:
    out.append("EFBIG" if e.errno == 27 else str(e))
children = []
try:
    for _ in range(40):
        children.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]))
    out.append("spawned")
except OSError:
    out.append("no more processes")
print(" ".join(out))
"""
    limits = sandbox.Limits(memory=512 * 1024 ** 2, file_size=1024 ** 2, processes=20)
    with sandbox.Sandbox(limits) as box:
        proc = box.start([sys.executable, "-c", probe], stdout=subprocess.PIPE)
        out, _ = proc.communicate(timeout=120)
    words = out.decode().split()
    assert words[0] == "MemoryError" and words[1] == "EFBIG"
    if os.geteuid() != 0 or box.as_nobody:  # root ignores the process limit
        assert out.decode().strip().endswith("no more processes")


def test_one_sandbox_using_up_its_process_limit_leaves_another_its_own():
    """Under root each sandbox runs as a uid of its own (RLIMIT_NPROC counts per uid):
    sandbox A fills its limit of 20 processes, then B can still start 10."""
    if sandbox.backend() != "bwrap" or os.geteuid() != 0:
        pytest.skip("needs bubblewrap as root (the kernels run as unprivileged uids)")
    import subprocess
    import sys

    spawn = """
import subprocess, sys
kids = []
try:
    for _ in range({n}):
        kids.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
    print("spawned", len(kids), flush=True)
except OSError:
    print("stopped at", len(kids), flush=True)
"""
    limits = sandbox.Limits(processes=20)
    with sandbox.Sandbox(limits) as a, sandbox.Sandbox(limits) as b:
        assert a.uid != b.uid and {a.uid, b.uid} <= set(sandbox.UID_POOL)
        hog = a.start([sys.executable, "-c", spawn.format(n=40)], stdout=subprocess.PIPE)
        assert hog.stdout.readline().decode().startswith("stopped at")  # A is full
        proc = b.start([sys.executable, "-c", spawn.format(n=10)], stdout=subprocess.PIPE)
        out, _ = proc.communicate(timeout=60)
        assert out.decode().strip() == "spawned 10"
    assert not {a.uid, b.uid} & sandbox._UIDS_TAKEN  # given back to the pool


def test_fake_rows_on_the_original_stdout_reach_nothing(tmp_path, capfd):
    nb = _correct_with_lingering_process(str(tmp_path / "r.csv"))
    path = tmp_path / "04_fake_rows.ipynb"
    nbformat.write(nb, path)
    assert main(["check", str(path), "--timeout", "60"]) == 0
    time.sleep(1)
    out, err = capfd.readouterr()
    assert "4.1:pass" in out and "4.2:pass" in out
    assert "x.ipynb" not in out + err and "BLEU_LESSON_RESULTS" not in out + err
    assert _marker_processes() == []
