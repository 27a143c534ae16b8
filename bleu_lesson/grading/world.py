"""Judging where the answer cannot be borrowed: a world without the exercise's reference.

The kernel that runs a submission holds the whole library, NLTK and sacrebleu; stubbing
the reference there is a race the checker loses (a copied ``__code__``, the module's
source or ``.pyc`` exec'd again, a fresh interpreter, a patched ``builtins``...). So the
values that are judged come from elsewhere: a second process, started for one exercise
in a sandbox whose file system holds

- the standard library of the Python installation, started with ``-I -S``; under
  bubblewrap a private copy of the interpreter, the libraries it loads and the standard
  library without any site-packages or dist-packages folder (``sandbox.python_copy``: no
  file a kernel sandbox reads, so no page-cache timing between them), else the host's with
  every package folder covered (no NLTK, sacrebleu, numpy: in no interpreter that can be
  found there);
- a *world* folder built here: ``world_child.py`` and a ``bleu_lesson`` package made of
  copies of the modules the exercise allows as building blocks
  (``Exercise.building_blocks``, earlier chapters' code), and nothing else. The
  reference, the chapters (and their private helpers), the analysis modules, the
  repository and the virtual environment are not there: physically absent, not stubbed;
- in every world, a private copy of numpy (``numpy_copy``: made once per run, with the
  BLAS its wheel bundles, bound read-only; not the virtual environment's that kernels
  read): chapter 09 imports it and an answer may compute with it; it holds no answer key.
  The world's environment keeps BLAS to one thread (``sandbox.BLAS_THREADS``);
- only for an exercise that gives the learner a library (``Exercise.libraries``; 8.2,
  whose answer re-scores with sacrebleu, and the constructions 1.1, 6.2, 6.3, 7.1 and 8.1,
  which may be searched for with it), a copy of that library and of what its import
  needs (``LIBRARIES``). Exercises are judged together in one world only when they give
  the same libraries, so no other exercise's world holds it.

The child runs the submission's code cells there in a worker process (what fails,
fails), calls the answer on the cases and sends back plain values; the checker decodes
them with bounds (``wire.decode``) and compares them in its own process, as for the
kernel. The worker holds no channel to the checker and never sees the per-run nonce the
one reply must carry (see ``world_child``); each cell has its own CPU and wall-clock
limit. Once the worker is started, neither may start another process (``RLIMIT_NPROC``
of 1, soft and hard, for a uid that runs both), and
the request and reply go through pipes (no file of the sandbox's writable folder).
Only the bubblewrap backend hides the host's files: under ``unshare`` the package, the
virtual environment and the package folders are covered but other copies of the library
elsewhere on the host are in reach, and under ``none`` everything is.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import sandbox
from .sandbox import Limits, Sandbox, closing
from .wire import encode

__all__ = ["build_world", "judge_in_world", "numpy_copy", "MAX_WORLD_REPLY", "LIBRARIES",
           "EVERY_WORLD"]

#: Bytes of the child's reply read back (its output file is limited to this size too).
MAX_WORLD_REPLY = 4 * 1024 ** 2
PACKAGE = Path(__file__).resolve().parents[1]
CHILD = Path(__file__).resolve().parent / "world_child.py"


#: The libraries an exercise may give the learner (``Exercise.libraries``), each with the
#: top-level packages copied into its world: the library and what its import needs.
#: sacrebleu's optional helpers stay out (``lxml`` imports as absent in the world: it
#: reads WMT's XML test sets; without ``wcwidth`` tabulate measures width by ``len``).
LIBRARIES: dict[str, tuple[str, ...]] = {
    "sacrebleu": ("sacrebleu", "regex", "tabulate", "portalocker", "colorama"),
}


#: Top-level packages every world holds (a private copy, ``numpy_copy``): chapter 09
#: imports numpy and a learner's answer may compute with it. numpy holds no answer key.
EVERY_WORLD = ("numpy", "numpy.libs")
#: Parts of numpy a world's copy leaves out: its test suites, typing stubs, C headers
NUMPY_LEFT_OUT = ("tests", "*.pyi", "*.pxd", "include")
_NUMPY_LOCK = threading.Lock()


def _make_numpy_copy() -> Path:
    """Copy ``EVERY_WORLD`` (numpy as installed here, with its bytecode, and the BLAS
    its wheel bundles) into a new temporary folder, readable by the world's uid and
    removed at exit: its files are new, so no kernel sandbox has read their pages."""
    import atexit
    import compileall
    import importlib.util

    root = Path(tempfile.mkdtemp(prefix="bleu-lesson-site-")).resolve()
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    try:
        spec = importlib.util.find_spec("numpy")
        if spec is None or spec.origin is None:
            raise OSError("numpy is not installed")
        site = Path(spec.origin).resolve().parents[1]
        for top in EVERY_WORLD:
            if (site / top).is_dir():
                shutil.copytree(site / top, root / top, copy_function=shutil.copy2,
                                ignore=shutil.ignore_patterns(*NUMPY_LEFT_OUT))
        # bytecode, so that no world compiles numpy again (its interpreter runs with -B)
        compileall.compile_dir(root / "numpy", quiet=2, workers=1)
        for path in [root, *root.rglob("*")]:
            if not path.is_symlink():
                os.chmod(path, 0o755 if path.is_dir() or path.suffix == ".so" else 0o644)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    sandbox.WORLD_ONLY.append(root)
    return root


@functools.cache
def _numpy_copy_once() -> Path | None:
    try:
        return _make_numpy_copy()
    except (OSError, ValueError) as exc:
        print(f"bleu-lesson: WARNING: could not copy numpy for the judging world ({exc}); "
              "an answer that uses numpy will fail there", file=sys.stderr, flush=True)
        return None


def numpy_copy() -> Path | None:
    """The folder, made once per process, that holds every world's private copy of numpy
    (``EVERY_WORLD``); ``None`` (with one warning on stderr) when it cannot be made: then
    numpy imports as absent in the world and a row says so."""
    with _NUMPY_LOCK:
        return _numpy_copy_once()


def _copy_libraries(libraries: Sequence[str], folder: Path) -> None:
    """Copy each library of ``libraries`` (a key of ``LIBRARIES``), as installed here,
    into ``folder`` (which the child puts first on its ``sys.path``)."""
    import importlib.util

    for library in libraries:
        if library not in LIBRARIES:
            raise ValueError(f"library {library!r} is not one a world can hold "
                             f"({', '.join(LIBRARIES)})")
        for top in LIBRARIES[library]:
            spec = importlib.util.find_spec(top)
            if spec is None or spec.origin is None:
                raise ValueError(f"library {library!r} needs {top!r}, which is not installed")
            if spec.submodule_search_locations:
                shutil.copytree(Path(spec.origin).parent, folder / top,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                                dirs_exist_ok=True)
            else:
                shutil.copyfile(spec.origin, folder / Path(spec.origin).name)


def build_world(building_blocks: Sequence[str], folder: Path,
                libraries: Sequence[str] = ()) -> Path:
    """Write the world of an exercise into ``folder``: the child script and a
    ``bleu_lesson`` package holding only ``core/<name>.py`` for each building block (and
    ``core/stats.py``, the ``BleuStats`` record some inputs are, ``core/_validate.py``,
    the argument checks the blocks' ``@checks`` lines use, and ``_version.py``; a block
    may be a package of core, ``engines``), and a copy of each library of
    ``libraries`` (``LIBRARIES``: none for almost every exercise). Returns ``folder``.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     world = build_world(["ngrams"], Path(d))
    ...     sorted(p.name for p in (world / "bleu_lesson" / "core").iterdir())
    ['__init__.py', '_validate.py', 'ngrams.py', 'stats.py']
    """
    core = folder / "bleu_lesson" / "core"
    core.mkdir(parents=True)
    names = list(dict.fromkeys([*building_blocks, "stats"]))
    lines = ['"""The building blocks this exercise allows (copies); nothing else is here."""']
    for name in names:
        source = PACKAGE / "core" / f"{name}.py"
        folder_block = PACKAGE / "core" / name  # a package of core (engines)
        if "/" in name or name.startswith("_") or not (
                source.is_file() or (folder_block / "__init__.py").is_file()):
            raise ValueError(f"building block {name!r} is not a module of bleu_lesson.core")
        if source.is_file():
            shutil.copyfile(source, core / f"{name}.py")
        else:
            shutil.copytree(folder_block, core / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        lines.append(f"from bleu_lesson.core.{name} import *  # noqa: F403")
    lines.append("from bleu_lesson.core.stats import BleuStats  # noqa: F401")
    lines.append("")
    shutil.copyfile(PACKAGE / "core" / "_validate.py", core / "_validate.py")  # checks only
    shutil.copyfile(PACKAGE / "_version.py", folder / "bleu_lesson" / "_version.py")
    (core / "__init__.py").write_text("", encoding="utf-8")
    (folder / "bleu_lesson" / "__init__.py").write_text("\n".join(lines), encoding="utf-8")
    shutil.copyfile(CHILD, folder / "world_child.py")
    _copy_libraries(libraries, folder)
    for path in [folder, *folder.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return folder


def _code_cells(nb: Any, before: int | None = None) -> tuple[list[str], list[int]]:
    """The sources of ``nb``'s code cells (those before index ``before``) and each one's
    index among all the notebook's cells, as the kernel's notes number them."""
    out, where = [], []
    for index, cell in enumerate(nb.cells):
        if before is not None and index >= before:
            break
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        out.append("".join(source) if isinstance(source, list) else str(source))
        where.append(index)
    return out, where


def _renumbered(reply: Any, where: list[int]) -> Any:
    """``reply`` with the world's cell numbers (its k-th code cell) turned into the
    notebook's cell indices, so that a row names each cell as the kernel's notes do (a
    number out of range, from a forged reply, becomes -1: no cell)."""
    if type(reply) is not dict:
        return reply

    def index(k: object) -> object:
        if type(k) is not int or k < 0:
            return k
        return where[k] if k < len(where) else -1

    out = dict(reply)
    if "cell" in out:
        out["cell"] = index(out["cell"])
    if type(out.get("errors")) is list:
        out["errors"] = [{**e, "cell": index(e.get("cell"))} if type(e) is dict else e
                         for e in out["errors"]]
    return out


def judge_in_world(exercises: Sequence[Any], nb: Any, cases: dict[str, list[tuple]],
                   timeout: float, limits: Limits | None = None,
                   kind: str | None = None, before: int | None = None) -> dict[str, Any]:
    """Run notebook ``nb``'s code cells once in the world of ``exercises`` (the building
    blocks all of them allow) and call each answer on its ``cases[ex.id]``. Returns each
    exercise's reply as untrusted JSON data, to decode with ``judge.judge_exercise``; an
    exercise with no reply (the child was killed after ``timeout`` seconds, or sent
    nothing readable) maps to ``{"status": "world-failed", "why": ...}``. ``before``: only
    the cells before this index run (those the kernel ran before it hung)."""
    blocks = [b for b in exercises[0].building_blocks
              if all(b in ex.building_blocks for ex in exercises)]
    libraries = [b for b in exercises[0].libraries
                 if all(b in ex.libraries for ex in exercises)]
    cells, where = _code_cells(nb, before)
    request = json.dumps({
        "cells": cells,
        "answers": [{"name": ex.answer_name, "kind": ex.kind,
                     "cases": [encode(list(c)) for c in cases[ex.id]]} for ex in exercises],
        "cell_seconds": max(1, int(min(10, timeout / 2)))})
    limits = replace(limits or Limits(), cpu_seconds=int(timeout) + 5, processes=64,
                     file_size=MAX_WORLD_REPLY, open_files=64)
    why = _run_child(blocks, libraries, request, timeout, limits, kind)
    if isinstance(why, str):
        return {ex.id: {"status": "world-failed", "why": why} for ex in exercises}
    replies = why.get("replies")
    if type(replies) is not list or len(replies) != len(exercises):
        return {ex.id: {"status": "world-failed", "why": "no reply for every answer"}
                for ex in exercises}
    out = {}
    for ex, r in zip(exercises, replies, strict=True):
        if type(r) is dict and r.get("status") == "not-judged":
            # the exercise whose answer the worker stopped in, named here (trusted)
            after = r.get("after")
            r = {"status": "not-judged", "why": r.get("why"),
                 "after": exercises[after].id if type(after) is int
                 and 0 <= after < len(exercises) else ""}
        out[ex.id] = _renumbered(r, where)
    return out


def _run_child(blocks: list[str], libraries: list[str], request: str, timeout: float,
               limits: Limits, kind: str | None) -> dict | str:
    """The child's reply (a dict), or why there is none (a string).

    The request goes in on a pipe and the reply comes back on another (no file in the
    sandbox's writable folder holds either). The request carries a nonce made here; the
    child reads it only after it has started the worker that runs the cells (and made
    itself non-dumpable), so no cell ever sees it. The reply must be exactly one line,
    a JSON object carrying that nonce: anything else on the channel is no reply."""
    if closing():
        return "the check was interrupted"
    nonce = secrets.token_hex(16)
    data = json.loads(request)
    data["nonce"] = nonce
    payload = json.dumps(data).encode("utf-8")
    world = Path(tempfile.mkdtemp(prefix="bleu-lesson-world-"))
    try:
        os.chmod(world, 0o755)
        build_world(blocks, world / "w", libraries)
        site = numpy_copy()
        box = Sandbox(limits, kind=kind, readable=(world / "w", *([site] if site else [])),
                      bare=True)
        try:
            python = os.path.realpath(sys.executable)
            child = str((world / "w" / "world_child.py").resolve())
            # the child puts the numpy copy's folder on sys.path, after the world's own
            proc = box.start([python, "-I", "-S", "-B", child, *([str(site)] if site else [])],
                             stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            text = _exchange(proc, payload, time.monotonic() + timeout)
            if text is None:
                box.kill()
                return f"judging did not finish within {timeout:g} s"
        finally:
            box.close()
    finally:
        shutil.rmtree(world, ignore_errors=True)
    if len(text) > MAX_WORLD_REPLY:
        return "the judging reply is too large"
    lines = text.decode("utf-8", "replace").splitlines()
    if not lines:
        return "judging sent no reply"
    if len(lines) != 1:
        return "the judging channel carried more than the judge's one reply"
    try:
        reply = json.loads(lines[0])
    except (ValueError, RecursionError):
        return "the judging reply is not JSON"
    if not isinstance(reply, dict):
        return "the judging reply is not a JSON object"
    if reply.get("nonce") != nonce:
        return "the judging reply is not the judge's (wrong nonce)"
    if "error" in reply and not reply.get("replies"):
        return f"judging failed: {str(reply['error'])[:100]}"
    return reply


def _exchange(proc: subprocess.Popen, payload: bytes, t_end: float) -> bytes | None:
    """Write ``payload`` to the child's stdin and read its stdout (at most
    ``MAX_WORLD_REPLY + 1`` bytes) until it exits; ``None`` if ``t_end`` passes first."""
    import selectors

    assert proc.stdin is not None and proc.stdout is not None
    out = bytearray()
    sel = selectors.DefaultSelector()
    os.set_blocking(proc.stdin.fileno(), False)
    sel.register(proc.stdin, selectors.EVENT_WRITE)
    sel.register(proc.stdout, selectors.EVENT_READ)
    sent = 0
    try:
        while sel.get_map():
            left = t_end - time.monotonic()
            if left <= 0 or closing():
                return None
            for key, _ in sel.select(min(left, 0.5)):
                if key.fileobj is proc.stdin:
                    try:
                        sent += os.write(proc.stdin.fileno(), payload[sent:sent + 65536])
                    except BlockingIOError:
                        pass
                    except BrokenPipeError:  # the child is gone: its reply says why
                        sent = len(payload)
                    if sent >= len(payload):
                        sel.unregister(proc.stdin)
                        proc.stdin.close()
                else:
                    part = os.read(proc.stdout.fileno(), 65536)
                    if not part:
                        sel.unregister(proc.stdout)
                        continue
                    out += part
                    if len(out) > MAX_WORLD_REPLY:
                        return bytes(out)
        while proc.poll() is None:
            if time.monotonic() >= t_end:
                return None
            time.sleep(0.02)
        return bytes(out)
    finally:
        sel.close()
        for f in (proc.stdin, proc.stdout):
            try:
                f.close()
            except OSError:
                pass
