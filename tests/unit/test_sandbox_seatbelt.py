"""Seatbelt profiles and backend selection, with the platform faked (neither can run here)."""

from __future__ import annotations

import re

import pytest

from agent_core.sandbox.policy import SandboxPolicy
from agent_core.sandbox.seatbelt import SANDBOX_EXEC, seatbelt_argv, seatbelt_profile
from agent_core.sandbox.selection import NoSandbox, Probes, choose_backend
from agent_core.sandbox.status import SandboxStatus, status_report

POLICY = SandboxPolicy(
    writable=("/Users/u/proj", "/private/tmp"),
    read_only=("/Users/u/proj/.git/hooks",),
    hidden=("/Users/u/.ssh", "/Users/u/.mewcode/credentials.yaml"),
    network=False,
)


def rules(profile: str) -> list[str]:
    return [line for line in profile.splitlines() if line.startswith("(")]


def test_profile_allows_by_default_and_denies_writes_except_the_writable_roots() -> None:
    profile, params = seatbelt_profile(POLICY)
    lines = rules(profile)
    assert lines[:3] == ["(version 1)", "(allow default)", "(deny file-write*)"]
    assert params["WRITABLE_0"] == "/Users/u/proj" or params["WRITABLE_0"] == "/private/tmp"
    assert set(params.values()) == set(POLICY.writable + POLICY.read_only + POLICY.hidden)
    # SBPL: the last matching rule wins, so the read-only re-deny comes after its root.
    name_of = {path: name for name, path in params.items()}
    allow_proj = lines.index(f'(allow file-write* (subpath (param "{name_of["/Users/u/proj"]}")))')
    deny_hooks = lines.index(
        f'(deny file-write* (subpath (param "{name_of["/Users/u/proj/.git/hooks"]}")))'
    )
    assert allow_proj < deny_hooks
    for hidden in POLICY.hidden:
        assert f'(deny file-read* file-write* (subpath (param "{name_of[hidden]}")))' in lines
    assert lines[-1] == "(deny network*)"
    assert '(literal "/dev/null")' in profile


def test_network_on_has_no_network_rule() -> None:
    profile, _ = seatbelt_profile(SandboxPolicy(writable=("/p",), network=True))
    assert "network" not in profile


@pytest.mark.parametrize(
    "odd",
    [
        '/Users/u/a "quoted" dir',
        "/Users/u/back\\slash",
        '/Users/u/x")) (allow file-write* (subpath "/',
        "/Users/u/new\nline",
    ],
)
def test_paths_never_enter_the_profile_text(odd: str) -> None:
    # A path that could close the string and add a rule travels as a -D parameter instead.
    policy = SandboxPolicy(writable=(odd,), hidden=(odd + "/.ssh",))
    profile, params = seatbelt_profile(policy)
    assert odd not in profile
    assert profile.count("(allow file-write*") == 2  # devices + the one root
    argv = seatbelt_argv(policy, ["/bin/bash", "-c", "true"])
    assert argv[:3] == [SANDBOX_EXEC, "-p", profile]
    assert f"-DWRITABLE_0={odd}" in argv and f"-DHIDDEN_0={odd}/.ssh" in argv
    assert argv[argv.index("--") + 1 :] == ["/bin/bash", "-c", "true"]
    for name in params:
        assert re.fullmatch(r"[A-Z_]+_[0-9]+", name)


class FakeBackend:
    def __init__(self, name: str) -> None:
        self.name = name

    def status(self, policy=None) -> SandboxStatus:
        return SandboxStatus(self.name, True, [f"{self.name} facts"], [])

    def confine(self, argv, policy, cwd, env):
        raise AssertionError("not launched in these tests")


def probes(platform: str, **have: bool) -> Probes:
    def probe(name: str):
        return lambda: FakeBackend(name) if have.get(name) else f"{name}: not here"

    return Probes(platform, probe("bubblewrap"), probe("landlock"), probe("seatbelt"))


@pytest.mark.parametrize(
    ("platform", "have", "forced", "chosen"),
    [
        ("darwin", {"seatbelt": True}, None, "seatbelt"),
        ("darwin", {}, None, "none"),
        ("darwin", {"seatbelt": True}, "bubblewrap", "none"),
        ("linux", {"bubblewrap": True, "landlock": True}, None, "bubblewrap"),
        ("linux", {"landlock": True}, None, "landlock"),
        ("linux", {}, None, "none"),
        ("linux", {"bubblewrap": True, "landlock": True}, "landlock", "landlock"),
        # A forced backend that cannot run is reported, never swapped for another.
        ("linux", {"bubblewrap": True}, "landlock", "none"),
        ("linux", {"bubblewrap": True, "seatbelt": True}, "seatbelt", "none"),
        ("linux", {"bubblewrap": True}, "none", "none"),
        ("linux", {"bubblewrap": True}, "BubbleWrap ", "bubblewrap"),
        ("win32", {"seatbelt": True}, None, "none"),
    ],
)
def test_selection(platform, have, forced, chosen) -> None:
    assert choose_backend(forced, probes(platform, **have)).name == chosen


def test_no_backend_says_why() -> None:
    backend = choose_backend(None, probes("linux"))
    assert isinstance(backend, NoSandbox)
    status = backend.status()
    assert not status.available
    assert status.missing == ["bubblewrap: not here", "landlock: not here"]
    assert "no OS sandbox" in status_report(status)
    bogus = choose_backend("firejail", probes("linux", bubblewrap=True)).status()
    assert "MEWCODE_SANDBOX='firejail' is not one of" in bogus.missing[0]


def test_report_lists_facts_gaps_and_the_policy_paths() -> None:
    status = SandboxStatus("seatbelt", True, ["writes: only in roots"], ["processes: no ns"])
    text = status_report(status, POLICY)
    assert text.startswith("Sandbox: seatbelt")
    assert "Enforced:\n  - writes: only in roots" in text
    assert "Not enforced:\n  - processes: no ns" in text
    assert "writable:  /Users/u/proj" in text and "hidden:    /Users/u/.ssh" in text
    assert "network:   off" in text
