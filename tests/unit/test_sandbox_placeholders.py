"""Protected paths that do not exist yet, and the session's private /tmp, in bwrap's plan."""

from __future__ import annotations

from pathlib import Path

from agent_core.sandbox.bwrap import bwrap_argv
from agent_core.sandbox.bwrap_plan import mount_layers, placeholders
from agent_core.sandbox.bwrap_stubs import StubLedger
from agent_core.sandbox.policy import Protected, SandboxPolicy


def kinds(existing: dict[str, str]):
    return lambda path: existing.get(path)


def test_a_missing_protected_path_gets_a_stand_in_an_existing_one_is_bound_read_only() -> None:
    policy = SandboxPolicy(
        writable=("/p",),
        protected=(Protected("/p/.mcp.json", "file"), Protected("/p/.claude", "dir"),
                   Protected("/p/.vscode", "dir")),
    )  # fmt: skip
    kind = kinds({"/p": "dir", "/p/.vscode": "dir"})
    # Folders only: a file stand-in would be picked up by a command's `git add -A`.
    assert placeholders(policy, kind) == [("/p/.claude", "dir")]
    assert ("/p/.vscode", False) in mount_layers(policy, kind)
    text = " ".join(bwrap_argv(policy, Path("/p"), ["true"], kind=kind))
    assert "/p/.mcp.json" not in text
    assert "--tmpfs /p/.claude --remount-ro /p/.claude" in text


def test_no_stand_in_without_its_parent_or_outside_writable_places() -> None:
    policy = SandboxPolicy(
        writable=("/p",),
        protected=(Protected("/p/.git/hooks", "dir"), Protected("/elsewhere/.mcp.json", "file"),
                   Protected("/p/.git/commondir", "file")),
    )  # fmt: skip
    # No .git: `git init` stays possible (the guard checks what it made).
    assert placeholders(policy, kinds({"/p": "dir", "/elsewhere": "dir"})) == []
    # Files (commondir) are the guard's.
    with_git = kinds({"/p": "dir", "/p/.git": "dir"})
    assert placeholders(policy, with_git) == [("/p/.git/hooks", "dir")]


def test_under_a_private_tmp_entries_in_tmp_are_bound_whatever_their_mode() -> None:
    policy = SandboxPolicy(
        writable=("/tmp/s/p", "/tmp/s/scratch"),
        read_only=("/tmp/h",),
        hidden=("/tmp/m", "/tmp/h/.ssh"),
        temp_dir="/tmp/s/scratch",
    )
    kind = kinds(
        {p: "dir" for p in ("/tmp/s/p", "/tmp/s/scratch", "/tmp/h", "/tmp/m", "/tmp/h/.ssh")}
    )
    layers = mount_layers(policy, kind)
    assert ("/tmp/h", False) in layers  # a read-only home in /tmp must stay visible
    assert ("/tmp/s/p", True) in layers
    argv = bwrap_argv(policy, Path("/tmp/s/p"), ["true"], kind=kind)
    text = " ".join(argv)
    assert text.index("--bind /tmp/s/scratch /tmp") < text.index("--bind /tmp/s/p /tmp/s/p")
    assert "--setenv TMPDIR /tmp" in text
    assert "--tmpfs /tmp/h/.ssh" in text  # inside a bound entry: still covered
    assert "/tmp/m" not in argv  # gone with the host's /tmp, nothing brings it back


def test_the_ledger_removes_a_stand_in_when_the_last_launch_ends(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    mcp = project / ".vscode"
    policy = SandboxPolicy(writable=(str(project),), protected=(Protected(str(mcp), "dir"),))
    ledger = StubLedger()
    first = [path for path, _ in ledger.hold(policy)]
    mcp.mkdir()  # what bwrap leaves on the host as its mount point
    second = [
        p for p, _ in ledger.hold(policy)
    ]  # exists now, but is ours: held again, not taken as real
    assert first == second == [str(mcp)]
    ledger.release(first)
    assert mcp.exists()  # the second launch still relies on it
    ledger.release(second)
    assert not mcp.exists()


def test_the_ledger_leaves_what_was_written_into_a_stand_in(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    policy = SandboxPolicy(
        writable=(str(project),), protected=(Protected(str(project / ".claude"), "dir"),)
    )
    ledger = StubLedger()
    assert ledger.hold(policy) == []  # it exists: the user's own, bound read-only
    (project / ".claude").rmdir()
    held = [path for path, _ in ledger.hold(policy)]
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text("{}")  # written from outside
    ledger.release(held)
    assert (project / ".claude" / "settings.local.json").exists()
