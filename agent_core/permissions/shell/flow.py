"""How state flows between the parts of a command line.

`cd` moves later parts; text piped into a shell becomes code; builtins such as
``export``, ``alias``, ``trap``, ``set`` and ``hash`` change how later parts
run; ``echo``/``printf``/``base64 -d`` output is known when their input is.
"""

from __future__ import annotations

import base64
import binascii
import posixpath
import re
from typing import Literal, NamedTuple

from agent_core.permissions.shell.text import decode_escapes
from agent_core.permissions.shell.wrappers import (
    SHELLS,
    Assignment,
    Doubt,
    Nested,
    Word,
    assignment_doubts,
    is_interpreter,
)


def next_cwd(argv: list[Word], cwd: str) -> str:
    """The directory after ``argv`` runs ("?" when it cannot be known)."""
    name = argv[0].text
    if name == "popd":
        return "?"
    if name not in ("cd", "pushd"):
        return cwd
    args = [w for w in argv[1:] if not (w.text.startswith("-") and w.text != "-")]
    if not args:
        return "~"
    target = args[0]
    if target.dynamic or target.text == "-":
        return "?"
    if target.text.startswith(("/", "~")):
        return posixpath.normpath(target.text)
    if cwd == "?":
        return "?"
    return posixpath.normpath(posixpath.join(cwd or ".", target.text))


def literal_output(argv: list[Word], stdin: str | None = None) -> str | None:
    """What a command prints when that is known: echo, printf, cat/tee/base64 -d of known input."""
    if not argv or any(w.dynamic for w in argv[1:]):
        return None
    name, args = argv[0].text, [w.text for w in argv[1:]]
    if name in ("cat", "tee") and stdin is not None:
        if name == "tee" or all(a == "-" for a in args):
            return stdin
        return None
    if name == "echo":
        escapes = False
        while args and re.fullmatch(r"-[neE]+", args[0]):
            escapes = ("e" in args[0]) or (escapes and "E" not in args[0])
            args.pop(0)
        text = " ".join(args)
        return decode_escapes(text, echo=True) if escapes else text
    if name == "printf":
        return printf_output(args)
    if stdin is None:
        return None
    if name in ("base64", "base32") and any(a in ("-d", "--decode", "-D") for a in args):
        try:
            raw = "".join(stdin.split())
            data = base64.b64decode(raw) if name == "base64" else base64.b32decode(raw)
            return data.decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            return None
    if name == "xxd" and "-r" in args and ("-p" in args or "-ps" in args):
        try:
            return bytes.fromhex("".join(stdin.split())).decode("utf-8", "replace")
        except ValueError:
            return None
    if name == "rev" and not args:
        return "\n".join(line[::-1] for line in stdin.split("\n"))
    return None


_CONVERSION = re.compile(r"%([-+ #0]*)(\d*)(?:\.(\d*))?([sbdiucxXoq%])")


def printf_output(args: list[str]) -> str | None:
    """What ``printf FORMAT ARGS...`` prints; None for conversions not modelled."""
    if args and args[0] == "--":
        args = args[1:]
    if not args or args[0].startswith("-v"):
        return "" if args else None
    fmt, rest = decode_escapes(args[0], echo=False), args[1:]
    if re.search(r"%(?![-+ #0]*\d*(?:\.\d*)?[sbdiucxXoq%])", fmt):
        return None
    out: list[str] = []
    while True:
        used = 0
        pos = 0
        for m in _CONVERSION.finditer(fmt):
            out.append(fmt[pos : m.start()])
            pos = m.end()
            if m.group(4) == "%":
                out.append("%")
                continue
            value = rest[used] if used < len(rest) else ""
            used += 1
            out.append(_convert(value, *m.groups()))
        out.append(fmt[pos:])
        if used == 0 or used >= len(rest):
            break
        rest = rest[used:]
    return "".join(out)


def _convert(value: str, flags: str, width: str, precision: str | None, conv: str) -> str:
    if conv == "b":
        value = decode_escapes(value, echo=True)
    elif conv in "diuxXo":
        value = value or "0"
    elif conv == "c":
        value = value[:1]
    if precision is not None and conv in "sbq":
        value = value[: int(precision or 0)]
    if width:
        value = value.ljust(int(width)) if "-" in flags else value.rjust(int(width))
    return value


_STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
# Programs whose commands include shell escapes (`.shell`, `!cmd`, `\\!`, `system`).
_REPLS = frozenset({
    "sqlite3", "ed", "ex", "vi", "vim", "nvim", "view", "mysql", "mariadb", "psql", "gdb",
    "lldb", "ftp", "sftp", "lftp", "bc", "dc", "less", "more", "man", "mail", "mailx",
    "nslookup", "redis-cli", "mongo", "mongosh", "octave", "maxima", "gnuplot", "tclsh",
})  # fmt: skip
_CODE_OPTIONS = frozenset({"-c", "-e", "-E", "-r", "--eval", "-p", "--print", "-m", "-f"})
_VALUE_OPTIONS = frozenset({"-W", "-X", "-I", "--require", "-M", "--import", "-o", "+o",
                            "-O", "+O", "--rcfile", "--init-file", "-C"})  # fmt: skip

StdinUse = Literal["shell", "code", "repl", "cron", "at"]


def program_from_stdin(argv: list[Word]) -> StdinUse | None:
    """What a program does with its stdin when it takes code from it, else None.

    "shell": shell commands (``bash``, ``sh -s``, ``. /dev/stdin``); "code": an
    interpreter's program (``python3``, ``node -``); "repl": lines that may hold
    shell escapes (``sqlite3``, ``psql``); "cron"/"at": commands to run later.
    """
    if not argv:
        return None
    name = argv[0].text
    if name in (".", "source"):
        return "shell" if len(argv) > 1 and argv[1].text in _STDIN_FILES else None
    if name == "crontab":
        rest = [w.text for w in argv[1:] if not w.text.startswith("-") or w.text == "-"]
        listing = any(w.text in ("-l", "-r", "-e") for w in argv[1:])
        return "cron" if not listing and (not rest or rest[-1] == "-") else None
    if name in ("at", "batch"):
        texts = [w.text for w in argv[1:]]
        return None if any(t in ("-f", "-l", "-r", "-d", "-c") for t in texts) else "at"
    if name in _REPLS:
        return "repl"
    if name not in SHELLS and not is_interpreter(name):
        return None
    kind: StdinUse = "shell" if name in SHELLS else "code"
    skip_value = False
    for word in argv[1:]:
        text = word.text
        if skip_value:
            skip_value = False
        elif text in _STDIN_FILES:
            return kind
        elif kind == "shell" and (text == "-s" or re.fullmatch(r"-[a-zA-Z]*s[a-zA-Z]*", text)):
            return kind
        elif text in _VALUE_OPTIONS:
            skip_value = True
        elif text.startswith(("-", "+")) and text != "-":
            if text in _CODE_OPTIONS or (
                not text.startswith("--") and kind == "shell" and "c" in text[1:]
            ):
                return None
        else:
            return None  # a script file
    return kind


def shell_escapes(text: str) -> str:
    """Shell commands inside REPL input: ``.shell cmd``, ``!cmd``, ``\\! cmd``, ``system cmd``."""
    lines: list[str] = []
    for line in text.splitlines():
        m = re.match(r"^\s*(?:\.shell|\.system|\\!|!|system|shell|\\\\!)\s*(.*)$", line)
        if m and m.group(1):
            lines.append(m.group(1))
    return "\n".join(lines)


def cron_commands(text: str) -> str:
    """The commands of crontab lines (five time fields or an @keyword, then the command)."""
    lines: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or re.match(r"^\w+=", stripped):
            continue
        parts = stripped.split(None, 1 if stripped.startswith("@") else 5)
        lines.append(parts[-1] if len(parts) > (1 if stripped.startswith("@") else 5) else "")
    return "\n".join(lines)


class BuiltinEffect(NamedTuple):
    """What a builtin changes for the rest of the command line."""

    doubts: list[Doubt]
    nested: list[Nested]  # code it will run later (alias values, traps, command variables)
    assigned: list[tuple[str, str | None]]  # variables set: (name, literal value or None)


_DECLARERS = frozenset({"export", "declare", "typeset", "local", "readonly"})
_SAFE_SET = re.compile(
    r"^[-+][euxvfnCbhmBEPTa]*$|^--?$|^(pipefail|errexit|nounset|xtrace|verbose|noglob|"
    r"noclobber|noexec|errtrace|functrace|hashall|monitor|notify|physical|braceexpand|emacs|vi|"
    r"ignoreeof|history|histexpand|interactive-comments|allexport)$"
)
_RISKY_SHOPT = frozenset({"expand_aliases", "extdebug", "sourcepath", "login_shell"})


def builtin_effect(argv: list[Word]) -> BuiltinEffect | None:
    """Effects of builtins that change how later parts run; None for anything else."""
    if not argv:
        return None
    name, args = argv[0].text, argv[1:]
    doubts: list[Doubt] = []
    nested: list[Nested] = []
    assigned: list[tuple[str, str | None]] = []
    if name in _DECLARERS or name == "let":
        for word in args:
            text = word.text
            if text.startswith(("-", "+")) and name != "let":
                if set(text[1:]) & set("in"):
                    doubts.append(
                        Doubt(f"{name} {text} makes later assignments evaluate code", True)
                    )
                continue
            var, eq, value = text.partition("=")
            var = var.rstrip("+")
            if name == "let":
                assigned.append((var, None))
                continue
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\[.*\])?", var):
                continue
            if eq:
                assignment = Assignment(var, value, word.dynamic)
                found, code = assignment_doubts(assignment, f"set by {name}")
                doubts += found
                nested += code
            assigned.append((var, value if eq and not word.dynamic and "+=" not in text else None))
    elif name == "alias":
        for word in args:
            if "=" in word.text:
                alias, _, value = word.text.partition("=")
                nested.append(Nested(value, word.dynamic))
                doubts.append(Doubt(f"alias {alias} redefines a command", word.dynamic))
    elif name == "trap" and args and args[0].text not in ("-l", "-p", "-", ""):
        handler = args[0]
        if not re.fullmatch(r"-?\d+|SIG\w+|\w+", handler.text) or len(args) > 1:
            nested.append(Nested(handler.text, handler.dynamic))
            doubts.append(Doubt(f"trap runs code later: {handler.text[:80]}", handler.dynamic))
    elif name == "set":
        takes_name = False  # after -o (or a cluster ending in o) comes an option name
        for word in args:
            text = word.text
            if takes_name:
                takes_name = False
                if word.dynamic or not _SAFE_SET.match(text):
                    doubts.append(Doubt(f"set -o {text} changes how later commands are read"))
                continue
            if text == "--" or not text.startswith(("-", "+")):
                break  # positional parameters follow
            takes_name = text[1:].endswith("o")
            if word.dynamic or not _SAFE_SET.match(text.rstrip("o") if takes_name else text):
                doubts.append(Doubt(f"set {text} changes how later commands are read"))
    elif name == "shopt":
        texts = [w.text for w in args]
        if "-s" in texts and (set(texts) & _RISKY_SHOPT or "-o" in texts):
            doubts.append(Doubt(f"shopt {' '.join(texts)} changes how later commands are read"))
    elif name == "enable" and any(not w.text.startswith(("-a", "-p", "-s")) for w in args):
        doubts.append(Doubt("enable loads or disables shell builtins"))
    elif name == "hash" and any(w.text.startswith("-p") for w in args):
        doubts.append(Doubt("hash -p makes a command name run another program", True))
    elif name in ("source", ".") and len(args) >= 1:
        target = args[0]
        if target.text.startswith(("<(", ">(")) or target.dynamic:
            doubts.append(Doubt(f"{name} runs code computed at run time: {target.text}", True))
        elif target.text not in _STDIN_FILES:
            doubts.append(Doubt(f"{name} runs the script {target.text} in this shell"))
    elif name in ("read", "mapfile", "readarray", "getopts", "printf"):
        texts = [w.text for w in args]
        if name == "printf":
            if "-v" in texts and texts.index("-v") + 1 < len(texts):
                assigned.append((texts[texts.index("-v") + 1], None))
        else:
            names = [t for t in texts if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", t)]
            assigned += [(n, None) for n in names or ["REPLY", "MAPFILE"]]
    else:
        return None
    return BuiltinEffect(doubts, nested, assigned)
