"""A session's provider built for ``/model`` off the event loop, and closed when done."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from pathlib import Path

from agent_core.config.settings import Settings
from agent_core.llm.base import Provider


async def built_provider(
    name: str, model: str, settings: Settings, env: Mapping[str, str] | None, cwd: Path
) -> Provider:
    """The provider ``name`` for ``model``; ``env`` None reads the process environment."""
    from agent_core.llm.factory import make_provider

    # In a thread: a vendor SDK may be imported now, which takes a moment.
    return await asyncio.to_thread(
        make_provider,
        name,
        model,
        settings=settings,
        env=env if env is not None else os.environ,
        cwd=cwd,
    )


async def close_provider(provider: Provider) -> None:
    """Close a provider's HTTP client, when it has one."""
    aclose = getattr(provider, "aclose", None)
    if aclose is not None:
        await aclose()
