"""The docs in the repository are what the code points at: no pointer to a spec that is not
here, and every ``docs/<page>.md#<anchor>`` pointer and every relative link names a file and
heading that exist (docs/architecture.md#a-page-of-these-docs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CODE_FOLDERS = ("agent_core", "mewcode_tui", "tests", "bench", "scripts")
CODE_FILES = ("Makefile", "pyproject.toml")
CODE_SUFFIXES = {".py", ".tcss", ".toml", ".yaml", ".yml", ".json", ".md", ".txt", ".sh"}

PENDING_LINES: set[tuple[str, str]] = set()  # (file, exact line) a reference may stay on
PENDING_PAGES: set[str] = set()  # docs pages links may name before they are written

SPEC_REFERENCE = re.compile(r"SPEC\s*(§|section\b)", re.IGNORECASE)
POINTER = re.compile(r"docs/([\w./-]+\.md)#([\w-]+)")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def code_files() -> list[Path]:
    files = [ROOT / name for name in CODE_FILES]
    for folder in CODE_FOLDERS:
        files += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.is_file() and p.suffix in CODE_SUFFIXES and "__snapshots__" not in p.parts
        ]
    return sorted(files)


def doc_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    in_fence = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and (m := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)):
            base = slug(m.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def target_problem(page: Path, anchor: str | None) -> str | None:
    """Why ``page#anchor`` does not resolve, or None when it does."""
    relative = page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else str(page)
    if not page.is_file():
        return None if relative in PENDING_PAGES else f"no file {relative}"
    if anchor and anchor not in anchors(page):
        return f"no heading #{anchor} in {relative}"
    return None


def test_slug_matches_githubs_anchors() -> None:
    assert slug("Headless mode (`-p`)") == "headless-mode--p"
    assert slug("Project instructions (memory files)") == "project-instructions-memory-files"
    assert slug("Warm start (preload server)") == "warm-start-preload-server"


def test_no_spec_section_reference_is_left_in_the_code() -> None:
    left = []
    for file in code_files():
        if file == Path(__file__):
            continue
        relative = file.relative_to(ROOT).as_posix()
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if SPEC_REFERENCE.search(line) and (relative, line.strip()) not in PENDING_LINES:
                left.append(f"{relative}:{number}: {line.strip()}")
    assert left == []


def test_the_spec_check_sees_a_reference() -> None:
    # What the check above relies on: both spellings are found, a neighbouring word is not.
    assert SPEC_REFERENCE.search("stays (SPEC §6 layer 2)")
    assert SPEC_REFERENCE.search("the verdict SPEC section 6 implies")
    assert not SPEC_REFERENCE.search("_GITIGNORE_SPECIAL = re.compile(...)")


def test_every_docs_pointer_in_the_code_resolves() -> None:
    pointers = []
    for file in code_files():
        if file == Path(__file__):
            continue
        text = file.read_text(encoding="utf-8")
        for m in POINTER.finditer(text):
            pointers.append((file.relative_to(ROOT).as_posix(), m.group(1), m.group(2)))
    assert len(pointers) >= 40  # the code points at the docs, and the pattern finds it
    problems = [
        f"{where}: {problem}"
        for where, name, anchor in pointers
        if (problem := target_problem(ROOT / "docs" / name, anchor))
    ]
    assert problems == []


@pytest.mark.parametrize("page", doc_pages(), ids=lambda p: p.name)
def test_every_relative_link_in_the_docs_resolves(page: Path) -> None:
    problems = []
    in_fence = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            name, _, anchor = target.partition("#")
            file = (page.parent / name).resolve() if name else page
            if problem := target_problem(file, anchor or None):
                problems.append(f"{page.name}: [{target}]: {problem}")
    assert problems == []


def test_a_broken_pointer_is_reported(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## Known gaps\n\n```\n## not a heading\n```\n")
    assert target_problem(page, "known-gaps") is None
    assert target_problem(page, "not-a-heading") is not None
    assert target_problem(tmp_path / "missing.md", None) is not None
