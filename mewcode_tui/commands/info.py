"""Local-query commands: /help, /status, /cost."""

from __future__ import annotations

from collections.abc import Mapping

from mewcode_tui.commands.registry import CommandHost, CommandRegistry, SlashCommand

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


def sandbox_line(status) -> str:
    """One line on the OS boundary: which backend, or that there is none."""
    if status.available:
        return f"Sandbox {status.backend}: commands write only in the project and temp dirs"
    return "⚠ Sandbox: none — commands run unconfined (see `mewcode sandbox check`)"


def show_status(host: CommandHost, args: str) -> None:
    rt = host.runtime
    if rt is None:
        host.say("Still starting: no session yet.", "warning")
        return
    provider = rt.provider
    lines = [
        f"Session {rt.session_id}  ({rt.session_path})",
        f"Provider {provider.name} · model {provider.model} · mode {rt.mode}",
        f"Directory {rt.cwd}",
        f"Context {rt.context_tokens:,} of {rt.context_window:,} tokens · "
        f"{len(rt.history)} messages",
        f"Tools: {', '.join(rt.tool_names())}",
        sandbox_line(rt.sandbox),
    ]
    for problem in list(rt.settings_problems) + list(rt.load_warnings):
        lines.append(f"⚠ {problem}")
    host.say("\n".join(lines))


def show_cost(host: CommandHost, args: str) -> None:
    rt = host.runtime
    if rt is None:
        host.say("Still starting: nothing spent yet.", "warning")
        return
    u = rt.usage
    host.say(
        f"Cost this session: ${rt.cost_usd:.4f}\n"
        f"Tokens: {u.input_tokens:,} in · {u.output_tokens:,} out · "
        f"cache {u.cache_read_tokens:,} read / {u.cache_write_tokens:,} written"
    )


COMMANDS = [
    SlashCommand("help", "local", "List commands and keys", show_help),
    SlashCommand("status", "local", "Session, model, mode, context and tools", show_status),
    SlashCommand("cost", "local", "Tokens and money spent this session", show_cost),
]
