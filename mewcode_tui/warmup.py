"""First-use work done while the session opens, so the first answer does not wait for it.

The first streamed answer would otherwise import Markdown support (markdown-it,
Pygments, Rich's renderer), parse the CSS of every Markdown block widget and
compile the Python lexer: tens of milliseconds at the moment text should
appear, and more than a second of imports on a slow machine.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import TYPE_CHECKING

from mewcode_tui.transcript import AssistantEntry

if TYPE_CHECKING:
    from textual.widget import Widget

# One of each block an answer usually has, so each block widget's CSS is parsed.
SAMPLE = (
    "# Title\n\nSome *text* with `code`.\n\n- item\n\n1. step\n\n> quote\n\n"
    "```python\nvalue = 1\n```\n\n| a | b |\n|---|---|\n| c | d |\n\n---\n"
)


async def warm_answer_views(host: Widget, width: int) -> None:
    """Import, style and render the answer views once, out of sight, inside ``host``."""
    await asyncio.to_thread(importlib.import_module, "mewcode_tui.widgets.assistant_view")
    from mewcode_tui.widgets.assistant_view import AssistantMessageView, AssistantTextView

    live = AssistantMessageView(AssistantEntry([SAMPLE]))
    finished = AssistantTextView(AssistantEntry([SAMPLE], done=True))
    for view in (live, finished):
        view.display = False
    await host.mount_all([live, finished])
    if width > 0:
        finished.measure_at(width)  # Rich's Markdown and the lexer, once
    await live.remove()
    await finished.remove()
