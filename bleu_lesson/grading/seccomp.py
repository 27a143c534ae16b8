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
Every other system call is allowed.

``shm_filter()`` returns the classic BPF program bubblewrap loads with ``--seccomp FD``:
an array of ``struct sock_filter`` (``u16 code, u8 jt, u8 jf, u32 k``, native byte order)
run on ``struct seccomp_data`` (``int nr`` at offset 0, ``u32 arch`` at 4, ``u64 args[6]``
from 16)::

    0  ld  [4]                          arch
    1  jeq #0xC000003E  -> 2, else 20    AUDIT_ARCH_X86_64 (i386 via int 0x80: all denied)
    2  ld  [0]                          nr
    3  jge #0x40000000  -> 20            the x32 ABI (same arch, bit 30 set): denied
    4-10 jeq shmget, shmat, memfd_create, memfd_secret, add_key, request_key, keyctl -> 20
    11 jeq #54 (setsockopt) -> 12, else 19
    12 ld  [24]                         level (args[1], low 32 bits)
    13 jeq #1 (SOL_SOCKET)  -> 14, else 19
    14 ld  [32]                         optname (args[2], low 32 bits)
    15-18 jeq SO_SNDBUF, SO_RCVBUF, SO_SNDBUFFORCE, SO_RCVBUFFORCE  -> 20
    19 ret #0x7FFF0000                   SECCOMP_RET_ALLOW
    20 ret #0x00050001                   SECCOMP_RET_ERRNO | EPERM

The numbers are x86_64's: on any other machine (or a 32-bit Python) there is no filter
(``None``) and docs/instructor.md says what that leaves open.

>>> program = shm_filter()
>>> program is None or len(program) == 21 * 8
True
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = ["DENIED", "shm_filter"]

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
#: classic BPF opcodes (linux/bpf_common.h)
BPF_LD_W_ABS = 0x00 | 0x00 | 0x20  # BPF_LD | BPF_W | BPF_ABS
BPF_JEQ_K = 0x05 | 0x10 | 0x00  # BPF_JMP | BPF_JEQ | BPF_K
BPF_JGE_K = 0x05 | 0x30 | 0x00  # BPF_JMP | BPF_JGE | BPF_K
BPF_RET_K = 0x06 | 0x00  # BPF_RET | BPF_K
#: x86_64 system calls that make memory outside every process's RSS and every sized mount,
#: and those of the kernel's key store, which outlives a sandbox (keyrings are per uid)
DENIED = {"shmget": 29, "shmat": 30, "memfd_create": 319, "memfd_secret": 447,
          "add_key": 248, "request_key": 249, "keyctl": 250}
#: setsockopt(fd, SOL_SOCKET, one of these, ...) is denied too: a socket buffer raised to
#: 16 MiB holds kernel memory in no process's RSS (a hostile cell queued 1.5 GiB this way);
#: the default buffers (~200 KiB) stay, so sockets work as before
SETSOCKOPT = 54
SOL_SOCKET = 1
BUFFER_OPTIONS = {"SO_SNDBUF": 7, "SO_RCVBUF": 8, "SO_SNDBUFFORCE": 32, "SO_RCVBUFFORCE": 33}
#: struct seccomp_data: int nr, u32 arch, u64 instruction_pointer, u64 args[6]
ARG_OFFSET = 16


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def shm_filter() -> bytes | None:
    """The BPF program (bytes) that denies ``DENIED`` with EPERM, or None off x86_64.

    >>> program = shm_filter()
    >>> program is None or program[-8:] == struct.pack("=HBBI", 0x06, 0, 0, 0x00050001)
    True
    """
    if platform.machine() != "x86_64" or struct.calcsize("P") != 8:
        return None
    deny = SECCOMP_RET_ERRNO | errno.EPERM
    # (code, k, true-target, false-target): targets are labels, "next" the next instruction
    prog: list[tuple[int, int, str, str]] = [
        (BPF_LD_W_ABS, 4, "", ""),
        (BPF_JEQ_K, AUDIT_ARCH_X86_64, "next", "deny"),
        (BPF_LD_W_ABS, 0, "", ""),
        (BPF_JGE_K, X32_SYSCALL_BIT, "deny", "next"),
        *[(BPF_JEQ_K, nr, "deny", "next") for nr in DENIED.values()],
        (BPF_JEQ_K, SETSOCKOPT, "next", "allow"),
        (BPF_LD_W_ABS, ARG_OFFSET + 8 * 1, "", ""),      # level (low 32 bits)
        (BPF_JEQ_K, SOL_SOCKET, "next", "allow"),
        (BPF_LD_W_ABS, ARG_OFFSET + 8 * 2, "", ""),      # optname (low 32 bits)
        *[(BPF_JEQ_K, opt, "deny", "next") for opt in BUFFER_OPTIONS.values()],
        (BPF_RET_K, SECCOMP_RET_ALLOW, "allow", ""),
        (BPF_RET_K, deny, "deny", ""),
    ]
    where = {label: i for i, (code, _, label, _) in enumerate(prog) if code == BPF_RET_K}

    def offset(i: int, target: str) -> int:
        return 0 if target == "next" else where[target] - (i + 1)

    body = []
    for i, (code, k, yes, no) in enumerate(prog):
        if code in (BPF_JEQ_K, BPF_JGE_K):
            body.append(_op(code, k, jt=offset(i, yes), jf=offset(i, no)))
        else:
            body.append(_op(code, k))
    return b"".join(body)
