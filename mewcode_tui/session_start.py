"""Creating the provider and the runtime, off the first frame (docs/architecture.md#start-up).

Everything that imports a vendor SDK happens here, inside functions the app
calls from a worker after its first paint.
"""

from __future__ import annotations

import asyncio
import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent_core.config.paths import MewcodePaths
from agent_core.config.settings import RuleEntry, Settings
from agent_core.llm.catalog import PROVIDERS
from agent_core.modes import Mode

if TYPE_CHECKING:
    from agent_core.agent.runtime import RuntimeOptions
    from agent_core.agent.session_api import RuntimeSession
    from agent_core.llm.base import Provider
    from agent_core.mcp.cli_config import CliMcpConfig
    from agent_core.tools.base import Tool

# The SDK module each provider uses, imported ahead of the first request.
SDK_MODULES = {name: e.sdk_module for name, e in PROVIDERS.items() if e.sdk_module}


@dataclass(frozen=True)
class StartFlags:
    """What the command line chose itself; settings decide the rest (again after trust)."""

    provider: str | None = None  # --provider, or "demo" for --demo
    model: str | None = None
    mode: Mode | None = None  # --permission-mode
    rules: tuple[RuleEntry, ...] = ()  # --allowedTools / --disallowedTools
    max_turns: int | None = None  # --max-turns: model rounds per turn
    max_budget_usd: float | None = None  # --max-budget-usd: the session's cost limit
    add_dirs: tuple[str, ...] = ()  # --add-dir, absolute: as permissions.additionalDirectories
    system_prompt: str | None = None  # --system-prompt
    append_system_prompt: str | None = None  # --append-system-prompt
    mcp: tuple[CliMcpConfig, ...] = ()  # --mcp-config, read and checked
    strict_mcp: bool = False  # --strict-mcp-config
    settings_arg: str | None = None  # --settings FILE|JSON, applied last as the user's own
    builtin_tools: tuple[str, ...] | None = None  # --tools: the built-ins offered (None: all)
    session_id: str | None = None  # --session-id: the new session's UUID


@dataclass
class TuiOptions:
    """What `mewcode` (the CLI) hands the TUI."""

    cwd: Path
    paths: MewcodePaths
    settings: Settings
    provider_name: str | None = None
    model: str | None = None
    mode: Mode = "default"
    inline: bool = False
    resume_id: str | None = None
    continue_latest: bool = False
    demo: bool = False
    prompt: str | None = None  # first message to send once ready
    flags: StartFlags = field(default_factory=StartFlags)
    ask_trust: bool = False  # an untrusted project: the trust dialog comes first

    @property
    def needs_setup(self) -> bool:
        """No provider configured and no demo: the first-run screen comes first."""
        return self.provider_name is None and not self.demo


def build_provider(options: TuiOptions, env: Mapping[str, str] | None = None) -> Provider:
    """Make the configured provider and warm its SDK import (blocking: run in a thread)."""
    from agent_core.llm.factory import make_provider

    name = "demo" if options.demo else (options.provider_name or "")
    provider = make_provider(
        name, options.model, settings=options.settings, env=env or os.environ, cwd=options.cwd
    )
    module = SDK_MODULES.get(provider.name)
    if module is not None:
        importlib.import_module(module)
    return provider


def runtime_options(
    cwd: Path,
    paths: MewcodePaths,
    settings: Settings,
    provider: Provider,
    flags: StartFlags,
    *,
    mode: Mode,
    resume_id: str | None,
    continue_latest: bool,
    env: Mapping[str, str] | None = None,
) -> RuntimeOptions:
    """The runtime options for what the command line chose: one place for `-p` and the UI.

    The session's MCP servers are read from their config here; none is started yet.
    """
    from agent_core.agent.prompt import PromptChoice
    from agent_core.agent.runtime import RuntimeOptions
    from agent_core.mcp.session_servers import open_mcp_servers

    mcp, mcp_problems = open_mcp_servers(
        paths,
        settings,
        env if env is not None else os.environ,
        cli=flags.mcp,
        strict=flags.strict_mcp,
    )
    return RuntimeOptions(
        cwd=cwd,
        paths=paths,
        settings=settings,
        provider=provider,
        mode=mode,
        resume_id=resume_id,
        continue_latest=continue_latest,
        cli_rules=list(flags.rules),
        max_iterations=flags.max_turns,
        max_budget_usd=flags.max_budget_usd,
        tools=_offered_tools(flags.builtin_tools),
        session_id=flags.session_id,
        env=env,
        mcp=mcp,
        mcp_problems=mcp_problems,
        prompt=PromptChoice(flags.system_prompt, flags.append_system_prompt),
    )


def _offered_tools(names: tuple[str, ...] | None) -> list[Tool] | None:
    """The built-in tools ``--tools`` named, in the table's order (None: every one)."""
    if names is None:
        return None
    from agent_core.tools.builtin import BUILTIN_TOOL_NAMES, builtin_tool_class

    return [builtin_tool_class(name)() for name in BUILTIN_TOOL_NAMES if name in names]


def load_run_settings(paths: MewcodePaths, flags: StartFlags, *, trust_project: bool) -> Settings:
    """The settings files merged, then what the flags add (``--settings``, ``--add-dir``)."""
    from agent_core.config.settings import load_settings

    settings = load_settings(paths, trust_project=trust_project, cli_settings=flags.settings_arg)
    return with_flags(settings, flags)


def with_flags(settings: Settings, flags: StartFlags) -> Settings:
    """``settings`` with the folders ``--add-dir`` named: the user's own, no trust needed."""
    if not flags.add_dirs:
        return settings
    return replace_settings(
        settings, additional_directories=[*settings.additional_directories, *flags.add_dirs]
    )


async def open_runtime(
    options: TuiOptions, provider: Provider, env: Mapping[str, str] | None = None
) -> RuntimeSession:
    """Open (or resume) the session the TUI drives."""
    from agent_core.agent.runtime import Runtime

    return await Runtime.open(
        runtime_options(
            options.cwd,
            options.paths,
            options.settings,
            provider,
            options.flags,
            mode=options.mode,
            # "" is `--resume` without an id: the picker (choose_session) sets a
            # real id first; if it was skipped, a new session opens.
            resume_id=options.resume_id or None,
            continue_latest=options.continue_latest,
            env=env,
        )
    )


async def choose_session(screen: Any) -> TuiOptions:
    """`mewcode --resume` without an id: the options with the session picked in the picker."""
    from agent_core.protocol.queries import session_summaries
    from mewcode_tui.screens.resume import ResumeScreen

    sessions = await asyncio.to_thread(session_summaries, screen.paths)  # reads every file
    chosen = None
    if not sessions:
        screen.say("No saved sessions in this project yet: starting a new one.")
    else:
        chosen = await screen.app.push_screen_wait(ResumeScreen(sessions))
        if chosen is None:
            screen.say("No session picked: starting a new one.")
    return replace(screen.options, resume_id=chosen)


def options_after_setup(options: TuiOptions, choice: Any) -> tuple[TuiOptions, dict[str, str]]:
    """Options and environment for a first-run ``SetupChoice`` (key in env for this run)."""
    if choice.provider == "demo":
        return demo_options(options), dict(os.environ)
    settings = options.settings
    if choice.base_url:
        settings = replace_settings(settings, base_url=choice.base_url)
    env = dict(os.environ)
    key_env = settings.api_key_env or PROVIDERS[choice.provider].key_env
    if choice.api_key and key_env:
        env[key_env] = choice.api_key
    updated = replace(
        options,
        provider_name=choice.provider,
        model=choice.model or options.model,
        settings=settings,
    )
    return updated, env


def demo_options(options: TuiOptions) -> TuiOptions:
    """The options for the offline demo: a scratch copy of the project, trusted (no settings)."""
    from agent_core.llm.demo_workspace import open_demo_workspace

    paths = open_demo_workspace(options.paths)
    settings = load_run_settings(paths, options.flags, trust_project=True)
    return replace(
        options, demo=True, provider_name="demo", cwd=paths.project, paths=paths, settings=settings
    )


def needs_trust_dialog(paths: MewcodePaths, settings: Settings) -> bool:
    """Untrusted, or trusted with hooks or MCP servers new or changed since: ask."""
    from agent_core.config.program_trust import pending_changes

    return not settings.project_trusted or bool(pending_changes(paths, settings))


def options_for(options: TuiOptions, settings: Settings, env: Mapping[str, str]) -> TuiOptions:
    """The options with ``settings`` in force: flags first, then what the settings say."""
    from agent_core.llm.factory import detect_provider

    flags = options.flags
    provider = "demo" if options.demo else flags.provider or detect_provider(settings, env)
    return replace(
        options,
        settings=settings,
        provider_name=provider,
        model=flags.model or settings.model,
        mode=flags.mode or settings.default_mode,
    )


def trust_project(
    options: TuiOptions, env: Mapping[str, str] | None = None
) -> tuple[TuiOptions, list[str]]:
    """The answer "trust this folder": record it and reload the settings in full.

    Returns the options and notes for the user.

    When the reload fails the options stay restricted; when only recording fails
    the folder is trusted for this session.
    """
    from agent_core.config.trust import record_trust
    from agent_core.errors import ConfigError

    notes: list[str] = []
    options = replace(options, ask_trust=False)
    try:
        record_trust(options.paths)
    except ConfigError as exc:
        notes.append(f"Trusted for this session only: {exc}")
    try:
        settings = load_run_settings(options.paths, options.flags, trust_project=True)
    except ConfigError as exc:
        return options, [f"Still restricted: {exc}"]
    return options_for(options, settings, env if env is not None else os.environ), notes


def replace_settings(settings: Settings, **changes: Any) -> Settings:
    import msgspec

    return msgspec.structs.replace(settings, **changes)
