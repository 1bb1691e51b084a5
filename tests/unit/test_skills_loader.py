"""Skills on disk (docs/configuration.md#skills): Agent Skills front matter, malformed skills, layer order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agent_core.config.paths import MewcodePaths
from agent_core.skills.loader import (
    BUILTIN_DIR,
    SkillLibrary,
    SkillProblem,
    parse_skill,
    skill_roots,
)


def skill_text(name: str, description: str = "Does a thing.", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n# {name}\n\nSteps.\n"


def write_skill(root: Path, folder: str, text: str) -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def user_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


def library(paths: MewcodePaths, user_home: Path) -> SkillLibrary:
    return SkillLibrary.for_session(paths, user_home)


def test_a_well_formed_skill_and_its_optional_fields() -> None:
    text = skill_text(
        "pdf-forms",
        "Fill PDF forms.",
        "tags: [pdf, forms]\nallowed-tools: Bash(pdftk:*) Read, Grep\nlicense: MIT\n",
    )
    skill = parse_skill(text, Path("/s/pdf-forms/SKILL.md"), "user")
    assert (skill.name, skill.description, skill.tags) == (
        "pdf-forms",
        "Fill PDF forms.",
        ("pdf", "forms"),
    )
    assert skill.allowed_tools == ("Bash(pdftk:*)", "Read", "Grep")
    assert skill.body == "# pdf-forms\n\nSteps."
    assert skill.folder == Path("/s/pdf-forms")


@pytest.mark.parametrize(
    ("folder", "text", "problem"),
    [
        ("x", "# no front matter\n", "no YAML front matter"),
        ("x", "---\nname: x\ndescription: d\n# never closed\n", "not closed"),
        ("x", "---\nname: [x\n---\nbody\n", "not valid YAML (line 2; expected ','"),
        (
            "x",
            "---\nname: x\ndescription: Use when: always\n---\nbody\n",
            "not valid YAML (line 3; mapping values are not allowed here) (quote a value",
        ),
        ("x", "---\n- a list\n---\nbody\n", "not a mapping"),
        ("x", "---\ndescription: d\n---\nbody\n", "'name' is missing"),
        ("Bad", skill_text("Bad"), "lowercase letters"),
        ("a--b", skill_text("a--b"), "single hyphens"),
        ("-a", skill_text("-a"), "single hyphens"),
        ("a" * 65, skill_text("a" * 65), "1-64"),
        ("other", skill_text("mine"), "does not match its folder 'other'"),
        ("x", "---\nname: x\n---\nbody\n", "'description' is missing"),
        ("x", skill_text("x", "d" * 1025), "1025 characters (at most 1024)"),
        ("x", skill_text("x", extra="tags: {a: 1}\n"), "'tags' must be a list of strings"),
        ("x", "---\nname: x\ndescription: d\n---\n\n", "no instructions"),
    ],
)
def test_malformed_front_matter_says_what_is_wrong(folder: str, text: str, problem: str) -> None:
    with pytest.raises(SkillProblem, match=re.escape(problem)):
        parse_skill(text, Path(f"/s/{folder}/SKILL.md"), "project")


def test_limits_hold_exactly_at_their_boundaries() -> None:
    longest = "a" * 64
    skill = parse_skill(skill_text(longest, "d" * 1024), Path(f"/s/{longest}/SKILL.md"), "user")
    assert skill.name == longest and len(skill.description) == 1024
    assert parse_skill(skill_text("a"), Path("/s/a/SKILL.md"), "user").name == "a"


def test_each_malformed_skill_is_skipped_with_one_warning_naming_its_file(
    paths: MewcodePaths, user_home: Path
) -> None:
    root = paths.project / ".mewcode" / "skills"
    good = write_skill(root, "good", skill_text("good"))
    bad_name = write_skill(root, "wrong", skill_text("right"))
    no_meta = write_skill(root, "plain", "just text\n")
    binary = root / "binary" / "SKILL.md"
    binary.parent.mkdir()
    binary.write_bytes(b"---\nname: binary\n\xff\xfe\n---\n")
    (root / "not-a-skill").mkdir()  # a folder without SKILL.md is simply not a skill
    found = library(paths, user_home).load()
    assert set(found.skills) == {"good", "commit-message"}
    assert found.skills["good"].path == good
    assert len(found.warnings) == 3
    by_file = {w.split(": ")[1]: w for w in found.warnings}
    assert "does not match its folder" in by_file[str(bad_name)]
    assert "no YAML front matter" in by_file[str(no_meta)]
    assert "not UTF-8" in by_file[str(binary)]
    assert all(w.startswith("skill skipped: ") and "\n" not in w for w in found.warnings)


def test_project_beats_user_beats_builtin_and_mewcode_folders_win_in_a_layer(
    paths: MewcodePaths, user_home: Path
) -> None:
    claude_user = user_home / ".claude" / "skills"
    mew_user = paths.home / "skills"
    agents, claude_project, mew_project = (
        paths.project / d / "skills" for d in (".agents", ".claude", ".mewcode")
    )
    # Each name is defined in every folder from the lowest up to some layer.
    folders = [claude_user, mew_user, agents, claude_project, mew_project]
    for top, name in enumerate(["s1", "s2", "s3", "s4", "s5"]):
        for folder in folders[: top + 1]:
            write_skill(folder, name, skill_text(name, f"from {folder}"))
    write_skill(mew_project, "commit-message", skill_text("commit-message", "ours"))
    found = library(paths, user_home).load().skills
    for top, name in enumerate(["s1", "s2", "s3", "s4", "s5"]):
        assert found[name].description == f"from {folders[top]}"
    assert found["s1"].layer == "user" and found["s5"].layer == "project"
    assert found["commit-message"].description == "ours"
    assert found["commit-message"].layer == "project"


def test_the_roots_are_the_five_folders_and_the_builtin_one(paths: MewcodePaths) -> None:
    home = Path("/h")
    roots = [(r.layer, r.folder) for r in skill_roots(paths, home)]
    assert roots == [
        ("built-in", BUILTIN_DIR),
        ("user", home / ".claude" / "skills"),
        ("user", paths.home / "skills"),
        ("project", paths.project / ".agents" / "skills"),
        ("project", paths.project / ".claude" / "skills"),
        ("project", paths.project / ".mewcode" / "skills"),
    ]


def test_the_builtin_skill_is_real(paths: MewcodePaths, user_home: Path) -> None:
    skill = library(paths, user_home).load().skills["commit-message"]
    assert skill.layer == "built-in" and "imperative" in skill.body and len(skill.body) > 1000


def test_a_changed_file_is_parsed_again(paths: MewcodePaths, user_home: Path) -> None:
    lib = library(paths, user_home)
    path = write_skill(paths.home / "skills", "tidy", skill_text("tidy", "first"))
    assert lib.load().skills["tidy"].description == "first"
    path.write_text(skill_text("tidy", "second, longer"))
    assert lib.load().skills["tidy"].description == "second, longer"
    path.write_text("broken")
    assert "tidy" not in lib.load().skills


def test_readable_dirs_are_builtin_and_user_skill_folders_only(
    paths: MewcodePaths, user_home: Path
) -> None:
    user = write_skill(paths.home / "skills", "mine", skill_text("mine")).parent
    write_skill(paths.project / ".mewcode" / "skills", "theirs", skill_text("theirs"))
    dirs = library(paths, user_home).readable_dirs()
    assert user.resolve() in dirs and (BUILTIN_DIR / "commit-message").resolve() in dirs
    assert not any(str(d).startswith(str(paths.project)) for d in dirs)


def test_skill_rules_are_rules_for_a_real_tool() -> None:
    from agent_core.config.rule_syntax import names_missing_tool, rule_problem

    # Skill was once a Claude Code tool MewCode lacked; now rules naming it are valid.
    assert rule_problem("Skill") is None and not names_missing_tool("Skill")
