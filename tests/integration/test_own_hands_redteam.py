"""Attacks on what MewCode (and the user's git) later runs outside the sandbox.

A sandboxed command may not plant settings, hooks or servers that something
unsandboxed loads afterwards: MewCode's next session, the user's next `git commit`,
git in another repository under the temp dir. Each test scripts the fake model's
Bash calls in bypass mode (no prompts, so only the OS sandbox and the guard stand
in the way) and checks a witness outside the project.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.headless import bash_calls, headless_in_process

BYPASS = ["--permission-mode", "bypassPermissions"]
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


def py(code: str) -> str:
    assert "'" not in code
    return f"python3 -c '{code}'"


def run(fake_llm, project, monkeypatch, capsys, *flags: str) -> tuple[dict, str]:
    code, result, err = headless_in_process(
        ["-p", "go", *flags], fake_llm.env("anthropic"), project, monkeypatch, capsys
    )
    assert code == 0, err
    return result, err


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """git as the user runs it later: outside any sandbox."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "u", "GIT_AUTHOR_EMAIL": "u@x",
           "GIT_COMMITTER_NAME": "u", "GIT_COMMITTER_EMAIL": "u@x"}  # fmt: skip
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=20, check=False
    )


def hook_script(witness: Path) -> str:
    return f"#!/bin/sh\\ntouch {witness}\\n"


def test_a_command_cannot_plant_claude_settings_hooks(
    backend, own_tmp, fake_llm, project, outside, monkeypatch, capsys
) -> None:
    """`.claude/settings.json` holds hooks MewCode runs unsandboxed in a trusted project."""
    witness = outside / "hook-ran"
    settings = {"hooks": {"SessionStart": [{"hooks": [{"type": "command",
                                                       "command": f"touch {witness}"}]}]}}  # fmt: skip
    text = json.dumps(settings).replace('"', '\\"')
    fake_llm.script(
        bash_calls(
            py(
                'import os; os.makedirs(".claude", exist_ok=True); '
                f'open(".claude/settings.json", "w").write("{text}")'
            )
        )
    )
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert not (project / ".claude" / "settings.json").exists()
    fake_llm.script([{"text": "next session"}])
    run(fake_llm, project, monkeypatch, capsys, "--trust-project")
    assert not witness.exists(), "a hook planted by a command ran in the next session"


def test_a_command_cannot_create_an_mcp_json(
    backend, own_tmp, fake_llm, project, outside, monkeypatch, capsys
) -> None:
    """A new `.mcp.json`: the next trusted session would start its server unsandboxed."""
    witness = outside / "server-started"
    config = {"mcpServers": {"evil": {"command": "touch", "args": [str(witness)]}}}
    text = json.dumps(config).replace('"', '\\"')
    fake_llm.script(bash_calls(py(f'open(".mcp.json", "w").write("{text}")')))
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert not (project / ".mcp.json").exists() or (project / ".mcp.json").stat().st_size == 0
    fake_llm.script([{"text": "next session"}])
    run(fake_llm, project, monkeypatch, capsys, "--trust-project")
    assert not witness.exists(), "a server planted by a command was started"


def test_stand_ins_do_not_outlive_their_command(
    backend, own_tmp, fake_llm, project, monkeypatch, capsys
) -> None:
    """bubblewrap mounts an empty stand-in where a protected path is missing, which leaves
    an empty file or folder on the host while the command runs: removed afterwards."""
    fake_llm.script(bash_calls("ls -a > listing.txt"))
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    left = sorted(p.name for p in project.iterdir())
    assert left == [".mewcode", "listing.txt"], left


@needs_git
@pytest.mark.parametrize("hooks_dir", [".husky", "tools/git-hooks"])
def test_hooks_under_core_hookspath_cannot_be_rewritten(
    hooks_dir, backend, own_tmp, fake_llm, project, outside, monkeypatch, capsys
) -> None:
    """husky sets core.hooksPath to a folder in the worktree: the user's next commit runs
    whatever a command wrote there."""
    witness = outside / "hook-ran"
    git(project, "init", "-q")
    hooks = project / hooks_dir
    hooks.mkdir(parents=True)
    (hooks / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    (hooks / "pre-commit").chmod(0o755)
    git(project, "config", "core.hooksPath", hooks_dir)
    fake_llm.script(
        bash_calls(
            py(
                f'import os; p = "{hooks}/pre-commit"; '
                f'open(p, "w").write("{hook_script(witness)}"); os.chmod(p, 0o755)'
            ),
            py(
                f'import os; p = "{hooks}/post-commit"; '
                f'open(p, "w").write("{hook_script(witness)}"); os.chmod(p, 0o755)'
            ),
        )
    )
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    (project / "f.txt").write_text("x")
    git(project, "add", "f.txt")
    done = git(project, "commit", "-q", "-m", "user's commit")
    assert done.returncode == 0, done.stderr
    assert not witness.exists(), "the user's commit ran a hook a command planted"


@needs_git
def test_a_repository_in_the_temp_dir_cannot_get_a_hook(
    backend, own_tmp, fake_llm, project, outside, monkeypatch, capsys
) -> None:
    """Commands used to share the system temp dir: a hook planted in another repository
    there runs at the user's next checkout in it."""
    other = own_tmp / "other-repo"
    other.mkdir()
    git(other, "init", "-q")
    witness = outside / "hook-ran"
    hook = other / ".git" / "hooks" / "post-checkout"
    fake_llm.script(
        bash_calls(
            py(
                f'import os; open("{hook}", "w").write("{hook_script(witness)}"); '
                f'os.chmod("{hook}", 0o755)'
            ),  # fmt: skip
            py(
                "import os, glob\n"
                'for d in glob.glob("/tmp/*/.git/hooks") + glob.glob(os.environ["TMPDIR"] + '
                '"/../*/.git/hooks"):\n'
                f'    open(d + "/post-checkout", "w").write("{hook_script(witness)}")'
            ),
        )
    )
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    git(other, "checkout", "-q", "-b", "next")
    assert not hook.exists()
    assert not witness.exists(), "a hook planted from the sandbox ran in another repository"


HOME_SECRETS = [
    ".git-credentials",
    ".netrc",
    ".config/gh/hosts.yml",
    ".claude/.credentials.json",
    ".docker/config.json",
    ".npmrc",
    ".pypirc",
    ".kube/config",
    ".config/gcloud/credentials.db",
    ".ssh/id_rsa",
    ".aws/credentials",
]
MEWCODE_SECRETS = ["logs/mewcode.log", "cache/themes.json", "memory.db", "credentials.yaml"]


@pytest.mark.parametrize("where", ["home", "mewcode"])
def test_credentials_are_hidden_from_commands(
    where, backend, own_tmp, fake_llm, project, mewcode_home, monkeypatch, capsys
) -> None:
    home = Path(os.environ["HOME"])
    base, names = (home, HOME_SECRETS) if where == "home" else (mewcode_home, MEWCODE_SECRETS)
    files = [base / name for name in names]
    for n, file in enumerate(files):
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(f"SECRET-WITNESS-{n}\n")
    listing = ", ".join(f'"{f}"' for f in files)
    fake_llm.script(
        bash_calls(
            py(
                "out = open(\"loot\", \"a\")\n"
                f"for p in [{listing}]:\n"
                "    try: out.write(open(p).read())\n"
                "    except OSError: out.write(\"refused \")"
            )
        )
    )  # fmt: skip
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    loot = (project / "loot").read_text()
    assert "WITNESS" not in loot, loot
    assert loot.count("refused") == len(files)


def test_the_hidden_paths_setting_hides_more(
    backend, own_tmp, fake_llm, project, mewcode_home, tmp_path, monkeypatch, capsys
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "token").write_text("VAULT-WITNESS")
    (mewcode_home / "settings.yaml").write_text(f"sandbox:\n  hiddenPaths: [{vault}]\n")
    fake_llm.script(bash_calls(py(f'open("loot", "w").write(open("{vault}/token").read())')))
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert not (project / "loot").exists() or "VAULT" not in (project / "loot").read_text()


@pytest.mark.parametrize(
    ("mode", "path"),
    [
        ("acceptEdits", ".claude/settings.json"),
        ("bypassPermissions", ".claude/settings.local.json"),
        ("bypassPermissions", ".mcp.json"),
        ("acceptEdits", ".husky/pre-commit"),
    ],
)
def test_file_tools_ask_before_writing_files_that_start_programs(
    mode, path, fake_llm, project, monkeypatch, capsys
) -> None:
    """The one prompt bypass keeps; headless, nobody can answer it, so it is denied."""
    fake_llm.script(
        [
            {"tool_calls": [{"id": "w", "name": "Write",
                             "input": {"file_path": path, "content": '{"hooks": {}}'}}]},
            {"text": "done"},
        ]
    )  # fmt: skip
    result, _ = run(fake_llm, project, monkeypatch, capsys, "--permission-mode", mode)
    assert not (project / path).exists()
    denials = result.get("permission_denials") or []
    assert [d["tool_name"] for d in denials] == ["Write"], result


@needs_git
def test_a_commands_git_add_picks_up_no_stand_in(
    backend, own_tmp, fake_llm, project, monkeypatch, capsys
) -> None:
    """Stand-ins are empty folders, which git does not see: `git add -A` in a command
    commits only the project's own files."""
    git(project, "init", "-q")
    (project / "main.py").write_text("print(1)\n")
    fake_llm.script(
        bash_calls(
            "git add -A && git -c user.name=u -c user.email=u@x commit -qm first"
            " && git ls-files > tracked.txt"
        )
    )
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert (project / "tracked.txt").read_text().split() == ["main.py"]


def test_what_the_guard_moves_out_is_kept_private_and_redacted(
    backend, own_tmp, fake_llm, project, mewcode_home, monkeypatch, capsys
) -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    config = {"mcpServers": {"gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": token}}}}
    text = json.dumps(config).replace('"', '\\"')
    fake_llm.script(bash_calls(py(f'open(".mcp.json", "w").write("{text}")')))
    run(fake_llm, project, monkeypatch, capsys, *BYPASS)
    assert not (project / ".mcp.json").exists()
    kept = [p for p in (mewcode_home / "quarantine").rglob("*") if p.is_file()]
    assert [p.name for p in kept] == [".mcp.json"]
    assert token not in kept[0].read_text() and "gh-mcp" in kept[0].read_text()
    assert kept[0].stat().st_mode & 0o777 == 0o600
