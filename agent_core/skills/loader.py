"""Finding and parsing skills: SKILL.md front matter by the Agent Skills rules, three layers.

Layers from lowest to highest: built-in (shipped in ``builtin/``), user
(``~/.claude/skills``, then ``MEWCODE_HOME/skills``) and project
(``.agents/skills``, ``.claude/skills``, then ``.mewcode/skills``). A later
folder replaces an earlier one's skill of the same name, so project beats user
beats built-in, and MewCode's own folder wins within a layer. A malformed
skill is skipped with one warning line naming its file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml

from agent_core.config.paths import MewcodePaths

Layer = Literal["built-in", "user", "project"]
SKILL_FILE = "SKILL.md"
BUILTIN_DIR = Path(__file__).parent / "builtin"
NAME_MAX = 64
DESCRIPTION_MAX = 1_024
FILE_MAX_BYTES = 1_000_000  # a SKILL.md is instructions, not data; bigger is a mistake
# Agent Skills: lowercase letters, digits and single hyphens, not at either end.
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_TOOL_SPLIT = re.compile(r",|\s+(?![^()]*\))")  # commas, or spaces outside Bash(...)


@dataclass(frozen=True)
class SkillRoot:
    """One folder that holds skill folders, and the layer it belongs to."""

    layer: Layer
    folder: Path


@dataclass(frozen=True)
class Skill:
    """One parsed skill."""

    name: str
    description: str
    body: str
    path: Path  # its SKILL.md
    layer: Layer
    tags: tuple[str, ...] = ()
    allowed_tools: tuple[str, ...] = ()

    @property
    def folder(self) -> Path:
        return self.path.parent


@dataclass
class SkillSet:
    """The skills in force by name (highest layer wins) and one line per skipped skill."""

    skills: dict[str, Skill] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


class SkillProblem(Exception):
    """Why a SKILL.md cannot be used (one line)."""


def skill_roots(paths: MewcodePaths, user_home: Path) -> list[SkillRoot]:
    """Every skills folder, lowest precedence first."""
    project = paths.project
    return [
        SkillRoot("built-in", BUILTIN_DIR),
        SkillRoot("user", user_home / ".claude" / "skills"),
        SkillRoot("user", paths.home / "skills"),
        SkillRoot("project", project / ".agents" / "skills"),
        SkillRoot("project", project / ".claude" / "skills"),
        SkillRoot("project", project / ".mewcode" / "skills"),
    ]


def parse_skill(text: str, path: Path, layer: Layer) -> Skill:
    """The skill in one SKILL.md's text; raises SkillProblem saying what is wrong."""
    text = text.replace("\r\n", "\n").lstrip("\ufeff")
    if not text.startswith("---\n"):
        raise SkillProblem("no YAML front matter (the file must start with '---')")
    end = text.find("\n---", 3)
    if end < 0:
        raise SkillProblem("the front matter is not closed by a '---' line")
    try:
        meta = yaml.safe_load(text[4:end])
    except yaml.YAMLError as exc:
        mark, problem = getattr(exc, "problem_mark", None), getattr(exc, "problem", None)
        where = f"line {mark.line + 2}" if mark is not None else ""
        detail = "; ".join(str(x) for x in (where, problem) if x)
        hint = (
            " (quote a value that contains ': ')" if problem and "mapping values" in problem else ""
        )
        raise SkillProblem(f"the front matter is not valid YAML ({detail}){hint}") from None
    if not isinstance(meta, dict):
        raise SkillProblem("the front matter is not a mapping of keys to values")
    name = _name(meta.get("name"), path.parent.name)
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip():
        raise SkillProblem("'description' is missing or not text")
    if len(description) > DESCRIPTION_MAX:
        raise SkillProblem(f"'description' is {len(description)} characters (at most 1024)")
    body = text[end + 4 :].partition("\n")[2].strip()
    if not body:
        raise SkillProblem("no instructions after the front matter")
    return Skill(
        name=name,
        description=" ".join(description.split()),
        body=body,
        path=path,
        layer=layer,
        tags=_strings(meta.get("tags"), "tags"),
        allowed_tools=_allowed_tools(meta.get("allowed-tools")),
    )


def _name(value: object, folder: str) -> str:
    if not isinstance(value, str) or not value:
        raise SkillProblem("'name' is missing or not text")
    if len(value) > NAME_MAX or not _NAME.match(value):
        raise SkillProblem(
            f"'name' {value!r} must be 1-64 lowercase letters, digits and single hyphens"
        )
    if value != folder:
        raise SkillProblem(f"'name' {value!r} does not match its folder {folder!r}")
    return value


def _strings(value: object, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SkillProblem(f"'{key}' must be a list of strings")
    return tuple(v.strip() for v in value if v.strip())


def _allowed_tools(value: object) -> tuple[str, ...]:
    """Claude Code writes "Read, Grep"; Agent Skills "Bash(git:*) Read"; a list is fine too."""
    if isinstance(value, str):
        return tuple(t for t in _TOOL_SPLIT.split(value) if t and t.strip())
    return _strings(value, "allowed-tools")


class SkillLibrary:
    """Finds the skills in its roots on each ``load``; parses a file again only when it changed."""

    def __init__(self, roots: list[SkillRoot]) -> None:
        self.roots = roots
        self._parsed: dict[Path, tuple[tuple[int, int], Skill | str]] = {}

    @classmethod
    def for_session(cls, paths: MewcodePaths, user_home: Path | None = None) -> SkillLibrary:
        return cls(skill_roots(paths, user_home or Path.home()))

    def load(self) -> SkillSet:
        """The skills in force now, with a warning line for each skipped one."""
        found = SkillSet()
        for root in self.roots:
            for path in _skill_files(root.folder):
                parsed = self._parse(path, root.layer)
                if isinstance(parsed, Skill):
                    found.skills[parsed.name] = parsed
                else:
                    found.warnings.append(f"skill skipped: {path}: {parsed}")
        found.skills = dict(sorted(found.skills.items()))
        return found

    def readable_dirs(self) -> list[Path]:
        """Built-in and user skill folders, resolved: the model may Read the files they name.

        Project skills are inside the project already; one that resolves outside it
        gains nothing here (a cloned repo must not widen what is readable).
        """
        dirs: list[Path] = []
        for root in self.roots:
            if root.layer != "project":
                dirs.extend(Path(os.path.realpath(p.parent)) for p in _skill_files(root.folder))
        return dirs

    def _parse(self, path: Path, layer: Layer) -> Skill | str:
        try:
            stat = path.stat()
            stamp = (stat.st_mtime_ns, stat.st_size)
            cached = self._parsed.get(path)
            if cached is not None and cached[0] == stamp and _layer_of(cached[1]) in (layer, None):
                return cached[1]
            if stat.st_size > FILE_MAX_BYTES:
                outcome: Skill | str = f"larger than {FILE_MAX_BYTES // 1_000_000} MB"
            else:
                outcome = parse_skill(path.read_text(encoding="utf-8"), path, layer)
        except SkillProblem as exc:
            outcome = str(exc)
        except UnicodeDecodeError:
            outcome = "not UTF-8 text"
        except OSError as exc:
            return f"cannot be read ({exc.strerror or exc})"
        self._parsed[path] = (stamp, outcome)
        return outcome


def _layer_of(parsed: Skill | str) -> Layer | None:
    return parsed.layer if isinstance(parsed, Skill) else None


def _skill_files(folder: Path) -> list[Path]:
    """``<folder>/<name>/SKILL.md`` for each visible sub-folder that has one, by name."""
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return []
    return [
        child / SKILL_FILE
        for child in children
        if not child.name.startswith(".") and (child / SKILL_FILE).is_file()
    ]
