"""A seccomp filter for commands under Landlock: no new Unix sockets, no io_uring.

Landlock does not restrict connect() to a Unix socket with a path, and hiding
the path from reads does not stop it: a command could ask the user's tmux or
screen server, D-Bus (``systemd-run --user``) or docker to run anything outside
the sandbox. So ``socket(AF_UNIX, ...)`` fails with EACCES (nothing new can
connect or bind, path or abstract); ``socketpair`` stays allowed, it reaches
nobody. ``io_uring_setup`` fails with ENOSYS (callers fall back to plain
syscalls): io_uring opens and connects sockets without the socket syscall.
Calls of another ABI (i386 through int 0x80, x32, AArch32) have other numbers
and would slip past, so they kill the process.

The classic-BPF program is built by hand (no libseccomp) and installed by the
Landlock spawn thread, which has set no_new_privs; a filter is per thread and
inherited by the child across exec. Numbers: x86_64 from asm/unistd_64.h,
aarch64 from asm-generic/unistd.h; audit arches from linux/audit.h.
"""

from __future__ import annotations

import ctypes
import errno
import platform
from functools import cache
from typing import NamedTuple

from agent_core.sandbox import linux

# linux/bpf_common.h
BPF_LD_W_ABS = 0x00 | 0x00 | 0x20
BPF_JMP_JEQ_K = 0x05 | 0x10 | 0x00
BPF_JMP_JSET_K = 0x05 | 0x40 | 0x00
BPF_RET_K = 0x06 | 0x00
# linux/seccomp.h
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000
# Offsets in struct seccomp_data {int nr; u32 arch; u64 ip; u64 args[6];}; both arches
# are little-endian, so args[0]'s low word (the int the kernel reads) comes first.
NR_OFFSET = 0
ARCH_OFFSET = 4
ARG0_LOW_OFFSET = 16
X32_SYSCALL_BIT = 0x40000000
AF_UNIX = 1  # linux/socket.h (AF_LOCAL too)


class SyscallTable(NamedTuple):
    """One architecture's audit id and the numbers the filter looks at."""

    audit_arch: int
    socket: int
    io_uring: tuple[int, ...]  # setup, enter, register
    x32_bit: bool  # x86_64: the same audit arch carries the x32 ABI, flagged in nr


X86_64 = SyscallTable(0xC000003E, 41, (425, 426, 427), x32_bit=True)
AARCH64 = SyscallTable(0xC00000B7, 198, (425, 426, 427), x32_bit=False)
TABLES = {"x86_64": X86_64, "aarch64": AARCH64}


class Insn(NamedTuple):
    """struct sock_filter: opcode, jump-if-true and jump-if-false offsets, constant."""

    code: int
    jt: int
    jf: int
    k: int


def native_table(machine: str | None = None) -> SyscallTable | None:
    """This machine's table; None on a CPU the filter does not know."""
    return TABLES.get(machine if machine is not None else platform.machine())


def filter_program(table: SyscallTable, block_unix: bool = True) -> list[Insn]:
    """The BPF program: refuse a foreign ABI, AF_UNIX sockets (if asked) and io_uring."""
    # Built with symbolic jump targets, resolved below (offsets count from the next insn).
    code: list[tuple[int, str | int, str | int, int] | str] = [
        (BPF_LD_W_ABS, 0, 0, ARCH_OFFSET),
        (BPF_JMP_JEQ_K, 0, "kill", table.audit_arch),
        (BPF_LD_W_ABS, 0, 0, NR_OFFSET),
    ]
    if table.x32_bit:
        code.append((BPF_JMP_JSET_K, "kill", 0, X32_SYSCALL_BIT))
    if block_unix:
        code.append((BPF_JMP_JEQ_K, "socket", 0, table.socket))
    code += [(BPF_JMP_JEQ_K, "enosys", 0, nr) for nr in table.io_uring]
    code.append((BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW))
    if block_unix:
        code += [
            "socket",
            (BPF_LD_W_ABS, 0, 0, ARG0_LOW_OFFSET),
            (BPF_JMP_JEQ_K, 0, "allow", AF_UNIX),
            (BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.EACCES),
            "allow",
            (BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW),
        ]
    code += [
        "enosys",
        (BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.ENOSYS),
        "kill",
        (BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS),
    ]
    return _resolve(code)


def _resolve(code: list[tuple[int, str | int, str | int, int] | str]) -> list[Insn]:
    labels: dict[str, int] = {}
    insns: list[tuple[int, str | int, str | int, int]] = []
    for item in code:
        if isinstance(item, str):
            labels[item] = len(insns)
        else:
            insns.append(item)

    def offset(target: str | int, at: int) -> int:
        return target if isinstance(target, int) else labels[target] - at - 1

    return [Insn(op, offset(jt, n), offset(jf, n), k) for n, (op, jt, jf, k) in enumerate(insns)]


class _SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


class SeccompFilter:
    """A program ready for the kernel (built once; the spawn thread only installs it)."""

    def __init__(self, program: list[Insn]) -> None:
        self.program = program
        self._insns = (_SockFilter * len(program))(*(_SockFilter(*insn) for insn in program))
        self._prog = _SockFprog(len(program), self._insns)

    def install(self) -> None:
        """Filter the calling thread (and what it creates) for good; needs no_new_privs."""
        linux.prctl(linux.PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(self._prog))


class UnsupportedMachine(OSError):
    """No syscall table for this CPU: the filter cannot be built (a launch cannot be prepared)."""


@cache
def command_filter(block_unix: bool = True) -> SeccompFilter:
    """The filter every command under Landlock gets (``block_unix`` False: io_uring only)."""
    table = native_table()
    if table is None:
        raise UnsupportedMachine(
            f"no seccomp syscall table for {platform.machine()} (only {', '.join(TABLES)})"
        )
    return SeccompFilter(filter_program(table, block_unix))
