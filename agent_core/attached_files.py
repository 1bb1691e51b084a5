"""How an attached file sits in a user message: a text block labelled with its path.

Kept apart from reading and permissions (agent/attachments.py) so the UI can read a
saved message's attachments without importing the tools.
"""

from __future__ import annotations

import json
import re

from agent_core.events import AttachedFile
from agent_core.messages import Message, TextBlock

_HEADER = re.compile(r'^<attached-file path=("(?:[^"\\]|\\.)*") bytes="(\d+)" shown="(\d+)">\n')


def file_block(info: AttachedFile, body: str) -> TextBlock:
    """The block the model reads: header with path and sizes, the content, a note if cut."""
    header = (
        f'<attached-file path={json.dumps(info.path)} bytes="{info.size}" shown="{info.shown}">\n'
    )
    tail = "" if body.endswith("\n") or not body else "\n"
    if info.shown < info.size:
        tail += (
            f"[only the first {info.shown} of {info.size} bytes are attached: "
            "Read the file for the rest]\n"
        )
    return TextBlock(header + body + tail + "</attached-file>")


def attachments_of(message: Message) -> tuple[list[str], list[AttachedFile]]:
    """A saved user message's own texts and the files attached to it (for a resumed chat)."""
    texts: list[str] = []
    files: list[AttachedFile] = []
    for block in message.content:
        if not isinstance(block, TextBlock):
            continue
        match = _HEADER.match(block.text)
        if match is None:
            texts.append(block.text)
        else:
            path = json.loads(match.group(1))
            files.append(AttachedFile(path, int(match.group(2)), int(match.group(3))))
    return texts, files
