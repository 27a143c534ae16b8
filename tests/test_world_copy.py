"""The judging world reads only its own copy of Python: no file it opens is a kernel's (issue 20).

A seventh hostile review carried the reference's source from the learner's kernel (which
holds the library) to the judging world through the page cache: the kernel read chosen
pages of a large file nobody had read, and the world timed its reads of the same pages
(cached = fast = 1). Pages are cached per file (inode), so under bubblewrap the world now
shares no file with any kernel sandbox: it sees none of the host's ``/usr``, ``/lib*``,
``/etc`` or Python, only a private copy (``sandbox.python_copy``) of the interpreter, the
libraries it loads and the standard library, at the same paths. Checked here from inside
the world, against the host's own files (``os.stat``, ``ldd``), not against the lists the
sandbox uses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_lesson.grading import sandbox

BWRAP = pytest.mark.skipif(sandbox.backend() != "bwrap", reason="only bubblewrap hides the host")
PYTHON = os.path.realpath(sys.executable)
LIBDIR = Path("/usr/lib/x86_64-linux-gnu")


def _in_world(script: str) -> object:
    """Run ``script`` with the world's interpreter in a bare sandbox; its JSON output."""
    with sandbox.Sandbox(bare=True) as box:
        proc = box.start([PYTHON, "-I", "-S", "-c", script], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()[-800:]
    return json.loads(out.decode())


def _needed_by_python() -> set[str]:
    """The names of the libraries the interpreter and its extension modules load, by
    ``ldd`` here (the host's loader), with every link of their chains."""
    dynload = Path(sys.base_exec_prefix) / "lib" / f"python{sys.version_info[0]}." \
        f"{sys.version_info[1]}" / "lib-dynload"
    files = [PYTHON, *map(str, dynload.glob("*.so"))]
    out = subprocess.run(["ldd", *files], capture_output=True, text=True, check=False).stdout
    names = set()
    for line in out.splitlines():
        if "=>" in line:
            path = Path(line.split("=>")[1].split("(")[0].strip())
            while True:
                names.add(path.name)
                if not path.is_symlink():
                    break
                path = path.parent / os.readlink(path)
    return names


@BWRAP
@pytest.mark.skipif(not LIBDIR.is_dir(), reason="a Debian-style multiarch library folder")
def test_the_world_sees_no_host_file_python_does_not_need():
    """The host's largest library that Python does not load, ``/etc/passwd``, a shell, the
    system's Python and its packages: all present on the host, none in the world; the
    interpreter, the standard library and a library Python does load are there."""
    needed = _needed_by_python()
    big = max((p for p in LIBDIR.iterdir()
               if p.is_file() and not p.is_symlink() and ".so" in p.name
               and p.name not in needed), key=lambda p: p.stat().st_size)
    assert big.stat().st_size > 1024 ** 2  # a large cold file: the channel's carrier
    absent = [str(big), "/etc/passwd", "/etc/ld.so.cache", "/bin/sh", "/usr/bin/env",
              "/usr/lib/python3/dist-packages", "/etc"]
    present = [PYTHON, os.__file__, str(LIBDIR / "libc.so.6")]
    for path in [*absent, *present]:
        assert os.path.exists(path), path  # on the host
    seen = _in_world("import json, os\n"
                     f"print(json.dumps({{p: os.path.exists(p) for p in {absent + present!r}}}))")
    assert seen == {**dict.fromkeys(absent, False), **dict.fromkeys(present, True)}


PROBE = """import json, os, sys
mapped = {}
with open("/proc/self/maps") as maps:
    for line in maps:
        path = line.split()[-1]
        if path.startswith("/") and (".so" in path or path == os.path.realpath(sys.executable)):
            mapped[path] = [os.stat(path).st_dev, os.stat(path).st_ino]
print(json.dumps([sys.executable, sys.prefix, mapped]))
"""


@BWRAP
def test_the_worlds_interpreter_and_libc_are_not_the_hosts_files():
    """Every file the world's interpreter has mapped (itself, libc, the loader, libpython)
    is another inode than the host's file of that path, and is the one in the private copy;
    ``sys.executable`` and ``sys.prefix`` are the host's paths all the same."""
    copy = sandbox.python_copy()
    assert copy is not None
    executable, prefix, mapped = _in_world(PROBE)
    assert (executable, prefix) == (PYTHON, sys.base_prefix)
    assert PYTHON in mapped and any(Path(p).name.startswith("libc.so") for p in mapped)
    assert any(Path(p).name.startswith("ld-linux") for p in mapped)
    for path, (dev, ino) in mapped.items():
        host = os.stat(path)
        assert (host.st_dev, host.st_ino) != (dev, ino), path
        assert os.stat(copy.root / Path(path).relative_to("/")).st_ino == ino, path


def test_the_copy_holds_no_package_folder_nor_the_left_out_parts():
    """The copy has the standard library but no ``site-packages``/``dist-packages`` at any
    depth, none of the test suite, IDLE, tkinter, turtledemo, ensurepip or lib2to3, and its
    folder is the checker's alone."""
    copy = sandbox.python_copy()
    if copy is None:
        pytest.skip("no copy on this machine (no ldd)")
    stdlib = copy.root / Path(os.__file__).parent.relative_to("/")
    assert (stdlib / "os.py").is_file() and (stdlib / "json" / "__init__.py").is_file()
    assert (stdlib / "lib-dynload").is_dir()
    for name in ("test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3"):
        assert (Path(os.__file__).parent / name).is_dir(), name  # on the host
        assert not (stdlib / name).exists(), name
    folders = [f for f, subs, _ in os.walk(copy.root) for s in subs
               if s in ("site-packages", "dist-packages")]
    assert folders == []
    assert copy.root.stat().st_mode & 0o077 == 0


@pytest.fixture
def fresh_copy():
    """Forget the process's copy before and after (the next world makes a new one)."""
    sandbox._python_copy_once.cache_clear()
    yield
    sandbox._python_copy_once.cache_clear()


@BWRAP
def test_without_ldd_the_world_runs_as_before_and_says_so_once(monkeypatch, capfd, fresh_copy):
    """Where no copy can be made (here: no ``ldd``), the world binds the host's files as
    before (package folders covered) and the checker prints one line on stderr, once per
    run, saying the timing channel is open."""
    monkeypatch.setattr(sandbox, "_ldd", lambda: None)
    script = ("import json, os\n"
              "print(json.dumps([os.path.exists('/etc/passwd'), os.path.isfile(os.__file__)]))")
    assert _in_world(script) == [True, True]  # the host's /etc: no copy
    assert _in_world(script) == [True, True]
    err = capfd.readouterr().err
    lines = [line for line in err.splitlines() if "timing channel" in line]
    assert len(lines) == 1, err
    assert "ldd is not installed" in lines[0] and "page cache" in lines[0]


def test_the_copy_is_removed_when_the_process_exits(tmp_path):
    """Made once per process (a second call gives the same folder), gone after its exit."""
    script = ("import json, sys\nfrom bleu_lesson.grading import sandbox\n"
              "copy = sandbox.python_copy()\n"
              "assert copy is sandbox.python_copy()\n"
              "print(json.dumps(str(copy.root) if copy else None))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-800:]
    root = json.loads(out.stdout)
    if root is None:
        pytest.skip("no copy on this machine (no ldd)")
    assert Path(root).parent == tmp_path
    assert list(tmp_path.iterdir()) == []
