"""The judging child: runs a submission's cells in a world without the answer key.

This file is copied, alone, into a *world* folder that ``bleu_lesson.grading.world``
builds for one exercise, and run there as a script by an interpreter started with
``-I -S`` (no site-packages: no NLTK or sacrebleu) inside the sandbox, whose file
system holds the standard library, that folder and a private copy of numpy (its folder is
the script's argument, put on ``sys.path`` after the world's; without it numpy is absent).
The world's ``bleu_lesson`` has only the building blocks the exercise allows (copies of
earlier chapters' modules); the exercise's reference is physically absent. Any other
``bleu_lesson`` module, and the libraries a chapter shows (widgets, plots, sacrebleu
unless the world holds a copy: 8.2's does), import as *absent*: an object that accepts
every call and attribute and computes nothing, so a cell that shows a widget still
defines what comes after it, and an answer that leans on them gets no number.

Two processes, so that no cell can forge the reply. The *judge* (this script's first
process) makes itself non-dumpable (no process of its uid may trace it or open its
``/proc/PID/fd``, ``mem`` or ``environ``), then forks the *worker* before it reads
anything: the worker closes every file descriptor but two pipes to the judge (its
stdin, stdout and stderr are ``/dev/null``), says it is ready once it has set up (before
any cell runs: its start-up is not a cell's time), runs the cells and calls the answers, and
sends one frame per cell (``{"cell": k, "error": ...}``) and one per answer (the
statuses the in-kernel judge sends, with plain values, see ``encode``). Only then does the
judge read the request from stdin (``{"cells", "answers", "cell_seconds", "nonce"}``): the
nonce is never in the worker's memory. The judge reads each frame within the cell's time
(``cell_seconds`` of CPU and wall clock, which the worker enforces on itself with
SIGALRM and a soft RLIMIT_CPU, and which the judge enforces by killing it
``GRACE`` seconds later), keeps only the fields and types the checker reads, and writes
one line, ``{"replies": [...], "nonce": ...}``, to its stdout, a pipe to the checker.
Nothing here is trusted: the checker accepts exactly that one line with its nonce,
decodes the values with bounds and judges them in its own process.

Standard library only, and no ``bleu_lesson`` import at module level: it runs where the
package is not.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import math
import os
import re
import signal
import sys
import types
from typing import Any

#: Top-level modules a chapter notebook uses that are not in the world: they import as
#: absent (the ``bleu_lesson`` modules not copied into the world do too). numpy is found
#: first where the world holds its copy; it is absent only where the copy could not be made.
ABSENT_TOP = ("IPython", "ipywidgets", "matplotlib", "numpy", "pandas", "scipy", "sacrebleu",
              "nltk", "jieba", "tqdm", "pooch", "nbformat", "lxml")


#: Whether an answer used an absent since the last ask: only the wording of a row that is
#: not ``pass`` depends on it (your code used something not here), never a verdict.
USED = [False]


class Absent:
    """Stands for anything not in the world: calls and attributes give itself, and it is
    no number, string or container, so no answer can compute with it. Using it (a call,
    an attribute, iterating) is noted in ``USED``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Absent:
        USED[0] = True
        return self

    def __getattr__(self, name: str) -> Absent:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        USED[0] = True
        return self

    def __iter__(self) -> Any:
        USED[0] = True
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
        USED[0] = True
        return 0

    def __getitem__(self, key: object) -> Absent:
        USED[0] = True
        return self

    def __contains__(self, item: object) -> bool:
        USED[0] = True
        return False

    def _same(self, *other: object) -> Absent:  # arithmetic on an absent stays absent: no
        USED[0] = True  # number ever comes out of it (no __float__, __int__ or __index__)
        return self

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
    return _number(x, t)


def _number(x: Any, t: type) -> Any:
    """Other numbers as the notebook's ``same`` compares them: a ``Fraction`` exactly (its
    numerator and denominator), an integer type (numpy's ``int64``) as its int, another
    real type (numpy's ``float32``) as its float."""
    import fractions
    import numbers
    import operator

    try:
        if isinstance(x, fractions.Fraction):
            n, d = int.__int__(operator.index(x.numerator)), int.__int__(operator.index(
                x.denominator))
            if d <= 0:
                raise Unserialisable(_label(t))
            return {"__Fraction__": [n, d]}
        if isinstance(x, numbers.Integral):
            return int.__int__(operator.index(x))
        if isinstance(x, numbers.Real):
            v = float.__float__(float(x))
            return v if math.isfinite(v) else {"__float__": repr(v)}
    except Unserialisable:
        raise
    except Exception:  # noqa: BLE001 - a number type that cannot say its value
        raise Unserialisable(_label(t)) from None
    raise Unserialisable(_label(t))


def _label(t: type) -> str:
    """A type's name for a row, with its top package when it is a library's
    (``numpy.ndarray``, ``numpy.bool``: numpy's bool is no Python ``bool``); a built-in
    type's or one of the cells' (or this script's ``Absent``) alone."""
    module = getattr(t, "__module__", None)
    if type(module) is not str or module in ("builtins", "__main__"):
        return str(t.__name__)
    return f"{module.split('.')[0]}.{t.__name__}"


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


#: Cell magics whose body IPython runs as Python in the notebook's namespace: here the
#: body runs (a right answer in a ``%%time`` or ``%%prun`` cell is defined where it is
#: judged too)
PYTHON_CELL_MAGICS = ("time", "capture", "prun")


def _scan(line: str, depth: int, quote: str | None) -> tuple[int, str | None, bool]:
    """Bracket depth and open string after ``line`` of Python, given them before it, and
    whether the line ends in a backslash continuation (outside a string and a comment)."""
    i = 0
    while i < len(line):
        if quote:
            if line[i] == "\\":
                i += 2
            elif line.startswith(quote, i):
                i, quote = i + len(quote), None
            else:
                i += 1
            continue
        ch = line[i]
        if ch == "#":
            return depth, None, False
        if ch in "'\"":
            quote = line[i:i + 3] if line[i:i + 3] in ('"""', "'''") else ch
            i += len(quote)
            continue
        depth += (ch in "([{") - (ch in ")]}" and depth > 0)
        i += 1
    backslash = line.endswith("\\")
    if quote and len(quote) == 1 and not backslash:
        quote = None  # an unterminated one-line string: a syntax error Python reports
    return depth, quote, backslash and not quote


#: ``name = %magic ...`` or ``a, b = !cmd`` at the start of a statement (IPython's
#: assignment forms); not ``x == !y`` or ``x = y % z``
_ASSIGNED_MAGIC = re.compile(r"([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*([%!].*)")


def _split(args: str) -> list[str]:
    """A magic's arguments as IPython splits them: quotes group ("my helper.py"); an
    unbalanced quote falls back to splitting on spaces."""
    try:
        return __import__("shlex").split(args)
    except ValueError:
        return args.split()


def _run_file(args: str) -> str:
    r"""What IPython's ``%run FILE`` does, as one line of Python: FILE (``.py`` added when
    FILE has no such file) runs as ``__main__`` in a namespace of its own, and its names
    join the cell's; with ``-i`` it runs in the cell's namespace (it sees the notebook's
    names).

    >>> code = _run_file("helper.py")
    >>> code.startswith("_run_ = {'__name__': '__main__', '__file__': (_run_file_ := (")
    True
    >>> "exec(_run_code_, globals())" in _run_file("-i helper")
    True
    """
    words = _split(args)
    inside = "-i" in words
    names = [w for w in words if not w.startswith("-")]
    if not names:
        return "pass"
    name = __import__("os").path.expanduser(names[0])
    found = (f"_run_file_ := ({name!r} if __import__('os').path.exists({name!r}) "
             f"or {name!r}.endswith('.py') else {name!r} + '.py')")
    code = ("_run_code_ = compile(open(_run_file_, encoding='utf-8').read(), _run_file_, "
            "'exec', dont_inherit=True)")
    if inside:
        return f"_run_ = ({found}); {code}; exec(_run_code_, globals())"
    return (f"_run_ = {{'__name__': '__main__', '__file__': ({found})}}; {code}; "
            f"exec(_run_code_, _run_); globals().update(_run_)")


def _mkdir(args: str) -> str:
    r"""What ``!mkdir [-p] DIR ...`` (or IPython's ``%mkdir``) does, as one line of
    Python, in the folder the cells run in.

    >>> _mkdir("-p mylib/sub")
    "__import__('os').makedirs('mylib/sub', exist_ok=True)"
    """
    words = args.split()
    parents = any(w.startswith("-") and "p" in w for w in words)
    dirs = [w.strip("'\"") for w in words if not w.startswith("-")]
    if not dirs:
        return "pass"
    make = "makedirs({!r}, exist_ok=True)" if parents else "mkdir({!r})"
    return "; ".join("__import__('os')." + make.format(d) for d in dirs)


def _writefile(args: list[str], body: str) -> str:
    r"""What IPython's ``%%writefile [-a] FILE`` does, as Python: the cell's body written
    to FILE (in the folder the cells run in, where ``import`` finds it too).

    >>> print(_writefile(["helper.py"], "x = 1\n"))
    with open(__import__('os').path.expanduser('helper.py'), 'w', encoding='utf-8') as _writefile_:
        _writefile_.write('x = 1\n')
    """
    append = any(a in ("-a", "--append") for a in args)
    names = [a for a in args if a not in ("-a", "--append")]
    if len(names) != 1:
        return "raise SyntaxError('%%writefile needs one file name')"
    name = names[0]
    return (f"with open(__import__('os').path.expanduser({name!r}), "
            f"{'a' if append else 'w'!r}, encoding='utf-8') as _writefile_:\n"
            f"    _writefile_.write({body!r})")


def _code_part(line: str) -> str:
    """``line`` up to a comment that starts outside a string (for help lines: ``x?``)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


def _alias(args: str, aliases: dict[str, tuple[str, str, str]]) -> None:
    """Record what IPython's ``%alias_magic`` defines: ``aliases[NAME] = (TARGET, PARAMS,
    kinds)``, kinds "lc" (line and cell), "l" (``-l``) or "c" (``-c``).

    >>> found = {}
    >>> _alias("w writefile", found); _alias("-c -p '-a' app %%writefile", found)
    >>> found
    {'w': ('writefile', '', 'lc'), 'app': ('writefile', '-a', 'c')}
    """
    import shlex

    try:
        words = shlex.split(args)
    except ValueError:
        return
    kinds, params, names = "", "", []
    while words:
        word = words.pop(0)
        if word in ("-l", "--line"):
            kinds += "l"
        elif word in ("-c", "--cell"):
            kinds += "c"
        elif word in ("-p", "--params") and words:
            params = words.pop(0)
        else:
            names.append(word.lstrip("%"))
    if len(names) == 2 and names[0]:
        aliases[names[0]] = (names[1], params, kinds or "lc")


def _resolve(name: str, rest: str, kind: str,
             aliases: dict[str, tuple[str, str, str]]) -> tuple[str, str]:
    """A magic's name and arguments after ``%alias_magic`` aliases (of ``kind`` "l" or
    "c"), as IPython calls the target: the alias's params first, then the line's."""
    for _ in range(len(aliases)):
        target = aliases.get(name)
        if target is None or kind not in target[2]:
            break
        name, rest = target[0], f"{target[1]} {rest}".strip()
    return name, rest


def runnable(source: str, aliases: dict[str, tuple[str, str, str]] | None = None,
             skipped: list[str] | None = None) -> str:
    r"""A cell's code as the world runs it: IPython's magics, shell escapes and help
    requests (``!ls``, ``%matplotlib``, ``x?``, ``?x``) become ``pass`` at their own
    indentation; ``%time stmt`` runs ``stmt``; of a ``%%time`` or ``%%capture`` cell,
    its body, as IPython runs it. Only a line that starts a statement is IPython's: a
    line inside brackets, a string or after a backslash is Python's (``!= b``, ``% 7``).

    >>> runnable("%%time\nx = 1\n!ls")
    'pass\nx = 1\npass'
    >>> runnable("%%bash\necho hi")
    ''
    >>> runnable("for c in (1, 2):\n    %time f(c)\nsorted?\n?len")
    'for c in (1, 2):\n    f(c)\npass\npass'
    >>> runnable("here = !pwd\nt = %time f(1)\nx = y % z\nok = a == !b")
    'here = None\nt = f(1)\nx = y % z\nok = a == !b'
    >>> runnable("if (a\n        != b):\n    y = (x\n         % 7)")
    'if (a\n        != b):\n    y = (x\n         % 7)'
    >>> print(runnable("s = '''\n!kept\n'''\nt = 1 + \\\n    2\n%env A=1 \\\n  B=2\nu = 3"))
    s = '''
    !kept
    '''
    t = 1 + \
        2
    pass
    u = 3

    ``aliases`` carries what a cell's ``%alias_magic`` defines to the cells after it:

    >>> seen = {}
    >>> runnable("%alias_magic w writefile", seen)
    'pass'
    >>> print(runnable("%%w helper.py\nx = 1", seen))
    with open(__import__('os').path.expanduser('helper.py'), 'w', encoding='utf-8') as _writefile_:
        _writefile_.write('x = 1')

    ``skipped`` collects what IPython runs and the world does not: the head of a cell
    magic whose cell is dropped, and each shell (``!``) or magic (``%``) line that
    becomes ``pass`` (a help line ``x?`` is not collected).

    >>> lost = []
    >>> _ = runnable("!printf 'x' > h.py\nlen?", None, lost), runnable("%%bash\nls", None, lost)
    >>> lost
    ["!printf 'x' > h.py", '%%bash']
    """
    aliases = {} if aliases is None else aliases
    skipped = [] if skipped is None else skipped
    if source.lstrip().startswith("%%"):
        head, _, body = source.lstrip().partition("\n")
        name, _, rest = head[2:].strip().partition(" ")
        name, rest = _resolve(name, rest, "c", aliases)
        first = [name, *rest.split()] if name else []
        if first and first[0] in ("writefile", "file"):  # %%file: IPython's alias
            return _writefile(_split(rest), body)  # ~ is the home folder there
        if not first or first[0] not in PYTHON_CELL_MAGICS:
            skipped.append(head.strip())
            return ""
        source = "pass\n" + body
    out: list[str] = []
    depth, quote, continued, escaped = 0, None, False, False
    for line in source.splitlines():
        if escaped:  # a magic's backslash continuation: still the magic's
            escaped = line.endswith("\\")
            continue
        starts = depth == 0 and quote is None and not continued
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        assigned = _ASSIGNED_MAGIC.match(stripped) if starts else None
        if assigned:  # x = !ls, t = %timeit -o f(): x = f() of %time f(), else None
            target, magic = assigned.group(1), assigned.group(2).split(None, 1)
            value = magic[1] if magic[0] == "%time" and len(magic) > 1 else "None"
            out.append(f"{indent}{target} = {value}")
            escaped = line.endswith("\\")
            continue
        if starts and stripped.startswith(("%", "!", "?")):
            words = stripped.split(None, 1)
            if words[0] == "%alias_magic" and len(words) > 1:
                _alias(words[1], aliases)
            elif words[0].startswith("%") and not words[0].startswith("%%"):
                name, rest = _resolve(words[0][1:], words[1] if len(words) > 1 else "", "l",
                                      aliases)
                words = [f"%{name}", rest] if rest else [f"%{name}"]
            if words[0] == "%time" and len(words) > 1:
                out.append(indent + words[1])
            elif words[0] == "%run" and len(words) > 1:
                out.append(indent + _run_file(words[1]))
            elif words[0] in ("!mkdir", "%mkdir") and len(words) > 1:
                out.append(indent + _mkdir(words[1]))
            else:
                out.append(indent + "pass")
                escaped = line.endswith("\\")
                if not words[0].startswith("?"):
                    skipped.append(stripped)
            continue
        if starts and _code_part(stripped).rstrip().endswith("?") \
                and _scan(line, 0, None) == (0, None, False):
            out.append(indent + "pass")
            continue
        out.append(line)
        depth, quote, continued = _scan(line, depth, quote)
    return "\n".join(out)


class CellTimeout(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise CellTimeout()


def _limit_cpu(seconds: int) -> None:
    """Give what runs next ``seconds`` of CPU time (soft RLIMIT_CPU: SIGXCPU, which raises
    ``CellTimeout``) and as many of wall-clock time (SIGALRM). A cell that disables both
    is killed by the judge, which times every cell from outside."""
    signal.alarm(seconds)
    try:
        import resource

        used = resource.getrusage(resource.RUSAGE_SELF)
        spent = int(used.ru_utime + used.ru_stime) + 1
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = spent + seconds
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    except (ImportError, ValueError, OSError):
        pass


def _error(exc: BaseException) -> dict:
    return {"type": type(exc).__name__[:60], "message": str(exc)[:300]}


def _send(fd: int, message: Any) -> None:
    """One frame to the judge: 4 bytes of length, then JSON."""
    data = json.dumps(message).encode("utf-8")
    data = len(data).to_bytes(4, "big") + data
    while data:
        data = data[os.write(fd, data):]


def _receive(fd: int) -> Any:
    """One frame from the judge (trusted, so unbounded)."""
    def exactly(n: int) -> bytes:
        out = b""
        while len(out) < n:
            part = os.read(fd, n - len(out))
            if not part:
                raise EOFError("the judge closed the request")
            out += part
        return out
    return json.loads(exactly(int.from_bytes(exactly(4), "big")).decode("utf-8"))


#: The compiler flags of ``from __future__`` imports (as ``codeop`` carries them on)
FUTURE_FLAGS = 0
for _feature in __import__("__future__").all_feature_names:
    FUTURE_FLAGS |= getattr(__import__("__future__"), _feature).compiler_flag


def run_cells(cells: list[str], ns: dict, seconds: int, out: int) -> None:
    """Run each cell in ``ns`` with ``seconds`` of time (CPU and wall clock); after each,
    send the judge ``{"cell": k, "error": None or {"type", "message"}}``."""
    signal.signal(signal.SIGALRM, _alarm)
    if hasattr(signal, "SIGXCPU"):
        signal.signal(signal.SIGXCPU, _alarm)
    futures = 0  # a cell's ``from __future__ import ...`` holds for the cells after it
    aliases: dict[str, tuple[str, str, str]] = {}  # and its %alias_magic names
    for k, source in enumerate(cells):
        error = None
        try:
            # dont_inherit: this file's ``from __future__ import annotations`` is not the
            # learner's (an annotation naming nothing raises NameError in the notebook);
            # the learner's own future imports carry on, as in IPython
            code = compile(runnable(source, aliases), f"<cell {k}>", "exec", flags=futures,
                           dont_inherit=True)
            futures |= code.co_flags & FUTURE_FLAGS
        except (SyntaxError, ValueError) as exc:
            code, error = None, _error(exc)
        if code is not None:
            _limit_cpu(seconds)
            try:
                exec(code, ns)
            except CellTimeout:
                error = {"type": "timeout", "message": ""}
            except BaseException as exc:  # noqa: BLE001 - a cell's failure is the learner's
                error = _error(exc)
            finally:
                signal.alarm(0)
        _send(out, {"cell": k, "error": error})


def _cells_folder() -> str | None:
    """A new empty folder of the world's own ``/tmp`` for the cells to run in (None if
    none can be made): the world's parent makes it before it starts the worker and
    removes it when the worker is gone, so that no run leaves one behind, whatever the
    sandbox (under ``none`` the world's ``/tmp`` is the host's)."""
    import tempfile

    try:
        return tempfile.mkdtemp(prefix="cells-")
    except OSError:
        return None


def _enter(folder: str | None) -> None:
    """Run the cells in ``folder``, last on ``sys.path``, as a notebook runs in its
    folder: a module a cell writes (``%%writefile helper.py``) imports, and shadows
    nothing of the world's."""
    if folder is None:
        return
    try:
        os.chdir(folder)
    except OSError:
        return
    sys.path.append(folder)


def _remove(folder: str | None) -> None:
    """Remove the cells' folder (the worker is dead: nothing writes to it any more)."""
    if folder is not None:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def worker(inp: int, out: int, folder: str | None = None) -> None:
    """The process that runs the learner's code: it holds only the two pipes to the judge
    (no stdout, no reply channel, no nonce) and sends plain values, one frame per cell
    and one per answer."""
    request = _receive(inp)
    sys.meta_path.append(AbsentFinder())
    stats = _bleu_stats()  # imports the world's bleu_lesson package too, as its parent
    package = sys.modules.get("bleu_lesson")  # None: no bleu_lesson, every name is absent
    if package is not None:  # a name the world's bleu_lesson lacks is absent too, not a module
        package.__dict__.setdefault("__getattr__", lambda name: ABSENT)
    ns: dict = {"__name__": "__main__", "display": ABSENT, "get_ipython": ABSENT}
    seconds = int(request["cell_seconds"])
    _enter(folder)
    _send(out, {"ready": True})  # set up: from here on each cell's own time counts
    run_cells(list(request["cells"]), ns, seconds, out)
    for ask in request["answers"]:
        _limit_cpu(seconds)
        USED[0] = False
        try:
            if ask.get("kind") == "value":
                reply = value_of(ns, ask["name"], stats)
            else:
                reply = judge_one(ns, ask["name"], ask["cases"], stats)
        except CellTimeout:
            reply = {"status": "timeout"}
        except BaseException as exc:  # noqa: BLE001
            reply = {"status": "raised", "index": 0, "results": [], **_error(exc)}
        finally:
            signal.alarm(0)
        if USED[0] and type(reply) is dict:
            reply["absent"] = True
        _send(out, reply)


def value_of(ns: dict, name: str, stats: Any) -> dict:
    """An exercise of kind "value": the answer is the value itself (judged as it is)."""
    if name not in ns:
        return {"status": "missing"}
    answer = ns[name]
    if answer is ... or answer is NotImplemented:
        return {"status": "not-done"}
    try:
        return {"status": "value", "value": encode(answer, stats)}
    except Unserialisable as exc:
        return {"status": "unserialisable", "index": 0, "type": str(exc)[:60], "results": []}


def judge_one(ns: dict, name: str, cases: list, stats: Any) -> dict:
    """One answer on its cases, as the in-kernel judge replies."""
    if name not in ns:
        return {"status": "missing"}
    answer = ns[name]
    if answer is ... or answer is NotImplemented:
        return {"status": "not-done"}
    if not callable(answer):
        return {"status": "not-callable", "type": type(answer).__name__[:60]}
    results: list = []
    for case in cases:
        args = decode(case, stats)
        try:
            got = answer(*args)
        except NotImplementedError:
            return {"status": "not-done", "results": results}
        except CellTimeout:
            raise
        except BaseException as exc:  # noqa: BLE001 - reported as the answer's error
            return {"status": "raised", "index": len(results), "results": results,
                    **_error(exc)}
        if got is ... or got is NotImplemented:
            return {"status": "not-done", "results": results}
        try:
            value = encode(got, stats)
        except Unserialisable as exc:
            return {"status": "unserialisable", "index": len(results),
                    "type": str(exc)[:60], "results": results}
        try:
            after = encode(list(args), stats)
        except Unserialisable:
            after = None
        results.append({"value": value, "after": after})
    return {"status": "done", "results": results}


# --- the judge: never runs the learner's code ------------------------------------------

#: The largest frame the judge reads from the worker (bytes).
MAX_FRAME = 4 * 1024 ** 2
#: Seconds past a cell's (or answer's) own limit before the judge kills the worker.
GRACE = 2.0
#: Seconds the worker may take to start before its first cell (no learner code runs then).
STARTUP = 60.0
STATUSES = ("missing", "not-done", "not-callable", "raised", "unserialisable", "done",
            "value", "timeout")


class WorkerGone(Exception):
    """The worker sent nothing valid in time (or died): it has been killed."""


class Frames:
    """Reads the worker's frames with a deadline each and a bound on size."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""

    def _fill(self, n: int, deadline: float) -> None:
        import select
        import time

        while len(self.buffer) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise WorkerGone("timeout")
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            part = os.read(self.fd, min(1 << 20, n - len(self.buffer)))
            if not part:
                raise WorkerGone("died")
            self.buffer += part

    def next(self, seconds: float) -> Any:
        import time

        deadline = time.monotonic() + seconds
        self._fill(4, deadline)
        size = int.from_bytes(self.buffer[:4], "big")
        if size > MAX_FRAME:
            raise WorkerGone("too large")
        self._fill(4 + size, deadline)
        data, self.buffer = self.buffer[4:4 + size], self.buffer[4 + size:]
        try:
            return json.loads(data.decode("utf-8"))
        except (ValueError, RecursionError, MemoryError):
            raise WorkerGone("malformed") from None


def _text(value: Any, limit: int) -> str:
    return value[:limit] if type(value) is str else ""


def _cell_error(message: Any, k: int) -> dict | None:
    """The worker's note on cell ``k``, checked: ``None`` or ``{"cell", "type", "message"}``."""
    if type(message) is not dict or message.get("cell") != k or type(message.get("cell")) \
            is not int:
        raise WorkerGone("malformed")
    error = message.get("error")
    if error is None:
        return None
    if type(error) is not dict:
        raise WorkerGone("malformed")
    return {"cell": k, "type": _text(error.get("type"), 60),
            "message": _text(error.get("message"), 300)}


def _answer_reply(message: Any, n_cases: int) -> dict:
    """The worker's reply on one answer, reduced to the fields and types the checker
    reads (the values themselves are decoded, with bounds, by the checker)."""
    if type(message) is not dict or message.get("status") not in STATUSES:
        raise WorkerGone("malformed")
    status = message["status"]
    out: dict = {"status": status}
    if message.get("absent") is True:
        out["absent"] = True
    if status in ("not-callable", "unserialisable", "raised"):
        out["type"] = _text(message.get("type"), 60)
    if status == "raised":
        out["message"] = _text(message.get("message"), 300)
    if status in ("raised", "unserialisable"):
        index = message.get("index")
        out["index"] = index if type(index) is int and 0 <= index <= n_cases else 0
    if status == "value":
        if "value" not in message:
            raise WorkerGone("malformed")
        out["value"] = message["value"]
    results = message.get("results", [])
    if status in ("done", "not-done", "raised", "unserialisable"):
        if type(results) is not list or len(results) > n_cases or any(
                type(r) is not dict or set(r) != {"value", "after"} for r in results):
            raise WorkerGone("malformed")
        out["results"] = [{"value": r["value"], "after": r["after"]} for r in results]
    return out


def _undumpable() -> bool:
    """Make this process non-dumpable: no process of the same uid (the worker) may then
    trace it or open its ``/proc/PID/fd``, ``mem`` or ``environ``."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(4, 0, 0, 0, 0) == 0 and libc.prctl(3, 0, 0, 0, 0) == 0
    except (ImportError, OSError, AttributeError):
        return False


def _only_fds(keep: tuple[int, ...]) -> None:
    """Close every file descriptor but ``keep``; 0, 1 and 2 become /dev/null."""
    import resource

    top = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    top = 4096 if top == resource.RLIM_INFINITY or top > 4096 else top
    for fd in range(top):
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass
    for fd in (0, 1, 2):
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)


def _defines(source: object, name: object) -> bool:
    r"""Whether the cell ``source`` has a line that defines ``name`` (``def name``,
    ``class name``, ``name =``, ``name: T =``).

    >>> _defines("x = 1\n\ndef my_bp(c, r):\n    return 1", "my_bp")
    True
    >>> _defines("my_bp(1, 2)\nmy_bp == 1\nmy_bpx = 2", "my_bp")
    False
    """
    if type(source) is not str or type(name) is not str or not name:
        return False
    for line in source.splitlines():
        code = line.strip()
        for head in ("def ", "async def ", "class "):
            if code.startswith(head) and \
                    code[len(head):].split("(")[0].split(":")[0].strip() == name:
                return True
        rest = code[len(name):].lstrip() if code.startswith(name) else ""
        if rest.startswith(":") or (rest.startswith("=") and not rest.startswith("==")):
            return True
    return False


#: Exceptions an answer raises when something a cell should have made is not there
_MISSING_THINGS = ("NameError", "ModuleNotFoundError", "ImportError", "FileNotFoundError",
                   "AttributeError")


def _not_run(cells: list[str]) -> list[dict]:
    """A note for each cell holding what IPython runs and this world does not: a cell
    magic whose cell is dropped (``%%bash``), a shell or magic line that becomes ``pass``
    (``!printf ... > helper.py``), a call of ``get_ipython()`` (nothing here)."""
    notes: list[dict] = []
    aliases: dict[str, tuple[str, str, str]] = {}
    for k, source in enumerate(cells):
        lost: list[str] = []
        runnable(source, aliases, lost)
        if lost:
            kind = "cell-magic" if lost[0].startswith("%%") else "ipython-line"
            notes.append({"cell": k, "type": kind, "message": _text(lost[0], 60)})
        elif "get_ipython()" in source:
            notes.append({"cell": k, "type": "ipython-line", "message": "get_ipython()"})
    return notes


_RUNS_CODE = re.compile(r"^\s*(%run\b|%%|!|%alias_magic\b|import\s|from\s+\S+\s+import\b)",
                        re.MULTILINE)


def _suspect(source: str, name: str) -> int:
    r"""How likely the cell ``source`` is the one to blame when ``name`` is not defined
    where answers are judged (lower first): 0 it defines ``name``, 1 it names it, 2 it
    runs or writes code (``%run``, a cell magic, ``!``, an import), 3 anything else.

    >>> [_suspect(s, "f") for s in ("def f():\n    pass", "g = f", "%run helper", "1 / 0")]
    [0, 1, 2, 3]
    """
    if _defines(source, name):
        return 0
    if re.search(rf"\b{re.escape(name)}\b", source):
        return 1
    return 2 if _RUNS_CODE.search(source) else 3


def judge(request: dict, to_worker: int, frames: Frames, pid: int) -> dict:
    """Send the worker its cells and asks, read back one checked frame per cell and one
    per ask (each within its time), and build the reply. A worker that overruns a limit,
    dies or sends anything malformed is killed. The ask it was answering is ``timeout``
    or ``world-gone`` (with the signal that ended a worker that died, e.g. SIGSEGV), with
    the cell it was in (-1: it was calling answers); the asks after it were never put to
    it: ``not-judged``, naming the ask it stopped in (``after``: its index). A worker that
    stopped in a cell takes every ask with it, each with that cell."""
    cells = list(request["cells"])
    answers = list(request["answers"])
    seconds = int(request.get("cell_seconds", 10))
    _send(to_worker, {"cells": cells, "answers": [{"name": a["name"], "cases": a["cases"],
                                                   "kind": a.get("kind", "function")}
                                                  for a in answers],
                      "cell_seconds": seconds})
    errors: list[dict] = []
    replies: list[dict] = []
    cell = -1  # the cell the worker is in; -1 before the first and once every cell reported
    try:
        # the worker's start-up (decoding the request, importing the world's building
        # blocks) is not a cell's time: on a loaded machine it may take seconds, and a
        # correct cell must not become a timeout row. The checker bounds the whole run.
        if frames.next(STARTUP) != {"ready": True}:
            raise WorkerGone("malformed")
        for k in range(len(cells)):
            cell = k
            error = _cell_error(frames.next(seconds + GRACE), k)
            if error is not None:
                errors.append(error)
        cell = -1
        not_run: list[dict] | None = None  # the cells' notes, read once when needed
        for ask in answers:
            reply = _answer_reply(frames.next(seconds + GRACE), len(ask["cases"]))
            if reply["status"] in ("missing", "raised") and not_run is None:
                not_run = _not_run(cells)
            if reply["status"] == "missing":
                # the cells that define the answer first: theirs is the error to fix;
                # then those that name it, then those that run or write code (a %run,
                # a helper module, a cell magic not run here), then the rest
                notes = errors + (not_run or [])
                reply["errors"] = sorted(notes, key=lambda e: (
                    _suspect(cells[e["cell"]], ask["name"]), e["cell"]))[:3]
            elif reply["status"] == "raised" and reply.get("type") in _MISSING_THINGS:
                reply["errors"] = (not_run or [])[:3]
            replies.append(reply)
    except WorkerGone as exc:
        ended = _reap(pid) if str(exc) == "died" else ""
        _kill(pid)
        stopped_in = len(replies)
        for k in range(stopped_in, len(answers)):
            if k == stopped_in or cell >= 0:
                replies.append({"status": "timeout" if str(exc) == "timeout" else "world-gone",
                                "why": str(exc), "cell": cell, "ended": ended})
            else:
                replies.append({"status": "not-judged", "after": stopped_in,
                                "why": str(exc)})
    return {"replies": replies}


def _reap(pid: int, seconds: float = 2.0) -> str:
    """How the worker ended, once it closed its channel: the signal that killed it
    ("SIGSEGV"), "exit status N", or "" when it is still running after ``seconds`` (it
    closed the channel itself) or cannot be waited for."""
    import time

    t_end = time.monotonic() + seconds
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except OSError:
            return ""
        if done == pid:
            if os.WIFSIGNALED(status):
                number = os.WTERMSIG(status)
                try:
                    return signal.Signals(number).name
                except ValueError:
                    return f"signal {number}"
            return f"exit status {os.WEXITSTATUS(status)}" if os.WIFEXITED(status) else ""
        if time.monotonic() >= t_end:
            return ""
        time.sleep(0.02)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _fork() -> tuple[int, str]:
    """``os.fork()``, retried for a while: the uid's process limit (2) also counts the
    last processes of a sandbox that had this uid and is still being torn down. (-1, why)
    if it never succeeds."""
    import time

    why = ""
    for _ in range(50):
        try:
            return os.fork(), ""
        except OSError as exc:
            why = f"{type(exc).__name__} {exc.errno}"
            time.sleep(0.1)
    return -1, why


def _no_more_processes() -> None:
    """From here on this process may start none (RLIMIT_NPROC of 1, soft and hard, for a
    uid that already runs two: the judge and the worker). The sandbox starts the judge with
    a higher limit so that the one fork of the worker succeeds even when other processes
    share the sandbox's uid."""
    import resource

    resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))


def _fail(why: str) -> None:
    """Reply that judging could not run (no worker exists: the nonce is safe to read)."""
    try:
        nonce = json.loads(sys.stdin.read()).get("nonce", "")
    except (ValueError, AttributeError):
        nonce = ""
    sys.stdout.write(json.dumps({"replies": [], "error": why, "nonce": nonce}) + "\n")
    sys.stdout.flush()
    os._exit(0)


def main() -> None:
    # -I leaves the script's folder off sys.path: the world's bleu_lesson is found there
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.path[1:1] = sys.argv[1:]  # the folder of the world's numpy copy, if any
    if not _undumpable():
        _fail("cannot guard the reply channel (prctl)")
    to_worker_r, to_worker_w = os.pipe()
    from_worker_r, from_worker_w = os.pipe()
    folder = _cells_folder()
    pid, why = _fork()  # before the request (and its nonce) is read: the worker never has it
    if pid < 0:
        _remove(folder)
        _fail(f"could not start the worker: {why}")
    _no_more_processes()
    if pid == 0:
        try:
            _only_fds((to_worker_r, from_worker_w))
            worker(to_worker_r, from_worker_w, folder)
        finally:
            os._exit(0)
    os.close(to_worker_r)
    os.close(from_worker_w)
    request = json.loads(sys.stdin.read())
    nonce = request.pop("nonce", "")
    try:
        reply = judge(request, to_worker_w, Frames(from_worker_r), pid)
    except BaseException as exc:  # noqa: BLE001
        reply = {"replies": [], "error": f"{type(exc).__name__}"}
    _kill(pid)
    try:
        os.waitpid(pid, 0)
    except OSError:
        pass
    _remove(folder)
    reply["nonce"] = nonce
    try:
        text = json.dumps(reply)
    except (TypeError, ValueError, RecursionError):
        text = json.dumps({"replies": [], "error": "the reply could not be written",
                           "nonce": nonce})
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
