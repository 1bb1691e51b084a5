"""Programs that run a string or another command: ``bash -c``, ``su -c``, ``tmux new``,
``ssh host cmd``, ``docker exec``, ``git -c alias.x='!cmd'``, ``parallel``, ``watch``...

Each hands back the shell text it runs (parsed again by the caller) or the argv it
runs, and says when what it runs is only known at run time.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from agent_core.permissions.shell.git_config_keys import GIT_COMMAND_KEY
from agent_core.permissions.shell.model import Doubt, Nested, Word, XargsUse
from agent_core.permissions.shell.names import DESTRUCTIVE, FOREIGN_SHELLS, SHELLS, is_interpreter


def _fs(*names: str) -> frozenset[str]:
    return frozenset(names)


_SHELL_VALUE_OPTS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


@dataclass
class Findings:
    """What unwrapping one command found: doubts and the code it runs in turn."""

    doubts: list[Doubt] = field(default_factory=list)
    nested_texts: list[Nested] = field(default_factory=list)
    nested_argvs: list[list[Word]] = field(default_factory=list)
    xargs: XargsUse | None = None
    stdin_shell: bool = False

    def doubt(self, reason: str, risky: bool = False) -> None:
        self.doubts.append(Doubt(reason, risky))


def _shell_command_text(args: list[Word]) -> Word | None:
    """The string a shell runs with ``-c`` (``bash -lc 'x'``), or None without -c."""
    has_c, i = False, 0
    while i < len(args):
        text = args[i].text
        if text in _SHELL_VALUE_OPTS:
            i += 2
            continue
        if text == "--":
            i += 1
            break
        if text.startswith("-") and not text.startswith("--") and len(text) > 1:
            has_c = has_c or "c" in text[1:]
            i += 1
            continue
        if text.startswith(("--", "+")):
            i += 1
            continue
        break
    if has_c and i < len(args):
        return args[i]
    return None


def _find_exec_argvs(args: list[Word]) -> list[list[Word]]:
    """Commands run by ``find ... -exec CMD {} ;`` (also -execdir, -ok, -okdir)."""
    found: list[list[Word]] = []
    i = 0
    while i < len(args):
        if args[i].text in _FIND_EXEC:
            j = i + 1
            while j < len(args) and args[j].text not in (";", "+"):
                j += 1
            if j > i + 1:
                found.append(args[i + 1 : j])
            i = j
        i += 1
    return found


def _option_value(args: list[Word], names: tuple[str, ...]) -> Word | None:
    """The value of ``-c CMD`` / ``--command=CMD`` style options (also ``-lc CMD``)."""
    for i, word in enumerate(args):
        text = word.text
        if text in names and i + 1 < len(args):
            return args[i + 1]
        for name in names:
            if name.startswith("--") and text.startswith(name + "="):
                return Word(text[len(name) + 1 :], word.dynamic)
            if (
                len(name) == 2
                and not text.startswith("--")
                and text.startswith("-")
                and text.endswith(name[1])
                and len(text) > 2
                and i + 1 < len(args)
            ):
                return args[i + 1]
    return None


def _joined(words: list[Word]) -> Nested:
    """Words a program joins into one shell string (eval, watch, ssh): quoting is gone, so a
    quoted ``~`` (``./~`` in our words) is expanded by the shell that reads the string."""
    texts = [w.text[2:] if w.text.startswith("./~") else w.text for w in words]
    return Nested(" ".join(texts), any(w.dynamic for w in words))


def _watch(args: list[Word], state: Findings) -> Nested | None:
    """``watch -n 1 cmd args``: the shell string watch runs (``-x``: an argv)."""
    i, exec_form = 0, False
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        exec_form = (
            exec_form or text in ("-x", "--exec") or (not text.startswith("--") and "x" in text[1:])
        )
        takes = text in ("-n", "--interval", "-d", "-q", "--equexit") or (
            not text.startswith("--") and text[-1] in "nq" and len(text) == 2
        )
        i += 2 if takes else 1
    rest = args[i:]
    if not rest:
        return None
    if exec_form:
        state.nested_argvs.append(rest)
        return None
    return _joined(rest)


_TMUX_RUNS = _fs(
    "new",
    "new-session",
    "new-window",
    "neww",
    "split-window",
    "splitw",
    "respawn-pane",
    "respawnp",
    "respawn-window",
    "respawnw",
    "run-shell",
    "run",
    "display-popup",
    "popup",
    "pipe-pane",
    "pipep",
    "if-shell",
    "if",
)
_TMUX_KEYS = _fs("send-keys", "send")
# Options that take a value, per tmux command (the same letter is a flag elsewhere).
_TMUX_VALUES = {
    "new": "cefFnstxy", "new-session": "cefFnstxy", "new-window": "cefFnt", "neww": "cefFnt",
    "split-window": "celtF", "splitw": "celtF", "respawn-pane": "cet", "respawnp": "cet",
    "respawn-window": "cet", "respawnw": "cet", "run-shell": "cdt", "run": "cdt",
    "display-popup": "bcdehsStTwxy", "popup": "bcdehsStTwxy", "pipe-pane": "t", "pipep": "t",
    "if-shell": "t", "if": "t", "send-keys": "Nt", "send": "Nt",
}  # fmt: skip


def _tmux(args: list[Word], state: Findings) -> None:
    """``tmux new 'cmd'``, ``tmux send-keys 'cmd' Enter``, ``tmux -c 'cmd'``."""
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        if text == "-c" and i + 1 < len(args):
            state.nested_texts.append(Nested(args[i + 1].text, args[i + 1].dynamic))
        i += 2 if text in ("-L", "-S", "-f", "-c", "-T") else 1
    commands = args[i:]
    while commands:
        # tmux chains commands with a lone ';' (written \; in the shell)
        end = next((j for j, w in enumerate(commands) if w.text == ";"), len(commands))
        _tmux_command(commands[:end], state)
        commands = commands[end + 1 :]


def _tmux_command(words: list[Word], state: Findings) -> None:
    if not words:
        return
    sub = words[0].text
    j = 1
    values = _TMUX_VALUES.get(sub, "t")
    while j < len(words) and words[j].text.startswith("-") and words[j].text != "-":
        text = words[j].text
        j += 2 if text[-1] in values and len(text) >= 2 else 1
    rest = words[j:]
    if sub in _TMUX_RUNS and rest:
        if sub in ("if-shell", "if"):
            rest = rest[:1]
        state.nested_texts.append(_joined(rest))
    elif sub in _TMUX_KEYS and rest:
        keys = [w for w in rest if w.text not in ("Enter", "C-m", "KPEnter", "C-j")]
        state.nested_texts.append(_joined(keys))
        state.doubt("tmux send-keys types into a shell whose state is unknown")


def _screen(args: list[Word], state: Findings) -> list[Word] | None:
    """``screen -dmS name cmd args`` runs argv; ``screen -X stuff 'cmd'`` types a string."""
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        if text in ("-X", "-Q"):
            rest = args[i + 1 :]
            if rest and rest[0].text in ("stuff", "exec", "screen"):
                state.nested_texts.append(_joined(rest[1:]))
                state.doubt(f"screen {rest[0].text} runs a command in a session")
            return None
        takes = text[-1] in "ScehpTtsL" and not text.startswith("--")
        if text in ("-s",):
            state.doubt("screen -s chooses the shell it runs")
        i += 2 if takes else 1
    return args[i:] or None


_SSH_VALUES = "BbcDEeFIiJLlmOoPpQRSWw"


def _ssh(args: list[Word], state: Findings) -> None:
    """``ssh host cmd``: the words after the host are one string the remote shell runs."""
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        i += 2 if len(text) == 2 and text[1] in _SSH_VALUES else 1
    rest = args[i + 1 :]
    if i >= len(args):
        return
    if rest:
        nested = _joined(rest)
        state.nested_texts.append(Nested(nested.text, nested.dynamic, indirect=True))
        state.doubt(f"ssh runs a command on another machine: {nested.text[:80]}", nested.dynamic)
    else:
        state.doubt("ssh starts a remote shell that reads its input")
        state.stdin_shell = True


_CONTAINER_VALUES = _fs(
    "-e",
    "--env",
    "--env-file",
    "-u",
    "--user",
    "-w",
    "--workdir",
    "--detach-keys",
    "-c",
    "--container",
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "-f",
    "--filename",
    "--pod-running-timeout",
    "-l",
    "--selector",
    "--cluster",
    "-s",
    "--server",
    "--as",
)


def _container_exec(tool: str, args: list[Word], state: Findings) -> None:
    """``docker exec c cmd``, ``kubectl exec pod -- cmd``: a command run in a container."""
    if "--" in [w.text for w in args]:
        rest = args[[w.text for w in args].index("--") + 1 :]
    else:
        i = 0
        while i < len(args) and args[i].text.startswith("-"):
            text = args[i].text
            i += 2 if text in _CONTAINER_VALUES else 1
        rest = args[i + 1 :]
    if rest:
        nested = Nested(shlex.join(w.text for w in rest), any(w.dynamic for w in rest), True)
        state.nested_texts.append(nested)
        state.doubt(f"{tool} exec runs a command in a container: {nested.text[:80]}",
                    nested.dynamic)  # fmt: skip


def _git_globals(args: list[Word], state: Findings) -> None:
    """``git -c alias.x='!cmd' x``, ``-c core.pager=cmd``: configuration that runs commands.

    A literal value is parsed as the command it names (an alias without ``!`` is a git
    command), so it is judged like any other; a value computed at run time is a doubt.
    """
    i = 0
    while i < len(args) and args[i].text.startswith("-"):
        text = args[i].text
        if text in ("-c", "--config-env") and i + 1 < len(args):
            value = args[i + 1]
            key, _, setting = value.text.partition("=")
            if text == "--config-env":
                state.doubt(f"git takes the setting {key} from the environment", True)
            elif value.dynamic:
                state.doubt(f"git -c sets {key} to a value computed at run time", True)
            elif GIT_COMMAND_KEY.match(key) and setting.strip():
                command = setting.strip()
                if key.lower().startswith("alias.") and not command.startswith("!"):
                    command = "git " + command
                state.nested_texts.append(Nested(command.removeprefix("!"), indirect=True))
            i += 2
            continue
        i += 2 if text in ("-C", "--git-dir", "--work-tree", "--namespace", "--exec-path") else 1
        if text.split("=", 1)[0] in ("--exec-path", "--git-dir", "--work-tree"):
            state.doubt(f"git {text.split('=', 1)[0]} changes which repository or helpers it uses")
    if i < len(args) and args[i].text == "config":
        _git_config(args[i + 1 :], state)


def _git_config(args: list[Word], state: Findings) -> None:
    """``git config core.pager 'cmd'``: a command stored now runs at the next git call."""
    words = [w for w in args if not w.text.startswith("-")]
    if words and words[0].text in ("set", "add"):
        words = words[1:]
    if len(words) >= 2 and GIT_COMMAND_KEY.match(words[0].text):
        value = words[1]
        command = value.text.strip()
        if words[0].text.lower().startswith("alias.") and not command.startswith("!"):
            command = "git " + command
        state.nested_texts.append(Nested(command.removeprefix("!"), value.dynamic, True))
        if value.dynamic:
            state.doubt(f"git config stores a command computed at run time: {value.text}", True)


_PARALLEL_VALUES = _fs(
    "-j",
    "--jobs",
    "-S",
    "--sshlogin",
    "-a",
    "--arg-file",
    "-d",
    "--delimiter",
    "-E",
    "--eof",
    "--joblog",
    "--tmpdir",
    "--results",
    "--res",
    "-I",
    "--env",
    "--timeout",
    "--delay",
    "-n",
    "--max-args",
    "-N",
    "--colsep",
    "-C",
    "--workdir",
    "--wd",
    "--tag-string",
    "--memfree",
    "--load",
    "-l",
    "--basefile",
    "--bf",
    "--return",
    "--transfer-file",
    "--tf",
    "--shebang",
)


def _parallel(args: list[Word], state: Findings) -> None:
    """GNU parallel: a command template filled from ``:::`` arguments or stdin lines."""
    i = 0
    while i < len(args) and args[i].text.startswith("-") and args[i].text not in (":::", "::::"):
        i += 2 if args[i].text in _PARALLEL_VALUES else 1
    rest = args[i:]
    texts = [w.text for w in rest]
    cut = next((j for j, t in enumerate(texts) if t in (":::", "::::", ":::+", "::::+")), None)
    template = rest[:cut] if cut is not None else rest
    items = [w for w in rest[cut + 1 :] if w.text not in (":::", ":::+")] if cut is not None else []
    from_file = cut is not None and texts[cut].startswith("::::")
    if cut is None or from_file or any(w.dynamic for w in items):
        # Arguments read at run time: a template that deletes or runs code could get any.
        head = template[0].text.rsplit("/", 1)[-1] if template else ""
        risky = not template or head in DESTRUCTIVE or head in SHELLS or is_interpreter(head)
        state.doubt("parallel builds commands from input read at run time", risky)
        state.nested_texts.append(_joined(template) if template else Nested("", True))
        return
    state.doubt("parallel builds commands from its arguments")
    for item in items or [Word("")]:
        if not template:
            state.nested_texts.append(Nested(item.text))
            continue
        line = _joined(template).text
        line = line.replace("{}", item.text) if "{}" in line else f"{line} {item.text}"
        state.nested_texts.append(Nested(line))


def launch(name: str, view: list[Word], state: Findings) -> Nested | None:
    """The shell string a program runs (``bash -c``, ``eval``, ``su -c``...), and side effects."""
    args = view[1:]
    if name in SHELLS:
        nested = _shell_command_text(args)
        if nested is not None and name in FOREIGN_SHELLS:
            state.doubt(f"{name} syntax differs from bash: {nested.text[:80]}", nested.dynamic)
        return Nested(nested.text, nested.dynamic) if nested else None
    if name == "eval":
        return _joined(args) if args else None
    if name == "find":
        state.nested_argvs += _find_exec_argvs(args)
    elif name == "watch":
        return _watch(args, state)
    elif name in _STRING_OPTIONS:
        value = _option_value(args, _STRING_OPTIONS[name])
        if value is not None:
            return Nested(value.text, value.dynamic)
        if name == "runuser" and (rest := _after_option(args, ("-u", "--user"))):
            state.nested_argvs.append(rest)
        elif name == "sg" and len(args) >= 2 and not args[0].text.startswith("-"):
            return _joined(args[1:])
        elif name in ("su", "runuser", "script"):
            state.stdin_shell = True
    elif name == "capsh":
        texts = [w.text for w in args]
        if "--" in texts:
            state.nested_argvs.append([Word("bash"), *args[texts.index("--") + 1 :]])
    elif name == "tmux":
        _tmux(args, state)
    elif name == "screen":
        if screen_argv := _screen(args, state):
            state.nested_argvs.append(screen_argv)
    elif name in ("ssh", "autossh", "mosh"):
        _ssh(args, state)
    elif name in ("docker", "podman", "nerdctl", "kubectl", "oc", "lxc"):
        if args and args[0].text == "exec":
            _container_exec(name, args[1:], state)
    elif name == "git":
        _git_globals(args, state)
    elif name in ("parallel", "sem"):
        _parallel(args, state)
    elif name in ("npx", "pnpx", "bunx") or (name == "npm" and args and args[0].text == "exec"):
        value = _option_value(args, ("-c", "--call"))
        if value is not None:
            return Nested(value.text, value.dynamic)
    return None


_STRING_OPTIONS: dict[str, tuple[str, ...]] = {
    "su": ("-c", "--command"), "runuser": ("-c", "--command"), "script": ("-c", "--command"),
    "flock": ("-c", "--command"), "sg": ("-c", "--command"), "nix-shell": ("--run", "--command"),
    "entr": ("-s",),
}  # fmt: skip


def _after_option(args: list[Word], names: tuple[str, ...]) -> list[Word]:
    for i, word in enumerate(args):
        if word.text in names and i + 2 <= len(args):
            rest = args[i + 2 :]
            return rest[1:] if rest and rest[0].text == "--" else rest
    return []
