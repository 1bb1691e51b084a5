"""Loaded skill bodies waiting for the next tool results (docs/configuration.md#skills): the 3 most recent."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from agent_core.messages import TextBlock

BUFFER_SIZE = 3
BODY_CHARS = 5_000
BODY_CUT = "\n… (skill cut at 5 000 characters; read its SKILL.md for the rest)"


@dataclass(frozen=True)
class LoadedSkill:
    """A skill body the model asked for, cut to the body budget."""

    name: str
    folder: Path
    body: str


def bounded_body(body: str, chars: int = BODY_CHARS) -> str:
    """``body`` whole if it fits in ``chars``, else cut so that body and marker fit."""
    return body if len(body) <= chars else body[: chars - len(BODY_CUT)] + BODY_CUT


class SkillBuffer:
    """Holds bodies until the loop takes them; only the ``size`` most recent are kept."""

    def __init__(self, size: int = BUFFER_SIZE) -> None:
        self.size = size
        self._pending: OrderedDict[str, LoadedSkill] = OrderedDict()

    def add(self, skill: LoadedSkill) -> None:
        """Queue ``skill``; loading one again moves it to the newest place."""
        self._pending.pop(skill.name, None)
        self._pending[skill.name] = skill
        while len(self._pending) > self.size:
            self._pending.popitem(last=False)

    def pending(self) -> list[LoadedSkill]:
        return list(self._pending.values())

    def take_blocks(self) -> list[TextBlock]:
        """The queued bodies as text blocks, oldest first; the buffer is empty after."""
        blocks = [
            TextBlock(
                f'<skill name="{s.name}" folder="{s.folder}">\n'
                f"Instructions of the skill {s.name}; files they name are in {s.folder}.\n\n"
                f"{s.body}\n</skill>"
            )
            for s in self._pending.values()
        ]
        self._pending.clear()
        return blocks
