"""What ``--memory`` lets one submission hold in all.

    python benchmarks/bench_memory_limit.py [--children 2] [--each-mib 1536] [--hold 4]

RLIMIT_AS bounds each process's address space, not a sandbox: a submission that forks
could hold up to ``--memory`` in every process it may start (``Limits.processes``), so the
checker also sums the resident memory of the sandbox's processes while a cell runs and
stops the submission past ``--memory`` (``judge.Submission``). Where the
cgroups v2 memory controller is delegated, a cgroup could bound the whole tree; this
script first says whether it is (on a cgroups v1 or hybrid host it is not), then measures.

It checks one chapter-04 submission with ``bleu_lesson.grading.course.check_submissions``
(the real sandbox, ``--memory`` at its default of 2 GiB). The submission's first cell
forks ``--children`` processes; each of them and the kernel itself allocates and touches
``--each-mib`` MiB (less, 256 MiB at a time, when RLIMIT_AS refuses) and holds it for
``--hold`` seconds. Meanwhile this process sums the resident memory (VmRSS) of every
process inside a sandbox (the descendants of each ``bwrap`` whose command line names a
sandbox folder) every 0.1 s, and prints the peak, with the tmpfs the sandbox may fill on
top (not in VmRSS). Keep ``--children`` small on a shared machine: the peak is real.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
from pathlib import Path

from bleu_lesson.grading.course import check_submissions
from bleu_lesson.grading.sandbox import PREFIX, TMPFS_SIZE, Limits, backend

CELL = """import os, time
def _hold(mib):
    while mib > 0:
        try:
            block = bytearray(mib * 1024 ** 2)
            break
        except MemoryError:
            mib -= 256
    else:
        return 0
    for i in range(0, len(block), 4096):
        block[i] = 1
    time.sleep({hold})
    return mib
_pids = []
for _ in range({children}):
    _pid = os.fork()
    if _pid == 0:
        _hold({each})
        os._exit(0)
    _pids.append(_pid)
HELD = _hold({each})
for _pid in _pids:
    os.waitpid(_pid, 0)
"""


def cgroup_v2_memory() -> str:
    """Whether a cgroups v2 memory controller is available to this user, and why not."""
    root = Path("/sys/fs/cgroup")
    controllers = root / "cgroup.controllers"
    if not controllers.exists():
        unified = root / "unified" / "cgroup.controllers"
        if unified.exists() and "memory" not in unified.read_text().split():
            return ("no: cgroups v1/hybrid host; the v2 hierarchy (/sys/fs/cgroup/unified) "
                    f"has only {unified.read_text().split() or 'no'} controllers")
        return "no: /sys/fs/cgroup is not a cgroups v2 hierarchy"
    if "memory" not in controllers.read_text().split():
        return "no: the v2 hierarchy has no memory controller"
    own = Path("/proc/self/cgroup").read_text().strip().splitlines()[-1].split("::", 1)[-1]
    here = root / own.lstrip("/")
    if not os.access(here, os.W_OK):
        return f"no: this process's cgroup {own} is not delegated (not writable)"
    return f"yes: {own} is writable and has the memory controller"


def _sandboxed_pids() -> set[int]:
    """Every process below a ``bwrap`` whose command line names a sandbox folder."""
    children: dict[int, list[int]] = {}
    roots = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            cmd = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
        if b"bwrap" in cmd.split(b"\0")[0] and PREFIX.encode() in cmd:
            roots.append(int(entry.name))
    found: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo += children.get(pid, [])
    return found


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--children", type=int, default=2)
    parser.add_argument("--each-mib", type=int, default=1536)
    parser.add_argument("--hold", type=float, default=4.0)
    args = parser.parse_args()
    limits = Limits()
    print(f"backend: {backend()}; --memory (RLIMIT_AS per process): "
          f"{limits.memory / 1024 ** 3:g} GiB; processes: {limits.processes}")
    print(f"cgroups v2 memory controller: {cgroup_v2_memory()}")
    peak = {"kib": 0, "procs": 0}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            pids = _sandboxed_pids()
            total = sum(_rss_kib(p) for p in pids)
            if total > peak["kib"]:
                peak.update(kib=total, procs=len(pids))
            time.sleep(0.1)

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "04_memory.ipynb"
        cell = CELL.format(children=args.children, each=args.each_mib, hold=args.hold)
        path.write_text(json.dumps({
            "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"bleu_lesson": {"chapter": "04"},
                         "kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"}},
            "cells": [{"cell_type": "code", "id": "c0", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": cell}]}), encoding="utf-8")
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        t0 = time.monotonic()
        rows = check_submissions([path], timeout=120, jobs=1)
        done.set()
        sampler.join()
    print(f"check took {time.monotonic() - t0:.1f} s; rows: "
          f"{', '.join(f'{r.exercise} {r.status}' for r in rows)}")
    tmpfs = 2 * TMPFS_SIZE + (limits.work_size or 0)
    print(f"peak resident memory of the sandbox's processes: {peak['kib'] / 1024 ** 2:.2f} GiB "
          f"in {peak['procs']} processes ({args.children} forked children and the kernel "
          f"asked {args.each_mib} MiB each)")
    print(f"plus tmpfs it may fill (/tmp, /dev/shm, work folder): {tmpfs / 1024 ** 2:.0f} MiB")


if __name__ == "__main__":
    main()
