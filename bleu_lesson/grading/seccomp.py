"""The seccomp filter of every bubblewrap sandbox: no memory that ``--memory`` cannot see.

The checker bounds a submission by summing the resident memory (RSS) of its processes
(``Sandbox.memory_held``), and the sandbox's in-memory file systems each have a size. Two
kinds of memory escape both: a System V shared memory segment (``shmget``, ``shmat``) and
an anonymous memory file (``memfd_create``, ``memfd_secret``) keep their pages once they
are no longer mapped, in no process's RSS and in no sized mount (a hostile cell held 3 GB
this way under ``--memory 2G``, and 4 GB in the judging world). No chapter needs either,
so the sandboxed code may not create them: those calls fail with ``EPERM``
(``PermissionError`` in Python); every other system call is allowed.

``shm_filter()`` returns the classic BPF program bubblewrap loads with ``--seccomp FD``:
an array of ``struct sock_filter`` (``u16 code, u8 jt, u8 jf, u32 k``, native byte order)
run on ``struct seccomp_data`` (``int nr`` at offset 0, ``u32 arch`` at offset 4)::

    0  ld  [4]                          arch
    1  jeq #0xC000003E  -> 3, else 2     AUDIT_ARCH_X86_64
    2  ret #0x00050001                   another ABI (i386 via int 0x80): all denied
    3  ld  [0]                          nr
    4  jge #0x40000000  -> 10            the x32 ABI (same arch, bit 30 set): denied
    5  jeq #29          -> 10            shmget
    6  jeq #30          -> 10            shmat
    7  jeq #319         -> 10            memfd_create
    8  jeq #447         -> 10            memfd_secret
    9  ret #0x7FFF0000                   SECCOMP_RET_ALLOW
    10 ret #0x00050001                   SECCOMP_RET_ERRNO | EPERM

The numbers are x86_64's: on any other machine (or a 32-bit Python) there is no filter
(``None``) and docs/instructor.md says what that leaves open.

>>> program = shm_filter()
>>> program is None or len(program) == 11 * 8
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
#: x86_64 system calls that make memory outside every process's RSS and every sized mount
DENIED = {"shmget": 29, "shmat": 30, "memfd_create": 319, "memfd_secret": 447}


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
    numbers = list(DENIED.values())
    body = [_op(BPF_LD_W_ABS, 4),
            _op(BPF_JEQ_K, AUDIT_ARCH_X86_64, jt=1, jf=0),
            _op(BPF_RET_K, deny),
            _op(BPF_LD_W_ABS, 0)]
    # every jump below goes to the last instruction (deny) when true, on when false
    checks = [(BPF_JGE_K, X32_SYSCALL_BIT)] + [(BPF_JEQ_K, nr) for nr in numbers]
    for i, (code, k) in enumerate(checks):
        body.append(_op(code, k, jt=len(checks) - i, jf=0))
    body += [_op(BPF_RET_K, SECCOMP_RET_ALLOW), _op(BPF_RET_K, deny)]
    return b"".join(body)
