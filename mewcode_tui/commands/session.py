"""UI-state commands: /clear, /model, /mode, /plan, /theme, /exit."""

from __future__ import annotations

from agent_core import events as ev
from agent_core.errors import MewCodeError
from agent_core.modes import MODES, Mode
from agent_core.protocol import ops
from mewcode_tui.commands.registry import CommandHost, SlashCommand, ask


async def clear(host: CommandHost, args: str) -> None:
    await host.clear_conversation()
    host.say("Started a new session; the old one stays on disk.")


async def model(host: CommandHost, args: str) -> None:
    if host.session is None:
        host.say("Still starting: try again in a moment.", "warning")
        return
    now = host.session.snapshot()
    if now.running:
        host.say("Wait for the turn to finish (or Esc) before switching models.", "warning")
        return
    if args:
        await switch_model(host, args.strip())
        return
    from mewcode_tui.screens.model_picker import ModelPickerScreen

    listing = await ask(host.session, ops.QueryModels(), ev.ModelList)
    if all(m.model == listing.current for m in listing.models):
        host.say(
            f"Model {now.model} ({now.provider}). The catalog lists no other model for "
            f"{now.provider}: switch with /model NAME."
        )
        return

    def chosen(name: str | None) -> None:
        if name is not None:
            host.run_worker(switch_model(host, name), group="model", exclusive=True)

    host.app.push_screen(ModelPickerScreen(listing), chosen)


async def switch_model(host: CommandHost, name: str) -> None:
    """Ask the session for ``name`` ("openai:gpt-4o" names the provider too) and say how it went."""
    if host.session is None:
        return
    try:
        switched = await ask(host.session, ops.SetModel(model=name), ev.ModelChanged)
    except MewCodeError as exc:
        host.say(f"Cannot switch model: {exc}", "error")
        return
    host.refresh_status()
    host.say(f"Now using {switched.model} ({switched.provider}).")


BYPASS_WARNING = (
    "Every tool call runs without asking: edits, commands, web requests. Only the deny "
    "rules and the OS sandbox still hold. Use it in a throwaway checkout or a container."
)


async def mode(host: CommandHost, args: str) -> None:
    if not args:
        current = host.session.snapshot().mode if host.session is not None else "default"
        host.say(f"Mode {current}. Choose one of: {', '.join(MODES)} (or Shift+Tab).")
        return
    wanted = {m.lower(): m for m in MODES}.get(args.strip().lower())
    if wanted is None:
        host.say(f"Unknown mode {args!r}; choose one of: {', '.join(MODES)}.", "warning")
        return
    if wanted == "bypassPermissions":
        from mewcode_tui.screens.confirm import ConfirmScreen

        def confirmed(yes: bool | None) -> None:
            if yes:
                host.run_worker(_set_mode(host, wanted), group="mode")
            else:
                host.say("Mode unchanged.")

        host.app.push_screen(
            ConfirmScreen("Bypass all permission prompts?", BYPASS_WARNING), confirmed
        )
        return
    await _set_mode(host, wanted)


async def _set_mode(host: CommandHost, wanted: Mode) -> None:
    if await host.set_mode(wanted):
        host.say(f"Mode {wanted}.")


async def plan(host: CommandHost, args: str) -> None:
    if not await host.set_mode("plan"):
        return
    if args:
        await host.send_prompt(args)
    else:
        host.say("Plan mode: read-only tools; the model proposes a plan for you to approve.")


def theme(host: CommandHost, args: str) -> None:
    app = host.app
    names = sorted(app.available_themes)
    if not args:
        host.say(f"Theme {app.theme}. Available: {', '.join(names)}.")
        return
    name = args.strip()
    if name not in app.available_themes:
        host.say(f"No theme named {name!r}. Available: {', '.join(names)}.", "warning")
        return
    app.theme = name
    from mewcode_tui.themes import save_theme

    try:
        save_theme(host.paths, name)
    except OSError as exc:
        host.say(f"Theme switched but not saved: {exc.strerror}", "warning")
        return
    host.say(f"Theme {name} (saved).")


def exit_app(host: CommandHost, args: str) -> None:
    host.app.exit(0)


COMMANDS = [
    SlashCommand("clear", "ui", "Start a new conversation", clear),
    SlashCommand(
        "model", "ui", "Switch the model (no name: pick from a list)", model, "[[provider:]NAME]"
    ),
    SlashCommand("mode", "ui", "Show or set the permission mode", mode, "[MODE]"),
    SlashCommand("plan", "ui", "Enter plan mode (optionally with a task)", plan, "[TASK]"),
    SlashCommand("theme", "ui", "List or switch themes (saved)", theme, "[NAME]"),
    SlashCommand("exit", "ui", "Quit MewCode", exit_app),
]
