"""Thin ctypes access to the Linux calls the sandbox needs and the os module lacks.

Everything a child process calls between fork and exec is prepared here in the
parent (function pointers, argument structures), so the child only makes calls.
"""

from __future__ import annotations

import ctypes
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctypes import _CArgObject, _Pointer, _SimpleCData

    # What a raw syscall argument may be: a number, a C value, a pointer or byref().
    SyscallArg = int | _SimpleCData | _Pointer | _CArgObject | None

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
PR_SET_CHILD_SUBREAPER = 36
_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long
_prctl = _libc.prctl
_prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
_prctl.restype = ctypes.c_int


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


_capset = _libc.capset
_capset.argtypes = [ctypes.POINTER(_CapHeader), ctypes.POINTER(_CapData)]
_capset.restype = ctypes.c_int
_NO_CAPS_HEADER = _CapHeader(_CAPABILITY_VERSION_3, 0)
_NO_CAPS = (_CapData * 2)()


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def syscall(number: int, *args: SyscallArg) -> int:
    """A raw system call; raises OSError on failure, returns its result otherwise."""
    converted = [ctypes.c_long(a) if isinstance(a, int) else a for a in args]
    return _check(_syscall(ctypes.c_long(number), *converted), f"syscall {number}")


def prctl(option: int, arg: int = 0, arg3: int = 0) -> None:
    """prctl(option, arg, arg3, 0, 0); raises OSError on failure."""
    _check(_prctl(option, arg, arg3, 0, 0), f"prctl {option}")


def drop_capabilities() -> None:
    """Empty this process's effective, permitted and inheritable capability sets.

    With no_new_privs set as well, nothing it execs gets any back, root included.
    """
    _check(_capset(ctypes.byref(_NO_CAPS_HEADER), _NO_CAPS), "capset")
