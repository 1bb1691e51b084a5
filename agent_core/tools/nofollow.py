"""Opening the very file a check looked at: no symbolic link anywhere on the way.

MewCode's file tools run outside the sandbox, on paths a sandboxed command can
change. The permission check resolves a path (symlinks followed) and approves the
result; opening that result again by name would follow a symlink swapped in meanwhile
(``a.txt`` becoming a link to ``~/.ssh/id_rsa``). So the checked, symlink-free path is
opened with no symlink allowed in it, beneath the root that holds it, in one step:
``openat2`` with ``RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS``
where the kernel has it (Linux 5.6+), else a walk that opens each component relative
to the last with ``O_NOFOLLOW``. A link found on the way fails the open
(``PathChanged``); nothing is read or written elsewhere.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from functools import cache
from typing import Any

_SYS_OPENAT2 = 437  # the same on x86_64 and aarch64 (the generic syscall table)
_RESOLVE_NO_MAGICLINKS = 0x02
_RESOLVE_NO_SYMLINKS = 0x04
_RESOLVE_BENEATH = 0x08
_RESOLVE = _RESOLVE_BENEATH | _RESOLVE_NO_SYMLINKS | _RESOLVE_NO_MAGICLINKS
_DIR_FLAGS = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# What a symlink (or a directory swapped for something else) on the way looks like.
_CHANGED = (errno.ELOOP, errno.EXDEV, errno.ENOTDIR)


class PathChanged(OSError):
    """The path no longer leads where it was checked: a symlink or a non-directory appeared."""


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


@cache
def _libc_syscall() -> Any:
    libc = ctypes.CDLL(None, use_errno=True)
    fn = libc.syscall
    fn.restype = ctypes.c_long
    return fn


@cache
def openat2_available() -> bool:
    """Whether this kernel has openat2 (probed once)."""
    if not sys.platform.startswith("linux"):
        return False
    fd = _openat2(-100, ".", os.O_PATH | os.O_CLOEXEC, 0)  # AT_FDCWD
    if fd >= 0:
        os.close(fd)
        return True
    return False


def _openat2(dir_fd: int, path: str, flags: int, mode: int) -> int:
    """openat2(2); the fd, or -errno."""
    tmpfile = getattr(os, "O_TMPFILE", 0)
    # openat2 refuses a mode without O_CREAT or O_TMPFILE (whose bits hold O_DIRECTORY's).
    creates = bool(flags & os.O_CREAT) or bool(tmpfile and (flags & tmpfile) == tmpfile)
    how = _OpenHow(flags, mode if creates else 0, _RESOLVE)
    result = _libc_syscall()(
        ctypes.c_long(_SYS_OPENAT2),
        ctypes.c_int(dir_fd),
        ctypes.c_char_p(os.fsencode(path)),
        ctypes.byref(how),
        ctypes.c_size_t(ctypes.sizeof(how)),
    )
    return result if result >= 0 else -ctypes.get_errno()


def _parts(path: str, root: str) -> list[str]:
    """The components of absolute ``path`` below ``root``; ValueError if it is not below."""
    norm, base = os.path.normpath(path), os.path.normpath(root)
    if norm != path.rstrip("/") and path != "/":
        raise ValueError(f"{path!r} is not a normalised absolute path")
    if base == "/":
        rest = norm.lstrip("/")
    elif norm == base or norm.startswith(base + "/"):
        rest = norm[len(base) :].lstrip("/")
    else:
        raise ValueError(f"{path} is not inside {root}")
    return [p for p in rest.split("/") if p]


def _raise(err: int, path: str) -> None:
    if err in _CHANGED:
        raise PathChanged(err, f"{path} changed while it was being opened (a symbolic link?)")
    raise OSError(err, os.strerror(err), path)


def open_no_symlinks(
    path: str, flags: int, mode: int = 0o666, *, root: str = "/", walk: bool | None = None
) -> int:
    """Open absolute ``path`` with no symlink in any component below ``root``; the fd.

    ``walk`` forces the component-by-component fallback (True) or openat2 (False).
    Raises PathChanged for a symlink on the way, OSError otherwise.
    """
    parts = _parts(path, root)
    flags |= os.O_CLOEXEC | os.O_NOFOLLOW
    root_fd = os.open(root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        use_walk = (not openat2_available()) if walk is None else walk
        if not parts:
            return os.open(".", flags & ~os.O_NOFOLLOW, mode, dir_fd=root_fd)
        if not use_walk:
            fd = _openat2(root_fd, "/".join(parts), flags, mode)
            if fd < 0:
                _raise(-fd, path)
            return fd
        parent = _walk(root_fd, parts[:-1], path)
        try:
            return os.open(parts[-1], flags, mode, dir_fd=parent)
        except OSError as exc:
            _raise(exc.errno or errno.EIO, path)
            raise
        finally:
            if parent != root_fd:
                os.close(parent)
    finally:
        os.close(root_fd)


def _walk(start: int, names: list[str], path: str, *, create: bool = False) -> int:
    """An O_PATH fd of ``start``/names..., no symlink followed (``create``: mkdir what is
    missing); the caller closes it unless it is ``start``."""
    fd = start
    try:
        for name in names:
            if name == "..":
                raise PathChanged(errno.EXDEV, f"{path}: '..' is not allowed here")
            try:
                nxt = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass  # made meanwhile: opened below, and checked like any other
                nxt = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                _raise(exc.errno or errno.EIO, path)
                raise
            if fd != start:
                os.close(fd)
            fd = nxt
        return fd
    except BaseException:
        if fd != start:
            os.close(fd)
        raise


def open_parent_dir(path: str, *, root: str = "/", create: bool = False) -> tuple[int, str]:
    """(an O_PATH fd of ``path``'s folder, the file's name), no symlink on the way below
    ``root``; ``create`` makes missing folders (each relative to the last, never through a
    link). The caller closes the fd."""
    parts = _parts(path, root)
    if not parts:
        raise ValueError(f"{path} has no parent below {root}")
    root_fd = os.open(root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        folder = _walk(root_fd, parts[:-1], path, create=create)
    except BaseException:
        os.close(root_fd)
        raise
    if folder == root_fd:
        return root_fd, parts[-1]
    os.close(root_fd)
    return folder, parts[-1]
