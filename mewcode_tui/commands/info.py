"""Local-query commands: /help, /status, /cost."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from mewcode_tui.commands.registry import CommandHost, CommandRegistry, SlashCommand

if TYPE_CHECKING:
    from agent_core.protocol.session import SandboxStatus

KIND_TITLES = {
    "local": "Ask",
    "ui": "Change",
    "prompt": "Prompts",
    "skill": "Skills",
}


def help_text(registry: CommandRegistry, keymap: Mapping[str, str] | None = None) -> str:
    """Every command grouped by kind, then the keys in effect under ``keymap`` (user remaps)."""
    from mewcode_tui.keymap import keys_help

    lines = ["Commands:"]
    for kind, title in KIND_TITLES.items():
        group = [c for c in registry.all() if c.kind == kind]
        if not group:
            continue
        lines.append(f"  {title}")
        for command in group:
            usage = f" {command.usage}" if command.usage else ""
            lines.append(f"    /{command.name}{usage} — {command.description}")
    lines += keys_help(keymap or {})
    # The prompt's own keys are handled by the input widget, not remappable bindings.
    lines.append(
        "  Prompt: Enter send · Shift+Enter/Ctrl+J newline · ↑/↓ history · Tab tool calls · "
        "Ctrl+P palette"
    )
    return "\n".join(lines)


def show_help(host: CommandHost, args: str) -> None:
    from mewcode_tui.keymap import active_keymap

    text = help_text(host.registry, active_keymap(host.app))
    if host.registry.shadowed:
        names = ", ".join(f"/{n}" for n in host.registry.shadowed)
        text += f"\nCustom commands not loaded (a built-in has the name): {names}"
    host.say(text)


def sandbox_line(status: SandboxStatus) -> str:
    """One line on the OS boundary: which backend, or that there is none."""
    if status.available:
        return f"Sandbox {status.backend}: commands write only in the project and temp dirs"
    return "⚠ Sandbox: none — commands run unconfined (see `mewcode sandbox check`)"


def show_status(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: no session yet.", "warning")
        return
    now = host.session.snapshot()
    lines = [
        f"Session {now.session_id}  ({now.session_path})",
        f"Provider {now.provider} · model {now.model} · mode {now.mode}",
        f"Directory {now.cwd}",
        f"Context {now.context_tokens:,} of {now.context_window:,} tokens · "
        f"{now.messages} messages",
        f"Tools: {', '.join(now.tools)}",
        sandbox_line(now.sandbox),
    ]
    lines += [f"⚠ {problem}" for problem in now.problems]
    host.say("\n".join(lines))


def show_cost(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: nothing spent yet.", "warning")
        return
    now = host.session.snapshot()
    u = now.usage
    host.say(
        f"Cost this session: ${now.cost_usd:.4f}\n"
        f"Tokens: {u.input_tokens:,} in · {u.output_tokens:,} out · "
        f"cache {u.cache_read_tokens:,} read / {u.cache_write_tokens:,} written"
    )


COMMANDS = [
    SlashCommand("help", "local", "List commands and keys", show_help),
    SlashCommand("status", "local", "Session, model, mode, context and tools", show_status),
    SlashCommand("cost", "local", "Tokens and money spent this session", show_cost),
]
