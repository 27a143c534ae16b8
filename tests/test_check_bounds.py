"""A reply cannot stall or swell the checker (issue 20, class 6): decoding is bounded."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from bleu_lesson.grading import judge

MODULUS = sys.hash_info.modulus  # 2**61 - 1: n and n + k * MODULUS hash alike


def test_colliding_ints_are_refused_before_they_are_hashed():
    flood = {"__set__": [k * MODULUS for k in range(80_000)]}
    t0 = time.process_time()
    with pytest.raises(ValueError, match="set or dict entries"):
        judge.decode(flood)
    assert time.process_time() - t0 < 5  # measured: milliseconds; 150 s before the bound


def test_entries_are_counted_across_the_whole_value():
    many = [{"__set__": [k * MODULUS for k in range(500)]} for _ in range(5)]
    with pytest.raises(ValueError, match="set or dict entries"):
        judge.decode(many)
    pairs = {"__dict__": [[k * MODULUS, 0] for k in range(2001)]}
    with pytest.raises(ValueError, match="set or dict entries"):
        judge.decode(pairs)


def test_too_many_parts_and_too_deep_are_refused():
    with pytest.raises(ValueError, match="parts"):
        judge.decode([0] * (judge.MAX_NODES + 1))
    deep: list = []
    for _ in range(200):
        deep = [deep]
    with pytest.raises(ValueError, match="deeply"):
        judge.decode(deep)


def test_plain_answers_still_decode():
    names = {"__set__": ["AISP-SJTU", "Online-G"]}
    assert judge.decode(names) == {"AISP-SJTU", "Online-G"}
    assert judge.decode([[1, 2]] * 10_000) == [[1, 2]] * 10_000


def test_judging_reply_of_a_bad_value_is_a_fail_not_a_crash():
    from bleu_lesson.teaching.exercises import EXERCISES

    ex = EXERCISES["9.2"]
    reply = {"status": "done", "results": [{"value": {"__set__": list(range(3000))},
                                            "after": []}]}
    v = judge.judge_exercise(ex, reply, [()], 0)
    assert v.status == "fail" and "could not be read" in v.detail


# --- the command line: error reasons, exit status, and SIGTERM -------------------------

def _cli(args, env, **kw):
    import os
    import subprocess

    # the checker as a terminal starts it (see _as_from_a_terminal)
    return subprocess.Popen([sys.executable, "-m", "bleu_lesson", "check", *args],
                            env={**os.environ, **env}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=_as_from_a_terminal, **kw)


def _as_from_a_terminal() -> None:
    """Default SIGINT/SIGTERM handlers and no blocked signals in the child, whatever the
    test run inherited (a pytest-xdist worker, nohup)."""
    import signal

    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


def _hanging_notebook(path):
    import json

    cells = ["def my_brevity_penalty(c, r):\n    return 1.0\n", "while True:\n    pass\n"]
    path.write_text(json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {"bleu_lesson": {"chapter": "04"}},
        "cells": [{"cell_type": "code", "id": f"c{k}", "metadata": {}, "outputs": [],
                   "execution_count": None, "source": s} for k, s in enumerate(cells)]}))


def test_unreadable_submission_prints_its_reason_and_exits_2(tmp_path):
    bad = tmp_path / "alice_04_brevity_penalty.ipynb"
    bad.write_text("{ not json")
    proc = _cli([str(bad)], {"TMPDIR": str(tmp_path)})
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 2, (out, err)
    assert "error row:" in err and "not a readable notebook" in err
    assert "could not be judged at all" in err


def test_sigterm_leaves_no_copy_of_a_submission_and_no_process(tmp_path, request):
    import os
    import shutil
    import signal
    import tempfile

    from bleu_lesson.grading.sandbox import PREFIX, _descendants

    # a short TMPDIR the checker keeps (a deep one gives way to /tmp: see the next test)
    temp = Path(tempfile.mkdtemp(prefix="blt-", dir="/tmp"))
    request.addfinalizer(lambda: shutil.rmtree(temp, ignore_errors=True))
    sub = tmp_path / "bob_04_brevity_penalty.ipynb"
    _hanging_notebook(sub)
    proc = _cli(["--timeout", "120", "--jobs", "1", str(sub)], {"TMPDIR": str(temp)})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(p.name.startswith(PREFIX)
                                                   for p in temp.iterdir()):
        time.sleep(0.2)
    assert any(p.name.startswith(PREFIX) for p in temp.iterdir()), "no sandbox started"
    time.sleep(3)  # the kernel is up and running the notebook
    inside = _descendants(proc.pid)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (out, err)
    assert [p.name for p in temp.iterdir() if p.name.startswith(PREFIX)] == []
    time.sleep(1)
    alive = []
    for pid in inside:
        try:
            state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X"):
            alive.append(pid)
    assert alive == [], "processes of the check survived SIGTERM"
    assert os.path.exists(sub)  # the student's file itself is untouched


_FLOOD = r'''
import json, resource, sys
from pathlib import Path
from bleu_lesson.grading import course
cells = ["print('x' * (200 * 1024 * 1024))\n"] * 3 + [
    "def my_brevity_penalty(c, r):\n    return 1.0\n"]
nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"bleu_lesson": {"chapter": "04"}},
      "cells": [{"cell_type": "code", "id": f"c{k}", "metadata": {}, "outputs": [],
                 "execution_count": None, "source": s} for k, s in enumerate(cells)]}
path = Path(sys.argv[1]) / "flood_04.ipynb"
path.write_text(json.dumps(nb))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
rows = course.check_submission(path, timeout=20)
grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"statuses": [r.status for r in rows], "grew_kib": grew}))
'''


def test_a_flood_of_output_does_not_swell_the_checker(tmp_path):
    """Before: fifteen 200 MB IOPub messages grew the checker from 69 MB to 2.5 GB. Now
    ZMQ drops a kernel whose message is over 8 MiB: the checker's peak memory (in a fresh
    process) grows by far less than one such message, and the submission gets no pass."""
    import json
    import subprocess

    from bleu_lesson.grading import sandbox

    if sandbox.backend() == "none":
        pytest.skip("no namespaces here: hostile code would reach this process")
    out = subprocess.run([sys.executable, "-c", _FLOOD, str(tmp_path)], capture_output=True,
                         text=True, timeout=300, check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    assert "pass" not in result["statuses"]
    assert result["grew_kib"] < 150 * 1024  # measured: ~50 MB (imports); one message: 200 MB


def test_a_deep_tmpdir_gives_way_to_tmp_for_the_kernels_sockets(monkeypatch, tmp_path):
    """A found bug: under a test runner's deep TMPDIR the kernel's Unix sockets exceeded
    107 bytes ("ZMQError: File name too long") and every submission was an error row."""
    import tempfile

    from bleu_lesson.grading import sandbox

    deep = tmp_path / ("d" * 60) / ("e" * 40)
    deep.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(deep))
    assert sandbox._short_temp() == "/tmp"
    monkeypatch.setattr(tempfile, "tempdir", "/tmp")
    assert sandbox._short_temp() is None
