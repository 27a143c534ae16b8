"""The judging child: runs a submission's cells in a world without the answer key.

This file is copied, alone, into a *world* folder that ``bleu_lesson.grading.world``
builds for one exercise, and run there as a script by an interpreter started with
``-I -S`` (no site-packages: no NLTK, sacrebleu or numpy) inside the sandbox, whose file
system holds the standard library and that folder only. The world's ``bleu_lesson`` has
only the building blocks the exercise allows (copies of earlier chapters' modules); the
exercise's reference is physically absent. Any other ``bleu_lesson`` module, and the
libraries a chapter shows (widgets, plots, sacrebleu), import as *absent*: an object that
accepts every call and attribute and computes nothing, so a cell that shows a widget still
defines what comes after it, and an answer that leans on them gets no number.

Protocol: one JSON request on stdin ``{"cells": [...], "answers": [{"name": ...,
"cases": [...]}, ...], "cell_seconds": ...}``; the reply, one JSON line on the original
stdout, ``{"replies": [...]}``, holds only plain values (see ``encode``), one reply per
answer with the statuses the in-kernel judge sends. Nothing here is
trusted: the checker decodes the reply with bounds and judges it in its own process.

Standard library only, and no ``bleu_lesson`` import at module level: it runs where the
package is not.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import math
import os
import signal
import sys
import types
from typing import Any

#: Top-level modules a chapter notebook uses that are not in the world: they import as
#: absent (the ``bleu_lesson`` modules not copied into the world do too).
ABSENT_TOP = ("IPython", "ipywidgets", "matplotlib", "numpy", "pandas", "scipy", "sacrebleu",
              "nltk", "jieba", "tqdm", "pooch", "nbformat")


class Absent:
    """Stands for anything not in the world: calls and attributes give itself, and it is
    no number, string or container, so no answer can compute with it."""

    def __call__(self, *args: Any, **kwargs: Any) -> Absent:
        return self

    def __getattr__(self, name: str) -> Absent:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self

    def __iter__(self) -> Any:
        return iter(())

    def __enter__(self) -> Absent:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __repr__(self) -> str:
        return "<absent while judging>"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:  # f"{score:.4f}" in a cell that shows a number
        return repr(self)

    def __len__(self) -> int:
        return 0

    def __getitem__(self, key: object) -> Absent:
        return self

    def __contains__(self, item: object) -> bool:
        return False

    def _same(self, *other: object) -> Absent:  # arithmetic on an absent stays absent: no
        return self  # number ever comes out of it (no __float__, __int__ or __index__)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _same
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __pow__ = __rpow__ = _same
    __mod__ = __rmod__ = __neg__ = __pos__ = __abs__ = __round__ = _same


ABSENT = Absent()


class AbsentFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``ABSENT_TOP`` and missing ``bleu_lesson`` modules as modules of absents."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        top = fullname.split(".")[0]
        if top not in ABSENT_TOP and top != "bleu_lesson":
            return None
        if top == "bleu_lesson":
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    return spec  # a building block copied into the world
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: Any) -> types.ModuleType:
        module = types.ModuleType(spec.name)
        module.__path__ = []
        module.__dict__["__getattr__"] = lambda name: ABSENT
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        return None


class Unserialisable(Exception):
    pass


def _bleu_stats() -> Any:
    try:  # here, not at the top: this script runs where the package may be absent (-I -S)
        from bleu_lesson.core.stats import BleuStats
    except Exception:
        return None
    return BleuStats if isinstance(BleuStats, type) else None


def encode(x: Any, stats: Any, depth: int = 0) -> Any:
    """A value as JSON data with tags; exact types only (a subclass gives its base value)."""
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
        return [encode(v, stats, depth + 1) for v in list.__iter__(x)]
    if isinstance(x, tuple):
        return {"__tuple__": [encode(v, stats, depth + 1) for v in tuple.__iter__(x)]}
    if isinstance(x, dict):
        return {"__dict__": [[encode(k, stats, depth + 1), encode(v, stats, depth + 1)]
                             for k, v in dict.items(x)]}
    if isinstance(x, set | frozenset):
        items = set.__iter__(x) if isinstance(x, set) else frozenset.__iter__(x)
        return {"__set__": [encode(v, stats, depth + 1) for v in items]}
    if stats is not None and t is stats:
        return {"__BleuStats__": [encode(x.hyp_len, stats), encode(x.ref_len, stats),
                                  encode(list(x.matches), stats),
                                  encode(list(x.totals), stats)]}
    raise Unserialisable(t.__name__)


def decode(x: Any, stats: Any) -> Any:
    """The checker's inputs (trusted, well formed) back into values."""
    if type(x) is list:
        return [decode(v, stats) for v in x]
    if type(x) is dict:
        (tag, body), = x.items()
        if tag == "__tuple__":
            return tuple(decode(v, stats) for v in body)
        if tag == "__float__":
            return float(body)
        if tag == "__dict__":
            return {decode(k, stats): decode(v, stats) for k, v in body}
        if tag == "__set__":
            return {decode(v, stats) for v in body}
        if tag == "__BleuStats__":
            return stats(body[0], body[1], tuple(body[2]), tuple(body[3]))
    return x


def runnable(source: str) -> str:
    """A cell's code without IPython's magics and shell escapes (they mean nothing here)."""
    if source.lstrip().startswith("%%"):
        return ""
    return "\n".join("pass" if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())


class CellTimeout(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise CellTimeout()


def run_cells(cells: list[str], ns: dict, seconds: int) -> list[str]:
    """Run each cell in ``ns``; a cell gets ``seconds`` of time. Returns the errors of the
    cells that raised (``"cell 3: NameError: …"``): a cell's failure is the learner's."""
    signal.signal(signal.SIGALRM, _alarm)
    errors = []
    for k, source in enumerate(cells):
        try:
            code = compile(runnable(source), f"<cell {k}>", "exec")
        except (SyntaxError, ValueError) as exc:
            errors.append(f"cell {k}: {type(exc).__name__}: {exc}"[:300])
            continue
        signal.alarm(seconds)
        try:
            exec(code, ns)
        except CellTimeout:
            errors.append(f"cell {k}: did not finish within {seconds} s")
        except BaseException as exc:  # noqa: BLE001
            errors.append(f"cell {k}: {type(exc).__name__}: {exc}"[:300])
        finally:
            signal.alarm(0)
    return errors


def judge(request: dict) -> dict:
    """Run the cells once, then judge each answer asked for: ``{"replies": [...]}``."""
    sys.meta_path.append(AbsentFinder())
    stats = _bleu_stats()  # imports the world's bleu_lesson package too, as its parent
    package = sys.modules.get("bleu_lesson")  # None: no bleu_lesson, every name is absent
    if package is not None:  # a name the world's bleu_lesson lacks is absent too, not a module
        package.__dict__.setdefault("__getattr__", lambda name: ABSENT)
    ns: dict = {"__name__": "__main__", "display": ABSENT, "get_ipython": ABSENT}
    errors = run_cells(list(request["cells"]), ns, int(request.get("cell_seconds", 10)))
    replies = []
    for ask in request["answers"]:
        try:
            reply = judge_one(ns, ask["name"], ask["cases"], stats)
            if reply["status"] == "missing":
                reply["errors"] = errors[:3]
            replies.append(reply)
        except BaseException as exc:  # noqa: BLE001
            replies.append({"status": "raised", "index": 0, "type": type(exc).__name__,
                            "message": str(exc)[:500], "results": []})
    return {"replies": replies}


def judge_one(ns: dict, name: str, cases: list, stats: Any) -> dict:
    """One answer on its cases, as the in-kernel judge replies."""
    if name not in ns:
        return {"status": "missing"}
    answer = ns[name]
    if answer is ... or answer is NotImplemented:
        return {"status": "not-done"}
    if not callable(answer):
        return {"status": "not-callable", "type": type(answer).__name__}
    results: list = []
    for case in cases:
        args = decode(case, stats)
        try:
            got = answer(*args)
        except NotImplementedError:
            return {"status": "not-done", "results": results}
        except BaseException as exc:  # noqa: BLE001 - reported as the answer's error
            return {"status": "raised", "index": len(results), "type": type(exc).__name__,
                    "message": str(exc)[:500], "results": results}
        if got is ... or got is NotImplemented:
            return {"status": "not-done", "results": results}
        try:
            value = encode(got, stats)
        except Unserialisable as exc:
            return {"status": "unserialisable", "index": len(results), "type": str(exc),
                    "results": results}
        try:
            after = encode(list(args), stats)
        except Unserialisable:
            after = None
        results.append({"value": value, "after": after})
    return {"status": "done", "results": results}


def main() -> None:
    # -I leaves the script's folder off sys.path: the world's bleu_lesson is found there
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    request = json.loads(sys.stdin.read())
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # what the cells print goes nowhere
    os.dup2(devnull, 2)
    try:
        reply = judge(request)
    except BaseException as exc:  # noqa: BLE001
        reply = {"replies": [], "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    try:
        text = json.dumps(reply)
    except (TypeError, ValueError, RecursionError):
        text = json.dumps({"replies": [], "error": "the reply could not be written"})
    out.write("\n" + text + "\n")
    out.flush()
    os._exit(0)  # no atexit hook of the submission's runs after the reply


if __name__ == "__main__":
    main()
