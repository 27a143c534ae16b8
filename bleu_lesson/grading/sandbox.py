"""A sandbox for running a student's notebook kernel: what it protects, and what not.

``Sandbox`` starts one command (a Jupyter kernel) in a throwaway environment built with
tools Linux already has, and kills it, with every process it started, on demand.
Three backends, chosen by ``backend()`` (the first that works on this machine):

``bwrap`` (bubblewrap)
    * its own PID namespace: the kernel is PID 2 of a namespace whose init dies with the
      checker (``--die-with-parent``); killing the sandbox kills every process a
      submission started, detached (``setsid``, double fork) or not. The checker is not
      visible inside and cannot be signalled.
    * its own network namespace (loopback only): no network; its own IPC and UTS
      namespaces; a new terminal session (no ``TIOCSTI`` on the checker's terminal).
    * a file system made of read-only bind mounts of only what Python needs: ``/usr``,
      ``/etc``, the Python installation, the virtual environment, the ``bleu_lesson``
      package folder (not the repository around it: the instructor's notebooks are not
      visible), the WMT22 data folder the library finds (``$BLEU_LESSON_WMT22_DIR``, else
      the user cache: ``wmt22_folder()``); a private
      ``/tmp`` and ``/dev/shm`` (tmpfs of ``TMPFS_SIZE``); one writable work folder, a
      tmpfs of ``Limits.work_size`` (home, ``TMPDIR`` and the notebook's folder, with a
      read-only copy of the submission), so every writable mount has a size.
      A ``bare`` sandbox (the judging world) binds none of the host's ``/usr``,
      ``/lib*``, ``/etc`` or Python, but a private copy of what its interpreter needs at
      the same paths (``python_copy``): it shares no file, hence no cached page, with any
      kernel sandbox.
    * a seccomp filter (``bleu_lesson.grading.seccomp``, x86_64 only): System V shared
      memory and memory files fail with EPERM, since their pages are in no process's
      RSS (what ``memory_held`` sums) and in no sized mount.
    * as root: the command runs as an unprivileged uid of its own from ``UID_POOL``
      (``setpriv``: uid and gid without passwd entry or process, no supplementary
      groups, no capabilities, ``no_new_privs``), so the process limit of one sandbox
      is not used up by another's processes; ``nobody`` (65534) when the pool is used up.
``unshare`` (util-linux)
    PID, network, IPC and UTS namespaces as above, the unprivileged user where Python is
    readable by others, and a mount namespace in which the Python installation, the
    virtual environment and the package are remounted read-only, the repository's
    ``notebooks/`` folder is hidden, the work folder is read-only with ``home``, ``tmp``
    and the notebook's folder on one tmpfs of ``Limits.work_size`` (as under bubblewrap),
    and ``/dev/shm`` and ``/var/tmp`` are tmpfs of ``TMPFS_SIZE``; but the host's ``/tmp``
    stays writable (unsized) and the rest of the host's file system is there:
    files the kernel's user can read or write elsewhere (instructor notebooks kept in
    another folder, for one) are in reach.
``none`` (no namespaces allowed, e.g. some containers)
    resource limits and a process group killed as a whole. A process that leaves the
    group (``setsid``) can survive; the network is open; the files of the user running
    the checker can be read and written. ``bleu-lesson check`` says so in its output.

Every backend applies resource limits (``prlimit``): address space (default 2 GiB),
CPU time, number of processes, size of a written file, open files; a scrubbed
environment (only ``PATH``, ``HOME``, ``TMPDIR``, locale, the data folder as
``BLEU_LESSON_WMT22_DIR``); and a
private work folder under the system's temporary folder, removed by ``close()``.

The kernel's sockets (Unix sockets, since there is no network) live in a folder that is
handed to the checker's user once the kernel is up, so the sandboxed code cannot swap a
socket for a link to another socket of the host.

What it does **not** protect: the kernel's own answers. Whatever the sandboxed code
sends back is untrusted data; ``bleu_lesson.grading.judge`` reads only plain values and judges
them in the checker, and takes them from ``bleu_lesson.grading.world`` (a ``bare`` sandbox:
the standard library and the exercise's building blocks only), where the reference does
not exist. Nor does it stop a student from copying code shown in the course into an
answer (the library source is readable, by design).
Under ``unshare`` as root with a Python others cannot read, the kernel would keep uid 0:
``refusal`` says so and no sandbox starts (a root kernel could write a later submission's
copy and reach other kernels' connection files). Nor does it stop a student from using up
what it is given: the CPU time, memory (RLIMIT_AS per process; the checker sums the
processes' resident memory while a cell runs and stops a submission past ``--memory``,
``memory_held``, but there are no cgroups, so the sum may be passed between two looks),
the process count (per sandbox under root, from the uid pool; shared when the checker is
not root, or when more sandboxes run than the pool has uids), disk space in the work
folder under ``none`` and the host's ``/tmp`` under ``unshare`` (each file at most
``file_size``, but not their number; under bubblewrap every writable mount is a sized
tmpfs), and, under ``unshare`` and ``none``, the host's world-readable files. A kernel
exploit escapes any of these sandboxes: for hostile code at scale, run the checker itself
in a virtual machine. """

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from bleu_lesson.data.datasets import WMT22_ENV_VAR, data_root

from .seccomp import shm_filter

__all__ = ["Limits", "PythonCopy", "Sandbox", "backend", "close_all", "describe", "python_copy",
           "refusal", "wmt22_folder",
           "BACKENDS", "PREFIX"]

BACKENDS = ("bwrap", "unshare", "none")
PREFIX = "bleu-lesson-check-"
NOBODY = 65534
#: Under root, each running sandbox gets a uid of its own from this pool (no passwd or
#: group entry, no process), because RLIMIT_NPROC counts the processes of a *uid*: with
#: one shared ``nobody``, one submission's fork bomb left the others no processes. When
#: the pool is used up, sandboxes share ``nobody`` (and its process limit) again.
UID_POOL = range(65470, 65534)
_UIDS_LOCK = threading.Lock()
_UIDS_TAKEN: set[int] = set()


def _uids_in_use() -> set[int]:
    """The uids of running processes (owners of /proc/PID) and of passwd/group entries."""
    import grp
    import pwd

    used = {p.pw_uid for p in pwd.getpwall()} | {g.gr_gid for g in grp.getgrall()}
    with os.scandir("/proc") as entries:
        for entry in entries:
            if entry.name.isdigit():
                try:
                    used.add(entry.stat(follow_symlinks=False).st_uid)
                except OSError:
                    pass
    return used


def _take_uid() -> int:
    """A free uid of ``UID_POOL`` for one sandbox (``NOBODY`` when none is left)."""
    with _UIDS_LOCK:
        used = _uids_in_use()
        for uid in UID_POOL:
            if uid not in _UIDS_TAKEN and uid not in used:
                _UIDS_TAKEN.add(uid)
                return uid
    return NOBODY


def _give_back(uid: int) -> None:
    with _UIDS_LOCK:
        _UIDS_TAKEN.discard(uid)
GiB = 1024 ** 3
TMPFS_SIZE = 256 * 1024 ** 2  # the private /tmp and /dev/shm under bubblewrap


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandbox (``None``: not limited)."""

    memory: int | None = 2 * GiB          # address space, bytes (RLIMIT_AS)
    cpu_seconds: int | None = 600         # CPU time (RLIMIT_CPU)
    processes: int | None = 256           # processes of the sandbox's user (RLIMIT_NPROC)
    file_size: int | None = 256 * 1024 ** 2  # largest file written (RLIMIT_FSIZE)
    open_files: int | None = 1024         # RLIMIT_NOFILE
    #: bytes the work folder (home, TMPDIR, the notebook's folder) may hold in all: under
    #: bubblewrap it is a tmpfs of this size, so writing past it fails with ENOSPC
    work_size: int | None = 256 * 1024 ** 2

    def __post_init__(self) -> None:
        for name in ("memory", "cpu_seconds", "processes", "file_size", "open_files",
                     "work_size"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or value <= 0):
                raise ValueError(f"Limits.{name} must be a positive int or None, "
                                 f"got {value!r}")

    def prlimit_args(self) -> list[str]:
        """The limits as ``prlimit`` options.

        >>> Limits(memory=2 * GiB, cpu_seconds=60, processes=None, file_size=None,
        ...        open_files=None).prlimit_args()
        ['--as=2147483648', '--cpu=60']
        """
        pairs = [("as", self.memory), ("cpu", self.cpu_seconds), ("nproc", self.processes),
                 ("fsize", self.file_size), ("nofile", self.open_files)]
        return [f"--{name}={value}" for name, value in pairs if value is not None]


def _probe(cmd: list[str]) -> bool:
    try:
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@functools.cache
def backend() -> str:
    """The strongest backend this machine allows: ``"bwrap"``, ``"unshare"`` or ``"none"``.

    ``BLEU_LESSON_SANDBOX`` (one of those names) chooses one by hand."""
    wanted = os.environ.get("BLEU_LESSON_SANDBOX")
    if wanted is not None:
        if wanted not in BACKENDS:
            raise ValueError(f"BLEU_LESSON_SANDBOX must be one of {', '.join(BACKENDS)}, "
                             f"got {wanted!r}")
        return wanted
    bwrap, unshare = shutil.which("bwrap"), shutil.which("unshare")
    if bwrap and _probe([bwrap, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net",
                         "--die-with-parent", "--proc", "/proc", "--dev", "/dev", "true"]):
        return "bwrap"
    if unshare and _probe([unshare, "--pid", "--fork", "--net", "--ipc", "--uts",
                           "--kill-child", "true"]):
        return "unshare"
    return "none"


def wmt22_folder() -> Path | None:
    """The WMT22 folder a sandboxed kernel is given, read-only, as ``$BLEU_LESSON_WMT22_DIR``
    (with its ``humaneval/`` subfolder): the one the library's lookup finds here
    (``bleu_lesson.data.datasets.data_root``: ``$BLEU_LESSON_WMT22_DIR``, then the user cache
    that ``make data`` fills), resolved; ``None`` when the data is on this machine nowhere.
    The kernel has a home of its own, so it would not find the checker's cache by itself."""
    root = data_root()
    return root.resolve() if root is not None else None


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _data_paths(folder: Path) -> list[Path]:
    """The data folder and every folder its symbolic links lead into (a cache made of links
    to a shared copy, a linked ``humaneval/``): the kernel gets each of them read-only, so
    the links resolve inside the sandbox as they do outside."""
    paths = [folder]

    def add(path: Path) -> None:
        if path.is_dir() and not any(_within(path, p) for p in paths):  # not a dangling link's
            paths.append(path)

    def follow(link: Path) -> None:
        # each link of a chain as it is written (the kernel follows the same text), to the end
        for _ in range(40):
            if not link.is_symlink():
                return
            link = Path(os.path.normpath(link.parent / os.readlink(link)))
            add(link if link.is_dir() else link.parent)

    for sub in (folder, folder / "humaneval"):
        if not sub.is_dir():
            continue
        follow(sub)
        for entry in sub.iterdir():
            follow(entry)
    return paths


def _others_can_run(path: Path) -> bool:
    """Whether a user other than the owner can reach and run ``path`` (mode bits)."""
    try:
        path = path.resolve()
        return all(p.stat().st_mode & 0o001 for p in [*path.parents]) and \
            bool(path.stat().st_mode & 0o005)
    except OSError:
        return False


def _python_paths() -> list[Path]:
    """Folders Python needs to run the kernel: the installation, the venv, the package."""
    paths = {Path(sys.base_prefix), Path(sys.prefix), Path(sys.exec_prefix),
             Path(sys.base_exec_prefix)}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_path(key)
        if p:
            paths.add(Path(p))
    package = Path(__file__).resolve().parents[1]  # the package folder only, not the repo
    paths.add(package)
    exe = Path(os.path.abspath(sys.executable))
    paths.add(exe.parent)
    paths.add(exe.resolve().parent)
    real = sorted({p.resolve() for p in paths if p.exists()}, key=lambda p: len(p.parts))
    kept: list[Path] = []
    for folder in real:  # drop folders inside one already kept
        if not any(_within(folder, k) for k in kept):
            kept.append(folder)
    return kept


def _stdlib_paths() -> list[Path]:
    """The folders of the Python installation itself (its standard library and binary),
    without the virtual environment or the package."""
    exe = Path(os.path.realpath(sys.executable))
    paths = {Path(sys.base_prefix).resolve(), exe.parent}
    for key in ("stdlib", "platstdlib"):
        p = sysconfig.get_path(key, vars={"base": sys.base_prefix,
                                          "platbase": sys.base_exec_prefix})
        if p:
            paths.add(Path(p).resolve())
    kept: list[Path] = []
    for folder in sorted((p for p in paths if p.exists()), key=lambda p: len(p.parts)):
        if not any(_within(folder, k) for k in kept):
            kept.append(folder)
    return kept


#: Names of the folders third-party packages live in (any Python's, under any prefix)
PACKAGE_FOLDER_NAMES = ("site-packages", "dist-packages")


def _visible_roots() -> list[Path]:
    """The host folders a bare sandbox binds (``_mounts``): ``/usr``, ``/etc``, the
    top-level system folders that are not links into ``/usr``, the Python installation."""
    roots = [Path("/usr"), Path("/etc")]
    for name in ("bin", "lib", "lib64", "lib32", "sbin"):
        p = Path("/") / name
        if p.is_dir() and not p.is_symlink():
            roots.append(p)
    return [*roots, *_stdlib_paths()]


@functools.cache
def _package_folders() -> tuple[Path, ...]:
    """Every folder third-party packages live in that a bare sandbox can see, found by
    walking what it binds (``_visible_roots``) for folders named ``site-packages`` or
    ``dist-packages``: this installation's, the system's, and those of any other Python
    on the host (a bundled interpreter's, say). Each is covered by an empty tmpfs, so no
    interpreter in there finds NLTK, sacrebleu or numpy. Found once per process."""
    import glob

    found = {Path(p) for p in (sysconfig.get_path("purelib", vars={"base": sys.base_prefix}),
                               sysconfig.get_path("platlib",
                                                  vars={"platbase": sys.base_exec_prefix}))
             if p}
    for pattern in ("/usr/lib/python3*/*-packages", "/usr/local/lib/python3*/*-packages",
                    "/usr/lib64/python3*/*-packages", "/usr/lib/python3/dist-packages"):
        found.update(Path(p) for p in glob.glob(pattern))
    for root in _visible_roots():
        for folder, subfolders, _files in os.walk(root):
            kept = []
            for name in subfolders:
                if name in PACKAGE_FOLDER_NAMES:
                    found.add(Path(folder) / name)
                else:
                    kept.append(name)
            subfolders[:] = kept  # nothing inside a package folder is looked at
    return tuple(sorted({p.resolve() for p in found if p.is_dir()}))


#: Folders at the top of the standard library that a world's copy leaves out: third-party
#: packages, the test suite, the GUI and the installers (``__pycache__`` inside them goes too).
STDLIB_LEFT_OUT = ("site-packages", "dist-packages", "test", "idlelib", "tkinter",
                   "turtledemo", "ensurepip", "lib2to3")
#: Extension modules a world's copy leaves out: ``_tkinter`` (its package is left out,
#: and it alone needs Tk and X11)
DYNLOAD_LEFT_OUT = ("_tkinter.",)


#: Folders only the judging world reads (``world.numpy_copy``): a kernel under ``unshare``,
#: which sees the host's ``/tmp`` with the checker's uid when that is not root, gets each
#: covered, so no submission can change what another's world imports (a bubblewrap kernel
#: never sees the host's ``/tmp``)
WORLD_ONLY: list[Path] = []
#: Variables that keep a BLAS library (numpy's OpenBLAS) to the calling thread: the
#: judging world's worker may start no thread or process (``RLIMIT_NPROC`` of 1)
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


@dataclass
class PythonCopy:
    """A private copy of what the judging world's interpreter needs (``python_copy``).

    ``root`` holds the files under their host paths (``root / "usr/lib/..."``); the world
    binds ``root / f`` read-only at ``f`` for each folder of ``folders``, so the paths
    (``sys.executable``, ``sys.prefix``, the loader's) are those of the host, but the
    files are new inodes whose cached pages no kernel sandbox has read."""

    root: Path
    folders: set[Path]
    files: int = 0
    size: int = 0
    seconds: float = 0.0
    #: folders whose extension modules' libraries are in the copy (``_add_libraries``)
    looked_at: set[Path] = field(default_factory=set)

    def binds(self) -> list[tuple[Path, Path]]:
        """``(copy, host path)`` pairs to bind, no folder inside another."""
        kept: list[Path] = []
        for folder in sorted(self.folders, key=lambda p: len(p.parts)):
            if not any(_within(folder, k) for k in kept):
                kept.append(folder)
        return [(self.root / f.relative_to("/"), f) for f in kept]


def _make_dirs(folder: Path) -> None:
    """``mkdir -p`` whose new folders are 0755 whatever the umask (the world's uid reads
    them under root)."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for f in reversed(missing):
        f.mkdir()
        os.chmod(f, 0o755)


def _mirror(path: Path, copy: PythonCopy) -> None:
    """Copy host file ``path`` into ``copy`` at its real folder's path, and every link of
    a chain to it as a link (``libz.so.1 -> libz.so.1.2.13``), so the names the loader and
    Python open resolve inside the world as they do outside."""
    for _ in range(40):
        parent = Path(os.path.realpath(path.parent))
        here = parent / path.name
        target = copy.root / here.relative_to("/")
        copy.folders.add(parent)
        _make_dirs(target.parent)
        if here.is_symlink():
            text = os.readlink(here)
            if not target.is_symlink():
                os.symlink(text, target)
            path = Path(os.path.normpath(parent / text))
            continue
        if not here.is_file():
            raise OSError(f"{here} is not a file")
        if not target.exists():
            shutil.copy2(here, target)
            copy.files += 1
            copy.size += target.stat().st_size
        return
    raise OSError(f"{path}: too many levels of symbolic links")


def _ldd() -> str | None:
    """The ``ldd`` program (``None``: not installed; then the world gets no copy)."""
    return shutil.which("ldd")


def _needed(ldd: str, elves: list[Path]) -> set[Path]:
    """Every shared library (and the loader) ``elves`` load, as ``ldd`` resolves them on
    this machine. A library ``ldd`` cannot find is an error."""
    if not elves:
        return set()
    out = subprocess.run([ldd, *map(str, elves)], capture_output=True, text=True,
                         timeout=60, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})
    found: set[Path] = set()
    for line in out.stdout.splitlines():
        line = line.strip()
        if "not found" in line:
            raise OSError(f"ldd: {line}")
        if "=>" in line:
            line = line.split("=>", 1)[1].strip()
        path = line.split(" (", 1)[0].strip()
        if path.startswith("/") and not path.endswith(":"):
            found.add(Path(path))
    if out.returncode != 0 and not found:
        raise OSError(f"ldd failed: {out.stderr.strip()[:200]}")
    return found


def _make_python_copy() -> PythonCopy:
    """Copy, into a new temporary folder, the interpreter the world runs, the programs the
    sandbox runs before it (``prlimit``, ``setpriv``), the standard library without
    ``STDLIB_LEFT_OUT``, any package folder and ``-O``'s bytecode, every shared library those
    binaries and extension modules load (``ldd``) with the loader, and the ``C.UTF-8``
    locale the sandbox's environment names. Nothing of ``/etc``: ``-I -S`` reads none."""
    import atexit
    import time

    ldd = _ldd()
    if ldd is None:
        raise OSError("ldd is not installed")
    start = time.perf_counter()
    root = Path(tempfile.mkdtemp(prefix="bleu-lesson-python-")).resolve()
    os.chmod(root, 0o700)
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    copy = PythonCopy(root, set())
    try:
        python = Path(os.path.realpath(sys.executable))
        stdlibs = {Path(p).resolve() for p in (
            sysconfig.get_path("stdlib", vars={"installed_base": sys.base_prefix,
                                               "base": sys.base_prefix}),
            sysconfig.get_path("platstdlib", vars={"installed_platbase":
                                                   sys.base_exec_prefix,
                                                   "platbase": sys.base_exec_prefix}))
            if p}
        elves = [python, *(Path(p) for p in (shutil.which("prlimit"), shutil.which("setpriv"))
                           if p)]

        def left_out(folder: str, names: list[str]) -> set[str]:
            here = Path(folder)
            # optimised bytecode: the world's interpreter runs without -O and never reads it
            out = {n for n in names if n in PACKAGE_FOLDER_NAMES or ".opt-" in n}
            if here in stdlibs:
                out |= {n for n in names if n in STDLIB_LEFT_OUT or n.startswith("config-")}
            if here.name == "lib-dynload":
                out |= {n for n in names if n.startswith(DYNLOAD_LEFT_OUT)}
            return out

        for stdlib in sorted(stdlibs, key=lambda p: len(p.parts)):
            target = root / stdlib.relative_to("/")
            if target.exists():
                continue  # platstdlib inside stdlib, copied with it
            _make_dirs(target.parent)
            shutil.copytree(stdlib, target, symlinks=True, ignore=left_out,
                            copy_function=shutil.copy2)
            copy.folders.add(stdlib)
        for f in root.rglob("*"):
            if f.is_file() and not f.is_symlink():
                copy.files += 1
                copy.size += f.stat().st_size
                if f.suffix == ".so":
                    elves.append(Path("/") / f.relative_to(root))
        for elf in elves:
            _mirror(elf, copy)
        for lib in sorted(_needed(ldd, elves)):
            _mirror(lib, copy)
        locale = Path("/usr/lib/locale/C.utf8")
        if locale.is_dir():
            for f in sorted(locale.rglob("*")):
                if f.is_file():
                    _mirror(f, copy)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    copy.seconds = time.perf_counter() - start
    return copy


_COPY_LOCK = threading.Lock()


@functools.cache
def _python_copy_once() -> PythonCopy | None:
    try:
        return _make_python_copy()
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        print(f"bleu-lesson: WARNING: could not copy Python for the judging world ({exc}); "
              "it reads the host's files, so a timing channel through the page cache to "
              "the kernels stays open", file=sys.stderr, flush=True)
        return None


def python_copy() -> PythonCopy | None:
    """The judging world's private copy of Python (``PythonCopy``), made once per process
    and removed at its exit; ``None`` (with one warning on stderr) when it cannot be made:
    then the world binds the host's files as before."""
    with _COPY_LOCK:
        return _python_copy_once()


def _add_libraries(copy: PythonCopy, folders: list[Path]) -> None:
    """Add to ``copy`` the shared libraries that the extension modules in ``folders`` (a
    world's copy of a library: sacrebleu's ``regex``, numpy) load and the copy lacks; a
    library inside one of ``folders`` (``numpy.libs``) is bound with it. A folder is
    looked at once (numpy's copy serves every world of a run)."""
    with _COPY_LOCK:
        folders = [f for f in folders if f not in copy.looked_at]
        elves = [f for folder in folders for f in folder.rglob("*.so*")
                 if f.is_file() and (f.suffix == ".so" or ".so." in f.name)]
        copy.looked_at.update(folders)
        if not elves:
            return
        try:
            for lib in sorted(_needed(_ldd() or "ldd", elves)):
                if not any(_within(lib.resolve(), f) for f in folders):
                    _mirror(lib, copy)
        except (OSError, subprocess.SubprocessError):
            pass  # the module then fails to import in the world, where the answer fails


_ALL: set[Sandbox] = set()  # every sandbox not yet closed, to close them all at once
_ALL_LOCK = threading.Lock()
_CLOSING = threading.Event()


def close_all() -> int:
    """Kill and remove every sandbox of this process; judging starts no new one until
    ``allow_new`` (an interrupted or terminated ``check``: no copy of a submission
    survives). Returns how many."""
    _CLOSING.set()
    with _ALL_LOCK:
        boxes = list(_ALL)
    for box in boxes:
        box.close()
    return len(boxes)


def allow_new() -> None:
    """A new ``check`` run: judging may start sandboxes again after ``close_all``."""
    _CLOSING.clear()


def closing() -> bool:
    """Whether ``close_all`` ended the run: judging starts no new sandbox then."""
    return _CLOSING.is_set()


#: A Unix socket's path holds at most 107 bytes; the kernel's sockets are
#: ``<work folder>/ipc/k-<n>-<port>``, so a deep TMPDIR (a test runner's, a CI's) would make
#: them unusable ("File name too long"): such a TMPDIR gives way to /tmp.
_SOCKET_PATH_MAX = 107


def _short_temp() -> str | None:
    """The folder for a sandbox's work folder: TMPDIR, unless the kernel's socket paths
    under it would be too long for a Unix socket; then /tmp (None: the default)."""
    base = tempfile.gettempdir()
    longest = len(os.path.join(os.path.realpath(base), PREFIX + "x" * 8, "ipc", "k-99-99999"))
    if longest > _SOCKET_PATH_MAX and os.access("/tmp", os.W_OK | os.X_OK):
        return "/tmp"
    return None


class Sandbox:
    """One throwaway environment: ``start(argv)`` once, then ``kill()`` and ``close()``.

    ``workdir`` is the only writable folder (besides a private ``/tmp``); ``home`` and
    ``tmp`` are inside it (under bubblewrap, inside the sandbox, a tmpfs of
    ``Limits.work_size`` bytes). Use as a context manager to be sure it is cleaned up.
    """

    def __init__(self, limits: Limits | None = None, *, kind: str | None = None,
                 readable: tuple[str | Path, ...] = (), bare: bool = False) -> None:
        self.limits = limits or Limits()
        self.kind = kind or backend()
        if self.kind not in BACKENDS:
            raise ValueError(f"kind must be one of {', '.join(BACKENDS)}, got {self.kind!r}")
        self.readable = [Path(p).resolve() for p in readable if Path(p).exists()]
        #: ``bare``: the Python installation's standard library only (under bubblewrap a
        #: private copy without package folders, ``python_copy``; else every site-packages
        #: and dist-packages folder covered), no virtual environment, no package, no data,
        #: for the judging child of ``bleu_lesson.grading.world``
        self.bare = bare
        self.workdir = Path(tempfile.mkdtemp(prefix=PREFIX, dir=_short_temp())).resolve()
        self.home = self.workdir / "home"
        self.tmp = self.workdir / "tmp"
        self.nbdir = self.workdir / "nb"
        self.ipcdir = self.workdir / "ipc"  # the kernel's sockets
        for d in (self.home, self.tmp, self.nbdir, self.ipcdir):
            d.mkdir()
        #: under ``unshare``, where the tmpfs of the work folder is mounted
        self.sized = self.workdir / ".sized"
        if self.kind == "unshare":
            self.sized.mkdir()
        why = refusal(self.kind)
        if why:
            raise ValueError(why)
        with _ALL_LOCK:
            _ALL.add(self)
        self.as_nobody = _as_nobody(self.kind)  # an unprivileged uid, its own if it can
        self.uid = _take_uid() if self.as_nobody else os.geteuid()
        if self.as_nobody:
            for d in (self.workdir, self.home, self.tmp, self.nbdir, self.ipcdir):
                os.chown(d, self.uid, self.uid)
        #: the WMT22 folder the kernel gets read-only (found once: the mounts and the
        #: environment name the same one)
        self.data = None if bare else wmt22_folder()
        self.proc: subprocess.Popen | None = None
        self.killed = False

    # -- the environment ------------------------------------------------------------

    def environment(self) -> dict[str, str]:
        """The scrubbed environment: nothing of the checker's own is passed on."""
        bindir = os.path.dirname(os.path.abspath(sys.executable))
        env = {
            "PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home), "TMPDIR": str(self.tmp),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
            "MPLCONFIGDIR": str(self.home / ".matplotlib"),
            "IPYTHONDIR": str(self.home / ".ipython"),
            "JUPYTER_RUNTIME_DIR": str(self.home / ".jupyter-runtime"),
            "JUPYTER_CONFIG_DIR": str(self.home / ".jupyter"),
            "JUPYTER_DATA_DIR": str(self.home / ".jupyter-data"),
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            "BLEU_LESSON_SANDBOXED": self.kind,
        }
        if self.data is not None:
            env[WMT22_ENV_VAR] = str(self.data)
        if self.bare:  # the world's numpy: its BLAS starts no thread (RLIMIT_NPROC is 1)
            env.update({name: "1" for name in BLAS_THREADS})
        return env

    def _mounts(self) -> list[str]:
        copy = python_copy() if self.bare else None
        if copy is not None:
            return self._world_mounts(copy)
        args = ["--ro-bind", "/usr", "/usr"]
        for name in ("bin", "lib", "lib64", "lib32", "sbin"):
            p = Path("/") / name
            if p.is_symlink():
                args += ["--symlink", os.readlink(p), str(p)]
            elif p.is_dir():
                args += ["--ro-bind", str(p), str(p)]
        tmpfs = str(TMPFS_SIZE)  # in memory: bounded
        args += ["--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev",
                 "--perms", "1777", "--size", tmpfs, "--tmpfs", "/tmp",
                 "--perms", "1777", "--size", tmpfs, "--tmpfs", "/dev/shm"]
        system = [Path("/usr"), Path("/etc")]
        binds = [(p, "--ro-bind") for p in (_stdlib_paths() if self.bare else _python_paths())]
        if self.data is not None:
            binds += [(p, "--ro-bind") for p in _data_paths(self.data)]
        binds += [(p, "--ro-bind") for p in self.readable]
        made: set[Path] = {Path("/"), Path("/tmp")}
        for path, how in binds:
            if how == "--ro-bind" and any(_within(path, s) for s in system):
                continue  # already visible, read-only, through /usr or /etc
            for parent in reversed(path.parents):
                if parent in made or any(_within(parent, s) for s in system):
                    continue
                args += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
            args += [how, str(path), str(path)]
            made.add(path)
        args += self._work_mounts(made)
        if self.bare:
            for hidden in _package_folders():
                args += ["--size", str(1024 ** 2), "--tmpfs", str(hidden)]
        return args

    def _world_mounts(self, copy: PythonCopy) -> list[str]:
        """The judging world's file system: none of the host's ``/usr``, ``/etc`` or
        Python, but ``copy`` (``python_copy``) bound read-only at the same paths, the
        ``readable`` folders (the world's own copies), ``/proc``, ``/dev``, the sized
        tmpfs mounts and the work folder. No file here is one a kernel sandbox can read."""
        _add_libraries(copy, self.readable)
        args: list[str] = []
        for name in ("bin", "lib", "lib64", "lib32", "sbin"):
            p = Path("/") / name
            if p.is_symlink():  # merged /usr: the link leads into the copy's folders
                args += ["--symlink", os.readlink(p), str(p)]
        tmpfs = str(TMPFS_SIZE)
        args += ["--proc", "/proc", "--dev", "/dev",
                 "--perms", "1777", "--size", tmpfs, "--tmpfs", "/tmp",
                 "--perms", "1777", "--size", tmpfs, "--tmpfs", "/dev/shm"]
        made: set[Path] = {Path("/"), Path("/tmp")}
        for source, path in [*copy.binds(), *((p, p) for p in self.readable)]:
            for parent in reversed(path.parents):
                if parent not in made:
                    args += ["--perms", "0755", "--dir", str(parent)]
                    made.add(parent)
            args += ["--ro-bind", str(source), str(path)]
            made.add(path)
        return args + self._work_mounts(made)

    def _work_mounts(self, made: set[Path]) -> list[str]:
        """The work folder inside the sandbox: a tmpfs of ``Limits.work_size`` bytes (no
        size: the host's folder itself) holding ``home``, ``tmp`` and ``nb``, with the
        checker's files put there before the start bound read-only on top, and the
        sockets' folder bound from the host (the checker connects to them)."""
        args: list[str] = []
        for parent in reversed(self.workdir.parents):
            if parent not in made:
                args += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        if self.limits.work_size is None:
            return [*args, "--bind", str(self.workdir), str(self.workdir)]
        args += ["--perms", "0755", "--size", str(self.limits.work_size), "--tmpfs",
                 str(self.workdir)]
        for d in (self.home, self.tmp, self.nbdir):
            args += ["--perms", "1777", "--dir", str(d)]
        args += ["--bind", str(self.ipcdir), str(self.ipcdir)]
        for folder in (self.workdir, self.nbdir):
            for f in sorted(folder.iterdir()):
                if f.is_file() and not f.is_symlink():
                    args += ["--ro-bind", str(f), str(f)]
        return args

    def command(self, argv: list[str], seccomp_fd: int | None = None) -> list[str]:
        """The full command line that runs ``argv`` inside this sandbox (under bubblewrap,
        with the seccomp program readable on ``seccomp_fd``, if given: ``start``)."""
        inner = list(argv)
        prlimit = shutil.which("prlimit")
        if prlimit and self.limits.prlimit_args():
            inner = [prlimit, *self.limits.prlimit_args(), "--", *inner]
        setpriv = shutil.which("setpriv") or "setpriv"
        if self.as_nobody:
            inner = [setpriv, f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                     "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", *inner]
        elif os.geteuid() == 0 and self.kind != "none":
            # root stays root (no other uid can run this Python) but without capabilities,
            # so it cannot undo the mounts: unmount the hidden notebooks, remount read-write
            inner = [setpriv, "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all",
                     *inner]
        if self.kind == "bwrap":
            seccomp = [] if seccomp_fd is None else ["--seccomp", str(seccomp_fd)]
            return [shutil.which("bwrap") or "bwrap", "--die-with-parent", "--unshare-pid",
                    "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                    "--new-session", *seccomp, *self._mounts(), "--chdir", str(self.nbdir),
                    "--", *inner]
        if self.kind == "unshare":
            return [shutil.which("unshare") or "unshare", "--pid", "--fork", "--kill-child",
                    "--mount", "--propagation", "private", "--mount-proc", "--net", "--ipc",
                    "--uts", "--", "/bin/sh", "-c", self._unshare_script(), "sh", *inner]
        return inner

    def _unshare_script(self) -> str:
        """Shell run inside unshare's mount namespace before the command: the Python
        folders and the package read-only, the repository's notebooks hidden. Any failure
        stops the sandbox."""
        import shlex

        lines = ["set -e"]
        data = _data_paths(self.data) if self.data is not None else []
        for folder in [*_python_paths(), *data]:
            q = shlex.quote(str(folder))
            lines += [f"mount --bind {q} {q}", f"mount -o remount,bind,ro {q} {q}"]
        if self.bare:
            hide = [*_package_folders(), Path(sys.prefix).resolve(),
                    Path(__file__).resolve().parents[1]]
            for folder in dict.fromkeys(hide):
                lines.append(f"mount -t tmpfs -o size=1m,mode=0755 none "
                             f"{shlex.quote(str(folder))}")
        else:
            for folder in WORLD_ONLY:
                lines.append(f"mount -t tmpfs -o size=1m,mode=0755 none "
                             f"{shlex.quote(str(folder))}")
        notebooks = Path(__file__).resolve().parents[2] / "notebooks"
        if notebooks.is_dir():
            lines.append(f"mount -t tmpfs -o size=1m,mode=0755 none "
                         f"{shlex.quote(str(notebooks))}")
        lines += self._unshare_work_lines()
        for shared in ("/dev/shm", "/var/tmp"):  # world-writable folders of the host
            if Path(shared).is_dir():
                lines.append(f"mount -t tmpfs -o size={TMPFS_SIZE},mode=1777 none {shared}")
        lines.append('exec "$@"')
        return "\n".join(lines)

    def _unshare_work_lines(self) -> list[str]:
        """Shell lines that give the work folder a size under ``unshare``, as bubblewrap's
        ``_work_mounts`` does: the host's folder is remounted read-only, and ``home``,
        ``tmp`` and ``nb`` become folders of one tmpfs of ``Limits.work_size`` bytes
        (mounted at ``.sized``), the checker's files in ``nb`` bound read-only into it;
        the sockets' folder stays the host's, writable."""
        import shlex

        if self.limits.work_size is None:
            return []
        q = shlex.quote
        work, sized = q(str(self.workdir)), q(str(self.sized))
        lines = [f"mount --bind {work} {work}", f"mount -o remount,bind,ro {work} {work}",
                 f"mount -t tmpfs -o size={self.limits.work_size},mode=0755 none {sized}",
                 f"mkdir -m 1777 {sized}/home {sized}/tmp {sized}/nb"]
        for f in sorted(self.nbdir.iterdir()):
            if f.is_file() and not f.is_symlink():
                target = q(str(self.sized / "nb" / f.name))
                lines += [f": > {target}", f"mount --bind {q(str(f))} {target}",
                          f"mount -o remount,bind,ro {target} {target}"]
        for d in (self.home, self.tmp, self.nbdir):
            lines.append(f"mount --rbind {sized}/{d.name} {q(str(d))}")
        ipc = q(str(self.ipcdir))
        lines += [f"mount --bind {ipc} {ipc}", f"mount -o remount,bind,rw {ipc} {ipc}",
                  f"cd {q(str(self.nbdir))}"]  # the mounted folder, not the host's under it
        return lines

    # -- running ----------------------------------------------------------------------

    def start(self, argv: list[str], **popen) -> subprocess.Popen:
        """Start ``argv`` in the sandbox (its own session: one group to kill; stdin
        ``/dev/null`` unless given). Under bubblewrap the command runs under the seccomp
        filter of ``bleu_lesson.grading.seccomp`` (no System V shared memory, no memory
        files, no key store, no look into the page cache; in a bare sandbox, the judging
        world, no file locks), handed to bubblewrap on a pipe."""
        if self.proc is not None or self.killed:
            raise RuntimeError("this sandbox already ran a command, or was killed")
        popen.setdefault("stdin", subprocess.DEVNULL)
        program = shm_filter(world=self.bare) if self.kind == "bwrap" else None
        if program is None:
            self.proc = subprocess.Popen(self.command(argv), env=self.environment(),
                                         cwd=self.nbdir, start_new_session=True, **popen)
            return self.proc
        read, write = os.pipe()
        try:
            os.write(write, program)  # a few hundred bytes: far below a pipe's buffer
            os.close(write)
            write = -1
            self.proc = subprocess.Popen(self.command(argv, seccomp_fd=read),
                                         env=self.environment(), cwd=self.nbdir,
                                         start_new_session=True, pass_fds=(read,), **popen)
        finally:
            os.close(read)
            if write != -1:
                os.close(write)
        return self.proc

    def seal_sockets(self) -> None:
        """Once the kernel has bound its sockets: make their folder the checker's, so the
        sandboxed code cannot swap a socket for a link to some other socket of the host
        (the checker reconnects to the same paths)."""
        if self.as_nobody:
            os.chown(self.ipcdir, os.geteuid(), os.getegid())
            os.chmod(self.ipcdir, 0o755)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def memory_held(self) -> int:
        """Bytes of resident memory (RSS) of every process the sandbox runs, summed.

        Pages a fork shares count once per process, so this is an upper bound; the
        checker compares it with ``Limits.memory`` (RLIMIT_AS bounds each process only).
        """
        if self.proc is None:
            return 0
        page = os.sysconf("SC_PAGE_SIZE")
        total = 0
        for pid in (self.proc.pid, *_descendants(self.proc.pid)):
            try:
                total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * page
            except (OSError, IndexError, ValueError):
                pass  # gone meanwhile
        return total

    def kill(self) -> None:
        """Kill everything the sandbox runs, now, whatever holds a pipe."""
        self.killed = True
        proc = self.proc
        if proc is None:
            return
        inside = _descendants(proc.pid)  # the PID namespace's processes, seen from here
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.kill()
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process in D state
            pass
        _wait_gone(inside)  # the kernel kills a namespace's processes after its init

    def close(self) -> None:
        """Kill the sandbox, remove its work folder and give its uid back to the pool."""
        self.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)
        with _ALL_LOCK:
            _ALL.discard(self)
        if self.as_nobody and self.uid != NOBODY and (self.proc is None or
                                                      self.proc.poll() is not None):
            _give_back(self.uid)  # everything in its PID namespace died with it

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def describe(self) -> str:
        return describe(self.kind)


def _descendants(pid: int) -> list[int]:
    """Every living process below ``pid`` (read from /proc; empty where there is none)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _wait_gone(pids: list[int], limit: float = 5.0) -> None:
    """Return once none of ``pids`` runs any more (dead or a zombie), or after ``limit`` s."""
    import time

    deadline = time.monotonic() + limit
    for pid in pids:
        while time.monotonic() < deadline:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                break  # gone
            if state in ("Z", "X"):
                break
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            time.sleep(0.02)


def refusal(kind: str) -> str | None:
    """Why this machine must not run student code with backend ``kind`` (``None``: it
    may). Under ``unshare`` as root with a Python other users cannot run (pyenv under
    /root), the kernel would keep uid 0: it could then write a later submission's copy
    and reach other students' live kernels through their connection files."""
    if kind == "unshare" and os.geteuid() == 0 and not _as_nobody(kind):
        return (f"the unshare sandbox would run student code as root, since other users "
                f"cannot run this Python ({os.path.realpath(sys.executable)}): install "
                f"bubblewrap (bwrap), or use a Python that others can read and run")
    return None


def _as_nobody(kind: str) -> bool:
    # bwrap rebuilds the folders above Python world-readable; unshare cannot, so an
    # interpreter under /root (pyenv) keeps the checker's uid there
    return os.geteuid() == 0 and (
        kind == "bwrap" or (kind == "unshare" and _others_can_run(Path(sys.executable))))


def describe(kind: str | None = None) -> str:
    """One line for the checker's output: which sandbox, and what it lacks."""
    kind = kind or backend()
    chosen = os.environ.get("BLEU_LESSON_SANDBOX") == kind  # by hand, not by the probe
    user = ("as an unprivileged uid of its own" if _as_nobody(kind)
            else f"as uid {os.geteuid()}")
    by_hand = f", chosen by BLEU_LESSON_SANDBOX={kind}" if chosen else ""
    if kind == "bwrap":
        return (f"sandbox: bubblewrap (PID and network namespaces, read-only files, "
                f"{user}{by_hand})")
    if kind == "unshare":
        return (f"sandbox: unshare (PID and network namespaces, read-only package, "
                f"{user}{by_hand}); WARNING: the host's other files are in reach inside")
    why = "chosen by BLEU_LESSON_SANDBOX=none" if chosen else "namespaces unavailable"
    return (f"sandbox: NONE ({why}): resource limits and a process "
            "group only; WARNING: submissions can read and write your files, use the "
            "network, and a process that leaves its group can survive")
