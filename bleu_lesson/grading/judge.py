"""Judging a submission: untrusted code computes, trusted code judges.

``check_notebook`` runs one notebook in a Jupyter kernel inside a
``bleu_lesson.grading.sandbox`` (its errors and a hang are noted: what the cells print is
never read), then takes the values it judges from ``bleu_lesson.grading.world``: the code
cells run again in a process where the exercise's reference does not exist (only the
standard library, numpy and the building blocks the exercise allows), and the answers are called
there on the fixed cases and hidden ones drawn from a seed made here. The reply is plain
JSON; ``decode`` turns it into fresh values of exactly the plain types, with bounds
(``MAX_NODES`` parts, ``MAX_HASHED`` set and dict entries: no reply can stall the checker
by hashing), and ``judge_exercise`` compares them here, with the exercise's tolerance or
its ``judge``. Forging a value means computing the right one, which is solving the
exercise; borrowing the reference is impossible where it does not exist.

An exercise that gives the learner a library (8.2: sacrebleu, its answer re-scores with
it) is judged in a world of its own that holds a copy of that library too; every other
exercise's world has none. No exercise is judged in the kernel.
"""

from __future__ import annotations

import math
import os
import queue
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bleu_lesson.teaching.checking import shown_input, verdict

from .sandbox import Limits, Sandbox, closing
from .wire import MAX_HASHED, MAX_NODES, decode, encode
from .world import judge_in_world

# encode, decode and their bounds live in .wire (world uses them too); named here as before
__all__ = ["Submission", "Verdict", "encode", "decode", "MAX_NODES", "MAX_HASHED", "Timeout",
           "KernelFailed", "judge_exercise"]

MAX_REPLY = 4 * 1024 ** 2  # bytes of JSON read back from one judging cell
#: The largest message the checker accepts from a kernel (ZMQ drops the connection of a
#: kernel that sends more: its output cannot swell the checker).
MAX_MESSAGE = 8 * 1024 ** 2
#: Seconds between two looks at what a running cell's processes hold in all (``--memory``)
MEMORY_LOOK = 0.5


class Timeout(Exception):
    """The wall-clock limit was reached; the sandbox has been killed."""


class KernelFailed(Exception):
    """The kernel did not start, or died, or broke the Jupyter protocol."""


#: What jupyter_client raises on a message that is not the protocol's (a kernel that
#: wrote raw bytes on its own sockets: "b'<IDS|MSG>' is not in list")
PROTOCOL_ERRORS = (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError)


def _protocol(exc: BaseException) -> str:
    return (f"the kernel sent a message that is not the Jupyter protocol "
            f"({type(exc).__name__}): it was stopped")


@dataclass(frozen=True)
class Verdict:
    exercise: str
    status: str        # pass, fail, not-done, error
    detail: str = ""




def _short(text: object, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_.]{0,59}")
_ENDED = re.compile(r"SIG[A-Z0-9]{1,10}|signal [0-9]{1,3}|exit status [0-9]{1,3}")
_EXERCISE_ID = re.compile(r"[0-9]{1,2}\.[0-9]{1,2}")


def _type_name(value: object) -> str:
    """An exception's type name the judged side sent, shown only when it is a (dotted)
    identifier."""
    return value if type(value) is str and _IDENTIFIER.fullmatch(value) else "an exception"


#: What a judging world holds besides an exercise's building blocks (``world``)
WORLD_HOLDS = "the standard library, numpy"


def _a_value_of(value: object) -> str:
    """The kind of value the judged side said it returned, as words for a row: the type
    name when it is a (dotted) identifier; a stand-in of the world (``Absent``) explained.

    >>> _a_value_of("ndarray"), _a_value_of(None)
    ('a value of type ndarray', 'a value of a type it did not name')
    """
    if value == "Absent":
        return ("a stand-in for a library or bleu_lesson module that does not exist where "
                f"answers are judged (only {WORLD_HOLDS} and the exercise's building blocks "
                "do; 判分环境中没有这个库或模块)")
    if type(value) is str and _IDENTIFIER.fullmatch(value):
        return f"a value of type {value}"
    return "a value of a type it did not name"


def _said(value: object, limit: int = 200) -> str:
    """Text the judged side chose (an exception's message), shown only as the ``repr``
    of a bounded string: it can never read as the checker's own wording."""
    text = value if type(value) is str else ""
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


def _cell_errors(errors: object) -> str:
    """The world's notes on the cells that raised, in the checker's wording."""
    if type(errors) is not list:
        return ""
    out = []
    for e in errors[:3]:
        if type(e) is dict and type(e.get("cell")) is int:
            if e.get("type") == "cell-magic":
                what = (f"a cell magic ({_said(e.get('message'), 60)}) whose cell is not run "
                        "where answers are judged")
            elif e.get("type") == "ipython-line":
                what = (f"{_said(e.get('message'), 60)}, which IPython runs, is not run "
                        "where answers are judged (only Python, %run, %%writefile, "
                        "!mkdir and a few magics are)")
            elif e.get("type") == "timeout":
                what = "did not finish in time"
            else:
                what = f"{_type_name(e.get('type'))}: {_said(e.get('message'), 120)}"
            out.append(f"cell {e['cell']}: {what}")
    return "; ".join(out)


def _holds(ex) -> str:
    """What the world of ``ex`` holds, as a row says it: "the standard library, numpy and
    the building blocks bleu_lesson.core.{ngrams, clipping}" (its libraries too), or
    without building blocks, "the standard library, numpy" alone.

    >>> from types import SimpleNamespace as E
    >>> _holds(E(building_blocks=(), libraries=()))
    'the standard library, numpy'
    >>> _holds(E(building_blocks=("ngrams",), libraries=("sacrebleu",)))
    'the standard library, numpy, sacrebleu and the building blocks bleu_lesson.core.{ngrams}'
    """
    held = ", ".join([WORLD_HOLDS, *getattr(ex, "libraries", ())])
    blocks = ", ".join(ex.building_blocks)
    return f"{held} and the building blocks bleu_lesson.core.{{{blocks}}}" if blocks else held


def judge_exercise(ex, reply: Any, cases: list[tuple], hidden: int) -> Verdict:
    """The verdict on exercise ``ex`` from the kernel's ``reply`` (untrusted JSON data)
    to the cases sent; every comparison happens here. An exercise with a ``rubric`` is
    never ``pass``: when its numbers hold it is ``self-assessed``."""
    v = _judge_values(ex, reply, cases, hidden)
    if v.status in ("fail", "error") and type(reply) is dict and reply.get("absent") is True:
        v = Verdict(ex.id, v.status, v.detail + (
            f"; note: while judged, {ex.answer_name} used a stand-in for something that "
            f"does not exist where answers are judged (only {_holds(ex)} do), so its "
            "result may come from that: "
            "判分时你的代码用到了判分环境里没有的库或函数，请只用标准库和本题允许的模块"))
    if getattr(ex, "rubric", "") and v.status == "pass":
        return Verdict(ex.id, "self-assessed", "the numbers hold; what a program cannot "
                                               "judge is for a person: " + _short(ex.rubric))
    return v


def _judge_values(ex, reply: Any, cases: list[tuple], hidden: int) -> Verdict:
    name = ex.answer_name
    if type(reply) is not dict or type(reply.get("status")) is not str:
        return Verdict(ex.id, "error", "the kernel's reply is not a judging result")
    status = reply["status"]
    if status == "missing":
        errors = _cell_errors(reply.get("errors"))
        why = ""
        if errors:
            why = f" where it is judged (only {_holds(ex)} exist there): " + errors
        return Verdict(ex.id, "not-done", f"{name} is not defined" + why)
    if status == "timeout":
        cell = reply.get("cell")
        at = f"cell {cell}" if type(cell) is int and cell >= 0 else name
        return Verdict(ex.id, "timeout", f"where it is judged, {at} did not finish within "
                                         "its time (CPU and wall clock): it was stopped")
    if status == "world-gone":
        cell = reply.get("cell")
        at = f"cell {cell}" if type(cell) is int and cell >= 0 else name
        if reply.get("why") == "died":
            ended = reply.get("ended")
            how = f" ({ended})" if type(ended) is str and _ENDED.fullmatch(ended) else ""
            return Verdict(ex.id, "error", f"the judging process died{how} while running "
                                           f"{at} where it is judged")
        return Verdict(ex.id, "error", "the process that runs the answer where it is judged "
                                       "stopped or sent something that is not a judging "
                                       "result")
    if status == "not-judged":
        after = reply.get("after")
        in_ex = f" in {after}" if type(after) is str and _EXERCISE_ID.fullmatch(after) else ""
        how = {"died": "died", "timeout": "was stopped (time limit)"}.get(
            str(reply.get("why")), "stopped")
        return Verdict(ex.id, "error", f"not judged: the judging process {how}{in_ex}, "
                                       f"before it reached {name}")
    if status == "not-done":
        return Verdict(ex.id, "not-done", "")
    if status == "not-callable":
        return Verdict(ex.id, "fail", f"需要一个函数 (expected a function), {name} is "
                                      f"{_a_value_of(reply.get('type'))}")
    if status == "library":
        lib = reply.get("name")
        lib = lib if lib in ex.forbidden else "a library function"
        return Verdict(ex.id, "fail", f"{name} is {lib}: the "
                                      "library's own function, not an answer written for "
                                      "this exercise")
    if ex.kind == "value":
        if status == "unserialisable":
            return Verdict(ex.id, "fail", f"不是普通的值 (not a plain value): {name} is "
                                          f"{_a_value_of(reply.get('type'))}; expected "
                                          "numbers, strings, lists, tuples")
        if status != "value":
            return Verdict(ex.id, "error", "the kernel's reply is not a judging result")
        try:
            got = decode(reply.get("value"))
        except (ValueError, TypeError, RecursionError) as exc:
            return Verdict(ex.id, "fail", f"{name} could not be read as a plain value: {exc}")
        for case in cases:
            ok, detail = verdict(ex, case, got)
            if not ok:
                return Verdict(ex.id, "fail", _short(detail, 600))
        return Verdict(ex.id, "pass", "答案正确")
    results = reply.get("results", [])
    if type(results) is not list or len(results) > len(cases):
        return Verdict(ex.id, "error", "the kernel's reply is not a judging result")
    for k, item in enumerate(results):
        case = cases[k]
        if type(item) is not dict:
            return Verdict(ex.id, "error", "the kernel's reply is not a judging result")
        try:
            got = decode(item.get("value"))
            after = item.get("after")
            after = decode(after) if after is not None else None
        except (ValueError, TypeError, RecursionError) as exc:
            return Verdict(ex.id, "fail", f"输入 (input): {_short(shown_input(case))}; the "
                                          f"answer's value could not be read: {exc}")
        if after is None or type(after) is not list:
            return Verdict(ex.id, "fail", f"输入 (input): {_short(shown_input(case))}; your "
                                          "answer changed its input into something that is "
                                          "not a plain value")
        ok, detail = verdict(ex, case, got, tuple(after))
        if not ok:
            label = " (a hidden case)" if k >= len(cases) - hidden else ""
            return Verdict(ex.id, "fail", _short(detail, 600) + label)
    where = len(results)
    shown = _short(shown_input(cases[where])) if where < len(cases) else ""
    shown = shown or "(无 / none)"  # an exercise with no input, as the notebook says
    if status == "done":
        if len(results) != len(cases):
            return Verdict(ex.id, "error", "the kernel's reply is incomplete")
        n = len(cases)
        extra = f" (其中 {hidden} 个随机隐藏用例 / {hidden} hidden)" if hidden else ""
        return Verdict(ex.id, "pass", f"{n}/{n} 个测试用例{extra}")
    if status == "forbidden":
        name = reply.get("name")
        name = name if name in ex.forbidden else "a library function"
        return Verdict(ex.id, "fail", f"输入 (input): {shown}; your answer calls {name}, "
                                      "the function this exercise asks you to write: it is "
                                      "unavailable while your answer is judged")
    if status == "raised":
        # a name or module the answer needs that a cell IPython runs, and the world does
        # not, should have made (a helper written by %%bash): that cell named too
        notes = _cell_errors(reply.get("errors"))
        return Verdict(ex.id, "error", f"输入 (input): {shown}; your answer raised "
                                       f"{_type_name(reply.get('type'))}: "
                                       f"{_said(reply.get('message'))}"
                                       + (f"; where it is judged: {notes}" if notes else ""))
    if status == "unserialisable":
        return Verdict(ex.id, "fail", f"输入 (input): {shown}; 返回的不是普通的值 (not a plain "
                                      f"value): the answer returned "
                                      f"{_a_value_of(reply.get('type'))}; expected numbers, "
                                      "strings, lists, tuples, dicts, sets")
    return Verdict(ex.id, "error", f"the kernel's reply has an unknown status "
                                   f"{_short(status, 40)!r}")


# --- the kernel in its sandbox ----------------------------------------------------------

_LIVE: set[Sandbox] = set()
_LIVE_LOCK = threading.Lock()


def kill_all() -> int:
    """Kill every sandbox this process is running (Ctrl-C); returns how many."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for box in live:
        box.kill()
    return len(live)


@dataclass
class CellRun:
    error: str = ""            # "NameError: ..." when the cell raised
    result: str | None = None  # text/plain of the cell's execute_result


@dataclass
class Submission:
    """One submission's kernel in one sandbox. ``start()``, then ``run_cell`` /
    ``judge`` until ``deadline``; ``close()`` kills it all and removes the work folder."""

    notebook_path: Path
    timeout: float
    limits: Limits = field(default_factory=Limits)
    startup_timeout: float = 60.0
    kind: str | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))
    data: bytes | None = None  # the submission's bytes, read once by the caller

    def __post_init__(self) -> None:
        if closing():
            raise KernelFailed("the check was interrupted: no new kernel")
        self.sandbox = Sandbox(self.limits, kind=self.kind)
        with _LIVE_LOCK:
            _LIVE.add(self.sandbox)
        self.client: Any = None
        self.deadline = math.inf
        self._log = tempfile.TemporaryFile()

    # -- life cycle -------------------------------------------------------------------

    def start(self) -> None:
        from jupyter_client import BlockingKernelClient
        from jupyter_client.connect import write_connection_file

        target = self.sandbox.nbdir / self.notebook_path.name
        if self.data is not None:
            target.write_bytes(self.data)
        else:
            shutil.copyfile(self.notebook_path, target)
        conn = self.sandbox.workdir / "kernel.json"
        write_connection_file(str(conn), transport="ipc", ip=str(self.sandbox.ipcdir / "k"),
                              key=secrets.token_hex(32).encode())
        os.chmod(conn, 0o644)
        cmd = [os.path.abspath(sys.executable), "-m", "ipykernel_launcher", "-f", str(conn),
               "--HistoryManager.enabled=False"]
        self.sandbox.start(cmd, stdout=subprocess.DEVNULL, stderr=self._log)
        import zmq

        client = BlockingKernelClient(context=zmq.Context())
        client.context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)  # every channel's socket
        client.load_connection_file(str(conn))
        client.start_channels(hb=False)  # no heartbeat thread: alive() watches the kernel
        self.client = client
        t_end = time.monotonic() + self.startup_timeout
        while True:
            if not self.sandbox.alive():
                raise KernelFailed(f"the kernel did not start: {self._stderr_tail()}")
            try:
                client.kernel_info()
                reply = client.get_shell_msg(timeout=1)
                if reply["msg_type"] == "kernel_info_reply":
                    # IOPub is a subscription: what the kernel publishes before it is
                    # connected is lost, and a cell whose "idle" is lost looks hung until
                    # the deadline. The shell can answer first (a loaded machine, the
                    # subscriber's reconnect interval), so ready means a message on IOPub
                    # too (the kernel_info's own status, or ipykernel's welcome); else ask
                    # again, as jupyter_client's wait_for_ready does.
                    client.get_iopub_msg(timeout=0.2)
                    break
            except queue.Empty:
                pass
            except PROTOCOL_ERRORS as exc:
                raise KernelFailed(_protocol(exc)) from None
            if time.monotonic() > t_end:
                raise KernelFailed(f"the kernel did not start within "
                                   f"{self.startup_timeout:g} s: {self._stderr_tail()}")
        self.sandbox.seal_sockets()
        while True:  # drain the start-up messages
            try:
                client.get_iopub_msg(timeout=0.05)
            except queue.Empty:
                break
            except PROTOCOL_ERRORS as exc:
                raise KernelFailed(_protocol(exc)) from None
        self.deadline = time.monotonic() + self.timeout  # start-up is not counted

    def _hold_memory(self, limit: int) -> None:
        """``--memory`` for the whole submission: RLIMIT_AS bounds each process, and a
        submission that forks could hold it in every one; the sum of their resident
        memory past ``limit`` kills the sandbox (looked at every ``MEMORY_LOOK`` s while
        a cell runs, so it may be passed for that long)."""
        held = self.sandbox.memory_held()
        if held > limit:
            self.sandbox.kill()
            raise KernelFailed(f"the submission's processes held {held / 1024 ** 2:.0f} MiB "
                               f"in all, more than --memory ({limit / 1024 ** 2:.0f} MiB): "
                               "stopped")

    def _stderr_tail(self) -> str:
        try:
            self._log.seek(0, 2)
            size = self._log.tell()
            self._log.seek(max(0, size - 2000))
            lines = self._log.read().decode("utf-8", "replace").strip().splitlines()
            return _said(lines[-1], 150) if lines else "no message"
        except OSError:
            return "no message"

    def close(self) -> None:
        if self.client is not None:
            try:
                self.client.stop_channels()
                self.client.context.destroy(linger=0)
            except Exception:  # pragma: no cover - closing sockets of a dead kernel
                pass
        self.sandbox.close()
        with _LIVE_LOCK:
            _LIVE.discard(self.sandbox)
        self._log.close()

    def __enter__(self) -> Submission:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- running cells ----------------------------------------------------------------

    def run_cell(self, code: str, *, want_result: bool = False) -> CellRun:
        """Execute ``code``; wait for its reply until the deadline (then kill, raise
        ``Timeout``). Only messages answering this request are read."""
        client = self.client
        msg_id = client.execute(code, silent=False, store_history=not want_result,
                                allow_stdin=False, stop_on_error=False)
        run = CellRun()
        size = 0
        idle = False
        next_look = 0.0
        while not idle:
            now = time.monotonic()
            remaining = self.deadline - now
            if remaining <= 0:
                self.sandbox.kill()
                raise Timeout()
            if self.limits.memory is not None and now >= next_look:
                next_look = now + MEMORY_LOOK
                self._hold_memory(self.limits.memory)
            if not self.sandbox.alive():
                raise KernelFailed("the kernel died")
            try:
                msg = client.get_iopub_msg(timeout=min(remaining, MEMORY_LOOK))
            except queue.Empty:
                continue
            except PROTOCOL_ERRORS as exc:  # bytes the kernel wrote on its own sockets
                self.sandbox.kill()
                raise KernelFailed(_protocol(exc)) from None
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg.get("msg_type"), msg.get("content", {})
            if kind == "status" and content.get("execution_state") == "idle":
                idle = True
            elif kind == "error" and not run.error:
                run.error = (f"{_type_name(content.get('ename'))}: "
                             f"{_said(content.get('evalue'), 120)}")
            elif kind == "execute_result" and want_result and run.result is None:
                text = content.get("data", {}).get("text/plain", "")
                text = "".join(text) if isinstance(text, list) else str(text)
                size += len(text)
                if size <= MAX_REPLY:
                    run.result = text
        return run


# --- a whole notebook -------------------------------------------------------------------

def check_notebook(path: Path, nb, exercises: Sequence[Any], timeout: float,
                   limits: Limits | None = None, kind: str | None = None,
                   on_note: Callable[[str], None] | None = None,
                   data: bytes | None = None) -> list[Verdict]:
    """Run notebook ``nb`` (read from ``path``) in a sandbox and judge ``exercises``.

    The notebook runs in a kernel (its errors and a hang are noted). The values judged
    come from ``bleu_lesson.grading.world``: the code cells run again in a process where
    the exercise's reference does not exist, and the answers are called there (one world
    for the exercises that need no library, one for each set of libraries given).
    """
    sub = Submission(Path(path), timeout, limits or Limits(), kind=kind, data=data)
    hidden = {ex.id: ex.hidden_cases(sub.rng) for ex in exercises}
    first_error = ""
    hung = ""
    hung_at = -1
    failed = ""
    cells = [(i, c) for i, c in enumerate(nb.cells) if c.get("cell_type") == "code"]
    try:
        try:
            sub.start()
        except KernelFailed as exc:
            failed = str(exc)
        current = -1
        try:
            for index, cell in cells if not failed else ():
                current = index
                source = cell.get("source", "")
                source = "".join(source) if isinstance(source, list) else source
                if not source.strip():
                    continue
                run = sub.run_cell(source)
                if run.error and not first_error:
                    first_error = f"cell {index} raised {run.error}"
        except Timeout:
            hung = _cell_name(nb, current) if current >= 0 else "judging the answers"
            hung_at = current if current >= 0 else len(nb.cells)
        except KernelFailed as exc:
            where = _cell_name(nb, current) if current >= 0 else "judging"
            failed = f"{exc} ({where})"
    finally:
        sub.close()
    world: dict[str, Any] = {}
    if not failed:  # the cells the kernel ran (not the one that hung)
        for group in _world_groups(exercises):
            world.update(judge_in_world(group, nb, {ex.id: _cases(ex, hidden) for ex in group},
                                        timeout, limits, kind,
                                        before=hung_at if hung else None))
    out = []
    for ex in exercises:
        if failed:
            v = Verdict(ex.id, "error", failed)
        else:
            reply = world[ex.id]
            cases = _cases(ex, hidden)
            if reply.get("status") == "world-failed":
                status = "timeout" if hung or "did not finish" in str(reply.get("why")) \
                    else "error"
                why = _short(reply.get("why"), 200)
                v = Verdict(ex.id, status, f"{why} ({hung} hung in the kernel)" if hung
                            else why)
            elif hung and reply.get("status") == "missing":
                v = Verdict(ex.id, "timeout", f"did not finish within {timeout:g} s: "
                                              f"{hung} hung")
            else:
                v = _judged(ex, reply, cases, len(cases) - len(ex.cases))
                if hung:
                    v = Verdict(ex.id, v.status, _join(v.detail, (
                        f"the notebook did not finish within {timeout:g} s in the kernel "
                        f"({hung} hung); judged without that cell")))
        if first_error and v.status not in ("pass", "self-assessed") and not failed:
            v = Verdict(v.exercise, v.status, _join(v.detail, first_error))
        out.append(v)
    return out


def _judged(ex, reply: Any, cases: list[tuple], hidden: int) -> Verdict:
    """``judge_exercise``, whose failure on a value (a trusted judge that cannot read it)
    is this exercise's ``error`` row, never the whole submission's."""
    try:
        return judge_exercise(ex, reply, cases, hidden)
    except Exception as exc:  # noqa: BLE001 - one value must not cost the chapter's rows
        return Verdict(ex.id, "error", f"the checker could not judge the value the answer "
                                       f"returned ({type(exc).__name__})")


def _world_groups(exercises: Sequence[Any]) -> list[list[Any]]:
    """The exercises judged in one world together: those given the same libraries (most
    are given none) and the same building blocks, so that a library or a block is in the
    world of the exercises that give it only (8.1 and 8.2 both give sacrebleu; only 8.2
    has the forensics data)."""
    groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[Any]] = {}
    for ex in exercises:
        key = (tuple(sorted(ex.libraries)), tuple(sorted(ex.building_blocks)))
        groups.setdefault(key, []).append(ex)
    return list(groups.values())


def _cases(ex, hidden: dict[str, list[tuple]]) -> list[tuple]:
    """The cases ``ex`` is judged on: its fixed ones, and the hidden draw for a function
    (a "value" answer is judged on the fixed cases only, as in the notebook)."""
    fixed = [tuple(c) for c in ex.cases]
    return fixed if ex.kind == "value" else fixed + hidden[ex.id]


def _join(detail: str, note: str) -> str:
    return f"{detail}; {note}" if detail else note


def _cell_name(nb, index: int) -> str:
    cell = nb.cells[index]
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else source
    first = next((line.strip() for line in source.splitlines() if line.strip()), "")
    return f"cell {index} ({_short(first, 60)!r})"
