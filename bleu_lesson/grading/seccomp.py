"""The seccomp filter of every bubblewrap sandbox: no memory that ``--memory`` cannot see,
and no kernel key store that outlives the sandbox.

The checker bounds a submission by summing the resident memory (RSS) of its processes
(``Sandbox.memory_held``), and the sandbox's in-memory file systems each have a size. Two
kinds of memory escape both: a System V shared memory segment (``shmget``, ``shmat``) and
an anonymous memory file (``memfd_create``, ``memfd_secret``) keep their pages once they
are no longer mapped, in no process's RSS and in no sized mount (a hostile cell held 3 GB
this way under ``--memory 2G``, and 4 GB in the judging world). No chapter needs either,
so the sandboxed code may not create them: those calls fail with ``EPERM``
(``PermissionError`` in Python). Nor may it raise a socket's buffer sizes (kernel memory
queued in a socket is in no RSS either), nor touch the kernel's key store (``add_key``,
``request_key``, ``keyctl``): keyrings belong to a uid, not to a namespace, so a key a
kernel added outlived its sandbox and a judging world read it back (a hostile review
passed the answer key's source from the learner's kernel to the world, and from one
submission to another, this way; Docker's default profile denies the three calls too).
Nor may it look into or steer the page cache (``mincore``, ``cachestat``, ``fadvise64``,
``readahead``, ``preadv2``/``pwritev2``, whose ``RWF_NOWAIT`` says whether a page is
cached, and ``madvise``'s ``MADV_COLD``/``MADV_PAGEOUT``): the kernel and the judging world
read the same files, so a seventh hostile review evicted and loaded pages of a large file
in the kernel (where the reference exists) and read the bits back in the world. In the
judging world (``world=True``) the file locks are denied as well (``flock``, and ``fcntl``'s
lock commands): locks belong to a file, not a namespace, and a concurrent submission's
kernel had spelled the reference's source in byte-range locks on a shared file for another
submission's world to query; so are ``openat2`` (its ``RESOLVE_CACHED`` reads the directory
cache) and making itself dumpable again (``prctl(PR_SET_DUMPABLE, 1)``, which reopens
``/proc/self/pagemap``; the world's worker makes itself undumpable first). Every other
system call is allowed; what no filter can close (a world timing its reads of a file the
kernel has read) is in docs/instructor.md.

``shm_filter()`` returns the classic BPF program bubblewrap loads with ``--seccomp FD``:
an array of ``struct sock_filter`` (``u16 code, u8 jt, u8 jf, u32 k``, native byte order)
run on ``struct seccomp_data`` (``int nr`` at offset 0, ``u32 arch`` at 4, ``u64 args[6]``
from 16)::

    ld  [4]                              arch
    jeq #0xC000003E, else deny           AUDIT_ARCH_X86_64 (i386 via int 0x80: all denied)
    ld  [0]                              nr
    jge #0x40000000 -> deny              the x32 ABI (same arch, bit 30 set): denied
    jeq <each of DENIED> -> deny         (and WORLD_DENIED in the world)
    for each call of ARGUMENTS (setsockopt, madvise; fcntl and prctl in the world):
        jeq <nr>, else the next call
        ld  [16 + 8 * g]; jeq <v>, else allow    each gate (setsockopt: level SOL_SOCKET)
        ld  [16 + 8 * i]                 the argument (its low 32 bits)
        jeq <each refused value> -> deny
        ret allow
    ret #0x7FFF0000  (allow)             SECCOMP_RET_ALLOW
    ret #0x00050001  (deny)              SECCOMP_RET_ERRNO | EPERM

The numbers are x86_64's: on any other machine (or a 32-bit Python) there is no filter
(``None``) and docs/instructor.md says what that leaves open.

>>> program = shm_filter()
>>> program is None or len(program) == 33 * 8
True
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = ["DENIED", "WORLD_DENIED", "shm_filter"]

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
#: classic BPF opcodes (linux/bpf_common.h)
BPF_LD_W_ABS = 0x00 | 0x00 | 0x20  # BPF_LD | BPF_W | BPF_ABS
BPF_JEQ_K = 0x05 | 0x10 | 0x00  # BPF_JMP | BPF_JEQ | BPF_K
BPF_JGE_K = 0x05 | 0x30 | 0x00  # BPF_JMP | BPF_JGE | BPF_K
BPF_RET_K = 0x06 | 0x00  # BPF_RET | BPF_K
#: x86_64 system calls denied in every sandbox: memory outside every process's RSS and
#: every sized mount; the kernel's key store, which outlives a sandbox (keyrings are per
#: uid); and the page cache's state, which two sandboxes reading one file share
DENIED = {"shmget": 29, "shmat": 30, "memfd_create": 319, "memfd_secret": 447,
          "add_key": 248, "request_key": 249, "keyctl": 250,
          "mincore": 27, "readahead": 187, "fadvise64": 221, "preadv2": 327, "pwritev2": 328,
          "cachestat": 451}
#: and in the judging world: whole-file locks, which belong to a file, not a namespace, and
#: openat2, whose RESOLVE_CACHED tells whether a name (even a missing one) is in the
#: kernel's directory cache, which the kernel's sandbox shares (an eighth hostile review
#: spelled the reference in stat()s of missing names there)
WORLD_DENIED = {"flock": 73, "openat2": 437}
#: calls denied only with some arguments: (name, nr, [(argument index, value)...] that must
#: all hold, (argument index, refused values))
SETSOCKOPT = 54
SOL_SOCKET = 1
BUFFER_OPTIONS = {"SO_SNDBUF": 7, "SO_RCVBUF": 8, "SO_SNDBUFFORCE": 32, "SO_RCVBUFFORCE": 33}
#: setsockopt(fd, SOL_SOCKET, one of BUFFER_OPTIONS, ...): a socket buffer raised to 16 MiB
#: holds kernel memory in no process's RSS (a hostile cell queued 1.5 GiB this way); the
#: default buffers (~200 KiB) stay, so sockets work as before. madvise(addr, len,
#: MADV_COLD or MADV_PAGEOUT) pushes a file's pages out of the cache.
ARGUMENTS: list[tuple[str, int, list[tuple[int, int]], tuple[int, tuple[int, ...]]]] = [
    ("setsockopt", SETSOCKOPT, [(1, SOL_SOCKET)], (2, tuple(BUFFER_OPTIONS.values()))),
    ("madvise", 28, [], (2, (20, 21))),
]
#: fcntl(fd, F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW), in the world
#: and prctl(PR_SET_DUMPABLE, 1 or 2): a world that makes itself dumpable again can read
#: its own /proc/self/pagemap, whose "present" bits showed which pages of a shared file the
#: kernel had loaded (fault-around maps a block's cached pages together)
WORLD_ARGUMENTS: list[tuple[str, int, list[tuple[int, int]], tuple[int, tuple[int, ...]]]] = [
    ("fcntl", 72, [], (1, (5, 6, 7, 36, 37, 38))),
    ("prctl", 157, [(0, 4)], (1, (1, 2))),  # PR_SET_DUMPABLE to 1 or 2; 0 stays allowed
]
#: struct seccomp_data: int nr, u32 arch, u64 instruction_pointer, u64 args[6]
ARG_OFFSET = 16


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def shm_filter(world: bool = False) -> bytes | None:
    """The BPF program (bytes) that denies ``DENIED`` (and, for the judging world,
    ``WORLD_DENIED``), and the calls of ``ARGUMENTS`` (``WORLD_ARGUMENTS``) with a refused
    argument, with EPERM; or None off x86_64.

    >>> program = shm_filter()
    >>> program is None or program[-8:] == struct.pack("=HBBI", 0x06, 0, 0, 0x00050001)
    True
    """
    if platform.machine() != "x86_64" or struct.calcsize("P") != 8:
        return None
    deny = SECCOMP_RET_ERRNO | errno.EPERM
    denied = [*DENIED.values(), *(WORLD_DENIED.values() if world else ())]
    checked = [*ARGUMENTS, *(WORLD_ARGUMENTS if world else ())]
    # (code, k, true-target, false-target, label): targets are labels ("next": the next
    # instruction); a return instruction's label is its true-target
    prog: list[tuple[int, int, str, str, str]] = [
        (BPF_LD_W_ABS, 4, "", "", ""),
        (BPF_JEQ_K, AUDIT_ARCH_X86_64, "next", "deny", ""),
        (BPF_LD_W_ABS, 0, "", "", ""),
        (BPF_JGE_K, X32_SYSCALL_BIT, "deny", "next", ""),
        *[(BPF_JEQ_K, nr, "deny", "next", "") for nr in denied],
    ]
    for i, (_, nr, gates, (arg, values)) in enumerate(checked):
        prog.append((BPF_JEQ_K, nr, "next", f"call{i + 1}", f"call{i}"))
        for gate, value in gates:  # each must hold, else the call is allowed
            prog += [(BPF_LD_W_ABS, ARG_OFFSET + 8 * gate, "", "", ""),
                     (BPF_JEQ_K, value, "next", "allow", "")]
        prog += [
            (BPF_LD_W_ABS, ARG_OFFSET + 8 * arg, "", "", ""),      # low 32 bits
            *[(BPF_JEQ_K, value, "deny", "next", "") for value in values],
            (BPF_RET_K, SECCOMP_RET_ALLOW, "", "", ""),
        ]
    prog += [(BPF_RET_K, SECCOMP_RET_ALLOW, "", "", f"call{len(checked)}"),
             (BPF_RET_K, deny, "", "", "deny")]
    where = {label: i for i, (*_, label) in enumerate(prog) if label}
    where["allow"] = len(prog) - 2

    def offset(i: int, target: str) -> int:
        return 0 if target == "next" else where[target] - (i + 1)

    body = []
    for i, (code, k, yes, no, _) in enumerate(prog):
        if code in (BPF_JEQ_K, BPF_JGE_K):
            body.append(_op(code, k, jt=offset(i, yes), jf=offset(i, no)))
        else:
            body.append(_op(code, k))
    return b"".join(body)
