"""Judging a submission: untrusted code computes in a sandboxed kernel, trusted code judges.

``Submission`` runs one notebook in a Jupyter kernel inside a ``bleu_lesson.grading.sandbox``
and asks it for values. The protocol, and why a kernel cannot forge a verdict:

1. The checker (this process) starts the kernel in the sandbox, connects to it over
   Unix sockets in the sandbox's work folder, and sends the submission's code cells
   one by one. What those cells print is never read: only errors are noted.
2. To judge exercise ``X``, the checker sends a cell of its own with the exercise's
   inputs: the fixed cases and hidden ones drawn from a seed made here, that the
   kernel never sees. The cell looks the answer up by name, makes the library
   functions the exercise asks the learner to write unavailable (their ``__code__`` is
   swapped for one that raises, so every reference to them fails, and an answer that
   *is* a library function is refused), calls the answer on each input, and returns,
   as the cell's result, JSON holding only plain values: ``None``, bools, ints, floats,
   strings, lists, tuples, dicts, sets and ``BleuStats``, converted with exact type
   checks (an ``int`` subclass arrives as its plain ``int`` value) and the inputs as
   they were after each call.
3. The checker reads the result only from the reply to the cell it sent (matching
   message id), decodes it into fresh objects of exactly those types, and compares
   them here, with the exercise's tolerance or its ``judge``. The verdict is made in
   this process; the kernel never sees the expected values.

The kernel is treated as hostile: it can send back anything, but anything is only a
value, judged like any other. Forging a value means computing the right one, which is
solving the exercise. The stubbed functions' original code objects are kept in no
frame the answer can walk to (``sys._getframe``): while the answer runs they exist
nowhere in the judging cell, and afterwards each function gets its code back compiled
afresh from its module's source.

The limit of step 2 (not closed, and not closable by stubbing inside a kernel the
student owns): an answer that kept a copy of a library function's code earlier in the
notebook (``__code__``, or the function), replaced ``types.FunctionType``, hooked the
kernel (an IPython input transformer rewriting the judging cell), loaded a fresh copy
of the library module with ``importlib``, computed the value with nltk or sacrebleu, or
holds a lookup table of a small input space (exercise 4.1's hidden inputs) gets the
right values, and a right value is a pass. That is copying, not a forged verdict, and
outside what a checker can decide: review suspicious answers by reading them.
``nbgrader autograde`` has the same limit (its tests run in the student's kernel).
"""

from __future__ import annotations

import ast
import json
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

from .sandbox import Limits, Sandbox

__all__ = ["Submission", "Verdict", "encode", "decode", "Timeout", "KernelFailed",
           "judge_exercise"]

MAX_REPLY = 4 * 1024 ** 2  # bytes of JSON read back from one judging cell
#: The largest message the checker accepts from a kernel (ZMQ drops the connection of a
#: kernel that sends more: its output cannot swell the checker).
MAX_MESSAGE = 8 * 1024 ** 2


class Timeout(Exception):
    """The wall-clock limit was reached; the sandbox has been killed."""


class KernelFailed(Exception):
    """The kernel did not start, or died."""


@dataclass(frozen=True)
class Verdict:
    exercise: str
    status: str        # pass, fail, not-done, error
    detail: str = ""


# --- values: the only thing that crosses the sandbox's boundary -------------------------

def encode(value: Any, _depth: int = 0) -> Any:
    """Trusted values -> JSON-able data with tags for tuples, dicts, sets, non-finite
    floats and ``BleuStats`` (inputs sent to the kernel).

    >>> encode([("the", "cat"), 0.5, float("inf")])
    [{'__tuple__': ['the', 'cat']}, 0.5, {'__float__': 'inf'}]
    """
    from bleu_lesson.core.stats import BleuStats

    if _depth > 100:
        raise ValueError("value nested too deeply")
    t = type(value)
    if value is None or t in (bool, int, str):
        return value
    if t is float:
        return value if math.isfinite(value) else {"__float__": repr(value)}
    if t is list:
        return [encode(v, _depth + 1) for v in value]
    if t is tuple:
        return {"__tuple__": [encode(v, _depth + 1) for v in value]}
    if t is dict:
        return {"__dict__": [[encode(k, _depth + 1), encode(v, _depth + 1)]
                             for k, v in value.items()]}
    if t in (set, frozenset):
        return {"__set__": [encode(v, _depth + 1) for v in value]}
    if t is BleuStats:
        return {"__BleuStats__": [value.hyp_len, value.ref_len, list(value.matches),
                                  list(value.totals)]}
    raise TypeError(f"cannot send a {t.__name__} to the kernel")


#: Bounds of one decoded value: nodes in all, and entries of sets and dicts in all. The
#: second keeps hashing cheap whatever the kernel sends: ints (and tuples of ints) hash
#: alike on purpose cost a set quadratic time, so no reply may hold many of them.
MAX_NODES = 1_000_000
MAX_HASHED = 2_000


def decode(data: Any, _depth: int = 0, _budget: list[int] | None = None) -> Any:
    """JSON data from the kernel -> fresh values of exactly the plain types; raises
    ``ValueError`` for anything else (the kernel is not trusted to send valid data), and
    for a value of more than ``MAX_NODES`` parts or ``MAX_HASHED`` set and dict entries.

    >>> decode([{"__tuple__": ["the", "cat"]}, 1])
    [('the', 'cat'), 1]
    >>> decode({"__class__": "os.system"})
    Traceback (most recent call last):
    ...
    ValueError: not a plain value: {'__class__': 'os.system'}
    >>> decode({"__set__": list(range(3000))})
    Traceback (most recent call last):
    ...
    ValueError: more than 2000 set or dict entries
    """
    from bleu_lesson.core.stats import BleuStats

    budget = _budget if _budget is not None else [MAX_NODES, MAX_HASHED]
    budget[0] -= 1
    if budget[0] < 0:
        raise ValueError(f"a value of more than {MAX_NODES} parts")
    if _depth > 100:
        raise ValueError("value nested too deeply")
    t = type(data)
    if data is None or t in (bool, int, float, str):
        return data
    if t is list:
        return [decode(v, _depth + 1, budget) for v in data]
    if t is dict and len(data) == 1:
        (tag, body), = data.items()
        if tag == "__tuple__" and type(body) is list:
            return tuple(decode(v, _depth + 1, budget) for v in body)
        if tag == "__float__" and body in ("nan", "inf", "-inf"):
            return float(body)
        if tag in ("__dict__", "__set__") and type(body) is list:
            budget[1] -= len(body)
            if budget[1] < 0:
                raise ValueError(f"more than {MAX_HASHED} set or dict entries")
        if tag == "__dict__" and type(body) is list:
            out = {}
            for pair in body:
                if type(pair) is not list or len(pair) != 2:
                    raise ValueError("malformed dict entry")
                key = decode(pair[0], _depth + 1, budget)
                try:
                    hash(key)
                except TypeError:
                    raise ValueError("unhashable dict key") from None
                out[key] = decode(pair[1], _depth + 1, budget)
            return out
        if tag == "__set__" and type(body) is list:
            items = [decode(v, _depth + 1, budget) for v in body]
            try:
                return set(items)
            except TypeError:
                raise ValueError("unhashable set element") from None
        if tag == "__BleuStats__" and type(body) is list and len(body) == 4:
            h, r, m, tt = body
            if not (type(h) is int and type(r) is int and type(m) is list
                    and type(tt) is list and all(type(x) is int for x in m + tt)):
                raise ValueError("malformed BleuStats")
            return BleuStats(h, r, tuple(m), tuple(tt))
    raise ValueError(f"not a plain value: {str(data)[:80]}")


# The code the checker sends to judge one exercise. It runs in the hostile kernel, so
# nothing it computes is trusted: it only turns the answer's results into JSON.
CHILD_SOURCE = r'''
def __bleu_lesson_judge__(name, kind, forbidden, cases_json, marker):
    import importlib, json, math, types
    ns = globals()
    class Unserialisable(Exception):
        pass
    try:
        from bleu_lesson.core.stats import BleuStats
    except Exception:
        BleuStats = None
    def enc(x, depth=0):
        if depth > 100:
            raise Unserialisable("a value nested more than 100 deep")
        t = type(x)
        if x is None or t is bool:
            return x
        if isinstance(x, bool):
            return bool(x)
        if isinstance(x, int):
            return int.__int__(x)
        if isinstance(x, float):
            v = float.__float__(x)
            return v if math.isfinite(v) else {"__float__": repr(v)}
        if isinstance(x, str):
            return str.__str__(x)
        if isinstance(x, list):
            return [enc(v, depth + 1) for v in list.__iter__(x)]
        if isinstance(x, tuple):
            return {"__tuple__": [enc(v, depth + 1) for v in tuple.__iter__(x)]}
        if isinstance(x, dict):
            return {"__dict__": [[enc(k, depth + 1), enc(v, depth + 1)]
                                 for k, v in dict.items(x)]}
        if isinstance(x, (set, frozenset)):
            items = set.__iter__(x) if isinstance(x, set) else frozenset.__iter__(x)
            return {"__set__": [enc(v, depth + 1) for v in items]}
        if BleuStats is not None and t is BleuStats:
            return {"__BleuStats__": [enc(x.hyp_len), enc(x.ref_len),
                                      enc(list(x.matches)), enc(list(x.totals))]}
        if getattr(t, "__module__", "") == "numpy" and hasattr(x, "tolist"):
            return enc(x.tolist(), depth + 1)
        raise Unserialisable(t.__name__)
    def dec(x):
        if type(x) is list:
            return [dec(v) for v in x]
        if type(x) is dict:
            (tag, body), = x.items()
            if tag == "__tuple__":
                return tuple(dec(v) for v in body)
            if tag == "__float__":
                return float(body)
            if tag == "__dict__":
                return {dec(k): dec(v) for k, v in body}
            if tag == "__set__":
                return {dec(v) for v in body}
            if tag == "__BleuStats__":
                return BleuStats(body[0], body[1], tuple(body[2]), tuple(body[3]))
        return x
    def resolve(dotted):
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
            return obj
        raise ImportError(dotted)
    def reply(**kw):
        return json.dumps(kw)
    if name not in ns:
        return reply(status="missing")
    answer = ns[name]
    if answer is ... or answer is NotImplemented:
        return reply(status="not-done")
    if kind == "function" and not callable(answer):
        return reply(status="not-callable", type=type(answer).__name__)
    try:
        module = getattr(answer, "__module__", None)
    except Exception:
        module = None
    if isinstance(module, str) and (module == "bleu_lesson" or module.startswith("bleu_lesson.")):
        qualname = str(getattr(answer, "__qualname__", "?"))
        return reply(status="library", name=module + "." + qualname)
    # The originals' code objects are kept nowhere: an answer can walk up to this frame
    # (sys._getframe) and would rebuild the real function from them. Only the stubbed
    # function objects are listed; afterwards each gets its code back compiled afresh
    # from its module's source, inline below (a helper here would be an oracle).
    stubbed = []
    copied = False
    for dotted in forbidden:
        try:
            func = resolve(dotted)
        except Exception:
            continue
        func = getattr(func, "__func__", func)
        if not isinstance(func, types.FunctionType) or func.__closure__:
            continue
        try:
            copied = copied or getattr(answer, "__code__", None) == func.__code__
        except Exception:
            pass
        stub_ns = {}
        exec("def stub(*args, **kwargs):\n    raise RuntimeError(%r)\n"
             % (marker + dotted + " is the function this exercise asks you to write; it "
                "is unavailable while your answer is judged"), {}, stub_ns)
        func.__code__ = stub_ns["stub"].__code__
        stubbed.append(func)
    func = stub_ns = None
    try:
        if copied:
            return reply(status="library", name="a copy of a library function")
        if kind == "value":
            try:
                return reply(status="value", value=enc(answer))
            except Unserialisable as exc:
                return reply(status="unserialisable", type=str(exc))
        results = []
        for case in json.loads(cases_json):
            args = dec(case)
            try:
                got = answer(*args)
            except NotImplementedError:
                return reply(status="not-done", results=results)
            except Exception as exc:
                text = str(exc)
                if marker in text:
                    return reply(status="forbidden", index=len(results),
                                 name=text.split(marker, 1)[1].split(" ", 1)[0],
                                 results=results)
                return reply(status="raised", index=len(results), type=type(exc).__name__,
                             message=text[:500], results=results)
            if got is ... or got is NotImplemented:
                return reply(status="not-done", results=results)
            try:
                value = enc(got)
            except Unserialisable as exc:
                return reply(status="unserialisable", index=len(results), type=str(exc),
                             results=results)
            try:
                after = enc(list(args))
            except Unserialisable:
                after = None
            results.append({"value": value, "after": after})
        return reply(status="done", results=results)
    finally:
        import importlib.util
        for func in stubbed:
            try:
                spec = importlib.util.find_spec(func.__module__)
                todo = [("", compile(spec.loader.get_source(func.__module__), spec.origin,
                                     "exec"))]
                fresh = []
                while todo:  # (qualname prefix, code): class bodies and functions nest
                    prefix, code = todo.pop()
                    for c in code.co_consts:
                        if isinstance(c, types.CodeType):
                            if prefix + c.co_name == func.__qualname__:
                                fresh.append(c)
                            todo.append((prefix + c.co_name + ".", c))
                func.__code__ = fresh[-1]
            except Exception:
                pass  # the library stays stubbed in this kernel: only this notebook suffers
'''


def _child_cell(name: str, kind: str, forbidden: Sequence[str], cases: list[tuple],
                marker: str) -> str:
    payload = json.dumps([encode(list(c)) for c in cases])
    return (CHILD_SOURCE + f"\n__bleu_lesson_judge__({name!r}, {kind!r}, "
            f"{list(forbidden)!r}, {payload!r}, {marker!r})\n")


def _short(text: object, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def judge_exercise(ex, reply: Any, cases: list[tuple], hidden: int) -> Verdict:
    """The verdict on exercise ``ex`` from the kernel's ``reply`` (untrusted JSON data)
    to the cases sent; every comparison happens here. An exercise with a ``rubric`` is
    never ``pass``: when its numbers hold it is ``self-assessed``."""
    v = _judge_values(ex, reply, cases, hidden)
    if getattr(ex, "rubric", "") and v.status == "pass":
        return Verdict(ex.id, "self-assessed", "the numbers hold; what a program cannot "
                                               "judge is for a person: " + _short(ex.rubric))
    return v


def _judge_values(ex, reply: Any, cases: list[tuple], hidden: int) -> Verdict:
    from bleu_lesson.teaching.checking import shown_input, verdict

    name = ex.answer_name
    if type(reply) is not dict or type(reply.get("status")) is not str:
        return Verdict(ex.id, "error", "the kernel's reply is not a judging result")
    status = reply["status"]
    if status == "missing":
        errors = reply.get("errors")
        why = ""
        if type(errors) is list and errors and all(type(e) is str for e in errors):
            blocks = ", ".join(ex.building_blocks) or "none"
            why = (f" where it is judged (only the standard library and the building blocks "
                   f"bleu_lesson.core.{{{blocks}}} exist there): " + _short("; ".join(errors)))
        return Verdict(ex.id, "not-done", f"{name} is not defined" + why)
    if status == "not-done":
        return Verdict(ex.id, "not-done", "")
    if status == "not-callable":
        return Verdict(ex.id, "fail", f"需要一个函数 (expected a function), {name} is a "
                                      f"{_short(reply.get('type'), 60)}")
    if status == "library":
        return Verdict(ex.id, "fail", f"{name} is {_short(reply.get('name'), 120)}: the "
                                      "library's own function, not an answer written for "
                                      "this exercise")
    if ex.kind == "value":
        if status == "unserialisable":
            return Verdict(ex.id, "fail", f"{name} is an object of type "
                                          f"{_short(reply.get('type'), 60)}, not a plain "
                                          "value (numbers, strings, lists, tuples)")
        try:
            got = decode(reply.get("value"))
        except (ValueError, TypeError, RecursionError) as exc:
            return Verdict(ex.id, "error", f"the kernel sent back no value: {exc}")
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
        return Verdict(ex.id, "error", f"输入 (input): {shown}; {_short(reply.get('type'), 60)}"
                                       f": {_short(reply.get('message'), 300)}")
    if status == "unserialisable":
        return Verdict(ex.id, "fail", f"输入 (input): {shown}; the answer returned an object "
                                      f"of type {_short(reply.get('type'), 60)}, not a plain "
                                      "value (numbers, strings, lists, tuples, dicts, sets)")
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
        from .sandbox import closing

        if closing():
            raise KernelFailed("the check was interrupted: no new kernel")
        self.sandbox = Sandbox(self.limits, kind=self.kind)
        with _LIVE_LOCK:
            _LIVE.add(self.sandbox)
        self.client: Any = None
        self.deadline = math.inf
        self.marker = "BLEU-LESSON-UNAVAILABLE-" + secrets.token_hex(8) + ": "
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
        client.start_channels()
        self.client = client
        t_end = time.monotonic() + self.startup_timeout
        while True:
            if not self.sandbox.alive():
                raise KernelFailed(f"the kernel did not start: {self._stderr_tail()}")
            try:
                client.kernel_info()
                reply = client.get_shell_msg(timeout=1)
                if reply["msg_type"] == "kernel_info_reply":
                    break
            except queue.Empty:
                pass
            if time.monotonic() > t_end:
                raise KernelFailed(f"the kernel did not start within "
                                   f"{self.startup_timeout:g} s: {self._stderr_tail()}")
        self.sandbox.seal_sockets()
        while True:  # drain the start-up messages
            try:
                client.get_iopub_msg(timeout=0.05)
            except queue.Empty:
                break
        self.deadline = time.monotonic() + self.timeout  # start-up is not counted

    def _stderr_tail(self) -> str:
        try:
            self._log.seek(0, 2)
            size = self._log.tell()
            self._log.seek(max(0, size - 2000))
            lines = self._log.read().decode("utf-8", "replace").strip().splitlines()
            return lines[-1] if lines else "no message"
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
        while not idle:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                self.sandbox.kill()
                raise Timeout()
            if not self.sandbox.alive():
                raise KernelFailed("the kernel died")
            try:
                msg = client.get_iopub_msg(timeout=min(remaining, 0.5))
            except queue.Empty:
                continue
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg.get("msg_type"), msg.get("content", {})
            if kind == "status" and content.get("execution_state") == "idle":
                idle = True
            elif kind == "error" and not run.error:
                run.error = _short(f"{content.get('ename')}: {content.get('evalue')}", 300)
            elif kind == "execute_result" and want_result and run.result is None:
                text = content.get("data", {}).get("text/plain", "")
                text = "".join(text) if isinstance(text, list) else str(text)
                size += len(text)
                if size <= MAX_REPLY:
                    run.result = text
        return run

    def judge(self, ex, hidden_cases: list[tuple] | None = None) -> Verdict:
        """Judge exercise ``ex``: its fixed cases and ``hidden_cases``."""
        hidden = list(hidden_cases or [])
        cases = [tuple(c) for c in ex.cases] + hidden
        if ex.kind == "value":
            cases = [tuple(c) for c in ex.cases]
            hidden = []
        code = _child_cell(ex.answer_name, ex.kind, ex.forbidden, cases, self.marker)
        run = self.run_cell(code, want_result=True)
        if run.result is None:
            return Verdict(ex.id, "error", "judging raised in the kernel: " + (run.error or
                                                                               "no result"))
        try:
            reply = json.loads(ast.literal_eval(run.result))
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            return Verdict(ex.id, "error", "the kernel's reply is not a judging result")
        return judge_exercise(ex, reply, cases, len(hidden))


# --- a whole notebook -------------------------------------------------------------------

_CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](\d+\.\d+)["']""")


def check_notebook(path: Path, nb, exercises: Sequence[Any], timeout: float,
                   limits: Limits | None = None, kind: str | None = None,
                   on_note: Callable[[str], None] | None = None,
                   data: bytes | None = None) -> list[Verdict]:
    """Run notebook ``nb`` (read from ``path``) in a sandbox and judge ``exercises``.

    The notebook runs in a kernel (its errors and a hang are noted). The values judged
    come from ``bleu_lesson.grading.world``: the code cells run again in a process where
    the exercise's reference does not exist, and the answers are called there. Only an
    exercise marked ``in_kernel`` (its answer runs sacrebleu itself) is judged in the
    kernel, right after the cell that checks it (so a later hang still leaves a real
    verdict) and again after the last cell.
    """
    from .world import judge_in_world

    sub = Submission(Path(path), timeout, limits or Limits(), kind=kind, data=data)
    # separate draws: the inputs the kernel saw at an early verdict are not the final ones
    early = {ex.id: ex.hidden_cases(sub.rng) for ex in exercises}
    hidden = {ex.id: ex.hidden_cases(sub.rng) for ex in exercises}
    by_id = {ex.id: ex for ex in exercises if ex.in_kernel}
    in_world = [ex for ex in exercises if not ex.in_kernel]
    judged: dict[str, tuple[Verdict, int]] = {}
    first_error = ""
    hung = ""
    hung_at = -1
    failed = ""
    kernel: dict[str, Verdict] = {}
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
                for ex_id in dict.fromkeys(_CHECK_CALL.findall(source)):
                    if ex_id in by_id:
                        judged[ex_id] = (sub.judge(by_id[ex_id], early[ex_id]), index)
            current = -1
            if not failed:
                kernel = {ex.id: sub.judge(ex, hidden[ex.id]) for ex in by_id.values()}
        except Timeout:
            hung = _cell_name(nb, current) if current >= 0 else "judging the answers"
            hung_at = current if current >= 0 else len(nb.cells)
        except KernelFailed as exc:
            where = _cell_name(nb, current) if current >= 0 else "judging"
            failed = f"{exc} ({where})"
    finally:
        sub.close()
    world: dict[str, Any] = {}
    if in_world and not failed:  # the cells the kernel ran (not the one that hung)
        world = judge_in_world(in_world, nb, {ex.id: [tuple(c) for c in ex.cases] +
                                              hidden[ex.id] for ex in in_world},
                               timeout, limits, kind, before=hung_at if hung else None)
    out = []
    for ex in exercises:
        if failed:
            v = Verdict(ex.id, "error", failed)
        elif ex.in_kernel and hung:
            if ex.id in judged:
                v, idx = judged[ex.id]
                v = Verdict(ex.id, v.status, _join(v.detail, (
                    f"judged after cell {idx}; then the notebook did not finish within "
                    f"{timeout:g} s ({hung} hung)")))
            else:
                v = Verdict(ex.id, "timeout", f"did not finish within {timeout:g} s: "
                                              f"{hung} hung")
        elif ex.in_kernel:
            v = kernel[ex.id]
        else:
            reply = world[ex.id]
            cases = [tuple(c) for c in ex.cases] + hidden[ex.id]
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
                v = judge_exercise(ex, reply, cases, len(hidden[ex.id]))
                if hung:
                    v = Verdict(ex.id, v.status, _join(v.detail, (
                        f"the notebook did not finish within {timeout:g} s in the kernel "
                        f"({hung} hung); judged without that cell")))
        if first_error and v.status not in ("pass", "self-assessed") and not failed:
            v = Verdict(v.exercise, v.status, _join(v.detail, first_error))
        out.append(v)
    return out


def _join(detail: str, note: str) -> str:
    return f"{detail}; {note}" if detail else note


def _cell_name(nb, index: int) -> str:
    cell = nb.cells[index]
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else source
    first = next((line.strip() for line in source.splitlines() if line.strip()), "")
    return f"cell {index} ({_short(first, 60)!r})"
