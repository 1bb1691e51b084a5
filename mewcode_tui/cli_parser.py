"""The `mewcode` flags: the parser, and the one ambiguity it cannot settle alone.

``--allowedTools``/``--disallowedTools`` take several values, as Claude Code's do, so
``mewcode -p --allowedTools Read Edit "do it"`` hands "do it" to the flag. When no
prompt came and the last value of a closing ``--allowedTools`` is not a rule, it is
taken as the prompt instead (dropping an allow rule can only make a run stricter).
A deny list is never reinterpreted: a mistyped deny rule stops the run instead.
``--`` ends either list for certain.
"""

from __future__ import annotations

import argparse

from agent_core.llm.catalog import PROVIDER_NAMES
from agent_core.modes import MODES

FORMATS = ("text", "json", "stream-json")
INPUT_FORMATS = ("text", "stream-json")
ALLOW_FLAGS = ("--allowedTools", "--allowed-tools")
RULE_FLAGS = (*ALLOW_FLAGS, "--disallowedTools", "--disallowed-tools")

SUBCOMMANDS_HELP = """\
subcommands:
  mewcode mcp list                     the MCP servers configured here, and their state
  mewcode preload status|stop          the warm-start server: is one running; stop it
  mewcode sandbox check                what the OS sandbox enforces in this project
  mewcode permissions check TOOL 'JSON' [--mode M]
                                       what the permission layers decide for one call
  (each takes --cwd DIR and --trust-project where they apply)

rules: --allowedTools "Read" "Edit", "Read,Edit" and "Bash(git log:*)" all work; a rule's
spaces inside parentheses are kept. Put the prompt first, or end the rules with --:
  mewcode -p "do it" --allowedTools Read Edit
  mewcode -p --allowedTools Read Edit -- "do it"
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mewcode",
        description="MewCode: a terminal AI coding agent. Without -p, opens the full-screen UI.",
        epilog=SUBCOMMANDS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("prompt", nargs="?", help="prompt (with -p), or the first message in the UI")
    p.add_argument(
        "-p",
        "--print",
        dest="headless",
        action="store_true",
        help="headless: run the prompt, print the answer and exit (text piped on stdin is "
        "added after the prompt, or is the prompt)",
    )
    p.add_argument("--version", "-v", action="store_true", help="print the version and exit")
    p.add_argument("--output-format", choices=FORMATS, default="text")
    p.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        default="text",
        help="stream-json (with --output-format stream-json): JSON lines on stdin, user "
        "messages and control requests, as the Claude Agent SDK sends them; implies -p",
    )
    p.add_argument(
        "--include-partial-messages",
        action="store_true",
        help="with --input-format stream-json: stream_event lines for text as it streams",
    )
    p.add_argument(
        "--permission-prompt-tool",
        metavar="NAME",
        help='with --input-format stream-json: "stdio" asks the app (can_use_tool) '
        "instead of denying what would be asked",
    )
    p.add_argument(
        "--verbose",
        action="store_true",
        help="with -p: each tool call, verdict and timing on stderr",
    )
    p.add_argument("--permission-mode", choices=MODES)
    p.add_argument(
        "--dangerously-skip-permissions",
        dest="skip_permissions",
        action="store_true",
        help="bypassPermissions mode: no prompts, the OS sandbox and deny rules still apply",
    )
    for flags, dest, what in (
        (("--allowedTools", "--allowed-tools"), "allowed", "allow"),
        (("--disallowedTools", "--disallowed-tools"), "disallowed", "deny"),
    ):
        p.add_argument(
            *flags,
            dest=dest,
            action="extend",
            nargs="+",
            default=[],
            metavar="RULE",
            help=f'rules to {what}: several, or one "Read,Edit" list; "Bash(git log:*)" is one',
        )
    p.add_argument(
        "--add-dir",
        dest="add_dirs",
        action="extend",
        nargs="+",
        default=[],
        metavar="DIR",
        help="more folders the tools may read and write, for this run",
    )
    p.add_argument("--system-prompt", metavar="TEXT", help="replace MewCode's base system prompt")
    p.add_argument(
        "--system-prompt-file", metavar="FILE", help="replace the base system prompt with FILE"
    )
    p.add_argument(
        "--append-system-prompt", metavar="TEXT", help="add TEXT to the end of the system prompt"
    )
    p.add_argument(
        "--mcp-config",
        dest="mcp_configs",
        action="extend",
        nargs="+",
        default=[],
        metavar="FILE|JSON",
        help='MCP servers for this run ({"mcpServers": {...}}, a file or the JSON itself)',
    )
    p.add_argument(
        "--strict-mcp-config",
        action="store_true",
        help="use only the --mcp-config servers (not ~/.claude.json, ~/.mewcode/mcp.json, .mcp.json)",
    )
    p.add_argument(
        "--settings",
        metavar="FILE|JSON",
        help="one more settings file (or JSON object text), applied last as your own",
    )
    p.add_argument("--max-turns", type=int, help="maximum model rounds for this turn")
    p.add_argument(
        "--tools",
        metavar="LIST",
        help='the built-in tools offered, comma or space separated ("" none, "default" all)',
    )
    p.add_argument("--session-id", metavar="UUID", help="name the new session with this UUID")
    # A Claude Code flag an SDK may pass that MewCode cannot fully honour: taken here so the
    # refusal names it (unsupported_flags.py), never argparse's "unrecognized arguments".
    p.add_argument("--setting-sources", help=argparse.SUPPRESS)
    p.add_argument(
        "--max-budget-usd",
        metavar="USD",
        help="stop sending requests once this session has cost more than USD dollars",
    )
    p.add_argument(
        "--fork-session",
        action="store_true",
        help="with --resume or --continue: go on in a new session holding a copy of that one",
    )
    p.add_argument("--model")
    p.add_argument("--provider", choices=PROVIDER_NAMES)
    p.add_argument("--demo", action="store_true", help="use the offline demo provider")
    p.add_argument(
        "-c",
        "--continue",
        dest="continue_latest",
        action="store_true",
        help="continue the latest session of this project",
    )
    p.add_argument(
        "-r",
        "--resume",
        metavar="ID",
        nargs="?",
        const="",
        default=None,
        help="resume a session by id (in the UI, no id opens a picker)",
    )
    p.add_argument("--cwd", help="project directory (default: the current directory)")
    p.add_argument("--inline", action="store_true", help="run the UI inline, not full-screen")
    p.add_argument(
        "--trust-project",
        action="store_true",
        help="trust this project's .mewcode settings for this run (not recorded; "
        "the UI's trust dialog records it)",
    )
    return p


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The parsed command line, with a prompt ``--allowedTools`` swallowed given back."""
    args = build_parser().parse_args(argv)
    if args.prompt is None:
        index = swallowed_prompt_index(argv)
        if index is not None and index < len(args.allowed):
            value = args.allowed[index]
            if not _is_rule_list(value):
                del args.allowed[index]
                args.prompt = value
    return args


def swallowed_prompt_index(argv: list[str]) -> int | None:
    """Where, in the parsed ``allowed`` list, the last value of the last ``--allowedTools``
    group sits (the one value that may be a prompt); None when there is none."""
    taken = 0  # values the allow groups took so far
    last: int | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            break
        if any(arg.startswith(f"{flag}=") for flag in ALLOW_FLAGS):
            taken += 1
            last = None  # one value, given with "=": never a prompt
        elif arg in ALLOW_FLAGS:
            j = i + 1
            while j < len(argv) and not argv[j].startswith("-"):
                j += 1
            if j > i + 1:
                taken += j - i - 1
                last = taken - 1
            i = j
            continue
        i += 1
    return last


def _is_rule_list(value: str) -> bool:
    """True when every rule in ``value`` parses as a permission rule."""
    from agent_core.errors import ConfigError
    from agent_core.permissions.cli_rules import split_rules
    from agent_core.permissions.rules import rule_problem

    try:
        rules = split_rules(value)
    except ConfigError:
        return False
    return bool(rules) and all(rule_problem(rule) is None for rule in rules)
