"""The seccomp filter under Landlock: no socket(AF_UNIX), no io_uring, no foreign ABI.

The program is checked twice: run by a small BPF interpreter here for both
arches (so aarch64's numbers are tested on any machine), and installed for real
in a child process on this one.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agent_core.sandbox.seccomp import (
    AARCH64,
    ARCH_OFFSET,
    NR_OFFSET,
    SECCOMP_RET_ALLOW,
    SECCOMP_RET_ERRNO,
    SECCOMP_RET_KILL_PROCESS,
    X86_64,
    Insn,
    SyscallTable,
    filter_program,
    native_table,
)

AUDIT_ARCH_I386 = 0x40000003
AUDIT_ARCH_ARM = 0x40000028
AF_UNIX, AF_INET = 1, 2
# Numbers the filter must let through (asm/unistd_64.h, asm-generic/unistd.h).
SOCKETPAIR = {X86_64: 53, AARCH64: 199}
CONNECT = {X86_64: 42, AARCH64: 203}
ALLOW = SECCOMP_RET_ALLOW
KILL = SECCOMP_RET_KILL_PROCESS
EACCES = SECCOMP_RET_ERRNO | errno.EACCES
ENOSYS = SECCOMP_RET_ERRNO | errno.ENOSYS


def run_bpf(program: list[Insn], arch: int, nr: int, arg0: int = 0) -> int:
    """What the kernel would answer: the classic-BPF subset the filter uses."""
    words = {ARCH_OFFSET: arch, NR_OFFSET: nr & 0xFFFFFFFF, 16: arg0 & 0xFFFFFFFF, 20: arg0 >> 32}
    acc, pc = 0, 0
    while True:
        insn = program[pc]
        if insn.code == 0x20:  # ld [k]
            acc = words[insn.k]
        elif insn.code == 0x15:  # jeq k
            pc += insn.jt if acc == insn.k else insn.jf
        elif insn.code == 0x45:  # jset k
            pc += insn.jt if acc & insn.k else insn.jf
        elif insn.code == 0x06:  # ret k
            return insn.k
        else:
            raise AssertionError(f"unexpected opcode {insn.code:#x}")
        pc += 1


@pytest.mark.parametrize("table", [X86_64, AARCH64], ids=["x86_64", "aarch64"])
@pytest.mark.parametrize(
    ("call", "arg0", "blocked", "open_"),
    [
        pytest.param("socket", AF_UNIX, EACCES, ALLOW, id="socket-unix"),
        pytest.param("socket", AF_INET, ALLOW, ALLOW, id="socket-inet"),
        # The kernel reads the family as an int: high bits must not smuggle AF_UNIX past.
        pytest.param("socket", (1 << 32) | AF_UNIX, EACCES, ALLOW, id="socket-unix-high-bits"),
        pytest.param("socketpair", AF_UNIX, ALLOW, ALLOW, id="socketpair"),
        pytest.param("connect", 3, ALLOW, ALLOW, id="connect"),
        pytest.param("io_uring_setup", 8, ENOSYS, ENOSYS, id="io_uring_setup"),
        pytest.param("io_uring_enter", 3, ENOSYS, ENOSYS, id="io_uring_enter"),
        pytest.param("io_uring_register", 3, ENOSYS, ENOSYS, id="io_uring_register"),
    ],
)
def test_each_call_gets_its_answer(table: SyscallTable, call, arg0, blocked, open_) -> None:
    nr = {
        "socket": table.socket,
        "socketpair": SOCKETPAIR[table],
        "connect": CONNECT[table],
        "io_uring_setup": table.io_uring[0],
        "io_uring_enter": table.io_uring[1],
        "io_uring_register": table.io_uring[2],
    }[call]
    assert run_bpf(filter_program(table), table.audit_arch, nr, arg0) == blocked
    # An allowlist of sockets turns the AF_UNIX block off, never the io_uring one.
    assert run_bpf(filter_program(table, block_unix=False), table.audit_arch, nr, arg0) == open_


@pytest.mark.parametrize("block_unix", [True, False])
def test_a_foreign_abi_kills_the_process(block_unix: bool) -> None:
    x86, arm = filter_program(X86_64, block_unix), filter_program(AARCH64, block_unix)
    # i386 through int 0x80: its socketcall (102) and socket (359) have other numbers.
    assert run_bpf(x86, AUDIT_ARCH_I386, 359, AF_UNIX) == KILL
    assert run_bpf(x86, AUDIT_ARCH_I386, 102, 1) == KILL
    assert run_bpf(x86, X86_64.audit_arch, 0x40000000 | 41, AF_UNIX) == KILL  # x32
    assert run_bpf(arm, AUDIT_ARCH_ARM, 281, AF_UNIX) == KILL  # AArch32
    assert run_bpf(arm, X86_64.audit_arch, 41, AF_UNIX) == KILL
    # aarch64 has no x32: a high number is just an unknown syscall (ENOSYS from the kernel).
    assert run_bpf(arm, AARCH64.audit_arch, 0x40000000 | 198, AF_UNIX) == ALLOW


def test_only_known_cpus_have_a_table() -> None:
    assert native_table("x86_64") is X86_64 and native_table("aarch64") is AARCH64
    assert native_table("riscv64") is None and native_table("i686") is None


def test_on_an_unknown_cpu_landlock_is_not_offered(monkeypatch) -> None:
    """Fail closed: Landlock without the filter would let a command reach tmux."""
    from agent_core.sandbox import seccomp, selection
    from agent_core.sandbox.landlock import landlock_abi

    monkeypatch.setattr(seccomp.platform, "machine", lambda: "riscv64")
    seccomp.command_filter.cache_clear()
    try:
        with pytest.raises(seccomp.UnsupportedMachine, match="riscv64"):
            seccomp.command_filter()
        if landlock_abi() >= 1:
            assert selection._landlock() == (
                "landlock: cannot shut Unix sockets: no seccomp syscall table for riscv64"
                " (only x86_64, aarch64)"
            )
    finally:
        seccomp.command_filter.cache_clear()


IN_A_CHILD = """
import errno, os, socket, subprocess
from agent_core.sandbox import linux
from agent_core.sandbox.seccomp import command_filter

linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
command_filter(block_unix={block_unix}).install()

def attempt(name, make):
    try:
        make()
        print(name, "ok")
    except OSError as exc:
        print(name, errno.errorcode[exc.errno])

attempt("unix-stream", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close())
attempt("unix-dgram", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).close())
attempt("inet", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close())
attempt("socketpair", lambda: [s.close() for s in socket.socketpair()])
attempt("io_uring", lambda: linux.syscall(425, 4, None))
pipeline = subprocess.run(["bash", "-c", "echo abc | tr b x | cat"], capture_output=True)
print("pipeline", pipeline.stdout.decode().strip())
child = subprocess.run(["python3", "-c", "import socket; socket.socket(socket.AF_UNIX)"])
print("grandchild", "refused" if child.returncode else "ok")
"""


def run_filtered(code: str) -> subprocess.CompletedProcess[str]:
    """Run code in a child Python that imports this checkout's agent_core."""
    root = str(Path(__file__).resolve().parents[2])
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**os.environ, "PYTHONPATH": root},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


needs_known_cpu = pytest.mark.skipif(
    sys.platform != "linux" or native_table() is None, reason="no syscall table for this CPU"
)


@needs_known_cpu
@pytest.mark.slow
def test_installed_filter_refuses_unix_sockets_and_io_uring_only() -> None:
    done = run_filtered(IN_A_CHILD.format(block_unix=True))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:5] == [
        "unix-stream EACCES",
        "unix-dgram EACCES",
        "inet ok",
        "socketpair ok",
        "io_uring ENOSYS",
    ], done.stdout
    assert "pipeline axc" in lines
    assert "grandchild refused" in lines  # inherited across fork and exec


@needs_known_cpu
@pytest.mark.slow
def test_installed_filter_with_an_allowlist_leaves_unix_sockets_alone() -> None:
    done = run_filtered(IN_A_CHILD.format(block_unix=False))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:5] == [
        "unix-stream ok",
        "unix-dgram ok",
        "inet ok",
        "socketpair ok",
        "io_uring ENOSYS",
    ], done.stdout


@pytest.mark.skipif(native_table() is not X86_64, reason="x32 exists on x86_64 only")
@pytest.mark.slow
def test_installed_filter_kills_an_x32_call() -> None:
    done = run_filtered(
        """
        from agent_core.sandbox import linux
        from agent_core.sandbox.seccomp import command_filter
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
        command_filter().install()
        try:
            linux.syscall(0x40000000 | 39)  # x32 getpid
        except OSError:
            pass
        print("survived")
        """
    )
    assert done.returncode == -signal.SIGSYS, (done.returncode, done.stdout, done.stderr)
    assert "survived" not in done.stdout
