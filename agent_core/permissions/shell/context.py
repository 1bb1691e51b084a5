"""What the walk of a command line carries: the context at each point, and what it found."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field, replace
from typing import Any

from agent_core.permissions.shell.model import Redirect, SimpleCommand
from agent_core.permissions.shell.text import HereDoc
from agent_core.permissions.shell.words import Known, tilde_value

DOWNLOADERS = frozenset({"curl", "wget", "fetch", "xh", "aria2c", "http", "https"})


@dataclass
class ParseContext:
    """What is known at one point of the line: directory, stdin, variables, files written."""

    cwd: str = ""
    upstream: tuple[str, ...] = ()
    stdin: str | None = None  # literal text fed to this part (echo ... |, here-document)
    piped: bool = False  # stdin is a pipe or here-document (unknown when stdin is None)
    heredocs: tuple[HereDoc, ...] = ()  # bodies cut out of the text being walked
    values: dict[str, str | None] = field(default_factory=dict)  # variables set in the line
    functions: set[str] = field(default_factory=set)  # shell functions defined in the line
    indirect: bool = False  # run by a remote shell, a container or a program's settings
    exec_redirected: bool = False  # an earlier `exec 3< x` changed this shell's descriptors
    files: dict[str, str | None] = field(default_factory=dict)  # written here: path -> text
    downloads: dict[str, str] = field(default_factory=dict)  # path -> the downloader

    def fork(self, **changes: Any) -> ParseContext:
        """A copy for a subshell or nested text: its assignments stay its own."""
        return replace(
            self,
            values=dict(self.values),
            functions=set(self.functions),
            files=dict(self.files),
            downloads=dict(self.downloads),
            **changes,
        )


@dataclass
class ParseState:
    """What the walk has found so far: commands, redirects, doubts."""

    commands: list[SimpleCommand] = field(default_factory=list)
    indirect: list[SimpleCommand] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    uncertain: list[str] = field(default_factory=list)
    risky: list[str] = field(default_factory=list)
    arithmetic: list[str] = field(default_factory=list)
    procsub_output: dict[str, str] = field(default_factory=dict)
    last_stdout: str | None = None  # what the last simple command prints, when known

    def doubt(self, reason: str, risky: bool = False) -> None:
        if reason not in self.uncertain:
            self.uncertain.append(reason)
        if risky and reason not in self.risky:
            self.risky.append(reason)


def known_in(ctx: ParseContext, outputs: dict[int, str]) -> Known:
    """What the line itself decides: its variables, substitution outputs and $PWD."""
    pwd = None if ctx.cwd == "?" else tilde_value(ctx.cwd or ".")
    return Known(ctx.values, outputs, pwd)


def sink_of(state: ParseState, ctx: ParseContext) -> list[SimpleCommand]:
    """Where the commands of ``ctx`` go: run here, or indirectly (remote, settings)."""
    return state.indirect if ctx.indirect else state.commands


def file_key(ctx: ParseContext, path: str) -> str | None:
    """A path as the line's file table keys it (None where the directory is unknown)."""
    path = tilde_value(path)
    if path.startswith(("/", "$HOME")):
        return posixpath.normpath(path)
    if ctx.cwd == "?":
        return None
    return posixpath.normpath(posixpath.join(tilde_value(ctx.cwd) or ".", path))


def wrote(ctx: ParseContext, path: str, text: str | None, append: bool, program: str) -> None:
    """Remember what a command wrote to ``path``, so running that file later is judged."""
    key = file_key(ctx, path)
    if key is None:
        return
    if program in DOWNLOADERS:
        ctx.downloads[key] = program
    previous = ctx.files.get(key, "") if append else ""
    ctx.files[key] = None if text is None or previous is None else previous + text


def bind(ctx: ParseContext, name: str, value: str | None) -> None:
    """Remember a variable's literal value; a second assignment makes it unknown."""
    if name in ctx.values or value is None:
        ctx.values[name] = None
    else:
        ctx.values[name] = tilde_value(value)
