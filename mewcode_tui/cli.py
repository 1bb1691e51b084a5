"""The `mewcode` command line (docs/manual.md#headless-mode--p). Heavy imports happen per subcommand."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from agent_core.errors import MewCodeError
from agent_core.modes import Mode, as_mode
from mewcode_tui.cli_parser import FORMATS, build_parser, parse_args
from mewcode_tui.piped_input import joined_prompt, keys_from_terminal, piped_stdin_fd, read_piped

if TYPE_CHECKING:
    from agent_core.config.settings import Settings
    from agent_core.mcp.cli_config import CliMcpConfig
    from mewcode_tui.session_start import StartFlags

SUBCOMMANDS = ("permissions", "sandbox")
__all__ = ["FORMATS", "build_parser", "main", "start_flags"]


@contextlib.contextmanager
def commands_die_with_mewcode() -> Iterator[None]:
    """On SIGTERM, SIGHUP and at exit, kill every command and background shell still running."""

    def on_signal(signum: int, _frame: object) -> None:
        from agent_core.tools.procgroup import kill_all_running

        kill_all_running()
        if signum == signal.SIGHUP:
            # The terminal is gone: nothing is left to restore, and Textual's input thread
            # can spin on end-of-file forever instead of letting the app exit.
            _exit_soon(128 + signum)
        raise SystemExit(128 + signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        procgroup = sys.modules.get("agent_core.tools.procgroup")
        if procgroup is not None:  # only when a command was ever started
            procgroup.kill_all_running()
        guard = sys.modules.get("agent_core.sandbox.guarded_files")
        for finding in guard.EXIT_FINDINGS if guard is not None else []:
            warn(finding)


HANGUP_GRACE_S = 3.0  # time the app gets to exit cleanly once its terminal hung up


def _exit_soon(code: int) -> None:
    """End the process after HANGUP_GRACE_S if a clean exit has not happened by then."""
    import threading

    timer = threading.Timer(HANGUP_GRACE_S, os._exit, args=(code,))
    timer.daemon = True
    timer.start()


def fail(message: str, code: int = 1) -> int:
    """Say ``message`` on stderr (its control characters escaped); returns ``code``."""
    from agent_core.terminal_text import visible_text

    sys.stderr.write(f"mewcode: {visible_text(message, multiline=True)}\n")
    return code


def warn(problem: str) -> None:
    """A ``mewcode: warning:`` line on stderr; a file name or value in it is shown escaped."""
    from agent_core.terminal_text import visible_text

    sys.stderr.write(f"mewcode: warning: {visible_text(problem, multiline=True)}\n")


def resolve_cwd(raw: str | None) -> Path:
    try:
        cwd = Path(raw).expanduser() if raw else Path(os.getcwd())
    except FileNotFoundError:
        raise MewCodeError("the current directory no longer exists") from None
    if not cwd.is_dir():
        raise MewCodeError(f"--cwd {raw}: no such directory")
    return cwd.resolve()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] == "permissions":
            return permissions_command(argv[1:])
        if argv and argv[0] == "sandbox":
            return sandbox_command(argv[1:])
        if argv and argv[0] == "mcp":
            from mewcode_tui.mcp_command import mcp_command

            return mcp_command(argv[1:])
        if argv and argv[0] == "preload":
            from mewcode_tui.preload.command import preload_command

            return preload_command(argv[1:])
        args = parse_args(argv)
        if args.version:
            from mewcode_tui.version import version_line

            print(version_line())
            return 0
        from mewcode_tui.unsupported_flags import refuse_unsupported

        refuse_unsupported(args)
        with commands_die_with_mewcode():
            if args.input_format == "stream-json":
                from mewcode_tui.stream_json.command import stream_json_command

                return stream_json_command(args)
            if args.headless:
                return headless_command(args)
            return tui_command(args)
    except MewCodeError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `mewcode -p ... | head`: the reader has what it wanted. Quiet, like a finished run
        # (and no second error when the interpreter flushes stdout on its way out).
        _stdout_to_devnull()
        return 0


def _stdout_to_devnull() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def _setup(args: argparse.Namespace, flags: StartFlags | None = None):
    from agent_core.config.paths import MewcodePaths
    from mewcode_tui.debug_log import setup_debug_log
    from mewcode_tui.session_start import StartFlags, load_run_settings

    flags = flags or StartFlags()
    cwd = resolve_cwd(args.cwd)
    paths = MewcodePaths.from_env(cwd)
    setup_debug_log(paths.home)
    # PermissionsUnreadable (a ConfigError) stops here, before anything runs.
    trust = getattr(args, "trust_project", False)
    settings = load_run_settings(paths, flags, trust_project=trust)
    wanted = "demo" if getattr(args, "demo", False) else getattr(args, "provider", None)
    if (wanted or settings.provider) == "demo":
        from agent_core.llm.demo_workspace import open_demo_workspace

        # The demo works in a scratch copy, trusted: it holds none of the project's settings.
        paths = open_demo_workspace(paths)
        return paths.project, paths, load_run_settings(paths, flags, trust_project=True)
    return cwd, paths, settings


def budget(raw: str | None) -> float | None:
    """``--max-budget-usd``: a positive number of dollars (None: no limit)."""
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise MewCodeError(f"--max-budget-usd {raw}: expected a number of dollars above 0")
    return value


def offered_tool_names(raw: str | None) -> tuple[str, ...] | None:
    """``--tools``: built-in tool names, comma or space separated; "" offers none and
    "default" (or no flag) every one. An unknown name is a one-line error."""
    from agent_core.tool_table import BUILTIN_TOOL_NAMES

    if raw is None or raw.strip() == "default":
        return None
    names = tuple(n for n in raw.replace(",", " ").split() if n)
    for name in names:
        if name not in BUILTIN_TOOL_NAMES:
            raise MewCodeError(
                f"--tools: unknown tool {name!r} (built-ins: {', '.join(BUILTIN_TOOL_NAMES)})"
            )
    return names


def start_flags(args: argparse.Namespace) -> StartFlags:
    """What the command line chose for the session: the same for `-p` and the UI."""
    from agent_core.permissions.cli_rules import cli_rules
    from agent_core.session.store import valid_session_uuid
    from mewcode_tui.session_start import StartFlags

    if args.max_turns is not None and args.max_turns < 1:
        raise MewCodeError(f"--max-turns {args.max_turns}: expected a number of rounds, 1 or more")
    # argparse's choices already hold the flag to MODES; this makes it a Mode once.
    mode = (
        None if args.permission_mode is None else as_mode(args.permission_mode, "--permission-mode")
    )
    if args.skip_permissions:
        if mode not in (None, "bypassPermissions"):
            raise MewCodeError(
                f"--dangerously-skip-permissions and --permission-mode {mode} disagree: pick one"
            )
        mode = "bypassPermissions"
    system_prompt = args.system_prompt
    if args.system_prompt_file is not None:
        if system_prompt is not None:
            raise MewCodeError("--system-prompt and --system-prompt-file: pick one")
        system_prompt = read_prompt_file(args.system_prompt_file)
    if args.strict_mcp_config and not args.mcp_configs:
        raise MewCodeError("--strict-mcp-config needs --mcp-config: it uses only those servers")
    return StartFlags(
        provider="demo" if args.demo else args.provider,
        model=args.model,
        mode=mode,
        # A bad rule stops here with a one-line error, before anything runs.
        rules=tuple(cli_rules(args.allowed, args.disallowed)),
        max_turns=args.max_turns,
        max_budget_usd=budget(args.max_budget_usd),
        add_dirs=tuple(str(added_dir(raw)) for raw in args.add_dirs),
        system_prompt=system_prompt,
        append_system_prompt=args.append_system_prompt,
        mcp=tuple(cli_mcp_configs(args.mcp_configs)),
        strict_mcp=args.strict_mcp_config,
        settings_arg=args.settings,
        builtin_tools=offered_tool_names(args.tools),
        session_id=None if args.session_id is None else valid_session_uuid(args.session_id),
    )


def read_prompt_file(raw: str) -> str:
    """The text of a ``--system-prompt-file``; a one-line error when it cannot be read."""
    try:
        return Path(raw).expanduser().read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise MewCodeError(f"--system-prompt-file {raw}: {reason}") from None


def added_dir(raw: str) -> Path:
    """An ``--add-dir`` folder, absolute (relative to the current directory, as a shell's)."""
    try:
        folder = Path(raw).expanduser().resolve()
    except (OSError, RuntimeError) as exc:
        raise MewCodeError(f"--add-dir {raw}: {exc}") from None
    if not folder.is_dir():
        what = "not a directory" if folder.exists() else "no such directory"
        raise MewCodeError(f"--add-dir {raw}: {what}")
    return folder


def cli_mcp_configs(values: list[str]) -> list[CliMcpConfig]:
    """Each ``--mcp-config`` value read and checked whole (ConfigError on the first problem)."""
    if not values:
        return []
    from agent_core.mcp.cli_config import read_cli_mcp_config

    cwd = resolve_cwd(None)
    return [read_cli_mcp_config(v, cwd, Path.home(), os.environ) for v in values]


def refuse_bypass(mode: Mode, settings: Settings) -> None:
    """Stop before anything opens when bypassPermissions may not run here (no boundary)."""
    if mode != "bypassPermissions":
        return
    from agent_core.sandbox import sandbox_status
    from agent_core.sandbox.session import unsandboxed_bypass_error

    if refusal := unsandboxed_bypass_error(mode, settings, sandbox_status()):
        raise refusal


def headless_command(args: argparse.Namespace) -> int:
    from mewcode_tui.command_prompt import command_prompt
    from mewcode_tui.headless import run_headless

    prompt, notice = prompt_with_stdin(args.prompt)
    if not prompt or not prompt.strip():
        return fail(
            'no prompt: pass it as an argument (mewcode -p "...") or on stdin'
            + (
                "; a prompt after --allowedTools is read as a rule: end them with --"
                if args.allowed
                else ""
            ),
            2,
        )
    if args.resume == "":
        return fail("--resume needs a session id with -p (or use --continue for the latest)", 2)
    flags = start_flags(args)
    if notice:
        warn(notice)
    cwd, paths, settings = _setup(args, flags)
    refuse_bypass(flags.mode or settings.default_mode, settings)
    prompt, notices = command_prompt(prompt, paths)
    for notice in notices:
        warn(notice)
    opts = headless_options(args, flags, cwd, paths, settings)
    if opts is None:
        return fail(NO_KEY + ", or try `mewcode --demo -p ...`", 2)

    async def go() -> int:
        runtime = await open_runtime(opts)
        # The session host it runs on closes the runtime (and its MCP servers) at the end.
        return await run_headless(runtime, prompt, args.output_format, verbose=args.verbose)

    return asyncio.run(go())


NO_KEY = (
    "no API key configured: set ANTHROPIC_API_KEY or OPENAI_API_KEY "
    "(or OPENAI_BASE_URL for a compatible server)"
)


def headless_options(args: argparse.Namespace, flags: StartFlags, cwd: Path, paths, settings):
    """The runtime options of a run without the UI (-p, stream-json); None: no API key."""
    from agent_core.llm.factory import detect_provider, make_provider
    from mewcode_tui.session_start import runtime_options

    name = flags.provider or detect_provider(settings, os.environ)
    if name is None:
        return None
    provider = make_provider(
        name, flags.model or settings.model, settings=settings, env=os.environ, cwd=cwd
    )
    return runtime_options(
        cwd,
        paths,
        settings,
        provider,
        flags,
        mode=flags.mode or settings.default_mode,
        resume_id=args.resume or None,
        continue_latest=args.continue_latest,
    )


async def open_runtime(opts):
    """``Runtime.open``; the MCP hub closed for certain when it fails."""
    from agent_core.agent.runtime import Runtime

    try:
        return await Runtime.open(opts)
    except BaseException:
        if opts.mcp is not None:  # nothing started yet; closed for certain all the same
            await opts.mcp.aclose()
        raise


def prompt_with_stdin(prompt: str | None) -> tuple[str | None, str | None]:
    """The prompt with what was piped on stdin after it; (prompt, notice about the pipe)."""
    fd = piped_stdin_fd()
    if fd is None:
        return prompt, None
    piped = read_piped(fd, on_wait=lambda: warn(STDIN_WAIT))
    return joined_prompt(prompt, piped.text), piped.notice


STDIN_WAIT = "waiting for stdin to end (run with </dev/null to leave it out)"


def tui_command(args: argparse.Namespace) -> int:
    from mewcode_tui.app_runner import TuiOptions, run_tui
    from mewcode_tui.session_start import needs_trust_dialog, options_for

    prompt, notice = args.prompt, None
    if piped_stdin_fd() is not None:
        # The piped text is the first message; the keys come from the terminal itself.
        prompt, notice = prompt_with_stdin(args.prompt)
        keys_from_terminal()
    flags = start_flags(args)
    cwd, paths, settings = _setup(args, flags)
    refuse_bypass(flags.mode or settings.default_mode, settings)
    if notice:
        warn(notice)
    options = TuiOptions(
        cwd=cwd,
        paths=paths,
        settings=settings,
        inline=args.inline,
        resume_id=args.resume,
        continue_latest=args.continue_latest,
        demo=args.demo,
        prompt=prompt,
        flags=flags,
        ask_trust=needs_trust_dialog(paths, settings),
    )
    return run_tui(options_for(options, settings, os.environ))


def permissions_command(argv: list[str]) -> int:
    """`mewcode permissions check TOOL 'JSON' [options]`: a dry run of the layers, runs nothing."""
    usage = (
        "usage: mewcode permissions check TOOL 'JSON INPUT' [--mode M] [--cwd DIR] "
        "[--trust-project]"
    )
    if not argv or argv[0] != "check":
        return fail(usage, 2)
    cwd, trust, rest = _subcommand_options(argv[1:])
    from agent_core.permissions.check import run_check
    from agent_core.terminal_text import visible_text

    start, paths, settings = _setup(argparse.Namespace(cwd=cwd, trust_project=trust))
    for problem in settings.problems:  # the same warnings -p and the UI show
        warn(problem)
    code, text = run_check(rest, paths, settings, cwd=start)
    (sys.stdout if code == 0 else sys.stderr).write(visible_text(text, multiline=True) + "\n")
    return code


def _subcommand_options(args: list[str]) -> tuple[str | None, bool, list[str]]:
    """``--cwd DIR`` and ``--trust-project`` of a subcommand; (cwd, trust, the other args)."""
    rest, cwd, trust = [], None, False
    args = list(args)
    while args:
        arg = args.pop(0)
        if arg == "--cwd" and args:
            cwd = args.pop(0)
        elif arg.startswith("--cwd="):
            cwd = arg.split("=", 1)[1]
        elif arg == "--trust-project":
            trust = True
        else:
            rest.append(arg)
    return cwd, trust, rest


def sandbox_command(argv: list[str]) -> int:
    """`mewcode sandbox check [--cwd DIR] [--trust-project]`: what the OS sandbox enforces
    here, and the paths it applies to in this project. Exit 1 when there is none."""
    usage = "usage: mewcode sandbox check [--cwd DIR] [--trust-project]"
    if not argv or argv[0] != "check":
        return fail(usage, 2)
    cwd, trust, rest = _subcommand_options(argv[1:])
    if rest:
        return fail(f"unexpected argument {rest[0]!r}\n{usage}", 2)
    from agent_core.sandbox import sandbox_report, sandbox_status
    from agent_core.sandbox.session import session_policy
    from agent_core.terminal_text import visible_text

    _, paths, settings = _setup(argparse.Namespace(cwd=cwd, trust_project=trust))
    policy = session_policy(paths, settings, paths.sessions_dir / "SESSION", create=False)
    sys.stdout.write(visible_text(sandbox_report(policy), multiline=True))  # it names paths
    return 0 if sandbox_status().available else 1


if __name__ == "__main__":
    raise SystemExit(main())
