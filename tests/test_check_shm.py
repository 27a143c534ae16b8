"""No shared memory escapes ``--memory`` under bubblewrap, and no key store outlives a
sandbox (issue 20, classes 3 and 6).

The checker sums the resident memory of a submission's processes; a System V shared
memory segment (``shmget`` -> ``shmat`` -> ``memset`` -> ``shmdt``) and a memory file
(``os.memfd_create``) keep their pages in no process's RSS and no sized mount, so a hostile
cell held 3 GB in the kernel (4 GB in the judging world) under ``--memory 2G`` and its rows
passed. Every bubblewrap sandbox now runs under ``bleu_lesson.grading.seccomp``'s filter:
those calls fail with EPERM, in the kernel and in the judging world.

Each attack submission below makes its answer right only where the attack was refused
with EPERM: where the call works, the cell ends its process (kernel or world) and the
answer returns a wrong value, so the row cannot be ``pass``. Before the filter both attack
rows were ``error`` (the kernel ended itself) while the honest row passed.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from notebook_tools import code_notebook

from bleu_lesson.grading import course, sandbox, seccomp

BWRAP = pytest.mark.skipif(
    sandbox.backend() != "bwrap" or seccomp.shm_filter() is None,
    reason="the seccomp filter is bubblewrap's, on x86_64 only")

RIGHT = """import math
def _right_bp(c, r):
    return 1.0 if c > r else (0.0 if c == 0 else math.exp(1 - r / c))
"""
#: the reviewer's SysV attack, 2 x 8 MiB here: True when shmget was refused with EPERM
SHM = """import ctypes, errno, os
def _shm_attack(segments=2, mib=8):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    for _ in range(segments):
        sid = libc.shmget(0, mib << 20, 0o1000 | 0o600)  # IPC_PRIVATE, IPC_CREAT
        if sid < 0:
            err = ctypes.get_errno()
            raise PermissionError(err, os.strerror(err)) if err == errno.EPERM else \\
                OSError(err, os.strerror(err))
        p = libc.shmat(sid, None, 0)
        ctypes.memset(p, 1, mib << 20)
        libc.shmdt(ctypes.c_void_p(p))
def _refused():
    try:
        _shm_attack()
    except PermissionError:
        return True
    return False
"""
#: the reviewer's memfd attack, 2 x 8 MiB kept open: True when memfd_create was refused
MEMFD = """import os
_held = []
def _refused():
    try:
        for _ in range(2):
            fd = os.memfd_create("hold")
            os.ftruncate(fd, 8 << 20)
            os.pwrite(fd, b"1" * (8 << 20), 0)
            _held.append(fd)
    except PermissionError:
        return True
    return False
"""
#: the fifth hostile review's keyring channel: a key added in the kernel outlived the
#: sandbox and the judging world read it back (add_key, then keyctl READ); True when
#: add_key was refused with EPERM
KEYRING = """import ctypes, errno, os
def _refused():
    libc = ctypes.CDLL(None, use_errno=True)
    # add_key("user", description, payload, plen, KEY_SPEC_USER_KEYRING)
    serial = libc.syscall(248, b"user", b"bleu-lesson-test", b"stash", 5, -4)
    if serial >= 0:
        libc.syscall(250, 3, serial)  # keyctl(KEYCTL_REVOKE): leave nothing behind
        return False
    return ctypes.get_errno() == errno.EPERM
"""
#: in the kernel and again in the world: a process where the attack worked ends itself,
#: and the answer (called in the world) is right only where it is refused there too
USE = """if not _refused():
    os._exit(3)
def my_brevity_penalty(c, r):
    return _right_bp(c, r) if _refused() else -1.0
"""
HONEST = RIGHT + "my_brevity_penalty = _right_bp\n"


def _notebook(cells: list[str]) -> dict:
    return code_notebook(cells)


@BWRAP
def test_shared_memory_attacks_are_refused_and_an_honest_answer_still_passes(tmp_path):
    paths = []
    for name, cells in (("shm", [RIGHT, SHM, USE]), ("memfd", [RIGHT, MEMFD, USE]),
                        ("keyring", [RIGHT, KEYRING, USE]), ("honest", [HONEST])):
        path = tmp_path / f"04_{name}.ipynb"
        path.write_text(json.dumps(_notebook(cells)), encoding="utf-8")
        paths.append(path)
    found = course.check_submissions(paths, timeout=60, jobs=2, limits=sandbox.Limits())
    rows = {f"{Path(r.submission).stem[3:]} {r.exercise}": r for r in found}
    statuses = {name: rows[f"{name} 4.1"].status
                for name in ("shm", "memfd", "keyring", "honest")}
    assert statuses == {"shm": "pass", "memfd": "pass", "keyring": "pass", "honest": "pass"}, \
        rows


PROBE = """import ctypes, errno, mmap, os
libc = ctypes.CDLL(None, use_errno=True)
print("shmget", libc.shmget(0, 1 << 20, 0o1000 | 0o600), ctypes.get_errno() == errno.EPERM)
try:
    os.memfd_create("x")
    print("memfd allowed")
except PermissionError:
    print("memfd EPERM")
m = mmap.mmap(-1, 1 << 20)
m[0] = 1
print("mmap", m[0])
import socket
a, b = socket.socketpair()
try:
    a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 24)
    print("sndbuf allowed")
except PermissionError:
    print("sndbuf EPERM")
a.sendall(b"hi")
print("socket", b.recv(2).decode())
for name, nr, args in (("add_key", 248, (b"user", b"bleu-lesson-probe", b"x", 1, -4)),
                       ("request_key", 249, (b"user", b"bleu-lesson-probe", None, 0)),
                       ("keyctl", 250, (0, -4, 0))):  # KEYCTL_GET_KEYRING_ID
    print(name, libc.syscall(nr, *args), ctypes.get_errno() == errno.EPERM)
fd = os.open(os.__file__, os.O_RDONLY)
for name, call in (("fadvise", lambda: os.posix_fadvise(fd, 0, 4096, os.POSIX_FADV_DONTNEED)),
                   ("nowait", lambda: os.preadv(fd, [bytearray(1)], 0, os.RWF_NOWAIT))):
    try:
        call()
        print(name, "allowed")
    except PermissionError:
        print(name, "EPERM")
print("pread", len(os.pread(fd, 16, 0)))
"""


@BWRAP
def test_inside_the_sandbox_the_calls_fail_with_eperm_and_ordinary_memory_works():
    with sandbox.Sandbox() as box:
        proc = box.start([sys.executable, "-I", "-c", PROBE], stdout=subprocess.PIPE)
        out, _ = proc.communicate(timeout=60)
    assert out.decode().split("\n")[:11] == ["shmget -1 True", "memfd EPERM", "mmap 1",
                                            "sndbuf EPERM", "socket hi", "add_key -1 True",
                                            "request_key -1 True", "keyctl -1 True",
                                            "fadvise EPERM", "nowait EPERM", "pread 16"], out


def _run_bpf(program: bytes, nr: int, arch: int, args: tuple[int, ...] = ()) -> int:
    """What a classic BPF program returns for ``struct seccomp_data`` (nr, arch, ip, args):
    a small interpreter written from linux/filter.h, for the instructions a filter may use."""
    six = (list(args) + [0] * 6)[:6]
    data = struct.pack("=iIQ6Q", nr, arch, 0, *six)
    ops = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = ops[pc]
        pc += 1
        if code == 0x20:  # BPF_LD | BPF_W | BPF_ABS
            acc = struct.unpack_from("=I", data, k)[0]
        elif code == 0x06:  # BPF_RET | BPF_K
            return k
        elif code in (0x15, 0x35):  # BPF_JMP | BPF_JEQ / BPF_JGE | BPF_K
            taken = acc == k if code == 0x15 else acc >= k
            pc += jt if taken else jf
        else:
            raise AssertionError(f"instruction {code:#x} not expected")


@pytest.mark.skipif(seccomp.shm_filter() is None, reason="the filter is x86_64's")
@pytest.mark.parametrize(("nr", "arch", "expected"), [
    (29, 0xC000003E, 0x00050001),  # shmget (x86_64 syscall table)
    (30, 0xC000003E, 0x00050001),  # shmat
    (319, 0xC000003E, 0x00050001),  # memfd_create
    (447, 0xC000003E, 0x00050001),  # memfd_secret
    (248, 0xC000003E, 0x00050001),  # add_key
    (249, 0xC000003E, 0x00050001),  # request_key
    (250, 0xC000003E, 0x00050001),  # keyctl
    (251, 0xC000003E, 0x7FFF0000),  # ioprio_set, the number after keyctl: allowed
    (27, 0xC000003E, 0x00050001),  # mincore: which pages of a mapping are cached
    (187, 0xC000003E, 0x00050001),  # readahead
    (221, 0xC000003E, 0x00050001),  # fadvise64 (POSIX_FADV_DONTNEED evicts)
    (327, 0xC000003E, 0x00050001),  # preadv2 (RWF_NOWAIT: fails unless cached)
    (328, 0xC000003E, 0x00050001),  # pwritev2
    (451, 0xC000003E, 0x00050001),  # cachestat
    (295, 0xC000003E, 0x7FFF0000),  # preadv: allowed
    (17, 0xC000003E, 0x7FFF0000),  # pread64: allowed
    (73, 0xC000003E, 0x7FFF0000),  # flock: allowed in the kernel (denied in the world)
    (0x40000000 | 29, 0xC000003E, 0x00050001),  # x32 shmget
    (0x40000000 | 0, 0xC000003E, 0x00050001),  # any x32 call
    (117, 0x40000003, 0x00050001),  # i386 ipc() via int 0x80: another ABI, all denied
    (0, 0xC000003E, 0x7FFF0000),  # read
    (9, 0xC000003E, 0x7FFF0000),  # mmap
    (31, 0xC000003E, 0x7FFF0000),  # shmctl (harmless without a segment)
    (67, 0xC000003E, 0x7FFF0000),  # shmdt
    (320, 0xC000003E, 0x7FFF0000),  # the number after memfd_create: allowed
])
def test_the_filter_denies_exactly_the_shared_memory_and_keyring_calls(nr, arch, expected):
    assert _run_bpf(seccomp.shm_filter() or b"", nr, arch) == expected


@pytest.mark.skipif(seccomp.shm_filter() is None, reason="the filter is x86_64's")
@pytest.mark.parametrize(("args", "expected"), [
    ((3, 1, 7), 0x00050001),    # setsockopt(fd, SOL_SOCKET, SO_SNDBUF): denied
    ((3, 1, 8), 0x00050001),    # SO_RCVBUF
    ((3, 1, 32), 0x00050001),   # SO_SNDBUFFORCE
    ((3, 1, 33), 0x00050001),   # SO_RCVBUFFORCE
    ((3, 1, 2), 0x7FFF0000),    # SO_REUSEADDR: allowed
    ((3, 6, 7), 0x7FFF0000),    # level IPPROTO_TCP, optname 7 (not a buffer): allowed
    ((3, 1, 9), 0x7FFF0000),    # SO_KEEPALIVE: allowed
])
def test_the_filter_denies_raising_socket_buffers(args, expected):
    """A third hostile review queued ~1.5 GiB in socketpairs whose buffers it had raised to
    16 MiB: kernel memory in no process's RSS. setsockopt (54 on x86_64) with SOL_SOCKET (1)
    and a buffer size option is denied; other options are not."""
    assert _run_bpf(seccomp.shm_filter() or b"", 54, 0xC000003E, args) == expected



@pytest.mark.skipif(seccomp.shm_filter() is None, reason="the filter is x86_64's")
@pytest.mark.parametrize(("nr", "args", "kernel", "world"), [
    (28, (0, 4096, 21), 0x00050001, 0x00050001),   # madvise MADV_PAGEOUT: denied
    (28, (0, 4096, 20), 0x00050001, 0x00050001),   # MADV_COLD
    (28, (0, 4096, 4), 0x7FFF0000, 0x7FFF0000),    # MADV_DONTNEED (no eviction): allowed
    (73, (3, 1), 0x7FFF0000, 0x00050001),          # flock: the world only
    (72, (3, 5), 0x7FFF0000, 0x00050001),          # fcntl F_GETLK
    (72, (3, 6), 0x7FFF0000, 0x00050001),          # F_SETLK
    (72, (3, 7), 0x7FFF0000, 0x00050001),          # F_SETLKW
    (72, (3, 36), 0x7FFF0000, 0x00050001),         # F_OFD_GETLK
    (72, (3, 37), 0x7FFF0000, 0x00050001),         # F_OFD_SETLK
    (72, (3, 38), 0x7FFF0000, 0x00050001),         # F_OFD_SETLKW
    (72, (3, 3), 0x7FFF0000, 0x7FFF0000),          # F_GETFL: allowed
    (72, (3, 1), 0x7FFF0000, 0x7FFF0000),          # F_GETFD: allowed
    (437, (3, 0, 0, 0), 0x7FFF0000, 0x00050001),   # openat2 (RESOLVE_CACHED): the world only
    (157, (4, 1), 0x7FFF0000, 0x00050001),         # prctl PR_SET_DUMPABLE 1: the world only
    (157, (4, 2), 0x7FFF0000, 0x00050001),         # PR_SET_DUMPABLE 2 (SUID_DUMP_ROOT)
    (157, (4, 0), 0x7FFF0000, 0x7FFF0000),         # undumpable: allowed (the world does it)
    (157, (1, 1), 0x7FFF0000, 0x7FFF0000),         # PR_SET_PDEATHSIG: allowed
    (54, (3, 1, 7), 0x00050001, 0x00050001),       # setsockopt SO_SNDBUF, as before
    (54, (3, 6, 7), 0x7FFF0000, 0x7FFF0000),       # another level: allowed
])
def test_the_caches_and_the_worlds_file_locks_are_out_of_reach(nr, args, kernel, world):
    """A seventh hostile review carried the reference's source from the kernel to the
    judging world in the page cache (evict with fadvise or madvise, probe with preadv2's
    RWF_NOWAIT or mincore) and between submissions in byte-range locks on a shared file;
    an eighth, in the directory cache (openat2's RESOLVE_CACHED on missing names the
    kernel had stat()ed) and in /proc/self/pagemap (readable once the world made itself
    dumpable again)."""
    assert _run_bpf(seccomp.shm_filter() or b"", nr, 0xC000003E, args) == kernel
    assert _run_bpf(seccomp.shm_filter(world=True) or b"", nr, 0xC000003E, args) == world


WORLD_PROBE = """import errno, fcntl, os, struct
fd = os.open(os.__file__, os.O_RDONLY)
for name, call in (("flock", lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)),
                   ("getlk", lambda: fcntl.fcntl(fd, fcntl.F_GETLK,
                                                 struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 1, 0))),
                   ("fadvise", lambda: os.posix_fadvise(fd, 0, 4096, os.POSIX_FADV_DONTNEED))):
    try:
        call()
        print(name, "allowed")
    except PermissionError:
        print(name, "EPERM")
print("getfl", fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY)
"""


@BWRAP
def test_in_the_judging_world_file_locks_and_the_page_cache_are_refused():
    """The world's sandbox (``bare``) loads the world's filter: the lock channel between a
    concurrent submission's kernel and this world, and the page cache, are closed there."""
    with sandbox.Sandbox(bare=True) as box:
        proc = box.start([os.path.realpath(sys.executable), "-I", "-S", "-c", WORLD_PROBE],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = proc.communicate(timeout=60)
    assert out.decode().split("\n")[:4] == ["flock EPERM", "getlk EPERM", "fadvise EPERM",
                                            "getfl True"], (out, err[-500:])
